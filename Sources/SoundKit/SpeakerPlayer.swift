// SPDX-License-Identifier: MIT
// What a speaker plays and when, as a value given instants: the decisions of the `speaker`
// output, with no stream, mixer control or child process of its own. The output (the daemon's
// SpeakerOutput) hands it the frames' cues and what it reads of the stream, and carries out
// what it answers against ALSA:
//
// - The cues. A cue is taken from the frame's look ahead, `lookAhead` before it is due, and
//   scheduled at its instant; a later look that no longer sees it (a pause) withdraws it before
//   it sounds. A delivered cue of the kind of a foreseen one within `sameCueWithin` is that
//   cue, played once; a cue nobody foresaw (a lap, a start) plays from the first instant whose
//   samples are not written yet. The newest cue cuts what still plays (SoundSchedule).
// - The stream. It starts `startAhead` before a sound (and the music is lowered then), is fed
//   at `feedInstant`s that walk across the card's period, is measured where it plays
//   (StreamPositionFilter), and is stopped (the music restored) once what was written has
//   played out with no sound within `idleGap`: sounds closer together (a countdown's beeps)
//   share one stream.
// - The bank. Every sound the rules may play, at the stream's rate, with the voice's lines once
//   the synthesizer's answer is in.

import SounderKit
import WorkoutCore

/// A cue and the monotonic instant (nanoseconds) it is due: what a speaker is given.
public struct TimedCue: Hashable, Sendable {
  public var kind: CueKind
  public var due: Int64

  public init(kind: CueKind, due: Int64) {
    self.kind = kind
    self.due = due
  }
}

/// What a speaker plays and when: given the frames' cues, the instants and what the stream
/// says of its position, it answers what to do with the stream and renders the samples.
///
/// Driving it, on each wake-up at `now`:
/// 1. ``take(_:ahead:nextChange:at:)`` (or ``silence(nextChange:at:)``) with a frame's cues;
/// 2. ``pump(at:)``: on `.start`, prepare the stream (and lower the music), then
///    ``started(at:sampleRate:underruns:)``; on `.start` and `.feed`, read the position for
///    ``measured(_:underruns:bufferFrames:at:)``, write what ``mix(into:)`` renders and say so
///    with ``wrote(_:audible:)``, then ``fed(at:periodFrames:)`` says whether to stop the stream
///    or when to feed it again;
/// 3. wake up again at ``nextWakeUp(after:canPlay:)``.
public struct SpeakerPlayer: Sendable {
  /// How far ahead cues are taken: the buffer, the start of a stream and a loop that is late.
  public static let lookAhead: Int64 = 200_000_000
  /// A delivered cue of the kind of a foreseen one, this close to it, is that cue.
  public static let sameCueWithin: Int64 = 500_000_000
  /// A stream starts this long before its first sound plays: time for twenty feeds or so, whose
  /// reads of the position find it to a small part of the card's step before the sound.
  public static let startAhead: Int64 = 100_000_000
  /// A stream whose next sound is further away than this is dropped once it has played out.
  public static let idleGap: Int64 = 1_000_000_000
  /// The stream's position, read again and again, may show the frames counted this far off
  /// before the count is set to it at once (frames lost); below that, the count follows it
  /// while the stream plays silence, so a card's clock running against the system's never
  /// moves a sound that is playing (StreamPositionFilter: the earliest recent read).
  public static let allowedDrift: Int64 = 2_000_000
  /// The count follows the position once it is this far off.
  public static let followedDrift: Int64 = 200_000

  /// What to do with the stream on a wake-up (``pump(at:)``).
  public enum StreamAction: Equatable, Sendable {
    /// Nothing: the stream stays idle.
    case none
    /// Start the stream (and lower the music when `lowerMusic`), then feed it.
    case start(lowerMusic: Bool)
    /// Feed the running stream.
    case feed
  }

  /// What follows a feed (``fed(at:periodFrames:)``).
  public enum AfterFeed: Equatable, Sendable {
    /// What was written has played out and nothing sounds soon: stop the stream (and restore
    /// the music when `restoreMusic`).
    case stop(restoreMusic: Bool)
    /// Feed the stream again at this instant.
    case feed(at: Int64)
  }

