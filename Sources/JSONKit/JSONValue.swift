// SPDX-License-Identifier: MIT

/// A JSON document tree (RFC 8259).
///
/// Numbers keep the distinction the wire format allows but most libraries erase: a number written
/// without a fraction or exponent that fits `Int64` is an ``integer(_:)`` and stays exact; every
/// other number is a ``double(_:)``. `-0` is a double so the sign of zero survives.
///
/// Equality follows JSON semantics rather than Swift's synthesized rules:
/// - objects compare as unordered maps (RFC 8259 §4 says an object is an *unordered* collection),
///   while ``JSONObject`` still remembers insertion order for output;
/// - strings compare by their Unicode scalars, not by canonical equivalence, as RFC 8259 §8.3
///   recommends for interoperable comparison;
/// - `.integer(1)` and `.double(1.0)` are different values, because they serialize differently.
///
/// Repeated keys in parsed objects are rejected by default; see
/// ``JSONParseOptions/DuplicateKeyPolicy``.
public enum JSONValue: Sendable {
  /// The literal `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number written without fraction or exponent that fits `Int64`.
  case integer(Int64)
  /// Any other number. The parser never produces infinities or NaN; if code builds one, it
  /// serializes as `null` (see ``serialized(options:)``) and, NaN being unequal to itself,
  /// breaks `==` reflexivity as `Double` does.
  case double(Double)
  /// A string of Unicode scalars.
  case string(String)
  /// An ordered list of values.
  case array([JSONValue])
  /// Key/value pairs that remember insertion order.
  case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
  /// The member for `key` when this is an object that has it; otherwise `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }

  /// The element at `index` when this is an array and the index is in range; otherwise `nil`.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let array) = self, array.indices.contains(index) else { return nil }
    return array[index]
  }

  /// The payload of ``string(_:)``, else `nil`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The payload of ``integer(_:)``, else `nil`. Doubles are not converted, even integral ones,
  /// so a caller never silently accepts `1.5` or `1e300` where a count is expected.
  public var intValue: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The payload of ``double(_:)``, or an ``integer(_:)`` converted to `Double`; else `nil`.
  public var doubleValue: Double? {
    switch self {
    case .double(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The payload of ``bool(_:)``, else `nil`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The payload of ``array(_:)``, else `nil`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The payload of ``object(_:)``, else `nil`.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

// MARK: - Equality and hashing

extension JSONValue: Hashable {
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    // IEEE equality: -0.0 == 0.0, as the two print differently but are the same number.
    case (.double(let a), .double(let b)): return a == b
    case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .integer(let value):
      hasher.combine(2 as UInt8)
      hasher.combine(value)
    case .double(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    case .string(let value):
      hasher.combine(4 as UInt8)
      hashUTF8(value, into: &hasher)
    case .array(let value):
      hasher.combine(5 as UInt8)
      hasher.combine(value)
    case .object(let value):
      hasher.combine(6 as UInt8)
      hasher.combine(value)
    }
  }
}

/// Hashes the scalars of `string` exactly, consistent with the scalar-wise equality used above
/// (`String.hash(into:)` would be consistent too, but normalizes first, which costs time).
func hashUTF8(_ string: String, into hasher: inout Hasher) {
  var count = 0
  for byte in string.utf8 {
    hasher.combine(byte)
    count += 1
  }
  // Terminate with the length so ["ab", "c"] and ["a", "bc"] hash differently.
  hasher.combine(count)
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Builds an object in literal order. A repeated key keeps its first position and last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    var object = JSONObject()
    for (key, value) in elements { object[key] = value }
    self = .object(object)
  }
}

// MARK: - Text

extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible {
  /// The compact serialization, so string interpolation and `print` show JSON.
  public var description: String { serialized() }

  public var debugDescription: String { "JSONValue(\(serialized()))" }
}
