// SPDX-License-Identifier: MIT

/// The members of a JSON object, in insertion order, with lookup by key.
///
/// Keys are unique and compared by their Unicode scalars (RFC 8259 §8.3), so `"é"` (U+00E9) and
/// `"e\u{301}"` are two different keys, as they are to every other JSON implementation.
///
/// Small objects (the common case for control messages) are searched linearly, which is faster
/// than hashing; a hash index is built once an object grows past ``indexThreshold`` members, so
/// a hostile client cannot make duplicate detection quadratic.
public struct JSONObject: Sendable {
  /// One member: a key and its value.
  public typealias Element = (key: String, value: JSONValue)

  /// Member count above which lookups use a hash index. The status object (27 members, built
  /// on every wake-up someone watches) stays below it: comparing lengths, then bytes, of at most
  /// 32 short keys costs less than hashing them, and at most 32 × 32 comparisons an object
  /// bounds what a hostile client's duplicate keys can make it do.
  static let indexThreshold = 32

  /// Keys in insertion order.
  public private(set) var keys: [String]
  /// Values, parallel to ``keys``.
  public private(set) var values: [JSONValue]
  private var index: [ScalarKey: Int]?

  /// An empty object.
  public init() {
    keys = []
    values = []
    index = nil
  }

  /// An object from `members` in order; a repeated key keeps its first position and last value.
  public init(_ members: some Sequence<(String, JSONValue)>) {
    self.init()
    for (key, value) in members { self[key] = value }
  }

  /// Position of `key` in ``keys``, if present.
  public func position(of key: String) -> Int? {
    if let index { return index[ScalarKey(key)] }
    // Comparing lengths first (O(1) for native strings) skips most candidates cheaply.
    let length = key.utf8.count
    for (position, candidate) in keys.enumerated()
    where candidate.utf8.count == length && candidate.utf8.elementsEqual(key.utf8) {
      return position
    }
    return nil
  }

  /// Whether `key` is present.
  public func contains(_ key: String) -> Bool { position(of: key) != nil }

  /// The value for `key`. Setting a new key appends it; setting an existing key replaces the value
  /// in place (keeping its position); setting `nil` removes the member.
  public subscript(key: String) -> JSONValue? {
    get { position(of: key).map { values[$0] } }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Sets `value` for `key` and returns the value it replaced, if any.
  @discardableResult
  public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
    if let position = position(of: key) {
      let old = values[position]
      values[position] = value
      return old
    }
    append(key: key, value: value)
    return nil
  }

  /// Removes the member for `key` and returns its value, if any. O(n).
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    guard let position = position(of: key) else { return nil }
    keys.remove(at: position)
    let old = values.remove(at: position)
    rebuildIndex()
    return old
  }

  /// Appends a member whose key the caller knows to be absent.
  mutating func append(key: String, value: JSONValue) {
    keys.append(key)
    values.append(value)
    if index != nil {
      index?[ScalarKey(key)] = keys.count - 1
    } else if keys.count > Self.indexThreshold {
      rebuildIndex()
    }
  }

  mutating func reserveCapacity(_ capacity: Int) {
    keys.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }

  private mutating func rebuildIndex() {
    guard keys.count > Self.indexThreshold else {
      index = nil
      return
    }
    var built = [ScalarKey: Int](minimumCapacity: keys.count)
    for (position, key) in keys.enumerated() { built[ScalarKey(key)] = position }
    index = built
  }
}

// MARK: - Collection

extension JSONObject: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { keys.count }
  public subscript(position: Int) -> Element { (keys[position], values[position]) }
}

// MARK: - Equality, hashing, literals, text

extension JSONObject: Hashable {
  /// Unordered comparison: the same keys with equal values, in any order (RFC 8259 §4).
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.keys.count == rhs.keys.count else { return false }
    // Fast path for the usual case of identical order.
    if lhs.keys.elementsEqual(rhs.keys, by: { $0.utf8.elementsEqual($1.utf8) }) {
      return lhs.values == rhs.values
    }
    for (key, value) in lhs {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent: combine per-member hashes with a commutative sum.
    var sum = 0
    for (key, value) in self {
      var member = Hasher()
      hashUTF8(key, into: &member)
      member.combine(value)
      sum &+= member.finalize()
    }
    hasher.combine(keys.count)
    hasher.combine(sum)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Builds an object in literal order. A repeated key keeps its first position and last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}

extension JSONObject: CustomStringConvertible {
  /// The compact serialization of this object.
  public var description: String { JSONValue.object(self).serialized() }
}

/// A dictionary key that compares strings by scalars, not by canonical equivalence.
struct ScalarKey: Hashable {
  let string: String

  init(_ string: String) { self.string = string }

  static func == (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
    lhs.string.utf8.elementsEqual(rhs.string.utf8)
  }

  func hash(into hasher: inout Hasher) { hashUTF8(string, into: &hasher) }
}
