// SPDX-License-Identifier: MIT
// `wodclock-bench lanes`: the real wodclockd with eight lane buttons on a gpio-sim chip (the VM
// of `make hil`), all eight pressed at once, again and again. A press is a write of the line's
// pull (sim_gpioN/pull, as `sim-pull` does), and gpio-sim raises the edge inside that write, so
// the edge's kernel timestamp lies between two CLOCK_MONOTONIC readings taken around it: a
// bracket. The workout's zero on the same clock is the `start` cue's `due_ms` from the subscribe
// stream. Each recorded finish (whole milliseconds, truncated) is set against its bracket in
// workout time: its error is how far it lies outside [floor(before), ceil(after)] (zero inside).
//
// The goal (docs/benchmarks.md): every finish within a millisecond of its edge, also with eight
// presses within 10 ms. These are figures, not PASS or FAIL lines: a finish outside its bracket
// is counted (`lanes.outside_bracket`) beside the error's p50, p99 and max.

import Glibc
import HardwareKit
import JSONKit
import WodclockTestSupport

enum LanesBenchmark {
  static let lanes = 8
  /// How many times the eight are pressed together.
  static let rounds = 25
  /// The goal: a finish at most a millisecond from its edge.
  static let target = 1.0

  static func configuration(chip: String) -> String {
    var text = """
      # wodclock-bench lanes: eight lane buttons on the simulated chip.
      ---
      defaults:
        preset: race
        count_in: 1s
        cues: {countdown: false, halfway: false, last_ten_seconds: false, rounds_remaining: []}
      presets:
        race: {mode: for_time, cap: 30m}
      heats:
        lanes: \(lanes)
      inputs:
        - type: gpio-button
          buttons:

      """
    for lane in 1...lanes {
      text += "      - {line: \(lane - 1), chip: \(chip), control: lane\(lane), debounce: 5ms}\n"
    }
    text += "controls:\n"
    for lane in 1...lanes {
      text += "  lane\(lane): {press: lane finish \(lane), long_press: lane undo \(lane)}\n"
    }
    text += "outputs:\n  - type: log\n"
    return text
  }

  /// One press's bracket on CLOCK_MONOTONIC, in nanoseconds.
  struct Bracket {
    var before: Int64
    var after: Int64
  }

