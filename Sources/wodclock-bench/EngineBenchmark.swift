// SPDX-License-Identifier: MIT
// ns per `advance` and per `snapshot`, for every mode.

import WorkoutCore

enum EngineBenchmark {
  /// Each plan outlasts the 2,000 s the benchmark advances through (200,000 steps of 10 ms), so
  /// every step is inside the workout, and stays within the 48 hours a workout may last (each
  /// about 33 hours or less).
  static let plans: [(String, WorkoutMode)] = [
    ("for_time", .forTime(ForTimeParameters(cap: .hours(20)))),
    ("amrap", .amrap(AMRAPParameters(time: .hours(20)))),
    ("emom", .emom(EMOMParameters(rounds: 999))),
    (
      "intervals",
      .intervals(IntervalParameters(work: .seconds(40), rest: .seconds(20), rounds: 99, sets: 20))
    ),
    (
      "tabata",
      .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 99, sets: 40))
    ),
    (
      "tempo",
      .tempo(
        TempoParameters(
          tempo: Tempo(halfSeconds: [8, 2, 0, 2]), reps: 99, sets: 50, setRest: .seconds(90),
          unilateral: true))
    ),
    (
      "sequence",
      .sequence(
        SequenceParameters(steps: [
          SequenceStep(
            name: "round", repetitions: 500,
            steps: [
              SequenceStep(name: "row", duration: .minutes(1)),
              SequenceStep(name: "rest", kind: .rest, duration: .seconds(30)),
            ])
        ]))
    ),
  ]

  static func run() throws {
    let iterations = 200_000
    // 10 ms steps: a display that updates 100 times a second, far more often than the daemon's
    // own wake-ups, so every segment boundary and cue path is exercised.
    let step = TimeSpan.milliseconds(10)
    for (name, mode) in plans {
      var engine = try WorkoutEngine(plan: WorkoutPlan(name: name, mode: mode))
      var now = EngineInstant(nanoseconds: 1_000_000_000)
      _ = try engine.apply(.start, at: now)
      var cueCount = 0
      let clock = ContinuousClock()
      let advanceStart = clock.now
      for _ in 0..<iterations {
        now = now + step
        cueCount &+= engine.advance(to: now).count
      }
      let advanceTime = clock.now - advanceStart
      var checksum: Int64 = 0
      let snapshotStart = clock.now
      for index in 0..<iterations {
        let snapshot = engine.snapshot(at: now + TimeSpan(nanoseconds: Int64(index)))
        checksum &+= snapshot.display?.seconds ?? 0
      }
      let snapshotTime = clock.now - snapshotStart
      precondition(cueCount > 0 && checksum != Int64.min, "the work must not be optimised away")
      report("\(name).advance", nanoseconds(advanceTime) / Double(iterations), "ns")
      report("\(name).snapshot", nanoseconds(snapshotTime) / Double(iterations), "ns")
    }
  }

  static func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
