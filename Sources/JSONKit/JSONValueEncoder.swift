// SPDX-License-Identifier: MIT

/// Encodes `Encodable` values into ``JSONValue`` trees, and from there into JSON text.
///
/// Numbers are kept exact or refused, never rounded, because persisted engine state must read
/// back exactly:
/// - every integer type encodes as ``JSONValue/integer(_:)``; a `UInt64`, `UInt` or `UInt128`
///   above `Int64.max` (or an `Int128` outside `Int64`) throws `EncodingError.invalidValue`,
///   since JSONKit integers are `Int64`;
/// - `Double` and `Float` encode as ``JSONValue/double(_:)``; infinities and NaN throw
///   `EncodingError.invalidValue`, because JSON cannot spell them (RFC 8259 §6).
///
/// `nil` optionals that the synthesized code writes with `encodeIfPresent` are left out of their
/// object; optionals inside arrays, and single optional values, encode as `null`.
public struct JSONValueEncoder: Sendable {
  /// Context for `Encodable` implementations, as `Encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable]

  /// An encoder with empty `userInfo`.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
  }

  /// The JSON tree of `value`.
  public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    let info = userInfo.mapValues { $0 as Any }
    return try EncodingContext(userInfo: info).wrap(value, path: [], key: nil)
  }

  /// The JSON text of `value`; compact and single-line unless `options` say otherwise.
  public func encodeToString<T: Encodable>(
    _ value: T, options: JSONSerializationOptions = []
  ) throws -> String {
    try encode(value).serialized(options: options)
  }

  /// The JSON text of `value` as UTF-8 bytes; see ``encodeToString(_:options:)``.
  public func encodeToBytes<T: Encodable>(
    _ value: T, options: JSONSerializationOptions = []
  ) throws -> [UInt8] {
    try encode(value).serializedBytes(options: options)
  }
}

// MARK: - Storage

/// A value under construction. Containers are reference types because a nested container keeps
/// writing into its parent after it has been handed out.
enum EncodingSlot {
  case value(JSONValue)
  case array(ArrayBox)
  case object(ObjectBox)
  case encoder(EncoderImpl)

  var resolved: JSONValue {
    switch self {
    case .value(let value): return value
    case .array(let box): return .array(box.items.map(\.resolved))
    case .object(let box): return box.resolved
    case .encoder(let encoder): return encoder.resolved
    }
  }
}

final class ArrayBox {
  var items: [EncodingSlot] = []
}

final class ObjectBox {
  private var keys: [String] = []
  private var slots: [EncodingSlot] = []
  private var index: [ScalarKey: Int]?

  /// Sets `key`; encoding the same key twice keeps the last value, as Foundation's encoder does.
  func set(_ key: String, _ slot: EncodingSlot) {
    if let position = position(of: key) {
      slots[position] = slot
      return
    }
    keys.append(key)
    slots.append(slot)
    if index != nil {
      index?[ScalarKey(key)] = keys.count - 1
    } else if keys.count > JSONObject.indexThreshold {
      var built: [ScalarKey: Int] = [:]
      for (position, key) in keys.enumerated() { built[ScalarKey(key)] = position }
      index = built
    }
  }

  private func position(of key: String) -> Int? {
    if let index { return index[ScalarKey(key)] }
    return keys.firstIndex { $0.utf8.elementsEqual(key.utf8) }
  }

  var resolved: JSONValue {
    var object = JSONObject()
    object.reserveCapacity(keys.count)
    for (key, slot) in zip(keys, slots) { object.append(key: key, value: slot.resolved) }
    return .object(object)
  }
}

/// State shared by one `encode` call.
struct EncodingContext {
  let userInfo: [CodingUserInfoKey: Any]

  /// Encodes `value` found at `path + [key]`.
  func wrap<T: Encodable>(
    _ value: T, path: [any CodingKey], key: (any CodingKey)?
  ) throws -> JSONValue {
    // Common leaf types skip the allocation of a nested encoder.
    switch value {
    case let json as JSONValue: return json
    case let string as String: return .string(string)
    case let flag as Bool: return .bool(flag)
    case let number as Int: return .integer(Int64(number))
    case let number as Int64: return .integer(number)
    case let number as Double: return try box(number, path: path, key: key)
    default: break
    }
    var childPath = path
    if let key { childPath.append(key) }
    let encoder = EncoderImpl(context: self, codingPath: childPath)
    try value.encode(to: encoder)
    return encoder.resolved
  }

  func box(_ number: Double, path: [any CodingKey], key: (any CodingKey)?) throws -> JSONValue {
    guard number.isFinite else {
      throw invalid(number, "\(number) is not representable in JSON (RFC 8259 §6)", path, key)
    }
    return .double(number)
  }

  func box(_ number: Float, path: [any CodingKey], key: (any CodingKey)?) throws -> JSONValue {
    guard number.isFinite else {
      throw invalid(number, "\(number) is not representable in JSON (RFC 8259 §6)", path, key)
    }
    return .double(Double(number))
  }

  func box<I: FixedWidthInteger>(
    _ number: I, path: [any CodingKey], key: (any CodingKey)?
  ) throws -> JSONValue {
    guard let exact = Int64(exactly: number) else {
      throw invalid(
        number, "\(I.self) \(number) does not fit the Int64 range of JSONKit integers", path, key)
    }
    return .integer(exact)
  }

  private func invalid(
    _ value: Any, _ message: String, _ path: [any CodingKey], _ key: (any CodingKey)?
  ) -> EncodingError {
    var fullPath = path
    if let key { fullPath.append(key) }
    return EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: fullPath, debugDescription: "\(message) at \(fullPath.pathDescription)"))
  }
}

