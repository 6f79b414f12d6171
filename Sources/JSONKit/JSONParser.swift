// SPDX-License-Identifier: MIT

extension JSONValue {
  /// Parses one JSON text (RFC 8259), strictly: no comments, no trailing commas, no `NaN`,
  /// no leading zeros, nothing but whitespace around the value.
  public static func parse(
    _ text: String, options: JSONParseOptions = .default
  ) throws(JSONParseError) -> JSONValue {
    var text = text
    // `withUTF8` is zero-copy for native strings; it only copies bridged or lazy ones.
    let result = text.withUTF8 { buffer in
      Result { () throws(JSONParseError) -> JSONValue in
        try parse(buffer: buffer, options: options)
      }
    }
    return try result.get()
  }

  /// Parses one JSON text from UTF-8 bytes; malformed UTF-8 is rejected (RFC 8259 §8.1).
  public static func parse(
    _ bytes: some Collection<UInt8>, options: JSONParseOptions = .default
  ) throws(JSONParseError) -> JSONValue {
    let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONParseError) -> JSONValue in
        try parse(buffer: buffer, options: options)
      }
    }
    if let contiguous { return try contiguous.get() }
    let copy = Array(bytes)
    let result = copy.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) -> JSONValue in
        try parse(buffer: buffer, options: options)
      }
    }
    return try result.get()
  }

  static func parse(
    buffer: UnsafeBufferPointer<UInt8>, options: JSONParseOptions
  ) throws(JSONParseError) -> JSONValue {
    var parser = JSONParser(bytes: buffer, options: options)
    return try parser.parseDocument()
  }
}

