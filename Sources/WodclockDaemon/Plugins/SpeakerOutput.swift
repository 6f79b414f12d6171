// SPDX-License-Identifier: MIT
// `speaker` output: the cues as sounds and a voice through an ALSA device (the Pi's jack, an HDMI
// TV, a USB card, an amplifier's input).
//
// What plays is SoundKit's: the rules per cue, the schedule (the newest cue wins, nothing queues
// up late) and the mixer. This file keeps an ALSA stream fed from the daemon's one loop:
//
// - On time. A frame written now is heard `delay` frames later (ALSAPlayback's model), so a
//   sound is written before its instant. The cues come from the frame's look ahead, `lookAhead`
//   before they are due (the output asks to be woken then); a cue nobody could foresee (a lap,
//   a start) plays from the first instant still unwritten. A press that takes foreseen cues
//   back (a pause) withdraws them from the schedule before they sound.
// - Measured where it plays. Each time the stream is fed, the card's position is read and
//   stamped (StreamPositionFilter keeps the earliest recent read). The stream is fed on the
//   loop's timer rather than when the card says it has room: a read made just after the card
//   moved its position is the true one, and the card's own wake-ups (its period interrupt,
//   snd-aloop's timer) come at the same moment of its step every time, late by whatever
//   held them up; the feeds' instants walk across the card's period instead (`feedInstant`).
// - Idle when silent. A running stream wakes the loop about every period, so it runs only
//   from a little before a sound until its buffer has played out, and is dropped between
//   sounds more than a second apart; sounds closer together (a countdown) share one stream.
// - Never blocking, never failing the daemon. The stream is non-blocking and its descriptors are
//   in the loop for its errors (an underrun, a card pulled); a device that is missing at start
//   or pulled later is said once, retried with a growing wait, and said once more when it is
//   back.

import Configuration
import DisplayKit
import HardwareKit
import RetryKit
import SoundKit
import SounderKit
import WorkoutCore

/// What the speaker plays into: an ALSA playback stream, or a test's stand-in.
public protocol SoundStream: AnyObject {
  var sampleRate: Int { get }
  var bufferFrames: Int { get }
  var periodFrames: Int { get }
  var underruns: Int { get }
  var pollDescriptors: [ALSAPollDescriptor] { get }
  var state: ALSAState { get }
  func writableFrames() throws(ALSAError) -> Int
  func delayFrames() throws(ALSAError) -> Int
  func timestampedWritableFrames() throws(ALSAError) -> (frames: Int, instant: Int64)
  func instantOfNextFrame(now: Int64, delayFrames: Int) -> Int64
  func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Int
  func stop() throws(ALSAError)
  func prepare() throws(ALSAError)
  func close()
}

extension ALSAPlayback: SoundStream {}

/// Opens the stream of a device name with a buffer of the given length (nanoseconds).
public typealias SoundStreamOpener = (_ device: String, _ bufferTime: Int64) throws(ALSAError) ->
  any SoundStream

/// A speaker on an ALSA device.
public final class SpeakerOutput: OutputPlugin, FileReloading {
  public let id: String
  public let kind = SpeakerOutput.kindName
  public static let kindName = "speaker"

  let deviceName: String
  let bufferTime: Int64
  let rules: SpeakerCueRules
  let lineOverrides: [LineKey: String]
  let quietHours: QuietHours
  let ducking: Ducking
  let voiceEnabled: Bool
  /// Makes the voice in a child process; nil: the cues play their sounds only.
  private let synthesizer: VoiceSynthesizer?
  /// The owner's WAV files, where they are.
  private let wavFiles: [SoundFile]
  /// The owner's WAV files, decoded, by name.
  private var files: [String: PCMClip]

