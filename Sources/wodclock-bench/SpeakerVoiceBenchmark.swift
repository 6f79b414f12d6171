// SPDX-License-Identifier: MIT
// `wodclock-bench speaker-voice`: the real wodclockd's speaker output with its voice (English,
// the seeds' standard cues) playing a Tabata on the snd-aloop loopback card (the VM of
// `make hil`), recorded back from the card's capture side at the rate the daemon asks
// (espeak-ng's 22050 Hz, so nothing is resampled on the way).
//
// Each spoken cue is recognised by its onset and its length: the count-in's "Get ready" and
// the 3-2-1's "Three", "Two", "One" must each be heard nearest the instant the daemon says it
// was due (`due_ms`, within the sound bench's match window; the lateness, against the goal of
// 30 ms, is a figure), each as long as the line the synthesizer
// makes for the same text (`wodclockd --synthesize-voice en`, run here) within 20%. A countdown
// speaks over its beep, so its sound is as long as the longer of the two.
//
// The workout runs in real time: `--seconds N` is how long it is recorded from the start
// (default 12: the count-in and the first work interval's horn); `--record FILE` writes what was
// heard as a 16-bit mono WAV file (scripts/record-tabata.sh: the first minute, for the README).

import DisplayKit
import Glibc
import HardwareKit
import JSONKit
import SoundKit
import WodclockDaemon
import WodclockTestSupport

enum SpeakerVoiceBenchmark {
  static let sampleRate = 22_050
  /// How far a line's heard length may be from the synthesizer's, as a fraction.
  static let lengthTolerance = 0.2
  /// How late the cue of the start press may be heard: it is known only at the press, when the
  /// stream is opened for it (within a buffer of the press on a Pi; under emulation opening
  /// the device takes longer).
  static let pressBound: Int64 = 250_000_000
  /// The loopback copies samples exactly, so silence is zeros: anything above this is sound.
  static let threshold: Int16 = 100
  /// A quieter stretch shorter than this is inside one sound (between the words of a line).
  static let gap: Int64 = 150_000_000

  static let configuration = """
    # wodclock-bench speaker-voice: a Tabata with the standard cues and the English voice.
    ---
    defaults:
      preset: tabata
      count_in: 10s
    presets:
      tabata:
        mode: tabata
    outputs:
      - type: speaker
        device: \(SpeakerBenchmark.playbackDevice)
        voice: true
    """

  /// One heard sound: from its first to its last sample above the threshold.
  struct HeardSound {
    var onset: Int64
    var end: Int64
    var length: Int64 { end - onset }
  }

  /// A cue of the stream that speaks, with the line it speaks.
  struct SpokenCue {
    var due: Int64
    var line: String
    /// The sound that plays with it from its instant (a countdown's beep), if any.
    var sound: GeneratedSound?
  }

