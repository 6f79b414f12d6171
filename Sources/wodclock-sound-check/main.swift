// SPDX-License-Identifier: MIT
// Hardware-in-the-loop check of HardwareKit's ALSAPlayback against a sound card that plays in
// real time: the snd-aloop loopback card in the VM of Tests/hil/gpio-sim-vm.sh (--sound).
//
// It plays short clicks, each due at an absolute instant on the monotonic clock, to the
// loopback's playback side from an EventPoller loop (the PCM's poll descriptors, non-blocking
// writes, the timing model of ALSAPlayback.swift), records the capture side through the same
// shim, finds each click's onset in the recording and prints onset minus deadline (p50, p99,
// max). Tests/hil/alsa-click-floor.c does the same in a bare C loop: the floor to compare with.
// The recording and its onsets are WodclockTestSupport's LoopbackRecording, which
// `wodclock-bench speaker` uses too.
//
// With --mixer it checks ALSAMixer on a volume control: the loopback card has none of its
// own, so ALSA's softvol plugin adds one (`Master`, on the card, as it does for a USB card
// without a hardware volume) through a device defined in ~/.asoundrc.
//
// With --replug it then takes the card away (sound-unplug), expects the error to be reported
// once, reopens with backoff until the card is back (sound-plug) and checks that clicks are
// heard again.
//
// Usage: wodclock-sound-check [--playback hw:Loopback,0,0] [--capture hw:Loopback,1,0]
//          [--clicks 120] [--interval-ms 50] [--buffer-ms 20] [--mixer] [--replug]
// Prints PASS or FAIL lines and the figures; exits 1 if a check failed. The checks are that
// every click is found and each within 50 ms of its deadline; the figures are not asserted.

import Glibc
import HardwareKit
import RetryKit
import WodclockTestSupport

// MARK: report

nonisolated(unsafe) var failures = 0

func check(_ condition: Bool, _ what: String, _ detail: @autoclosure () -> String = "") {
  if condition {
    print("PASS: \(what)")
  } else {
    failures += 1
    let extra = detail()
    print("FAIL: \(what)\(extra.isEmpty ? "" : " (\(extra))")")
  }
}

func milliseconds(_ nanoseconds: Int64) -> String {
  let hundredths = (nanoseconds.magnitude + 5_000) / 10_000
  let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
  return nanoseconds < 0 && hundredths > 0 ? "-\(text)" : text
}

// MARK: arguments

struct Options: Sendable {
  var playbackDevice = "hw:Loopback,0,0"
  var captureDevice = "hw:Loopback,1,0"
  var clickCount = 120
  var intervalMilliseconds = 50
  var bufferMilliseconds = 20
  var replug = false
  var mixer = false
}

func parseOptions() -> Options {
  var options = Options()
  var arguments = CommandLine.arguments.dropFirst()
  while let argument = arguments.popFirst() {
    switch argument {
    case "--replug": options.replug = true
    case "--mixer": options.mixer = true
    case "--playback", "--capture", "--clicks", "--interval-ms", "--buffer-ms":
      guard let value = arguments.popFirst() else {
        print("wodclock-sound-check: \(argument) needs a value")
        exit(64)
      }
      switch argument {
      case "--playback": options.playbackDevice = value
      case "--capture": options.captureDevice = value
      default:
        guard let number = Int(value), (1...10_000).contains(number) else {
          print("wodclock-sound-check: \(argument) takes a number from 1 to 10000, not '\(value)'")
          exit(64)
        }
        if argument == "--clicks" { options.clickCount = number }
        if argument == "--interval-ms" { options.intervalMilliseconds = number }
        if argument == "--buffer-ms" { options.bufferMilliseconds = number }
      }
    default:
      print("wodclock-sound-check: unknown argument '\(argument)'")
      exit(64)
    }
  }
  return options
}

let options = parseOptions()
let playbackDevice = options.playbackDevice
let captureDevice = options.captureDevice
let clickCount = options.clickCount
let intervalMilliseconds = options.intervalMilliseconds
let bufferMilliseconds = options.bufferMilliseconds
let replug = options.replug

// MARK: the session

let sampleRate = 48_000
/// A click: 2 ms of a 4 kHz square wave, starting at full height so its first sample is its
/// onset.
let click: [Int16] = (0..<96).map { ($0 / 6) % 2 == 0 ? 12_000 : -12_000 }
/// A recorded sample louder than this is sound (the loopback copies samples exactly).
let threshold: Int16 = 2_000