// MARK: - Encoder

final class EncoderImpl: Encoder {
  let context: EncodingContext
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }
  var slot: EncodingSlot?

  init(context: EncodingContext, codingPath: [any CodingKey]) {
    self.context = context
    self.codingPath = codingPath
  }

  /// What was encoded; an encoder that was given nothing yields `{}`, like Foundation's.
  var resolved: JSONValue { slot?.resolved ?? .object(JSONObject()) }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // Reuse an existing object so a subclass and its superclass can share one container.
    let box: ObjectBox
    if case .object(let existing) = slot {
      box = existing
    } else {
      box = ObjectBox()
      slot = .object(box)
    }
    return KeyedEncodingContainer(
      KeyedEncoder<Key>(context: context, box: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let box: ArrayBox
    if case .array(let existing) = slot {
      box = existing
    } else {
      box = ArrayBox()
      slot = .array(box)
    }
    return UnkeyedEncoder(context: context, box: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueEncoder(encoder: self)
  }
}

struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let context: EncodingContext
  let box: ObjectBox
  let codingPath: [any CodingKey]

  private func put(_ value: JSONValue, _ key: Key) { box.set(key.stringValue, .value(value)) }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    put(try context.box(value, path: codingPath, key: key), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    put(try context.box(value, path: codingPath, key: key), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    put(try context.box(value, path: codingPath, key: key), key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    put(try context.box(value, path: codingPath, key: key), key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    put(.integer(Int64(value)), key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    put(.integer(Int64(value)), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    put(try context.box(value, path: codingPath, key: key), key)
  }
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    put(try context.box(value, path: codingPath, key: key), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    put(try context.wrap(value, path: codingPath, key: key), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ObjectBox()
    box.set(key.stringValue, .object(nested))
    return KeyedEncodingContainer(
      KeyedEncoder<NestedKey>(context: context, box: nested, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = ArrayBox()
    box.set(key.stringValue, .array(nested))
    return UnkeyedEncoder(context: context, box: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder { superEncoder(key: JSONCodingKey.superKey) }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

  private func superEncoder(key: any CodingKey) -> any Encoder {
    let encoder = EncoderImpl(context: context, codingPath: codingPath + [key])
    box.set(key.stringValue, .encoder(encoder))
    return encoder
  }
}

struct UnkeyedEncoder: UnkeyedEncodingContainer {
  let context: EncodingContext
  let box: ArrayBox
  let codingPath: [any CodingKey]

  var count: Int { box.items.count }

  private var nextKey: JSONCodingKey { JSONCodingKey(index: box.items.count) }
  private func put(_ value: JSONValue) { box.items.append(.value(value)) }

  mutating func encodeNil() throws { put(.null) }
  mutating func encode(_ value: Bool) throws { put(.bool(value)) }
  mutating func encode(_ value: String) throws { put(.string(value)) }
  mutating func encode(_ value: Double) throws {
    put(try context.box(value, path: codingPath, key: nextKey))
  }
  mutating func encode(_ value: Float) throws {
    put(try context.box(value, path: codingPath, key: nextKey))
  }
  mutating func encode(_ value: Int) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { put(.integer(value)) }
  mutating func encode(_ value: Int128) throws {
    put(try context.box(value, path: codingPath, key: nextKey))
  }
  mutating func encode(_ value: UInt) throws {
    put(try context.box(value, path: codingPath, key: nextKey))
  }
  mutating func encode(_ value: UInt8) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws {
    put(try context.box(value, path: codingPath, key: nextKey))
  }
  mutating func encode(_ value: UInt128) throws {
    put(try context.box(value, path: codingPath, key: nextKey))
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    put(try context.wrap(value, path: codingPath, key: nextKey))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ObjectBox()
    let path = codingPath + [nextKey]
    box.items.append(.object(nested))
    return KeyedEncodingContainer(
      KeyedEncoder<NestedKey>(context: context, box: nested, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ArrayBox()
    let path = codingPath + [nextKey]
    box.items.append(.array(nested))
    return UnkeyedEncoder(context: context, box: nested, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = EncoderImpl(context: context, codingPath: codingPath + [nextKey])
    box.items.append(.encoder(encoder))
    return encoder
  }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
  let encoder: EncoderImpl
  var codingPath: [any CodingKey] { encoder.codingPath }

  private var context: EncodingContext { encoder.context }
  private func put(_ value: JSONValue) { encoder.slot = .value(value) }

  mutating func encodeNil() throws { put(.null) }
  mutating func encode(_ value: Bool) throws { put(.bool(value)) }
  mutating func encode(_ value: String) throws { put(.string(value)) }
  mutating func encode(_ value: Double) throws {
    put(try context.box(value, path: codingPath, key: nil))
  }
  mutating func encode(_ value: Float) throws {
    put(try context.box(value, path: codingPath, key: nil))
  }
  mutating func encode(_ value: Int) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { put(.integer(value)) }
  mutating func encode(_ value: Int128) throws {
    put(try context.box(value, path: codingPath, key: nil))
  }
  mutating func encode(_ value: UInt) throws {
    put(try context.box(value, path: codingPath, key: nil))
  }
  mutating func encode(_ value: UInt8) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { put(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws {
    put(try context.box(value, path: codingPath, key: nil))
  }
  mutating func encode(_ value: UInt128) throws {
    put(try context.box(value, path: codingPath, key: nil))
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    put(try context.wrap(value, path: codingPath, key: nil))
  }
}
