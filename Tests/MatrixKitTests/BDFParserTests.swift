// SPDX-License-Identifier: MIT
// The BDF parser on small hand-written fonts: line metrics from properties or the bounding box,
// advances, descenders, rows wider than a byte, the leniencies real files need (CRLF, trailing
// spaces, unencoded glyphs), and every mistake reported at its line with a hint.

import DisplayKit
import MatrixKit
import Testing

/// A font file: the header, then `glyphs`, then ENDFONT.
func bdf(
  box: String? = "FONTBOUNDINGBOX 5 7 0 -2", properties: [String] = [],
  glyphs: String, end: String = "ENDFONT"
) -> String {
  var lines = ["STARTFONT 2.1", "COMMENT a font for the tests", "FONT -test-fixed-5x7"]
  lines.append("SIZE 7 75 75")
  if let box { lines.append(box) }
  if !properties.isEmpty {
    lines.append("STARTPROPERTIES \(properties.count)")
    lines += properties
    lines.append("ENDPROPERTIES")
  }
  lines.append("CHARS 1")
  return (lines + [glyphs, end]).joined(separator: "\n") + "\n"
}

/// One glyph's lines.
func glyph(
  _ name: String, encoding: String, dwidth: String? = "DWIDTH 6 0", bbx: String?,
  rows: [String]
) -> String {
  var lines = ["STARTCHAR \(name)", "ENCODING \(encoding)", "SWIDTH 857 0"]
  if let dwidth { lines.append(dwidth) }
  if let bbx { lines.append(bbx) }
  lines.append("BITMAP")
  return (lines + rows + ["ENDCHAR"]).joined(separator: "\n")
}

/// A glyph picture (`#` lit) as BDF hex rows.
func hexRows(_ picture: [String]) -> [String] {
  picture.map { line in
    let bytes = (line.count + 7) / 8
    var value: [UInt8] = Array(repeating: 0, count: max(1, bytes))
    for (column, pixel) in line.enumerated() where pixel == "#" {
      value[column / 8] |= 0x80 >> UInt8(column % 8)
    }
    let digits = Array("0123456789ABCDEF")
    return String(value.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }
}

let letterA = [".###.", "#...#", "#...#", "#####", "#...#"]
let questionMark = ["###", "..#", ".#.", "...", ".#."]

/// `A` (5 wide, on the baseline) and `?`: the smallest useful font.
let smallFont = bdf(
  glyphs: [
    glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)),
    glyph(
      "question", encoding: "63", dwidth: "DWIDTH 4 0", bbx: "BBX 3 5 0 0",
      rows: hexRows(questionMark)),
  ].joined(separator: "\n"))

/// What `text` looks like drawn in `font` at the top-left of a picture: one string per row of
/// the picture, `#` lit.
func picture(_ text: String, in font: CaptionFont, width: Int = 24, scale: Int = 1) -> [String] {
  var buffer = Framebuffer(
    width: width, height: font.height * scale, fill: RGB(red: 0, green: 0, blue: 0))
  font.draw(
    text, x: 0, y: 0, color: RGB(red: 255, green: 255, blue: 255), scale: scale, into: &buffer)
  return (0..<buffer.height).map { y in
    String((0..<buffer.width).map { buffer[$0, y].red > 0 ? "#" : "." })
  }
}

