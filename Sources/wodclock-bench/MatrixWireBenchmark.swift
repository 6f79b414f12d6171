// SPDX-License-Identifier: MIT
// When a serial-matrix frame's last byte leaves the UART, against the second boundary it
// shows. The output asks to be woken the frame's wire time (bytes × 10 / baud, 8N1) before the
// boundary and writes the whole frame then; a pseudo-terminal stands in for the UART, so the
// last byte leaves at the write's end plus the wire time. Goal: within ±2 ms at 115200 and
// 1 000 000 baud.

import Configuration
import DisplayKit
import Glibc
import HardwareKit
import WodclockDaemon
import WorkoutCore

enum MatrixWireBenchmark {
  static let second: Int64 = 1_000_000_000

  static func run(options: BenchmarkOptions) throws {
    // Two minutes of second boundaries per rate by default: "over a few minutes" in all.
    let boundaries = max(3, options.window(default: 120))
    for baud in [115_200, 1_000_000] {
      let deltas = try measure(baud: baud, boundaries: boundaries)
      let sorted = deltas.sorted()
      let name = "matrix_wire.\(baud)"
      report(
        "\(name).last_byte_vs_boundary_p50", Double(sorted[sorted.count / 2]) / 1e6, "ms",
        decimals: 3)
      report(
        "\(name).last_byte_vs_boundary_max_abs",
        Double(sorted.map { abs($0) }.max() ?? 0) / 1e6, "ms", decimals: 3)
      report("\(name).frames", Double(sorted.count), "frames", decimals: 0)
    }
  }

  /// Per boundary: (end of the write that sent the frame + wire time) − boundary, nanoseconds.
  static func measure(baud: Int, boundaries: Int) throws -> [Int64] {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let (width, height) = (32, 16)
    let frameBytes = width * height * 3 + 6  // Adalight
    let wire = Int64(frameBytes) * 10 * second / Int64(baud)
    // No current cap (max_current_ma: 0), as in the figures measured so far: only the wire's
    // timing is measured here.
    let instance = try pluginInstance(
      "outputs",
      "{type: serial-matrix, device: \(terminal.secondaryPath), baud: \(baud), protocol: adalight, "
        + "width: \(width), height: \(height), startup_delay: 0s, keepalive: 60s, "
        + "max_current_ma: 0}")
    let output = try MatrixOutput(instance: instance)
    try output.start(
      PluginContext(id: "bench", logger: Logger(), speed: 1, claimTerminal: { _ in }))
    defer { output.stop() }

    // A For Time counting up from a whole second of the monotonic clock: its display changes
    // on every boundary.
    let origin = (MonotonicClock.now() / second + 1) * second
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(name: "bench", mode: .forTime(ForTimeParameters())))
    _ = try engine.apply(.start, at: EngineInstant(nanoseconds: origin))
    func frame(at now: Int64) -> OutputFrame {
      let instant = EngineInstant(nanoseconds: max(origin, now))
      _ = engine.advance(to: instant)
      var frame = OutputFrame(
        snapshot: engine.snapshot(at: instant), cues: [], tokens: .standard, words: .english,
        clock: ClockSettings(), civilTime: civil(), monotonicNow: now, speed: 1, message: nil)
      frame.nextChange = engine.nextDeadline?.nanoseconds
      let copy = engine
      frame.preview = FramePreview { later in
        var ahead = copy
        let at = EngineInstant(nanoseconds: later)
        _ = ahead.advance(to: at)
        return (ahead.snapshot(at: at), civil())
      }
      return frame
    }

    var deltas: [Int64] = []
    var sink: [UInt8] = []
    let end = origin + Int64(boundaries + 1) * second
    while MonotonicClock.now() < end {
      let now = MonotonicClock.now()
      let wake = min(
        output.nextWakeUp(after: now) ?? end, engine.nextDeadline?.nanoseconds ?? end, end)
      sleep(until: wake)
      let before = MonotonicClock.now()
      let shown = frame(at: before)
      let boundary = shown.nextChange ?? end
      try output.render(shown)
      let written = MonotonicClock.now()
      sink.removeAll(keepingCapacity: true)
      while case .bytes(let count) = try terminal.primary.read(appendingTo: &sink), count > 0 {}
      // A whole frame written ahead of its boundary: when its last byte leaves the UART.
      if sink.count >= frameBytes, boundary - before <= wire + 5_000_000, before > origin {
        deltas.append(written + wire - boundary)
      }
    }
    return deltas
  }

  static func civil() -> CivilTime {
    CivilTime(
      year: 2026, month: 1, day: 1, hour: 10, minute: 0, second: 0, nanosecond: 0, weekday: 0,
      utcOffsetSeconds: 0)
  }

  /// Sleeps to an absolute CLOCK_MONOTONIC instant, as the daemon's timerfd does.
  static func sleep(until instant: Int64) {
    var target = timespec(tv_sec: Int(instant / second), tv_nsec: Int(instant % second))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
  }
}
