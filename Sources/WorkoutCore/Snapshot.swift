// SPDX-License-Identifier: MIT
// What every display shows, derived at an instant.

/// Where the workout is.
public enum RunState: String, Sendable, Hashable, Codable {
  case idle
  case countIn = "countin"
  case running
  case paused
  case finished
}

/// Why a workout ended.
public enum FinishReason: String, Sendable, Hashable, Codable {
  /// The timeline ran to its end (or a For Time was finished by the coach).
  case completed
  /// A For Time reached its cap.
  case capped
  /// The coach ended it early.
  case stopped
}

/// The time a display shows in its big digits, already rounded the way the product promises:
/// a count-down shows the ceiling of the remaining seconds (0:10 during (9 s, 10 s] left, 0:00
/// exactly at the end), a count-up shows the floor of the elapsed seconds.
public struct DisplayTime: Sendable, Hashable, Codable {
  public enum Direction: String, Sendable, Hashable, Codable {
    case down
    case up
  }
  public var seconds: Int64
  public var direction: Direction
  public init(seconds: Int64, direction: Direction) {
    self.seconds = seconds
    self.direction = direction
  }
}

/// The tempo part of a snapshot: enough to draw TempoRep's pacing track.
public struct TempoSnapshot: Sendable, Hashable, Codable {
  public var tempo: Tempo
  /// The phase running now, or nil during get ready, rest and side switch.
  public var phase: TempoPhase?
  /// 0…1 through the current phase.
  public var phaseProgress: Double
  /// Where the pacing dot is: 0 at the top of the track, 1 at the bottom. The eccentric moves
  /// it down, the concentric up; reverse direction mirrors the track.
  public var trackPosition: Double
  /// Whether the concentric is explosive (written as 0, timed as 1 s).
  public var explosiveConcentric: Bool
  public var reverseDirection: Bool
  /// The arrow that marks the current phase (eccentric ↓, concentric ↑; swapped by reverse).
  public var arrow: Arrow?

  public enum Arrow: String, Sendable, Hashable, Codable {
    case down
    case up
  }

  /// Where the pacing dot is `progress` (0…1) through `phase`: the eccentric moves it from the
  /// top (0) to the bottom (1), the concentric back up, the pauses hold it where the bar is (a
  /// rest, a get ready or a side switch at the top); reverse direction mirrors the track. The
  /// one rule of ``trackPosition``, for displays that draw the dot between snapshots.
  public static func trackPosition(
    in phase: TempoPhase?, progress: Double, reverseDirection: Bool
  ) -> Double {
    var position: Double
    switch phase {
    case .eccentric: position = progress
    case .bottomPause: position = 1
    case .concentric: position = 1 - progress
    case .topPause, nil: position = 0
    }
    return reverseDirection ? 1 - position : position
  }
}

/// Everything a display, a log line or the control socket may want, at one instant.
public struct WorkoutSnapshot: Sendable, Hashable, Codable {
  public var runState: RunState
  public var mode: ModeName
  public var presetName: String
  /// The workout as a coach wrote it, for a plan made from the notation (`amrap 14`).
  public var notation: String? = nil
  /// The caption to show: the segment's label, else the plan's label.
  public var label: String?
  public var finishReason: FinishReason?
  /// The big digits.
  public var display: DisplayTime?
  /// Active workout time, count-in and pauses excluded.
  public var elapsed: TimeSpan
  /// Time left in the workout when it is bounded (during the count-in: the whole workout).
  public var remaining: TimeSpan?
  public var workoutLength: TimeSpan?
  /// 0…1 through a bounded workout.
  public var progress: Double?
  public var segmentIndex: Int?
  public var segmentCount: Int
  public var segmentKind: SegmentKind?
  public var segmentLength: TimeSpan?
  public var segmentElapsed: TimeSpan
  public var segmentRemaining: TimeSpan?
  /// 0…1 through a bounded segment.
  public var segmentProgress: Double?
  /// The round under way (3 of 10); in an AMRAP, and a For Time without a rounds target, the
  /// rounds done instead (the lap tally: the score on the wall), nil before the first lap.
  public var round: Counter?
  public var set: Counter?
  public var rep: Counter?
  public var side: Side?
  /// A rep target to show: a ladder's round, a sequence step's goal, a For Time rep scheme's
  /// current round (21, 15, 9).
  public var targetReps: Int?
  /// Rounds or laps tallied with `lap`.
  public var laps: Int
  /// Workout time of the last lap.
  public var lastLapAt: TimeSpan?
  /// Seconds into the current minute of the workout (EMOM displays).
  public var secondsIntoMinute: Int
  /// Time spent in tempo phases so far.
  public var timeUnderTension: TimeSpan
  public var tempo: TempoSnapshot?
  /// Set for the `clock` mode: show the time of day in this format.
  public var clockFace: ClockFace?
  /// The whiteboard line the current step is (``WorkoutPlan/whiteboard``), to highlight.
  public var whiteboardLine: Int? = nil
  /// The movement of the next work step, for "next: 10 burpees" during a rest or the last
  /// seconds before it.
  public var nextMovement: String? = nil

  /// The exact time behind the big digits (``display`` is it rounded: up when it counts down,
  /// down when it counts up), for displays that draw the digits between snapshots; nil when
  /// there are no digits.
  public var displayedSpan: TimeSpan? {
    guard display != nil else { return nil }
    let source = DisplayTime.source(
      inCountIn: segmentKind == .countIn, mode: mode, elapsed: elapsed.nanoseconds,
      remaining: remaining?.nanoseconds, segmentElapsed: segmentElapsed.nanoseconds,
      segmentRemaining: segmentRemaining?.nanoseconds)
    return TimeSpan(nanoseconds: source.nanoseconds)
  }
}