  static func run(_ options: BenchmarkOptions) throws {
    let cards = (try? FileSystem.readTextFile("/proc/asound/cards")) ?? ""
    guard SpeakerBenchmark.has(cards, "Loopback") else {
      throw BenchmarkUnavailable(
        "speaker-voice needs the snd-aloop loopback card (modprobe snd-aloop); `make hil` runs "
          + "it in its VM (Tests/hil/run.sh sound)")
    }
    try Interruption.check()
    var checks = SpeakerBenchmark.Checks()
    let seconds = options.window(default: 12)
    let lines = SpokenLines(language: .english)

    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    let daemon = try DaemonUnderTest(configuration: configuration, in: scratch, keepsLog: true)
    defer { daemon.stop() }
    // The voice joins the bank when the synthesizer's child is done: wait for it, as a gym
    // starts its first workout seconds after the clock booted.
    let voiceDeadline = MonotonicClock.now() + 60_000_000_000
    while MonotonicClock.now() < voiceDeadline, voiceReadyLine(in: daemon) == nil {
      SpeakerBenchmark.sleep(until: MonotonicClock.now() + 100_000_000) {}
    }
    let ready = voiceReadyLine(in: daemon)
    checks.check(ready != nil, "the daemon says 'voice ready'", "not within 60 s")
    if let ready { print(ready) }
    var events = try SpeakerBenchmark.subscribe(daemon)

    let capture = try ALSACapture.open(
      device: SpeakerBenchmark.captureDevice, sampleRate: sampleRate)
    try capture.start()
    var recording = LoopbackRecording(sampleRate: sampleRate, reservingSeconds: seconds + 2)
    var spoken: [SpokenCue] = []
    try daemon.request(#"{"cmd":"start"}"#)
    let startedAt = MonotonicClock.now()
    let end = startedAt + Int64(seconds) * 1_000_000_000
    while MonotonicClock.now() < end {
      try Interruption.check()
      try recording.drain(capture)
      guard let line = try SpeakerBenchmark.nextEvent(&events) else { continue }
      let event = try JSONValue.parse(line)
      guard let cue = event["cue"], let milliseconds = event["due_ms"]?.doubleValue else {
        continue
      }
      let due = Int64((milliseconds * 1_000).rounded()) * 1_000
      // Only what is wholly heard before the recording ends.
      guard due < end - 1_000_000_000 else { continue }
      switch (cue["name"]?.stringValue, cue["segment"]?.stringValue) {
      case ("segment_start", "count_in"):
        spoken.append(SpokenCue(due: due, line: lines[.getReady]))
      case ("countdown", _):
        if let left = cue["seconds_left"]?.stringValue.flatMap({ Int($0) }),
          let text = lines.number(left)
        {
          spoken.append(SpokenCue(due: due, line: text, sound: .beep))
        }
      default: break
      }
    }
    SpeakerBenchmark.sleep(until: MonotonicClock.now() + 300_000_000) {
      try recording.drain(capture)
    }
    capture.close()

    if let path = options.recording {
      let start = max(0, Int((startedAt - recording.origin) * Int64(sampleRate) / 1_000_000_000))
      let heard = Array(recording.samples.dropFirst(start).prefix(seconds * sampleRate))
      guard let bytes = WAVFile.encode(PCMClip(sampleRate: sampleRate, samples: heard)) else {
        throw BenchmarkError("the recording is too long for a WAV file")
      }
      try FileSystem.writeFileAtomically(path, bytes)
      print("speaker-voice: wrote \(heard.count) samples at \(sampleRate) Hz to \(path)")
    }

    // The lines' own lengths, made by the same synthesizer the daemon runs.
    let texts = Array(Set(spoken.map(\.line))).sorted()
    let bank = texts.isEmpty ? [:] : try VoiceBenchmark.bank("en", .wodclockd, lines: texts)
    let sounds = heardSounds(in: recording)
    checks.check(
      spoken.contains { $0.line == lines[.getReady] } && spoken.count >= 4,
      "the count-in's voice cues were due (\(spoken.count))")
    var lateness: [Int64] = []
    for cue in spoken {
      guard let pcm = bank[cue.line] else {
        checks.check(false, "'\(cue.line)' synthesized")
        continue
      }
      var expected = Int64(pcm.samples.count) * 1_000_000_000 / Int64(pcm.sampleRate)
      if let sound = cue.sound {
        expected = max(expected, sound.clip(sampleRate: sampleRate).duration)
      }
      // The press's own cue (the count-in's "Get ready") nobody could foresee: it plays as soon
      // as the stream can, so it is held to that, not to the bound of a foreseen cue.
      let pressed = cue.due <= startedAt
      let bound = pressed ? pressBound : SpeakerBenchmark.matchWindow
      let heard = sounds.first { abs($0.onset - cue.due) <= bound }
      guard let heard else {
        let nearest = sounds.min { abs($0.onset - cue.due) < abs($1.onset - cue.due) }
        checks.check(
          false, "'\(cue.line)' heard within \(bound / 1_000_000) ms of its instant",
          "the nearest sound starts "
            + (nearest.map { "\(format(Double($0.onset - cue.due) / 1e6, 2)) ms" } ?? "nowhere")
            + " from it")
        continue
      }
      if !pressed { lateness.append(heard.onset - cue.due) }
      let ratio = Double(heard.length) / Double(expected)
      checks.check(
        abs(ratio - 1) <= lengthTolerance,
        "'\(cue.line)'\(pressed ? " (the press's cue)" : "") at \(format(Double(cue.due - startedAt) / 1e9, 3)) s: onset "
          + "\(format(Double(heard.onset - cue.due) / 1e6, 2)) ms, \(heard.length / 1_000_000) ms "
          + "long, the line \(expected / 1_000_000) ms (\(format((ratio - 1) * 100, 0))%)")
    }
    if !lateness.isEmpty {
      let sorted = lateness.map { Int64($0.magnitude) }.sorted()
      report("speaker_voice.cues", Double(lateness.count), "cues", decimals: 0)
      report("speaker_voice.p50", Double(sorted[sorted.count / 2]) / 1e6, "ms", decimals: 2)
      report("speaker_voice.max", Double(sorted.last ?? 0) / 1e6, "ms", decimals: 2)
    }
    let stats = try ProcessStats.sample(processID: daemon.process.processID)
    report("speaker_voice.peak_rss", Double(stats.peakResidentBytes) / 1e6, "MB")
    try? events.close()
    if checks.failures > 0 {
      throw BenchmarkError("\(checks.failures) speaker-voice check(s) failed")
    }
  }

  /// The daemon's "voice ready" log line, once it is there.
  static func voiceReadyLine(in daemon: DaemonUnderTest) -> String? {
    guard let path = daemon.logPath, let log = try? FileSystem.readTextFile(path) else {
      return nil
    }
    return log.split(separator: "\n").first { SpeakerBenchmark.has($0, "voice ready") }
      .map(String.init)
  }

  /// The sounds of a recording: runs of samples above the threshold, joined across gaps
  /// shorter than ``gap``.
  static func heardSounds(in recording: LoopbackRecording) -> [HeardSound] {
    guard recording.origin != .max else { return [] }
    let gapFrames = Int(gap * Int64(sampleRate) / 1_000_000_000)
    var found: [(first: Int, last: Int)] = []
    for (index, sample) in recording.samples.enumerated()
    where sample.magnitude > threshold.magnitude {
      if let last = found.last?.last, index - last <= gapFrames {
        found[found.count - 1].last = index
      } else {
        found.append((index, index))
      }
    }
    return found.map {
      HeardSound(
        onset: recording.instant(ofSample: $0.first),
        end: recording.instant(ofSample: $0.last + 1))
    }
  }

  static func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return decimals == 0 ? "\(Int(rounded))" : "\(rounded)"
  }
}
