// SPDX-License-Identifier: MIT
// Press, long press and two-button combinations from debounced button levels: the one gesture
// recogniser every button-like input (GPIO buttons, a USB remote's keys) shares.
//
// Pure: it is given each change of level and the instants to advance to; it reads no clock.

/// What a person did.
public enum ButtonGesture: Sendable, Equatable, Hashable {
  /// A button went down and came up before its long-press time.
  case press(button: Int)
  /// A button stayed down for its long-press time (reported then, while it is still held).
  case longPress(button: Int)
  /// Both buttons of a combination stayed down together for its hold time.
  case combination(Int)
}

/// A gesture, the instant it was decided and the instant the person pressed.
public struct RecognizedGesture: Sendable, Equatable {
  public var gesture: ButtonGesture
  /// When the gesture was decided: a press at its release, a long press or a combination when
  /// its time ran out.
  public var instant: Int64
  /// When the button went down (for a combination: its second button), as its level change was
  /// dated; a finish line's time is this instant, not the decision's.
  public var pressedAt: Int64

  /// Creates a recognised gesture.
  public init(_ gesture: ButtonGesture, at instant: Int64, pressedAt: Int64) {
    self.gesture = gesture
    self.instant = instant
    self.pressedAt = pressedAt
  }
}

/// Two buttons held together.
public struct ButtonCombination: Sendable, Equatable {
  /// The two buttons (indices into the recogniser's buttons).
  public var first: Int
  public var second: Int
  /// How long both must be held together, in nanoseconds.
  public var hold: Int64

  /// Creates a combination.
  public init(_ first: Int, _ second: Int, hold: Int64) {
    precondition(first != second, "a combination needs two different buttons")
    self.first = first
    self.second = second
    self.hold = hold
  }

  func contains(_ button: Int) -> Bool { button == first || button == second }
  func other(than button: Int) -> Int { button == first ? second : first }
}

/// Turns button levels into gestures, as gpiozero's `when_released`/`when_held` and WLED's
/// short and long press behave: a short press is decided when the button comes up before the
/// long-press time; a long press when that time passes while it is held, and its release does
/// nothing more. So a press that becomes long fires only the long gesture.
///
/// Combinations: when the second button of a combination goes down while the first is held
/// and neither has done anything yet, both join the combination and give up their own press and
/// long press. The combination fires once both have been held together for its hold time; if
/// either comes up earlier, nothing fires (an aborted chord is not two presses).
public struct GestureRecognizer: Sendable {
  private struct ButtonState: Sendable {
    var longPress: Int64
    var downSince: Int64?
    /// A gesture was reported or a combination took the button: its release does nothing.
    var consumed = false
  }

  private struct ComboState: Sendable {
    var combination: ButtonCombination
    var since: Int64?
    var fired = false
  }

  private var buttons: [ButtonState]
  private var combinations: [ComboState]
  /// Everything up to this instant has been decided.
  public private(set) var now: Int64 = .min

  /// Creates a recogniser for buttons with these long-press times (nanoseconds; index = button).
  public init(longPressTimes: [Int64], combinations: [ButtonCombination] = []) {
    buttons = longPressTimes.map { ButtonState(longPress: $0) }
    self.combinations = combinations.map { combination in
      precondition(
        longPressTimes.indices.contains(combination.first)
          && longPressTimes.indices.contains(combination.second), "no such button")
      return ComboState(combination: combination)
    }
  }

  /// Whether `button` is down.
  public func isDown(_ button: Int) -> Bool { buttons[button].downSince != nil }

  /// Marks `button` as down since before anything was watched (held when the input started):
  /// its release fires nothing.
  public mutating func assumeHeld(_ button: Int) {
    buttons[button].downSince = now
    buttons[button].consumed = true
  }

  /// The next instant at which a gesture may be decided without any change of level (a
  /// long-press time or a combination's hold time running out), or nil.
  public var nextDeadline: Int64? {
    var best: Int64?
    func consider(_ instant: Int64) { if best.map({ instant < $0 }) ?? true { best = instant } }
    for button in buttons where !button.consumed {
      if let since = button.downSince { consider(since + button.longPress) }
    }
    for combo in combinations where !combo.fired {
      if let since = combo.since { consider(since + combo.combination.hold) }
    }
    return best
  }

  /// Reports that `button` went down (`down` true) or came up at `instant`. Changes must come
  /// in time order. Returns what was decided, including deadlines that passed before `instant`.
  public mutating func change(_ button: Int, down: Bool, at instant: Int64) -> [RecognizedGesture] {
    var gestures = advance(to: instant)
    if down {
      guard buttons[button].downSince == nil else { return gestures }
      buttons[button].downSince = instant
      buttons[button].consumed = false
      for index in combinations.indices where combinations[index].combination.contains(button) {
        let other = combinations[index].combination.other(than: button)
        guard buttons[other].downSince != nil, !buttons[other].consumed, !buttons[button].consumed
        else { continue }
        combinations[index].since = instant
        combinations[index].fired = false
        buttons[button].consumed = true
        buttons[other].consumed = true
      }
    } else {
      guard let since = buttons[button].downSince else { return gestures }
      if !buttons[button].consumed {
        gestures.append(RecognizedGesture(.press(button: button), at: instant, pressedAt: since))
      }
      buttons[button].downSince = nil
      buttons[button].consumed = false
      for index in combinations.indices where combinations[index].combination.contains(button) {
        combinations[index].since = nil
        combinations[index].fired = false
      }
    }
    return gestures
  }

  /// Decides every gesture whose time has come by `instant`, oldest first.
  public mutating func advance(to instant: Int64) -> [RecognizedGesture] {
    var gestures: [RecognizedGesture] = []
    while let deadline = nextDeadline, deadline <= instant {
      for index in buttons.indices where !buttons[index].consumed {
        if let since = buttons[index].downSince, since + buttons[index].longPress == deadline {
          buttons[index].consumed = true
          gestures.append(
            RecognizedGesture(.longPress(button: index), at: deadline, pressedAt: since))
        }
      }
      for index in combinations.indices where !combinations[index].fired {
        if let since = combinations[index].since,
          since + combinations[index].combination.hold == deadline
        {
          combinations[index].fired = true
          gestures.append(RecognizedGesture(.combination(index), at: deadline, pressedAt: since))
        }
      }
    }
    now = max(now, instant)
    return gestures
  }
}
