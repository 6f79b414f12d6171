// SPDX-License-Identifier: MIT
// The speaker's decisions on manual time, without ALSA and without a voice child: the player
// driven as SpeakerOutput drives it from the daemon's loop, into an ideal card that plays each
// frame written back to back from the stream's start, so that every frame's instant is known.

import DisplayKit
import SoundKit
import SounderKit
import Testing
import WodclockTestSupport
import WorkoutCore

/// A speaker's player driven on manual time: a frame of cues at every wake-up (the cues due
/// since the last one, and the look ahead of the cues to come), then the stream pumped as the
/// player says, into a card that plays from the stream's start at its rate.
struct SpeakerRun {
  static let sampleRate = 16_000
  static let bufferFrames = 320  // 20 ms
  static let periodFrames = 80
  static let bufferTime: Int64 = 20_000_000

  var player: SpeakerPlayer
  /// The instant now.
  private(set) var now: Int64
  /// The cues to come if nobody presses anything: a test changes them as a press would.
  var plan: [TimedCue]
  /// The workout's next movement, as the frames' snapshots say it.
  var nextMovement: String?
  /// Cues nobody foresaw, delivered at the next wake-up (a lap, a start).
  private var pressed: [TimedCue] = []
  /// The plan's cues are delivered up to this instant.
  private var deliveredUntil: Int64
  /// Frames written to the running stream, and when its frame 0 was heard.
  private var written: Int64 = 0
  private var startedAt: Int64 = 0
  /// Every frame the card played: when and its sample.
  private(set) var heard: [(instant: Int64, sample: Int16)] = []
  /// What the player had the shell do with the stream and the music, and when.
  private(set) var actions: [(instant: Int64, action: String)] = []
  private var buffer = [Int16](repeating: 0, count: SpeakerRun.bufferFrames)

  init(
    rules: SpeakerCueRules = .standard, lines: SpokenLines = SpokenLines(language: .english),
    lowersMusic: Bool = false, plan: [TimedCue] = [], at start: Int64 = origin
  ) {
    player = SpeakerPlayer(
      rules: rules, lines: lines, bufferTime: Self.bufferTime, lowersMusic: lowersMusic)
    player.makeBank(sampleRate: Self.sampleRate)
    now = start
    deliveredUntil = start
    self.plan = plan
  }

  /// `seconds` after the origin.
  static func instant(_ seconds: Double) -> Int64 { origin + Int64((seconds * 1e9).rounded()) }

  static func seconds(_ instant: Int64) -> Double { Double(instant - origin) / 1e9 }

  /// A cue nobody foresaw, due now: delivered at the next wake-up.
  mutating func press(_ kind: CueKind) {
    pressed.append(TimedCue(kind: kind, due: now))
  }

  /// Runs the loop until `end` (seconds after the origin): at each wake-up a frame, then the
  /// stream; the next wake-up is the player's, or the next cue of the plan.
  mutating func run(until end: Double) {
    let end = Self.instant(end)
    while now < end {
      wake()
      let nextCue = plan.first { $0.due > now }?.due
      var next = player.nextWakeUp(after: now, canPlay: true) ?? end
      if let nextCue { next = min(next, nextCue) }
      if !pressed.isEmpty { next = now + 1 }
      now = max(now + 1, min(next, end))
    }
    wake()
  }

  private mutating func wake() {
    let delivered = plan.filter { $0.due > deliveredUntil && $0.due <= now } + pressed
    pressed = []
    deliveredUntil = now
    let ahead = plan.filter { $0.due > now && $0.due <= now + SpeakerPlayer.idleGap }
    player.take(
      delivered, ahead: ahead, nextChange: plan.first { $0.due > now }?.due,
      nextMovement: nextMovement, at: now)
    pump()
  }