  /// The rate asked of the device: espeak-ng's, so the voice, the largest part of the bank, is
  /// kept as it was made (1.5 MB for English; resampled to 48 kHz it would be 3.2 MB). Cue
  /// sounds need no more (a horn's partials stay under 5 kHz); a `plughw:` or `default` device
  /// converts, a bare `hw:` one gives its nearest rate, and the bank follows it.
  public static let sampleRate = 22_050
  /// How far ahead cues are taken: the buffer, the start of a stream and a loop that is late.
  static let lookAhead: Int64 = 200_000_000
  /// A delivered cue of the kind of a foreseen one, this close to it, is that cue.
  static let sameCueWithin: Int64 = 500_000_000
  /// A stream starts this long before its first sound plays: time for twenty feeds or so, whose
  /// reads of the position find it to a small part of the card's step before the sound.
  static let startAhead: Int64 = 100_000_000
  /// A stream whose next sound is further away than this is dropped once it has played out.
  static let idleGap: Int64 = 1_000_000_000
  /// The stream's position, read again and again, may show the frames counted this far off
  /// before the count is set to it at once (frames lost); below that, the count follows it
  /// while the stream plays silence, so a card's clock running against the system's never
  /// moves a sound that is playing (SoundKit's StreamPositionFilter: the earliest recent read).
  static let allowedDrift: Int64 = 2_000_000
  /// The count follows the position once it is this far off.
  static let followedDrift: Int64 = 200_000
  /// A device that cannot be opened is tried again after 1 s, the wait doubled on every open
  /// that fails up to 30 s.
  static let reopenBackoff = RetryBackoff(initial: 1_000_000_000, maximum: 30_000_000_000)

  private var context: PluginContext?
  private var clock: (() -> Int64)?

  // What plays.
  private var bank: SoundBank
  private var lines: SpokenLines
  private var schedule = SoundSchedule()
  /// Cues scheduled from a look ahead, before their instant: played once, and withdrawn when a
  /// later look no longer sees them.
  private var foreseen: Set<FrameCue> = []
  /// When the displays change next, from the last frame: the next cue is looked for before it.
  private var nextChange: Int64?
  /// The next cue that sounds within the idle gap, from the last frame's look ahead: a stream
  /// that has played out stays up for it, so that a run of sounds (a countdown's beeps a second
  /// apart, a tempo set's counts) plays on one stream whose position is long measured, rather
  /// than on a stream started for each sound.
  private var nextSoundingCue: Int64?

  // The stream.
  private let openStream: SoundStreamOpener
  private var playback: (any SoundStream)?
  /// Streams given up while the loop watched their descriptors, closed at the next call.
  private var retired: [any SoundStream] = []
  private var running = false
  /// Whether the loop can watch the stream's descriptors for its errors (ALSA's `null` device
  /// hands out /dev/null, which epoll refuses: its errors are found when it is fed).
  private var watchesDescriptors = false
  /// When the running stream is fed next, and how many feeds it has had (the phase of the next).
  private var nextFeed: Int64?
  private var feeds: Int64 = 0
  private var mixer = SoundMixer(sampleRate: 48_000, origin: 0)
  /// Frames written since the stream started: frame `framesWritten` is the next one.
  private var framesWritten: Int64 = 0
  /// When the last audible frame written is heard.
  private var audibleUntil: Int64 = .min
  private var scratch: [Int16] = []
  private var underrunsSeen = 0
  /// When the stream last started or ran dry: a position stamped before it is the pointer's
  /// last update of an earlier run (ALSA keeps it until the card moves), not this run's.
  private var measureAfter: Int64 = .min
  /// The stream's underrun count when it started: how often it ran dry is said when it stops.
  private var underrunsAtStart = 0
  /// The stream's recent position reads, against the frames counted.
  private var position = StreamPositionFilter(
    immediate: SpeakerOutput.allowedDrift, followed: SpeakerOutput.followedDrift)
  /// Whether the last frames written were silence: the count may be moved then.
  private var writingSilence = true

  // Reopening.
  private var retryAt: Int64?
  private var reopenWaits = SpeakerOutput.reopenBackoff
  /// What was said about the device: nothing yet, that it is away, or that it is lost.
  private var away = false

  // The voice.
  private var voiceJob: VoiceSynthesisJob?
  /// Jobs given up while the loop watched their descriptors, cancelled at the next call.
  private var retiredJobs: [VoiceSynthesisJob] = []
  /// The lines the job under way makes, and those whose voice is in the bank (or failed).
  private var makingVoice: SpokenLines?
  private var voiced: SpokenLines?
  /// The spoken lines as made, by text, kept for a bank made again at another rate.
  private var voiceClips: [String: PCMClip] = [:]

