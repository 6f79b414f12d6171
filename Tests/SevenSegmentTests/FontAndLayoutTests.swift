// SPDX-License-Identifier: MIT
// The segment font against the datasheets' digit tables, and the layout template grammar.

import SevenSegment
import Testing

@Suite struct FontTests {
  @Test func digitsMatchTheTM1637DatasheetCodes() throws {
    // TM1637 datasheet v2.4 / reference table: 0 3F … 9 6F, A 77, b 7C, C 39, d 5E, E 79, F 71.
    let expected: [UInt8] = [
      0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F, 0x77, 0x7C, 0x39, 0x5E, 0x79,
      0x71,
      0x40, 0x00,
    ]
    let rendered = try SegmentFont.render("0123456789AbCdEF- ")
    #expect(rendered.map(\.rawValue) == expected)
  }

  @Test func clockWordsHaveShapes() throws {
    for word in ["GO", "rSt", "End", "PrE", "CAP", "r", "SEt", "HOLd", "Go", "ca"] {
      #expect(throws: Never.self) { try SegmentFont.render(word) }
    }
    #expect(try SegmentFont.render("rSt").map(\.description) == ["eg", "acdfg", "defg"])
  }

  @Test func pointsAndColonsLightTheDigitBefore() throws {
    let digits = try SegmentFont.render("12:3.4")
    #expect(digits.map(\.rawValue) == [0x06, 0x5B | 0x80, 0x4F | 0x80, 0x66])
    #expect(try SegmentFont.render(".5").map(\.rawValue) == [0x80, 0x6D])
  }

  @Test func aCharacterWithoutAShapeIsAClearError() {
    #expect(throws: UnshowableCharacterError(character: "M", position: 2)) {
      try SegmentFont.render("12M")
    }
    let error = UnshowableCharacterError(character: "W", position: 0)
    #expect(error.description.hasPrefix("'W' (position 1) cannot be shown on a 7-segment digit"))
  }

  @Test func bitMapsFollowTheDatasheets() {
    let two = Segments([.a, .b, .d, .e, .g])
    #expect(SegmentBitMap.standard.byte(for: two) == 0x5B)
    // MAX7219 no-decode: D7…D0 = DP A B C D E F G; its table gives 2 = 0x6D.
    #expect(SegmentBitMap.max7219.byte(for: two) == 0x6D)
    // SparkFun Large Digit Driver example: 2 = 0x5D, 0 = 0x7B, minus = 0x04.
    #expect(SegmentBitMap.sparkFunLargeDigit.byte(for: two) == 0x5D)
    #expect(SegmentBitMap(parsing: "a,f,g,e,d,c,b,dp") == .sparkFunLargeDigit)
    #expect(SegmentBitMap(parsing: "a b c d e f g dp") == .standard)
    #expect(SegmentBitMap(parsing: "a,a,g,e,d,c,b,dp") == nil)
    #expect(SegmentBitMap(parsing: "a,b") == nil)
    for byte in UInt8.min...UInt8.max {
      #expect(SegmentBitMap.max7219.byte(for: SegmentBitMap.max7219.segments(for: byte)) == byte)
    }
  }
}

@Suite struct LayoutTests {
  @Test func theCommercialLayout() throws {
    let layout = try SegmentLayout(parsing: "RR MM:SS")
    #expect(layout.digitCount == 6)
    #expect(layout.counter == 0..<2)
    #expect(layout.time == 2..<6)
    #expect(layout.timeGroups.map(\.unit) == [.minute, .second])
    #expect(layout.colonsAfter == [3])
  }

  @Test(arguments: [
    ("MM:SS", 4), ("HH:MM", 4), ("R MM:SS", 5), ("SS", 2), ("H:MM:SS", 5), ("RR__MM:SS", 8),
    ("M.SS", 3), ("RRR", 3),
  ])
  func validLayouts(_ template: String, _ digits: Int) throws {
    #expect(try SegmentLayout(parsing: template).digitCount == digits)
  }

  @Test(arguments: [
    ("", "it has no digits"),
    (":MM", "':' at position 1 follows no digit"),
    ("MM:SX", "'X' at position 5 is not a digit letter (R, H, M, S, _), ':', '.' or a space"),
    ("SS:MM", "time units must run from H to M to S"),
    ("HH:SS", "a time unit is missing between H and S"),
    ("MM:S", "S below another unit needs exactly two digits"),
    ("RR MM RR", "the counter digits (R) must be one run"),
    ("MM RR SS", "the time digits (H, M, S) must be one run"),
  ])
  func invalidLayoutsSayWhy(_ template: String, _ reason: String) {
    #expect(throws: SegmentLayoutError(template: template, reason: reason)) {
      try SegmentLayout(parsing: template)
    }
  }
}
