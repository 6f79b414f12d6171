// SPDX-License-Identifier: MIT
// Which sound plays when: cue sounds at instants, the newest cutting what still plays, by
// reference into a bank of clips built once at start (the schedule holds no samples).

/// A clip's place in a ``SoundBank``.
public struct SoundID: Sendable, Hashable {
  public let index: Int
}

/// What a bank's clip is, so cue rules can name sounds before the bank is built.
public enum SoundKey: Sendable, Hashable {
  case generated(GeneratedSound)
  /// An owner's WAV file, by the name the config gives it.
  case file(String)
  /// A beep pattern played as beeps (``SoundSynthesis/beeps(_:frequency:sampleRate:)``).
  case beeps([Int64])
  /// A spoken line, by its text.
  case voice(String)
  /// The part of an announcement being said (one at a time: each replaces the last).
  case announcement
}

/// Every clip the speaker can play, at one sample rate (the device's), built by the caller at
/// start and at a reload.
public struct SoundBank: Sendable {
  public let sampleRate: Int
  public private(set) var clips: [PCMClip] = []
  private var ids: [SoundKey: SoundID] = [:]

  /// An empty bank at `sampleRate` (clamped to ``PCMClip/supportedSampleRates``).
  public init(sampleRate: Int) { self.sampleRate = SoundSynthesis.supportedRate(sampleRate) }

  /// Adds `clip` as `key`, resampled to the bank's rate, replacing an earlier clip of the key.
  @discardableResult
  public mutating func add(_ clip: PCMClip, as key: SoundKey) -> SoundID? {
    guard let resampled = clip.resampled(to: sampleRate) else { return nil }
    if let id = ids[key] {
      clips[id.index] = resampled
      return id
    }
    let id = SoundID(index: clips.count)
    clips.append(resampled)
    ids[key] = id
    return id
  }

  /// The clip of a key, if it was added.
  public func id(of key: SoundKey) -> SoundID? { ids[key] }

  /// The clip of an id, if it is this bank's.
  public subscript(id: SoundID) -> PCMClip? {
    clips.indices.contains(id.index) ? clips[id.index] : nil
  }

  /// The samples all clips hold, bytes (the voice bank's memory figure).
  public var byteCount: Int { clips.reduce(0) { $0 + $1.samples.count * 2 } }
}

/// The sounds to play, each a bank clip from an instant, with its gain and any cut.
///
/// A cue's sounds go on two channels, effects and voice, which play together. A cue cuts what
/// still plays when it starts (the newest wins; nothing queues up late). Of cues at one instant,
/// each channel goes to the cue of highest priority that has a sound for it (equal priority:
/// the later one), so a rep's double tick and the next phase's spoken "Down" are both heard.
public struct SoundSchedule: Sendable {
  /// The effects (generated sounds, beeps, WAV files) or the voice.
  public enum Channel: Sendable, Hashable {
    case effects
    case voice
  }

  /// One sound of a cue: a clip `offset` after the cue's instant, at `gain` (0 ... 1).
  public struct Part: Sendable, Equatable {
    public var sound: SoundID
    public var offset: Int64
    public var gain: Double
    public var channel: Channel

    /// Creates a part.
    public init(sound: SoundID, offset: Int64 = 0, gain: Double = 1, channel: Channel = .effects) {
      self.sound = sound
      self.offset = offset
      self.gain = gain
      self.channel = channel
    }
  }

  /// A sound placed in time.
  public struct Entry: Sendable, Equatable {
    public var sound: SoundID
    /// When its first sample plays.
    public var start: Int64
    /// When its last sample has played, uncut.
    public var end: Int64
    /// Gain, 0 ... 1.
    public var gain: Double
    /// When it was cut short (it fades out over ``SoundSchedule/fade`` from then).
    public var cut: Int64?
    public var channel: Channel
    /// The instant and priority of the cue it belongs to.
    var cueInstant: Int64
    var priority: Int

    /// When it falls silent: its end, or its cut and fade.
    public var silentFrom: Int64 { cut.map { min($0 + SoundSchedule.fade, end) } ?? end }
  }

  /// How long a sound cut short takes to fade out: short enough to leave the next cue clear,
  /// long enough not to click.
  public static let fade: Int64 = 2_000_000

