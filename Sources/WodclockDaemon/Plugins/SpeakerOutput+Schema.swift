// SPDX-License-Identifier: MIT
// The `speaker` output's settings: the device, the volume, what each cue plays (the buzzer's
// pattern vocabulary, the generated sounds, the owner's WAV files, the voice), the spoken lines,
// quiet hours and ducking; checked by --check-config down to the WAV files' contents.

import ConfigFormat
import Configuration
import HardwareKit
import SoundKit
import SounderKit
import WorkoutCore

extension SpeakerOutput {
  static let device = Setting(
    "device", .string, default: "default",
    "an ALSA device: default, hw:1,0, plughw:CARD=Device (`aplay -L` lists them)")
  static let volume = Setting(
    "volume", .percentage, default: 100, "the output's volume; each cue's is a share of it")
  static let voice = Setting(
    "voice", .boolean, default: true,
    "speak the cues (espeak-ng), in the display language; false plays the sounds only")
  static let cues = Setting(
    "cues", .map(.oneOrList(.string)), default: [],
    "per cue, what it plays instead of the standard: sounds (beep, double_beep, horn, bell, "
      + "tick, double_tick, triple_tick, a name from 'sounds'), voice, voice_after; [] silences")
  static let patterns = Setting(
    "patterns", .map(.oneOrList(.duration(GPIOBuzzerOutput.durationRange))), default: [],
    "per cue, on/off/on... durations played as beeps, as a gpio-buzzer's patterns")
  static let volumes = Setting(
    "volumes", .map(.percentage), default: [], "per cue, its volume (countdown: 60%)")
  static let sounds = Setting(
    "sounds", .map(.string), default: [],
    "the owner's WAV files by name (airhorn: airhorn.wav), relative to this file's directory")
  static let lines = Setting(
    "lines", .map(.string), default: [],
    "spoken lines replacing the language's (get_ready: \"Get set\")")
  static let quietHours = Setting(
    "quiet_hours", .list(.string), default: [],
    "times of day it stays silent, such as [\"21:00-07:00\"]")
  static let buffer = Setting(
    "buffer", .duration(.milliseconds(10)...(.milliseconds(100))), default: .milliseconds(20),
    "the device's buffer: the sound's latency, which the cues are written ahead by")
  static let duckControl = Setting(
    "control", .string, default: "",
    "the mixer control the music plays through (Master, PCM); empty: no ducking")
  static let duckBy = Setting("by", .percentage, default: 60, "how much it is lowered")
  static let duck = Setting(
    "duck", .section([duckControl.spec, duckBy.spec], read: Ducking.init(section:), write: \.keys),
    default: Ducking(control: "", by: 60),
    "lower the music's mixer control around each cue: {control: Master, by: 60%}")

  /// The word of a cue's list that adds the voice with the sounds, and after them.
  static let voiceWord = "voice"
  static let voiceAfterWord = "voice_after"

  public static let schema = PluginSchema(
    kind: kindName, direction: .output,
    summary: "a speaker through ALSA (jack, HDMI, USB): the cues as sounds and a voice",
    settings: [
      device.spec, volume.spec, voice.spec, cues.spec, patterns.spec, volumes.spec, sounds.spec,
      lines.spec, quietHours.spec, buffer.spec, duck.spec,
    ],
    crossCheck: crossCheck,
    claims: { settings in
      [ResourceClaim(kind: "sound device", identity: try settings[device], key: device.name)]
    })

  static func crossCheck(_ settings: PluginSettings, _ bag: inout DiagnosticBag) throws {
    if try settings[device].isEmpty {
      bag.error(
        "'device' is empty", at: settings.range(of: device),
        hint: "write default, or a card such as hw:1,0 (`aplay -L` lists the names)")
    }
    let fileNames = try settings[sounds].map(\.key)
    let words = GeneratedSound.allCases.map(\.rawValue) + fileNames + [voiceWord, voiceAfterWord]
    let cueNames = SpeakerCueRules.allNames
    func checkCue(_ cue: String, in setting: Setting<some Any>) -> Bool {
      guard !cueNames.contains(cue) else { return true }
      bag.error(
        "unknown cue '\(cue)' in '\(setting.name)'", at: settings.range(of: setting, key: cue),
        hint: closestMatch(to: cue, among: cueNames).map { "did you mean '\($0)'?" }
          ?? "cues: " + cueNames.joined(separator: ", "))
      return false
    }
    for (cue, items) in try settings[cues] where checkCue(cue, in: cues) {
      for (index, word) in items.enumerated() where !words.contains(word) {
        bag.error(
          "unknown sound '\(word)' for cue '\(cue)'",
          at: settings.range(of: cues, valueOf: cue, item: index),
          hint: closestMatch(to: word, among: words).map { "did you mean '\($0)'?" }
            ?? "write one of " + words.joined(separator: ", ")
            + ", or name a WAV file under 'sounds'")
      }
      if items.contains(voiceWord) && items.contains(voiceAfterWord) {
        bag.error(
          "cue '\(cue)' has both '\(voiceWord)' and '\(voiceAfterWord)'",
          at: settings.range(of: cues, valueOf: cue),
          hint: "the voice speaks once: keep one of them")
      }
    }
    for (cue, _) in try settings[patterns] {
      _ = checkCue(cue, in: patterns)
    }
    for (cue, _) in try settings[volumes] {
      _ = checkCue(cue, in: volumes)
    }
    let lineKeys = LineKey.allCases.map(\.rawValue)
    for (key, _) in try settings[lines] where LineKey(rawValue: key) == nil {
      bag.error(
        "unknown line '\(key)' in 'lines'", at: settings.range(of: lines, key: key),
        hint: closestMatch(to: key, among: lineKeys).map { "did you mean '\($0)'?" }
          ?? "lines: " + lineKeys.joined(separator: ", "))
    }
    for (name, _) in try settings[sounds] where GeneratedSound(rawValue: name) != nil {
      bag.error(
        "the sound name '\(name)' is one of the built-in sounds",
        at: settings.range(of: sounds, key: name),
        hint: "give the file another name (the built-in '\(name)' stays as it is)")
    }
    for file in try soundFiles(in: settings) {
      if case .failure(let problem) = SoundFile.load(file) {
        bag.error(
          problem.message, at: settings.range(of: sounds, valueOf: file.name), hint: problem.hint)
      }
    }
    for (index, window) in try settings[quietHours].enumerated()
    where QuietHours.Window(parsing: window) == nil {
      bag.error(
        "invalid quiet hours '\(window)'", at: settings.range(of: quietHours, item: index),
        hint: "write a time-of-day range such as \"21:00-07:00\"")
    }
  }

