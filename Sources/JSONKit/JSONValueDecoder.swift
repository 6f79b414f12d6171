// SPDX-License-Identifier: MIT

/// Decodes `Decodable` values from ``JSONValue`` trees or JSON text.
///
/// Errors are the standard library's `DecodingError` cases, with the full coding path and a
/// `debugDescription` that names the path, the expected type and what was found.
///
/// Numbers are checked, never silently truncated: an integer type accepts an
/// ``JSONValue/integer(_:)`` in its range, or a ``JSONValue/double(_:)`` whose value is an exact
/// integer in its range (other producers may write `3.0`); anything else is
/// `DecodingError.dataCorrupted`. `Double` accepts integers too; `Float` accepts any number in its
/// range, rounded to the nearest `Float`.
public struct JSONValueDecoder: Sendable {
  /// Context for `Decodable` implementations, as `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable]
  /// Limits used by the text and byte entry points.
  public var parseOptions: JSONParseOptions

  /// A decoder with empty `userInfo` and default parse limits.
  public init(
    userInfo: [CodingUserInfoKey: any Sendable] = [:], parseOptions: JSONParseOptions = .default
  ) {
    self.userInfo = userInfo
    self.parseOptions = parseOptions
  }

  /// Decodes a `T` from a JSON tree.
  public func decode<T: Decodable>(_ type: T.Type = T.self, from value: JSONValue) throws -> T {
    let decoder = DecoderImpl(
      value: value, codingPath: [], userInfo: userInfo.mapValues { $0 as Any })
    return try decoder.unwrap(T.self)
  }

  /// Parses `text` and decodes a `T` from it. Malformed JSON throws
  /// `DecodingError.dataCorrupted` whose `underlyingError` is the ``JSONParseError``.
  public func decode<T: Decodable>(_ type: T.Type = T.self, from text: String) throws -> T {
    try decode(
      T.self,
      from: parsed { () throws(JSONParseError) in
        try JSONValue.parse(text, options: parseOptions)
      })
  }

  /// Parses UTF-8 `bytes` and decodes a `T` from them; see the `String` overload.
  public func decode<T: Decodable>(
    _ type: T.Type = T.self, fromBytes bytes: some Collection<UInt8>
  ) throws -> T {
    try decode(
      T.self,
      from: parsed { () throws(JSONParseError) in
        try JSONValue.parse(bytes, options: parseOptions)
      })
  }

  private func parsed(
    _ parse: () throws(JSONParseError) -> JSONValue
  ) throws -> JSONValue {
    do {
      return try parse()
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "The given data was not valid JSON: \(error)",
          underlyingError: error))
    }
  }
}

// MARK: - Decoder

struct DecoderImpl: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  func container<Key: CodingKey>(
    keyedBy type: Key.Type
  ) throws -> KeyedDecodingContainer<Key> {
    let object = try expectObject(value, path: codingPath)
    return KeyedDecodingContainer(
      KeyedDecoder<Key>(object: object, codingPath: codingPath, userInfo: userInfo))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let array = try expectArray(value, path: codingPath)
    return UnkeyedDecoder(array: array, codingPath: codingPath, userInfo: userInfo)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueDecoder(value: value, codingPath: codingPath, userInfo: userInfo)
  }

  /// Decodes `T` from this decoder's value, short-circuiting JSONValue and common leaves.
  func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == JSONValue.self, let value = value as? T { return value }
    return try T(from: self)
  }
}

/// Decodes a `T` found at `path + [key]` (or at `path` when `key` is nil).
private func decodeValue<T: Decodable>(
  _ type: T.Type, from value: JSONValue, path: [any CodingKey], key: (any CodingKey)?,
  userInfo: [CodingUserInfoKey: Any]
) throws -> T {
  if T.self == JSONValue.self, let value = value as? T { return value }
  var fullPath = path
  if let key { fullPath.append(key) }
  // Leaves without a nested decoder: these are the bulk of any model.
  switch type {
  case is String.Type: return try unboxString(value, path: fullPath) as! T
  case is Bool.Type: return try unboxBool(value, path: fullPath) as! T
  case is Int.Type: return try unboxInteger(value, as: Int.self, path: fullPath) as! T
  case is Int64.Type: return try unboxInteger(value, as: Int64.self, path: fullPath) as! T
  case is Double.Type: return try unboxDouble(value, path: fullPath) as! T
  default: break
  }
  let decoder = DecoderImpl(value: value, codingPath: fullPath, userInfo: userInfo)
  return try T(from: decoder)
}

