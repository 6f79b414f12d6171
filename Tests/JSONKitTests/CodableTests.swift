// SPDX-License-Identifier: MIT

import JSONKit
import Testing

// MARK: - A model shaped like the workout engine's persisted state

private enum Format: String, Codable, Equatable, Sendable {
  case emom, amrap, tabata, forTime
}

private enum Phase: Codable, Equatable, Sendable {
  case idle
  case countdown(remaining: Int)
  case work(round: Int, of: Int)
  case rest(Int64)
  case finished(reason: String?)
  indirect case paused(Phase)
}

private enum Event: Codable, Equatable, Sendable {
  case started(at: Int64)
  case paused(at: Int64, reason: String)
  case resumed(Int64)
  case lap(Lap)
  case horn
}

private struct Lap: Codable, Equatable, Sendable {
  var index: Int
  var split: Double
  var label: String?
}

private struct Block: Codable, Equatable, Sendable {
  var format: Format
  var seconds: UInt32
  var rounds: UInt16?
  var tempo: [Int8]
}

private struct EngineState: Codable, Equatable, Sendable {
  var version: Int
  var startedAt: Int64
  var elapsedNanos: UInt64
  var phase: Phase
  var history: [Event]
  var blocks: [Block]
  var repsByMinute: [Int: Int]
  var labels: [String: String]
  var note: String?
  var pausedAt: Int64?
  var gain: Float
  var samples: [Double]
  var optionalSamples: [Double?]
  var extremes: [Int64]
  var unsignedExtremes: [UInt64]
  var small: [Int8]
  var flags: [Bool]
  var nested: [[String: [Int]]]
  var extra: JSONValue
}

private let sample = EngineState(
  version: 3,
  startedAt: 1_764_450_000_123_456_789,
  elapsedNanos: 9_223_372_036_854_775_807,
  phase: .paused(.work(round: 4, of: 10)),
  history: [
    .started(at: Int64.min), .paused(at: 17, reason: "water \"break\"\n"), .resumed(Int64.max),
    .lap(Lap(index: 0, split: 0.1, label: nil)), .lap(Lap(index: 1, split: -0.0, label: "é😀")),
    .horn,
  ],
  blocks: [
    Block(format: .emom, seconds: 60, rounds: 10, tempo: [3, 1, -1]),
    Block(format: .forTime, seconds: UInt32.max, rounds: nil, tempo: []),
  ],
  repsByMinute: [1: 12, -2: 0, Int.max: Int.min],
  labels: ["": "empty key", "coach": "Sam", "naïve": "ünïcode"],
  note: nil,
  pausedAt: 0,
  gain: 0.1,
  samples: [
    0.1, 1e-300, -0.0, Double.leastNonzeroMagnitude.nextUp, .greatestFiniteMagnitude,
    -.leastNormalMagnitude,
    123_456_789.123_456_78, 1e22, 1e23,
  ],
  optionalSamples: [nil, 2.5, nil],
  extremes: [Int64.min, Int64.max, 0, -1],
  unsignedExtremes: [0, UInt64(Int64.max)],
  small: [Int8.min, Int8.max],
  flags: [true, false],
  nested: [[:], ["a": [], "b": [1, 2]]],
  extra: ["free": ["form", 1, 2.5, nil, true, [:]]]
)

@Suite("Codable")
struct CodableTests {
  @Test func realisticModelRoundTripsThroughValueAndText() throws {
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()

    let tree = try encoder.encode(sample)
    #expect(try decoder.decode(EngineState.self, from: tree) == sample)

    for options in [JSONSerializationOptions(), .sortedKeys, .prettyPrinted] {
      let text = try encoder.encodeToString(sample, options: options)
      let decoded = try decoder.decode(EngineState.self, from: text)
      #expect(decoded == sample)
      // Doubles come back bit for bit, including the sign of zero.
      #expect(decoded.samples.map(\.bitPattern) == sample.samples.map(\.bitPattern))
      #expect(decoded.gain.bitPattern == sample.gain.bitPattern)
    }

    let bytes = try encoder.encodeToBytes(sample)
    #expect(try decoder.decode(EngineState.self, fromBytes: bytes) == sample)
  }

