// SPDX-License-Identifier: MIT
// `wodclock-bench speaker`: the real wodclockd's speaker output on the snd-aloop loopback card
// (the VM of `make hil`), recorded back from the card's capture side. Each onset is matched with
// the instant the daemon says its cue was due (the subscribe stream's `due_ms`, CLOCK_MONOTONIC
// like the recording's timestamps, on the same machine), beside the floor: a bare C loop
// playing clicks at absolute deadlines on the same device (Tests/hil/alsa-click-floor.c).
//
// The workout runs at --speed 4 so that over 100 cues fit in half a minute: the engine runs
// faster, but a cue's instant is real time and the sound plays at its own length, so what is
// heard is what a real-time workout gives, only closer together (250 ms apart). Each cue plays
// the 40 ms tick, its onset clean.
//
// On the way it checks what a gym would notice, as PASS and FAIL lines (a FAIL exits 1): every
// cue heard (the lateness, against the goal of 30 ms, is a figure); a pause 100 ms before a cue (foreseen, already scheduled) silences
// it; the music's volume control (softvol's `Master` on the card) is lowered while the stream
// plays and restored after; the card unplugged mid-workout and plugged back is said once each
// way in the log, and the cues are heard again.

import Glibc
import HardwareKit
import JSONKit
import SoundKit
import WodclockDaemon
import WodclockTestSupport

enum SpeakerBenchmark {
  static let playbackDevice = "hw:Loopback,0,0"
  static let captureDevice = "hw:Loopback,1,0"
  static let card = "hw:Loopback"
  static let sampleRate = SpeakerOutput.sampleRate
  static let speed = 4
  /// The goal: every cue heard within 30 ms of its instant (docs/benchmarks.md). It is a
  /// figure (`LABEL.within_target`, beside p50, p99 and max), not a PASS or FAIL: under
  /// emulation on a busy machine the lateness says more of the emulator than of a Pi.
  static let target: Int64 = 30_000_000
  /// How far from its cue an onset may be and still be that cue's: under half the 250 ms
  /// between cues, so that no sound is taken for a neighbour's and a cue not played is missed.
  static let matchWindow: Int64 = 100_000_000
  /// The cues that play the tick; the others are silent.
  static let soundingCues: Set<String> = ["segment_start", "countdown", "finish"]

  static let configuration = """
    # wodclock-bench speaker: short intervals, a tick per cue on the loopback card.
    ---
    defaults:
      preset: drill
    presets:
      drill:
        mode: intervals
        work: 4s
        rest: 4s
        rounds: 14
        count_in: 4s
    outputs:
      - type: speaker
        device: \(playbackDevice)
        voice: false
        cues:
          segment_start: [tick]
          countdown: [tick]
          finish: [tick]
        volumes:
          segment_start: 100%
          countdown: 100%
          finish: 100%
        duck:
          control: Master
          by: 60%
    """

  static func run(_ options: BenchmarkOptions) throws {
    let cards = (try? FileSystem.readTextFile("/proc/asound/cards")) ?? ""
    guard has(cards, "Loopback") else {
      throw BenchmarkUnavailable(
        "speaker needs the snd-aloop loopback card (modprobe snd-aloop), which plays in real "
          + "time and records back; `make hil` runs it in its VM (Tests/hil/run.sh sound)")
    }
    try Interruption.check()
    var checks = Checks()

    // The volume control the daemon ducks, made before the daemon starts, as a gym's music
    // player would have made it.
    try LoopbackVolumeControl.define(card: card)
    try LoopbackVolumeControl.create(sampleRate: sampleRate)

    // Twice: as the installed service runs it (the unit's real-time policy, the floor under
    // the same), then as a plain process beside the bench (both under the normal policy).
    // The second run also unplugs the card.
    let service = SchedulingPolicy.firstInFirstOut(priority: WakeupBenchmark.servicePriority)
    for (label, policy) in [("speaker", service), ("speaker.normal_policy", .normal)] {
      try Interruption.check()
      try timingRun(label: label, policy: policy, replugAfter: policy == .normal, checks: &checks)
    }
    if checks.failures > 0 {
      throw BenchmarkError("\(checks.failures) speaker check(s) failed")
    }
  }

