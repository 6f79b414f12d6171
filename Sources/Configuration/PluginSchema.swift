// SPDX-License-Identifier: MIT
// How a plugin kind describes its own config section, so the one diagnostics machinery can
// check it: unknown keys with did-you-mean, wrong types, ranges, defaults for --print-config,
// and hardware resources two plugins must not share.

public import ConfigFormat
public import WorkoutCore

/// A plugin kind's configuration schema. The daemon's catalog lists one per kind.
public struct PluginSchema: Sendable {
  /// Whether the kind is listed under `inputs:` or `outputs:`.
  public enum Direction: String, Sendable, Equatable {
    /// Buttons, keys, remotes: listed under `inputs:`.
    case input
    /// Displays, horns, logs: listed under `outputs:`.
    case output
  }

  /// Kebab-case kind name as written after `type:` (`terminal`, `gpio-button`).
  public var kind: String
  /// Input or output.
  public var direction: Direction
  /// One line for error messages and `--help`.
  public var summary: String
  /// The keys of the section besides `type` and `id`, in the order `--print-config` writes them:
  /// the `spec` of each `Setting` the kind declares and reads.
  public var settings: [SettingSpec]
  /// Checks across keys (a line needed when another key is set ...). Runs only when every key
  /// parsed; reports through the same diagnostics. Like `claims` and `controls` it reads the
  /// settings typed, which throws only if it reads a setting the schema does not list.
  public var crossCheck: @Sendable (PluginSettings, inout DiagnosticBag) throws -> Void
  /// Hardware this instance takes (a GPIO line, a serial device): two instances claiming the
  /// same resource is a config error at the second one.
  public var claims: @Sendable (PluginSettings) throws -> [ResourceClaim]
  /// The control names this instance operates (a button's `control:`): each must be defined in
  /// `controls:`, or the button would do nothing.
  public var controls: @Sendable (PluginSettings) throws -> [ControlReference]

  /// Creates a schema; without `crossCheck` and `claims` the kind has no checks across keys and
  /// takes no hardware for itself.
  public init(
    kind: String, direction: Direction, summary: String, settings: [SettingSpec],
    crossCheck:
      @escaping @Sendable (PluginSettings, inout DiagnosticBag) throws -> Void = { _, _ in },
    claims: @escaping @Sendable (PluginSettings) throws -> [ResourceClaim] = { _ in [] },
    controls: @escaping @Sendable (PluginSettings) throws -> [ControlReference] = { _ in [] }
  ) {
    self.kind = kind
    self.direction = direction
    self.summary = summary
    self.settings = settings
    self.crossCheck = crossCheck
    self.claims = claims
    self.controls = controls
  }
}

/// One key of a plugin's section.
public struct SettingSpec: Sendable {
  /// The key, snake_case.
  public var name: String
  /// How the value is read and checked.
  public var type: SettingType
  /// The value when the key is absent; nil makes the key required.
  public var defaultValue: SettingValue?
  /// A short comment for `--print-config`.
  public var summary: String

  /// Creates a setting; a nil `defaultValue` makes the key required.
  public init(
    _ name: String, _ type: SettingType, default defaultValue: SettingValue?, _ summary: String
  ) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.summary = summary
  }
}

/// The type of a plugin setting, which decides how its text is parsed and checked.
public indirect enum SettingType: Sendable {
  /// `true` or `false`.
  case boolean
  /// A whole number in the range.
  case integer(ClosedRange<Int>)
  /// A duration (`20s`, `500ms`, `1:30`) in the range.
  case duration(ClosedRange<TimeSpan>)
  /// A whole percentage, `0%` to `100%`.
  case percentage
  /// Any text.
  case string
  /// One of a fixed set of words; anything else gets a did-you-mean.
  case choice([String])
  /// A `#rrggbb` colour or a palette name.
  case color
  /// A list of values of one type (flow `[a, b]` or block).
  case list(SettingType)
  /// One value or a list of them (`150ms` or `[200ms, 100ms, 200ms]`); always read as a list.
  case oneOrList(SettingType)
  /// A mapping from free keys to values of one type (a key map: `KEY_SPACE: start`).
  case map(SettingType)
  /// A nested section with its own keys.
  case section([SettingSpec])
}

