// SPDX-License-Identifier: MIT

import JSONKit
import Testing

/// An input the parser must accept, with the tree it must produce.
struct AcceptCase: Sendable, CustomTestStringConvertible {
  let input: String
  let expected: JSONValue
  var testDescription: String { input.debugDescription }

  init(_ input: String, _ expected: JSONValue) {
    self.input = input
    self.expected = expected
  }
}

/// An input the parser must reject, with the reason and the 1-based line:column it must report.
struct RejectCase: Sendable, CustomTestStringConvertible {
  let name: String
  let bytes: [UInt8]
  let reason: JSONParseError.Reason
  let position: String

  var testDescription: String { name }

  init(_ text: String, _ reason: JSONParseError.Reason, at position: String) {
    name = text.debugDescription
    bytes = Array(text.utf8)
    self.reason = reason
    self.position = position
  }

  init(bytes: [UInt8], _ name: String, _ reason: JSONParseError.Reason, at position: String) {
    self.name = name
    self.bytes = bytes
    self.reason = reason
    self.position = position
  }
}

private func nested(_ depth: Int) -> String {
  String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

private let acceptCases: [AcceptCase] = [
  AcceptCase("null", .null),
  AcceptCase("true", true),
  AcceptCase("false", false),
  AcceptCase("0", 0),
  AcceptCase("-1", -1),
  AcceptCase("9223372036854775807", .integer(.max)),
  AcceptCase("-9223372036854775808", .integer(.min)),
  AcceptCase("9223372036854775808", .double(0x1p63)),
  AcceptCase("-9223372036854775809", .double(-0x1p63)),
  AcceptCase("123456789012345678901234567890", .double(1.2345678901234568e29)),
  AcceptCase("1.5", 1.5),
  AcceptCase("1e3", .double(1000)),
  AcceptCase("1E+3", .double(1000)),
  AcceptCase("-2.5e-3", -0.0025),
  AcceptCase("0.1", 0.1),
  AcceptCase("1e-300", 1e-300),
  AcceptCase("5e-324", .double(.leastNonzeroMagnitude)),
  AcceptCase("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
  AcceptCase("2.2250738585072014e-308", .double(.leastNormalMagnitude)),
  AcceptCase("1e-400", 0.0),
  AcceptCase("0.30000000000000004", 0.30000000000000004),
  AcceptCase("\"\"", ""),
  AcceptCase("\"h\\u00e9llo\"", "héllo"),
  AcceptCase("\"\\ud83d\\ude00\"", "😀"),
  AcceptCase("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\u{8}\u{c}\n\r\t"),
  AcceptCase("\"\\u0000\"", "\u{0}"),
  AcceptCase("\"é😀\u{7F}\"", "é😀\u{7F}"),
  AcceptCase(" \t\r\n[ 1 , 2 ]\n ", [1, 2]),
  AcceptCase("[]", []),
  AcceptCase("{}", [:]),
  AcceptCase("{\"a\":[{}],\"b\":null}", ["a": [[:]], "b": nil]),
  AcceptCase("[[[[[[[[[[1]]]]]]]]]]", [[[[[[[[[[1]]]]]]]]]]),
  AcceptCase(nested(64), .array([]).wrapped(in: 63)),
]

private let rejectCases: [RejectCase] = [
  RejectCase("", .emptyInput, at: "1:1"),
  RejectCase(" \n ", .emptyInput, at: "2:2"),
  RejectCase("[1,]", .unexpectedByte(UInt8(ascii: "]"), expected: "a value"), at: "1:4"),
  RejectCase(
    "{\"a\":1,}", .unexpectedByte(UInt8(ascii: "}"), expected: "'\"' to begin an object key"),
    at: "1:8"),
  RejectCase(
    "[1 2]", .unexpectedByte(UInt8(ascii: "2"), expected: "',' or ']' after array element"),
    at: "1:4"),
  RejectCase(
    "{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1"), expected: "':' after object key"), at: "1:6"),
  RejectCase(
    "{a:1}", .unexpectedByte(UInt8(ascii: "a"), expected: "'\"' to begin an object key"),
    at: "1:2"),
  RejectCase("// c\n1", .unexpectedByte(UInt8(ascii: "/"), expected: "a value"), at: "1:1"),
  RejectCase(
    "[1 /* c */]", .unexpectedByte(UInt8(ascii: "/"), expected: "',' or ']' after array element"),
    at: "1:4"),
  RejectCase("NaN", .unexpectedByte(UInt8(ascii: "N"), expected: "a value"), at: "1:1"),
  RejectCase("Infinity", .unexpectedByte(UInt8(ascii: "I"), expected: "a value"), at: "1:1"),
  RejectCase("-Infinity", .invalidNumber("expected a digit after '-'"), at: "1:2"),
  RejectCase("01", .invalidNumber("leading zeros are not allowed"), at: "1:1"),
  RejectCase("-012", .invalidNumber("leading zeros are not allowed"), at: "1:1"),
  RejectCase("1.", .invalidNumber("expected a digit after '.'"), at: "1:3"),
  RejectCase("1.e5", .invalidNumber("expected a digit after '.'"), at: "1:3"),
  RejectCase(".5", .unexpectedByte(UInt8(ascii: "."), expected: "a value"), at: "1:1"),
  RejectCase("+1", .unexpectedByte(UInt8(ascii: "+"), expected: "a value"), at: "1:1"),
  RejectCase("-", .invalidNumber("expected a digit after '-'"), at: "1:2"),
  RejectCase("1e", .invalidNumber("expected a digit in the exponent"), at: "1:3"),
  RejectCase("1e+", .invalidNumber("expected a digit in the exponent"), at: "1:4"),
  RejectCase("0x10", .trailingData, at: "1:2"),
  RejectCase("1e400", .invalidNumber("1e400 is out of range for a double"), at: "1:1"),
  RejectCase("[1]x", .trailingData, at: "1:4"),
  RejectCase("1 2", .trailingData, at: "1:3"),
  RejectCase("{} {}", .trailingData, at: "1:4"),
  RejectCase("tru", .unexpectedEnd(expected: "'true'"), at: "1:4"),
  RejectCase("True", .unexpectedByte(UInt8(ascii: "T"), expected: "a value"), at: "1:1"),
  RejectCase("nulL", .unexpectedByte(UInt8(ascii: "L"), expected: "'null'"), at: "1:4"),
  RejectCase("[", .unexpectedEnd(expected: "a value"), at: "1:2"),
  RejectCase("[1", .unexpectedEnd(expected: "',' or ']' after array element"), at: "1:3"),
  RejectCase("{", .unexpectedEnd(expected: "'\"' to begin an object key"), at: "1:2"),
  RejectCase("{\"a\":1", .unexpectedEnd(expected: "',' or '}' after object member"), at: "1:7"),
  RejectCase("\"abc", .unexpectedEnd(expected: "'\"' to close the string"), at: "1:5"),
  RejectCase("\"a\\nb", .unexpectedEnd(expected: "'\"' to close the string"), at: "1:6"),
  RejectCase("\"a\tb\"", .controlCharacterInString(0x09), at: "1:3"),
  RejectCase("\"a\nb\"", .controlCharacterInString(0x0A), at: "1:3"),
  RejectCase("\"\u{1F}\"", .controlCharacterInString(0x1F), at: "1:2"),
  RejectCase(
    "\"\\x\"", .invalidEscape("\\x is not one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"),
    at: "1:2"),
  RejectCase("\"\\u12\"", .invalidEscape("\\u needs four hex digits"), at: "1:6"),
  RejectCase("\"\\uZZZZ\"", .invalidEscape("\\u needs four hex digits"), at: "1:4"),
  RejectCase("\"\\ud800\"", .loneSurrogate(0xD800), at: "1:2"),
  RejectCase("\"\\udc00\"", .loneSurrogate(0xDC00), at: "1:2"),
  RejectCase("\"\\ud800\\u0041\"", .loneSurrogate(0xD800), at: "1:2"),
  RejectCase("\"\\ud800\\ud800\"", .loneSurrogate(0xD800), at: "1:2"),
  RejectCase("{\"a\":1,\"a\":2}", .duplicateKey("a"), at: "1:8"),
  RejectCase("\u{FEFF}1", .unexpectedByte(0xEF, expected: "a value"), at: "1:1"),
  RejectCase(nested(65), .nestingTooDeep(limit: 64), at: "1:65"),
  RejectCase(
    String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65),
    .nestingTooDeep(limit: 64), at: "1:321"),
  RejectCase(
    "{\n  \"a\": 1,\n  \"b\": ]\n}", .unexpectedByte(UInt8(ascii: "]"), expected: "a value"),
    at: "3:8"),
  RejectCase("[\"é\", ]", .unexpectedByte(UInt8(ascii: "]"), expected: "a value"), at: "1:7"),
  RejectCase(bytes: [0x22, 0xFF, 0x22], "byte 0xFF", .invalidUTF8, at: "1:2"),
  RejectCase(bytes: [0x22, 0x80, 0x22], "lone continuation byte", .invalidUTF8, at: "1:2"),
  RejectCase(bytes: [0x22, 0xC0, 0xAF, 0x22], "overlong '/'", .invalidUTF8, at: "1:2"),
  RejectCase(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], "overlong 3-byte", .invalidUTF8, at: "1:2"),
  RejectCase(
    bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "UTF-8 encoded surrogate", .invalidUTF8, at: "1:2"),
  RejectCase(bytes: [0x22, 0xE2, 0x82, 0x22], "truncated sequence", .invalidUTF8, at: "1:2"),
  RejectCase(
    bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "above U+10FFFF", .invalidUTF8, at: "1:2"),
  RejectCase(bytes: [0x22, 0x61, 0xC3], "truncated at end of input", .invalidUTF8, at: "1:3"),
  RejectCase(
    bytes: [0x5B, 0xC3, 0xA9, 0x5D], "non-ASCII outside a string",
    .unexpectedByte(0xC3, expected: "a value"), at: "1:2"),
]