  /// A read of the stream's position before a feed.
  public enum PositionRead: Equatable, Sendable {
    /// `free` frames of the buffer were free at `instant`, the card's time stamp of the read.
    case stamped(free: Int, at: Int64)
    /// No time stamp: the next frame written is heard at this instant (the delay, with the
    /// clock read then).
    case nextFrameHeard(at: Int64)
  }

  /// What each cue plays.
  public let rules: SpeakerCueRules
  /// The stream's buffer: an idle stream's first frame is heard about this long after it starts.
  public let bufferTime: Int64
  /// Whether a music control is lowered while a stream runs.
  public let lowersMusic: Bool
  /// The spoken lines of the display language.
  public var lines: SpokenLines
  /// Every sound the rules may play, at the stream's rate.
  public private(set) var bank = SoundBank(sampleRate: 48_000)
  /// What plays when.
  public private(set) var schedule = SoundSchedule()

  /// The owner's WAV files, decoded, by name.
  private var files: [String: PCMClip]
  /// The spoken lines as made, by text, kept for a bank made again at another rate.
  private var voiceClips: [String: PCMClip] = [:]
  /// The lines whose voice is being made, and those whose voice is in the bank (or failed).
  private var makingVoice: SpokenLines?
  private var voiced: SpokenLines?

  /// Cues scheduled from a look ahead, before their instant: played once, and withdrawn when a
  /// later look no longer sees them.
  private var foreseen: Set<TimedCue> = []
  /// When the displays change next, from the last frame: the next cue is looked for before it.
  private var nextChange: Int64?
  /// The movement a rest or a count-in announces, from the last frame.
  private var nextMovement: String?
  /// The next cue that sounds within the idle gap, from the last frame's look ahead: a stream
  /// that has played out stays up for it, so that a run of sounds (a countdown's beeps a second
  /// apart, a tempo set's counts) plays on one stream whose position is long measured, rather
  /// than on a stream started for each sound.
  private var nextSoundingCue: Int64?

  /// The announcements waiting to be voiced and said.
  public private(set) var announcements = AnnouncementQueue()
  /// The part of an announcement under way: its sound, and where the schedule has it.
  private var saying: (sound: SoundID, start: Int64, end: Int64)?

  /// Whether the stream runs.
  public private(set) var isRunning = false
  /// When the running stream is fed next, and how many feeds it has had (the phase of the next).
  private var nextFeed: Int64?
  private var feeds: Int64 = 0
  /// The stream's rate, as it gave it.
  private var sampleRate = 48_000
  private var mixer = SoundMixer(sampleRate: 48_000, origin: 0)
  /// Frames written since the stream started: frame `framesWritten` is the next one.
  public private(set) var framesWritten: Int64 = 0
  /// When the last audible frame written is heard.
  private var audibleUntil: Int64 = .min
  private var underrunsSeen = 0
  /// When the stream last started or ran dry: a position stamped before it is the pointer's
  /// last update of an earlier run (ALSA keeps it until the card moves), not this run's.
  private var measureAfter: Int64 = .min
  /// The stream's recent position reads, against the frames counted.
  private var position = StreamPositionFilter(
    immediate: SpeakerPlayer.allowedDrift, followed: SpeakerPlayer.followedDrift)
  /// Whether the last frames written were silence: the count may be moved then.
  private var writingSilence = true

  /// A player of `rules` speaking `lines`, with the owner's WAV `files`, for a stream whose
  /// buffer is `bufferTime` long; `lowersMusic` when a music control is ducked. Its bank is
  /// made when the stream's rate is known (``makeBank(sampleRate:)``).
  public init(
    rules: SpeakerCueRules, lines: SpokenLines, files: [String: PCMClip] = [:],
    bufferTime: Int64, lowersMusic: Bool = false
  ) {
    self.rules = rules
    self.lines = lines
    self.files = files
    self.bufferTime = bufferTime
    self.lowersMusic = lowersMusic
  }

  // MARK: - Cues