  // Ducking.
  /// The music's control, opened with the device: opening a mixer reads the whole card, too
  /// slow to do before each sound.
  private var music: (mixer: ALSAMixer, control: ALSAMixer.Control)?
  /// The music's level while it is lowered.
  private var duckedFrom: Int?
  /// Whether a failure to duck was said (once until ducking works again).
  private var reportedDuckingFailure = false
  /// A control that failed is opened again with the device, or after this long.
  static let mixerRetry: Int64 = 60_000_000_000
  private var nextMixerAttempt: Int64 = .min

  /// Creates the output from its config entry; `openStream` opens the device (tests pass a
  /// stand-in) and `clock` gives the time (without one, the daemon's from the context).
  public init(
    instance: PluginInstance,
    openStream: @escaping SoundStreamOpener = { device, bufferTime throws(ALSAError) in
      try ALSAPlayback.open(
        device: device, sampleRate: SpeakerOutput.sampleRate, bufferTime: bufferTime)
    },
    synthesizer: VoiceSynthesizer? = .wodclockd,
    clock: (() -> Int64)? = nil
  ) throws {
    id = instance.id
    self.openStream = openStream
    self.clock = clock
    let settings = instance.settings
    deviceName = try settings[Self.device]
    bufferTime = try settings[Self.buffer].nanoseconds
    rules = try Self.rules(in: settings)
    var overrides: [LineKey: String] = [:]
    for (key, line) in try settings[Self.lines] {
      if let key = LineKey(rawValue: key) { overrides[key] = line }
    }
    lineOverrides = overrides
    quietHours = QuietHours(try settings[Self.quietHours].compactMap(QuietHours.Window.init))
    ducking = try settings[Self.duck]
    voiceEnabled = try settings[Self.voice]
    self.synthesizer = voiceEnabled ? synthesizer : nil
    wavFiles = try Self.soundFiles(in: settings)
    files = try Self.decode(wavFiles)
    lines = SpokenLines(language: .english).with(overrides: overrides)
    bank = SoundBank(sampleRate: 48_000)
  }

  // MARK: - Plugin

  public func start(_ context: PluginContext) throws {
    self.context = context
    if clock == nil { clock = context.clock.monotonic }
    schedule = SoundSchedule()
    foreseen = []
    reopenWaits.reset()
    away = false
    open(at: now(0))
  }

  public var watchedDescriptors: [WatchedDescriptor] {
    var watched = voiceJob?.descriptors.map { WatchedDescriptor($0) } ?? []
    if running, watchesDescriptors, let playback {
      // No interest: epoll reports an error or a hang-up on any descriptor it watches.
      watched += playback.pollDescriptors.map { WatchedDescriptor($0.fileDescriptor, for: []) }
    }
    return watched
  }

  public func render(_ frame: OutputFrame) throws {
    closeRetired()
    let now = now(frame.monotonicNow)
    if lines.language != frame.words.language {
      lines = SpokenLines(language: frame.words.language).with(overrides: lineOverrides)
    }
    if voiceJob != nil { progressVoice(at: now) }
    if synthesizer != nil, lines != voiced, lines != makingVoice { makeVoice(at: now) }
    if let retryAt, retryAt <= now { open(at: now) }
    nextChange = frame.nextChange
    let minute = frame.civilTime.hour * 60 + frame.civilTime.minute
    if frame.muted || quietHours.contains(minuteOfDay: minute) {
      schedule.cut(from: now)
      foreseen = []
      nextSoundingCue = nil
    } else {
      let soon = (frame.preview?.cues(until: now + Self.idleGap) ?? []).filter { $0.due > now }
      nextSoundingCue = soon.first { rules.rule(for: $0.kind) != nil }?.due
      take(
        delivered: frame.cues, foreseen: soon.filter { $0.due <= now + Self.lookAhead }, at: now)
    }
    pump(at: now)
  }

  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
  {
    closeRetired()
    let now = self.now(now)
    if let job = voiceJob, job.descriptors.contains(descriptor) {
      progressVoice(at: now)
      return
    }
    pump(at: now)
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    var wake: [Int64] = []
    if let retryAt { wake.append(retryAt) }
    if let voiceJob { wake.append(voiceJob.deadline) }
    // Look for the next cue before it is due.
    if let nextChange, nextChange - Self.lookAhead > now {
      wake.append(nextChange - Self.lookAhead)
    }
    if playback != nil, !running, let next = schedule.nextSound(from: now) {
      wake.append(max(now + 1, next - Self.startAhead))
    } else if running, let nextFeed {
      wake.append(max(now + 1, nextFeed))
    }
    return wake.min()
  }

