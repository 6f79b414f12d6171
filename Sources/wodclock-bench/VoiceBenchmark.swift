// SPDX-License-Identifier: MIT
// The spoken cues' voice: how long the synthesizer's child takes to make one language's lines,
// how much memory they take in the daemon, the child's own peak, and how much the parent's peak
// grows when it takes a voice in. The child is the wodclockd next to this program.

import Glibc
import HardwareKit
import WodclockDaemon
import WodclockTestSupport

enum VoiceBenchmark {
  /// Sixty lines, as many as a language's table of spoken cues: the numbers a clock counts and
  /// announces, spelled out by espeak-ng in each language ("21" is "twenty-one", "enogtyve").
  static let lines = (1...60).map { "\($0)" }

  static func run(_ options: BenchmarkOptions) throws {
    let synthesizer = VoiceSynthesizer.wodclockd
    // First, while this process has taken no voice in: how far its peak moves for a job's code
    // and a child's start (one line), then for one language's sixty lines.
    let peakAtStart = try ProcessStats.selfPeakRSS()
    _ = try bank("en", synthesizer, lines: ["1"])
    let peakBefore = try ProcessStats.selfPeakRSS()
    let english = try bank("en", synthesizer)
    let peakAfter = try ProcessStats.selfPeakRSS()
    report(
      "voice-parent-peak-rss-growth-first-job", Double(peakBefore - peakAtStart) / 1024, "KiB",
      decimals: 0)
    report(
      "voice-parent-peak-rss-growth-en", Double(peakAfter - peakBefore) / 1024, "KiB", decimals: 0)
    report("voice-bank-en-in-parent", Double(bytes(english)) / 1024, "KiB", decimals: 0)
    for language in VoiceSynthesizer.languages {
      let start = MonotonicClock.now()
      let made = try bank(language, synthesizer)
      let elapsed = MonotonicClock.now() - start
      report("voice-synthesis-\(language)-60-lines", Double(elapsed) / 1e6, "ms")
      report("voice-bank-\(language)", Double(bytes(made)) / 1024, "KiB", decimals: 0)
      let seconds = made.values.reduce(0.0) {
        $0 + Double($1.samples.count) / Double($1.sampleRate)
      }
      report("voice-sound-\(language)", seconds, "s")
      report(
        "voice-child-peak-rss-\(language)", Double(try childPeak(language, synthesizer)) / 1024,
        "MiB")
    }
    // A child spawned with posix_spawn (CLONE_VM) starts in this process's memory, and the
    // kernel counts this process's peak in the child's ru_maxrss: it is below the child's
    // figures when they are the child's own.
    report("voice-bench-own-peak-rss", Double(try ProcessStats.selfPeakRSS()) / 1_048_576, "MiB")
  }

  static func bank(
    _ language: String, _ synthesizer: VoiceSynthesizer, lines: [String] = lines
  ) throws -> [String: SpokenPCM] {
    let job = try synthesizer.start(texts: lines, language: language, at: MonotonicClock.now())
    defer { job.cancel() }
    return try finish(job).outcome.get()
  }

  static func bytes(_ bank: [String: SpokenPCM]) -> Int {
    bank.values.reduce(0) { $0 + 2 * $1.samples.count }
  }

  /// The child's peak resident size in KiB (`ru_maxrss` of wait4(2)), run on its own with the
  /// same lines and its answer thrown away.
  static func childPeak(_ language: String, _ synthesizer: VoiceSynthesizer) throws -> Int {
    // Sixty short lines fit a pipe's buffer: written before the child starts, as the daemon does.
    let pipe = try FileDescriptor.pipe()
    defer { try? pipe.readEnd.close() }
    try pipe.writeEnd.writeAll(Array((lines.joined(separator: "\n") + "\n").utf8))
    try pipe.writeEnd.close()
    let child = try Subprocess.spawn(
      executable: synthesizer.command[0],
      arguments: Array(synthesizer.command.dropFirst()) + [language],
      standardInput: .fileDescriptor(pipe.readEnd), standardOutput: .nullDevice,
      standardError: .inherit)
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(child.processID, &status, 0, &usage) == child.processID, status == 0 else {
      throw BenchmarkFailure(
        description: "the synthesizer for '\(language)' failed (status \(status))")
    }
    return usage.ru_maxrss
  }
}