  /// Takes a frame's cues at `now`: those `delivered` since the last frame, and those `ahead`,
  /// due after `now` up to `now + idleGap` if nobody presses anything. Cues foreseen before
  /// their instant are scheduled then, and those delivered that nobody foresaw from the first
  /// instant still unwritten. When the look ahead changed (a press took cues back, or added
  /// some), what is not written yet is scheduled again; what is written is heard as it is.
  /// `nextChange`: when the displays change next, before which the next cue is looked for.
  /// `nextMovement`: the movement of the workout's next work step (the snapshot's), which a
  /// rest or a count-in starting now or soon announces.
  public mutating func take(
    _ delivered: [TimedCue], ahead: [TimedCue], nextChange: Int64?, nextMovement: String? = nil,
    at now: Int64
  ) {
    self.nextChange = nextChange
    self.nextMovement = nextMovement
    let soon = ahead.filter { $0.due > now && $0.due <= now + Self.idleGap }
    nextSoundingCue = soon.first { rules.rule(for: $0.kind) != nil }?.due
    schedule(delivered, foreseen: soon.filter { $0.due <= now + Self.lookAhead }, at: now)
  }

  /// Silences everything from `now` on (mute, quiet hours): nothing foreseen is kept, and the
  /// announcements waiting are dropped (they are not said later).
  public mutating func silence(nextChange: Int64?, at now: Int64) {
    self.nextChange = nextChange
    schedule.cut(from: now)
    foreseen = []
    nextSoundingCue = nil
    announcements.removeAll()
    saying = nil
  }

  /// Forgets every sound and cue (the output starts or stops).
  public mutating func reset() {
    schedule = SoundSchedule()
    foreseen = []
  }

  private mutating func schedule(_ delivered: [TimedCue], foreseen ahead: [TimedCue], at now: Int64)
  {
    // A cue the loop reached late may come stamped with the instant it was announced rather
    // than the one it was foreseen at: the same kind within a moment is the same cue.
    var unforeseen: [TimedCue] = []
    for cue in delivered {
      if let seen = foreseen.first(where: {
        $0.kind == cue.kind && abs($0.due - cue.due) <= Self.sameCueWithin
      }) {
        foreseen.remove(seen)
      } else {
        unforeseen.append(cue)
      }
    }
    let scheduledBefore = foreseen
    foreseen = foreseen.filter { $0.due > now }
    let upcoming = Set(ahead)
    guard !unforeseen.isEmpty || upcoming != foreseen else { return }
    let earliest = earliestUnwritten(at: now)
    schedule.withdraw(cuesAfter: earliest)
    for cue in unforeseen.sorted(by: { $0.due < $1.due }) {
      // A cue late by more than a moment (a stalled machine) plays whole from now.
      let start = BuzzerSchedule.start(ofCueAt: cue.due, seenAt: now)
      play(cue, at: max(start, earliest))
    }
    for cue in ahead.sorted(by: { $0.due < $1.due }) {
      if cue.due > earliest {
        play(cue, at: cue.due)
      } else if !scheduledBefore.contains(cue) {
        // Seen too late to be written ahead (the stream was idle): as soon as it can be.
        play(cue, at: earliest)
      }
    }
    foreseen = upcoming
  }

  private mutating func play(_ cue: TimedCue, at instant: Int64) {
    let parts = rules.parts(
      for: cue.kind, seed: cue.due, lines: lines, bank: bank, nextMovement: nextMovement)
    guard !parts.isEmpty else { return }
    schedule.play(
      parts, at: instant, priority: SpeakerCueRules.priority(of: cue.kind), bank: bank)
  }

  /// The first instant whose samples are not written yet: a sound placed before it would lose
  /// its start.
  public func earliestUnwritten(at now: Int64) -> Int64 {
    isRunning ? mixer.instant(ofFrame: framesWritten) : now + bufferTime
  }

  // MARK: - The stream

  /// What to do with the stream at `now`: start it shortly before a sound, or feed it while it
  /// runs. Forgets the sounds long over.
  public mutating func pump(at now: Int64) -> StreamAction {
    followAnnouncements(at: now)
    schedule.discard(before: now - Self.idleGap)
    if isRunning { return .feed }
    guard let next = schedule.nextSound(from: now), next - now <= Self.startAhead else {
      return .none
    }
    return .start(lowerMusic: lowersMusic)
  }

