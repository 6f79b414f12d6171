// SPDX-License-Identifier: MIT
// Snapshots from the real engine, driven with manual time.

import DisplayKit
import WorkoutCore

/// Instants are offset from a non-zero origin so no test relies on time zero.
let origin: Int64 = 5_000 * TimeSpan.nanosecondsPerSecond

func at(_ seconds: Double) -> EngineInstant {
  EngineInstant(nanoseconds: origin + Int64((seconds * 1e9).rounded()))
}

func plan(
  _ mode: WorkoutMode, name: String = "test", label: String? = nil, countIn: Int64 = 0
) -> WorkoutPlan {
  WorkoutPlan(name: name, label: label, mode: mode, countIn: .seconds(countIn))
}

/// The snapshot `seconds` after start (nil: never started), optionally paused at `pauseAt`.
func snapshot(
  _ mode: WorkoutMode, name: String = "test", label: String? = nil, countIn: Int64 = 0,
  after seconds: Double?, pauseAt: Double? = nil, finishAt: Double? = nil
) throws -> WorkoutSnapshot {
  var engine = try WorkoutEngine(
    plan: plan(mode, name: name, label: label, countIn: countIn))
  guard let seconds else { return engine.snapshot(at: at(0)) }
  _ = try engine.apply(.start, at: at(0))
  if let pauseAt { _ = try engine.apply(.pause, at: at(pauseAt)) }
  if let finishAt { _ = try engine.apply(.finish, at: at(finishAt)) }
  _ = engine.advance(to: at(seconds))
  return engine.snapshot(at: at(seconds))
}

/// A line with its SGR escapes removed.
func stripped(_ line: String) -> String {
  var output = ""
  var inEscape = false
  for character in line {
    if inEscape {
      if character.isLetter { inEscape = false }
      continue
    }
    if character == "\u{1B}" {
      inEscape = true
      continue
    }
    output.append(character)
  }
  return output
}

let tabata = WorkoutMode.tabata(.tabata)
let amrap20 = WorkoutMode.amrap(AMRAPParameters(time: .minutes(20)))
let squats = WorkoutMode.tempo(
  TempoParameters(
    tempo: Tempo(eccentric: 8, bottomPause: 0, concentric: 2, topPause: 0), reps: 5, sets: 3,
    setRest: .seconds(90), unilateral: true, switchPause: .seconds(5)))