  /// The sounds still to come or under way, in order of start.
  public private(set) var entries: [Entry] = []
  private var lastInstant: Int64?

  /// An empty schedule.
  public init() {}

  /// Plays a cue's `parts` from `instant` (see the type's rule); a cue before the last one
  /// played is ignored. Parts whose sound the bank lacks are skipped.
  public mutating func play(
    _ parts: [Part], at instant: Int64, priority: Int = 0, bank: SoundBank
  ) {
    if let last = lastInstant, instant < last { return }
    if lastInstant != instant {
      cut(from: instant)
      lastInstant = instant
    }
    for channel in [Channel.effects, .voice] {
      let mine = parts.filter { $0.channel == channel }
      guard !mine.isEmpty else { continue }
      let rival = entries.filter { $0.channel == channel && $0.cueInstant == instant }
      if rival.contains(where: { $0.priority > priority }) { continue }
      entries.removeAll { $0.channel == channel && $0.cueInstant == instant }
      for part in mine {
        guard let clip = bank[part.sound], !clip.samples.isEmpty else { continue }
        let start = instant + max(0, part.offset)
        let gain = part.gain.isFinite ? max(0, min(1, part.gain)) : 0
        entries.append(
          Entry(
            sound: part.sound, start: start, end: start + clip.duration, gain: gain, cut: nil,
            channel: channel, cueInstant: instant, priority: priority))
      }
    }
    entries.sort { $0.start < $1.start }
  }

  /// Plays `part` from `instant` between the cues: it cuts nothing and holds no cue back (a
  /// cue before it still plays), and any cue cuts it as it cuts what plays (an announcement,
  /// which waits for the room a cue leaves). Nothing plays when the bank lacks the sound.
  public mutating func playBetweenCues(_ part: Part, at instant: Int64, bank: SoundBank) {
    guard let clip = bank[part.sound], !clip.samples.isEmpty else { return }
    let start = instant + max(0, part.offset)
    let gain = part.gain.isFinite ? max(0, min(1, part.gain)) : 0
    entries.append(
      Entry(
        sound: part.sound, start: start, end: start + clip.duration, gain: gain, cut: nil,
        channel: part.channel, cueInstant: instant, priority: .min))
    entries.sort { $0.start < $1.start }
  }

  /// Forgets every entry of `sound`, played or not: before its clip in the bank is replaced,
  /// once all of it is written.
  public mutating func forget(sound: SoundID) {
    entries.removeAll { $0.sound == sound }
  }

  /// Silences everything from `instant` on, with a short fade (mute, quiet hours, stop, and a
  /// newer cue).
  public mutating func cut(from instant: Int64) {
    entries.removeAll { $0.start >= instant }
    for index in entries.indices where entries[index].silentFrom > instant {
      entries[index].cut = min(entries[index].cut ?? instant, instant)
    }
  }

  /// Takes back the cues due after `instant` (a press changed what comes next, so the cues a
  /// speaker had foreseen will not come): their sounds go, and what they would have cut short
  /// plays on. Cues from `instant` on may be played again.
  public mutating func withdraw(cuesAfter instant: Int64) {
    entries.removeAll { $0.cueInstant > instant }
    for index in entries.indices where (entries[index].cut ?? Int64.min) > instant {
      entries[index].cut = nil
    }
    if let last = lastInstant, last > instant {
      lastInstant = entries.map(\.cueInstant).max()
    }
  }

  /// Forgets the sounds silent by `instant`.
  public mutating func discard(before instant: Int64) {
    entries.removeAll { $0.silentFrom <= instant }
  }

  /// Whether anything sounds at `instant`.
  public func isAudible(at instant: Int64) -> Bool {
    entries.contains { $0.start <= instant && instant < $0.silentFrom && $0.gain > 0 }
  }

  /// The first instant from `instant` on at which something sounds, or nil.
  public func nextSound(from instant: Int64) -> Int64? {
    var next: Int64?
    for entry in entries where entry.silentFrom > instant && entry.gain > 0 {
      let start = max(entry.start, instant)
      next = min(next ?? start, start)
    }
    return next
  }
}