struct Streams {
  var playback: ALSAPlayback
  var capture: ALSACapture
}

enum SessionEnd {
  case done
  /// A stream failed (the device went away); the error as reported.
  case unplugged(ALSAError)
  /// The loop itself failed.
  case failed(String)
}

struct SessionResult {
  var deadlines: [Int64] = []
  var onsets: [Int64] = []
  var underruns = 0
  var overruns = 0
  /// Clicks the writer reached more than the match window after their deadline (the machine
  /// stalled, and the card underran): not played late, left out and said.
  var skipped: [Int] = []
  var end = SessionEnd.done
  /// Seconds of sound written to the card and recorded back: which side stopped, when clicks
  /// go missing.
  var playedSeconds = 0.0
  var recordedSeconds = 0.0
  /// The spans the recording lost to capture overruns (the reader was late, the card dropped
  /// what it had recorded): a click there was played but cannot be heard back.
  var lost: [(from: Int64, to: Int64)] = []

  /// Whether a click due at `deadline`, or a sound at that instant, falls in or at the edge of
  /// a span the recording lost.
  func isLost(_ instant: Int64) -> Bool {
    lost.contains { instant >= $0.from - matchWindow && instant <= $0.to + matchWindow }
  }
}

let playbackToken: UInt64 = 1
let captureToken: UInt64 = 2

func openStreams() throws(ALSAError) -> Streams {
  let playback = try ALSAPlayback.open(
    device: playbackDevice, sampleRate: sampleRate,
    bufferTime: Int64(bufferMilliseconds) * 1_000_000)
  do {
    let capture = try ALSACapture.open(
      device: captureDevice, sampleRate: playback.sampleRate, channels: playback.channels)
    return Streams(playback: playback, capture: capture)
  } catch {
    playback.close()
    throw error
  }
}

/// Plays `count` clicks `interval` apart from `firstDeadline` on, recording all the while;
/// `during` is called on every turn with the instant (to unplug the card mid-play).
func session(
  _ streams: Streams, poller: EventPoller, count: Int, firstDeadline: Int64, interval: Int64,
  during: (Int64) -> Void = { _ in }
) -> SessionResult {
  var result = SessionResult()
  result.deadlines = (0..<count).map { firstDeadline + Int64($0) * interval }
  let rate = Int64(streams.playback.sampleRate)
  let end = result.deadlines.last! + 300_000_000
  // Room for 20 s at most up front: a session waiting for an unplug is long but ends early.
  var recording = LoopbackRecording(
    sampleRate: Int(rate),
    reservingSeconds: min(Int((end - MonotonicClock.now()) / 1_000_000_000) + 1, 20))
  var written: Int64 = 0
  var nextClick = 0
  var clickStart: Int64? = nil
  var chunk = [Int16](repeating: 0, count: streams.playback.bufferFrames)
  var events: [EventPoller.Event] = []

  func fill() throws(ALSAError) {
    let free = min(try streams.playback.writableFrames(), chunk.count)
    guard free > 0 else { return }
    let delay = try streams.playback.delayFrames()
    // The timing model: the next frame written is heard at now + delay / rate.
    let heardAt = streams.playback.instantOfNextFrame(
      now: MonotonicClock.now(), delayFrames: delay)
    let chunkEnd = heardAt + Int64(free) * 1_000_000_000 / rate
    while nextClick < count, result.deadlines[nextClick] < chunkEnd, clickStart == nil {
      if result.deadlines[nextClick] < heardAt - matchWindow {
        result.skipped.append(nextClick)
        nextClick += 1
        continue
      }
      let offset = (result.deadlines[nextClick] - heardAt) * rate / 1_000_000_000
      clickStart = written + max(offset, 0)
      nextClick += 1
    }
    for index in 0..<free {
      let frame = written + Int64(index)
      var sample: Int16 = 0
      if let start = clickStart, frame >= start {
        let position = Int(frame - start)
        if position < click.count { sample = click[position] }
      }
      chunk[index] = sample
    }
    let taken = try chunk.withUnsafeBufferPointer { buffer throws(ALSAError) -> Int in
      try streams.playback.write(UnsafeBufferPointer(rebasing: buffer.prefix(free)))
    }
    written += Int64(taken)
    if let start = clickStart, written >= start + Int64(click.count) { clickStart = nil }
  }

  func drain() throws(ALSAError) { try recording.drain(streams.capture) }

  do {
    try streams.capture.start()
    try fill()
    while true {
      let now = MonotonicClock.now()
      if now >= end { break }
      during(now)
      try poller.wait(timeoutMilliseconds: 50, into: &events)
      var playbackReported: [(descriptor: FileDescriptor, event: EventPoller.Event)] = []
      var captureReported: [(descriptor: FileDescriptor, event: EventPoller.Event)] = []
      for event in events {
        let index = Int(event.token >> 8)
        if event.token & 0xff == playbackToken {
          playbackReported.append((streams.playback.pollDescriptors[index].fileDescriptor, event))
        } else {
          captureReported.append((streams.capture.pollDescriptors[index].fileDescriptor, event))
        }
      }
      if !playbackReported.isEmpty {
        let ready = try streams.playback.readiness(playbackReported)
        if !ready.isDisjoint(with: [.writable, .error, .hangup]) { try fill() }
      }
      if !captureReported.isEmpty {
        let ready = try streams.capture.readiness(captureReported)
        if !ready.isDisjoint(with: [.readable, .error, .hangup]) { try drain() }
      }
    }
    try drain()
  } catch let error as ALSAError {
    result.end = .unplugged(error)
  } catch {
    result.end = .failed("\(error)")
  }
  result.underruns = streams.playback.underruns
  result.overruns = streams.capture.overruns
  result.playedSeconds = Double(written) / Double(rate)
  result.recordedSeconds = Double(recording.samples.count) / Double(rate)
  // Onsets: a loud sample after at least 5 ms of quiet.
  result.onsets = recording.onsets(threshold: threshold)
  result.lost = recording.gaps
  return result
}