@Suite struct BDFParserTests {
  @Test func theLineIsTheBoundingBoxUnlessPropertiesSayOtherwise() throws {
    let glyphs = glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))
    // FONTBOUNDINGBOX 5 7 0 -2: 5 rows above the baseline, 2 below.
    let boxed = try CaptionFont(bdf: bdf(glyphs: glyphs))
    #expect(boxed.ascent == 5 && boxed.descent == 2 && boxed.height == 7)
    let properties = try CaptionFont(
      bdf: bdf(properties: ["FONT_ASCENT 6", "FONT_DESCENT 3"], glyphs: glyphs))
    #expect(properties.ascent == 6 && properties.descent == 3 && properties.height == 9)
    // One property alone overrides its half only.
    let ascentOnly = try CaptionFont(bdf: bdf(properties: ["FONT_ASCENT 8"], glyphs: glyphs))
    #expect(ascentOnly.ascent == 8 && ascentOnly.descent == 2)
    // Neither: the glyphs' own extent.
    let bare = try CaptionFont(bdf: bdf(box: nil, glyphs: glyphs))
    #expect(bare.ascent == 5 && bare.descent == 0)
    // Text is placed by the top of its line: with 6 rows above the baseline, the 5-row A
    // starts one row down.
    #expect(
      picture("A", in: properties, width: 5)
        == ["....."] + letterA + Array(repeating: ".....", count: 3))
  }

  @Test func theAdvanceIsDWIDTHElseTheGlyphsRightEdgeElseTheFontsBox() throws {
    let font = try CaptionFont(
      bdf: bdf(
        glyphs: [
          glyph(
            "A", encoding: "65", dwidth: "DWIDTH 7 0", bbx: "BBX 5 5 0 0",
            rows: hexRows(letterA)),
          glyph(
            "B", encoding: "66", dwidth: nil, bbx: "BBX 4 5 1 0",
            rows: hexRows(letterA.map { String($0.prefix(4)) })),
          glyph("space", encoding: "32", dwidth: nil, bbx: "BBX 0 0 0 0", rows: []),
        ].joined(separator: "\n")))
    #expect(font.glyph(for: "A")?.advance == 7)
    #expect(font.glyph(for: "B")?.advance == 5)
    #expect(font.glyph(for: " ")?.advance == 5)  // FONTBOUNDINGBOX 5 …
    // The width ends at the last glyph's right edge, whatever its advance.
    #expect(font.width(of: "A") == 5)
    #expect(font.width(of: "AA") == 12)
    #expect(font.width(of: "AB") == 7 + 1 + 4)
    #expect(font.width(of: "AB", scale: 2) == 24)
    #expect(font.width(of: "") == 0)
    // A font-wide DWIDTH stands in for the glyphs' own.
    let global = try CaptionFont(
      bdf: bdf(
        box: "FONTBOUNDINGBOX 5 7 0 -2\nDWIDTH 8 0",
        glyphs: glyph("A", encoding: "65", dwidth: nil, bbx: "BBX 5 5 0 0", rows: hexRows(letterA)))
    )
    #expect(global.glyph(for: "A")?.advance == 8)
  }

  @Test func descendersAndRaisedGlyphsSitOnTheBaseline() throws {
    // 3 rows above the baseline, 2 below: a comma hangs below, a dash floats above.
    let font = try CaptionFont(
      bdf: bdf(
        box: "FONTBOUNDINGBOX 3 5 0 -2",
        glyphs: [
          glyph(
            "comma", encoding: "44", dwidth: "DWIDTH 3 0", bbx: "BBX 2 3 0 -2",
            rows: hexRows([".#", ".#", "#."])),
          glyph(
            "hyphen", encoding: "45", dwidth: "DWIDTH 4 0", bbx: "BBX 3 1 0 1",
            rows: hexRows(["###"])),
          glyph(
            "I", encoding: "73", dwidth: "DWIDTH 2 0", bbx: "BBX 1 3 0 0",
            rows: hexRows(["#", "#", "#"])),
        ].joined(separator: "\n")))
    let comma = try #require(font.glyph(for: ","))
    #expect(comma.yOffset == -2 && comma.height == 3 && comma.xOffset == 0)
    #expect(
      picture("I,-I", in: font, width: 12) == [
        "#........#..",
        "#....###.#..",
        "#..#.....#..",
        "...#........",
        "..#.........",
      ])
    // At double size every pixel is a 2×2 block, the baseline in the same place.
    let doubled = picture(",", in: font, width: 4, scale: 2)
    #expect(doubled[4...5] == ["..##", "..##"])
    #expect(doubled[8...9] == ["##..", "##.."])
  }

  @Test func rowsWiderThanAByteAndOddlyPaddedRows() throws {
    // 20 pixels: three bytes a row, the last half padding; 70 pixels: nine bytes.
    let twenty = String(repeating: "#.", count: 10)
    let seventy = "#" + String(repeating: ".", count: 68) + "#"
    let font = try CaptionFont(
      bdf: bdf(
        box: "FONTBOUNDINGBOX 70 2 0 0",
        glyphs: [
          glyph(
            "W", encoding: "87", dwidth: "DWIDTH 21 0", bbx: "BBX 20 2 0 0",
            rows: hexRows([twenty, twenty])),
          glyph(
            "M", encoding: "77", dwidth: "DWIDTH 70 0", bbx: "BBX 70 1 0 0",
            rows: hexRows([seventy])),
          // One digit short, and two extra digits with bits past the width: both read as the
          // width says.
          glyph(
            "T", encoding: "84", dwidth: "DWIDTH 10 0", bbx: "BBX 9 2 0 0",
            rows: ["FF8", "FFFFFF"]),
        ].joined(separator: "\n")))
    let w = try #require(font.glyph(for: "W"))
    #expect(font.rows(of: w) == [twenty, twenty])
    let m = try #require(font.glyph(for: "M"))
    #expect(font.rows(of: m) == [seventy])
    let t = try #require(font.glyph(for: "T"))
    #expect(font.rows(of: t) == ["#########", "#########"])
    // Two rows above the baseline: the one-row M sits on the lower.
    #expect(
      picture("M", in: font, width: 72) == [String(repeating: ".", count: 72), seventy + ".."])
  }

  @Test func crlfTrailingSpacesTabsAndBlankLinesReadTheSame() throws {
    let plain = try CaptionFont(bdf: smallFont)
    var messy = smallFont.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : $0 + "  \t" }
      .joined(separator: "\r\n")
    messy = messy.replacing("BBX 5 5 0 0", with: "BBX\t5  5 0\t0")
    messy = messy.replacing("ENDPROPERTIES", with: "ENDPROPERTIES\r\n\r\n")
    #expect(messy.contains("\r\n"))
    #expect(try CaptionFont(bdf: messy) == plain)
    #expect(plain.glyphCount == 2)
  }

  @Test func unencodedGlyphsAreLeftOutAndTheOldFormNamesItsCode() throws {
    let font = try CaptionFont(
      bdf: bdf(
        glyphs: [
          glyph("ornament", encoding: "-1", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)),
          glyph("B", encoding: "-1 66", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)),
          glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)),
          // A second glyph for a code: the first one stays.
          glyph("A.alt", encoding: "65", bbx: "BBX 1 1 0 0", rows: ["80"]),
        ].joined(separator: "\n")))
    #expect(font.glyphCount == 2)
    #expect(font.glyph(forCodePoint: 66) != nil)
    #expect(font.glyph(forCodePoint: 65)?.width == 5)
  }

  @Test func textAsWrittenElseCapitalsElseWithoutAccentElseQuestionMarkElseNothing() throws {
    let font = try CaptionFont(
      bdf: bdf(
        glyphs: [
          glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)),
          glyph("a", encoding: "97", dwidth: "DWIDTH 2 0", bbx: "BBX 1 1 0 0", rows: ["80"]),
          glyph("E", encoding: "69", dwidth: "DWIDTH 3 0", bbx: "BBX 2 1 0 0", rows: ["C0"]),
          glyph("e", encoding: "101", dwidth: "DWIDTH 4 0", bbx: "BBX 3 1 0 0", rows: ["E0"]),
          glyph(
            "question", encoding: "63", dwidth: "DWIDTH 4 0", bbx: "BBX 3 5 0 0",
            rows: hexRows(questionMark)),
        ].joined(separator: "\n")))
    #expect(font.glyph(for: "a")?.width == 1)  // as written
    #expect(font.glyph(for: "À")?.width == 5)  // no À: A
    #expect(font.glyph(for: "à")?.width == 1)  // no à: a, its own case
    #expect(font.glyph(for: "é")?.width == 3)
    #expect(font.glyph(for: "É")?.width == 2)
    #expect(font.glyph(for: "z")?.width == 3)  // nothing like it: ?
    #expect(font.supports("aAÀàéÉ"))
    #expect(!font.supports("z"))
    // Without a `?` a missing character takes no room.
    let noQuestionMark = try CaptionFont(
      bdf: bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))))
    #expect(noQuestionMark.glyph(for: "z") == nil)
    #expect(noQuestionMark.width(of: "AzA") == noQuestionMark.width(of: "AA"))
  }

  @Test func theBuiltInFontUpperCasesAndFoldsAccents() {
    let font = CaptionFont.small
    #expect(font.height == 5 && font.ascent == 5 && font.descent == 0)
    #expect(font.width(of: "WORK") == 5 + 3 + 3 + 3 + 3)
    #expect(font.width(of: "work") == font.width(of: "WORK"))
    #expect(font.width(of: "DÉPART") == font.width(of: "DEPART"))
    #expect(font.width(of: "R 3/10", scale: 2) == 2 * font.width(of: "R 3/10"))
    #expect(font.supports("Pausé ↓3·0×4"))
    // Characters it lacks are drawn as `?`; ß (whose capital is two letters) included.
    #expect(!font.supports("ß@"))
    #expect(font.width(of: "ß") == font.width(of: "?"))
  }

  @Test func glyphPixelsOutsideTheLineAreNotDrawn() throws {
    // A 7-row glyph in a font whose lines are 5 rows: the rows above and below are cut.
    let font = try CaptionFont(
      bdf: bdf(
        properties: ["FONT_ASCENT 4", "FONT_DESCENT 1"],
        glyphs: glyph(
          "I", encoding: "73", dwidth: "DWIDTH 2 0", bbx: "BBX 1 7 0 -2",
          rows: hexRows(["#", ".", "#", "#", "#", ".", "#"]))))
    #expect(picture("I", in: font, width: 2) == [".."] + ["#.", "#.", "#."] + [".."])
  }

  @Test func theFixtureFontHasWhatTheClockShows() throws {
    let font = try CaptionFont(bdf: fixture("caps-8.bdf"))
    #expect(font.name == "-wodclock-Caps-Medium-R-Normal--8-80-75-75-P-50-ISO10646-1")
    #expect(font.characterSet == "ISO10646-1")
    #expect(font.ascent == 7 && font.descent == 1)
    #expect(font.glyphCount == 49)
    #expect(font.supports("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ :.,-/?!+↓↑·×"))
    let q = try #require(font.glyph(for: "Q"))
    #expect(q.yOffset == -1 && q.height == 8)
  }

  // MARK: - Mistakes

  static let mistakes: [(name: String, text: String, line: Int, message: String)] = [
    (
      "bad hex",
      bdf(
        glyphs: glyph(
          "A", encoding: "65", bbx: "BBX 5 5 0 0", rows: ["70", "8G", "88", "F8", "88"])),
      14, "'8G' is not a row of hex digits"
    ),
    (
      "too few rows",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: ["70", "88", "88"])),
      12, "BITMAP has 3 rows, BBX says 5"
    ),
    (
      "too many rows",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 2 0 0", rows: ["70", "88", "88"])),
      12, "BITMAP has 3 rows, BBX says 2"
    ),
    (
      "missing ENDCHAR",
      bdf(
        glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))
          .replacing("ENDCHAR", with: "")
          + "\n" + glyph("B", encoding: "66", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))),
      19, "STARTCHAR inside glyph 'A', which starts at line 7 and has no ENDCHAR"
    ),
    (
      "BBX after BITMAP",
      bdf(glyphs: glyph("A", encoding: "65", bbx: nil, rows: hexRows(letterA))),
      11, "BITMAP before BBX in glyph 'A'"
    ),
    (
      "no BBX, no BITMAP",
      bdf(glyphs: "STARTCHAR A\nENCODING 65\nDWIDTH 6 0\nENDCHAR"),
      10, "glyph 'A' has no BBX"
    ),
    (
      "missing ENDFONT",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)), end: ""),
      19, "the file ends without ENDFONT"
    ),
    (
      "cut inside a glyph",
      "STARTFONT 2.1\nFONTBOUNDINGBOX 5 7 0 -2\nCHARS 1\nSTARTCHAR A\nENCODING 65\n"
        + "BBX 5 5 0 0\nBITMAP\n70\n",
      8, "the file ends inside glyph 'A', which starts at line 4"
    ),
    (
      "non-numeric ENCODING",
      bdf(glyphs: glyph("A", encoding: "sixty-five", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))),
      8, "ENCODING expects whole numbers (the character code), found 'sixty-five'"
    ),
    (
      "non-numeric BBX",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 five 0 0", rows: hexRows(letterA))),
      11, "BBX expects whole numbers (width, height, x and y offset), found 'five'"
    ),
    (
      "short BBX",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0", rows: hexRows(letterA))),
      11, "BBX needs 4 numbers (width, height, x and y offset), found 3"
    ),
    (
      "non-numeric DWIDTH",
      bdf(
        glyphs: glyph(
          "A", encoding: "65", dwidth: "DWIDTH 6.5 0", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))),
      10, "DWIDTH expects whole numbers (x and y advance), found '6.5'"
    ),
    (
      "non-numeric FONT_ASCENT",
      bdf(
        properties: ["FONT_ASCENT tall"],
        glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))),
      7, "FONT_ASCENT expects whole numbers (rows above the baseline), found 'tall'"
    ),
    (
      "non-numeric FONTBOUNDINGBOX",
      bdf(
        box: "FONTBOUNDINGBOX 5 7 0 -2x",
        glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA))),
      5, "FONTBOUNDINGBOX expects whole numbers (width, height, x and y offset), found '-2x'"
    ),
    (
      "greyscale",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5 0 0", rows: hexRows(letterA)))
        .replacing("SIZE 7 75 75", with: "SIZE 7 75 75 4"),
      4, "the font has 4 bits per pixel; only 1-bit fonts are drawn"
    ),
    (
      "a negative size",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX -5 5 0 0", rows: hexRows(letterA))),
      11, "BBX -5 5 has a negative size"
    ),
    (
      "a giant glyph",
      bdf(glyphs: glyph("A", encoding: "65", bbx: "BBX 5 5000 0 0", rows: hexRows(letterA))),
      11, "BBX 5 5000 0 0 is larger than any matrix"
    ),
    (
      "no height",
      bdf(
        box: "FONTBOUNDINGBOX 5 0 0 0",
        glyphs: glyph("A", encoding: "65", bbx: "BBX 0 0 0 0", rows: [])),
      5, "the font's lines have no height (ascent 0, descent 0)"
    ),
    (
      "glyph keywords outside a glyph",
      "STARTFONT 2.1\nFONTBOUNDINGBOX 5 7 0 -2\nCHARS 1\nBBX 5 5 0 0\nENDFONT\n",
      4, "BBX outside a glyph"
    ),
    (
      "unended properties",
      "STARTFONT 2.1\nSTARTPROPERTIES 1\nFONT_ASCENT 5\nCHARS 0\nENDFONT\n",
      4, "CHARS inside the properties that start at line 2"
    ),
    ("empty", "", 1, "the file holds no BDF font"),
    ("comments only", "COMMENT nothing\n\n", 1, "the file holds no BDF font"),
    (
      "another format",
      "<svg xmlns=\"http://www.w3.org/2000/svg\">\n", 1,
      "expected STARTFONT, found '<svg xmlns=\"http://www.w3.org/2000/svg\">': "
        + "this is not a BDF font"
    ),
  ]

  @Test(arguments: mistakes.indices)
  func aMistakeIsReportedAtItsLineWithAHint(_ index: Int) {
    let mistake = Self.mistakes[index]
    #expect {
      try CaptionFont(bdf: mistake.text)
    } throws: { error in
      guard let error = error as? BDFError else { return false }
      #expect(error.line == mistake.line, "\(mistake.name): \(error)")
      #expect(error.message == mistake.message, "\(mistake.name): \(error)")
      #expect(error.hint?.isEmpty == false, "\(mistake.name)")
      #expect(error.description.hasPrefix("line \(error.line): \(error.message) (hint: "))
      return true
    }
  }

  @Test func compressedAndPCFFontsAreNamed() {
    for (bytes, message) in [
      ([0x1F, 0x8B, 0x08, 0x00] as [UInt8], "this is a gzip-compressed file, not a BDF font"),
      ([0x01, 0x66, 0x63, 0x70, 0x0A, 0x00], "this is a PCF font, not a BDF font"),
      (
        [0x53, 0x54, 0x00, 0xFF, 0x0A],
        "expected STARTFONT, found binary data: this is not a BDF font"
      ),
    ] {
      #expect {
        try CaptionFont(bdf: bytes)
      } throws: { error in
        guard let error = error as? BDFError else { return false }
        #expect(error.line == 1)
        #expect(error.message == message)
        #expect(error.hint?.contains("pcf2bdf") == true)
        return true
      }
    }
  }
}
