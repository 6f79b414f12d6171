// SPDX-License-Identifier: MIT
// What a speaker plays for each cue: generated sounds, the owner's WAV files, beep patterns
// (the buzzer's vocabulary) and the voice, with defaults from the seeds.

import SounderKit
import WorkoutCore

/// A sound of a cue's rule.
public enum SoundSource: Sendable, Hashable {
  case generated(GeneratedSound)
  /// An owner's WAV file, by its name in the config.
  case file(String)
  /// The buzzer's on/off pattern, as beeps.
  case beeps(BeepPattern)

  /// The bank key of the source.
  public var key: SoundKey {
    switch self {
    case .generated(let sound): .generated(sound)
    case .file(let name): .file(name)
    case .beeps(let pattern): .beeps(pattern)
    }
  }
}

/// What one cue plays.
public struct SpeakerCueRule: Sendable, Hashable {
  /// When the voice speaks, if it does.
  public enum Voice: Sendable, Hashable {
    /// With the sounds, from the cue's instant (a spoken "three" on the 3-2-1's beep).
    case withSounds
    /// Once the sounds are over (a completion line after the horn).
    case afterSounds
  }

  /// Played together from the cue's instant, on the effects channel.
  public var sounds: [SoundSource]
  public var voice: Voice?
  /// The cue kind's volume, 0 ... 1, times the output's.
  public var volume: Double

  /// Creates a rule.
  public init(sounds: [SoundSource] = [], voice: Voice? = nil, volume: Double = 1) {
    self.sounds = sounds
    self.voice = voice
    self.volume = volume
  }

  /// Whether the rule plays nothing.
  public var isSilent: Bool { sounds.isEmpty && voice == nil }
}

/// The rules of every cue, by cue name (``CueKind/name``), `tempo_count` among them: TempoRep's
/// per-second count inside a tempo phase ("Down, 2, 3, 4").
public struct SpeakerCueRules: Sendable, Hashable {
  /// Rule by cue name; a cue left out is silent.
  public var byCue: [String: SpeakerCueRule]
  /// The output's volume, 0 ... 1.
  public var volume: Double
  /// Whether the engine runs a reverse-direction tempo (a lat pulldown), which swaps the
  /// spoken "Down" and "Up" as it swaps the displayed arrows.
  public var reverseDirection: Bool

  /// Every rule name a config may use: the cues'.
  public static let allNames = CueKind.allNames

  /// Creates rules.
  public init(_ byCue: [String: SpeakerCueRule], volume: Double = 1, reverseDirection: Bool = false)
  {
    self.byCue = byCue
    self.volume = volume
    self.reverseDirection = reverseDirection
  }

  /// The seeds' cues: WODrounds speaks get ready, halfway, ten seconds, 3-2-1, rounds remaining
  /// and a completion line; TempoRep ticks once on a phase change, twice on a rep and three
  /// times rising on a set, speaks the phase and the count, and says "Rest". A horn that cuts
  /// through class music starts the work, a bell the rest.
  public static let standard = SpeakerCueRules([
    "start": SpeakerCueRule(),
    "segment_start": SpeakerCueRule(sounds: [.generated(.horn)], voice: .withSounds),
    "round_start": SpeakerCueRule(),
    "rounds_remaining": SpeakerCueRule(voice: .withSounds),
    "countdown": SpeakerCueRule(sounds: [.generated(.beep)], voice: .withSounds),
    "halfway": SpeakerCueRule(voice: .withSounds),
    "segment_halfway": SpeakerCueRule(voice: .withSounds),
    "last_ten_seconds": SpeakerCueRule(voice: .withSounds),
    "segment_last_ten_seconds": SpeakerCueRule(voice: .withSounds),
    "rep_complete": SpeakerCueRule(sounds: [.generated(.doubleTick)]),
    "set_complete": SpeakerCueRule(sounds: [.generated(.tripleTick)]),
    "side_switch": SpeakerCueRule(voice: .withSounds),
    "lap": SpeakerCueRule(sounds: [.generated(.tick)], voice: .withSounds),
    "cap_reached": SpeakerCueRule(sounds: [.generated(.horn)], voice: .afterSounds),
    "finish": SpeakerCueRule(sounds: [.generated(.horn)], voice: .afterSounds),
    "tempo_count": SpeakerCueRule(voice: .withSounds),
  ])

  /// The standard rules with `overrides` replacing theirs cue by cue.
  public static func standard(overriding overrides: [String: SpeakerCueRule]) -> SpeakerCueRules {
    var rules = standard
    for (cue, rule) in overrides { rules.byCue[cue] = rule }
    return rules
  }

  /// The standard sounds of a segment's start, which depend on the segment.
  static let standardSegmentSounds = standard.byCue["segment_start"]?.sounds ?? []