func register(_ streams: Streams, with poller: EventPoller) throws(SystemError) {
  for (index, descriptor) in streams.playback.pollDescriptors.enumerated() {
    try poller.register(
      descriptor.fileDescriptor, token: UInt64(index) << 8 | playbackToken,
      interest: descriptor.interest)
  }
  for (index, descriptor) in streams.capture.pollDescriptors.enumerated() {
    try poller.register(
      descriptor.fileDescriptor, token: UInt64(index) << 8 | captureToken,
      interest: descriptor.interest)
  }
}

func close(_ streams: Streams, from poller: EventPoller) {
  for descriptor in streams.playback.pollDescriptors + streams.capture.pollDescriptors {
    try? poller.unregister(descriptor.fileDescriptor)
  }
  streams.playback.close()
  streams.capture.close()
}

/// How far from its deadline an onset is taken for that click.
let matchWindow: Int64 = 50_000_000

/// Onset minus deadline for each click, matched in order; nil when a click was not found.
func lateness(_ result: SessionResult, what: String) -> [Int64]? {
  // A click the writer could only have played too late to be found is left out, and that
  // only where the card reported an underrun: the emulated machine stalled, the player did not
  // lose it.
  check(
    result.skipped.isEmpty || result.underruns > 0,
    "\(what): a click is left out only across a reported underrun",
    "\(result.skipped.count) clicks left out, \(result.underruns) underruns")
  let skipped = Set(result.skipped)
  let deadlines = result.deadlines.indices.filter { !skipped.contains($0) }.map {
    result.deadlines[$0]
  }
  if !skipped.isEmpty {
    print("\(what): \(skipped.count) clicks left out, reached more than 50 ms after their deadline")
  }
  // Sounds before a click's window are strays; the first in it is the click.
  let match = OnsetMatch(due: deadlines, onsets: result.onsets, bound: matchWindow)
  let matched = match.lateness
  // A click in a span the recording lost (a capture overrun) was played, not heard back: left
  // out of the count, and said.
  let unheard = match.missed.filter(result.isLost)
  if !unheard.isEmpty {
    print(
      "\(what): \(unheard.count) clicks fell where the recording lost frames "
        + "(\(result.overruns) overruns): "
        + unheard.map { "\(milliseconds($0 - (result.deadlines.first ?? 0))) ms" }
        .joined(separator: ", "))
  }
  check(
    matched.count + unheard.count == deadlines.count,
    "\(what): every click found within 50 ms of its deadline (but where the recording lost frames)",
    "\(matched.count) of \(deadlines.count) found, \(result.onsets.count) onsets heard, "
      + "the last \(milliseconds((result.onsets.last ?? 0) - (result.deadlines.first ?? 0))) ms "
      + "after the first deadline; \(milliseconds(Int64(result.playedSeconds * 1e9))) ms played, "
      + "\(milliseconds(Int64(result.recordedSeconds * 1e9))) ms recorded, \(result.underruns) underruns, "
      + "\(result.overruns) overruns")
  // An underrun in the middle of a click splits it in two. Where the other sounds are is
  // said: which one a busy machine makes is read from it.
  if !match.strays.isEmpty {
    print(
      "\(what): \(match.strays.count) onsets no click's: "
        + match.strays.prefix(10).map { stray in
          let previous = result.onsets.last { $0 < stray } ?? stray
          return "\(milliseconds(stray - (result.deadlines.first ?? 0))) ms after the first "
            + "deadline (\(milliseconds(stray - previous)) ms after the onset before)"
        }.joined(separator: ", "))
  }
  // A click cut by a span the recording lost is heard as two.
  let cut = match.strays.filter(result.isLost).count
  check(
    result.onsets.count <= result.deadlines.count + result.underruns + cut,
    "\(what): no sound but the clicks (and the halves of a click an underrun or the recording's"
      + " gap split)",
    "\(result.onsets.count) onsets for \(result.deadlines.count) clicks, "
      + "\(result.underruns) underruns, \(cut) at the edge of a gap")
  return matched.count + unheard.count == deadlines.count ? matched : nil
}

