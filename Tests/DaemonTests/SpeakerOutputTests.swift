// SPDX-License-Identifier: MIT
// The speaker output in the daemon on manual time, playing into a stand-in for a sound card
// that plays back to back at its rate from its first write: every frame written is heard at
// a known instant, so each sound's onset is compared with its cue's instant exactly. The real
// card (snd-aloop in the VM) is `make hil`'s; this checks the writing ahead, the foreseen cues
// taken back, mute, the stream stopping between sounds and a pulled card, frame by frame.

import Configuration
import DisplayKit
import Glibc
import HardwareKit
import JSONKit
import SoundKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

/// A sound card on the manual clock: a buffer of `bufferFrames`, played from the first write at
/// `sampleRate`; what it played is kept with the instant each frame was heard.
final class ManualSoundCard: SoundStream, @unchecked Sendable {
  let sampleRate = 16_000
  let bufferFrames = 320  // 20 ms
  let periodFrames = 80
  private(set) var underruns = 0
  var pollDescriptors: [ALSAPollDescriptor] { [] }
  private(set) var state = ALSAState.prepared
  private let now: () -> Int64
  /// When the frame now at the head of the queue is heard, while playing.
  private var headInstant: Int64?
  private var queued: [Int16] = []
  /// Every frame heard: its instant and sample.
  private(set) var heard: [(instant: Int64, sample: Int16)] = []
  private(set) var starts = 0
  var unplugged = false
  /// How often the card moves the position it reports (snd-aloop's timer tick, a period);
  /// 0: every frame. Between steps the frames played since are still reported as queued,
  /// and a read is stamped with the time of the read, as the kernel stamps it.
  var positionStep: Int64 = 0
  /// How long before the stream's start the steps' grid begins (snd-aloop counts from the
  /// timer tick before the start): the steps fall at that phase of each period after it.
  var stepPhase: Int64 = 0
  private var startedAt: Int64 = 0
  /// The first time stamp of each run is this much before the run's start: the pointer's
  /// last update of the run before, as ALSA keeps it until the card moves.
  var staleFirstStamp: Int64?
  private var stampedThisRun = false

  init(now: @escaping () -> Int64) { self.now = now }

  private var frameLength: Int64 { 1_000_000_000 / Int64(sampleRate) }

  /// Plays what the time since the last call has played; an empty queue is an underrun.
  private func advance() throws(ALSAError) {
    if unplugged {
      throw ALSAError(.unplugged, "sound device 'test' is gone", code: -19)
    }
    guard state == .running, var head = headInstant else { return }
    let current = now()
    while let first = queued.first, head + frameLength <= current {
      heard.append((head, first))
      queued.removeFirst()
      head += frameLength
    }
    headInstant = head
    if queued.isEmpty && head + frameLength <= current {
      underruns += 1
      state = .prepared
      headInstant = nil
    }
  }

  func writableFrames() throws(ALSAError) -> Int {
    try advance()
    return max(0, bufferFrames - queued.count - unreported())
  }

  func delayFrames() throws(ALSAError) -> Int {
    try advance()
    return queued.count + unreported()
  }

  /// The frames played since the reported position last stepped.
  private func unreported() -> Int {
    guard positionStep > 0, state == .running else { return 0 }
    let current = now()
    let lastStep = current - (current - (startedAt - stepPhase)) % positionStep
    var count = 0
    for frame in heard.reversed() {
      guard frame.instant + frameLength > lastStep else { break }
      count += 1
    }
    return count
  }

  /// The free frames, with the instant they were counted at: now, for this card. As ALSA, it
  /// has no position to stamp before the stream runs.
  func timestampedWritableFrames() throws(ALSAError) -> (frames: Int, instant: Int64) {
    let frames = try writableFrames()
    guard state == .running else {
      throw ALSAError(.system, "htimestamp: the stream is not running", code: -77)
    }
    if let stale = staleFirstStamp, !stampedThisRun {
      stampedThisRun = true
      return (frames, startedAt - stale)
    }
    stampedThisRun = true
    return (frames, now())
  }

  func instantOfNextFrame(now: Int64, delayFrames: Int) -> Int64 {
    now + Int64(delayFrames) * frameLength
  }

