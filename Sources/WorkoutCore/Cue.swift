// SPDX-License-Identifier: MIT
// One-shot events for buzzers, horns, lamps and voices.

/// What happened. Cues are emitted exactly once, in order, when time passes their instant.
public enum CueKind: Sendable, Hashable, Codable {
  /// The workout proper begins (the count-in is over).
  case start
  /// A segment begins.
  case segmentStart(SegmentKind)
  /// A round begins.
  case roundStart(Counter)
  /// Rounds left, counting the one that starts (WODrounds announces 10, 5 and 2).
  case roundsRemaining(Int)
  /// 3, 2, 1 seconds before the end of a segment of this kind (the count-in's 3-2-1 included).
  case countdown(secondsLeft: Int, ending: SegmentKind)
  /// Halfway through the workout.
  case halfway
  /// Halfway through a work segment.
  case segmentHalfway
  /// Ten seconds left in the workout.
  case lastTenSeconds
  /// Ten seconds left in a work segment.
  case segmentLastTenSeconds
  /// A whole second into a tempo phase longer than one: TempoRep's count, spoken after the
  /// phase's name ("Down, 2, 3, 4" through a 4 s lowering). The number is the second that
  /// begins, 2 to 9.
  case tempoCount(Int)
  /// The last phase of a tempo rep has ended.
  case repComplete(Counter)
  /// A set has ended.
  case setComplete(Counter)
  /// Time to change sides (unilateral tempo sets).
  case sideSwitch(to: Side)
  /// A lap was tallied (a round of an AMRAP or a rounds-for-time).
  case lap(Int)
  /// A For Time reached its cap.
  case capReached
  /// The workout is over.
  case finish

  /// A stable name for configs, logs and the control socket (`countdown`, `round_start` ...).
  public var name: String {
    switch self {
    case .start: "start"
    case .segmentStart: "segment_start"
    case .roundStart: "round_start"
    case .roundsRemaining: "rounds_remaining"
    case .countdown: "countdown"
    case .halfway: "halfway"
    case .segmentHalfway: "segment_halfway"
    case .lastTenSeconds: "last_ten_seconds"
    case .segmentLastTenSeconds: "segment_last_ten_seconds"
    case .tempoCount: "tempo_count"
    case .repComplete: "rep_complete"
    case .setComplete: "set_complete"
    case .sideSwitch: "side_switch"
    case .lap: "lap"
    case .capReached: "cap_reached"
    case .finish: "finish"
    }
  }

  /// Every cue name, for config validation.
  public static let allNames = [
    "start", "segment_start", "round_start", "rounds_remaining", "countdown", "halfway",
    "segment_halfway", "last_ten_seconds", "segment_last_ten_seconds", "tempo_count",
    "rep_complete",
    "set_complete", "side_switch", "lap", "cap_reached", "finish",
  ]
}

/// A cue as emitted: what, when it was due, and where in the timeline.
public struct Cue: Sendable, Hashable, Codable {
  public var kind: CueKind
  /// The engine instant the cue was due (outputs get it on the real clock, as a FrameCue).
  public var instant: EngineInstant
  /// The segment it belongs to.
  public var segmentIndex: Int
  /// Distinguishes repeated passes over the same segment (after `previous` or a restart).
  public var pass: Int

  public init(kind: CueKind, instant: EngineInstant, segmentIndex: Int, pass: Int) {
    self.kind = kind
    self.instant = instant
    self.segmentIndex = segmentIndex
    self.pass = pass
  }
}
