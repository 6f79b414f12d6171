// SPDX-License-Identifier: MIT
// Parse and validate a config with 1,000 presets: a reload must not stall the clock.

import ConfigFormat
import Configuration
import WodclockDaemon
import WorkoutCore

enum ConfigBenchmark {
  /// A config with `count` presets cycling through every mode, nested sequences and tempo
  /// sets among them.
  static func generate(presets count: Int) -> String {
    var text = """
      clock:
        format: 24h
        seconds: false
      defaults:
        preset: p0
        count_in: 10s
        cues:
          rounds_remaining: [10, 5, 2]
      tokens:
        palette:
          green: "#00e060"
          red: "#ff2020"
        roles:
          work: green
          rest: red
      controls:
        start:
          press: toggle
          long_press: load p1
      presets:

      """
    for index in 0..<count {
      text += "  p\(index):\n"
      switch index % 8 {
      case 0:
        text += "    mode: tabata\n    label: Tabata \(index)\n"
      case 1:
        text += "    mode: emom\n    interval: 1:00\n    rounds: \(index % 30 + 1)\n"
        text += "    labels: [burpees, wall balls]\n    ladder: {start: 1, step: 1}\n"
      case 2:
        text += "    mode: amrap\n    time: \(index % 40 + 1)m\n"
      case 3:
        text += "    mode: for_time\n    cap: 20m\n    rounds: 5\n"
      case 4:
        text += "    mode: intervals\n    work: 30s\n    rest: 15s\n    rounds: 10\n"
        text += "    sets: 3\n    set_rest: 2m\n    skip_last_rest: true\n"
      case 5:
        text += "    mode: tempo\n    tempo: \"3-1-1.5-0\"\n    reps: 5\n    sets: 5\n"
        text += "    set_rest: 2m\n    start: concentric\n    unilateral: true\n"
      case 6:
        text += """
              mode: sequence
              label: Fight Gone Bad
              steps:
                - {name: warm-up, duration: 10m}
                - name: round
                  repeat: 3
                  steps:
                    - {name: wall balls, duration: 1m}
                    - name: pair
                      repeat: 2
                      steps:
                        - {name: box jumps, duration: 30s, reps: 10}
                        - {name: rest, kind: rest, duration: 15s}
                    - {name: rest, kind: rest, duration: 1m}
                - {name: cool-down, kind: rest, skippable: true}

          """
      default:
        text += "    mode: clock\n    seconds: true\n"
      }
    }
    text += """
      inputs:
        - type: keyboard
      outputs:
        - type: terminal
        - {type: log, cues: false}

      """
    return text
  }

  static func run() throws {
    let text = generate(presets: 1000)
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<9 {
      var result: ConfigurationLoadResult?
      let elapsed = clock.measure {
        // The daemon's plugin kinds, so the generated inputs and outputs are checked as it
        // checks them.
        result = ConfigurationLoader.load(
          text: text, file: "bench.yaml", plugins: PluginCatalog.schemas)
      }
      guard let result, result.configuration?.presets.count == 1000, result.diagnostics.isEmpty
      else {
        throw BenchmarkFailure(description: "the generated config does not load cleanly")
      }
      let (seconds, attoseconds) = elapsed.components
      samples.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
    samples.sort()
    report("config.parse_validate_1000_presets", samples[samples.count / 2], "ms")
  }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  var description: String
}