  func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Int {
    try advance()
    if state == .setUp { state = .prepared }
    let count = min(samples.count, bufferFrames - queued.count)
    queued += samples.prefix(count)
    if state == .prepared && count > 0 {
      state = .running
      starts += 1
      headInstant = now()
      startedAt = now()
      stampedThisRun = false
    }
    return count
  }

  func stop() throws(ALSAError) {
    try advance()
    queued = []
    headInstant = nil
    state = .setUp
  }

  func prepare() throws(ALSAError) { state = .prepared }
  func close() {}

  /// The card opened again (after it was pulled): a fresh stream, as ALSA gives a new PCM,
  /// with nothing queued from the stream that was playing when it went.
  func reopened() -> ManualSoundCard {
    queued = []
    headInstant = nil
    state = .prepared
    return self
  }

  /// The instants at which sound starts after at least `gap` of silence.
  func onsets(gap: Int64 = 50_000_000, threshold: Int16 = 1) -> [Int64] {
    var onsets: [Int64] = []
    var lastLoud: Int64?
    for frame in heard where abs(Int(frame.sample)) >= Int(threshold) {
      if lastLoud.map({ frame.instant - $0 >= gap }) ?? true { onsets.append(frame.instant) }
      lastLoud = frame.instant
    }
    return onsets
  }
}

/// The card the test's speaker opens, set once the daemon (and its clock) exists.
final class CardSlot: @unchecked Sendable {
  var card: ManualSoundCard!
}

/// The speaker with the card of `slot` and the voice of `synthesizer`, under the name
/// `test-speaker`.
private func speakerKind(
  _ slot: CardSlot, synthesizer: VoiceSynthesizer? = .wodclockd
) -> PluginKind {
  var schema = SpeakerOutput.schema
  schema.kind = "test-speaker"
  return PluginKind(
    schema: schema,
    factory: .output { instance in
      try SpeakerOutput(
        instance: instance,
        openStream: { _, _ throws(ALSAError) in
          guard !slot.card.unplugged else {
            throw ALSAError(.noSuchDevice, "cannot open sound device 'test'", code: -2)
          }
          return slot.card.reopened()
        }, synthesizer: synthesizer)
    })
}

/// A Tabata with a 10 s count-in: 3-2-1 at 7, 8, 9 s, the work's horn at 10 s, ...
private func speakerConfig(_ settings: String = "", voice: Bool = false, top: String = "")
  -> String
{
  """
  \(top)
  defaults:
    preset: tabata
  presets:
    tabata:
      mode: tabata
  outputs:
    - {type: test-speaker, id: pa, voice: \(voice)\(settings)}
  """
}

@Suite struct SpeakerOutputTests {
  /// A daemon on manual time whose speaker plays into a manual card.
  static func speaker(_ config: String, synthesizer: VoiceSynthesizer? = .wodclockd) throws -> (
    InProcessDaemon, ManualSoundCard
  ) {
    let slot = CardSlot()
    let clock = try InProcessDaemon(
      config: config, kinds: [speakerKind(slot, synthesizer: synthesizer)])
    let card = ManualSoundCard(now: { clock.time.monotonic })
    slot.card = card
    return (clock, card)
  }

  static func seconds(_ instant: Int64) -> Double {
    Double(instant - ManualTime.origin) / 1e9
  }