  @Test func encodedShapeMatchesSwiftSynthesis() throws {
    let tree = try JSONValueEncoder().encode(sample)
    // Enums with associated values: one key naming the case, then the labelled (or _0) values.
    #expect(tree["phase"] == ["paused": ["_0": ["work": ["round": 4, "of": 10]]]])
    #expect(tree["history"]?[1] == ["paused": ["at": 17, "reason": "water \"break\"\n"]])
    #expect(tree["history"]?[2] == ["resumed": ["_0": .integer(.max)]])
    #expect(tree["history"]?[5] == ["horn": [:]])
    #expect(tree["blocks"]?[0]?["format"] == "emom")
    // A nil optional property is left out; a nil inside an array is null.
    #expect(tree["note"] == nil)
    #expect(tree["blocks"]?[1]?["rounds"] == nil)
    #expect(tree["optionalSamples"] == [nil, 2.5, nil])
    // Int-keyed dictionaries become objects with decimal string keys.
    #expect(tree["repsByMinute"]?["-2"] == 0)
    #expect(tree["repsByMinute"]?["\(Int.max)"] == .integer(.min))
    #expect(tree["extremes"] == [.integer(.min), .integer(.max), 0, -1])
    // Properties appear in declaration order.
    #expect(tree.objectValue?.keys.prefix(3) == ["version", "startedAt", "elapsedNanos"])
  }

  @Test func topLevelScalarsAndCollections() throws {
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()
    #expect(try encoder.encode(42) == 42)
    #expect(try encoder.encode("x") == "x")
    #expect(try encoder.encode(Int?.none) == nil)
    #expect(try encoder.encode([1, 2]) == [1, 2])
    #expect(try decoder.decode(Int.self, from: "42") == 42)
    #expect(try decoder.decode(Int?.self, from: "null") == nil)
    #expect(try decoder.decode([String: Int].self, from: #"{"a":1}"#) == ["a": 1])
    #expect(try decoder.decode([Int: String].self, from: #"{"7":"x"}"#) == [7: "x"])
    #expect(try decoder.decode(JSONValue.self, from: #"[1,{"a":null}]"#) == [1, ["a": nil]])
  }

  @Test func integersAreExactAcrossAllWidths() throws {
    struct Widths: Codable, Equatable {
      var i8: Int8
      var i16: Int16
      var i32: Int32
      var i64: Int64
      var int: Int
      var u8: UInt8
      var u16: UInt16
      var u32: UInt32
      var u64: UInt64
      var uint: UInt
    }
    for widths in [
      Widths(
        i8: .min, i16: .min, i32: .min, i64: .min, int: .min, u8: 0, u16: 0, u32: 0, u64: 0,
        uint: 0),
      Widths(
        i8: .max, i16: .max, i32: .max, i64: .max, int: .max, u8: .max, u16: .max, u32: .max,
        u64: UInt64(Int64.max), uint: UInt(Int64.max)),
    ] {
      let text = try JSONValueEncoder().encodeToString(widths)
      #expect(try JSONValueDecoder().decode(Widths.self, from: text) == widths)
    }
    // Other producers may write integral doubles; they are accepted when exact.
    #expect(try JSONValueDecoder().decode(UInt8.self, from: "255.0") == 255)
    #expect(try JSONValueDecoder().decode(Int.self, from: "1e3") == 1000)
  }

  @Test func classHierarchiesUseSuperEncoder() throws {
    let value = Derived(base: 1, extra: "x", items: [2, 3])
    let tree = try JSONValueEncoder().encode(value)
    #expect(tree == ["extra": "x", "super": ["base": 1], "items": [["base": 2], 3]])
    let decoded = try JSONValueDecoder().decode(Derived.self, from: tree)
    #expect(decoded.base == 1 && decoded.extra == "x" && decoded.items == [2, 3])
  }

  @Test func userInfoReachesImplementations() throws {
    let key = CodingUserInfoKey(rawValue: "unit")!
    let encoded = try JSONValueEncoder(userInfo: [key: "ms"]).encode(UserInfoProbe())
    #expect(encoded == "ms")
    let decoded = try JSONValueDecoder(userInfo: [key: "s"]).decode(
      UserInfoProbe.self, from: "\"x\"")
    #expect(decoded.seen == "s")
  }

  // MARK: Encoding errors