extension JSONValue {
  fileprivate func wrapped(in levels: Int) -> JSONValue {
    var value = self
    for _ in 0..<levels { value = .array([value]) }
    return value
  }
}

@Suite("Parser")
struct ParserTests {
  @Test("accepts", arguments: acceptCases)
  func accepts(_ testCase: AcceptCase) throws {
    let parsed = try JSONValue.parse(testCase.input)
    #expect(identical(parsed, testCase.expected), "got \(parsed)")
    // The byte entry points agree with the String one.
    #expect(identical(try JSONValue.parse(Array(testCase.input.utf8)), parsed))
    #expect(identical(try JSONValue.parse(testCase.input.utf8), parsed))
  }

  @Test("rejects", arguments: rejectCases)
  func rejects(_ testCase: RejectCase) {
    let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(testCase.bytes) }
    #expect(error?.reason == testCase.reason)
    #expect(
      error.map { "\($0.line):\($0.column)" } == testCase.position, "\(String(describing: error))")
  }

  @Test func tableSizes() {
    #expect(acceptCases.count + rejectCases.count >= 40)
  }

  @Test func errorDescriptionNamesWhatAndWhere() {
    do {
      _ = try JSONValue.parse("{\"mode\": \"emom\" ]")
      Issue.record("expected a parse error")
    } catch {
      #expect(error.description == "expected ',' or '}' after object member, found ']' at 1:17")
      #expect(error.offset == 16)
    }
  }

  @Test func minusZeroIsADoubleWithItsSign() throws {
    let value = try JSONValue.parse("-0")
    guard case .double(let number) = value else {
      Issue.record("expected a double, got \(value)")
      return
    }
    #expect(number == 0 && number.sign == .minus)
    #expect(try JSONValue.parse("0") == .integer(0))
    #expect(try JSONValue.parse("-0.0").doubleValue?.sign == .minus)
  }

  @Test func integersStayExact() throws {
    #expect(try JSONValue.parse("9007199254740993") == .integer(9_007_199_254_740_993))
    #expect(try JSONValue.parse("-9007199254740993") == .integer(-9_007_199_254_740_993))
    #expect(try JSONValue.parse("1.0") == .double(1))
    #expect(try JSONValue.parse("1e0") == .double(1))
  }

  @Test func doublesParseCorrectlyRounded() throws {
    // Inputs outside Clinger's fast path go through the correctly rounded slow path.
    let cases: [(String, Double)] = [
      ("9007199254740993.0", 0x1p53),
      ("0.1e-30", 1e-31),
      ("123456789012345678901234567890e-10", 12_345_678_901_234_567_890.123_456_789),
      ("2.225073858507201e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),
      ("4.9406564584124654e-324", .leastNonzeroMagnitude),
      // Exactly halfway between 1 and the next double: ties to even, so 1.
      ("1.00000000000000011102230246251565404236316680908203125", 1.0),
      ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
    ]
    for (text, expected) in cases {
      let parsed = try JSONValue.parse(text).doubleValue
      #expect(
        parsed?.bitPattern == expected.bitPattern, "\(text) gave \(String(describing: parsed))")
    }
  }

  @Test func objectsKeepInsertionOrder() throws {
    let value = try JSONValue.parse("{\"z\":1,\"a\":2,\"m\":3}")
    #expect(value.objectValue?.keys == ["z", "a", "m"])
    #expect(value.serialized() == "{\"z\":1,\"a\":2,\"m\":3}")
  }

  @Test func duplicateKeysCanBeLastWins() throws {
    let options = JSONParseOptions(duplicateKeys: .lastWins)
    let value = try JSONValue.parse("{\"a\":1,\"b\":2,\"a\":3}", options: options)
    #expect(value.objectValue?.keys == ["a", "b"])
    #expect(value["a"] == 3)
  }

  @Test func duplicateDetectionUsesScalarsNotCanonicalEquivalence() throws {
    // "é" precomposed and decomposed are equal Swift Strings but different JSON keys.
    let value = try JSONValue.parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
    #expect(value.objectValue?.count == 2)
    #expect(value["\u{E9}"] == 1)
    #expect(value["e\u{301}"] == 2)
  }

  @Test func duplicateDetectionInLargeObjects() throws {
    let members = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let value = try JSONValue.parse("{\(members)}")
    #expect(value["k99"] == 99)
    #expect(value.objectValue?.keys.first == "k0")
    #expect(throws: JSONParseError.self) { try JSONValue.parse("{\(members),\"k42\":0}") }
  }

  @Test func depthLimitIsConfigurable() throws {
    let options = JSONParseOptions(maxDepth: 3)
    _ = try JSONValue.parse("[[[1]]]", options: options)
    _ = try JSONValue.parse("{\"a\":{\"b\":[2]}}", options: options)
    #expect(throws: JSONParseError.self) { try JSONValue.parse("[[[[1]]]]", options: options) }
    #expect(throws: JSONParseError.self) {
      try JSONValue.parse("{\"a\":{\"b\":[{}]}}", options: options)
    }
    // Scalars need no depth at all.
    _ = try JSONValue.parse("1", options: JSONParseOptions(maxDepth: 0))
  }

  @Test func hostileNestingFailsWithoutCrashing() {
    let hostile = String(repeating: "[", count: 1_000_000)
    let error = #expect(throws: JSONParseError.self) {
      try JSONValue.parse(hostile, options: JSONParseOptions(maxInputBytes: 2_000_000))
    }
    #expect(error?.reason == .nestingTooDeep(limit: 64))
  }

  @Test func inputSizeLimitIsConfigurable() throws {
    let options = JSONParseOptions(maxInputBytes: 8)
    _ = try JSONValue.parse("[1,2,3]", options: options)
    let error = #expect(throws: JSONParseError.self) {
      try JSONValue.parse("[1,2,3,4]", options: options)
    }
    #expect(error?.reason == .inputTooLarge(limit: 8))
  }

  @Test func nonContiguousCollectionsParse() throws {
    let bytes = Array("{\"a\":[1,2]}".utf8)
    let value = try JSONValue.parse(bytes.lazy.map { $0 })
    #expect(value == ["a": [1, 2]])
  }
}