// MARK: - Unboxing leaves

private func kind(of value: JSONValue) -> String {
  switch value {
  case .null: return "null"
  case .bool: return "a boolean"
  case .integer(let number): return "the integer \(number)"
  case .double(let number): return "the number \(number)"
  case .string: return "a string"
  case .array: return "an array"
  case .object: return "an object"
  }
}

/// `valueNotFound` for null, as the standard library's JSON decoder does; else `typeMismatch`.
private func mismatch(_ type: Any.Type, _ value: JSONValue, path: [any CodingKey]) -> DecodingError
{
  let location = path.pathDescription
  if value.isNull {
    return DecodingError.valueNotFound(
      type,
      DecodingError.Context(
        codingPath: path, debugDescription: "Expected \(type) at \(location) but found null."))
  }
  return DecodingError.typeMismatch(
    type,
    DecodingError.Context(
      codingPath: path,
      debugDescription: "Expected \(type) at \(location) but found \(kind(of: value))."))
}

private func expectObject(_ value: JSONValue, path: [any CodingKey]) throws -> JSONObject {
  guard case .object(let object) = value else {
    throw mismatch([String: Any].self, value, path: path)
  }
  return object
}

private func expectArray(_ value: JSONValue, path: [any CodingKey]) throws -> [JSONValue] {
  guard case .array(let array) = value else { throw mismatch([Any].self, value, path: path) }
  return array
}

private func unboxString(_ value: JSONValue, path: [any CodingKey]) throws -> String {
  guard case .string(let string) = value else { throw mismatch(String.self, value, path: path) }
  return string
}

private func unboxBool(_ value: JSONValue, path: [any CodingKey]) throws -> Bool {
  guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path: path) }
  return flag
}

private func unboxInteger<I: FixedWidthInteger>(
  _ value: JSONValue, as type: I.Type, path: [any CodingKey]
) throws -> I {
  switch value {
  case .integer(let number):
    if let exact = I(exactly: number) { return exact }
  case .double(let number):
    if let exact: I = exactInteger(number) { return exact }
  default:
    throw mismatch(I.self, value, path: path)
  }
  throw DecodingError.dataCorrupted(
    DecodingError.Context(
      codingPath: path,
      debugDescription: "\(kind(of: value).capitalizedFirst) at \(path.pathDescription) "
        + "does not fit in \(I.self) (range \(I.min)...\(I.max), integers only)."))
}

/// `number` as an `I` when it is an integer in `I`'s range.
///
/// The standard library's `I(exactly: Double)` rounds with `trunc` and `floor`, which live in
/// libm; an optimized build of a target that does not link libm then fails to link. Checking the
/// fraction bits directly needs no libm.
func exactInteger<I: FixedWidthInteger>(_ number: Double) -> I? {
  guard number.isFinite else { return nil }
  if number != 0 {
    let exponent = number.exponent
    // |number| < 1 and not zero: a pure fraction.
    guard exponent >= 0 else { return nil }
    if exponent < Double.significandBitCount {
      let fractionBits = Double.significandBitCount - Int(exponent)
      guard number.significandBitPattern & ((1 << UInt64(fractionBits)) - 1) == 0 else {
        return nil
      }
    }
  }
  // Integral now; convert through a 64-bit type whose range holds it, where the conversion is
  // exact and cannot trap. Magnitudes of 2^64 and more are refused even for Int128 and UInt128:
  // JSONKit integers are 64-bit, and the 128-bit conversions would pull in libm again.
  if number >= -0x1p63, number < 0x1p63 { return I(exactly: Int64(number)) }
  if number >= 0, number < 0x1p64 { return I(exactly: UInt64(number)) }
  return nil
}

private func unboxDouble(_ value: JSONValue, path: [any CodingKey]) throws -> Double {
  switch value {
  case .double(let number): return number
  case .integer(let number): return Double(number)
  default: throw mismatch(Double.self, value, path: path)
  }
}

private func unboxFloat(_ value: JSONValue, path: [any CodingKey]) throws -> Float {
  let number = try unboxDouble(value, path: path)
  let float = Float(number)
  guard float.isFinite else {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: path,
        debugDescription: "\(kind(of: value).capitalizedFirst) at \(path.pathDescription) "
          + "does not fit in Float."))
  }
  return float
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

// MARK: - Keyed

struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { object.contains(key.stringValue) }

  private func value(for key: Key) throws -> JSONValue {
    guard let value = object[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value for key \"\(key.stringValue)\" at "
            + "\(codingPath.pathDescription)."))
    }
    return value
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try unboxBool(value(for: key), path: path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try unboxString(value(for: key), path: path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try unboxDouble(value(for: key), path: path(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try unboxFloat(value(for: key), path: path(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }

  private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
    try unboxInteger(value(for: key), as: I.self, path: path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decodeValue(
      T.self, from: value(for: key), path: codingPath, key: key, userInfo: userInfo)
  }

  /// One lookup instead of the default's `contains` + `decodeNil` + `decode`.
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = object[key.stringValue], !value.isNull else { return nil }
    return try decodeValue(T.self, from: value, path: codingPath, key: key, userInfo: userInfo)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let nested = try expectObject(value(for: key), path: path(key))
    return KeyedDecodingContainer(
      KeyedDecoder<NestedKey>(object: nested, codingPath: path(key), userInfo: userInfo))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let nested = try expectArray(value(for: key), path: path(key))
    return UnkeyedDecoder(array: nested, codingPath: path(key), userInfo: userInfo)
  }

  /// A decoder for the `"super"` member, or for `null` when it is absent, as Foundation does.
  func superDecoder() throws -> any Decoder {
    let key = JSONCodingKey.superKey
    return DecoderImpl(
      value: object[key.stringValue] ?? .null, codingPath: codingPath + [key], userInfo: userInfo)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    DecoderImpl(
      value: object[key.stringValue] ?? .null, codingPath: path(key), userInfo: userInfo)
  }
}

// MARK: - Unkeyed

struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let array: [JSONValue]
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  private(set) var currentIndex = 0

  init(array: [JSONValue], codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
    self.array = array
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  var count: Int? { array.count }
  var isAtEnd: Bool { currentIndex >= array.count }

  private var currentKey: JSONCodingKey { JSONCodingKey(index: currentIndex) }
  private var currentPath: [any CodingKey] { codingPath + [currentKey] }

  private func current(_ type: Any.Type) throws -> JSONValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: currentPath,
          debugDescription: "Expected \(type) at \(currentPath.pathDescription) but the array "
            + "has only \(array.count) elements."))
    }
    return array[currentIndex]
  }

  /// Runs `body` on the current element and advances only if it succeeds, as the protocol asks.
  private mutating func next<T>(
    _ type: T.Type, _ body: (JSONValue, [any CodingKey]) throws -> T
  ) throws -> T {
    let result = try body(current(type), currentPath)
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard try current(Never?.self).isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type, unboxBool) }
  mutating func decode(_ type: String.Type) throws -> String { try next(type, unboxString) }
  mutating func decode(_ type: Double.Type) throws -> Double { try next(type, unboxDouble) }
  mutating func decode(_ type: Float.Type) throws -> Float { try next(type, unboxFloat) }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

  private mutating func integer<I: FixedWidthInteger>() throws -> I {
    try next(I.self) { value, path in try unboxInteger(value, as: I.self, path: path) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let userInfo = userInfo
    let codingPath = codingPath
    let key = currentKey
    return try next(T.self) { value, _ in
      try decodeValue(T.self, from: value, path: codingPath, key: key, userInfo: userInfo)
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let userInfo = userInfo
    return try next(KeyedDecodingContainer<NestedKey>.self) { value, path in
      KeyedDecodingContainer(
        KeyedDecoder<NestedKey>(
          object: try expectObject(value, path: path), codingPath: path, userInfo: userInfo))
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let userInfo = userInfo
    return try next((any UnkeyedDecodingContainer).self) { value, path in
      UnkeyedDecoder(
        array: try expectArray(value, path: path), codingPath: path, userInfo: userInfo)
    }
  }

  mutating func superDecoder() throws -> any Decoder {
    let userInfo = userInfo
    return try next((any Decoder).self) { value, path in
      DecoderImpl(value: value, codingPath: path, userInfo: userInfo)
    }
  }
}

// MARK: - Single value

struct SingleValueDecoder: SingleValueDecodingContainer {
  let value: JSONValue
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  func decodeNil() -> Bool { value.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, path: codingPath) }
  func decode(_ type: String.Type) throws -> String { try unboxString(value, path: codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try unboxDouble(value, path: codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, path: codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try integer() }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
  func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
  func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

  private func integer<I: FixedWidthInteger>() throws -> I {
    try unboxInteger(value, as: I.self, path: codingPath)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeValue(T.self, from: value, path: codingPath, key: nil, userInfo: userInfo)
  }
}
