// SPDX-License-Identifier: MIT
// Two clocks on manual time: each its own monotonic origin and its own wall clock reading at
// the same wall-clock instant, as two boxes on one LAN kept in step by chrony.

import ClockLink
import WorkoutCore
import WorkoutNotation

/// One box's clocks: its engine instant at a wall-clock instant.
struct ManualClocks {
  /// The engine instant at wall-clock instant `wallBase`.
  var engineBase: Int64
  var wallBase: Int64
  var speed: Int64 = 1

  func instant(atWall wall: Int64) -> EngineInstant {
    EngineInstant(nanoseconds: engineBase + (wall - wallBase) * speed)
  }

  func reading(atWall wall: Int64) -> ClockReading {
    ClockReading(engineInstant: instant(atWall: wall), wallNanoseconds: wall, speed: speed)
  }
}

/// 2026-01-05 18:00:00 UTC, in nanoseconds.
let sixPM: Int64 = 1_767_636_000 * 1_000_000_000

func wall(_ seconds: Double) -> Int64 { sixPM + Int64((seconds * 1e9).rounded()) }

/// The leader boots 7000 s before six, the follower 40 s before: their monotonic clocks share
/// nothing but their rate.
let leaderClocks = ManualClocks(engineBase: 7_000_000_000_000, wallBase: sixPM)
let followerClocks = ManualClocks(engineBase: 40_000_000_000, wallBase: sixPM)

let leaderID = LinkClientID("lane-1")!
let followerID = LinkClientID("lane-2")!

func notationPlan(_ text: String, name: String = "wod") -> WorkoutPlan {
  guard case .success(var plan) = WorkoutNotation.parse(text) else {
    fatalError("the test's workout '\(text)' does not read")
  }
  plan.name = name
  return plan
}

/// A leader engine driven at wall-clock instants (seconds after six).
struct LeaderClock {
  var engine: WorkoutEngine
  var clocks = leaderClocks

  init(_ plan: WorkoutPlan, clocks: ManualClocks = leaderClocks) throws {
    engine = try WorkoutEngine(plan: plan)
    self.clocks = clocks
  }

  mutating func apply(_ action: WorkoutAction, at seconds: Double) throws {
    let instant = clocks.instant(atWall: wall(seconds))
    _ = engine.advance(to: instant)
    _ = try engine.apply(action, at: instant)
  }

  mutating func advance(to seconds: Double) {
    _ = engine.advance(to: clocks.instant(atWall: wall(seconds)))
  }

  func snapshot(at seconds: Double) -> WorkoutSnapshot {
    engine.snapshot(at: clocks.instant(atWall: wall(seconds)))
  }

  func message(at seconds: Double, sequence: Int64 = 1, startsAt: Double? = nil) throws
    -> LeaderState
  {
    try LeaderState(
      leader: leaderID, stamp: LinkStamp(epoch: sixPM, sequence: sequence), engine: engine,
      reading: clocks.reading(atWall: wall(seconds)), startsAtWallNanoseconds: startsAt.map(wall))
  }
}

/// What a person reads off the wall: the same on every linked clock at the same instant.
struct Shown: Equatable, CustomStringConvertible {
  var runState: RunState
  var display: DisplayTime?
  var segmentIndex: Int?
  var round: Counter?
  var laps: Int

  init(_ snapshot: WorkoutSnapshot) {
    runState = snapshot.runState
    display = snapshot.display
    segmentIndex = snapshot.segmentIndex
    round = snapshot.round
    laps = snapshot.laps
  }

  var description: String {
    "\(runState) \(display.map { "\($0.seconds)" } ?? "-") segment \(segmentIndex ?? -1) round \(round?.description ?? "-") laps \(laps)"
  }
}
