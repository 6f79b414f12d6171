// SPDX-License-Identifier: MIT
// The heats section: how a throwdown's heats and a class's lanes are run and shown.
//
//   heats:
//     lanes: 8               # numbered lanes when no heat sheet is loaded
//     transition: 2m         # the call-up's countdown before a heat's start
//     time_format: tenths    # a finish as 7:42.3; `seconds`: 7:42
//     speak_finishes: true   # the speaker says "lane three, seven forty-two"
//     cap_rep_seconds: false # a capped athlete's score: the cap plus a second per missing rep
//     total_reps: 165        # the workout's reps, which cap_rep_seconds counts the missing from

import ConfigFormat
import WorkoutCore

/// How heats and lanes are run (`heats:`); the defaults are those of an absent section.
public struct HeatsSettings: Sendable, Equatable {
  /// How a finish is shown.
  public enum TimeFormat: String, Sendable, Equatable, CaseIterable {
    /// `7:42`.
    case seconds
    /// `7:42.3`.
    case tenths
  }

  /// Lanes numbered 1 to this when no heat sheet is loaded.
  public var lanes = 8
  /// The call-up's countdown between heats, before the shared start.
  public var transition = TimeSpan.minutes(2)
  public var timeFormat = TimeFormat.tenths
  /// Whether the speaker says each lane's finish.
  public var speakFinishes = true
  /// Whether a capped athlete scores the cap plus a second per missing rep (the event's rule)
  /// rather than `CAP+12` ranked by reps.
  public var capRepSeconds = false
  /// The event workout's reps, from which a capped athlete's missing reps are counted.
  public var totalReps: Int?

  public init() {}
}

/// The bounds of the heats section.
public enum HeatsLimits {
  public static let lanes = 1...64
  public static let transition = TimeSpan.seconds(10)...TimeSpan.minutes(30)
  public static let totalReps = 1...100_000
}

extension Loader {
  static let heatsKeys = [
    "lanes", "transition", "time_format", "speak_finishes", "cap_rep_seconds", "total_reps",
  ]

  mutating func readHeats(_ node: ConfigNode?) -> HeatsSettings {
    var settings = HeatsSettings()
    guard let node,
      let mapping = checker.mapping(
        node, what: "'heats'", hint: "write 'lanes: 8' and 'transition: 2m' indented below it")
    else { return settings }
    for entry in checker.checkKeys(mapping, allowed: Self.heatsKeys, context: "in 'heats'") {
      let key = entry.key.text
      switch key {
      case "lanes":
        if let value = checker.integer(entry.value, key: key, in: HeatsLimits.lanes) {
          settings.lanes = value
        }
      case "transition":
        if let value = checker.duration(entry.value, key: key, in: HeatsLimits.transition) {
          settings.transition = value
        }
      case "time_format":
        if let value = checker.choice(
          entry.value, key: key, among: HeatsSettings.TimeFormat.allCases.map(\.rawValue)),
          let format = HeatsSettings.TimeFormat(rawValue: value)
        {
          settings.timeFormat = format
        }
      case "speak_finishes":
        if let value = checker.boolean(entry.value, key: key) { settings.speakFinishes = value }
      case "cap_rep_seconds":
        if let value = checker.boolean(entry.value, key: key) { settings.capRepSeconds = value }
      case "total_reps":
        if let value = checker.integer(entry.value, key: key, in: HeatsLimits.totalReps) {
          settings.totalReps = value
        }
      default:
        break
      }
    }
    if settings.capRepSeconds, settings.totalReps == nil,
      let entry = mapping.entry(forKey: "cap_rep_seconds")
    {
      checker.error(
        "'cap_rep_seconds' needs 'total_reps': the workout's reps, from which a capped "
          + "athlete's missing reps are counted", at: entry.value.range,
        hint: "add 'total_reps: 165' (the workout's reps) below it, or write "
          + "'cap_rep_seconds: false' to rank capped athletes by reps done (CAP+12)")
    }
    return settings
  }
}
