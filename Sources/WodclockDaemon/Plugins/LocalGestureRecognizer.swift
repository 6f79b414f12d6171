// SPDX-License-Identifier: MIT
// A stand-in for the shared gesture recogniser (ControlKit's `GestureRecognizer`, which the GPIO
// button plugins bring): press and long press only, with the same names and the same pure API,
// so that replacing this file with `import ControlKit` changes nothing else.

/// What a person did with a key.
enum ButtonGesture: Sendable, Equatable, Hashable {
  /// Down and up again before the long-press time.
  case press(button: Int)
  /// Held for the long-press time (reported then, while still held).
  case longPress(button: Int)
  /// Two buttons held together (ControlKit's chords); this stand-in never reports one.
  case combination(Int)
}

/// A gesture and the instant it was decided.
struct RecognizedGesture: Sendable, Equatable {
  var gesture: ButtonGesture
  var instant: Int64

  init(_ gesture: ButtonGesture, at instant: Int64) {
    self.gesture = gesture
    self.instant = instant
  }
}

/// Turns key levels into gestures: a press is decided when the key comes up before its
/// long-press time, a long press when that time passes while it is held (its release then does
/// nothing). Pure: it reads no clock.
struct GestureRecognizer: Sendable {
  private struct ButtonState: Sendable {
    var longPress: Int64
    var downSince: Int64?
    var consumed = false
  }

  private var buttons: [ButtonState]
  /// Everything up to this instant has been decided.
  private(set) var now: Int64 = .min

  /// Creates a recogniser for buttons with these long-press times (nanoseconds; index = button).
  init(longPressTimes: [Int64]) {
    buttons = longPressTimes.map { ButtonState(longPress: $0) }
  }

  /// Whether `button` is down.
  func isDown(_ button: Int) -> Bool { buttons[button].downSince != nil }

  /// Marks `button` as down since before anything was watched: its release fires nothing.
  mutating func assumeHeld(_ button: Int) {
    buttons[button].downSince = now
    buttons[button].consumed = true
  }

  /// The next instant at which a long press may be decided, or nil.
  var nextDeadline: Int64? {
    buttons.compactMap { button in
      button.consumed ? nil : button.downSince.map { $0 + button.longPress }
    }.min()
  }

  /// Reports that `button` went down or came up at `instant` (changes in time order).
  mutating func change(_ button: Int, down: Bool, at instant: Int64) -> [RecognizedGesture] {
    var gestures = advance(to: instant)
    if down {
      guard buttons[button].downSince == nil else { return gestures }
      buttons[button].downSince = instant
      buttons[button].consumed = false
    } else {
      guard buttons[button].downSince != nil else { return gestures }
      if !buttons[button].consumed {
        gestures.append(RecognizedGesture(.press(button: button), at: instant))
      }
      buttons[button].downSince = nil
      buttons[button].consumed = false
    }
    return gestures
  }

  /// Decides every long press whose time has come by `instant`, oldest first.
  mutating func advance(to instant: Int64) -> [RecognizedGesture] {
    var gestures: [RecognizedGesture] = []
    while let deadline = nextDeadline, deadline <= instant {
      for index in buttons.indices where !buttons[index].consumed {
        if let since = buttons[index].downSince, since + buttons[index].longPress == deadline {
          buttons[index].consumed = true
          gestures.append(RecognizedGesture(.longPress(button: index), at: deadline))
        }
      }
    }
    now = max(now, instant)
    return gestures
  }
}