  @Test func nonFiniteNumbersAreRefused() {
    let error = #expect(throws: EncodingError.self) {
      try JSONValueEncoder().encode(Lap(index: 0, split: .nan, label: nil))
    }
    guard case .invalidValue(_, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["split"])
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Float.infinity]) }
  }

  @Test func unsignedValuesBeyondInt64AreRefusedNotRounded() {
    let error = #expect(throws: EncodingError.self) {
      try JSONValueEncoder().encode(["n": [UInt64.max]])
    }
    guard case .invalidValue(_, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["n", "Index 0"])
    #expect(context.debugDescription.contains("18446744073709551615"))
  }

  // MARK: Decoding errors

  @Test func typeMismatchCarriesThePath() throws {
    var tree = try JSONValueEncoder().encode(sample)
    tree = tree.replacing(at: ["blocks", 1, "seconds"], with: "sixty")
    let error = #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(EngineState.self, from: tree)
    }
    guard case .typeMismatch(let type, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(type is UInt32.Type)
    #expect(context.codingPath.map(\.stringValue) == ["blocks", "Index 1", "seconds"])
    #expect(context.codingPath[1].intValue == 1)
    #expect(context.debugDescription == "Expected UInt32 at blocks[1].seconds but found a string.")
  }

  @Test func missingKeyIsKeyNotFound() throws {
    let error = #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode([Lap].self, from: #"[{"index":0,"split":1.5},{"index":1}]"#)
    }
    guard case .keyNotFound(let key, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "split")
    #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
  }

  @Test func missingOptionalKeyDecodesAsNil() throws {
    let lap = try JSONValueDecoder().decode(Lap.self, from: #"{"index":0,"split":1}"#)
    #expect(lap == Lap(index: 0, split: 1, label: nil))
    let nullLap = try JSONValueDecoder().decode(
      Lap.self, from: #"{"index":0,"split":1,"label":null}"#)
    #expect(nullLap.label == nil)
  }

  @Test func nullForARequiredValueIsValueNotFound() {
    let error = #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Lap.self, from: #"{"index":null,"split":1}"#)
    }
    guard case .valueNotFound(_, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["index"])
  }

  @Test(arguments: [
    ("300", "UInt8"), ("-1", "UInt8"), ("1.5", "UInt8"), ("128", "Int8"), ("1e300", "Int64"),
    ("9223372036854775808", "Int64"),
  ])
  func outOfRangeIntegersAreDataCorrupted(text: String, typeName: String) {
    let error = #expect(throws: DecodingError.self) {
      let json = "{\"v\":[\(text)]}"
      switch typeName {
      case "UInt8": _ = try JSONValueDecoder().decode([String: [UInt8]].self, from: json)
      case "Int8": _ = try JSONValueDecoder().decode([String: [Int8]].self, from: json)
      default: _ = try JSONValueDecoder().decode([String: [Int64]].self, from: json)
      }
    }
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["v", "Index 0"])
    #expect(context.debugDescription.contains("does not fit in \(typeName)"))
  }

  @Test func integralDoublesDecodeExactlyAndFractionsDoNot() throws {
    let decoder = JSONValueDecoder()
    #expect(try decoder.decode(Int.self, from: "-0.0") == 0)
    #expect(try decoder.decode(Int64.self, from: "-9.223372036854775808e18") == .min)
    #expect(try decoder.decode(UInt64.self, from: "18446744073709549568.0") == UInt64.max - 2047)
    #expect(try decoder.decode(Int64.self, from: "4503599627370496.0") == 1 << 52)
    #expect(try decoder.decode(Int128.self, from: "-1e18") == -1_000_000_000_000_000_000)
    for text in ["0.5", "-0.5", "1e-320", "4503599627370495.5", "1.8446744073709552e19", "1e300"] {
      #expect(throws: DecodingError.self, "\(text)") { try decoder.decode(UInt64.self, from: text) }
      #expect(throws: DecodingError.self, "\(text)") { try decoder.decode(Int128.self, from: text) }
    }
  }

  @Test func floatOutOfRangeIsDataCorrupted() throws {
    #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Float.self, from: "1e39") }
    #expect(try JSONValueDecoder().decode(Float.self, from: "3") == 3)
  }

  @Test func unknownEnumCaseFails() {
    #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Phase.self, from: #"{"sprint":{}}"#)
    }
    #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Phase.self, from: #"{"idle":{},"rest":{"_0":1}}"#)
    }
    #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Format.self, from: "\"x\"")
    }
  }

  @Test func unkeyedContainerPastTheEnd() {
    let error = #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Pair.self, from: "[1]")
    }
    guard case .valueNotFound(_, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
  }

  @Test func invalidJSONTextIsDataCorruptedWithTheParseError() {
    let error = #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Lap.self, from: #"{"index":0,}"#)
    }
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.underlyingError is JSONParseError)
    #expect(context.debugDescription.hasSuffix("at 1:12"))
  }

  @Test func parseLimitsApplyToDecoding() {
    let decoder = JSONValueDecoder(parseOptions: JSONParseOptions(maxDepth: 2))
    #expect(throws: DecodingError.self) { try decoder.decode([[[Int]]].self, from: "[[[1]]]") }
  }
}

// MARK: - Helpers

/// Decodes exactly two integers from an unkeyed container.
private struct Pair: Decodable {
  var first: Int
  var second: Int

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    first = try container.decode(Int.self)
    second = try container.decode(Int.self)
  }
}

private struct UserInfoProbe: Codable {
  static let key = CodingUserInfoKey(rawValue: "unit")!
  var seen: String?