  /// What SpeakerOutput's pump does, against the ideal card.
  private mutating func pump() {
    switch player.pump(at: now) {
    case .none: return
    case .start(let lowerMusic):
      actions.append((now, "start"))
      if lowerMusic { actions.append((now, "lower")) }
      written = 0
      startedAt = now
      player.started(at: now, sampleRate: Self.sampleRate, underruns: 0)
    case .feed: break
    }
    let played = min(written, (now - startedAt) * Int64(Self.sampleRate) / 1_000_000_000)
    let free = Self.bufferFrames - Int(written - played)
    let read: SpeakerPlayer.PositionRead? =
      player.readsPosition ? .stamped(free: free, at: now) : nil
    player.measured(read, underruns: 0, bufferFrames: Self.bufferFrames, at: now)
    if free > 0 {
      let audible = buffer.withUnsafeMutableBufferPointer {
        player.mix(into: UnsafeMutableBufferPointer(rebasing: $0[0..<free]))
      }
      for (index, sample) in buffer[0..<free].enumerated() {
        let frame = written + Int64(index)
        heard.append((startedAt + frame * 1_000_000_000 / Int64(Self.sampleRate), sample))
      }
      written += Int64(free)
      player.wrote(free, audible: audible)
    }
    if case .stop(let restoreMusic) = player.fed(at: now, periodFrames: Self.periodFrames) {
      actions.append((now, "stop"))
      if restoreMusic { actions.append((now, "restore")) }
    }
  }

  /// The instants at which sound starts after at least `gap` of silence.
  func onsets(gap: Int64 = 50_000_000) -> [Int64] {
    var onsets: [Int64] = []
    var lastLoud: Int64?
    for frame in heard where frame.sample != 0 {
      if lastLoud.map({ frame.instant - $0 >= gap }) ?? true { onsets.append(frame.instant) }
      lastLoud = frame.instant
    }
    return onsets
  }

  /// The instants at which the player had the shell `action` ("start", "stop", ...).
  func instants(of action: String) -> [Int64] {
    actions.filter { $0.action == action }.map(\.instant)
  }

  /// The number of frames with sound in them.
  var loudFrames: Int { heard.filter { $0.sample != 0 }.count }
}

@Suite struct SpeakerPlayerTests {
  static func countdown(_ secondsLeft: Int, at seconds: Double) -> TimedCue {
    TimedCue(
      kind: .countdown(secondsLeft: secondsLeft, ending: .countIn), due: SpeakerRun.instant(seconds)
    )
  }

  static func horn(at seconds: Double) -> TimedCue {
    TimedCue(kind: .segmentStart(.work), due: SpeakerRun.instant(seconds))
  }

  /// A beep's frames with sound in them, at the test's rate.
  static let beepFrames = GeneratedSound.beep.clip(sampleRate: SpeakerRun.sampleRate).samples
    .filter { $0 != 0 }.count

