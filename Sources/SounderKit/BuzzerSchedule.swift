// SPDX-License-Identifier: MIT
// A sounder's timing: cues become on/off intervals, later cues cut earlier patterns short, and
// no on-interval lasts longer than the maximum on-time. Pure: instants are given.

import WorkoutCore

/// A beep pattern: on, off, on, ... durations in nanoseconds. Empty is silence.
public typealias BeepPattern = [Int64]

/// What each cue sounds like on a buzzer or horn.
public struct BuzzerPatterns: Sendable, Equatable {
  /// Pattern by cue name (`CueKind.name`); a cue left out is silent.
  public var byCue: [String: BeepPattern]

  /// Creates patterns.
  public init(_ byCue: [String: BeepPattern]) { self.byCue = byCue }

  /// Clear over class music: a short beep at each of 3-2-1, a long one when a segment starts
  /// (work, rest ...), and for the end of the workout three beats, the last one long.
  public static let standard = BuzzerPatterns([
    "countdown": [ms(150)],
    "segment_start": [ms(1_000)],
    "finish": [ms(400), ms(200), ms(400), ms(200), ms(1_500)],
    "cap_reached": [ms(400), ms(200), ms(400), ms(200), ms(1_500)],
  ])

  /// The standard patterns with `overrides` replacing theirs cue by cue.
  public static func standard(overriding overrides: [String: BeepPattern]) -> BuzzerPatterns {
    var patterns = standard.byCue
    for (cue, pattern) in overrides { patterns[cue] = pattern }
    return BuzzerPatterns(patterns)
  }

  /// The pattern for a cue, or nil when it is silent. The count-in's own start is silent: the
  /// person who pressed START knows; the 3-2-1 and the first work segment's start are what
  /// the room needs to hear.
  public func pattern(for kind: CueKind) -> BeepPattern? {
    if case .segmentStart(.countIn) = kind { return nil }
    guard let pattern = byCue[kind.name], !pattern.isEmpty else { return nil }
    return pattern
  }

  /// Which of several cues due at one instant is heard: the end of the workout over a segment
  /// start over a round start over the rest.
  public static func priority(of kind: CueKind) -> Int {
    switch kind {
    case .finish, .capReached: 4
    case .segmentStart, .start: 3
    case .roundStart, .sideSwitch, .setComplete: 2
    case .countdown: 1
    default: 0
    }
  }

  static func ms(_ milliseconds: Int64) -> Int64 { milliseconds * 1_000_000 }
}

/// The on-intervals a sounder should play.
///
/// A pattern starts at its cue's instant. A later cue replaces whatever was still to play from
/// its instant on; of cues at one instant, the one of highest priority plays. Every on-interval,
/// touching ones merged, is cut to `maximumOnTime`, so no pattern can hold a horn on longer.
public struct BuzzerSchedule: Sendable {
  /// One on-interval, `start ..< end`.
  public struct Interval: Sendable, Equatable {
    public var start: Int64
    public var end: Int64

    /// Creates an interval.
    public init(_ start: Int64, _ end: Int64) {
      self.start = start
      self.end = end
    }
  }

  /// The longest continuous on-time, nanoseconds.
  public let maximumOnTime: Int64
  /// When a pattern starts while another sounds (or ends right then), it starts this much later
  /// so the two are heard as two (a long segment-start beep running into a 3-2-1).
  public static let separation: Int64 = 100_000_000
  /// A cue rendered later than this after its instant (a stalled or overloaded machine) plays
  /// its pattern from the render instead, whole: a beep cut to a fraction is worse than a late
  /// one. On time, patterns keep the cue's own instant to the nanosecond.
  public static let maximumStartDelay: Int64 = 20_000_000

  /// The instant a cue due at `instant` and seen at `now` starts its pattern.
  public static func start(ofCueAt instant: Int64, seenAt now: Int64) -> Int64 {
    now - instant > maximumStartDelay ? now : instant
  }

