// SPDX-License-Identifier: MIT
// `buzzer`: how late the gpio-buzzer's edges come, beside the machine's bare timer floor.
// `button`: how long after a button's release edge its action is decided.
//
// Both run the plugins as the daemon does: one thread, an epoll loop, a timerfd armed at the
// plugins' `nextWakeUp`, the button's request descriptor watched for readability. The chip is
// the tests' `FakeGPIOChip` on the real monotonic clock, so a line write is stamped when it
// happens; the kernel's own GPIO path (an ioctl per edge) is not in these figures.

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import WodclockDaemon
import WodclockTestSupport
import WorkoutCore

enum GPIOBenchmark {
  /// The lateness figures of one run, in nanoseconds, sorted.
  struct Figures {
    var values: [Int64]
    func percentile(_ p: Double) -> Double {
      guard !values.isEmpty else { return .nan }
      let index = min(values.count - 1, Int((Double(values.count - 1) * p).rounded()))
      return Double(values[index])
    }
  }

  /// `chip` as the plugins' only chip, opened by spec as the kernel's would be.
  static func chipSource(_ chip: FakeGPIOChip) -> GPIOChipSource {
    let chips = FakeGPIOChips([chip])
    return GPIOChipSource(open: chips.open, chipNames: chips.names)
  }

  static func context() -> PluginContext {
    let logger = Logger(minimumLevel: .error)
    return PluginContext(id: "bench", logger: logger, speed: 1, claimTerminal: { _ in })
  }

  static func frame(_ snapshot: WorkoutSnapshot, cues: [FrameCue], at now: Int64) -> OutputFrame {
    OutputFrame(
      snapshot: snapshot, cues: cues, tokens: .standard, words: .english,
      clock: ClockSettings(), civilTime: WallClock.civilTime(at: WallClock.now()),
      monotonicNow: now, speed: 1, message: nil)
  }

  /// Buzzer edges against the timer floor, side by side: 20 blocks of 5 cues (100 ms apart) of
  /// a 6-edge pattern (10 ms steps). The same loop also wakes for bare timer probes, 5 ms off
  /// the edges, that do nothing but note their lateness: the floor under the same load, at the
  /// same moments. `TimerFloor` blocks between the runs give the floor with nothing else in the
  /// loop, as in the daemon's wake-up figures.
  static func runBuzzer() throws {
    let chip = FakeGPIOChip.raspberryPi()
    let buzzer = try GPIOBuzzerOutput(
      instance: try pluginInstance(
        "outputs",
        "{type: gpio-buzzer, line: GPIO18, patterns: {round_start: [10ms, 10ms, 10ms, 10ms, 10ms]}}"
      ), source: chipSource(chip))
    try buzzer.start(context())
    defer { buzzer.stop() }
    let snapshot = try WorkoutEngine(
      plan: WorkoutPlan(name: "bench", mode: .amrap(AMRAPParameters(time: .minutes(10))))
    ).snapshot(at: EngineInstant(nanoseconds: 0))
    let poller = try EventPoller()
    let timer = try DeadlineTimer()
    try poller.register(timer.fileDescriptor, token: 1)
    let pattern: [Int64] = [0, 10, 20, 30, 40, 50].map { $0 * 1_000_000 }
    var bareFloor: [Int64] = []
    var probes: [Int64] = []
    var edges: [Int64] = []
    var skipped = 0
    for _ in 0..<20 {
      bareFloor += try TimerFloor.measure(count: 25, period: .milliseconds(10))
      var expected: [Int64] = []
      let start = MonotonicClock.now() + 10_000_000
      let cueTimes = (0..<5).map { start + Int64($0) * 100_000_000 }
      let end = cueTimes.last! + 80_000_000
      var pending = cueTimes
      var probe = start + 5_000_000
      let before = chip.history(of: 18).count
      while MonotonicClock.now() < end {
        let now = MonotonicClock.now()
        var cues: [FrameCue] = []
        if let due = pending.first, due <= now {
          pending.removeFirst()
          cues.append(FrameCue(kind: .roundStart(Counter(1, of: 1)), due: due))
          expected += pattern.map { due + $0 }
        }
        try buzzer.render(frame(snapshot, cues: cues, at: now))
        while probe <= now { probe += 10_000_000 }
        let work = [buzzer.nextWakeUp(after: now), pending.first, end].compactMap { $0 }.min()!
        let wake = min(work, probe)
        try timer.arm(at: wake)
        _ = try poller.wait(until: nil)
        let woke = MonotonicClock.now()
        _ = try? timer.readExpirations()
        if wake == probe && wake < work { probes.append(woke - probe) }
      }
      let changes = chip.history(of: 18).dropFirst(before)
      // A stall longer than a 10 ms beep skips that beep (correctly: it is over); such a block
      // cannot be matched edge by edge and is counted instead.
      guard changes.count == expected.count else {
        skipped += 1
        continue
      }
      edges += zip(changes, expected).map { $0.0.instant - $0.1 }
    }
    let bare = Figures(values: bareFloor.sorted())
    let probeFigures = Figures(values: probes.sorted())
    let edgeFigures = Figures(values: edges.sorted())
    for (name, p) in [("p50", 0.5), ("p99", 0.99)] {
      let floor = probeFigures.percentile(p) / 1_000
      let edge = edgeFigures.percentile(p) / 1_000
      report("buzzer.timer_floor_alone.\(name)", bare.percentile(p) / 1_000, "us")
      report("buzzer.timer_floor_in_loop.\(name)", floor, "us")
      report("buzzer.edge_lateness.\(name)", edge, "us")
      report("buzzer.edge_over_floor.\(name)", edge - floor, "us")
    }
    report("buzzer.edges", Double(edges.count), "edges")
    report("buzzer.probes", Double(probes.count), "wake-ups")
    report("buzzer.blocks_with_a_skipped_beep", Double(skipped), "blocks")
  }