  /// Heard within a frame and a half (the first read of the position is taken whole).
  static func expectOnTime(
    _ heard: Int64, _ due: Int64, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      abs(heard - due) <= 100_000,
      "heard at \(SpeakerRun.seconds(heard)) s, due at \(SpeakerRun.seconds(due)) s",
      sourceLocation: sourceLocation)
  }

  @Test func aForeseenCueIsWrittenAheadAndPlaysOnce() {
    let cue = Self.countdown(3, at: 2)
    var run = SpeakerRun(plan: [cue])
    run.run(until: 3)
    let onsets = run.onsets()
    #expect(onsets.count == 1, "\(onsets.map(SpeakerRun.seconds))")
    if let onset = onsets.first { Self.expectOnTime(onset, cue.due) }
    // Delivered at its instant, the cue is the one foreseen: the beep plays whole, once.
    #expect(run.loudFrames == Self.beepFrames)
  }

  @Test func aPauseWithdrawsForeseenCuesBeforeTheySound() {
    var run = SpeakerRun(plan: [Self.countdown(2, at: 2), Self.countdown(1, at: 3)])
    // 1.95 s: the beep of 2 s is foreseen and scheduled, its stream started; the pause (the
    // plan of cues to come is empty) takes it back before its first sample is written.
    run.run(until: 1.95)
    #expect(run.instants(of: "start").count == 1, "the stream started ahead")
    run.plan = []
    run.run(until: 4)
    #expect(run.onsets().isEmpty, "\(run.onsets().map(SpeakerRun.seconds))")
    #expect(run.player.schedule.entries.isEmpty)
  }

  @Test func aLapNobodyForesawPlaysFromTheFirstUnwrittenInstant() {
    let rules = SpeakerCueRules.standard(overriding: [
      "lap": SpeakerCueRule(sounds: [.generated(.beep)])
    ])
    var run = SpeakerRun(rules: rules)
    run.run(until: 1)
    // The stream is idle: the lap is heard once a stream started now has its buffer written.
    let pressed = run.now
    run.press(.lap(1))
    run.run(until: 1.5)
    let onsets = run.onsets()
    #expect(onsets.count == 1)
    if let onset = onsets.first { Self.expectOnTime(onset, pressed + SpeakerRun.bufferTime) }
    // With the stream running (its beep still playing out), a second lap is heard from the
    // first frame not written yet: within a buffer of the press, never before it.
    let second = run.now
    run.press(.lap(2))
    run.run(until: 2)
    let later = run.onsets(gap: 1).filter { $0 > second }
    #expect(!later.isEmpty)
    if let onset = later.first {
      #expect(onset > second && onset - second <= SpeakerRun.bufferTime + 1_000_000)
    }
  }

  @Test func theNewestCueCutsThePrevious() {
    let rules = SpeakerCueRules.standard(overriding: [
      "lap": SpeakerCueRule(sounds: [.generated(.beep)])
    ])
    var run = SpeakerRun(rules: rules, plan: [Self.horn(at: 1)])
    // The horn plays 1.2 s from 1 s; a lap at 1.3 s cuts it.
    run.run(until: 1.3)
    run.press(.lap(1))
    run.run(until: 1.31)
    let entries = run.player.schedule.entries
    #expect(entries.count == 2)
    guard entries.count == 2 else { return }
    let (horn, lap) = (entries[0], entries[1])
    #expect(horn.start == SpeakerRun.instant(1))
    #expect(horn.cut == lap.start, "the horn is cut where the lap starts")
    #expect(
      lap.start > SpeakerRun.instant(1.3)
        && lap.start <= SpeakerRun.instant(1.3) + SpeakerRun.bufferTime)
    run.run(until: 3)
    // Nothing of the horn is heard after its fade: only the lap's beep.
    let lapEnd = lap.start + GeneratedSound.beep.clip(sampleRate: SpeakerRun.sampleRate).duration
    let afterCut = run.heard.filter {
      $0.instant >= horn.silentFrom && $0.instant >= lapEnd && $0.sample != 0
    }
    #expect(afterCut.isEmpty, "\(afterCut.count) frames of the horn after its cut")
  }

  @Test func theMusicIsLoweredBeforeTheCueAndRestoredAfter() {
    let cue = Self.horn(at: 2)
    var run = SpeakerRun(lowersMusic: true, plan: [cue])
    run.run(until: 5)
    let lowered = run.instants(of: "lower")
    let restored = run.instants(of: "restore")
    #expect(lowered.count == 1 && restored.count == 1)
    guard let lower = lowered.first, let restore = restored.first else { return }
    let lastSound = run.heard.last { $0.sample != 0 }?.instant ?? 0
    #expect(lower < cue.due && cue.due - lower <= SpeakerPlayer.startAhead)
    #expect(restore > lastSound, "restored once the horn has played out")
    #expect(restore - lastSound < 50_000_000, "and not long after")
    // Without a music control, the stream starts and stops the same, and nothing is lowered.
    var plain = SpeakerRun(plan: [cue])
    plain.run(until: 5)
    #expect(plain.instants(of: "start") == run.instants(of: "start"))
    #expect(plain.instants(of: "lower").isEmpty && plain.instants(of: "restore").isEmpty)
  }

  @Test func aStreamStartsAheadOfItsSoundAndIsDroppedAfterTheIdleGap() {
    let first = Self.countdown(1, at: 2)
    let second = Self.countdown(1, at: 5)
    var run = SpeakerRun(plan: [first, second])
    run.run(until: 6)
    let starts = run.instants(of: "start")
    let stops = run.instants(of: "stop")
    // Two sounds 3 s apart: a stream for each, started `startAhead` before it (to a feed) and
    // dropped once its beep has played out, the next sound being further than the idle gap.
    #expect(starts.count == 2 && stops.count == 2, "\(run.actions)")
    guard starts.count == 2, stops.count == 2 else { return }
    for (start, cue) in zip(starts, [first, second]) {
      #expect(cue.due - start >= SpeakerPlayer.startAhead - SpeakerPlayer.lookAhead / 10)
      #expect(cue.due - start <= SpeakerPlayer.startAhead)
    }
    let beep = GeneratedSound.beep.clip(sampleRate: SpeakerRun.sampleRate).duration
    #expect(stops[0] > first.due + beep && stops[0] < first.due + beep + 50_000_000)
    #expect(stops[0] < starts[1])
    // Between the streams the loop is not woken for the stream: the next wake-up is to look
    // for the next cue.
    #expect(!run.player.isRunning)
  }

  @Test func aCountdownsBeepsShareOneStream() {
    let plan = [
      Self.countdown(3, at: 2), Self.countdown(2, at: 3), Self.countdown(1, at: 4),
      Self.horn(at: 5),
    ]
    var run = SpeakerRun(plan: plan)
    run.run(until: 7)
    #expect(run.instants(of: "start").count == 1, "\(run.actions)")
    #expect(run.instants(of: "stop").count == 1)
    let onsets = run.onsets()
    #expect(onsets.count == 4, "\(onsets.map(SpeakerRun.seconds))")
    for (onset, cue) in zip(onsets, plan) { Self.expectOnTime(onset, cue.due) }
  }

  @Test func theVoicesLinesAreSpokenOnceTheSynthesizersAnswerIsIn() throws {
    var run = SpeakerRun(
      lines: SpokenLines(language: .german),
      plan: [Self.countdown(3, at: 2), Self.countdown(2, at: 4)])
    // The lines to make are the German ones; none is in the bank yet.
    let lines = try #require(run.player.linesToVoice)
    #expect(lines.language == .german)
    run.player.voiceStarted()
    #expect(run.player.linesToVoice == nil, "being made")
    run.run(until: 3)
    // Before the answer, the 3 plays its beep only.
    #expect(!run.player.schedule.entries.contains { $0.channel == .voice })
    // The stand-in synthesizer answers: each line a second of a steady level.
    let spoken = lines.allTexts.reduce(into: [String: PCMClip]()) {
      $0[$1] = PCMClip(sampleRate: 8_000, samples: [Int16](repeating: 5_000, count: 8_000))
    }
    run.player.voiceFinished(spoken)
    #expect(run.player.linesToVoice == nil, "made")
    run.run(until: 4.5)
    let voice = run.player.schedule.entries.filter { $0.channel == .voice }
    #expect(voice.map(\.start) == [SpeakerRun.instant(4)], "the 2 is spoken with its beep")
    let word = try #require(lines.number(2))
    #expect(voice.first?.sound == run.player.bank.id(of: .voice(word)))
    // Heard: the beep and the spoken line together, the line a second long.
    run.run(until: 6)
    let loud = run.heard.filter { $0.instant >= SpeakerRun.instant(4) && $0.sample != 0 }
    let span = (loud.last?.instant ?? 0) - (loud.first?.instant ?? 0)
    #expect(span > 900_000_000, "\(span)")
    // Another language asks for its lines.
    run.player.lines = SpokenLines(language: .french)
    #expect(run.player.linesToVoice?.language == .french)
  }

  @Test func aRestAnnouncesTheNextMovementOnceItsLineIsVoiced() throws {
    var lines = SpokenLines(language: .english)
    lines.movements = ["10 burpees", "15 kettlebell swings"]
    let rests = [2.0, 6.0].map { TimedCue(kind: .segmentStart(.rest), due: SpeakerRun.instant($0)) }
    var run = SpeakerRun(lines: lines, plan: rests)
    run.nextMovement = "15 kettlebell swings"
    // The movements' lines are voiced with the others.
    let toVoice = try #require(run.player.linesToVoice)
    #expect(toVoice.allTexts.contains("Rest. Next: 15 kettlebell swings"))
    #expect(toVoice.allTexts.contains("Get ready. Next: 10 burpees"))
    run.player.voiceStarted()
    // A voice that lacks the announcement (made before the workout loaded): the rest says
    // "Rest".
    func clips(_ texts: [String]) -> [String: PCMClip] {
      texts.reduce(into: [String: PCMClip]()) {
        $0[$1] = PCMClip(sampleRate: 8_000, samples: [Int16](repeating: 5_000, count: 800))
      }
    }
    run.player.voiceFinished(clips(SpokenLines(language: .english).allTexts))
    run.run(until: 2.5)
    let first = run.player.schedule.entries.filter { $0.channel == .voice }
    #expect(first.map(\.sound) == [run.player.bank.id(of: .voice("Rest"))])
    // With it: "Rest. Next: 15 kettlebell swings".
    run.player.voiceStarted()
    run.player.voiceFinished(clips(toVoice.allTexts))
    run.run(until: 6.5)
    let second = run.player.schedule.entries.filter {
      $0.channel == .voice && $0.start >= SpeakerRun.instant(6)
    }
    #expect(
      second.map(\.sound) == [run.player.bank.id(of: .voice("Rest. Next: 15 kettlebell swings"))])
  }

  @Test func aVoiceThatFailsLeavesTheSoundsAndIsNotAskedForAgain() {
    var player = SpeakerPlayer(
      rules: .standard, lines: SpokenLines(language: .english), bufferTime: SpeakerRun.bufferTime)
    player.voiceStarted()
    player.voiceFinished(nil)
    #expect(player.linesToVoice == nil)
    var other = player
    other.voiceUnavailable()
    #expect(other.linesToVoice == nil)
  }

  /// The feeds come between a quarter of a period and one and a quarter apart, and fall on
  /// every part of the period: every twentieth of it within 40 feeds.
  @Test func theFeedsFallOnEveryPhaseOfThePeriod() {
    let period: Int64 = 5_000_000
    var instant: Int64 = 1_234_567
    var twentieths = Set<Int64>()
    for feed in Int64(0)..<40 {
      let next = SpeakerPlayer.feedInstant(after: instant, period: period, feed: feed)
      #expect(next - instant >= period / 4 && next - instant < period * 5 / 4)
      twentieths.insert(next % period * 20 / period)
      instant = next
    }
    #expect(twentieths.count == 20, "\(twentieths.sorted())")
  }

  /// A stamp from before the stream started is an earlier run's position: not taken, and the
  /// sound stays on its instant.
  @Test func aStaleStampIsNotTaken() {
    var player = SpeakerPlayer(
      rules: .standard, lines: SpokenLines(language: .english), bufferTime: SpeakerRun.bufferTime)
    player.makeBank(sampleRate: SpeakerRun.sampleRate)
    let start = SpeakerRun.instant(1)
    player.started(at: start, sampleRate: SpeakerRun.sampleRate, underruns: 0)
    player.wrote(SpeakerRun.bufferFrames, audible: false)
    let before = player.earliestUnwritten(at: start)
    player.measured(
      .stamped(free: 0, at: start - 200_000_000), underruns: 0,
      bufferFrames: SpeakerRun.bufferFrames, at: start + 1_000_000)
    #expect(player.earliestUnwritten(at: start) == before)
    // A read of this run that says the card is 5 ms behind the count moves it (the first one
    // is taken whole).
    player.measured(
      .nextFrameHeard(at: before + 5_000_000), underruns: 0, bufferFrames: SpeakerRun.bufferFrames,
      at: start + 1_000_000)
    #expect(player.earliestUnwritten(at: start) == before + 5_000_000)
  }
}