  /// The sounds of a segment's start depend on the segment: a horn for work, a bell for a rest,
  /// a tick for a tempo phase, nothing but the voice for the count-in and a side switch. A
  /// `segment_start` rule with sounds of its own applies them to every kind the same; one that
  /// changes only the voice or the volume keeps them.
  public func rule(for kind: CueKind) -> SpeakerCueRule? {
    guard let rule = byCue[kind.name], !rule.isSilent else { return nil }
    guard case .segmentStart(let segment) = kind, rule.sounds == Self.standardSegmentSounds
    else { return rule }
    var specific = rule
    switch segment {
    case .work: specific.sounds = [.generated(.horn)]
    case .rest, .setRest: specific.sounds = [.generated(.bell)]
    case .eccentric, .bottomPause, .concentric, .topPause: specific.sounds = [.generated(.tick)]
    case .countIn, .sideSwitch: specific.sounds = []
    }
    return specific
  }

  /// The line a cue speaks, or nil. `seed` picks the completion line (pass the cue's instant).
  public func voiceLine(for kind: CueKind, seed: Int64, lines: SpokenLines) -> String? {
    switch kind {
    case .start, .roundStart: return nil
    case .segmentStart(let segment):
      switch segment {
      case .countIn: return lines[.getReady]
      case .work: return nil
      case .rest, .setRest: return lines[.rest]
      case .sideSwitch: return lines[.sideSwitch]
      case .bottomPause, .topPause: return lines[.hold]
      case .eccentric: return lines[reverseDirection ? .up : .down]
      case .concentric: return lines[reverseDirection ? .down : .up]
      }
    case .roundsRemaining(let count): return lines.roundsRemaining(count)
    case .countdown(let secondsLeft, _): return lines.number(secondsLeft)
    case .halfway, .segmentHalfway: return lines[.halfway]
    case .lastTenSeconds, .segmentLastTenSeconds: return lines[.tenSeconds]
    case .tempoCount(let count): return lines.number(count)
    case .repComplete: return nil
    case .setComplete: return lines[.setComplete]
    case .sideSwitch: return lines[.sideSwitch]
    case .lap: return lines[.lap]
    case .capReached: return lines[.cap]
    case .finish: return lines.completion(seed: seed)
    }
  }

  /// Which of several cues at one instant takes a channel: the buzzer's order
  /// (``BuzzerPatterns/priority(of:)``), with a rep's or a set's end above the start of the
  /// next segment, so the double and triple ticks are not lost to the next phase's single tick
  /// (the voice of that phase still speaks on its own channel).
  public static func priority(of kind: CueKind) -> Int {
    let base = BuzzerPatterns.priority(of: kind) * 2
    switch kind {
    case .repComplete, .setComplete:
      return 2 * BuzzerPatterns.priority(of: .segmentStart(.work)) + 1
    default: return base
    }
  }

  /// The parts a cue plays, from the bank: its sounds on the effects channel, its line on the
  /// voice channel (after the longest sound for ``SpeakerCueRule/Voice/afterSounds``), at the
  /// cue's volume times the output's. Sounds the bank lacks (a voice that failed to
  /// synthesize) are left out; the rest still plays.
  /// `nextMovement`: the movement that comes after a rest or a count-in starting with this
  /// cue, which its line announces once its voice is in the bank.
  public func parts(
    for kind: CueKind, seed: Int64, lines: SpokenLines, bank: SoundBank,
    nextMovement: String? = nil
  ) -> [SoundSchedule.Part] {
    guard let rule = rule(for: kind) else { return [] }
    var line = voiceLine(for: kind, seed: seed, lines: lines)
    if let plain = line, let movement = nextMovement, announcesNext(kind) {
      let announced = lines.announcing(plain, next: movement)
      if bank.id(of: .voice(announced)) != nil { line = announced }
    }
    return parts(of: rule, line: line, bank: bank)
  }

  /// Whether the cue starts a rest or a count-in, whose line says what comes next.
  private func announcesNext(_ kind: CueKind) -> Bool {
    guard case .segmentStart(let segment) = kind else { return false }
    return segment == .rest || segment == .setRest || segment == .countIn
  }

  /// The sounds every rule may play, for the caller to put in the bank (voices aside: those
  /// are ``SpokenLines/allTexts``).
  public var soundKeys: Set<SoundKey> {
    var keys: Set<SoundKey> = []
    for rule in byCue.values { for sound in rule.sounds { keys.insert(sound.key) } }
    if byCue["segment_start"]?.sounds == Self.standardSegmentSounds {
      keys.formUnion([.generated(.horn), .generated(.bell), .generated(.tick)])
    }
    return keys
  }

  private func parts(of rule: SpeakerCueRule, line: String?, bank: SoundBank)
    -> [SoundSchedule.Part]
  {
    let gain = Self.clamped(rule.volume) * Self.clamped(volume)
    var parts: [SoundSchedule.Part] = []
    var longest: Int64 = 0
    for source in rule.sounds {
      guard let id = bank.id(of: source.key), let clip = bank[id] else { continue }
      longest = max(longest, clip.duration)
      parts.append(SoundSchedule.Part(sound: id, gain: gain, channel: .effects))
    }
    if let voice = rule.voice, let line, let id = bank.id(of: .voice(line)) {
      let offset = voice == .afterSounds ? longest : 0
      parts.append(SoundSchedule.Part(sound: id, offset: offset, gain: gain, channel: .voice))
    }
    return parts
  }

  private static func clamped(_ value: Double) -> Double {
    value.isFinite ? max(0, min(1, value)) : 0
  }
}