/// The figures: the signed median (negative is early), then p50, p99 and the largest of the
/// distance from the deadline either way.
func printFigures(_ lateness: [Int64], _ result: SessionResult, _ playback: ALSAPlayback) {
  let signed = lateness.sorted()
  let distances = lateness.map { Int64($0.magnitude) }.sorted()
  func percentile(_ sorted: [Int64], _ p: Int) -> Int64 {
    sorted[min(sorted.count - 1, sorted.count * p / 100)]
  }
  print(
    "figures: onset minus deadline over \(signed.count) clicks: median "
      + "\(milliseconds(percentile(signed, 50))) ms; |onset - deadline| p50 "
      + "\(milliseconds(percentile(distances, 50))) ms, p99 "
      + "\(milliseconds(percentile(distances, 99))) ms, max \(milliseconds(distances.last ?? 0)) ms; "
      + "buffer \(playback.bufferFrames) frames, period \(playback.periodFrames), "
      + "\(playback.sampleRate) Hz, \(playback.channels) channel(s); "
      + "underruns \(result.underruns), overruns \(result.overruns)")
}

// MARK: the mixer

let mixerCard =
  "hw:\(playbackDevice.split(separator: ":").last?.split(separator: ",").first ?? "0")"

/// Defines the softvol device in ~/.asoundrc; before anything opens a sound device, since
/// libasound reads its configuration once.
func writeMixerConfiguration() throws(SystemError) {
  try LoopbackVolumeControl.define(card: mixerCard)
}

/// Lowers and restores a playback volume as ducking does, on a softvol control of the card.
func checkMixer() {
  let card = mixerCard
  do {
    // softvol adds its control when its device is first opened; the control stays with the
    // card after it is closed (while it is open, softvol holds it: EPERM to others).
    try LoopbackVolumeControl.create(sampleRate: sampleRate)
    let mixer = try ALSAMixer.open(card: card)
    defer { mixer.close() }
    check(
      mixer.playbackControlNames().contains("Master"), "mixer: the card lists its controls",
      "\(mixer.playbackControlNames())")
    let master = try mixer.control(named: "Master")
    let before = try master.volume()
    let ducked = master.range.lowerBound + (before - master.range.lowerBound) * 4 / 10
    try master.setVolume(ducked)
    try mixer.refresh()
    let during = try master.volume()
    try master.setVolume(before)
    let after = try master.volume()
    check(
      during == ducked && after == before,
      "mixer: 'Master' lowered by 60% and restored (\(before) -> \(during) -> \(after) of \(master.range))",
      "expected \(ducked) then \(before)")
    do {
      _ = try mixer.control(named: "Music")
      check(false, "mixer: a control the card lacks is an error", "it was found")
    } catch {
      print("      \(error)")
      check(
        error.kind == .noSuchControl && (error.hint ?? "").split(separator: "'").contains("Master"),
        "mixer: a control the card lacks is an error naming those it has")
    }
  } catch {
    check(false, "mixer on \(card)", "\(error)")
  }
}

// MARK: main

