// SPDX-License-Identifier: MIT

import JSONKit
import Testing

@Suite("Serializer")
struct SerializerTests {
  @Test func scalars() {
    #expect(JSONValue.null.serialized() == "null")
    #expect(JSONValue.bool(true).serialized() == "true")
    #expect(JSONValue.bool(false).serialized() == "false")
    #expect(JSONValue.integer(0).serialized() == "0")
    #expect(JSONValue.integer(-42).serialized() == "-42")
    #expect(JSONValue.integer(.max).serialized() == "9223372036854775807")
    #expect(JSONValue.integer(.min).serialized() == "-9223372036854775808")
  }

  @Test func doublesUseShortestRoundTripForm() {
    #expect(JSONValue.double(0.1).serialized() == "0.1")
    #expect(JSONValue.double(1).serialized() == "1.0")
    #expect(JSONValue.double(-0.0).serialized() == "-0.0")
    #expect(JSONValue.double(1e-300).serialized() == "1e-300")
    #expect(JSONValue.double(0.1 + 0.2).serialized() == "0.30000000000000004")
    #expect(JSONValue.double(.greatestFiniteMagnitude).serialized() == "1.7976931348623157e+308")
  }

  @Test func nonFiniteDoublesBecomeNull() {
    #expect(JSONValue.double(.infinity).serialized() == "null")
    #expect(JSONValue.double(-.infinity).serialized() == "null")
    #expect(JSONValue.double(.nan).serialized() == "null")
  }

  @Test func stringEscapes() {
    let cases: [(String, String)] = [
      ("plain", "\"plain\""),
      ("quote\"back\\slash", "\"quote\\\"back\\\\slash\""),
      ("\n\r\t\u{8}\u{C}", "\"\\n\\r\\t\\b\\f\""),
      ("\u{0}\u{1}\u{1F}", "\"\\u0000\\u0001\\u001f\""),
      // DEL, '/', and non-ASCII need no escape; they stay as UTF-8.
      ("\u{7F}/é😀\u{2028}", "\"\u{7F}/é😀\u{2028}\""),
    ]
    for (input, expected) in cases {
      #expect(JSONValue.string(input).serialized() == expected)
    }
  }

  @Test func compactOutputIsOneLine() {
    let value: JSONValue = ["text": "line1\nline2\r\n", "list": [1, "a\u{0}b"], "empty": [:]]
    let text = value.serialized()
    #expect(!text.utf8.contains(UInt8(ascii: "\n")))
    #expect(!text.utf8.contains(UInt8(ascii: "\r")))
    #expect(text == #"{"text":"line1\nline2\r\n","list":[1,"a\u0000b"],"empty":{}}"#)
  }

  @Test func sortedKeysUseScalarOrder() {
    let value: JSONValue = ["b": 1, "a": ["z": true, "y": false], "é": 2, "B": 3, "": 4]
    #expect(
      value.serialized(options: .sortedKeys)
        == #"{"":4,"B":3,"a":{"y":false,"z":true},"b":1,"é":2}"#)
    // Without the option, insertion order.
    #expect(value.serialized().hasPrefix(#"{"b":1,"a":{"z":true"#))
  }

  @Test func prettyPrintingIndentsTwoSpaces() {
    let value: JSONValue = ["name": "EMOM", "rounds": [1, [2, 3], []], "meta": [:], "x": nil]
    let expected = """
      {
        "name": "EMOM",
        "rounds": [
          1,
          [
            2,
            3
          ],
          []
        ],
        "meta": {},
        "x": null
      }
      """
    #expect(value.serialized(options: .prettyPrinted) == expected)
    #expect(
      value.serialized(options: [.prettyPrinted, .sortedKeys]).hasPrefix("{\n  \"meta\": {},"))
  }

  @Test func bytesAndDescriptionMatch() {
    let value: JSONValue = ["a": [1, 2.5, "x"]]
    #expect(value.serializedBytes() == Array(value.serialized().utf8))
    #expect("\(value)" == value.serialized())
  }
}

@Suite("JSONValue API")
struct JSONValueAPITests {
  @Test func accessorsAndSubscripts() throws {
    let value = try JSONValue.parse(
      #"{"s":"x","i":7,"d":2.5,"b":true,"a":[1,null],"o":{"k":"v"},"n":null}"#)
    #expect(value["s"]?.stringValue == "x")
    #expect(value["i"]?.intValue == 7)
    #expect(value["i"]?.doubleValue == 7)
    #expect(value["d"]?.doubleValue == 2.5)
    #expect(value["d"]?.intValue == nil)
    #expect(value["b"]?.boolValue == true)
    #expect(value["a"]?[0] == 1)
    #expect(value["a"]?[1]?.isNull == true)
    #expect(value["a"]?[2] == nil)
    #expect(value["a"]?[-1] == nil)
    #expect(value["a"]?.arrayValue?.count == 2)
    #expect(value["o"]?["k"] == "v")
    #expect(value["o"]?.objectValue?.keys == ["k"])
    #expect(value["n"]?.isNull == true)
    #expect(value["missing"] == nil)
    #expect(value[0] == nil)
    #expect(JSONValue.string("x")["k"] == nil)
  }

  @Test func objectMutationKeepsOrder() {
    var object: JSONObject = ["a": 1, "b": 2, "c": 3]
    object["b"] = 20
    object["d"] = 4
    object["a"] = nil
    #expect(object.keys == ["b", "c", "d"])
    #expect(object.values == [20, 3, 4])
    #expect(object.removeValue(forKey: "zz") == nil)
    #expect(object.updateValue(30, forKey: "c") == 3)
    // Grow past the hash-index threshold and shrink again; lookups stay right throughout.
    for index in 0..<40 { object["k\(index)"] = .integer(Int64(index)) }
    #expect(object["k39"] == 39)
    for index in 0..<38 { object["k\(index)"] = nil }
    #expect(object.keys == ["b", "c", "d", "k38", "k39"])
    #expect(object["k38"] == 38)
    #expect(object.position(of: "d") == 2)
  }

  @Test func equalityIsOrderInsensitiveForObjects() {
    let one: JSONValue = ["a": 1, "b": [true, nil]]
    let two: JSONValue = ["b": [true, nil], "a": 1]
    #expect(one == two)
    #expect(one.hashValue == two.hashValue)
    #expect(Set([one, two]).count == 1)
    #expect(one != ["a": 1, "b": [nil, true]])
    #expect(JSONValue.integer(1) != JSONValue.double(1))
    #expect(JSONValue.double(0) == JSONValue.double(-0.0))
    #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
  }
}
