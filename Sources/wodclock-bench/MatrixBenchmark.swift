// SPDX-License-Identifier: MIT
// The cost of one LED-matrix frame on the daemon's one thread: rendering a 128×64 picture, and
// turning it into wire bytes (wiring order, brightness, gamma, power cap). Goal: ≤ 100 µs each
// in a release build.

import DisplayKit
import MatrixKit
import WorkoutCore

enum MatrixBenchmark {
  static func run() throws {
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "EMOM 20", mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 20))))
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    _ = try engine.apply(.start, at: start)
    let at = MonotonicInstant(nanoseconds: 1_000_000_000 + 443_210_000_000)
    _ = engine.advance(to: at)
    let snapshot = engine.snapshot(at: at)
    let renderer = MatrixRenderer(width: 128, height: 64)
    let wiring = try WiringMap(width: 128, height: 64, serpentine: true)
    let pipeline = OutputPipeline(gamma: 2.2, currentLimitMilliamps: 20_000)
    let time = TimeOfDay(hour: 9, minute: 5, second: 30)
    var buffer = renderer.render(snapshot, timeOfDay: time, milliseconds: 0)
    var checksum = 0
    for index in 0..<200 {
      renderer.render(snapshot, timeOfDay: time, milliseconds: Int64(index), into: &buffer)
      checksum &+= pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 80).count
    }

    // The median of several rounds: one round disturbed by another process does not move it.
    let iterations = 2_000
    var render: [Double] = []
    var bytes: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<7 {
      let renderTime = clock.measure {
        for index in 0..<iterations {
          renderer.render(snapshot, timeOfDay: time, milliseconds: Int64(index), into: &buffer)
        }
      }
      let bytesTime = clock.measure {
        for _ in 0..<iterations {
          checksum &+= Int(pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 80)[0])
        }
      }
      render.append(EngineBenchmark.nanoseconds(renderTime) / Double(iterations) / 1000)
      bytes.append(EngineBenchmark.nanoseconds(bytesTime) / Double(iterations) / 1000)
    }
    precondition(checksum != Int.min, "the work must not be optimised away")
    report("matrix.render_128x64", render.sorted()[3], "us")
    report("matrix.wire_bytes_128x64", bytes.sorted()[3], "us")
  }
}