  public func stop() {
    schedule = SoundSchedule()
    foreseen = []
    if let voiceJob { retiredJobs.append(voiceJob) }
    voiceJob = nil
    makingVoice = nil
    stopStream()
    closeMusicControl()
    if let playback { retired.append(playback) }
    playback = nil
    closeRetired()
    context = nil
  }

  /// Nothing stays on when the daemon is gone: ALSA stops a stream whose process ended.
  public func driveSafe() throws -> SafeState { .nothingToSecure }

  // MARK: - Cues

  /// Schedules what the frame brings: cues foreseen before their instant, and those delivered
  /// that nobody foresaw. When the look ahead changed (a press took cues back, or added some),
  /// what is not written yet is scheduled again; what is written is heard as it is.
  private func take(delivered: [FrameCue], foreseen ahead: [FrameCue], at now: Int64) {
    // A cue the loop reached late may come stamped with the instant it was announced rather
    // than the one it was foreseen at: the same kind within a moment is the same cue.
    var unforeseen: [FrameCue] = []
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

  private func play(_ cue: FrameCue, at instant: Int64) {
    let parts = rules.parts(for: cue.kind, seed: cue.due, lines: lines, bank: bank)
    guard !parts.isEmpty else { return }
    schedule.play(
      parts, at: instant, priority: SpeakerCueRules.priority(of: cue.kind), bank: bank)
  }

  /// The first instant whose samples are not written yet: a sound placed before it would lose
  /// its start.
  private func earliestUnwritten(at now: Int64) -> Int64 {
    running ? mixer.instant(ofFrame: framesWritten) : now + bufferTime
  }

  // MARK: - The stream

  /// Starts the stream shortly before a sound, feeds it, and drops it once it has played out
  /// with nothing to play soon (scheduled, or foreseen within the idle gap).
  private func pump(at now: Int64) {
    guard let playback else { return }
    schedule.discard(before: now - Self.idleGap)
    do throws(ALSAError) {
      if !running {
        guard let next = schedule.nextSound(from: now), next - now <= Self.startAhead else {
          return
        }
        try startStream(playback, at: now)
      }
      try fill(playback, at: now)
      let written = mixer.instant(ofFrame: framesWritten)
      let next = [schedule.nextSound(from: written), nextSoundingCue].compactMap { $0 }.min()
      if audibleUntil <= now && (next.map { $0 - written > Self.idleGap } ?? true) {
        stopStream()
      } else {
        let period =
          Int64(playback.periodFrames) * 1_000_000_000 / Int64(max(1, playback.sampleRate))
        nextFeed = Self.feedInstant(after: now, period: period, feed: feeds)
        feeds &+= 1
      }
    } catch {
      lost(error, at: now)
    }
  }

  private func startStream(_ playback: any SoundStream, at now: Int64) throws(ALSAError) {
    if playback.state != .prepared { try playback.prepare() }
    duck(at: now)
    running = true
    framesWritten = 0
    underrunsSeen = playback.underruns
    measureAfter = self.now(now)
    underrunsAtStart = playback.underruns
    position.reset()
    writingSilence = true
    // The first frame is heard when the stream starts, which the first write (a full buffer)
    // does at once: now, read again after the mixer's call.
    mixer = SoundMixer(sampleRate: playback.sampleRate, origin: self.now(now))
  }

  /// Writes as much as the device takes, each frame rendered for the instant it will be heard.
  private func fill(_ playback: any SoundStream, at now: Int64) throws(ALSAError) {
    // The free frames and the instant the card's position was read for them, read now
    // (ALSAPlayback: the pointer synced, then its time stamp, a consistent pair). A card moves
    // its position a period, a packet or a timer tick at a time, and a pointer read between two
    // steps is stamped with the time of the read, so a pair can be old by up to a step and say
    // the frame is heard later than it is: follow() keeps the earliest of the recent pairs, and
    // the feeds' instants walk across the step so that some pair falls just after it. (The
    // delay with the clock read after it, as the floor reads it, was tried: in the VM of
    // `make hil` it put a few sounds 17 ms late.)
    // A stream not started yet has no position to stamp (ALSA refuses the call), and a card
    // that cannot stamp it is measured by its delay.
    var available = 0
    var stamp: Int64 = 0
    if framesWritten == 0 {
      available = try playback.writableFrames()
    } else {
      do throws(ALSAError) {
        (available, stamp) = try playback.timestampedWritableFrames()
      } catch {
        if error.isUnplugged { throw error }
        available = try playback.writableFrames()
      }
    }
    if playback.underruns != underrunsSeen {
      underrunsSeen = playback.underruns
      measureAfter = self.now(now)
      position.reset()
    }
    if framesWritten > 0 && (stamp == 0 || stamp > measureAfter) {
      let heard: Int64
      if stamp > 0 {
        let queued = Int64(max(0, playback.bufferFrames - available))
        heard = stamp + queued * 1_000_000_000 / Int64(playback.sampleRate)
      } else {
        // No time stamp: the delay, with the clock read now (the call's `now` is from before
        // its work).
        let delay = try playback.delayFrames()
        heard = playback.instantOfNextFrame(now: self.now(now), delayFrames: delay)
      }
      follow(heard - mixer.instant(ofFrame: framesWritten))
    }
    var free = available
    var rounds = 0
    while free > 0 && rounds < 4 {
      rounds += 1
      let count = min(free, scratch.count)
      let first = framesWritten
      let result = scratch.withUnsafeMutableBufferPointer { buffer in
        mixer.render(
          into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), firstFrame: first,
          schedule: schedule, bank: bank)
      }
      let written = try scratch.withUnsafeBufferPointer { buffer throws(ALSAError) in
        try playback.write(UnsafeBufferPointer(rebasing: buffer[0..<count]))
      }
      guard written > 0 else { return }
      framesWritten += Int64(written)
      if result.audible { audibleUntil = mixer.instant(ofFrame: framesWritten) }
      writingSilence = !result.audible
      free -= written
    }
  }

