// SPDX-License-Identifier: MIT

/// A ``JSONValue`` can sit inside any `Codable` model, for free-form fields such as the
/// arguments of a control command. ``JSONValueEncoder`` and ``JSONValueDecoder`` pass it through
/// untouched; other coders see its natural JSON shape.
extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    // Our own decoder already holds a JSONValue; copying it keeps 1.0 a double, which the
    // generic probing below cannot (an integer-typed probe accepts integral doubles).
    if let decoder = decoder as? DecoderImpl {
      self = decoder.value
      return
    }
    // Objects and arrays first: a single-value container accepts any value, so it goes last.
    if let keyed = try? decoder.container(keyedBy: JSONCodingKey.self) {
      var object = JSONObject()
      for key in keyed.allKeys {
        object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
      }
      self = .object(object)
      return
    }
    if var unkeyed = try? decoder.unkeyedContainer() {
      var array: [JSONValue] = []
      while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSONValue.self)) }
      self = .array(array)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let flag = try? single.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? single.decode(Int64.self) {
      self = .integer(number)
    } else if let number = try? single.decode(Double.self) {
      self = .double(number)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    if let encoder = encoder as? EncoderImpl {
      encoder.slot = .value(self)
      return
    }
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let flag):
      var single = encoder.singleValueContainer()
      try single.encode(flag)
    case .integer(let number):
      var single = encoder.singleValueContainer()
      try single.encode(number)
    case .double(let number):
      var single = encoder.singleValueContainer()
      try single.encode(number)
    case .string(let string):
      var single = encoder.singleValueContainer()
      try single.encode(string)
    case .array(let array):
      var unkeyed = encoder.unkeyedContainer()
      for element in array { try unkeyed.encode(element) }
    case .object(let object):
      var keyed = encoder.container(keyedBy: JSONCodingKey.self)
      for (key, value) in object {
        try keyed.encode(value, forKey: JSONCodingKey(stringValue: key))
      }
    }
  }
}
