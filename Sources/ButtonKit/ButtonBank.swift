// SPDX-License-Identifier: MIT
// Raw edges of several buttons in, gestures out: a debouncer per button feeding the shared
// gesture recogniser, with the wake-ups the owner must arrange. Pure: instants are given.

/// A set of buttons that may form combinations, from raw edges to gestures.
///
/// The owner feeds each raw edge with its timestamp (`edge`), calls `advance(to:)` when its
/// loop wakes at `nextWakeUp`, and acts on the gestures returned. Gestures are never decided
/// past an edge that has not settled yet: a long press whose time runs out while its button's
/// release is still bouncing waits to see whether the release was real.
public struct ButtonBank: Sendable {
  /// One button's settings.
  public struct Button: Sendable, Equatable {
    /// Debounce period, nanoseconds.
    public var debounce: Int64
    /// Long-press time, nanoseconds.
    public var longPress: Int64

    /// Creates button settings.
    public init(debounce: Int64, longPress: Int64) {
      self.debounce = debounce
      self.longPress = longPress
    }
  }

  private var debouncers: [Debouncer]
  private var recognizer: GestureRecognizer

  /// Creates a bank; `levels` are the buttons' levels now (true = pressed).
  public init(buttons: [Button], levels: [Bool], combinations: [ButtonCombination] = []) {
    precondition(buttons.count == levels.count, "one level per button")
    debouncers = zip(buttons, levels).map { Debouncer(period: $0.debounce, level: $1) }
    recognizer = GestureRecognizer(
      longPressTimes: buttons.map(\.longPress), combinations: combinations)
    // A button held at start-up is not a press: its release must not fire anything.
    for (index, level) in levels.enumerated() where level { recognizer.assumeHeld(index) }
  }

  /// Whether `button`'s debounced level is pressed.
  public func isPressed(_ button: Int) -> Bool { debouncers[button].level }

  /// Feeds a raw edge of `button` to level `pressed` at `instant`. Call for every edge of every
  /// button in timestamp order, then `advance(to:)` with the current time.
  public mutating func edge(_ button: Int, pressed: Bool, at instant: Int64) -> [RecognizedGesture]
  {
    var gestures = settleAll(before: instant)
    if let change = debouncers[button].edge(to: pressed, at: instant) {
      gestures += recognizer.change(button, down: change.level, at: change.instant)
    }
    return gestures
  }

  /// Decides everything that can be decided by `now`.
  public mutating func advance(to now: Int64) -> [RecognizedGesture] {
    var gestures = settleAll(before: now)
    let horizon = debouncers.compactMap(\.unsettledSince).min().map { min($0, now) } ?? now
    gestures += recognizer.advance(to: horizon)
    return gestures
  }

  /// The next instant `advance(to:)` has something to do, or nil.
  public var nextWakeUp: Int64? {
    let settling = debouncers.compactMap(\.settlesAt).min()
    let pending = debouncers.compactMap(\.unsettledSince).min()
    var best = settling
    if let deadline = recognizer.nextDeadline, pending.map({ deadline < $0 }) ?? true {
      best = min(best ?? deadline, deadline)
    }
    return best
  }

  /// Settles every burst that was quiet for its period by `instant`, feeding the changes to the
  /// recogniser in the order they happened.
  private mutating func settleAll(before instant: Int64) -> [RecognizedGesture] {
    var changes: [(button: Int, change: Debouncer.Change)] = []
    for index in debouncers.indices {
      if let change = debouncers[index].settle(at: instant) { changes.append((index, change)) }
    }
    changes.sort { $0.change.instant < $1.change.instant }
    var gestures: [RecognizedGesture] = []
    for (button, change) in changes {
      gestures += recognizer.change(button, down: change.level, at: change.instant)
    }
    return gestures
  }
}
