// SPDX-License-Identifier: MIT
// wodclock-bench: prints figures, one per line, as `NAME VALUE UNIT`.
// Timing goals are measured here, never asserted in tests that would flake on a busy machine.

import Glibc

struct Benchmark {
  var name: String
  var summary: String
  var run: (BenchmarkOptions) throws -> Void
  /// Runs only where its hardware is (exiting 69 elsewhere), so `all` leaves it out.
  var needsHardware = false
}

/// Options shared by every benchmark on the command line.
struct BenchmarkOptions {
  /// `--seconds N`: the measuring window of the benchmarks that watch a running daemon, so a
  /// quick check does not take minutes; `nil` means each benchmark's own default.
  var seconds: Int?

  /// `--record FILE`: where `speaker-voice` writes what it heard, as a WAV file.
  var recording: String?

  func window(default seconds: Int) -> Int { self.seconds ?? seconds }
}

let benchmarks: [Benchmark] = [
  Benchmark(
    name: "engine", summary: "ns per advance and per snapshot for every mode",
    run: { _ in try EngineBenchmark.run() }),
  Benchmark(
    name: "config", summary: "ms to parse and validate a config with 1,000 presets",
    run: { _ in try ConfigBenchmark.run() }),
  Benchmark(
    name: "wakeup",
    summary: "the daemon's wake-up lateness beside the timer floor, idle and loaded",
    run: WakeupBenchmark.run),
  Benchmark(
    name: "resources", summary: "CPU time and peak RSS of the daemon running an AMRAP",
    run: ResourcesBenchmark.run),
  Benchmark(
    name: "ready", summary: "ms from exec to READY=1 on the notify socket",
    run: ReadyBenchmark.run),
  Benchmark(
    name: "json", summary: "ns to parse and to serialize a control message",
    run: { _ in try JSONBenchmark.run() }),
  Benchmark(
    name: "buzzer",
    summary: "gpio-buzzer edge lateness beside the timer floor, p50 and p99 (fake chip)",
    run: { _ in try GPIOBenchmark.runBuzzer() }),
  Benchmark(
    name: "button",
    summary: "gpio-button release edge to decided press, p50 and p99 (30 ms debounce)",
    run: { _ in try GPIOBenchmark.runButton() }),
  Benchmark(
    name: "matrix",
    summary: "µs to render a 128×64 LED-matrix frame and to turn it into wire bytes",
    run: { _ in try MatrixBenchmark.run() }),
  Benchmark(
    name: "matrix-wire",
    summary: "when a serial-matrix frame's last byte leaves, against its second boundary",
    run: MatrixWireBenchmark.run),
  Benchmark(
    name: "web",
    summary: "the daemon with 5 web displays, and Chromium's second change against the daemon's",
    run: WebBenchmark.run),
  Benchmark(
    name: "web-attacks",
    summary: "ms until a fresh device's /api/status is answered while clients attack (≤ 2 s)",
    run: WebAttackBenchmark.run),
  Benchmark(
    name: "sync",
    summary: "three clocks on one MQTT broker: the spread of their second changes, CPU, RSS",
    run: SyncBenchmark.run),
  Benchmark(
    name: "voice",
    summary: "ms to synthesize 60 spoken lines per language, the bank's KiB, the child's peak RSS",
    run: VoiceBenchmark.run),
  Benchmark(
    name: "speaker",
    summary: "the speaker's onset minus cue instant on the snd-aloop card beside a C floor (VM)",
    run: SpeakerBenchmark.run, needsHardware: true),
  Benchmark(
    name: "speaker-voice",
    summary: "the speaker's spoken cues on the snd-aloop card, each by its onset and length (VM)",
    run: SpeakerVoiceBenchmark.run, needsHardware: true),
  Benchmark(
    name: "lanes",
    summary: "eight lane buttons pressed at once on gpio-sim: each finish against its edge (VM)",
    run: LanesBenchmark.run, needsHardware: true),
]

func usage(_ benchmarks: [Benchmark]) -> Never {
  var text =
    "usage: wodclock-bench [--seconds N] [--record FILE] <benchmark>... | all\n\nbenchmarks:\n"
  for benchmark in benchmarks { text += "  \(benchmark.name)  \(benchmark.summary)\n" }
  text += "\noptions:\n  --seconds N  measuring window of wakeup (per case), resources and web "
  text += "(default 60), of matrix-wire (per rate, default 120), sync (default 30) and "
  text += "speaker-voice (default 12)\n"
  text += "  --record FILE  speaker-voice writes what it heard to FILE (16-bit mono WAV)\n\n"
  text += "wakeup, resources, ready, web, web-attacks and sync start the wodclockd found next to "
  text += "this program;\n"
  text += "sync also starts Debian's mosquitto on a loopback port.\n"
  text += "build both with `make release`, as they are installed.\n"
  text += "speaker and speaker-voice need the snd-aloop loopback card and are not part of all; "
  text += "`make hil` runs it in its VM.\n"
  text += "lanes needs a gpio-sim chip and is not part of all; `make hil` runs it in its VM.\n"
  writeError(text)
  exit(64)
}

var options = BenchmarkOptions()
var selected: [String] = []
var remaining = Array(CommandLine.arguments.dropFirst())[...]
while let argument = remaining.popFirst() {
  switch argument {
  case "--seconds":
    guard let value = remaining.popFirst(), let seconds = Int(value), seconds > 0 else {
      writeError("wodclock-bench: --seconds needs a positive whole number\n")
      usage(benchmarks)
    }
    options.seconds = seconds
  case "--record":
    guard let path = remaining.popFirst(), !path.isEmpty else {
      writeError("wodclock-bench: --record needs a file name\n")
      usage(benchmarks)
    }
    options.recording = path
  case "--help", "-h":
    usage(benchmarks)
  case "all":
    selected += benchmarks.filter { !$0.needsHardware }.map(\.name)
  default:
    selected.append(argument)
  }
}
if selected.isEmpty { usage(benchmarks) }
for name in selected where !benchmarks.contains(where: { $0.name == name }) {
  writeError("wodclock-bench: unknown benchmark '\(name)'\n")
  usage(benchmarks)
}
Interruption.install()
for name in selected {
  guard let benchmark = benchmarks.first(where: { $0.name == name }) else { continue }
  do {
    try benchmark.run(options)
  } catch let unavailable as BenchmarkUnavailable {
    writeError("wodclock-bench: \(name): \(unavailable)\n")
    exit(69)
  } catch {
    writeError("wodclock-bench: \(name): \(error)\n")
    exit(Interruption.requested ? 130 : 1)
  }
}
