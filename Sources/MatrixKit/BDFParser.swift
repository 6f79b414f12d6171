// SPDX-License-Identifier: MIT
// Reads BDF fonts, the bitmap font format of the LED-matrix world (rpi-rgb-led-matrix ships its
// fonts as BDF; X11's misc fonts convert with pcf2bdf), into the caption font the renderer draws
// with. Pure: it takes the file's bytes, so the daemon reads the file and the tests hand it
// text. Item numbers in the comments are those of "Bitmap Distribution Format, Version 2.1"
// (Adobe's specification as the X Consortium publishes it). Real files stray from it in small
// ways that are accepted here: CRLF line ends, blank lines, trailing spaces, tabs between tokens,
// a glyph without DWIDTH, bitmap rows with more or fewer hex digits than their width needs.

/// A mistake in a BDF file: its 1-based line, what is wrong, and how to fix it. The caller
/// prints it compiler-style, `6x10.bdf:42: error: BITMAP has 7 rows, BBX says 10`.
public struct BDFError: Error, Sendable, Equatable, CustomStringConvertible {
  public var line: Int
  public var message: String
  public var hint: String?

  public init(line: Int, message: String, hint: String? = nil) {
    self.line = line
    self.message = message
    self.hint = hint
  }

  /// `line 42: BITMAP has 7 rows, BBX says 10 (hint: …)`.
  public var description: String {
    "line \(line): \(message)" + (hint.map { " (hint: \($0))" } ?? "")
  }
}

extension CaptionFont {
  /// The font in a BDF file's bytes. Unencoded glyphs (ENCODING -1) are left out; ENCODING
  /// values are taken as Unicode code points (true of ISO10646 and ISO8859-1 fonts, and of
  /// ASCII in every ISO8859 font).
  public init(bdf bytes: [UInt8]) throws(BDFError) {
    var parser = BDFParser(bytes)
    self = try parser.parse()
  }

  /// The font in a BDF file's text.
  public init(bdf text: String) throws(BDFError) {
    try self.init(bdf: Array(text.utf8))
  }
}

/// One pass over the lines of a BDF file.
private struct BDFParser {
  private let bytes: [UInt8]
  /// Where the next line starts.
  private var position = 0
  /// The 1-based number of the current line.
  private var lineNumber = 0
  /// The current line's tokens, as ranges of `bytes`.
  private var tokens: [Range<Int>] = []

