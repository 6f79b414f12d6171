// SPDX-License-Identifier: MIT
// How a plugin kind describes its own config section, so the one diagnostics machinery can
// check it: unknown keys with did-you-mean, wrong types, ranges, defaults for --print-config,
// and hardware resources two plugins must not share.

public import ConfigFormat
public import WorkoutCore

/// A plugin kind's configuration schema. The daemon's catalog lists one per kind.
public struct PluginSchema: Sendable {
  public enum Direction: String, Sendable, Equatable {
    case input
    case output
  }

  /// Kebab-case kind name as written after `type:` (`terminal`, `gpio-button`).
  public var kind: String
  public var direction: Direction
  /// One line for error messages and `--help`.
  public var summary: String
  /// The keys of the section besides `type` and `id`, in the order `--print-config` writes them.
  public var settings: [SettingSpec]
  /// Checks across keys (a line needed when another key is set ...). Runs only when every key
  /// parsed; reports through the same diagnostics.
  public var crossCheck: @Sendable (PluginSettings, inout DiagnosticBag) -> Void
  /// Hardware this instance takes (a GPIO line, a serial device): two instances claiming the
  /// same resource is a config error at the second one.
  public var claims: @Sendable (PluginSettings) -> [ResourceClaim]

  public init(
    kind: String, direction: Direction, summary: String, settings: [SettingSpec],
    crossCheck: @escaping @Sendable (PluginSettings, inout DiagnosticBag) -> Void = { _, _ in },
    claims: @escaping @Sendable (PluginSettings) -> [ResourceClaim] = { _ in [] }
  ) {
    self.kind = kind
    self.direction = direction
    self.summary = summary
    self.settings = settings
    self.crossCheck = crossCheck
    self.claims = claims
  }
}

/// One key of a plugin's section.
public struct SettingSpec: Sendable {
  public var name: String
  public var type: SettingType
  /// The value when the key is absent; nil makes the key required.
  public var defaultValue: SettingValue?
  /// A short comment for `--print-config`.
  public var summary: String

  public init(_ name: String, _ type: SettingType, default defaultValue: SettingValue?, _ summary: String) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.summary = summary
  }
}

/// The type of a plugin setting, which decides how its text is parsed and checked.
public indirect enum SettingType: Sendable {
  case boolean
  case integer(ClosedRange<Int>)
  case duration(ClosedRange<TimeSpan>)
  case percentage
  case string
  /// One of a fixed set of words; anything else gets a did-you-mean.
  case choice([String])
  /// A `#rrggbb` colour or a palette name.
  case color
  /// A list of values of one type (flow `[a, b]` or block).
  case list(SettingType)
  /// A mapping from free keys to values of one type (a key map: `KEY_SPACE: start`).
  case map(SettingType)
  /// A nested section with its own keys.
  case section([SettingSpec])
}

/// A validated setting value. Sections and maps keep the file's order.
public indirect enum SettingValue: Sendable, Equatable, Hashable {
  case boolean(Bool)
  case integer(Int)
  case duration(TimeSpan)
  case percentage(Int)
  case string(String)
  case color(RGBColor)
  case list([SettingValue])
  case map([KeyedSetting])
}

/// One key and value inside a map or section value.
public struct KeyedSetting: Sendable, Equatable, Hashable {
  public var key: String
  public var value: SettingValue
  public init(key: String, value: SettingValue) {
    self.key = key
    self.value = value
  }
}

/// A plugin's settings after validation: every key of its schema present (defaults filled in),
/// each with the location it came from (or the entry's location for a default).
public struct PluginSettings: Sendable, Equatable {
  public var values: [KeyedSetting]
  public var locations: [String: SourceRange]
  public init(values: [KeyedSetting], locations: [String: SourceRange]) {
    self.values = values
    self.locations = locations
  }

  public subscript(key: String) -> SettingValue? { values.first { $0.key == key }?.value }

  public func bool(_ key: String) -> Bool? {
    if case .boolean(let value)? = self[key] { return value }
    return nil
  }
  public func integer(_ key: String) -> Int? {
    if case .integer(let value)? = self[key] { return value }
    return nil
  }
  public func string(_ key: String) -> String? {
    if case .string(let value)? = self[key] { return value }
    return nil
  }
  public func duration(_ key: String) -> TimeSpan? {
    if case .duration(let value)? = self[key] { return value }
    return nil
  }
}

/// A piece of hardware a plugin instance takes for itself.
public struct ResourceClaim: Sendable, Equatable, Hashable {
  /// What kind of thing ("GPIO line", "serial device").
  public var kind: String
  /// Its identity, normalised so two spellings of one resource compare equal.
  public var identity: String
  /// The setting key that names it, for the error location.
  public var key: String
  public init(kind: String, identity: String, key: String) {
    self.kind = kind
    self.identity = identity
    self.key = key
  }
}