  /// The stream started at `now` at `sampleRate`, having run dry `underruns` times before: its
  /// first frame is heard at `now` (the first write, a full buffer, starts it at once).
  public mutating func started(at now: Int64, sampleRate: Int, underruns: Int) {
    isRunning = true
    framesWritten = 0
    underrunsSeen = underruns
    measureAfter = now
    position.reset()
    writingSilence = true
    self.sampleRate = sampleRate
    mixer = SoundMixer(sampleRate: sampleRate, origin: now)
  }

  /// Whether the stream has been written to: before, it has no position to read (ALSA refuses
  /// to stamp a stream not started), and the feed takes its free frames only.
  public var readsPosition: Bool { framesWritten > 0 }

  /// Takes a read of the stream's position made at `now` (nil: none), with the count of times
  /// it ran dry so far, and keeps the frames counted on it: taken whole after the stream's
  /// start or an underrun, otherwise by the earliest of the recent reads. A stamp from before
  /// the stream started or last ran dry is the position of an earlier run, and not taken.
  public mutating func measured(
    _ read: PositionRead?, underruns: Int, bufferFrames: Int, at now: Int64
  ) {
    if underruns != underrunsSeen {
      underrunsSeen = underruns
      measureAfter = now
      position.reset()
    }
    guard framesWritten > 0, let read else { return }
    let heard: Int64
    switch read {
    case .stamped(let free, let stamp):
      guard stamp > measureAfter else { return }
      let queued = Int64(max(0, bufferFrames - free))
      heard = stamp + queued * 1_000_000_000 / Int64(max(1, sampleRate))
    case .nextFrameHeard(let instant):
      heard = instant
    }
    let error = heard - mixer.instant(ofFrame: framesWritten)
    let correction = position.correction(adding: error, whileSilent: writingSilence)
    if correction != 0 {
      mixer = SoundMixer(sampleRate: mixer.sampleRate, origin: mixer.origin + correction)
    }
  }

  /// Renders the frames from ``framesWritten`` on into `buffer`, each for the instant it will
  /// be heard; returns whether any sound is in them. Allocates nothing.
  public func mix(into buffer: UnsafeMutableBufferPointer<Int16>) -> Bool {
    mixer.render(into: buffer, firstFrame: framesWritten, schedule: schedule, bank: bank).audible
  }

  /// `frames` of what ``mix(into:)`` rendered were written; `audible` as it said.
  public mutating func wrote(_ frames: Int, audible: Bool) {
    guard frames > 0 else { return }
    framesWritten += Int64(frames)
    if audible { audibleUntil = mixer.instant(ofFrame: framesWritten) }
    writingSilence = !audible
  }

  /// A feed ended at `now`: the stream is stopped once it has played out with nothing to play
  /// soon (scheduled, or foreseen within the idle gap), and otherwise fed again at the next
  /// ``feedInstant(after:period:feed:)`` of its period of `periodFrames`.
  public mutating func fed(at now: Int64, periodFrames: Int) -> AfterFeed {
    let written = mixer.instant(ofFrame: framesWritten)
    var next = schedule.nextSound(from: written)
    if let cue = nextSoundingCue { next = min(next ?? cue, cue) }
    if audibleUntil <= now && (next.map { $0 - written > Self.idleGap } ?? true) {
      stopped()
      return .stop(restoreMusic: lowersMusic)
    }
    let period = Int64(periodFrames) * 1_000_000_000 / Int64(max(1, sampleRate))
    let feed = Self.feedInstant(after: now, period: period, feed: feeds)
    nextFeed = feed
    feeds &+= 1
    return .feed(at: feed)
  }

  /// The stream is no longer running: stopped, or lost (a card pulled).
  public mutating func stopped() {
    isRunning = false
    nextFeed = nil
  }

