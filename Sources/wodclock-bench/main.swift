// SPDX-License-Identifier: MIT
// wodclock-bench: prints figures, one per line, as `NAME VALUE UNIT`.
// Timing goals are measured here, never asserted in tests that would flake on a busy machine.

import Glibc

struct Benchmark {
  var name: String
  var summary: String
  var run: () throws -> Void
}

let benchmarks: [Benchmark] = [
  Benchmark(
    name: "engine", summary: "ns per advance and per snapshot for every mode",
    run: EngineBenchmark.run),
  Benchmark(
    name: "config", summary: "ms to parse and validate a config with 1,000 presets",
    run: ConfigBenchmark.run),
  Benchmark(
    name: "buzzer",
    summary: "gpio-buzzer edge lateness beside the timer floor, p50 and p99 (fake chip)",
    run: GPIOBenchmark.runBuzzer),
  Benchmark(
    name: "button",
    summary: "gpio-button release edge to decided press, p50 and p99 (30 ms debounce)",
    run: GPIOBenchmark.runButton),
]

func usage(_ benchmarks: [Benchmark]) -> Never {
  var text = "usage: wodclock-bench <benchmark>... | all\n\nbenchmarks:\n"
  for benchmark in benchmarks { text += "  \(benchmark.name)  \(benchmark.summary)\n" }
  writeError(text)
  exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let selected = arguments == ["all"] ? benchmarks.map(\.name) : arguments
if selected.isEmpty { usage(benchmarks) }
for name in selected {
  guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
    writeError("wodclock-bench: unknown benchmark '\(name)'\n")
    usage(benchmarks)
  }
  do {
    try benchmark.run()
  } catch {
    writeError("wodclock-bench: \(name): \(error)\n")
    exit(1)
  }
}
