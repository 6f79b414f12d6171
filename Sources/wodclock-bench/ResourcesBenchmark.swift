// SPDX-License-Identifier: MIT
// What the daemon costs the machine while a workout runs at real speed: CPU and memory.

import HardwareKit
import JSONKit
import WodclockTestSupport

enum ResourcesBenchmark {
  static func run(_ options: BenchmarkOptions) throws {
    let seconds = options.window(default: 60)
    try Interruption.check()
    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    let configuration = """
      # wodclock-bench resources: a 20-minute AMRAP at real speed, logged.
      ---
      defaults:
        preset: amrap-20
      presets:
        amrap-20:
          mode: amrap
          time: 20m
      outputs:
        - type: log
      """
    let daemon = try DaemonUnderTest(configuration: configuration, in: scratch, speed: 1)
    defer { daemon.stop() }

    try daemon.request(#"{"cmd":"load","preset":"amrap-20"}"#)
    try daemon.request(#"{"cmd":"start"}"#)
    // Measured from after the start, so the one-off cost of starting up is not spread over
    // the window; the peak RSS still includes it (VmHWM never goes down).
    let first = try ProcessStats.sample(processID: daemon.process.processID)
    let start = MonotonicClock.now()
    try Interruption.sleep(milliseconds: seconds * 1_000)
    let last = try ProcessStats.sample(processID: daemon.process.processID)
    let end = MonotonicClock.now()

    let status = try daemon.request(#"{"cmd":"status"}"#)
    let state = status["status"]?["state"]?.stringValue ?? "?"
    guard state == "running" || state == "countin" else {
      throw BenchmarkError("the AMRAP is '\(state)' at the end of the window, not running")
    }
    // /proc counts CPU time in clock ticks (10 ms at USER_HZ 100): over 60 s one tick is
    // 0.017 % of a core, hence three decimals and the 60 s default.
    let cpuPercent = Double(last.cpuNanoseconds - first.cpuNanoseconds) / Double(end - start) * 100
    report("resources.cpu_percent", cpuPercent, "%", decimals: 3)
    // Decimal megabytes (10^6 bytes): the stricter reading of a "10 MB" budget.
    report("resources.peak_rss", Double(last.peakResidentBytes) / 1e6, "MB")
    report("resources.rss", Double(last.residentBytes) / 1e6, "MB")
  }
}
