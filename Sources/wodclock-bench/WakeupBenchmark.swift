// SPDX-License-Identifier: MIT
// How late the daemon wakes for its engine deadlines, beside how late a bare timer loop wakes
// on the same machine in the same seconds, with the machine idle and with every core busy.

import HardwareKit
import JSONKit
import WodclockTestSupport

enum WakeupBenchmark {
  /// At a hundred times speed the engine's one-second deadlines come every 10 ms: 6,000
  /// wake-ups a minute, so that a p99 rests on 60 samples rather than a handful. The floor
  /// loop wakes at the same rate, so both meet the scheduler alike.
  static let speed = 100
  static let floorPeriod = Duration.milliseconds(10)
  static let preset = "emom-long"

  /// The real-time priority `systemd/wodclockd.service` gives the daemon
  /// (`CPUSchedulingPolicy=fifo`, `CPUSchedulingPriority=`): the third case runs the daemon and
  /// the floor loop with it, as the installed service runs.
  static let servicePriority: Int32 = 10

  static func run(_ options: BenchmarkOptions) throws {
    let seconds = options.window(default: 60)
    // Both cores busy: the daemon and the floor loop then compete with the load (normal
    // policy) for the CPU. Under the fair scheduler about one wake-up in a hundred waits out a
    // busy task's time slice (milliseconds), more often the more CPU a wake-up uses, so p99
    // falls on the edge of that tail; the share of wake-ups later than 1 ms says more. Both
    // sides of a case run under the same policy.
    let cases: [(name: String, busyProcesses: Int, policy: SchedulingPolicy)] = [
      ("idle", 0, .normal), ("loaded", 2, .normal),
      ("loaded_service_policy", 2, .firstInFirstOut(priority: servicePriority)),
    ]
    var differences: [(name: String, p50: Double, p99: Double)] = []
    for run in cases {
      guard
        let (floor, daemon) = try measure(
          seconds: seconds, busyProcesses: run.busyProcesses, policy: run.policy)
      else { continue }
      for (side, figures) in [("floor", floor), ("daemon", daemon)] {
        report("wakeup.\(run.name).\(side).p50", figures.p50, "us")
        report("wakeup.\(run.name).\(side).p99", figures.p99, "us")
        report("wakeup.\(run.name).\(side).max", figures.max, "us")
        report(
          "wakeup.\(run.name).\(side).over_1ms", figures.percentOverOneMillisecond, "%",
          decimals: 2)
      }
      report("wakeup.\(run.name).daemon.count", Double(daemon.count), "wakeups", decimals: 0)
      differences.append((run.name, daemon.p50 - floor.p50, daemon.p99 - floor.p99))
    }
    // The daemon's own cost per wake-up is what it adds to the floor; the target is 200 us.
    for difference in differences {
      report("wakeup.\(difference.name).daemon_minus_floor.p50", difference.p50, "us")
      report("wakeup.\(difference.name).daemon_minus_floor.p99", difference.p99, "us")
    }
  }

  /// A workout that outlasts the window: at speed 100 a minute of EMOM takes 0.6 seconds.
  static func configuration(seconds: Int) -> String {
    let rounds = seconds * speed / 60 + 3
    return """
      # wodclock-bench wakeup: a long EMOM, run a hundred times faster than real time.
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
  /// Nil when the policy cannot be set (not root): that case is skipped, and says so.
  static func measure(seconds: Int, busyProcesses: Int, policy: SchedulingPolicy) throws -> (
    floor: Percentiles, daemon: Percentiles
  )? {
    try Interruption.check()
    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    let load = try BusyLoad(count: busyProcesses)
    defer { load.stop() }
    let daemon = try DaemonUnderTest(
      configuration: configuration(seconds: seconds), in: scratch, speed: speed)
    defer { daemon.stop() }

    // The load was started first and keeps the normal policy; the floor loop runs on this
    // thread.
    if policy != .normal {
      do {
        try policy.apply(threadID: daemon.process.processID)
        try policy.apply()
      } catch {
        writeError("wakeup: skipping the case under \(policy): \(error) (run as root)\n")
        return nil
      }
    }
    defer { try? SchedulingPolicy.normal.apply() }
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
      let max = lateness["max"]?.doubleValue, let late = lateness["over_1ms"]?.intValue
    else {
      throw BenchmarkError("wodclockd's stats have no wake-up lateness: \(stats)")
    }
    guard let floorFigures = Percentiles(floor.map { Double($0) / 1_000 }) else {
      throw BenchmarkError("the timer floor loop recorded nothing")
    }
    return (
      floorFigures,
      Percentiles(
        count: Int(count), p50: p50, p99: p99, max: max, overOneMillisecond: Int(late))
    )
  }
}