  init() {}

  init(from decoder: any Decoder) throws {
    seen = decoder.userInfo[Self.key] as? String
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
  }
}

private class Base: Codable {
  var base: Int

  init(base: Int) { self.base = base }
}

/// Encodes its superclass through `superEncoder()`, and its items through an unkeyed
/// container's `superEncoder()`, the way hand-written class hierarchies do.
private final class Derived: Base {
  var extra: String
  var items: [Int]

  private enum CodingKeys: String, CodingKey {
    case extra, items
  }

  init(base: Int, extra: String, items: [Int]) {
    self.extra = extra
    self.items = items
    super.init(base: base)
  }

  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    extra = try container.decode(String.self, forKey: .extra)
    var list = try container.nestedUnkeyedContainer(forKey: .items)
    let first = try Base(from: list.superDecoder())
    items = [first.base, try list.decode(Int.self)]
    try super.init(from: container.superDecoder())
  }

  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(extra, forKey: .extra)
    try super.encode(to: container.superEncoder())
    var list = container.nestedUnkeyedContainer(forKey: .items)
    try Base(base: items[0]).encode(to: list.superEncoder())
    try list.encode(items[1])
  }
}

extension JSONValue {
  /// A copy with the value at `path` (object keys and array indices) replaced.
  fileprivate func replacing(at path: [PathStep], with replacement: JSONValue) -> JSONValue {
    guard let step = path.first else { return replacement }
    let rest = Array(path.dropFirst())
    switch (self, step) {
    case (.object(var object), .key(let key)):
      object[key] = object[key]?.replacing(at: rest, with: replacement)
      return .object(object)
    case (.array(var array), .index(let index)):
      array[index] = array[index].replacing(at: rest, with: replacement)
      return .array(array)
    default:
      return self
    }
  }
}

private enum PathStep: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case key(String)
  case index(Int)

  init(stringLiteral value: String) { self = .key(value) }
  init(integerLiteral value: Int) { self = .index(value) }
}

// MARK: - Hand-written containers

/// Uses every container shape the synthesized code does not: nested containers inside an
/// unkeyed container, and single-value containers in arrays.
private struct Grid: Codable, Equatable {
  var title: String
  var rows: [[Int]]

  private enum HeaderKeys: String, CodingKey {
    case title, width
  }

  init(title: String, rows: [[Int]]) {
    self.title = title
    self.rows = rows
  }

  init(from decoder: any Decoder) throws {
    var list = try decoder.unkeyedContainer()
    let header = try list.nestedContainer(keyedBy: HeaderKeys.self)
    title = try header.decode(String.self, forKey: .title)
    let width = try header.decode(Int.self, forKey: .width)
    rows = []
    while !list.isAtEnd {
      var row = try list.nestedUnkeyedContainer()
      var values: [Int] = []
      for _ in 0..<width { values.append(try row.decode(Int.self)) }
      rows.append(values)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    var header = list.nestedContainer(keyedBy: HeaderKeys.self)
    try header.encode(title, forKey: .title)
    try header.encode(rows.first?.count ?? 0, forKey: .width)
    for values in rows {
      var row = list.nestedUnkeyedContainer()
      for value in values { try row.encode(value) }
    }
  }
}

/// Calls `JSONValue`'s own `Codable` implementation rather than the coders' shortcut.
private struct Wrapped: Codable, Equatable {
  var value: JSONValue

  init(_ value: JSONValue) { self.value = value }
  init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

@Suite("Codable containers")
struct CodableContainerTests {
  @Test func nestedContainersInsideUnkeyedContainers() throws {
    let grid = Grid(title: "EMOM", rows: [[1, 2, 3], [4, 5, 6]])
    let tree = try JSONValueEncoder().encode(grid)
    #expect(tree == [["title": "EMOM", "width": 3], [1, 2, 3], [4, 5, 6]])
    #expect(try JSONValueDecoder().decode(Grid.self, from: tree) == grid)

    let error = #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(Grid.self, from: #"[{"title":"x","width":2},[1,2],[3,"4"]]"#)
    }
    guard case .typeMismatch(_, let context)? = error else {
      Issue.record("wrong error \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["Index 2", "Index 1"])
  }

  @Test func jsonValueCodableKeepsNumberKinds() throws {
    let value: JSONValue = ["i": 1, "d": 1.0, "z": -0.0, "a": [nil, true, "s"], "o": [:]]
    let tree = try JSONValueEncoder().encode(Wrapped(value))
    #expect(identical(tree, value))
    let decoded = try JSONValueDecoder().decode(Wrapped.self, from: value)
    #expect(identical(decoded.value, value))
  }
}