  /// The intervals still to come or under way, in order, disjoint and not touching.
  public private(set) var intervals: [Interval] = []
  /// The instant and priority of the pattern that replaced everything after it last.
  private var lastStart: (instant: Int64, priority: Int)?

  /// Creates an empty schedule.
  public init(maximumOnTime: Int64) {
    precondition(maximumOnTime > 0, "the maximum on-time must be positive")
    self.maximumOnTime = maximumOnTime
  }

  /// Plays `pattern` from `instant`, replacing what was to play from then on, unless a pattern
  /// of higher priority starts at the same instant. A pattern that would run straight on from a
  /// sounding one starts `separation` later.
  public mutating func play(_ pattern: BeepPattern, at instant: Int64, priority: Int = 0) {
    if let last = lastStart, last.instant == instant, last.priority > priority { return }
    if let last = lastStart, instant < last.instant { return }
    // Sounding at the instant, or just ending there: start after a gap, or the two would
    // be heard as one long beep.
    let sounding = intervals.contains { $0.start < instant && instant <= $0.end }
    cut(from: instant)
    lastStart = (instant, priority)
    var start = sounding && (pattern.first ?? 0) > 0 ? instant + Self.separation : instant
    for (index, duration) in pattern.enumerated() where duration > 0 {
      let end = start + duration
      if index % 2 == 0 { intervals.append(Interval(start, end)) }
      start = end
    }
    normalise()
  }

  /// Silences everything from `instant` on (mute, quiet hours, stop).
  public mutating func cut(from instant: Int64) {
    intervals = intervals.compactMap { interval in
      if interval.start >= instant { return nil }
      return Interval(interval.start, min(interval.end, instant))
    }
  }

  /// Forgets intervals that ended by `instant`.
  public mutating func discard(before instant: Int64) {
    intervals.removeAll { $0.end <= instant }
  }

  /// Whether the sounder should be on at `instant`.
  public func isOn(at instant: Int64) -> Bool {
    intervals.contains { $0.start <= instant && instant < $0.end }
  }

  /// The first instant after `instant` at which `isOn` changes, or nil.
  public func nextChange(after instant: Int64) -> Int64? {
    for interval in intervals {
      if interval.start > instant { return interval.start }
      if interval.end > instant { return interval.end }
    }
    return nil
  }

  private mutating func normalise() {
    intervals.sort { $0.start < $1.start }
    var merged: [Interval] = []
    for interval in intervals {
      if var last = merged.last, interval.start <= last.end {
        last.end = max(last.end, interval.end)
        merged[merged.count - 1] = last
      } else {
        merged.append(interval)
      }
    }
    intervals = merged.map { Interval($0.start, min($0.end, $0.start + maximumOnTime)) }
  }
}

/// The last line of defence for a horn: whatever asks for it, the output is never on for longer
/// than `maximum` at a stretch. After cutting it off, it stays off until it is asked to be off,
/// so a stuck "on" cannot restart it.
public struct OnTimeLimit: Sendable, Equatable {
  /// The longest continuous on-time, nanoseconds.
  public let maximum: Int64
  /// Since when the output has been on, if it is.
  public private(set) var onSince: Int64?
  /// The limit cut the output off and the request has not gone off since.
  public private(set) var tripped = false

  /// Creates a limit.
  public init(maximum: Int64) {
    precondition(maximum > 0, "the maximum on-time must be positive")
    self.maximum = maximum
  }

  /// The level the output may have at `instant` when `wanted` is asked for.
  public mutating func level(wanting wanted: Bool, at instant: Int64) -> Bool {
    guard wanted else {
      onSince = nil
      tripped = false
      return false
    }
    if tripped { return false }
    let since = onSince ?? instant
    if instant - since >= maximum {
      onSince = nil
      tripped = true
      return false
    }
    onSince = since
    return true
  }

  /// When the limit will cut the output off, if it is on.
  public var deadline: Int64? { onSince.map { $0 + maximum } }
}