/// A validated setting value. Sections and maps keep the file's order.
public indirect enum SettingValue: Sendable, Equatable, Hashable {
  /// Of a `.boolean` setting.
  case boolean(Bool)
  /// Of an `.integer` setting.
  case integer(Int)
  /// Of a `.duration` setting.
  case duration(TimeSpan)
  /// Of a `.percentage` setting, 0–100.
  case percentage(Int)
  /// Of a `.string` or `.choice` setting.
  case string(String)
  /// Of a `.color` setting, a palette name already resolved.
  case color(RGBColor)
  /// Of a `.list` setting.
  case list([SettingValue])
  /// Of a `.map` or `.section` setting; a section has every key of its specs.
  case map([KeyedSetting])
}

/// One key and value inside a map or section value.
public struct KeyedSetting: Sendable, Equatable, Hashable {
  /// The key as written.
  public var key: String
  /// Its value.
  public var value: SettingValue
  /// Creates a pair.
  public init(key: String, value: SettingValue) {
    self.key = key
    self.value = value
  }
}

/// Where one entry of a map setting stands in the file.
public struct EntryLocation: Sendable, Equatable {
  /// The key.
  public var key: SourceRange
  /// The value.
  public var value: SourceRange
  /// The items of the value, when it is written as a list.
  public var items: [SourceRange]
  /// Creates a location.
  public init(key: SourceRange, value: SourceRange, items: [SourceRange] = []) {
    self.key = key
    self.value = value
    self.items = items
  }

  /// Where item `index` of the value stands, or the value when it is not a list that long.
  public func item(_ index: Int) -> SourceRange {
    items.indices.contains(index) ? items[index] : value
  }
}

/// A plugin's settings after validation: every key of its schema present (defaults filled in),
/// each with the location it came from (or the entry's location for a default).
public struct PluginSettings: Sendable, Equatable {
  /// Every key of the schema, in the schema's order.
  public var values: [KeyedSetting]
  /// Where each top-level key's value stands: its value node, or the whole entry for a default.
  public var locations: [String: SourceRange]
  /// Where each entry of a map setting written in the file stands, by setting and then key, so
  /// that a problem with one entry points at that entry.
  public var entryLocations: [String: [String: EntryLocation]]
  /// Where each item of a list setting written as a list stands, by setting.
  public var itemLocations: [String: [SourceRange]]
  /// Creates settings.
  public init(
    values: [KeyedSetting], locations: [String: SourceRange],
    entryLocations: [String: [String: EntryLocation]] = [:],
    itemLocations: [String: [SourceRange]] = [:]
  ) {
    self.values = values
    self.locations = locations
    self.entryLocations = entryLocations
    self.itemLocations = itemLocations
  }

  /// The value of `key`, if the schema has it. Plugins read their settings typed, through the
  /// `Setting` that declares each (`settings[Self.width]`); this is for the loader and printer.
  public subscript(key: String) -> SettingValue? { values.first { $0.key == key }?.value }
}

/// A piece of hardware a plugin instance takes for itself.
public struct ResourceClaim: Sendable, Equatable, Hashable {
  /// What kind of thing ("GPIO line", "serial device").
  public var kind: String
  /// Its identity, normalised so two spellings of one resource compare equal.
  public var identity: String
  /// The setting key that names it, for the error location.
  public var key: String
  /// Creates a claim.
  public init(kind: String, identity: String, key: String) {
    self.kind = kind
    self.identity = identity
    self.key = key
  }
}

/// A control name a plugin instance uses, and the setting key that names it.
public struct ControlReference: Sendable, Equatable, Hashable {
  public var name: String
  /// The setting key, for the error location.
  public var key: String
  /// Where in that setting, for the error location: the entry of a map setting, or the item of
  /// a list setting, that names the control.
  public var entry: String?
  public var item: Int?
  public init(name: String, key: String, entry: String? = nil, item: Int? = nil) {
    self.name = name
    self.key = key
    self.entry = entry
    self.item = item
  }
}
