// SPDX-License-Identifier: MIT
// What the daemon costs the machine while a workout runs at real speed, watched by one
// subscriber: CPU (in all, per wake-up and per second shown) and memory.

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
    // Watched as a gym watches it: one subscriber (a `wodclockctl watch`, a display) takes
    // every status and cue event.
    var watcher = try SpeakerBenchmark.subscribe(daemon)
    var events = 0
    // Measured from after the start, so the one-off cost of starting up is not spread over
    // the window; the peak RSS still includes it (VmHWM never goes down).
    let first = try ProcessStats.sample(processID: daemon.process.processID)
    let start = MonotonicClock.now()
    let end = start + Int64(seconds) * 1_000_000_000
    while MonotonicClock.now() < end {
      try Interruption.check()
      let left = Int((end - MonotonicClock.now()) / 1_000_000)
      if try receivedLine(&watcher, withinMilliseconds: max(1, min(left, 1_000))) { events += 1 }
    }
    let last = try ProcessStats.sample(processID: daemon.process.processID)
    let finished = MonotonicClock.now()

    let status = try daemon.request(#"{"cmd":"status"}"#)
    let state = status["status"]?["state"]?.stringValue ?? "?"
    guard state == "running" || state == "countin" else {
      throw BenchmarkError("the AMRAP is '\(state)' at the end of the window, not running")
    }
    // The scheduler's own count, to the nanosecond: /proc/<pid>/stat's 10 ms ticks made one
    // tick 0.017 % of a core over 60 s, coarser than the figure itself. Without schedstats
    // (a kernel built without them) the ticks are all there is.
    let window = Double(finished - start)
    let scheduled = last.scheduledNanoseconds - first.scheduledNanoseconds
    let cpu = scheduled > 0 ? scheduled : last.cpuNanoseconds - first.cpuNanoseconds
    report("resources.cpu_percent", Double(cpu) / window * 100, "%", decimals: 4)
    let wakeUps = last.voluntarySwitches - first.voluntarySwitches
    report("resources.wake_ups_per_second", Double(wakeUps) / window * 1e9, "/s", decimals: 1)
    report(
      "resources.cpu_per_wake_up", wakeUps > 0 ? Double(cpu) / Double(wakeUps) / 1e3 : 0, "µs",
      decimals: 1)
    report("resources.cpu_per_second_shown", Double(cpu) / window * 1e9 / 1e3, "µs", decimals: 1)
    report("resources.events", Double(events), "events", decimals: 0)
    // Decimal megabytes (10^6 bytes): the stricter reading of a "10 MB" budget.
    report("resources.peak_rss", Double(last.peakResidentBytes) / 1e6, "MB")
    report("resources.rss", Double(last.residentBytes) / 1e6, "MB")
  }

  /// Whether a line came on `client` within the time; false when none did.
  private static func receivedLine(_ client: inout UnixClient, withinMilliseconds milliseconds: Int)
    throws(SystemError) -> Bool
  {
    do throws(SystemError) {
      guard try client.readLine(timeoutMilliseconds: milliseconds) != nil else {
        throw SystemError(operation: "read", path: "the subscription", errno: .connectionReset)
      }
      return true
    } catch  where error.errno == .timedOut {
      return false
    }
  }
}