  /// The floor, then the daemon's timing run under `policy` (figures as `label.…`), with a
  /// pause, the ducking and, with `replugAfter`, the card unplugged and plugged back.
  static func timingRun(
    label: String, policy: SchedulingPolicy, replugAfter: Bool, checks: inout Checks
  ) throws {
    print("\(label).policy \(policy)")
    // The floor first, while nothing else plays on the card.
    if let floor = try runFloor(policy: policy) {
      report("\(label).floor_p50", floor.p50, "ms", decimals: 2)
      report("\(label).floor_p99", floor.p99, "ms", decimals: 2)
      report("\(label).floor_max", floor.max, "ms", decimals: 2)
    } else {
      print("\(label).floor unavailable (alsa-click-floor not found or failed)")
    }
    // The mixer is closed before the card is unplugged: an open handle keeps the module in.
    let mixer = try ALSAMixer.open(card: card)
    var mixerOpen = true
    defer { if mixerOpen { mixer.close() } }
    let master = try mixer.control(named: "Master")
    let musicLevel = try master.volume()

    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    let daemon = try DaemonUnderTest(
      configuration: configuration, in: scratch, speed: speed, keepsLog: true)
    defer { daemon.stop() }
    if policy != .normal {
      do {
        try policy.apply(threadID: daemon.process.processID)
      } catch {
        print("\(label): the daemon keeps the normal policy: \(error) (run as root)")
      }
    }
    var events = try subscribe(daemon)

    // The timing run, with a pause 100 ms before the 60th cue.
    let capture = try openCapture()
    print("speaker.rate \(capture.sampleRate) Hz")
    var recording = LoopbackRecording(sampleRate: capture.sampleRate, reservingSeconds: 40)
    var due: [Int64] = []
    /// The name of each cue of `due`: a cue missed is said by name.
    var dueNames: [String] = []
    var pause: (from: Int64, to: Int64)? = nil
    var duckedLevel: Int? = nil
    try daemon.request(#"{"cmd":"start"}"#)
    // The cues of the press itself nobody could foresee: they play as soon as the stream can.
    let startedAt = MonotonicClock.now()
    // Those play within a buffer and a stream's start of the press: the cues are counted from
    // a moment after, and the onsets from a little before it, so that a cue due just after
    // that moment keeps its onset even when it is heard a few milliseconds early.
    let countedFrom = startedAt + 150_000_000
    var finished = false
    let timeout = MonotonicClock.now() + 60_000_000_000
    while !finished && MonotonicClock.now() < timeout {
      try Interruption.check()
      try recording.drain(capture)
      guard let line = try nextEvent(&events) else { continue }
      let event = try JSONValue.parse(line)
      guard let name = event["cue"]?["name"]?.stringValue,
        let milliseconds = event["due_ms"]?.doubleValue
      else { continue }
      let instant = Int64((milliseconds * 1_000).rounded()) * 1_000
      if soundingCues.contains(name), instant > countedFrom, due.last != instant {
        due.append(instant)
        dueNames.append(name)
      }
      if name == "finish" { finished = true }
      if due.count == 20 && duckedLevel == nil {
        try mixer.refresh()
        duckedLevel = try master.volume()
      }
      if due.count == 59 && pause == nil {
        // The next cue is 250 ms after this one: pause 100 ms before it, for a second.
        sleep(until: due[58] + 150_000_000) { try recording.drain(capture) }
        let from = MonotonicClock.now()
        try daemon.request(#"{"cmd":"pause"}"#)
        sleep(until: from + 1_000_000_000) { try recording.drain(capture) }
        let to = MonotonicClock.now()
        try daemon.request(#"{"cmd":"resume"}"#)
        pause = (from, to)
      }
    }
    checks.check(finished, "the workout ran to its finish", "\(due.count) cues heard of")
    // The last tick plays out, then the stream's idle gap passes and the stream stops.
    sleep(until: MonotonicClock.now() + 1_600_000_000) { try recording.drain(capture) }
    try mixer.refresh()
    let restoredLevel = try master.volume()
    capture.close()

    let onsets = recording.onsets(threshold: threshold)
    let onsetOffset = firstLoudSample(of: .tick, at: capture.sampleRate)
    let heard = onsets.map { $0 - onsetOffset }.filter { $0 > countedFrom - 10_000_000 }
    let match = OnsetMatch(due: due, onsets: heard, bound: matchWindow)
    // What the daemon says of the card running dry (an underrun, recovered), said when the
    // stream stops (it has: the idle gap passed). A machine that stalls the daemon's loop
    // longer than the buffer runs the card dry: a cue then is heard late, cut in two or not at
    // all. Such a miss is the machine's, not the player's, and is allowed only across an
    // underrun the card reported, at most one per underrun; with none, every cue is heard.
    let underrunCount = underruns(in: daemon)
    let names = Dictionary(zip(due, dueNames), uniquingKeysWith: { first, _ in first })
    // A cue where the recording lost frames (a capture overrun: this reader was late) was
    // played but cannot be heard back: left out of the count, and said.
    let unheard = match.missed.filter { recording.isLost($0, margin: matchWindow) }
    if !unheard.isEmpty {
      print(
        "\(label).unheard \(unheard.count) cues where the recording lost frames "
          + "(\(capture.overruns) overruns): "
          + unheard.map { "\(milliseconds($0 - startedAt)) ms" }.joined(separator: ", "))
    }
    checks.check(
      match.missed.count - unheard.count <= underrunCount && due.count >= 100,
      "every cue heard, each nearest its own instant, but where the card ran dry "
        + "(\(match.lateness.count) of \(due.count), \(match.missed.count - unheard.count) "
        + "missed across \(underrunCount) underruns, \(unheard.count) unheard in the "
        + "recording's gaps)",
      "missed at \(match.missed.prefix(5).map { milliseconds($0 - startedAt) }) ms, "
        + "strays at \(match.strays.prefix(5).map { milliseconds($0 - startedAt) }) ms "
        + "after the start (a cue every 250 ms, the 60th paused for a second)")
    if !match.missed.isEmpty {
      print(
        "\(label).missed \(match.missed.count) cues across \(underrunCount) underruns: "
          + match.missed.map { "\(names[$0] ?? "cue") at \(milliseconds($0 - startedAt)) ms" }
          .joined(separator: ", "))
    }
    if let pause, due.count >= 59 {
      // A stall of the loop can push the tick before the pause into it, or have the card play
      // stale samples of it: such a sound is a stray of an underrun (counted with the strays
      // below), allowed only across one. With none, the pause is silent. Each is said with how
      // far it is from the instant of the cue the pause silenced.
      let during = heard.filter { $0 > pause.from && $0 < pause.to }
      let silenced = due[58] + 250_000_000
      checks.check(
        during.count <= underrunCount,
        "a pause 100 ms before a cue silences it, but where the card ran dry "
          + "(\(during.count) sounds while paused, \(underrunCount) underruns)",
        "at "
          + during.map { "\(($0 - silenced) / 1_000_000) ms from the silenced cue's instant" }
          .joined(separator: ", "))
      if !during.isEmpty {
        print(
          "\(label).paused_sounds "
            + during.map { "\(($0 - silenced) / 1_000_000) ms from the silenced cue's instant" }
            .joined(separator: ", "))
      }
    }
    // Under emulation the card can run dry inside a tick (an underrun, recovered): its parts
    // are as many onsets, one more per underrun, the later ones within the tick's length after
    // its cue (a loop late again and again runs the card dry each period, 20 ms apart), as the
    // clicks of wodclock-sound-check; a tick a stall delayed past its window is heard away
    // from its cue. Each such onset needs an underrun: no more of them than underruns, and
    // with none, no sound but the cues.
    let tickLength = GeneratedSound.tick.clip(sampleRate: capture.sampleRate).duration
    let splits = match.strays.filter { stray in
      due.contains { stray > $0 && stray - $0 <= tickLength + matchWindow }
    }
    // A tick cut by a gap of the recording is heard in parts too.
    let strays = match.strays.filter { !recording.isLost($0, margin: matchWindow) }
    checks.check(
      strays.count <= underrunCount,
      "no sound but the cues (and the parts of a tick an underrun split or delayed: "
        + "\(strays.count) across \(underrunCount) underruns)",
      "\(strays.count) stray onsets, at "
        + strays.prefix(5).map { stray in
          let near = due.min { abs($0 - stray) < abs($1 - stray) } ?? stray
          return
            "\(milliseconds(stray - startedAt)) ms (\((stray - near) / 1_000_000) ms from a cue)"
        }.joined(separator: ", "))
    report("\(label).split_ticks", Double(splits.count), "ticks", decimals: 0)
    let expectedDuck = musicLevel - (musicLevel - master.range.lowerBound) * 60 / 100
    checks.check(
      duckedLevel.map { abs($0 - expectedDuck) <= 1 } == true && restoredLevel == musicLevel,
      "the music's 'Master' lowered by 60% while cues play and restored after "
        + "(\(musicLevel) -> \(duckedLevel.map(String.init) ?? "?") -> \(restoredLevel))",
      "expected \(expectedDuck) then \(musicLevel)")
    mixer.close()
    mixerOpen = false
    report("\(label).cues", Double(match.lateness.count), "cues", decimals: 0)
    report(
      "\(label).within_target",
      Double(match.lateness.count { $0.magnitude <= target.magnitude }), "cues", decimals: 0)
    report("\(label).median", Double(match.median) / 1e6, "ms", decimals: 2)
    report("\(label).p50", Double(match.distance(percentile: 50)) / 1e6, "ms", decimals: 2)
    report("\(label).p99", Double(match.distance(percentile: 99)) / 1e6, "ms", decimals: 2)
    report("\(label).max", Double(match.distance(percentile: 100)) / 1e6, "ms", decimals: 2)
    // The cause of a split tick, and of a late one.
    report("\(label).underruns", Double(underrunCount), "times", decimals: 0)
    // Which cues were more than 5 ms off, and by how much: ms after the start, then µs.
    let late = zip(due, match.lateness).filter { abs($0.1) > 5_000_000 }
    print(
      "\(label).off_by_over_5ms "
        + late.map { "\(milliseconds($0.0 - startedAt)):\($0.1 / 1000)us" }.joined(separator: " "))

    if replugAfter { try replug(daemon, events: &events, checks: &checks) }
    let stats = try ProcessStats.sample(processID: daemon.process.processID)
    report("\(label).peak_rss", Double(stats.peakResidentBytes) / 1e6, "MB")
    try? events.close()
  }

  // MARK: - Unplugged and plugged back

  /// Starts the workout again, takes the card away mid-workout and brings it back; the log
  /// says so once each way and the cues are heard again.
  static func replug(
    _ daemon: DaemonUnderTest, events: inout UnixClient, checks: inout Checks
  ) throws {
    try daemon.request(#"{"cmd":"load","preset":"drill","replace":true}"#)
    try daemon.request(#"{"cmd":"start"}"#)
    sleep(until: MonotonicClock.now() + 2_000_000_000) {}
    let unplugged = try collect(
      Subprocess.spawn(
        executable: "sound-unplug", standardInput: .nullDevice, standardOutput: .pipe,
        standardError: .pipe))
    checks.check(unplugged.status == 0, "sound-unplug", unplugged.error)
    sleep(until: MonotonicClock.now() + 1_500_000_000) {}
    let plugged = try collect(
      Subprocess.spawn(
        executable: "sound-plug", standardInput: .nullDevice, standardOutput: .pipe,
        standardError: .pipe))
    checks.check(plugged.status == 0, "sound-plug", plugged.error)
    // The daemon retries with a doubling wait from 1 s: back within a few seconds on a Pi; the
    // deadline only stops a hang (an emulated VM on a busy machine is many times slower).
    let deadline = MonotonicClock.now() + 60_000_000_000
    while MonotonicClock.now() < deadline, count(of: "sound device back", in: daemon) == 0 {
      sleep(until: MonotonicClock.now() + 100_000_000) {}
    }
    let capture = try openCapture()
    defer { capture.close() }
    var recording = LoopbackRecording(sampleRate: capture.sampleRate, reservingSeconds: 4)
    let from = MonotonicClock.now() + 200_000_000
    var due: [Int64] = []
    let end = MonotonicClock.now() + 3_000_000_000
    while MonotonicClock.now() < end {
      try recording.drain(capture)
      guard let line = try nextEvent(&events) else { continue }
      let event = try JSONValue.parse(line)
      guard let name = event["cue"]?["name"]?.stringValue, soundingCues.contains(name),
        let milliseconds = event["due_ms"]?.doubleValue
      else { continue }
      let instant = Int64((milliseconds * 1_000).rounded()) * 1_000
      if instant >= from && instant < end - 100_000_000 && due.last != instant {
        due.append(instant)
      }
    }
    let heard = recording.onsets(threshold: threshold).map {
      $0 - firstLoudSample(of: .tick, at: capture.sampleRate)
    }
    let match = OnsetMatch(due: due, onsets: heard, bound: matchWindow)
    // How often the reopened stream ran dry is said when it stops: pause, and let the idle gap
    // pass (a workout already over has nothing to pause: the stream stopped the same way).
    // A cue missed is allowed only across one of those underruns, as in the timing run.
    _ = try? daemon.request(#"{"cmd":"pause"}"#)
    sleep(until: MonotonicClock.now() + 1_600_000_000) {}
    let underrunCount = underruns(in: daemon, after: "sound device back")
    if !match.missed.isEmpty {
      print(
        "speaker.replug.missed \(match.missed.count) cues across \(underrunCount) underruns: at "
          + match.missed.map { "\(milliseconds($0 - from)) ms" }.joined(separator: ", ")
          + " after the listening began")
    }
    report("speaker.replug.underruns", Double(underrunCount), "times", decimals: 0)
    checks.check(
      count(of: "sound device lost", in: daemon) == 1
        && count(of: "sound device back", in: daemon) == 1,
      "unplugged mid-workout and plugged back: 'sound device lost' and 'sound device back' "
        + "logged once each",
      "lost \(count(of: "sound device lost", in: daemon)), "
        + "back \(count(of: "sound device back", in: daemon))")
    checks.check(
      !due.isEmpty && match.missed.count <= underrunCount,
      "the cues are heard again once the card is back, but where the card ran dry "
        + "(\(match.lateness.count) of \(due.count), \(match.missed.count) missed across "
        + "\(underrunCount) underruns)")
  }

  // MARK: - Parts

  /// A recorded sample louder than this is sound (the loopback copies samples exactly).
  static let threshold: Int16 = 2_000

  /// How long after a sound's first sample it first passes the threshold: the onset found is
  /// that much after the instant the sound starts. The loopback card runs at the rate its first
  /// opener asked (the daemon's speaker, which asks for 22050 Hz): the capture side has it too.
  static func firstLoudSample(of sound: GeneratedSound, at rate: Int) -> Int64 {
    let samples = sound.clip(sampleRate: rate).samples
    let index = samples.firstIndex { $0.magnitude > threshold.magnitude } ?? 0
    return Int64(index) * 1_000_000_000 / Int64(rate)
  }

  static func openCapture() throws -> ALSACapture {
    let capture = try ALSACapture.open(device: captureDevice, sampleRate: sampleRate)
    try capture.start()
    return capture
  }

  static func subscribe(_ daemon: DaemonUnderTest) throws -> UnixClient {
    var client = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 5_000)
    try client.send(#"{"cmd":"subscribe"}"# + "\n", timeoutMilliseconds: 5_000)
    guard let reply = try client.readLine(timeoutMilliseconds: 5_000),
      try JSONValue.parse(reply)["ok"] == true
    else {
      throw BenchmarkError("wodclockd did not take the subscription")
    }
    return client
  }

  /// The next event line if one arrives within 5 ms, nil if none does.
  static func nextEvent(_ events: inout UnixClient) throws -> String? {
    do {
      guard let line = try events.readLine(timeoutMilliseconds: 5) else {
        throw BenchmarkError("wodclockd closed the subscription")
      }
      return line
    } catch let error as SystemError where error.errno.rawValue == ETIMEDOUT {
      return nil
    }
  }

  /// The underruns the daemon's log tells of (`sound stream ran dry`, `times=N` per stream);
  /// with `marker`, only those after the last line saying it.
  static func underruns(in daemon: DaemonUnderTest, after marker: String? = nil) -> Int {
    guard let path = daemon.logPath, let log = try? FileSystem.readTextFile(path) else { return 0 }
    var lines = log.split(separator: "\n")[...]
    if let marker, let last = lines.lastIndex(where: { has($0, marker) }) {
      lines = lines[(last + 1)...]
    }
    return lines.filter { has($0, "sound stream ran dry") }.reduce(0) {
      total, line in
      let field = line.split(separator: " ").first { $0.hasPrefix("times=") }
      return total + (field.flatMap { Int($0.dropFirst("times=".count)) } ?? 1)
    }
  }

  static func count(of message: String, in daemon: DaemonUnderTest) -> Int {
    guard let path = daemon.logPath, let log = try? FileSystem.readTextFile(path) else { return 0 }
    return log.split(separator: "\n").count { has($0, message) }
  }

  /// Waits until `instant`, doing `work` every few milliseconds (draining a recording).
  static func sleep(until instant: Int64, _ work: () throws -> Void) {
    while MonotonicClock.now() < instant {
      try? work()
      var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
      nanosleep(&pause, nil)
    }
  }

  /// Whether `part` occurs in `text` (the standard library's String has no substring search).
  static func has(_ text: some StringProtocol, _ part: String) -> Bool {
    let needle = Array(part.utf8)
    let haystack = Array(text.utf8)
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains { start in
      haystack[start..<(start + needle.count)].elementsEqual(needle)
    }
  }

  static func milliseconds(_ instant: Int64) -> String { "\(instant / 1_000_000)" }

  /// The C floor's figures, from its `floor:` line; nil when it is not there or failed.
  static func runFloor(policy: SchedulingPolicy) throws -> (p50: Double, p99: Double, max: Double)?
  {
    guard
      let child = try? Subprocess.spawn(
        executable: "alsa-click-floor", arguments: [playbackDevice, captureDevice, "120", "50"],
        standardInput: .nullDevice, standardOutput: .pipe, standardError: .pipe)
    else { return nil }
    // Its first click is 200 ms after its start: set well before.
    if policy != .normal { try? policy.apply(threadID: child.processID) }
    let result = try collect(child)
    let text = String(decoding: result.output, as: UTF8.self)
    guard result.status == 0,
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("floor:") })
    else { return nil }
    func figure(after word: String) -> Double? {
      let words = line.split(separator: " ")
      guard let index = words.firstIndex(of: Substring(word)), index + 1 < words.count else {
        return nil
      }
      return Double(words[index + 1])
    }
    guard let p50 = figure(after: "p50"), let p99 = figure(after: "p99"),
      let max = figure(after: "max")
    else { return nil }
    return (p50, p99, max)
  }

  /// PASS and FAIL lines, counted.
  struct Checks {
    var failures = 0

    mutating func check(_ condition: Bool, _ what: String, _ detail: String = "") {
      if condition {
        print("PASS: \(what)")
      } else {
        failures += 1
        print("FAIL: \(what)\(detail.isEmpty ? "" : " (\(detail))")")
      }
    }
  }
}

/// A benchmark that cannot run on this machine (exit 69, EX_UNAVAILABLE).
struct BenchmarkUnavailable: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
