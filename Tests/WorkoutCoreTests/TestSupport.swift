// SPDX-License-Identifier: MIT
// Helpers for driving the engine with manual time (the instants: `at` of the test support).

import WodclockTestSupport

@testable import WorkoutCore

func seconds(_ value: Double) -> TimeSpan { TimeSpan(nanoseconds: Int64((value * 1e9).rounded())) }

func engine(_ mode: WorkoutMode, countIn: Int64 = 0, cues: CueOptions = CueOptions())
  throws -> WorkoutEngine
{
  try WorkoutEngine(
    plan: WorkoutPlan(name: "test", mode: mode, countIn: .seconds(countIn), cues: cues))
}

/// A readable rendering of a cue list: `3.0 countdown(3,work)` per cue, seconds after `origin`.
func describe(_ cues: [Cue]) -> [String] {
  cues.map { cue in
    let time = Double(cue.instant.nanoseconds - origin) / 1e9
    return "\(time) \(describe(cue.kind))"
  }
}

func describe(_ kind: CueKind) -> String {
  switch kind {
  case .start: "start"
  case .segmentStart(let kind): "segment(\(kind.rawValue))"
  case .roundStart(let counter): "round(\(counter))"
  case .roundsRemaining(let count): "remaining(\(count))"
  case .countdown(let left, let kind): "countdown(\(left),\(kind.rawValue))"
  case .halfway: "halfway"
  case .segmentHalfway: "segment_halfway"
  case .lastTenSeconds: "last10"
  case .segmentLastTenSeconds: "segment_last10"
  case .tempoCount(let count): "count(\(count))"
  case .repComplete(let counter): "rep(\(counter))"
  case .setComplete(let counter): "set(\(counter))"
  case .sideSwitch(let side): "switch(\(side.rawValue))"
  case .lap(let count): "lap(\(count))"
  case .capReached: "cap"
  case .finish: "finish"
  }
}

/// Runs an engine from start to its end, advancing every `step` seconds, collecting cues.
func runToEnd(_ engine: inout WorkoutEngine, step: Double = 0.25, limit: Double = 100_000)
  throws -> [Cue]
{
  var cues = try engine.apply(.start, at: at(0))
  var now = 0.0
  while engine.state.phase != .finished && now < limit {
    now += step
    cues += engine.advance(to: at(now))
  }
  return cues
}
