// SPDX-License-Identifier: MIT
// A plugin setting declared once, typed: its key, type, default and summary make the spec the
// loader checks and `--print-config` writes, and the same declaration reads the validated value
// back as a Swift value. A plugin reads `try settings[Self.width]` and gets an Int; it has no
// default of its own that could disagree with the schema's.

public import ConfigFormat
public import WorkoutCore

/// One plugin setting: the spec its schema lists, and how its validated value reads as `Value`.
///
/// Declared once, as a static constant of the plugin, and used both in the schema (`spec`) and
/// where the plugin reads its settings (`settings[setting]`).
public struct Setting<Value>: Sendable {
  /// The key, type, default and summary, as the schema lists them.
  public let spec: SettingSpec
  private let format: SettingFormat<Value>

  /// A setting `name` of `format`; a nil `defaultValue` makes the key required.
  public init(
    _ name: String, _ format: SettingFormat<Value>, default defaultValue: Value?,
    _ summary: String
  ) {
    spec = SettingSpec(name, format.type, default: defaultValue.flatMap(format.write), summary)
    self.format = format
  }

  /// The key, snake_case.
  public var name: String { spec.name }

  /// The value of this setting in `settings`. Settings made by the loader from a schema that
  /// lists this setting always have it; any others may not, and then this throws rather than
  /// guessing a value.
  func read(from settings: PluginSettings) throws(SettingReadError) -> Value {
    guard let value = settings[name] else { throw SettingReadError(key: name, problem: "missing") }
    do throws(SettingReadError) {
      return try format.read(value)
    } catch {
      throw error.within(name)
    }
  }
}

/// How values of one type are checked (`SettingType`), read back, and written as a default.
public struct SettingFormat<Value>: Sendable {
  /// What the loader checks the text against.
  public let type: SettingType
  /// The Swift value of a validated value; throws when the value is of another type.
  let read: @Sendable (SettingValue) throws(SettingReadError) -> Value
  /// The validated value `Value` stands for, as a default; nil where values are not written
  /// back (a section's own value: a list of sections defaults to none).
  let write: @Sendable (Value) -> SettingValue?
}

/// A setting read from settings that do not have it, or have a value of another type: settings
/// not made by the loader from the schema the setting belongs to.
public struct SettingReadError: Error, Equatable, CustomStringConvertible {
  /// The key, inside the sections and lists around it: `buttons[1].line`.
  public var key: String
  /// What is wrong with it: "missing", "not a whole number" ...
  public var problem: String

  /// The problem of the setting `key`.
  public init(key: String, problem: String) {
    self.key = key
    self.problem = problem
  }

  /// A problem of a value, before the key it stands under is known.
  init(problem: String) {
    self.init(key: "", problem: problem)
  }

  /// The same problem, seen from the setting or list `outer` that holds this one.
  func within(_ outer: String) -> SettingReadError {
    let path = key.isEmpty ? outer : key.hasPrefix("[") ? outer + key : outer + "." + key
    return SettingReadError(key: path, problem: problem)
  }

  public var description: String {
    "setting '\(key)' is \(problem): the settings do not match the plugin's schema"
  }
}

extension PluginSettings {
  /// The value of `setting`, typed. Throws only when these settings were not made by the loader
  /// from a schema that lists `setting`.
  public subscript<Value>(setting: Setting<Value>) -> Value {
    get throws(SettingReadError) { try setting.read(from: self) }
  }

  /// Where the value of `setting` stands in the file (the entry, for a default).
  public func location<Value>(of setting: Setting<Value>) -> SourceRange? {
    locations[setting.name]
  }

  /// Where the entry `key` of the map `setting` stands in the file, when it is written there.
  public func location<Value>(of setting: Setting<Value>, key: String) -> EntryLocation? {
    entryLocations[setting.name]?[key]
  }

  /// Where the entry or item that names a control stands, or else its setting.
  public func location(of reference: ControlReference) -> SourceRange? {
    if let entry = reference.entry, let found = entryLocations[reference.key]?[entry] {
      return found.value
    }
    if let item = reference.item, let found = itemLocation(item, of: reference.key) {
      return found
    }
    return locations[reference.key]
  }

  /// Where item `index` of the list `setting` stands in the file, when it is written as a list.
  public func location<Value>(of setting: Setting<Value>, item index: Int) -> SourceRange? {
    itemLocation(index, of: setting.name)
  }

  private func itemLocation(_ index: Int, of key: String) -> SourceRange? {
    guard let items = itemLocations[key], items.indices.contains(index) else { return nil }
    return items[index]
  }
}

// MARK: Formats

extension SettingFormat {
  /// A format reading `extract` out of a value, whose failure reads as "not `noun`".
  fileprivate init(
    _ type: SettingType, _ noun: String, extract: @escaping @Sendable (SettingValue) -> Value?,
    write: @escaping @Sendable (Value) -> SettingValue?
  ) {
    self.type = type
    read = { value throws(SettingReadError) in
      guard let typed = extract(value) else { throw SettingReadError(problem: "not \(noun)") }
      return typed
    }
    self.write = write
  }
}

extension SettingFormat where Value == Bool {
  /// `true` or `false`.
  public static var boolean: Self {
    Self(
      .boolean, "true or false",
      extract: { value in
        if case .boolean(let flag) = value { return flag }
        return nil
      }, write: { .boolean($0) })
  }
}

