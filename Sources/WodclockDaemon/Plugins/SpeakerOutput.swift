// SPDX-License-Identifier: MIT
// `speaker` output: the cues as sounds and a voice through an ALSA device (the Pi's jack, an HDMI
// TV, a USB card, an amplifier's input).
//
// What plays and when is SoundKit's SpeakerPlayer, a value given instants: the cues foreseen
// from the frame's look ahead and withdrawn when a press takes them back, the schedule (the
// newest cue wins, nothing queues up late), when the stream starts, is fed and is dropped, where
// the card really plays, and when the music is lowered. This file is its shell: it hands the
// player each frame's cues and what the stream says, and carries out what the player answers
// against the ALSA stream, the mixer control and the voice's child, from the daemon's one loop:
//
// - On time. A frame written now is heard `delay` frames later (ALSAPlayback's model), so a
//   sound is written before its instant: the output asks to be woken `lookAhead` before the
//   next cue, and feeds the stream at the instants the player names.
// - Measured where it plays. Each time the stream is fed, the card's position is read and
//   stamped, and the player keeps the frames it counts on it.
// - Idle when silent. The stream runs only from a little before a sound until its buffer has
//   played out; sounds closer together than a second (a countdown) share one stream.
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

  /// The rate asked of the device: espeak-ng's, so the voice, the largest part of the bank, is
  /// kept as it was made (1.5 MB for English; resampled to 48 kHz it would be 3.2 MB). Cue
  /// sounds need no more (a horn's partials stay under 5 kHz); a `plughw:` or `default` device
  /// converts, a bare `hw:` one gives its nearest rate, and the bank follows it.
  public static let sampleRate = 22_050
  /// A device that cannot be opened is tried again after 1 s, the wait doubled on every open
  /// that fails up to 30 s.
  static let reopenBackoff = RetryBackoff(initial: 1_000_000_000, maximum: 30_000_000_000)

  private var context: PluginContext?
  private var clock: (() -> Int64)?

  /// What plays and when: every decision of this output.
  private var player: SpeakerPlayer

  // The stream.
  private let openStream: SoundStreamOpener
  private var playback: (any SoundStream)?
  /// Streams given up while the loop watched their descriptors, closed at the next call.
  private var retired: [any SoundStream] = []
  /// Whether the loop can watch the stream's descriptors for its errors (ALSA's `null` device
  /// hands out /dev/null, which epoll refuses: its errors are found when it is fed).
  private var watchesDescriptors = false
  private var scratch: [Int16] = []
  /// The stream's underrun count when it started: how often it ran dry is said when it stops.
  private var underrunsAtStart = 0

  // Reopening.
  private var retryAt: Int64?
  private var reopenWaits = SpeakerOutput.reopenBackoff
  /// What was said about the device: nothing yet, that it is away, or that it is lost.
  private var away = false

  // The voice.
  private var voiceJob: VoiceSynthesisJob?
  /// The voice of announcements being made (a job of its own: the lines' voice is long, an
  /// announcement's short).
  private(set) var announcementJob: VoiceSynthesisJob?
  /// The serial of the newest announcement seen: those after it are said. Nil until the first
  /// frame after the start, whose announcements are old (said before, or while away).
  private var lastAnnouncement: Int?
  /// Jobs given up while the loop watched their descriptors, cancelled at the next call.
  private var retiredJobs: [VoiceSynthesisJob] = []

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
  /// stand-in), `synthesizer` makes the voice (tests pass a stand-in) and `clock` gives the time
  /// (without one, the daemon's from the context).
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
    player = SpeakerPlayer(
      rules: rules, lines: SpokenLines(language: .english).with(overrides: overrides),
      files: try Self.decode(wavFiles), bufferTime: bufferTime,
      lowersMusic: !ducking.control.isEmpty)
  }

  // MARK: - Plugin

  public func start(_ context: PluginContext) throws {
    self.context = context
    if clock == nil { clock = context.clock.monotonic }
    player.reset()
    player.forgetAnnouncements()
    lastAnnouncement = nil
    reopenWaits.reset()
    away = false
    open(at: now(0))
  }

  public var watchedDescriptors: [WatchedDescriptor] {
    var watched = voiceJob?.descriptors.map { WatchedDescriptor($0) } ?? []
    watched += announcementJob?.descriptors.map { WatchedDescriptor($0) } ?? []
    if player.isRunning, watchesDescriptors, let playback {
      // No interest: epoll reports an error or a hang-up on any descriptor it watches.
      watched += playback.pollDescriptors.map { WatchedDescriptor($0.fileDescriptor, for: []) }
    }
    return watched
  }

  public func render(_ frame: OutputFrame) throws {
    closeRetired()
    let now = now(frame.monotonicNow)
    if player.lines.language != frame.words.language {
      player.lines = SpokenLines(language: frame.words.language).with(overrides: lineOverrides)
    }
    // A workout with a whiteboard: its rests and count-in announce the next movement, whose
    // lines are voiced with the others when the workout loads, long before its first rest.
    if voiceEnabled, player.lines.movements != frame.movements {
      player.lines.movements = frame.movements
    }
    if voiceJob != nil { progressVoice(at: now) }
    if synthesizer != nil, player.linesToVoice != nil { makeVoice(at: now) }
    if let retryAt, retryAt <= now { open(at: now) }
    let minute = frame.civilTime.hour * 60 + frame.civilTime.minute
    let silent = frame.muted || quietHours.contains(minuteOfDay: minute)
    takeAnnouncements(frame.announcements, silent: silent)
    if announcementJob != nil { progressAnnouncements(at: now) }
    if announcementJob == nil, player.announcementTextsToVoice != nil {
      makeAnnouncementVoice(at: now)
    }
    if silent {
      player.silence(nextChange: frame.nextChange, at: now)
    } else {
      let ahead = frame.preview?.cues(until: now + SpeakerPlayer.idleGap) ?? []
      player.take(
        frame.cues.map(Self.timed), ahead: ahead.map(Self.timed), nextChange: frame.nextChange,
        nextMovement: frame.snapshot.nextMovement, at: now)
    }
    pump(at: now)
  }

  private static func timed(_ cue: FrameCue) -> TimedCue { TimedCue(kind: cue.kind, due: cue.due) }

  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
  {
    closeRetired()
    let now = self.now(now)
    if let job = voiceJob, job.descriptors.contains(descriptor) {
      progressVoice(at: now)
      return
    }
    if let job = announcementJob, job.descriptors.contains(descriptor) {
      progressAnnouncements(at: now)
      // The next batch starts at once; what is made may be said at once.
      if announcementJob == nil, player.announcementTextsToVoice != nil {
        makeAnnouncementVoice(at: now)
      }
      pump(at: now)
      return
    }
    pump(at: now)
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    var wake = player.nextWakeUp(after: now, canPlay: playback != nil)
    if let retryAt { wake = min(wake ?? retryAt, retryAt) }
    if let deadline = voiceJob?.deadline { wake = min(wake ?? deadline, deadline) }
    if let deadline = announcementJob?.deadline { wake = min(wake ?? deadline, deadline) }
    return wake
  }

  public func stop() {
    player.reset()
    if let voiceJob { retiredJobs.append(voiceJob) }
    voiceJob = nil
    player.voiceCancelled()
    if let announcementJob { retiredJobs.append(announcementJob) }
    announcementJob = nil
    player.forgetAnnouncements()
    stopStream()
    closeMusicControl()
    if let playback { retired.append(playback) }
    playback = nil
    closeRetired()
    context = nil
  }

  /// Nothing stays on when the daemon is gone: ALSA stops a stream whose process ended.
  public func driveSafe() throws -> SafeState { .nothingToSecure }

  // MARK: - The stream

  /// Does what the player says with the stream: starts it shortly before a sound, feeds it, and
  /// drops it once it has played out with nothing to play soon.
  private func pump(at now: Int64) {
    guard let playback else { return }
    do throws(ALSAError) {
      switch player.pump(at: now) {
      case .none:
        return
      case .start(let lowerMusic):
        if playback.state != .prepared { try playback.prepare() }
        if lowerMusic { duck(at: now) }
        underrunsAtStart = playback.underruns
        // The first frame is heard when the stream starts, which the first write (a full
        // buffer) does at once: now, read again after the mixer's call.
        player.started(
          at: self.now(now), sampleRate: playback.sampleRate, underruns: playback.underruns)
      case .feed:
        break
      }
      try fill(playback, at: now)
      switch player.fed(at: now, periodFrames: playback.periodFrames) {
      case .stop(let restoreMusic):
        stopped(playback, restoreMusic: restoreMusic)
      case .feed:
        break
      }
    } catch {
      lost(error, at: now)
    }
  }

  /// Reads the stream's position for the player, then writes as much as the device takes, each
  /// frame rendered for the instant it will be heard.
  private func fill(_ playback: any SoundStream, at now: Int64) throws(ALSAError) {
    // The free frames and the instant the card's position was read for them, read now
    // (ALSAPlayback: the pointer synced, then its time stamp, a consistent pair). A card moves
    // its position a period, a packet or a timer tick at a time, and a pointer read between two
    // steps is stamped with the time of the read, so a pair can be old by up to a step and say
    // the frame is heard later than it is: the player keeps the earliest of the recent pairs,
    // and the feeds' instants walk across the step so that some pair falls just after it. (The
    // delay with the clock read after it, as the floor reads it, was tried: in the VM of
    // `make hil` it put a few sounds 17 ms late.)
    // A stream not started yet has no position to stamp (ALSA refuses the call), and a card
    // that cannot stamp it is measured by its delay.
    var available = 0
    var stamp: Int64 = 0
    if !player.readsPosition {
      available = try playback.writableFrames()
    } else {
      do throws(ALSAError) {
        (available, stamp) = try playback.timestampedWritableFrames()
      } catch {
        if error.isUnplugged { throw error }
        available = try playback.writableFrames()
      }
    }
    let underruns = playback.underruns
    var read: SpeakerPlayer.PositionRead?
    if stamp > 0 {
      read = .stamped(free: available, at: stamp)
    } else if player.readsPosition {
      // No time stamp: the delay, with the clock read now (the call's `now` is from before
      // its work).
      let delay = try playback.delayFrames()
      read = .nextFrameHeard(
        at: playback.instantOfNextFrame(now: self.now(now), delayFrames: delay))
    }
    player.measured(
      read, underruns: underruns, bufferFrames: playback.bufferFrames, at: self.now(now))
    var free = available
    var rounds = 0
    while free > 0 && rounds < 4 {
      rounds += 1
      let count = min(free, scratch.count)
      let audible = scratch.withUnsafeMutableBufferPointer { buffer in
        player.mix(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
      }
      let written = try scratch.withUnsafeBufferPointer { buffer throws(ALSAError) in
        try playback.write(UnsafeBufferPointer(rebasing: buffer[0..<count]))
      }
      guard written > 0 else { return }
      player.wrote(written, audible: audible)
      free -= written
    }
  }

  /// Stops the stream if it runs (the output stops).
  private func stopStream() {
    guard player.isRunning, let playback else { return }
    player.stopped()
    stopped(playback, restoreMusic: true)
  }

  /// The player stopped the stream: it is stopped, the music put back, and how often it ran dry
  /// said.
  private func stopped(_ playback: any SoundStream, restoreMusic: Bool) {
    if playback.underruns > underrunsAtStart {
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
    try? playback.stop()
    if restoreMusic { restoreDucking() }
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
      if player.needsBank(sampleRate: opened.sampleRate) {
        player.makeBank(sampleRate: opened.sampleRate)
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
    player.stopped()
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
      let lines = player.lines
      voiceJob = try synthesizer.start(
        texts: lines.allTexts, language: lines.language.code, at: now)
      player.voiceStarted()
    } catch {
      player.voiceUnavailable()
      context?.log(.warning, "no voice; the cues play their sounds only", [("error", "\(error)")])
    }
  }

  /// Takes in what the voice's child has made; once it is done, its lines join the bank.
  private func progressVoice(at now: Int64) {
    guard let job = voiceJob else { return }
    guard case .finished(let result) = job.handleReadable(at: now) else { return }
    retiredJobs.append(job)
    voiceJob = nil
    switch result {
    case .success(let spoken):
      let clips = spoken.mapValues { PCMClip(sampleRate: $0.sampleRate, samples: $0.samples) }
      player.voiceFinished(clips)
      let bytes = clips.values.reduce(0) { $0 + $1.samples.count * 2 }
      context?.log(
        .info, "voice ready",
        [
          ("language", job.language), ("lines", "\(clips.count)"),
          ("kib", "\(bytes / 1024)"),
        ])
    case .failure(let error):
      player.voiceFinished(nil)
      context?.log(
        .warning, "no voice; the cues play their sounds only", [("error", error.description)])
    }
  }

  // MARK: - Announcements

  /// Takes the frame's announcements newer than the last seen: to be said, unless the speaker
  /// is `silent` (muted, quiet hours) or has no voice, when they are passed over for good.
  /// The first frame after the start only notes where they are.
  private func takeAnnouncements(_ announcements: [Announcement], silent: Bool) {
    guard let last = lastAnnouncement else {
      lastAnnouncement = announcements.map(\.serial).max() ?? .min
      return
    }
    let new = announcements.filter { $0.serial > last }.sorted { $0.serial < $1.serial }
    guard let newest = new.last else { return }
    lastAnnouncement = newest.serial
    guard !silent, synthesizer != nil else { return }
    for announcement in new {
      if let dropped = player.announce(announcement.text) {
        context?.log(
          .warning, "too many announcements waiting; the oldest is not said",
          [("text", dropped), ("waiting", "\(AnnouncementQueue.capacity)")])
      }
    }
  }

  /// Starts making the voice of the announcements waiting, in a child of their own.
  private func makeAnnouncementVoice(at now: Int64) {
    guard let synthesizer, let texts = player.announcementTextsToVoice else { return }
    do throws(VoiceSynthesisError) {
      announcementJob = try synthesizer.start(
        texts: texts, language: player.lines.language.code, at: now)
      player.announcementVoiceStarted()
    } catch {
      // Texts the voice cannot say, or no child: they are not said, and the next come anew.
      player.announcementVoiceStarted()
      announcementVoiceFailed(error)
    }
  }

  /// Takes in what the announcements' child has made; once it is done, they are said.
  private func progressAnnouncements(at now: Int64) {
    guard let job = announcementJob else { return }
    guard case .finished(let result) = job.handleReadable(at: now) else { return }
    retiredJobs.append(job)
    announcementJob = nil
    switch result {
    case .success(let spoken):
      let dropped = player.announcementVoiceFinished(
        spoken.mapValues { PCMClip(sampleRate: $0.sampleRate, samples: $0.samples) })
      for text in dropped {
        context?.log(.warning, "an announcement has no voice; not said", [("text", text)])
      }
    case .failure(let error):
      announcementVoiceFailed(error)
    }
  }

  private func announcementVoiceFailed(_ error: VoiceSynthesisError) {
    for text in player.announcementVoiceFinished(nil) {
      context?.log(
        .warning, "cannot say an announcement",
        [("text", text), ("error", error.description)])
    }
  }

  /// Reads the owner's WAV files again (an air horn replaced under the same name): the bank is
  /// made again when one of them changed.
  public func reloadFiles() throws -> Bool {
    player.replaceFiles(try Self.decode(wavFiles))
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