  /// Keeps the frames counted on the stream's position (`error` is when a read says the next
  /// frame is heard minus when the count says it is): taken whole after the stream's start or
  /// an underrun, otherwise by the earliest of the recent reads.
  private func follow(_ error: Int64) {
    let correction = position.correction(adding: error, whileSilent: writingSilence)
    if correction != 0 {
      mixer = SoundMixer(sampleRate: mixer.sampleRate, origin: mixer.origin + correction)
    }
  }

  private func stopStream() {
    guard running else { return }
    running = false
    nextFeed = nil
    if let playback, playback.underruns > underrunsAtStart {
      // Said once per stream, not per underrun: a loop late often enough to run the card dry
      // (an overloaded machine) would otherwise fill the journal. A sound it cut is heard in
      // two parts, the second on time.
      context?.log(
        .notice, "sound stream ran dry",
        [
          ("device", deviceName), ("times", "\(playback.underruns - underrunsAtStart)"),
          ("hint", "the loop was late by more than the buffer; a larger `buffer` tolerates it"),
        ])
    }
    try? playback?.stop()
    restoreDucking()
  }

  // MARK: - The device

  /// Opens the device; when it is not there, says so once and tries again later.
  private func open(at now: Int64) {
    retryAt = nil
    do throws(ALSAError) {
      let opened = try openStream(deviceName, bufferTime)
      playback = opened
      watchesDescriptors = Self.canWatch(opened.pollDescriptors)
      scratch = [Int16](repeating: 0, count: max(opened.bufferFrames, 1))
      if bank.sampleRate != opened.sampleRate || bank.clips.isEmpty {
        remakeBank(sampleRate: opened.sampleRate)
      }
      reopenWaits.reset()
      openMusicControl(at: now)
      if away {
        away = false
        context?.log(.notice, "sound device back", [("device", deviceName)])
      } else {
        context?.log(
          .info, "sound device open",
          [
            ("device", deviceName), ("rate", "\(opened.sampleRate)"),
            ("buffer_ms", "\(opened.bufferFrames * 1000 / max(1, opened.sampleRate))"),
          ])
      }
    } catch {
      if !away {
        away = true
        var fields = [("device", deviceName), ("error", error.description)]
        if let hint = error.hint { fields.append(("hint", hint)) }
        context?.log(.warning, "sound device not available; retrying", fields)
      }
      retryAt = now + reopenWaits.failed()
    }
  }

