// SPDX-License-Identifier: MIT
// What the daemon does with heats, lanes and class scores: one path for the socket, the web,
// the broker and the lane buttons, each lane input on disk before it is answered.

import Configuration
import ControlProtocol
import HardwareKit
import HeatKit
import JSONKit
import WorkoutCore

extension Daemon {
  /// The local date and time as file names and the class board take them.
  private func civilNow() -> CivilTime { clock.zone.civilTime(clock.wall()) }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// `2026-12-06`: the day a class score belongs to.
  func today() -> String {
    let time = civilNow()
    return "\(time.year)-\(Self.two(time.month))-\(Self.two(time.day))"
  }

  /// `20261206-201500`: what an event's files are renamed aside with.
  private func stamp() -> String {
    let time = civilNow()
    return "\(time.year)\(Self.two(time.month))\(Self.two(time.day))-"
      + "\(Self.two(time.hour))\(Self.two(time.minute))\(Self.two(time.second))"
  }

  private func runState(at now: Int64) -> RunState {
    host.snapshot(at: timeBase.engineInstant(atMonotonic: now)).runState
  }

  var scoringRule: ScoringRule { HeatDesk.scoring(host.engine.plan, settings: configuration.heats) }

  /// `heats`: show, load, clear, call up the next heat, the leaderboard.
  func heats(_ request: HeatsRequest, at now: Int64) -> CommandFailure? {
    var failure: CommandFailure?
    switch request {
    case .show: return nil
    case .load(let csv, let name): failure = heatDesk.load(csv: csv, name: name, stamp: stamp())
    case .clear: failure = heatDesk.clear(stamp: stamp())
    case .next: failure = heatDesk.callUpNext(runState: runState(at: now), at: now)
    case .board(let on): heatDesk.boardOn = on
    }
    publish(cues: [], at: now, force: true)
    return failure
  }

  /// A lane input, from a judge's phone, the socket, the broker or a lane's button. A finish or
  /// a tiebreak is timed at `pressedAt` (the input's own kernel timestamp) when there is one,
  /// else at the instant the request is handled.
  func lane(_ request: LaneRequest, pressedAt: Int64?, at now: Int64) -> CommandFailure? {
    let instant = min(pressedAt ?? now, now)
    let runState = runState(at: now)
    let failure = heatDesk.record(
      request, elapsed: host.workoutTime(at: timeBase.engineInstant(atMonotonic: instant)),
      runState: runState)
    if let failure {
      logger.info(
        "lane input refused",
        [
          ("lane", String(request.lane)), ("op", request.operation.name),
          ("reason", failure.message),
        ])
    } else if let pressedAt {
      logger.debug(
        "lane input",
        [("lane", String(request.lane)), ("latency_us", String((now - pressedAt) / 1_000))])
    }
    publish(cues: [], at: now, force: true)
    return failure
  }

  /// A class's score, for the loaded workout when it is a For Time or an AMRAP.
  func classScore(athlete: String, score: String, at now: Int64) -> CommandFailure? {
    let plan = host.engine.plan
    let kind: ClassWorkoutKind
    switch plan.mode {
    case .forTime: kind = .forTime
    case .amrap: kind = .amrap
    default:
      return CommandFailure(
        "refused",
        "class scores are for a For Time or an AMRAP; the loaded workout is \(plan.mode.name.rawValue)"
      )
    }
    let workout = plan.label ?? host.preset.name
    let failure = heatDesk.recordClassScore(
      athlete: athlete, score: score, workout: workout, kind: kind, today: today())
    publish(cues: [], at: now, force: true)
    return failure
  }

  /// Starts the called-up heat once its transition is over: the count-in, then the workout.
  func startCalledUpHeat(at now: Int64) {
    guard let startsAt = heatDesk.callUpStart, now >= startsAt else { return }
    heatDesk.observe(runState(at: now))
    // Once, whatever comes of it: a refused start leaves the heat to the coach's button, and a
    // follower's start goes to its leader and comes back later.
    heatDesk.calledUpHeatStarts()
    if let failure = perform(.engine(.start), at: now) {
      logger.warning("the called-up heat did not start", [("reason", failure.message)])
    }
  }
}