  static func run(_ options: BenchmarkOptions) throws {
    guard let sysfs = Environment.get("GPIO_SIM_SYSFS"),
      let chip = Environment.get("GPIO_SIM_LABEL")
    else {
      throw BenchmarkUnavailable(
        "lanes needs a gpio-sim chip ($GPIO_SIM_SYSFS and $GPIO_SIM_LABEL); `make hil` runs it in "
          + "its VM (Tests/hil/run.sh v1 or v2)")
    }
    let pulls = try (0..<lanes).map { line in
      try FileDescriptor.open("\(sysfs)/sim_gpio\(line)/pull", .writeOnly)
    }
    defer { for pull in pulls { try? pull.close() } }
    // Released before the daemon asks for the lines, as a button at rest.
    for pull in pulls { try pull.writeAll(Array("pull-up".utf8)) }

    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    let daemon = try DaemonUnderTest(
      configuration: configuration(chip: chip), in: scratch, keepsLog: true)
    defer { daemon.stop() }
    var events = try SpeakerBenchmark.subscribe(daemon)
    try daemon.request(#"{"cmd":"start"}"#)
    let zero = try workoutZero(&events)
    try waitUntilRunning(daemon)

    var errors: [Double] = []
    var widths: [Double] = []
    var spreads: [Double] = []
    var outside = 0
    var missing = 0
    for _ in 0..<rounds {
      try Interruption.check()
      var brackets: [Bracket] = []
      for pull in pulls {
        let before = MonotonicClock.now()
        try pull.writeAll(Array("pull-down".utf8))
        brackets.append(Bracket(before: before, after: MonotonicClock.now()))
      }
      spreads.append(Double(brackets[lanes - 1].after - brackets[0].before) / 1e6)
      try Interruption.sleep(milliseconds: 50)
      for pull in pulls { try pull.writeAll(Array("pull-up".utf8)) }
      let finishes = try waitForFinishes(daemon)
      for (index, bracket) in brackets.enumerated() {
        guard let finish = finishes[index] else {
          missing += 1
          continue
        }
        // Workout milliseconds; the bracket's ends rounded outward to the finish's whole ms.
        let low = (Double(bracket.before) / 1e6 - zero).rounded(.down)
        let high = (Double(bracket.after) / 1e6 - zero).rounded(.up)
        let value = Double(finish)
        let error = value < low ? low - value : value > high ? value - high : 0
        if error > 0 { outside += 1 }
        errors.append(error)
        widths.append(Double(bracket.after - bracket.before) / 1_000)
      }
      for lane in 1...lanes {
        try daemon.request(#"{"cmd":"lane","op":"undo","lane":\#(lane)}"#)
      }
    }

    report("lanes.presses", Double(errors.count + missing), "count", decimals: 0)
    report("lanes.missing", Double(missing), "count", decimals: 0, note: "(goal 0)")
    report("lanes.outside_bracket", Double(outside), "count", decimals: 0, note: "(goal 0)")
    if let error = Percentiles(errors) {
      let within = errors.count { $0 <= target }
      report("lanes.error.p50", error.p50, "ms", decimals: 0)
      report("lanes.error.p99", error.p99, "ms", decimals: 0)
      report("lanes.error.max", error.max, "ms", decimals: 0, note: "(goal ≤ 1 ms)")
      report(
        "lanes.within_target", Double(within) * 100 / Double(errors.count), "%",
        note: "of finishes within \(Int(target)) ms of their edge's bracket")
    }
    if let width = Percentiles(widths) {
      report("lanes.bracket_width.p50", width.p50, "µs")
      report("lanes.bracket_width.max", width.max, "µs")
    }
    if let spread = Percentiles(spreads) {
      report("lanes.eight_presses_span.p50", spread.p50, "ms", decimals: 2)
      report("lanes.eight_presses_span.max", spread.max, "ms", decimals: 2, note: "(goal < 10 ms)")
    }
  }

  /// The workout's zero on the daemon's CLOCK_MONOTONIC, in milliseconds: the `start` cue's
  /// `due_ms`.
  static func workoutZero(_ events: inout UnixClient) throws -> Double {
    let timeout = MonotonicClock.now() + 15_000_000_000
    while MonotonicClock.now() < timeout {
      try Interruption.check()
      guard let line = try SpeakerBenchmark.nextEvent(&events) else { continue }
      let event = try JSONValue.parse(line)
      if event["cue"]?["name"]?.stringValue == "start", let due = event["due_ms"]?.doubleValue {
        return due
      }
    }
    throw BenchmarkError("wodclockd gave no start cue within 15 s of the start")
  }

  /// Waits for the workout proper: numbered lanes are on the wall only once one is used, so
  /// the workout's state says when presses are finishes.
  static func waitUntilRunning(_ daemon: DaemonUnderTest) throws {
    for _ in 0..<200 {
      let status = try daemon.request(#"{"cmd":"status"}"#)
      if status["status"]?["state"]?.stringValue == "running" { return }
      try Interruption.sleep(milliseconds: 25)
    }
    throw BenchmarkError("the workout is not running 5 s after the start")
  }

  /// Each lane's finish in milliseconds once all have one (or after 5 s: nil for those without).
  static func waitForFinishes(_ daemon: DaemonUnderTest) throws -> [Int64?] {
    var finishes: [Int64?] = Array(repeating: nil, count: lanes)
    for _ in 0..<200 {
      let status = try daemon.request(#"{"cmd":"status"}"#)
      for entry in status["status"]?["heat"]?["lanes"]?.arrayValue ?? [] {
        guard let lane = entry["lane"]?.intValue, (1...Int64(lanes)).contains(lane),
          let seconds = entry["finish_s"]?.doubleValue
        else { continue }
        finishes[Int(lane) - 1] = Int64((seconds * 1_000).rounded())
      }
      if finishes.allSatisfy({ $0 != nil }) { break }
      try Interruption.sleep(milliseconds: 25)
    }
    return finishes
  }
}