  /// When to wake up next after `now`: to look for the next cue before it is due, to start the
  /// stream before a sound (when there is a stream to play on, `canPlay`), or to feed it.
  public func nextWakeUp(after now: Int64, canPlay: Bool) -> Int64? {
    var wake: Int64?
    func add(_ instant: Int64) { wake = min(wake ?? instant, instant) }
    if let nextChange, nextChange - Self.lookAhead > now { add(nextChange - Self.lookAhead) }
    if canPlay, !isRunning, let next = schedule.nextSound(from: now) {
      add(max(now + 1, next - Self.startAhead))
    } else if isRunning, let nextFeed {
      add(max(now + 1, nextFeed))
    }
    // An announcement waits for room between the cues, or for its part to be said: looked
    // at again a little later.
    if canPlay, announcements.nextPart != nil {
      add(now + Self.announcementPoll)
    }
    return wake
  }

  /// When feed number `feed` comes, the last one having been at `now`: at a phase of the period
  /// taken from a Weyl sequence (the golden ratio's fraction, 40 503 / 65 536, added each feed),
  /// counted from the monotonic clock's zero (the card's steps are unknown, so any fixed grid
  /// will do), so that however long the card's steps are, after n feeds no part of a step
  /// longer than about 1/n of a period went unread; and between a quarter of a period and one
  /// and a quarter after the last, so that a buffer of a few periods never runs low.
  ///
  /// The stream is fed on the loop's timer rather than when the card says it has room: a read
  /// made just after the card moved its position is the true one, and the card's own wake-ups
  /// (its period interrupt, snd-aloop's timer) come at the same moment of its step every time,
  /// late by whatever held them up; the feeds' instants walk across the card's period instead.
  public static func feedInstant(after now: Int64, period: Int64, feed: Int64) -> Int64 {
    let period = max(4, min(period, 1_000_000_000))
    let phase = period * ((feed &* 40_503) & 0xFFFF) / 65_536
    let earliest = now &+ period / 4
    let intoPeriod = (earliest % period + period) % period
    let next = earliest - intoPeriod + phase
    return next < earliest ? next + period : next
  }

  // MARK: - Announcements

  /// How long before and after a part of an announcement no other sound may be: a cue is
  /// never masked, and the words are not lost under a beep.
  public static let announcementMargin: Int64 = 250_000_000
  /// How often a waiting announcement looks for room between the cues.
  public static let announcementPoll: Int64 = 100_000_000

  /// Adds an announcement to say once its voice is made (``announcementTextsToVoice``) and
  /// there is room between the cues. Returns the text of the oldest one dropped to make room
  /// (see ``AnnouncementQueue/capacity``), if one was.
  @discardableResult
  public mutating func announce(_ text: String) -> String? {
    announcements.add(text)
  }

  /// The texts whose voice is to be made for the announcements now, or nil.
  public var announcementTextsToVoice: [String]? { announcements.textsToVoice }

  /// The voice of ``announcementTextsToVoice`` is being made.
  public mutating func announcementVoiceStarted() {
    announcements.voiceStarted()
  }

  /// The voice being made for the announcements is in (nil: it failed). Returns the
  /// announcements dropped for want of it.
  @discardableResult
  public mutating func announcementVoiceFinished(_ spoken: [String: PCMClip]?) -> [String] {
    announcements.voiceFinished(spoken)
  }

  /// Forgets the announcements (the output stops).
  public mutating func forgetAnnouncements() {
    announcements.removeAll()
    saying = nil
  }