  /// Release edges to decided presses: 60 taps, 200 ms apart, with a 30 ms debounce.
  static func runButton() throws {
    let chip = FakeGPIOChip.raspberryPi()
    let input = try GPIOButtonInput(
      instance: try pluginInstance(
        "inputs", "{type: gpio-button, buttons: [{line: GPIO17, control: start, debounce: 30ms}]}"
      ), source: chipSource(chip))
    try input.start(context())
    defer { input.stop() }
    let poller = try EventPoller()
    let timer = try DeadlineTimer()
    try poller.register(timer.fileDescriptor, token: 1)
    guard let descriptor = input.watchedDescriptors.first?.descriptor else {
      throw PluginError("the button input watches no descriptor")
    }
    try poller.register(descriptor, token: 2)
    var latencies: [Int64] = []
    let start = MonotonicClock.now() + 10_000_000
    // Presses at start + 200 ms * k, releases 80 ms later; the loop plays the outside world.
    var script: [(instant: Int64, press: Bool)] = []
    for index in 0..<60 {
      let at = start + Int64(index) * 200_000_000
      script += [(at, true), (at + 80_000_000, false)]
    }
    var releaseStamps: [Int64] = []
    let end = script.last!.instant + 100_000_000
    while MonotonicClock.now() < end {
      var now = MonotonicClock.now()
      while let next = script.first, next.instant <= now {
        script.removeFirst()
        // The edge is stamped now, as the kernel stamps it when it sees it.
        if next.press { chip.press(17) } else { chip.releaseButton(17) }
        if !next.press { releaseStamps.append(chip.events(for: 17).last!.timestamp) }
      }
      now = MonotonicClock.now()
      var events = try input.handleReady(descriptor, .readable, at: now)
      if let due = input.nextWakeUp(after: now), due <= now {
        events += input.handleWakeUp(at: now)
      }
      let decided = MonotonicClock.now()
      for case .control("start", .press, _) in events {
        latencies.append(decided - releaseStamps.last!)
      }
      let wake = [input.nextWakeUp(after: now), script.first?.instant, end].compactMap { $0 }
        .min()!
      try timer.arm(at: wake)
      _ = try poller.wait(until: nil)
      _ = try? timer.readExpirations()
    }
    guard latencies.count == 60 else {
      throw PluginError("expected 60 presses, saw \(latencies.count)")
    }
    let figures = Figures(values: latencies.sorted())
    for (name, p) in [("p50", 0.5), ("p99", 0.99)] {
      report("button.release_to_action.\(name)", figures.percentile(p) / 1_000, "us")
      report("button.over_debounce.\(name)", (figures.percentile(p) - 30e6) / 1_000, "us")
    }
  }
}
