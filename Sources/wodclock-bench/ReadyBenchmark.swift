// SPDX-License-Identifier: MIT
// How long a (re)start takes before the clock is up: from exec to READY=1, which is when
// systemd considers the service started.

import HardwareKit
import WodclockTestSupport

enum ReadyBenchmark {
  static let runs = 20

  /// A configuration of the size a gym would have, so parsing it is part of the figure. Only the
  /// `log` output: the terminal output needs a terminal.
  static let configuration = """
    # wodclock-bench ready: a gym's worth of presets.
    ---
    clock:
      format: 24h
      idle: clock
    defaults:
      preset: tabata
      count_in: 10s
    presets:
      tabata:
        mode: tabata
        label: Tabata
      emom-10:
        mode: emom
        interval: 1:00
        rounds: 10
      emom-20:
        mode: emom
        interval: 1:00
        rounds: 20
        labels: [burpees, wall balls]
      amrap-12:
        mode: amrap
        time: 12m
      amrap-20:
        mode: amrap
        time: 20m
      for-time-20:
        mode: for_time
        cap: 20m
      squat-5x5:
        mode: tempo
        label: Back squat
        tempo: "3-1-1-0"
        reps: 5
        sets: 5
        set_rest: 2m
      intervals-30-30:
        mode: intervals
        work: 30s
        rest: 30s
        rounds: 10
        sets: 2
        set_rest: 2m
      fight-gone-bad:
        mode: sequence
        label: Fight Gone Bad
        steps:
          - name: round
            repeat: 3
            steps:
              - {name: wall balls, duration: 1m}
              - {name: sumo deadlift high pull, duration: 1m}
              - {name: box jumps, duration: 1m}
              - {name: push press, duration: 1m}
              - {name: row (calories), duration: 1m}
              - {name: rest, kind: rest, duration: 1m}
    outputs:
      - type: log
    """

  static func run(_ options: BenchmarkOptions) throws {
    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    var milliseconds: [Double] = []
    for index in 0..<runs {
      // A fresh state directory each time: every run is a first start, none restores a workout.
      let daemon = try DaemonUnderTest(
        configuration: configuration, in: scratch, name: "run\(index)")
      let status = daemon.stop()
      guard status == .exited(0) else {
        throw BenchmarkError(
          "wodclockd did not stop cleanly on SIGTERM: \(status.map { "\($0)" } ?? "unknown")")
      }
      milliseconds.append(Double(daemon.readyAfter) / 1e6)
    }
    guard let figures = Percentiles(milliseconds) else { return }
    report("ready.p50", figures.p50, "ms")
    report("ready.max", figures.max, "ms")
  }
}
