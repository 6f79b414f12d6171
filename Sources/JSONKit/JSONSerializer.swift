// SPDX-License-Identifier: MIT

/// How ``JSONValue/serialized(options:)`` lays out its output.
public struct JSONSerializationOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Write object members ordered by key, comparing keys by Unicode scalar values (the same
  /// order as UTF-8 bytes, and as Python's `sort_keys`), instead of insertion order.
  public static let sortedKeys = JSONSerializationOptions(rawValue: 1 << 0)
  /// Break lines and indent nested values by two spaces, with `": "` after keys.
  /// The output then spans several lines, so do not use it on the line-delimited protocol.
  public static let prettyPrinted = JSONSerializationOptions(rawValue: 1 << 1)
}

extension JSONValue {
  /// The JSON text of this value.
  ///
  /// Without ``JSONSerializationOptions/prettyPrinted`` the text is one line: every control
  /// character inside strings is escaped, so it can be framed by `\n` on the control socket.
  ///
  /// Integers print exactly; doubles print in Swift's shortest form that reads back to the same
  /// bits. JSON has no spelling for infinity or NaN (RFC 8259 §6), so a non-finite double prints
  /// as `null`, as JavaScript's `JSON.stringify` does. ``JSONValueEncoder`` refuses non-finite
  /// numbers instead, so encoded models never lose data this way.
  public func serialized(options: JSONSerializationOptions = []) -> String {
    let bytes = serializedBytes(options: options)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The JSON text of this value as UTF-8 bytes; see ``serialized(options:)``.
  public func serializedBytes(options: JSONSerializationOptions = []) -> [UInt8] {
    var writer = JSONWriter(options: options)
    writer.write(self, indent: 0)
    return writer.output
  }
}

struct JSONWriter {
  var output: [UInt8] = []
  private let sorted: Bool
  private let pretty: Bool

  init(options: JSONSerializationOptions) {
    sorted = options.contains(.sortedKeys)
    pretty = options.contains(.prettyPrinted)
    output.reserveCapacity(256)
  }

  mutating func write(_ value: JSONValue, indent: Int) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .integer(let number): writeInteger(number)
    case .double(let number): writeDouble(number)
    case .string(let string): writeString(string)
    case .array(let elements): writeArray(elements, indent: indent)
    case .object(let object): writeObject(object, indent: indent)
    }
  }

  private mutating func append(_ text: StaticString) {
    output.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func newline(indent: Int) {
    output.append(UInt8(ascii: "\n"))
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
  }

  private mutating func writeArray(_ elements: [JSONValue], indent: Int) {
    output.append(UInt8(ascii: "["))
    for (offset, element) in elements.enumerated() {
      if offset > 0 { output.append(UInt8(ascii: ",")) }
      if pretty { newline(indent: indent + 1) }
      write(element, indent: indent + 1)
    }
    if pretty, !elements.isEmpty { newline(indent: indent) }
    output.append(UInt8(ascii: "]"))
  }

  private mutating func writeObject(_ object: JSONObject, indent: Int) {
    output.append(UInt8(ascii: "{"))
    if sorted {
      let order = object.indices.sorted {
        object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8)
      }
      for (offset, position) in order.enumerated() {
        writeMember(object, at: position, first: offset == 0, indent: indent)
      }
    } else {
      for position in object.indices {
        writeMember(object, at: position, first: position == 0, indent: indent)
      }
    }
    if pretty, !object.isEmpty { newline(indent: indent) }
    output.append(UInt8(ascii: "}"))
  }

  private mutating func writeMember(
    _ object: JSONObject, at position: Int, first: Bool, indent: Int
  ) {
    if !first { output.append(UInt8(ascii: ",")) }
    if pretty { newline(indent: indent + 1) }
    writeString(object.keys[position])
    output.append(UInt8(ascii: ":"))
    if pretty { output.append(UInt8(ascii: " ")) }
    write(object.values[position], indent: indent + 1)
  }

  private mutating func writeInteger(_ number: Int64) {
    if number < 0 { output.append(UInt8(ascii: "-")) }
    // The magnitude is unsigned so Int64.min needs no special case.
    var magnitude = number.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 19 digits
    withUnsafeMutableBytes(of: &digits) { scratch in
      var end = scratch.count
      repeat {
        end -= 1
        scratch[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      output.append(contentsOf: scratch[end...])
    }
  }

  private mutating func writeDouble(_ number: Double) {
    guard number.isFinite else {
      append("null")
      return
    }
    // `description` is the shortest digit string that parses back to the same Double, and always
    // contains '.' or 'e', so it reads back as a double, never as an integer.
    output.append(contentsOf: number.description.utf8)
  }

  /// RFC 8259 §7: `"` and `\` and U+0000 to U+001F must be escaped; everything else, including
  /// non-ASCII, is written as its UTF-8 bytes.
  private mutating func writeString(_ string: String) {
    output.append(UInt8(ascii: "\""))
    let utf8 = string.utf8
    let needsEscape = utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == 0x5C }
    if !needsEscape {
      output.append(contentsOf: utf8)
    } else {
      for byte in utf8 { writeEscaped(byte) }
    }
    output.append(UInt8(ascii: "\""))
  }

  private mutating func writeEscaped(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): append("\\\"")
    case UInt8(ascii: "\\"): append("\\\\")
    case 0x08: append("\\b")
    case 0x0C: append("\\f")
    case 0x0A: append("\\n")
    case 0x0D: append("\\r")
    case 0x09: append("\\t")
    case 0..<0x20:
      let hex: StaticString = "0123456789abcdef"
      append("\\u00")
      output.append(hex.utf8Start[Int(byte >> 4)])
      output.append(hex.utf8Start[Int(byte & 0xF)])
    default:
      output.append(byte)
    }
  }
}