  /// The WAV files the settings name, with their paths.
  static func soundFiles(in settings: PluginSettings) throws -> [SoundFile] {
    let configFile = settings.location(of: sounds)?.start.file ?? ""
    return try settings[sounds].map { name, setting in
      SoundFile(
        name: name, setting: setting,
        path: ConfigFilePath.resolve(setting, besideConfig: configFile))
    }
  }

  /// What each cue plays, from the standard rules and the settings.
  static func rules(in settings: PluginSettings) throws -> SpeakerCueRules {
    var overrides: [String: SpeakerCueRule] = [:]
    let standard = SpeakerCueRules.standard
    func base(_ cue: String) -> SpeakerCueRule {
      overrides[cue] ?? standard.byCue[cue] ?? SpeakerCueRule()
    }
    for (cue, items) in try settings[cues] {
      var rule = SpeakerCueRule(volume: base(cue).volume)
      for word in items {
        if word == voiceWord {
          rule.voice = .withSounds
        } else if word == voiceAfterWord {
          rule.voice = .afterSounds
        } else if let generated = GeneratedSound(rawValue: word) {
          rule.sounds.append(.generated(generated))
        } else {
          rule.sounds.append(.file(word))
        }
      }
      overrides[cue] = rule
    }
    // A pattern is the cue's sound as beeps; the voice stays as it was.
    for (cue, pattern) in try settings[patterns] {
      var rule = base(cue)
      rule.sounds = pattern.isEmpty ? [] : [.beeps(pattern.map(\.nanoseconds))]
      overrides[cue] = rule
    }
    for (cue, percent) in try settings[volumes] {
      var rule = base(cue)
      rule.volume = Double(percent) / 100
      overrides[cue] = rule
    }
    if !(try settings[voice]) {
      for cue in SpeakerCueRules.allNames {
        var rule = base(cue)
        rule.voice = nil
        overrides[cue] = rule
      }
    }
    var rules = SpeakerCueRules.standard(overriding: overrides)
    rules.volume = Double(try settings[volume]) / 100
    return rules
  }
}

/// Lowering the music around the cues: a mixer control of the speaker's card, by a share.
struct Ducking: Equatable, Sendable {
  var control: String
  var by: Int

  init(control: String, by: Int) {
    self.control = control
    self.by = by
  }

  init(section: PluginSettings) throws(SettingReadError) {
    control = try section[SpeakerOutput.duckControl]
    by = try section[SpeakerOutput.duckBy]
  }

  /// The section's keys, for the default --print-config writes.
  var keys: [KeyedSetting]? {
    [
      KeyedSetting(key: SpeakerOutput.duckControl.name, value: .string(control)),
      KeyedSetting(key: SpeakerOutput.duckBy.name, value: .percentage(by)),
    ]
  }

  /// The control's volume while a cue plays, from its volume `level` in `range`.
  func lowered(_ level: Int, in range: ClosedRange<Int>) -> Int {
    let share = max(0, min(100, by))
    let above = level - range.lowerBound
    return range.lowerBound + above * (100 - share) / 100
  }
}

/// An owner's WAV file: its name in the config and where it is read from.
struct SoundFile: Equatable, Sendable {
  var name: String
  var setting: String
  var path: String

  /// A WAV file is at most this large before it is decoded (10 s of 192 kHz 32-bit stereo is
  /// 15 MB; an air horn is a few hundred KB).
  static let maximumFileSize = 16 << 20

  /// Reads and decodes the file.
  static func load(_ file: SoundFile) -> Result<PCMClip, SoundFileProblem> {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.readFile(file.path, maximumCount: maximumFileSize)
    } catch {
      let hint: String? =
        switch error.errno {
        case .noSuchFile:
          file.setting.hasPrefix("/")
            ? "put the WAV file there (/etc/wodclock/sounds/ is a good place)"
            : "a relative path is read from the config file's directory; put the file there, "
              + "or write its absolute path"
        case .permissionDenied: "the daemon runs as the user wodclock: make the file readable"
        case .fileTooLarge: "a cue's sound is at most 10 s; trim the file"
        default: nil
        }
      return .failure(
        SoundFileProblem(
          message: "cannot read the sound '\(file.name)' (\(file.path)): "
            + "\(error.errno.message.lowercased()) (\(error.errno.name))", hint: hint))
    }
    do throws(WAVError) {
      return .success(try WAVFile.decode(bytes))
    } catch {
      return .failure(
        SoundFileProblem(
          message: "the sound '\(file.name)' (\(file.path)) is not a usable WAV file: "
            + error.description, hint: error.hint))
    }
  }
}

/// Why a sound file cannot be played, as --check-config and the log say it.
struct SoundFileProblem: Error, Equatable {
  var message: String
  var hint: String?
}