extension SettingFormat where Value == Int {
  /// A whole number in `range`.
  public static func integer(_ range: ClosedRange<Int>) -> Self {
    Self(
      .integer(range), "a whole number",
      extract: { value in
        if case .integer(let number) = value { return number }
        return nil
      }, write: { .integer($0) })
  }

  /// A whole percentage, `0%` to `100%`, read as 0 to 100.
  public static var percentage: Self {
    Self(
      .percentage, "a percentage",
      extract: { value in
        if case .percentage(let percent) = value { return percent }
        return nil
      }, write: { .percentage($0) })
  }
}

extension SettingFormat where Value == TimeSpan {
  /// A duration (`20s`, `500ms`, `1:30`) in `range`.
  public static func duration(_ range: ClosedRange<TimeSpan>) -> Self {
    Self(
      .duration(range), "a duration",
      extract: { value in
        if case .duration(let span) = value { return span }
        return nil
      }, write: { .duration($0) })
  }
}

extension SettingFormat where Value == String {
  /// Any text.
  public static var string: Self {
    Self(
      .string, "text",
      extract: { value in
        if case .string(let text) = value { return text }
        return nil
      }, write: { .string($0) })
  }
}

extension SettingFormat where Value == RGBColor {
  /// A `#rrggbb` colour or a palette name, read as the colour (a name already resolved).
  public static var color: Self {
    Self(
      .color, "a colour",
      extract: { value in
        if case .color(let color) = value { return color }
        return nil
      }, write: { .color($0) })
  }
}

extension SettingFormat where Value: Equatable & Sendable {
  /// One of the words, read as the value beside it; anything else gets a did-you-mean. The
  /// words are listed in this order in messages.
  public static func choice(among words: [(word: String, value: Value)]) -> Self {
    Self(
      .choice(words.map(\.word)), "one of the words of the choice",
      extract: { value in
        guard case .string(let text) = value else { return nil }
        return words.first { $0.word == text }?.value
      }, write: { value in words.first { $0.value == value }.map { .string($0.word) } })
  }
}

extension SettingFormat
where
  Value: RawRepresentable & Equatable & Sendable,
  Value.RawValue == String
{
  /// One of `cases`, written as its raw value.
  public static func choice(among cases: [Value]) -> Self {
    choice(among: cases.map { (word: $0.rawValue, value: $0) })
  }
}

extension SettingFormat {
  /// A list of values of `element`'s format (flow `[a, b]` or block).
  public static func list<Element>(_ element: SettingFormat<Element>) -> Self
  where Value == [Element] {
    Self(
      type: .list(element.type),
      read: { value throws(SettingReadError) in try items(value, element) },
      write: { values in writeItems(values, element) })
  }

  /// One value or a list of them (`150ms` or `[200ms, 100ms]`), read as a list either way.
  public static func oneOrList<Element>(_ element: SettingFormat<Element>) -> Self
  where Value == [Element] {
    Self(
      type: .oneOrList(element.type),
      read: { value throws(SettingReadError) in try items(value, element) },
      write: { values in writeItems(values, element) })
  }

  /// A mapping from free keys to values of `element`'s format, in the file's order.
  public static func map<Element>(_ element: SettingFormat<Element>) -> Self
  where Value == [(key: String, value: Element)] {
    Self(
      type: .map(element.type),
      read: { value throws(SettingReadError) in
        guard case .map(let entries) = value else {
          throw SettingReadError(problem: "not a mapping")
        }
        var values: [(key: String, value: Element)] = []
        for entry in entries {
          do throws(SettingReadError) {
            values.append((entry.key, try element.read(entry.value)))
          } catch {
            throw error.within(entry.key)
          }
        }
        return values
      },
      write: { values in
        var entries: [KeyedSetting] = []
        for (key, value) in values {
          guard let written = element.write(value) else { return nil }
          entries.append(KeyedSetting(key: key, value: written))
        }
        return .map(entries)
      })
  }

  /// A nested section with its own keys, `settings`, read by `read` from the section's values
  /// (every key of `settings` present, defaults filled in, without locations).
  /// `write`, when given, writes a value back as the section's keys, so the section can have a
  /// default (a section of switches that is off unless written).
  public static func section(
    _ settings: [SettingSpec],
    read: @escaping @Sendable (PluginSettings) throws(SettingReadError) -> Value,
    write: @escaping @Sendable (Value) -> [KeyedSetting]? = { _ in nil }
  ) -> Self {
    Self(
      type: .section(settings),
      read: { value throws(SettingReadError) in
        guard case .map(let entries) = value else {
          throw SettingReadError(problem: "not a section")
        }
        return try read(PluginSettings(values: entries, locations: [:]))
      }, write: { value in write(value).map(SettingValue.map) })
  }

  private static func items<Element>(_ value: SettingValue, _ element: SettingFormat<Element>)
    throws(SettingReadError) -> [Element]
  {
    guard case .list(let items) = value else { throw SettingReadError(problem: "not a list") }
    var values: [Element] = []
    for (index, item) in items.enumerated() {
      do throws(SettingReadError) {
        values.append(try element.read(item))
      } catch {
        throw error.within("[\(index)]")
      }
    }
    return values
  }

  private static func writeItems<Element>(_ values: [Element], _ element: SettingFormat<Element>)
    -> SettingValue?
  {
    var items: [SettingValue] = []
    for value in values {
      guard let written = element.write(value) else { return nil }
      items.append(written)
    }
    return .list(items)
  }
}
