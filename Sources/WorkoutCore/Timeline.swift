// SPDX-License-Identifier: MIT
// Every mode compiles to a timeline: a flat list of segments, each with its cue schedule.

/// What a segment is, for colours, words and sounds.
public enum SegmentKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// The count-in before the first segment ("get ready").
  case countIn = "count_in"
  case work
  case rest
  case setRest = "set_rest"
  case sideSwitch = "side_switch"
  case eccentric
  case bottomPause = "bottom_pause"
  case concentric
  case topPause = "top_pause"

  public init(_ phase: TempoPhase) {
    switch phase {
    case .eccentric: self = .eccentric
    case .bottomPause: self = .bottomPause
    case .concentric: self = .concentric
    case .topPause: self = .topPause
    }
  }

  /// The tempo phase this segment times, if it is one.
  public var tempoPhase: TempoPhase? {
    switch self {
    case .eccentric: .eccentric
    case .bottomPause: .bottomPause
    case .concentric: .concentric
    case .topPause: .topPause
    default: nil
    }
  }

  /// Kinds that get a 3-2-1 before they end (tempo phases are paced by their own cues).
  var hasCountdown: Bool { tempoPhase == nil }
}

/// "Round 3 of 10": a 1-based index and, when known, the count.
public struct Counter: Sendable, Hashable, Codable, CustomStringConvertible {
  public var index: Int
  public var count: Int?
  public init(_ index: Int, of count: Int?) {
    self.index = index
    self.count = count
  }
  public var description: String { count.map { "\(index)/\($0)" } ?? "\(index)" }
}

/// One stretch of a workout with a single meaning: a work interval, a rest, a tempo phase.
public struct Segment: Sendable, Hashable, Codable {
  public var kind: SegmentKind
  /// How long it lasts; nil for an open-ended segment, which only `next` or `finish` ends.
  public var duration: TimeSpan?
  public var label: String?
  public var round: Counter?
  public var set: Counter?
  public var rep: Counter?
  public var side: Side?
  /// A rep target to show with the segment (ladders, sequence steps with `reps`).
  public var targetReps: Int?
  /// Whether `next` may cut it short (always true for open-ended segments).
  public var skippable: Bool
  /// The whiteboard line this step is (the plan's ``WorkoutPlan/whiteboard``), if any.
  public var whiteboardLine: Int? = nil
  /// The movement of the next work step, for "next: 10 burpees" before it comes.
  public var nextMovement: String? = nil

  public init(
    kind: SegmentKind, duration: TimeSpan?, label: String? = nil, round: Counter? = nil,
    set: Counter? = nil, rep: Counter? = nil, side: Side? = nil, targetReps: Int? = nil,
    skippable: Bool = true
  ) {
    self.kind = kind
    self.duration = duration
    self.label = label
    self.round = round
    self.set = set
    self.rep = rep
    self.side = side
    self.targetReps = targetReps
    self.skippable = skippable || duration == nil
  }

  /// Time in a tempo phase counts as time under tension.
  public var countsTowardTension: Bool { kind.tempoPhase != nil }
}

/// A cue planned at an offset from the start of its segment.
public struct ScheduledCue: Sendable, Hashable {
  public var offset: TimeSpan
  public var kind: CueKind

  /// Whether it announces its segment's start (the start, round, rounds-left and side cues):
  /// the present moment for as long as the segment runs. A 3-2-1's "3" on the first instant of
  /// a 3 s segment is at the start too, but it counts seconds: late, it would be wrong.
  var announcesSegmentStart: Bool {
    guard offset == .zero else { return false }
    if case .countdown = kind { return false }
    return true
  }
}

/// The compiled form of a plan: segments in order, each with its cues sorted by offset.
public struct Timeline: Sendable, Hashable {
  public let segments: [Segment]
  /// `schedule[i]` are the cues of segment `i`, sorted by offset; equal offsets keep the order
  /// in which they were planned (end-of-segment cues of `i` come before start cues of `i + 1`
  /// because segment `i` is drained before segment `i + 1` begins).
  public let schedule: [[ScheduledCue]]
  /// Index of the first segment after the count-in (0 when there is no count-in).
  public let workoutStartIndex: Int
  /// `remainingAfter[i]`: the summed length of the segments after `i`, or nil when one of them
  /// is open-ended.
  public let remainingAfter: [TimeSpan?]
  /// Length of the workout without the count-in, or nil when it is open-ended.
  public let workoutLength: TimeSpan?

  init(segments: [Segment], schedule: [[ScheduledCue]], workoutStartIndex: Int) {
    self.segments = segments
    self.schedule = schedule
    self.workoutStartIndex = workoutStartIndex
    var after = [TimeSpan?](repeating: .zero, count: segments.count)
    var running: TimeSpan? = .zero
    for index in segments.indices.reversed() {
      after[index] = running
      if let total = running, let length = segments[index].duration {
        running = total + length
      } else {
        running = nil
      }
    }
    remainingAfter = after
    if workoutStartIndex < segments.count, let tail = after[workoutStartIndex],
      let first = segments[workoutStartIndex].duration
    {
      workoutLength = first + tail
    } else {
      workoutLength = nil
    }
  }

  /// The sum of every segment's length, count-in included, when all are bounded.
  public var totalLength: TimeSpan? {
    guard let first = segments.first?.duration, let tail = remainingAfter.first ?? nil else {
      return segments.isEmpty ? .zero : nil
    }
    return first + tail
  }
}