  private var name = ""
  private var fontBox: (width: Int, height: Int, xOffset: Int, yOffset: Int)?
  private var fontBoxLine = 0
  private var propertyAscent: (value: Int, line: Int)?
  private var propertyDescent: (value: Int, line: Int)?
  private var registry: String?
  private var encoding: String?
  /// A font-wide DWIDTH, for glyphs without their own (Adobe's BDF 2.2 allows one).
  private var fontAdvance: Int?
  private var builder = CaptionFontBuilder()
  /// The inked extent of all glyphs, for a font that gives neither properties nor a box.
  private var highestTop = Int.min
  private var lowestBottom = Int.max

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    tokens.reserveCapacity(8)
  }

  /// Spaces and tabs separate tokens; a carriage return before the line feed is a CRLF file.
  private static func isSeparator(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }

  // MARK: - Lines and tokens

  /// Moves to the next line with a token; false at the end of the file.
  private mutating func nextLine() -> Bool {
    while position < bytes.count {
      lineNumber += 1
      var end = position
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      tokens.removeAll(keepingCapacity: true)
      var index = position
      while index < end {
        while index < end && Self.isSeparator(bytes[index]) { index += 1 }
        let start = index
        while index < end && !Self.isSeparator(bytes[index]) { index += 1 }
        if start < index { tokens.append(start..<index) }
      }
      position = end + 1
      if !tokens.isEmpty { return true }
    }
    return false
  }

  private var keyword: String { token(0) }

  private func token(_ index: Int) -> String {
    String(decoding: bytes[tokens[index]], as: UTF8.self)
  }

  /// Everything after the keyword, as written (a FONT name may hold spaces).
  private var restOfLine: String {
    guard tokens.count > 1, let last = tokens.last else { return "" }
    return String(decoding: bytes[tokens[1].lowerBound..<last.upperBound], as: UTF8.self)
  }

  /// The line's text for a message: printable ASCII, shortened.
  private var quotedLine: String {
    guard let first = tokens.first, let last = tokens.last else { return "" }
    let line = bytes[first.lowerBound..<last.upperBound]
    guard line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return "binary data" }
    let text = String(decoding: line.prefix(40), as: UTF8.self)
    return "'" + text + (line.count > 40 ? "…'" : "'")
  }

  private func failure(_ message: String, hint: String? = nil, line: Int? = nil) -> BDFError {
    BDFError(line: line ?? lineNumber, message: message, hint: hint)
  }

  /// The whole numbers after the keyword: at least `count` of them, as many as there are.
  private func integers(_ count: Int, _ what: String, line: Int? = nil) throws(BDFError) -> [Int] {
    guard tokens.count > count else {
      throw failure(
        "\(keyword) needs \(count == 1 ? "a number" : "\(count) numbers") (\(what)), found "
          + "\(tokens.count - 1)", hint: "write them on the \(keyword) line, separated by spaces")
    }
    var values: [Int] = []
    for index in 1..<tokens.count {
      guard let value = Self.integer(bytes[tokens[index]]) else {
        // Only the numbers needed must parse: some writers append comments to a line.
        if index > count { break }
        throw failure(
          "\(keyword) expects whole numbers (\(what)), found '\(token(index))'",
          hint: "numbers are written in decimal, like -2 or 10")
      }
      values.append(value)
    }
    return values
  }

  /// A decimal integer with an optional sign, of at most 9 digits (no BDF value is larger).
  private static func integer(_ text: ArraySlice<UInt8>) -> Int? {
    var digits = text[...]
    var negative = false
    if let sign = digits.first, sign == 0x2D || sign == 0x2B {
      negative = sign == 0x2D
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.count <= 9 else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= 0x30, digit <= 0x39 else { return nil }
      value = value * 10 + Int(digit - 0x30)
    }
    return negative ? -value : value
  }

  // MARK: - The font

  mutating func parse() throws(BDFError) -> CaptionFont {
    try expectStart()
    var ended = false
    lines: while nextLine() {
      switch keyword {
      case "FONT":
        name = restOfLine
      case "SIZE":
        // Point size and resolutions are for printers; a fourth number (BDF 2.3's bits per
        // pixel) above 1 means a greyscale bitmap, which these one-colour LEDs cannot show.
        let values = try integers(3, "point size, x and y resolution")
        if values.count > 3, values[3] != 1 {
          throw failure(
            "the font has \(values[3]) bits per pixel; only 1-bit fonts are drawn",
            hint: "convert the font again as a plain 1-bit BDF (for example with otf2bdf)")
        }
      case "FONTBOUNDINGBOX":
        let box = try integers(4, "width, height, x and y offset")
        try checkMetrics(width: box[0], height: box[1], xOffset: box[2], yOffset: box[3])
        fontBox = (box[0], box[1], box[2], box[3])
        fontBoxLine = lineNumber
      case "STARTPROPERTIES":
        try readProperties()
      case "CHARS":
        // The count is not checked against the glyphs: fonts edited by hand often miss it.
        _ = try integers(1, "the number of glyphs")
      case "DWIDTH":
        fontAdvance = try advance(try integers(1, "x and y advance")[0])
      case "STARTCHAR":
        try readGlyph()
      case "ENDFONT":
        ended = true
        break lines
      case "ENCODING", "BBX", "BITMAP", "ENDCHAR":
        throw failure(
          "\(keyword) outside a glyph", hint: "a glyph starts with STARTCHAR (BDF 2.1, item 10)")
      default:
        // COMMENT (item 2), SWIDTH, METRICSSET, CONTENTVERSION and keywords of later versions.
        continue
      }
    }
    guard ended else {
      throw failure(
        "the file ends without ENDFONT", hint: "the file may be cut short: copy it again",
        line: max(1, lineNumber))
    }
    let (ascent, descent) = try lineMetrics()
    return builder.build(
      name: name.isEmpty ? "unnamed" : name, ascent: ascent, descent: descent,
      characterSet: characterSet)
  }

  /// The first line must be STARTFONT (item 1); other font files are named, so the hint says
  /// how to convert them.
  private mutating func expectStart() throws(BDFError) {
    if bytes.starts(with: [0x1F, 0x8B]) {
      throw BDFError(
        line: 1, message: "this is a gzip-compressed file, not a BDF font",
        hint: "X11's fonts come as .pcf.gz: convert them with pcf2bdf FONT.pcf.gz > FONT.bdf")
    }
    if bytes.starts(with: [0x01, 0x66, 0x63, 0x70]) {
      throw BDFError(
        line: 1, message: "this is a PCF font, not a BDF font",
        hint: "convert it with pcf2bdf FONT.pcf > FONT.bdf")
    }
    var found = nextLine()
    // Comments belong after STARTFONT (item 2), but a comment before it hurts no one.
    while found && keyword == "COMMENT" { found = nextLine() }
    guard found else {
      throw BDFError(
        line: 1, message: "the file holds no BDF font",
        hint: "a BDF font starts with STARTFONT 2.1")
    }
    guard keyword == "STARTFONT" else {
      throw failure(
        "expected STARTFONT, found \(quotedLine): this is not a BDF font",
        hint: "a BDF font is text starting with STARTFONT 2.1; convert PCF fonts with pcf2bdf, "
          + "TrueType and OpenType fonts with otf2bdf")
    }
  }

  /// STARTPROPERTIES … ENDPROPERTIES (items 6 to 8): the logical ascent and descent, and the
  /// character set. Values are integers or double-quoted strings.
  private mutating func readProperties() throws(BDFError) {
    let start = lineNumber
    while nextLine() {
      switch keyword {
      case "ENDPROPERTIES":
        return
      case "FONT_ASCENT":
        propertyAscent = (try metric(try integers(1, "rows above the baseline")[0]), lineNumber)
      case "FONT_DESCENT":
        propertyDescent = (try metric(try integers(1, "rows below the baseline")[0]), lineNumber)
      case "CHARSET_REGISTRY":
        registry = unquoted(restOfLine)
      case "CHARSET_ENCODING":
        encoding = unquoted(restOfLine)
      case "CHARS", "STARTCHAR", "ENDFONT":
        throw failure(
          "\(keyword) inside the properties that start at line \(start)",
          hint: "end the properties with ENDPROPERTIES (BDF 2.1, item 8)")
      default:
        continue
      }
    }
    throw failure(
      "the file ends inside the properties that start at line \(start)",
      hint: "end the properties with ENDPROPERTIES (BDF 2.1, item 8)")
  }

  private func unquoted(_ value: String) -> String {
    guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
    return String(value.dropFirst().dropLast())
  }

  private var characterSet: String? {
    guard let registry, !registry.isEmpty else { return nil }
    guard let encoding, !encoding.isEmpty else { return registry }
    return registry + "-" + encoding
  }

  /// FONT_ASCENT and FONT_DESCENT when the font gives them (item 7), else its bounding box
  /// (item 5), else the extent of its glyphs.
  private func lineMetrics() throws(BDFError) -> (ascent: Int, descent: Int) {
    var ascent: Int
    var descent: Int
    var line: Int
    if let fontBox {
      ascent = fontBox.height + fontBox.yOffset
      descent = -fontBox.yOffset
      line = fontBoxLine
    } else if highestTop > Int.min {
      ascent = highestTop
      descent = -lowestBottom
      line = 1
    } else {
      ascent = 0
      descent = 0
      line = 1
    }
    if let propertyAscent {
      ascent = propertyAscent.value
      line = propertyAscent.line
    }
    if let propertyDescent {
      descent = propertyDescent.value
      line = propertyDescent.line
    }
    guard ascent + descent > 0 else {
      throw BDFError(
        line: line,
        message: "the font's lines have no height (ascent \(ascent), descent "
          + "\(descent))",
        hint: "FONT_ASCENT plus FONT_DESCENT, or the FONTBOUNDINGBOX height, must be above 0")
    }
    guard ascent + descent <= CaptionFont.maximumMetric else {
      throw BDFError(
        line: line, message: "the font's lines are \(ascent + descent) rows tall",
        hint: "a matrix has \(CaptionFont.maximumMetric) rows at most")
    }
    return (ascent, descent)
  }

  // MARK: - Glyphs

  /// STARTCHAR … ENDCHAR (item 10): ENCODING, DWIDTH, BBX, BITMAP and its rows.
  private mutating func readGlyph() throws(BDFError) {
    let start = lineNumber
    let glyphName = tokens.count > 1 ? "'\(restOfLine)'" : "at line \(start)"
    var codePoint: Int?
    var unencoded = false
    var advance: Int?
    var box: (width: Int, height: Int, xOffset: Int, yOffset: Int)?
    var rows: [UInt8] = []
    var bitmapLine: Int?
    var rowCount = 0
    while nextLine() {
      if bitmapLine != nil, let box, !isKeywordAmongRows {
        try appendRow(width: box.width, into: &rows)
        rowCount += 1
        continue
      }
      switch keyword {
      case "ENCODING":
        // A code (10b i), -1 and a code (10b ii: the same, for older files), or -1 alone
        // (10b iii: unencoded, reachable only by name: left out).
        let values = try integers(1, "the character code")
        if values[0] >= 0 {
          codePoint = values[0]
        } else if values[0] == -1, values.count > 1, values[1] >= 0 {
          codePoint = values[1]
        } else {
          unencoded = true
        }
      case "DWIDTH":
        advance = try self.advance(try integers(1, "x and y advance")[0])
      case "BBX":
        let values = try integers(4, "width, height, x and y offset")
        try checkMetrics(
          width: values[0], height: values[1], xOffset: values[2], yOffset: values[3])
        box = (values[0], values[1], values[2], values[3])
      case "BITMAP":
        guard let box else {
          throw failure(
            "BITMAP before BBX in glyph \(glyphName)",
            hint: "give the glyph's BBX width height xoff yoff before its BITMAP (BDF 2.1, "
              + "item 10e)")
        }
        bitmapLine = lineNumber
        rows.reserveCapacity((box.width + 7) / 8 * box.height)
      case "ENDCHAR":
        guard let box else {
          throw failure(
            "glyph \(glyphName) has no BBX",
            hint: "give each glyph BBX width height xoff yoff (BDF 2.1, item 10e)")
        }
        if let bitmapLine, rowCount != box.height {
          throw failure(
            "BITMAP has \(rowCount) rows, BBX says \(box.height)",
            hint: "glyph \(glyphName) needs one hex row per pixel row of its BBX (BDF 2.1, "
              + "item 10h); the file may be damaged", line: bitmapLine)
        }
        if bitmapLine == nil, box.width > 0, box.height > 0 {
          throw failure(
            "glyph \(glyphName) has no BITMAP",
            hint: "after BBX, write BITMAP and one hex row per pixel row (BDF 2.1, items 10g "
              + "and 10h)")
        }
        if !unencoded, let codePoint, codePoint <= 0x10_FFFF {
          add(codePoint: codePoint, box: box, advance: advance, rows: rows)
        }
        return
      case "STARTCHAR", "ENDFONT":
        throw failure(
          "\(keyword) inside glyph \(glyphName), which starts at line \(start) and has no ENDCHAR",
          hint: "end each glyph with ENDCHAR (BDF 2.1, item 10i)")
      default:
        // COMMENT, SWIDTH, ATTRIBUTES and the vertical metrics of later versions.
        continue
      }
    }
    throw failure(
      "the file ends inside glyph \(glyphName), which starts at line \(start)",
      hint: "the file may be cut short: copy it again")
  }

  /// Whether the line is one of the words that may follow a BITMAP's rows: its ENDCHAR, a
  /// comment (item 2), or the start of something else when ENDCHAR is missing. Anything else
  /// is a row. Compared as bytes: this runs for every row of every glyph.
  private var isKeywordAmongRows: Bool {
    let word = bytes[tokens[0]]
    switch word.count {
    case 7:
      return word.elementsEqual("ENDCHAR".utf8) || word.elementsEqual("COMMENT".utf8)
        || word.elementsEqual("ENDFONT".utf8)
    case 9:
      return word.elementsEqual("STARTCHAR".utf8)
    default:
      return false
    }
  }

  /// One hex row (item 10h): two digits per 8 pixels, the leftmost pixel in the top bit.
  /// Digits past the width are ignored and missing ones are dark: writers differ in padding.
  private mutating func appendRow(width: Int, into rows: inout [UInt8]) throws(BDFError) {
    let rowBytes = (width + 7) / 8
    guard tokens.count == 1 else {
      throw failure(
        "\(quotedLine) is not a bitmap row",
        hint: "BITMAP is followed by one row of hex digits per line, then ENDCHAR")
    }
    let digits = bytes[tokens[0]]
    let base = rows.count
    rows.append(contentsOf: repeatElement(0, count: rowBytes))
    for (offset, digit) in digits.enumerated() {
      guard let nibble = Self.hexValue(digit) else {
        throw failure(
          "\(quotedLine) is not a row of hex digits",
          hint: "bitmap rows use 0-9 and A-F, two digits per 8 pixels (BDF 2.1, item 10h)")
      }
      let byte = offset / 2
      if byte < rowBytes { rows[base + byte] |= offset % 2 == 0 ? nibble << 4 : nibble }
    }
    // Bits past the width belong to no pixel.
    if width % 8 != 0, rowBytes > 0 {
      rows[base + rowBytes - 1] &= 0xFF << UInt8(8 - width % 8)
    }
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case 0x30...0x39: digit - 0x30
    case 0x41...0x46: digit - 0x41 + 10
    case 0x61...0x66: digit - 0x61 + 10
    default: nil
    }
  }

  private mutating func add(
    codePoint: Int, box: (width: Int, height: Int, xOffset: Int, yOffset: Int), advance: Int?,
    rows: [UInt8]
  ) {
    // Without DWIDTH: the font-wide one, else the glyph's right edge, else (a blank glyph such
    // as a space drawn with BBX 0 0) the font's box.
    let inkRight = box.xOffset + box.width
    let pen =
      advance ?? fontAdvance ?? (inkRight > 0 ? inkRight : max(0, fontBox?.width ?? 0))
    if box.height > 0 {
      highestTop = max(highestTop, box.yOffset + box.height)
      lowestBottom = min(lowestBottom, box.yOffset)
    }
    builder.add(
      codePoint: UInt32(codePoint), width: box.width, height: box.height, xOffset: box.xOffset,
      yOffset: box.yOffset, advance: pen, rows: rows)
  }

  // MARK: - Limits

  private func checkMetrics(width: Int, height: Int, xOffset: Int, yOffset: Int)
    throws(BDFError)
  {
    let limit = CaptionFont.maximumMetric
    guard width >= 0, height >= 0 else {
      throw failure(
        "\(keyword) \(width) \(height) has a negative size",
        hint: "width and height come first and are 0 or more: \(keyword) width height xoff yoff")
    }
    guard width <= limit, height <= limit, abs(xOffset) <= limit, abs(yOffset) <= limit else {
      throw failure(
        "\(keyword) \(width) \(height) \(xOffset) \(yOffset) is larger than any matrix",
        hint: "sizes and offsets are in pixels, at most \(limit)")
    }
  }

  private func advance(_ value: Int) throws(BDFError) -> Int {
    try bounded(value, "DWIDTH \(value) is wider than any matrix", what: "the advance")
  }

  private func metric(_ value: Int) throws(BDFError) -> Int {
    try bounded(value, "\(keyword) \(value) is taller than any matrix", what: "it")
  }

  /// `value`, or `message` when it is beyond what a matrix could show.
  private func bounded(_ value: Int, _ message: String, what: String) throws(BDFError) -> Int {
    guard abs(value) <= CaptionFont.maximumMetric else {
      throw failure(message, hint: "\(what) is in pixels, at most \(CaptionFont.maximumMetric)")
    }
    return value
  }
}