  /// The device went away (a USB card pulled) or failed: said once, reopened with backoff.
  private func lost(_ error: ALSAError, at now: Int64) {
    running = false
    nextFeed = nil
    closeMusicControl()
    if let playback { retired.append(playback) }
    playback = nil
    if !away {
      away = true
      context?.log(
        .warning, "sound device lost; reopening when it is back",
        [("device", deviceName), ("error", error.description)])
    }
    retryAt = now + reopenWaits.failed()
  }

  /// When feed number `feed` comes, the last one having been at `now`: at a phase of the period
  /// taken from a Weyl sequence (the golden ratio's fraction, 40 503 / 65 536, added each feed),
  /// counted from the monotonic clock's zero (the card's steps are unknown, so any fixed grid
  /// will do), so that however long the card's steps are, after n feeds no part of a step
  /// longer than about 1/n of a period went unread; and between a quarter of a period and one
  /// and a quarter after the last, so that a buffer of a few periods never runs low.
  /// Deterministic, for the tests.
  static func feedInstant(after now: Int64, period: Int64, feed: Int64) -> Int64 {
    let period = max(4, min(period, 1_000_000_000))
    let phase = period * ((feed &* 40_503) & 0xFFFF) / 65_536
    let earliest = now &+ period / 4
    let intoPeriod = (earliest % period + period) % period
    let next = earliest - intoPeriod + phase
    return next < earliest ? next + period : next
  }

  /// Whether the loop can watch `descriptors`, tried on an epoll instance of its own.
  static func canWatch(_ descriptors: [ALSAPollDescriptor]) -> Bool {
    guard !descriptors.isEmpty, let poller = try? EventPoller() else { return false }
    for (index, descriptor) in descriptors.enumerated() {
      do {
        try poller.register(
          descriptor.fileDescriptor, token: UInt64(index), interest: descriptor.interest)
      } catch {
        return false
      }
    }
    return true
  }

  /// Closes streams given up during an earlier call: the loop has stopped watching them since.
  private func closeRetired() {
    for old in retired { old.close() }
    retired = []
    for job in retiredJobs { job.cancel() }
    retiredJobs = []
  }

  // MARK: - The voice

  /// Starts making the voice of the current lines in a child process; a voice that cannot be
  /// made is said once, and the cues play their sounds.
  private func makeVoice(at now: Int64) {
    guard let synthesizer else { return }
    if let voiceJob { retiredJobs.append(voiceJob) }
    voiceJob = nil
    do throws(VoiceSynthesisError) {
      voiceJob = try synthesizer.start(
        texts: lines.allTexts, language: lines.language.code, at: now)
      makingVoice = lines
    } catch {
      makingVoice = nil
      voiced = lines
      context?.log(.warning, "no voice; the cues play their sounds only", [("error", "\(error)")])
    }
  }

  /// Takes in what the voice's child has made; once it is done, its lines join the bank.
  private func progressVoice(at now: Int64) {
    guard let job = voiceJob else { return }
    guard case .finished(let result) = job.handleReadable(at: now) else { return }
    retiredJobs.append(job)
    voiceJob = nil
    voiced = makingVoice
    makingVoice = nil
    switch result {
    case .success(let spoken):
      let hadVoice = !voiceClips.isEmpty
      voiceClips = spoken.mapValues { PCMClip(sampleRate: $0.sampleRate, samples: $0.samples) }
      if hadVoice {
        remakeBank(sampleRate: bank.sampleRate)
      } else {
        addVoice(to: &bank)
      }
      let bytes = voiceClips.values.reduce(0) { $0 + $1.samples.count * 2 }
      context?.log(
        .info, "voice ready",
        [
          ("language", job.language), ("lines", "\(voiceClips.count)"),
          ("kib", "\(bytes / 1024)"),
        ])
    case .failure(let error):
      context?.log(
        .warning, "no voice; the cues play their sounds only", [("error", error.description)])
    }
  }

  private func addVoice(to bank: inout SoundBank) {
    for text in voiceClips.keys.sorted() {
      if let clip = voiceClips[text] { _ = bank.add(clip, as: .voice(text)) }
    }
  }

  /// Reads the owner's WAV files again (an air horn replaced under the same name): the bank is
  /// made again when one of them changed.
  public func reloadFiles() throws -> Bool {
    let decoded = try Self.decode(wavFiles)
    guard decoded != files else { return false }
    files = decoded
    if !bank.clips.isEmpty { remakeBank(sampleRate: bank.sampleRate) }
    return true
  }