func run() -> Int32 {
  let poller: EventPoller
  let streams: Streams
  do {
    if options.mixer { try writeMixerConfiguration() }
    poller = try EventPoller()
    streams = try openStreams()
    try register(streams, with: poller)
  } catch {
    print("FAIL: open \(playbackDevice) and \(captureDevice): \(error)")
    return 1
  }
  print(
    "wodclock-sound-check: \(clickCount) clicks \(intervalMilliseconds) ms apart to "
      + "\(playbackDevice), recorded from \(captureDevice)")
  let interval = Int64(intervalMilliseconds) * 1_000_000
  let first = MonotonicClock.now() + 200_000_000
  let timing = session(
    streams, poller: poller, count: clickCount, firstDeadline: first, interval: interval)
  switch timing.end {
  case .done: break
  case .unplugged(let error): check(false, "timing session", "\(error)")
  case .failed(let error): check(false, "timing session", error)
  }
  if let matched = lateness(timing, what: "timing") {
    printFigures(matched, timing, streams.playback)
  }
  if options.mixer { checkMixer() }
  guard replug else {
    close(streams, from: poller)
    return failures == 0 ? 0 : 1
  }

  // Unplug mid-play: the card goes away 300 ms into a session of clicks, which goes on until
  // playing reports it. sound-unplug cannot finish before that (it waits for the card to be
  // closed), and under emulation on a busy machine it took from under 4 s to more than 15 s
  // to unbind the card, so the session waits for the report itself; its 1,200 clicks (two
  // minutes) only stop a hang.
  var unplugger: Subprocess? = nil
  let unplugAt = MonotonicClock.now() + 300_000_000
  let interrupted = session(
    streams, poller: poller, count: 1_200, firstDeadline: MonotonicClock.now() + 100_000_000,
    interval: 100_000_000
  ) { now in
    if unplugger == nil && now >= unplugAt {
      do {
        unplugger = try Subprocess.spawn(executable: "sound-unplug")
      } catch {
        check(false, "run sound-unplug", "\(error)")
      }
    }
  }
  close(streams, from: poller)
  guard case .unplugged(let gone) = interrupted.end else {
    check(false, "unplugging the card mid-play is reported", "playing went on")
    return 1
  }
  print("      reported: \(gone)")
  check(gone.isUnplugged, "unplugging the card mid-play is reported as gone", "\(gone.kind)")
  do {
    let status = try unplugger?.wait(timeoutMilliseconds: 60_000)
    check(status == .exited(0), "sound-unplug", "\(String(describing: status))")
  } catch {
    check(false, "sound-unplug", "\(error)")
  }

  // Reopen with backoff (100 ms doubling to 1 s); the card comes back after two failures.
  var reopenWaits = RetryBackoff(initial: 100_000_000, maximum: 1_000_000_000)
  var attempts = 0
  var firstFailure: ALSAError? = nil
  var reopened: Streams? = nil
  while reopened == nil && attempts < 20 {
    attempts += 1
    do {
      reopened = try openStreams()
    } catch {
      if firstFailure == nil {
        firstFailure = error
        print("      reopening: \(error) (reported once; retrying with backoff)")
      }
      if attempts == 2 {
        do {
          let status = try Subprocess.spawn(executable: "sound-plug").wait()
          check(status == .exited(0), "sound-plug", "\(status)")
        } catch {
          check(false, "sound-plug", "\(error)")
        }
      }
      let wait = reopenWaits.failed()
      var pause = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
      nanosleep(&pause, nil)
    }
  }
  check(firstFailure != nil, "the card is missing while unplugged")
  guard let reopened else {
    check(false, "the card is opened again once it is back", "\(attempts) attempts")
    return 1
  }
  check(true, "the card is opened again once it is back (attempt \(attempts))")
  do {
    try register(reopened, with: poller)
  } catch {
    check(false, "watch the reopened card", "\(error)")
    return 1
  }
  let resumed = session(
    reopened, poller: poller, count: 10, firstDeadline: MonotonicClock.now() + 200_000_000,
    interval: interval)
  switch resumed.end {
  case .done: break
  case .unplugged(let error): check(false, "playing after replug", "\(error)")
  case .failed(let error): check(false, "playing after replug", error)
  }
  if let matched = lateness(resumed, what: "after replug") {
    printFigures(matched, resumed, reopened.playback)
  }
  close(reopened, from: poller)
  return failures == 0 ? 0 : 1
}

exit(run())