/// A recursive-descent parser over UTF-8 bytes.
///
/// Recursion depth is bounded by `options.maxDepth`, checked before each descent.
struct JSONParser {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let options: JSONParseOptions
  private var position = 0
  private var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) {
    self.bytes = bytes
    self.options = options
  }

  // MARK: Document

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    guard bytes.count <= options.maxInputBytes else {
      throw error(.inputTooLarge(limit: options.maxInputBytes), at: options.maxInputBytes)
    }
    skipWhitespace()
    guard position < bytes.count else { throw error(.emptyInput, at: position) }
    let value = try parseValue()
    skipWhitespace()
    // RFC 8259 §2: JSON-text = ws value ws, so only whitespace may follow.
    guard position == bytes.count else { throw error(.trailingData, at: position) }
    return value
  }

  /// RFC 8259 §2: the four insignificant whitespace bytes.
  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        position += 1
      default:
        return
      }
    }
  }

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard position < bytes.count else {
      throw error(.unexpectedEnd(expected: "a value"), at: position)
    }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case let byte:
      throw error(.unexpectedByte(byte, expected: "a value"), at: position)
    }
  }

  /// RFC 8259 §3: the literal names are lowercase and spelled in full.
  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let expected = "'\(literal)'"
    let start = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    for byte in start {
      guard position < bytes.count else {
        throw error(.unexpectedEnd(expected: expected), at: position)
      }
      guard bytes[position] == byte else {
        throw error(.unexpectedByte(bytes[position], expected: expected), at: position)
      }
      position += 1
    }
  }

  // MARK: Containers

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    guard depth <= options.maxDepth else {
      throw error(.nestingTooDeep(limit: options.maxDepth), at: position)
    }
  }

  /// RFC 8259 §5: `[ value *( , value ) ]`, so no trailing comma.
  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enter()
    position += 1
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array([])
    }
    var elements: [JSONValue] = []
    while true {
      elements.append(try parseValue())
      skipWhitespace()
      let expected = "',' or ']' after array element"
      guard position < bytes.count else {
        throw error(.unexpectedEnd(expected: expected), at: position)
      }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        position += 1
        depth -= 1
        return .array(elements)
      case let byte:
        throw error(.unexpectedByte(byte, expected: expected), at: position)
      }
    }
  }

  /// RFC 8259 §4: `{ member *( , member ) }` with `member = string : value`.
  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enter()
    position += 1
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object(JSONObject())
    }
    var object = JSONObject()
    while true {
      let keyExpected = "'\"' to begin an object key"
      guard position < bytes.count else {
        throw error(.unexpectedEnd(expected: keyExpected), at: position)
      }
      guard bytes[position] == UInt8(ascii: "\"") else {
        throw error(.unexpectedByte(bytes[position], expected: keyExpected), at: position)
      }
      let keyOffset = position
      let key = try parseString()
      skipWhitespace()
      let colonExpected = "':' after object key"
      guard position < bytes.count else {
        throw error(.unexpectedEnd(expected: colonExpected), at: position)
      }
      guard bytes[position] == UInt8(ascii: ":") else {
        throw error(.unexpectedByte(bytes[position], expected: colonExpected), at: position)
      }
      position += 1
      skipWhitespace()
      let value = try parseValue()
      if object.contains(key) {
        guard options.duplicateKeys == .lastWins else {
          throw error(.duplicateKey(key), at: keyOffset)
        }
        object.updateValue(value, forKey: key)
      } else {
        object.append(key: key, value: value)
      }
      skipWhitespace()
      let expected = "',' or '}' after object member"
      guard position < bytes.count else {
        throw error(.unexpectedEnd(expected: expected), at: position)
      }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        position += 1
        depth -= 1
        return .object(object)
      case let byte:
        throw error(.unexpectedByte(byte, expected: expected), at: position)
      }
    }
  }

  // MARK: Strings

  /// RFC 8259 §7. Starts at the opening quote, ends after the closing one.
  private mutating func parseString() throws(JSONParseError) -> String {
    position += 1
    let start = position
    // Fast path: most strings have no escapes, so they are validated and copied once.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let string = makeString(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        position += 1
        return string
      } else if byte == UInt8(ascii: "\\") {
        break
      } else if byte < 0x20 {
        throw error(.controlCharacterInString(byte), at: position)
      } else if byte < 0x80 {
        position += 1
      } else {
        try skipUTF8Sequence()
      }
    }
    guard position < bytes.count else {
      throw error(.unexpectedEnd(expected: "'\"' to close the string"), at: position)
    }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(position - start + 16)
    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return buffer.withUnsafeBufferPointer { makeString($0) }
      } else if byte == UInt8(ascii: "\\") {
        try parseEscape(into: &buffer)
      } else if byte < 0x20 {
        throw error(.controlCharacterInString(byte), at: position)
      } else if byte < 0x80 {
        buffer.append(byte)
        position += 1
      } else {
        let sequenceStart = position
        try skipUTF8Sequence()
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<position]))
      }
    }
    throw error(.unexpectedEnd(expected: "'\"' to close the string"), at: position)
  }

  /// Bytes already validated as UTF-8, so decoding cannot substitute U+FFFD.
  private func makeString(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: utf8, as: UTF8.self)
  }

  /// RFC 8259 §7: the eight two-character escapes and `\uXXXX`.
  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
    let escapeStart = position
    position += 1
    guard position < bytes.count else {
      throw error(.unexpectedEnd(expected: "an escape character"), at: position)
    }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHex4()
      switch unit {
      case 0xD800...0xDBFF:
        // RFC 8259 §7: a scalar beyond the BMP is a UTF-16 surrogate pair of two escapes.
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        else { throw error(.loneSurrogate(unit), at: escapeStart) }
        position += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error(.loneSurrogate(unit), at: escapeStart)
        }
        let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        appendUTF8(scalar, to: &buffer)
      case 0xDC00...0xDFFF:
        throw error(.loneSurrogate(unit), at: escapeStart)
      default:
        appendUTF8(UInt32(unit), to: &buffer)
      }
    default:
      let shown = byte < 0x80 ? "\\\(Character(Unicode.Scalar(byte)))" : "a non-ASCII byte"
      throw error(
        .invalidEscape("\(shown) is not one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"),
        at: escapeStart)
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard position < bytes.count else {
        throw error(.unexpectedEnd(expected: "four hex digits after \\u"), at: position)
      }
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw error(.invalidEscape("\\u needs four hex digits"), at: position)
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      buffer.append(UInt8(scalar))
    case 0x80..<0x800:
      buffer.append(UInt8(0xC0 | scalar >> 6))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      buffer.append(UInt8(0xE0 | scalar >> 12))
      buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    default:
      buffer.append(UInt8(0xF0 | scalar >> 18))
      buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// Validates one multi-byte UTF-8 sequence at `position` and steps over it.
  ///
  /// Well-formed means RFC 3629 §4 (Unicode table 3-7): no overlong forms, no surrogates
  /// (U+D800 to U+DFFF), nothing above U+10FFFF, which is what the standard library's UTF-8
  /// parser accepts.
  private mutating func skipUTF8Sequence() throws(JSONParseError) {
    var parser = Unicode.UTF8.ForwardParser()
    var rest = bytes[position...].makeIterator()
    guard case .valid(let sequence) = parser.parseScalar(from: &rest) else {
      throw error(.invalidUTF8, at: position)
    }
    position += sequence.count
  }

  // MARK: Numbers

  /// RFC 8259 §6: `[ minus ] int [ frac ] [ exp ]`, `int = zero / ( digit1-9 *DIGIT )`.
  ///
  /// Integers that fit `Int64` stay exact. Everything else becomes the nearest `Double`: exactly
  /// computed when the decimal fits Clinger's fast path, otherwise by the standard library's
  /// correctly rounded conversion, so persisted doubles read back bit for bit.
  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = position
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else {
      throw numberError("expected a digit after '-'", at: position)
    }
    var mantissa: UInt64 = 0
    var exact = true  // false once the digits overflow UInt64
    var fractionDigits = 0
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        throw numberError("leading zeros are not allowed", at: start)
      }
    } else {
      while position < bytes.count, isDigit(bytes[position]) {
        accumulate(bytes[position], into: &mantissa, exact: &exact)
        position += 1
      }
    }
    var isInteger = true
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw numberError("expected a digit after '.'", at: position)
      }
      while position < bytes.count, isDigit(bytes[position]) {
        accumulate(bytes[position], into: &mantissa, exact: &exact)
        fractionDigits += 1
        position += 1
      }
    }
    var exponent = 0
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      var exponentNegative = false
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        exponentNegative = bytes[position] == UInt8(ascii: "-")
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw numberError("expected a digit in the exponent", at: position)
      }
      while position < bytes.count, isDigit(bytes[position]) {
        // Saturate: anything this large is already zero or infinity as a Double.
        exponent = min(exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")), 1_000_000)
        position += 1
      }
      if exponentNegative { exponent = -exponent }
    }

    if isInteger && exact {
      if !negative, mantissa <= UInt64(Int64.max) { return .integer(Int64(mantissa)) }
      // -0 has no Int64 form; as a double it keeps its sign.
      if negative, mantissa != 0, mantissa <= UInt64(Int64.max) + 1 {
        return .integer(Int64(bitPattern: 0 &- mantissa))
      }
    }

    let decimalExponent = exponent - fractionDigits
    if exact, mantissa <= 1 << 53, (-22...22).contains(decimalExponent) {
      // Clinger's fast path: both operands are exact doubles, so one rounding gives the
      // correctly rounded result.
      var value = Double(mantissa)
      if decimalExponent < 0 {
        value /= powersOfTen[-decimalExponent]
      } else {
        value *= powersOfTen[decimalExponent]
      }
      return .double(negative ? -value : value)
    }

    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw numberError("\(text) is out of range for a double", at: start)
    }
    return .double(value)
  }

  private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, exact: inout Bool) {
    guard exact else { return }
    let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
    let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
    if overflow1 || overflow2 {
      exact = false
    } else {
      mantissa = sum
    }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  // MARK: Errors

  private func numberError(_ detail: String, at offset: Int) -> JSONParseError {
    error(.invalidNumber(detail), at: offset)
  }

  /// Builds an error, computing line and column only now, on the cold path.
  @inline(never)
  private func error(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
    var line = 1
    var column = 1
    for byte in UnsafeBufferPointer(rebasing: bytes[0..<min(offset, bytes.count)]) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        // Count scalars, not bytes: continuation bytes do not start a new column.
        column += 1
      }
    }
    return JSONParseError(reason: reason, offset: offset, line: line, column: column)
  }
}

/// Exact powers of ten representable as `Double` (10^22 is the largest).
private let powersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
