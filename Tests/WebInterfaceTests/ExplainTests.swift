// SPDX-License-Identifier: MIT
// `/api/explain`: the notation's explanation as `wodclockctl explain --json` prints it, or where
// the text stops being a workout, in Unicode scalars of the text, so a page can underline it.

import JSONKit
import Testing
import WebInterface
import WorkoutCore
import WorkoutNotation

@Suite("Web explain")
struct ExplainTests {
  @Test("a workout: ok, and the explanation object the client prints with --json")
  func success() throws {
    let (status, body) = WebAPI.explain("amrap 14", defaultCountIn: .seconds(10))
    #expect(status == 200)
    #expect(body["ok"] == true)
    let expected = try WorkoutNotation.explain("amrap 14").get().json
    #expect(body["explanation"] == expected)
    #expect(body["explanation"]?["mode"] == "amrap")
    #expect(body["explanation"]?["total_s"] == 840)
    #expect(body["explanation"]?["count_in_s"] == 10)
  }

  @Test("the configuration's count-in is the one a text without its own gets")
  func countIn() {
    let (_, body) = WebAPI.explain("emom 10", defaultCountIn: .seconds(5))
    #expect(body["explanation"]?["count_in_s"] == 5)
    let (_, own) = WebAPI.explain("emom 10 no countin", defaultCountIn: .seconds(5))
    #expect(own["explanation"]?["count_in_s"] == 0)
  }

  @Test("not a workout: 200 with the problem's message, hint, column and length")
  func failure() throws {
    let (status, body) = WebAPI.explain("amarp 12", defaultCountIn: .seconds(10))
    #expect(status == 200)
    #expect(body["ok"] == false)
    let error = try #require(body["error"]?.objectValue)
    #expect(error.keys == ["code", "message", "hint", "column", "length"])
    #expect(error["code"] == "not_a_workout")
    #expect(error["message"]?.stringValue?.contains("amarp") == true)
    #expect(error["hint"] == "did you mean 'amrap'?")
    #expect(error["column"] == 1)
    #expect(error["length"] == 5)

    let (_, later) = WebAPI.explain("21-15-9 for tme cap 10", defaultCountIn: .seconds(10))
    #expect(later["error"]?["column"] == 13)
    #expect(later["error"]?["length"] == 3)
  }

  @Test("columns count Unicode scalars of the text, not bytes or UTF-16 units")
  func unicodeColumns() throws {
    // The lifter is one scalar (two UTF-16 units, four bytes) and its variation selector
    // another; é is one scalar (two bytes).
    let text = "emom 12: \u{1F3CB}\u{FE0F} squats / burp\u{E9}es + amarp 5"
    let (status, body) = WebAPI.explain(text, defaultCountIn: .seconds(10))
    #expect(status == 200)
    let error = try #require(body["error"])
    let start = try #require(text.unicodeScalars.firstIndex(of: "+"))
    let before = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: start)
    #expect(error["column"] == .integer(Int64(before + 3)))
    #expect(error["column"] == 32)
    #expect(error["length"] == 5)
    #expect(error["message"]?.stringValue?.contains("amarp") == true)
  }

  @Test("an empty text, and one that stops short: the mark stays on the text, one wide")
  func edges() throws {
    let (status, empty) = WebAPI.explain("", defaultCountIn: .seconds(10))
    #expect(status == 200)
    #expect(empty["error"]?["code"] == "not_a_workout")
    #expect(empty["error"]?["column"] == 1)
    #expect(empty["error"]?["length"] == 1)
    // A text that ends too soon is marked just after its end, as the caret shows it.
    let (_, short) = WebAPI.explain("emom", defaultCountIn: .seconds(10))
    #expect(short["error"]?["column"] == 5)
    #expect(short["error"]?["length"] == 1)
  }

  @Test("a text over 500 characters is 400 too_long; 500 is read")
  func tooLong() {
    let (status, body) = WebAPI.explain(String(repeating: "a", count: 501), defaultCountIn: .zero)
    #expect(status == 400)
    #expect(body["ok"] == false)
    #expect(body["error"]?["code"] == "too_long")
    let (read, _) = WebAPI.explain(
      "amrap 14" + String(repeating: " ", count: 492), defaultCountIn: .zero)
    #expect(read == 200)
  }
}
