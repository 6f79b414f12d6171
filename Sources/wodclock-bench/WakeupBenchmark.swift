// SPDX-License-Identifier: MIT
// How late the daemon wakes for its engine deadlines, beside how late a bare timer loop wakes
// on the same machine in the same seconds, with the machine idle and with every core busy.

import HardwareKit
import JSONKit

enum WakeupBenchmark {
  /// At ten times speed the engine's one-second deadlines come ten times a second: enough
  /// wake-ups for a p99 within a minute.
  static let speed = 10
  static let floorPeriod = Duration.milliseconds(50)
  static let preset = "emom-long"

  static func run(_ options: BenchmarkOptions) throws {
    let seconds = options.window(default: 60)
    var idleDifference: (p50: Double, p99: Double)?
    var loadedDifference: (p50: Double, p99: Double)?
    // Both cores busy: the daemon and the floor loop then compete with the load for the CPU.
    for (name, busyProcesses) in [("idle", 0), ("loaded", 2)] {
      let (floor, daemon) = try measure(seconds: seconds, busyProcesses: busyProcesses)
      for (side, figures) in [("floor", floor), ("daemon", daemon)] {
        report("wakeup.\(name).\(side).p50", figures.p50, "us")
        report("wakeup.\(name).\(side).p99", figures.p99, "us")
        report("wakeup.\(name).\(side).max", figures.max, "us")
      }
      report("wakeup.\(name).daemon.count", Double(daemon.count), "wakeups", decimals: 0)
      let difference = (daemon.p50 - floor.p50, daemon.p99 - floor.p99)
      if name == "idle" { idleDifference = difference } else { loadedDifference = difference }
    }
    // The daemon's own cost per wake-up is what it adds to the floor; the target is 200 us.
    for (name, difference) in [("idle", idleDifference), ("loaded", loadedDifference)] {
      guard let difference else { continue }
      report("wakeup.\(name).daemon_minus_floor.p50", difference.p50, "us")
      report("wakeup.\(name).daemon_minus_floor.p99", difference.p99, "us")
    }
  }

  /// A workout that outlasts the window: at speed 10 a minute of EMOM takes six seconds.
  static func configuration(seconds: Int) -> String {
    let rounds = seconds * speed / 60 + 3
    return """
      # wodclock-bench wakeup: a long EMOM, run ten times faster than real time.
      ---
      clock:
        idle: preset
      defaults:
        preset: \(preset)
        count_in: 10s
      presets:
        \(preset):
          mode: emom
          interval: 1:00
          rounds: \(rounds)
      outputs:
        - type: log
      """
  }

  /// Runs one case and returns the floor's and the daemon's lateness, in microseconds.
  static func measure(seconds: Int, busyProcesses: Int) throws -> (
    floor: Percentiles, daemon: Percentiles
  ) {
    try Interruption.check()
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let load = try BusyLoad(count: busyProcesses)
    defer { load.stop() }
    let daemon = try DaemonUnderTest(
      configuration: configuration(seconds: seconds), in: scratch, speed: speed)
    defer { daemon.stop() }

    try daemon.request(#"{"cmd":"load","preset":"\#(preset)"}"#)
    try daemon.request(#"{"cmd":"start"}"#)
    // One-second slices of the floor loop, so Ctrl-C is noticed within a second; every slice
    // computes its deadlines from its own start, so the slicing adds no lateness.
    let periodsPerSecond = Int(Duration.seconds(1) / floorPeriod)
    var floor: [Int64] = []
    floor.reserveCapacity(seconds * periodsPerSecond)
    for _ in 0..<seconds {
      try Interruption.check()
      floor += try TimerFloor.measure(count: periodsPerSecond, period: floorPeriod)
    }
    let stats = try daemon.request(#"{"cmd":"stats"}"#)
    let status = try daemon.request(#"{"cmd":"status"}"#)

    // Figures from a workout that ended early would cover only part of the window.
    let state = status["status"]?["state"]?.stringValue ?? "?"
    guard state == "running" else {
      throw BenchmarkError("the workout is '\(state)' at the end of the window, not running")
    }
    guard let lateness = stats["wake_lateness_us"], let count = lateness["count"]?.intValue,
      let p50 = lateness["p50"]?.doubleValue, let p99 = lateness["p99"]?.doubleValue,
      let max = lateness["max"]?.doubleValue
    else {
      throw BenchmarkError("wodclockd's stats have no wake-up lateness: \(stats)")
    }
    guard let floorFigures = Percentiles(floor.map { Double($0) / 1_000 }) else {
      throw BenchmarkError("the timer floor loop recorded nothing")
    }
    return (floorFigures, Percentiles(count: Int(count), p50: p50, p99: p99, max: max))
  }
}
