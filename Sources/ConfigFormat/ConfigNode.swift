// SPDX-License-Identifier: MIT

/// How a scalar was written. The schema layer may care: `"1:30"` quoted is clearly text.
public enum ScalarStyle: Sendable, Equatable, Hashable {
  /// Unquoted text (YAML 1.2 §7.3.3), including the empty value of `key:`.
  case plain
  /// `'text'`, where `''` stands for one quote (YAML 1.2 §7.3.2).
  case singleQuoted
  /// `"text"`, with backslash escapes (YAML 1.2 §7.3.1).
  case doubleQuoted
}

/// Whether a collection was written in block (indented) or flow (`[...]`, `{...}`) style.
public enum CollectionStyle: Sendable, Equatable, Hashable {
  /// Indentation-based: `- item` lines or `key: value` lines (YAML 1.2 §8.2).
  case block
  /// Bracketed: `[a, b]` or `{a: 1}` (YAML 1.2 §7.4).
  case flow
}

/// A scalar: its decoded text, how it was quoted, and where it sits in the file.
public struct Scalar: Sendable, Equatable, Hashable {
  /// The text after unquoting, escape decoding and line folding.
  public var text: String
  /// How the scalar was written.
  public var style: ScalarStyle
  /// Where the scalar sits, quotes included.
  public var range: SourceRange

  /// Creates a scalar.
  public init(text: String, style: ScalarStyle, range: SourceRange) {
    self.text = text
    self.style = style
    self.range = range
  }

  /// The position of the scalar's first character (the opening quote when quoted).
  public var location: SourceLocation { range.start }

  /// True for a value left out entirely (`key:` or `-` with nothing after it).
  ///
  /// Only an absent value produces an unquoted empty text; `""` is double-quoted.
  public var isEmptyValue: Bool { style == .plain && text.isEmpty }

  /// True when the YAML 1.2 core schema reads this scalar as null (§10.3.2): an empty value or
  /// the plain words `~`, `null`, `Null` and `NULL`.
  public var isNull: Bool {
    guard style == .plain else { return false }
    switch text {
    case "", "~", "null", "Null", "NULL": return true
    default: return false
    }
  }
}

/// One `key: value` pair of a mapping. Keys are always scalars in this subset.
public struct MappingEntry: Sendable, Equatable {
  /// The key, as written.
  public var key: Scalar
  /// The value; an absent value is an empty plain scalar (see `Scalar.isEmptyValue`).
  public var value: ConfigNode

  /// Creates an entry.
  public init(key: Scalar, value: ConfigNode) {
    self.key = key
    self.value = value
  }
}

/// A mapping, with its entries in file order. Keys are unique: the parser rejects duplicates.
public struct ConfigMapping: Sendable, Equatable {
  /// The entries in the order they appear in the file.
  public var entries: [MappingEntry]
  /// Block or flow style.
  public var style: CollectionStyle
  /// From the first key (or the `{`) to the end of the last value (or the `}`).
  public var range: SourceRange
  /// True when a syntax error inside the mapping (in it or in a value nested in it) may have
  /// cost it entries, so a key that seems to be missing may only be unreadable.
  public var isIncomplete: Bool

  /// Creates a mapping.
  public init(
    entries: [MappingEntry], style: CollectionStyle, range: SourceRange, isIncomplete: Bool = false
  ) {
    self.entries = entries
    self.style = style
    self.range = range
    self.isIncomplete = isIncomplete
  }

  /// The keys' texts, in file order.
  public var keys: [String] { entries.map(\.key.text) }

  /// The entry whose key text is `key`, if any.
  public func entry(forKey key: String) -> MappingEntry? {
    entries.first { $0.key.text == key }
  }

  /// The value stored under `key`, if any.
  public subscript(key: String) -> ConfigNode? { entry(forKey: key)?.value }
}

/// A sequence, with its items in file order.
public struct ConfigSequence: Sendable, Equatable {
  /// The items in file order.
  public var items: [ConfigNode]
  /// Block or flow style.
  public var style: CollectionStyle
  /// From the first `-` (or the `[`) to the end of the last item (or the `]`).
  public var range: SourceRange
  /// True when a syntax error inside the sequence may have cost it items.
  public var isIncomplete: Bool

  /// Creates a sequence.
  public init(
    items: [ConfigNode], style: CollectionStyle, range: SourceRange, isIncomplete: Bool = false
  ) {
    self.items = items
    self.style = style
    self.range = range
    self.isIncomplete = isIncomplete
  }
}

/// A node of the configuration tree: a scalar, a mapping or a sequence.
public enum ConfigNode: Sendable, Equatable {
  /// Text, quoted or not.
  case scalar(Scalar)
  /// `key: value` pairs.
  case mapping(ConfigMapping)
  /// A list.
  case sequence(ConfigSequence)

  /// Where the node sits in the file.
  public var range: SourceRange {
    switch self {
    case .scalar(let scalar): return scalar.range
    case .mapping(let mapping): return mapping.range
    case .sequence(let sequence): return sequence.range
    }
  }

  /// The node's first character.
  public var location: SourceLocation { range.start }

  /// The scalar, when the node is one.
  public var scalar: Scalar? {
    if case .scalar(let scalar) = self { return scalar }
    return nil
  }

  /// The scalar's text, when the node is a scalar.
  public var scalarText: String? { scalar?.text }

  /// The mapping, when the node is one.
  public var mapping: ConfigMapping? {
    if case .mapping(let mapping) = self { return mapping }
    return nil
  }

  /// The mapping's entries in file order, when the node is a mapping.
  public var mappingEntries: [MappingEntry]? { mapping?.entries }

  /// The sequence, when the node is one.
  public var sequence: ConfigSequence? {
    if case .sequence(let sequence) = self { return sequence }
    return nil
  }

  /// The sequence's items, when the node is a sequence.
  public var sequenceItems: [ConfigNode]? { sequence?.items }

  /// True for an absent value (`key:` with nothing after it).
  public var isEmptyValue: Bool { scalar?.isEmptyValue ?? false }

  /// True for a collection a syntax error may have cost part of its content.
  public var isIncomplete: Bool {
    switch self {
    case .scalar: return false
    case .mapping(let mapping): return mapping.isIncomplete
    case .sequence(let sequence): return sequence.isIncomplete
    }
  }

  /// The value under `key` when the node is a mapping holding that key.
  public subscript(key: String) -> ConfigNode? { mapping?[key] }

  /// The item at `index` when the node is a sequence long enough.
  public subscript(index: Int) -> ConfigNode? {
    guard let items = sequenceItems, items.indices.contains(index) else { return nil }
    return items[index]
  }

  /// "mapping", "sequence" or "scalar", for messages such as "expected a mapping, found a
  /// sequence".
  public var kindName: String {
    switch self {
    case .scalar: return "scalar"
    case .mapping: return "mapping"
    case .sequence: return "sequence"
    }
  }
}

/// A parsed file: its name and its root node (nil when the file holds only comments).
public struct ConfigDocument: Sendable, Equatable {
  /// The file name given to the parser.
  public var file: String
  /// The root node, or nil for a file without content. A lone `---` gives an empty scalar, as
  /// YAML 1.2 §9.1.4 (explicit document with empty content) says.
  public var root: ConfigNode?

  /// Creates a document.
  public init(file: String, root: ConfigNode?) {
    self.file = file
    self.root = root
  }
}