  /// Runs the Tabata's first 32 s on `card` (set up by `prepare`) and expects the count-in's
  /// 3-2-1 beeps, the work's horn at 10 s, its 3-2-1 at 27-29 s and the rest's bell at 30 s,
  /// each first sample heard within `tolerance` seconds of its instant.
  static func expectTabataOnTime(
    within tolerance: Double = 0.000_2, _ prepare: (ManualSoundCard) -> Void = { _ in }
  ) throws -> ManualSoundCard {
    let (clock, card) = try speaker(speakerConfig())
    prepare(card)
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 32)
    let expected: [Double] = [7, 8, 9, 10, 27, 28, 29, 30]
    let onsets = card.onsets().map(seconds)
    #expect(onsets.count == expected.count, "\(onsets)")
    for (onset, instant) in zip(onsets, expected) {
      #expect(abs(onset - instant) < tolerance, "heard at \(onset) s, due at \(instant) s")
    }
    return card
  }

  /// Each first sample heard at its cue's instant (at 16 kHz a frame is 62.5 µs).
  @Test func eachSoundIsHeardAtItsCuesInstantToTheFrame() throws {
    let card = try Self.expectTabataOnTime()
    #expect(card.underruns == 0)
    // The stream runs around the sounds only, and sounds a second apart share one: one for
    // the count-in's 3-2-1 and the horn, one for the work's 3-2-1 and the bell.
    #expect(card.starts == 2)
  }

  /// A card that moves its position in 4 ms steps (snd-aloop's timer at HZ=250) makes most
  /// reads old by up to a step: the sounds are still heard at their instants, not early by the
  /// reads' average age.
  @Test func aCardWhosePositionMovesInStepsIsStillHeardOnTime() throws {
    let card = try Self.expectTabataOnTime(within: 0.000_3) { $0.positionStep = 4_000_000 }
    #expect(card.underruns == 0)
  }

  /// A card that moves its position once a period, a little after the moment a writer woken
  /// every period from the stream's start reads it: every such read is old by nearly a step,
  /// and the sounds would be heard early by that. The feeds walk across the period instead,
  /// so some reads fall just after a step, and the sounds are heard at their instants.
  @Test func readsAtEveryPhaseOfTheCardsStepFindItsTruePosition() throws {
    let card = try Self.expectTabataOnTime(within: 0.000_3) {
      $0.positionStep = Int64($0.periodFrames) * 1_000_000_000 / Int64($0.sampleRate)
      $0.stepPhase = $0.positionStep * 9 / 10
    }
    #expect(card.underruns == 0)
  }

  /// A stream's first time stamp can be its card's last update of the run before (200 ms
  /// old here): a reading stamped before the stream started is not taken, and every sound is
  /// heard at its instant.
  @Test func aTimeStampFromBeforeTheStreamStartedIsNotTaken() throws {
    let card = try Self.expectTabataOnTime { $0.staleFirstStamp = 200_000_000 }
    #expect(card.starts >= 2, "a stale stamp at every start")
  }

  /// A loop stalled longer than the buffer while the horn plays runs the card dry: the
  /// stream recovers, the log says so once for that stream (with how often), and the next cue
  /// is heard on its instant as before.
  @Test func aCardRunDryIsSaidOnceAndTheNextCueIsOnTime() throws {
    let (clock, card) = try Self.speaker(speakerConfig())
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 10.05)
    clock.stall(for: 0.1)
    clock.run(for: 22)
    #expect(card.underruns == 1)
    let said = clock.logLines(containing: "sound stream ran dry")
    #expect(said.count == 1, "\(said)")
    #expect(said.first?.contains("times=1") == true, "\(said)")
    // The work's 3-2-1 at 27, 28 and 29 s and the rest's bell at 30 s, to the frame.
    let later = card.onsets().map(Self.seconds).filter { $0 > 11 }
    #expect(later.count == 4, "\(later)")
    for (onset, instant) in zip(later, [27.0, 28, 29, 30]) {
      #expect(abs(onset - instant) < 0.000_2, "heard at \(onset) s, due at \(instant) s")
    }
  }

  @Test func aPauseJustBeforeACueTakesItsForeseenSoundBack() throws {
    let (clock, card) = try Self.speaker(speakerConfig())
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    // 8.9 s: the beep of 9 s is foreseen and written ahead; the pause takes it back.
    clock.run(for: 8.9)
    _ = try clock.request(#"{"cmd": "pause"}"#)
    clock.run(for: 3)
    let onsets = card.onsets().map(Self.seconds)
    #expect(onsets.count == 2, "\(onsets)")
    #expect(onsets.allSatisfy { $0 < 8.5 })
    // Resumed, the count-in's last second and the horn come at their new instants.
    _ = try clock.request(#"{"cmd": "resume"}"#)
    let resumed = Self.seconds(clock.time.monotonic)
    clock.run(for: 2)
    let after = card.onsets().map(Self.seconds).filter { $0 > resumed }
    #expect(after.count == 2, "\(after)")
    if after.count == 2 {
      #expect(abs(after[0] - (resumed + 0.1)) < 0.001)
      #expect(abs(after[1] - (resumed + 1.1)) < 0.001)
    }
  }

  @Test func muteSilencesAndALapNobodyForesawPlaysAtOnce() throws {
    let (clock, card) = try Self.speaker(speakerConfig(", cues: {lap: [beep]}"))
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    _ = try clock.request(#"{"cmd": "mute"}"#)
    clock.run(for: 12)
    #expect(card.onsets().isEmpty)
    _ = try clock.request(#"{"cmd": "mute"}"#)
    clock.run(for: 2.5)
    let pressed = clock.time.monotonic
    _ = try clock.request(#"{"cmd": "lap"}"#)
    clock.run(for: 1)
    // Heard as soon as the stream could take it: the start-up of a stopped stream (a buffer).
    let onsets = card.onsets().filter { $0 >= pressed }
    #expect(onsets.count == 1)
    if let onset = onsets.first { #expect(onset - pressed <= 25_000_000) }
  }

  /// The voice is made by the real synthesizer child (the built wodclockd), read without
  /// waiting, and then speaks: the count-in's "Mach dich bereit" at the start, which has no
  /// other sound.
  @Test func theVoiceIsMadeOffTheLoopAndThenSpeaks() throws {
    let (clock, card) = try Self.speaker(speakerConfig(voice: true, top: "language: de"))
    clock.start()
    // The child works in real time, the loop takes its answer at each frame, and the job's
    // deadline (30 s) is on the manual clock: a quarter second of it per 50 ms of real time
    // gives the child 6 s on a busy machine.
    for _ in 0..<120 where clock.logLines(containing: "voice").isEmpty {
      clock.run(for: 0.25)
      usleep(50_000)
    }
    let ready = try #require(
      clock.logLines(containing: "voice ready").first,
      "\(clock.logLines(containing: "voice"))")
    #expect(ready.contains("language=de"))
    let pressed = clock.time.monotonic
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 3)
    // Spoken at once (within a buffer of the press, nobody foresaw it) and for a while: a
    // line, not a beep.
    let spoken = card.heard.filter { $0.instant >= pressed && $0.sample != 0 }
    let first = try #require(spoken.first).instant
    #expect(first - pressed <= 25_000_000)
    let last = try #require(spoken.last).instant
    #expect(last - first > 300_000_000, "a spoken line lasts longer than a beep")
  }

  /// A stand-in synthesizer (the shell) that answers every line with half a second of a steady
  /// level at 22050 Hz, as the real child's answer is framed.
  static let standInSynthesizer = VoiceSynthesizer(command: [
    "/bin/sh", "-c",
    #"""
    printf 'WCV1\042\126\0\0'
    while IFS= read -r line; do
      printf '\021\053\0\0'; head -c 22050 /dev/zero | tr '\0' '\020'
    done
    """#,
    "synthesizer",
  ])

  /// The stand-in's answer is taken in as the loop runs, and its lines are spoken from then on:
  /// the count-in's line, half a second of the stand-in's sound, at the start.
  @Test func theSynthesizersAnswerIsSpokenOnceItIsIn() throws {
    let (clock, card) = try Self.speaker(
      speakerConfig(voice: true, top: "language: de"), synthesizer: Self.standInSynthesizer)
    clock.start()
    for _ in 0..<200 where clock.logLines(containing: "voice").isEmpty {
      clock.run(for: 0.1)
      usleep(10_000)
    }
    let ready = try #require(
      clock.logLines(containing: "voice ready").first, "\(clock.logLines(containing: "voice"))")
    #expect(ready.contains("language=de"))
    let pressed = clock.time.monotonic
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 2)
    let spoken = card.heard.filter { $0.instant >= pressed && $0.sample != 0 }
    let first = try #require(spoken.first).instant
    let last = try #require(spoken.last).instant
    #expect(first - pressed <= 25_000_000, "nobody foresaw it: within a buffer of the press")
    #expect(abs(Double(last - first) / 1e9 - 0.5) < 0.01, "the stand-in's half second")
  }

  /// A workout with a whiteboard: its movements' announcements ("Rest. Next: 10 burpees") are
  /// voiced with the other lines once it is loaded.
  @Test func theMovementsOfAWhiteboardAreVoicedWithTheLines() throws {
    let config = speakerConfig(voice: true).replacing(
      "    mode: tabata\n", with: "    mode: tabata\n    whiteboard: [10 burpees, 5 pull-ups]\n")
    let (clock, _) = try Self.speaker(config, synthesizer: Self.standInSynthesizer)
    clock.start()
    for _ in 0..<200 where clock.logLines(containing: "voice ready").isEmpty {
      clock.run(for: 0.1)
      usleep(10_000)
    }
    #expect(try clock.status()["whiteboard"] == ["10 burpees", "5 pull-ups"])
    let ready = try #require(clock.logLines(containing: "voice ready").last)
    let plain = SpokenLines(language: .english).allTexts.count
    #expect(ready.contains("lines=\(plain + 4)"), "\(ready)")
  }

  @Test func aPulledCardIsSaidOnceAndFoundAgain() throws {
    let (clock, card) = try Self.speaker(speakerConfig())
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 7.5)
    card.unplugged = true
    clock.run(for: 5)
    #expect(clock.logLines(containing: "sound device lost").count == 1)
    card.unplugged = false
    let back = clock.time.monotonic
    clock.run(for: 20)
    #expect(clock.logLines(containing: "sound device back").count == 1)
    // The work's 3-2-1 at 27-29 s plays on the card found again.
    let later = card.onsets().filter { $0 > back }.map(Self.seconds)
    #expect(later.contains { abs($0 - 27) < 0.001 }, "\(later)")
  }

  /// An owner who replaces the air horn's WAV file and reloads hears the new one, although the
  /// speaker's entry did not change (so the output is not made again).
  @Test func aReplacedWAVFileIsHeardAfterAReload() throws {
    let sounds = try ScratchDirectory(prefix: "wodclock-sounds-")
    defer { sounds.remove() }
    let horn = sounds.file("airhorn.wav")
    try FileSystem.writeFileAtomically(horn, Self.wav(amplitude: 3_000))
    let (clock, card) = try Self.speaker(
      speakerConfig(", sounds: {airhorn: \(horn)}, cues: {countdown: [airhorn]}"))
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 7.5)
    try FileSystem.writeFileAtomically(horn, Self.wav(amplitude: 6_000))
    clock.signal(.hangup)
    #expect(clock.logLines(containing: "output re-read its files").count == 1)
    clock.run(for: 1)
    func loudest(from start: Double) -> Int {
      card.heard.filter { (start..<start + 0.3).contains(Self.seconds($0.instant)) }
        .map { abs(Int($0.sample)) }.max() ?? 0
    }
    let before = loudest(from: 7)
    let after = loudest(from: 8)
    #expect(before > 0)
    #expect(abs(after - 2 * before) <= before / 20, "before \(before), after \(after)")
    // Read again unchanged, nothing is made again.
    clock.signal(.hangup)
    #expect(clock.logLines(containing: "output re-read its files").count == 1)
  }

  /// A 16-bit mono WAV file of 0.2 s at 16 kHz holding `amplitude` throughout.
  static func wav(amplitude: Int16) -> [UInt8] {
    func le(_ value: UInt32, _ bytes: Int) -> [UInt8] {
      (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
    let samples = [Int16](repeating: amplitude, count: 3_200)
    let data = samples.flatMap { le(UInt32(UInt16(bitPattern: $0)), 2) }
    let format = le(1, 2) + le(1, 2) + le(16_000, 4) + le(32_000, 4) + le(2, 2) + le(16, 2)
    let body =
      Array("WAVE".utf8) + Array("fmt ".utf8) + le(16, 4) + format + Array("data".utf8)
      + le(UInt32(data.count), 4) + data
    return Array("RIFF".utf8) + le(UInt32(body.count), 4) + body
  }

  /// Ducking opens the mixer of the card the device plays on: a card named by its id
  /// (`hw:Loopback,0,0`, as `aplay -l` shows it) is that card, not a device name the mixer
  /// refuses (which left ducking off).
  @Test func theMixerOfADeviceIsItsCardsByNumberOrName() {
    #expect(SpeakerOutput.card(of: "hw:1,0") == "hw:1")
    #expect(SpeakerOutput.card(of: "hw:Loopback,0,0") == "hw:Loopback")
    #expect(SpeakerOutput.card(of: "plughw:Device") == "hw:Device")
    #expect(SpeakerOutput.card(of: "plughw:CARD=Device,DEV=0") == "hw:CARD=Device")
    #expect(SpeakerOutput.card(of: "default") == "default")
  }
}