  /// Follows the part of an announcement being said (said whole, or cut by a cue and to be
  /// said again), and begins the next part at the first unwritten instant when there is room:
  /// no sound from ``announcementMargin`` before it to as long after its end, and no cue
  /// foreseen in that time.
  private mutating func followAnnouncements(at now: Int64) {
    let earliest = earliestUnwritten(at: now)
    if let part = saying {
      let entry = schedule.entries.first { $0.sound == part.sound && $0.start == part.start }
      let cutShort = entry.map { $0.cut != nil } ?? (part.end > earliest)
      if cutShort {
        saying = nil
        announcements.partInterrupted()
      } else if part.end <= earliest {
        saying = nil
        announcements.partSaid()
      } else {
        return
      }
    }
    guard let clip = announcements.nextPart else { return }
    let quietFrom = earliest - Self.announcementMargin
    let quietUntil = earliest + clip.duration + Self.announcementMargin
    guard schedule.entries.allSatisfy({ $0.silentFrom <= quietFrom || $0.gain == 0 }) else {
      return
    }
    if let cue = nextSoundingCue, cue > now, cue <= quietUntil { return }
    guard let sound = bank.add(clip, as: .announcement) else { return }
    // The previous part's entry is written whole: its clip is replaced now.
    schedule.forget(sound: sound)
    schedule.playBetweenCues(
      SoundSchedule.Part(sound: sound, channel: .voice), at: earliest, bank: bank)
    guard let entry = schedule.entries.first(where: { $0.sound == sound }) else { return }
    saying = (sound, entry.start, entry.end)
  }

  // MARK: - The bank

  /// Whether the bank must be made (again) for a stream at `sampleRate`: none yet, or at
  /// another rate.
  public func needsBank(sampleRate: Int) -> Bool {
    bank.sampleRate != sampleRate || bank.clips.isEmpty
  }

  /// Makes the bank again (another rate, other files, another language's voice). The schedule
  /// names sounds by their place in the bank, so it starts afresh: the next frame schedules
  /// what is foreseen again.
  public mutating func makeBank(sampleRate: Int) {
    bank = Self.bank(rules: rules, files: files, sampleRate: sampleRate)
    addVoice(to: &bank)
    reset()
  }

  /// Takes the owner's WAV files read again; the bank is made again when one of them changed.
  /// Returns whether one did.
  public mutating func replaceFiles(_ decoded: [String: PCMClip]) -> Bool {
    guard decoded != files else { return false }
    files = decoded
    if !bank.clips.isEmpty { makeBank(sampleRate: bank.sampleRate) }
    return true
  }

  /// Every sound `rules` and `files` may play, at `sampleRate` (voices aside).
  public static func bank(rules: SpeakerCueRules, files: [String: PCMClip], sampleRate: Int)
    -> SoundBank
  {
    var bank = SoundBank(sampleRate: sampleRate)
    for key in rules.soundKeys.sorted(by: { "\($0)" < "\($1)" }) {
      switch key {
      case .generated(let sound):
        _ = bank.add(sound.clip(sampleRate: sampleRate), as: key)
      case .file(let name):
        if let clip = files[name] { _ = bank.add(clip, as: key) }
      case .beeps(let pattern):
        _ = bank.add(SoundSynthesis.beeps(pattern, sampleRate: sampleRate), as: key)
      case .voice, .announcement:
        break
      }
    }
    return bank
  }

  private func addVoice(to bank: inout SoundBank) {
    for text in voiceClips.keys.sorted() {
      if let clip = voiceClips[text] { _ = bank.add(clip, as: .voice(text)) }
    }
  }

  // MARK: - The voice

  /// The lines whose voice is to be made now: the current ones, when their voice is neither in
  /// the bank (nor failed) nor being made.
  public var linesToVoice: SpokenLines? {
    lines != voiced && lines != makingVoice ? lines : nil
  }

  /// The voice of the current lines is being made.
  public mutating func voiceStarted() {
    makingVoice = lines
  }

  /// The voice of the current lines cannot be made (no synthesizer could start): the cues play
  /// their sounds.
  public mutating func voiceUnavailable() {
    makingVoice = nil
    voiced = lines
  }

  /// The voice being made is given up (the output stops).
  public mutating func voiceCancelled() {
    makingVoice = nil
  }

  /// The synthesizer answered for the lines being made: each text's sound (they join the
  /// bank), or nil when it failed (the cues play their sounds).
  public mutating func voiceFinished(_ spoken: [String: PCMClip]?) {
    voiced = makingVoice
    makingVoice = nil
    guard let spoken else { return }
    let hadVoice = !voiceClips.isEmpty
    voiceClips = spoken
    if hadVoice {
      makeBank(sampleRate: bank.sampleRate)
    } else {
      addVoice(to: &bank)
    }
  }
}