  private static func decode(_ soundFiles: [SoundFile]) throws(PluginError) -> [String: PCMClip] {
    var decoded: [String: PCMClip] = [:]
    for file in soundFiles {
      switch SoundFile.load(file) {
      case .success(let clip): decoded[file.name] = clip
      case .failure(let problem): throw PluginError(problem.message)
      }
    }
    return decoded
  }

  /// Makes the bank again (another rate, another language's voice). The schedule names sounds
  /// by their place in the bank, so it starts afresh: the next frame schedules what is
  /// foreseen again.
  private func remakeBank(sampleRate: Int) {
    bank = Self.bank(rules: rules, files: files, sampleRate: sampleRate)
    addVoice(to: &bank)
    schedule = SoundSchedule()
    foreseen = []
  }

  /// Every sound the rules and files may play, at the stream's rate.
  static func bank(rules: SpeakerCueRules, files: [String: PCMClip], sampleRate: Int) -> SoundBank {
    var bank = SoundBank(sampleRate: sampleRate)
    for key in rules.soundKeys.sorted(by: { "\($0)" < "\($1)" }) {
      switch key {
      case .generated(let sound):
        _ = bank.add(sound.clip(sampleRate: sampleRate), as: key)
      case .file(let name):
        if let clip = files[name] { _ = bank.add(clip, as: key) }
      case .beeps(let pattern):
        _ = bank.add(SoundSynthesis.beeps(pattern, sampleRate: sampleRate), as: key)
      case .voice:
        break
      }
    }
    return bank
  }

  // MARK: - Ducking

  /// Lowers the music's control while a stream runs. A control that cannot be had or set is
  /// said once, and tried again with the device or a minute later; meanwhile the cues play over
  /// the music.
  private func duck(at now: Int64) {
    guard !ducking.control.isEmpty, duckedFrom == nil else { return }
    if music == nil && now >= nextMixerAttempt { openMusicControl(at: now) }
    guard let music else { return }
    do throws(ALSAError) {
      let level = try music.control.volume()
      try music.control.setVolume(ducking.lowered(level, in: music.control.range))
      duckedFrom = level
      reportedDuckingFailure = false
    } catch {
      duckingFailed(error, at: now)
    }
  }

  private func restoreDucking() {
    guard let level = duckedFrom else { return }
    duckedFrom = nil
    do throws(ALSAError) {
      try music?.control.setVolume(level)
    } catch {
      context?.log(
        .warning, "cannot put the music back to its level",
        [("control", ducking.control), ("level", "\(level)"), ("error", error.description)])
    }
  }

  private func openMusicControl(at now: Int64) {
    guard !ducking.control.isEmpty else { return }
    closeMusicControl()
    do throws(ALSAError) {
      let mixer = try ALSAMixer.open(card: Self.card(of: deviceName))
      do throws(ALSAError) {
        music = (mixer, try mixer.control(named: ducking.control))
      } catch {
        mixer.close()
        throw error
      }
    } catch {
      duckingFailed(error, at: now)
    }
  }

  private func closeMusicControl() {
    restoreDucking()
    music?.mixer.close()
    music = nil
  }

  private func duckingFailed(_ error: ALSAError, at now: Int64) {
    closeMusicControl()
    nextMixerAttempt = now + Self.mixerRetry
    guard !reportedDuckingFailure else { return }
    reportedDuckingFailure = true
    var fields = [("control", ducking.control), ("error", error.description)]
    if let hint = error.hint { fields.append(("hint", hint)) }
    context?.log(.warning, "cannot duck the music; playing cues over it", fields)
  }

  /// The card a device plays on, for its mixer: `hw:1,0` is card `hw:1`, `hw:Loopback,0,0` is
  /// `hw:Loopback` (a card's id names it as its number does), `plughw:CARD=Device` is
  /// `hw:CARD=Device`, a name without a card (`default`) is its own.
  static func card(of device: String) -> String {
    guard let colon = device.firstIndex(of: ":") else { return device }
    let arguments = device[device.index(after: colon)...].split(separator: ",")
    guard let first = arguments.first else { return device }
    if first.hasPrefix("CARD=") { return "hw:" + first }
    if !first.contains("=") { return "hw:" + first }
    return device
  }

  // MARK: - Time

  private func now(_ given: Int64) -> Int64 { max(given, clock?() ?? given) }
}
