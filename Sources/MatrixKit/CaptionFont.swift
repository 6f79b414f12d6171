// SPDX-License-Identifier: MIT
// The fonts of the matrix. The caption font draws the phase word, the counters, the caption and
// the tempo values: the built-in one below, or one loaded from a BDF file (BDFParser.swift).
// Both are the same kind of value, so the renderer and the layouts only ask a font for its line
// height and its glyphs. The big digits are generated for any height.

public import DisplayKit

/// A bitmap font whose glyphs sit on a baseline, as BDF describes them (BDF 2.1, items 10d and
/// 10e: DWIDTH, BBX). A line of text reaches `ascent` rows above the baseline and `descent`
/// rows below it; text is placed by the top of its line, and no pixel of a glyph is drawn
/// outside the line, so a layout that gives a line `height` rows can count on them.
public struct CaptionFont: Sendable, Hashable {
  /// One glyph: its bitmap's size and place, and how far it moves the pen.
  public struct Glyph: Sendable, Hashable {
    // Stored narrow: X11's 10x20 has 5,205 glyphs, and the daemon keeps them all in memory.
    private let storedWidth: UInt16
    private let storedHeight: UInt16
    private let storedXOffset: Int16
    private let storedYOffset: Int16
    private let storedAdvance: Int16
    /// Where the glyph's rows start in the font's `bits`.
    let bitsStart: UInt32

    /// The bitmap's width in pixels (BBX width).
    public var width: Int { Int(storedWidth) }
    /// The bitmap's height in rows (BBX height).
    public var height: Int { Int(storedHeight) }
    /// The bitmap's left edge relative to the pen (BBX x offset).
    public var xOffset: Int { Int(storedXOffset) }
    /// The bitmap's bottom row relative to the baseline, up positive (BBX y offset): a
    /// descender's is negative.
    public var yOffset: Int { Int(storedYOffset) }
    /// How far the pen moves to the next glyph (DWIDTH).
    public var advance: Int { Int(storedAdvance) }
    /// Bitmap rows are padded to whole bytes, the leftmost pixel in the top bit (BDF 2.1,
    /// item 10h).
    var bytesPerRow: Int { (width + 7) / 8 }

    init(width: Int, height: Int, xOffset: Int, yOffset: Int, advance: Int, bitsStart: Int) {
      storedWidth = UInt16(width)
      storedHeight = UInt16(height)
      storedXOffset = Int16(xOffset)
      storedYOffset = Int16(yOffset)
      storedAdvance = Int16(advance)
      self.bitsStart = UInt32(bitsStart)
    }
  }

  /// The largest glyph side, offset and advance a font may have: a matrix is at most 1024 LEDs
  /// a side, and the glyph metrics are stored in 16 bits.
  public static let maximumMetric = 1024

  /// The font's name: BDF's FONT, or `built-in` for the built-in font.
  public let name: String
  /// Rows above the baseline that a line of text takes.
  public let ascent: Int
  /// Rows below the baseline that a line of text takes.
  public let descent: Int
  /// The character set of the glyphs' codes (BDF's CHARSET_REGISTRY-CHARSET_ENCODING, such as
  /// `ISO10646-1`), when the font says.
  public let characterSet: String?
  /// The glyphs in ascending order of their code points.
  private let glyphs: [Glyph]
  private let codePoints: [UInt32]
  /// Every glyph's rows, one after the other.
  private let bits: [UInt8]
  /// The glyph index of each ASCII code, or -1: most text finds its glyphs without a search.
  private let asciiGlyphs: [Int32]
  /// The glyph of `?`, drawn for characters the font lacks, or -1: such characters are skipped.
  private let questionMark: Int32

  /// The height of a line: the rows a layout gives the font.
  public var height: Int { ascent + descent }

  /// How many glyphs the font has.
  public var glyphCount: Int { glyphs.count }

  init(
    name: String, ascent: Int, descent: Int, characterSet: String?,
    glyphs: [(codePoint: UInt32, glyph: Glyph)], bits: [UInt8]
  ) {
    self.name = name
    self.ascent = ascent
    self.descent = descent
    self.characterSet = characterSet
    let sorted = glyphs.sorted { $0.codePoint < $1.codePoint }
    self.glyphs = sorted.map(\.glyph)
    codePoints = sorted.map(\.codePoint)
    self.bits = bits
    var ascii = [Int32](repeating: -1, count: 128)
    for (index, codePoint) in codePoints.enumerated() where codePoint < 128 {
      ascii[Int(codePoint)] = Int32(index)
    }
    asciiGlyphs = ascii
    questionMark = ascii[0x3F]
  }

  // MARK: - Text

  /// Width in pixels of `text` at `scale`: from the pen's start to the right edge of the last
  /// glyph, so right-aligned text ends on its last lit column (the built-in font's blank column
  /// after each glyph is part of its advance, not of the width).
  public func width(of text: String, scale: Int = 1) -> Int {
    var pen = 0
    var extent = 0
    for character in text {
      guard let index = glyphIndex(for: character) else { continue }
      let glyph = glyphs[index]
      extent = max(extent, pen + glyph.xOffset + glyph.width)
      pen += glyph.advance
    }
    return extent * scale
  }

  /// Draws `text` with the top-left corner of its line at (x, y); returns the x after its
  /// last glyph (x plus its width).
  @discardableResult
  public func draw(
    _ text: String, x: Int, y: Int, color: RGB, scale: Int = 1, into buffer: inout Framebuffer
  ) -> Int {
    var pen = 0
    var extent = 0
    let lineHeight = height
    for character in text {
      guard let index = glyphIndex(for: character) else { continue }
      let glyph = glyphs[index]
      let left = x + (pen + glyph.xOffset) * scale
      // The bitmap's top row is yOffset + height rows above the baseline, which is `ascent`
      // rows below the top of the line.
      let top = ascent - glyph.yOffset - glyph.height
      let rowBytes = glyph.bytesPerRow
      for row in 0..<glyph.height {
        let lineRow = top + row
        guard lineRow >= 0, lineRow < lineHeight else { continue }
        let start = Int(glyph.bitsStart) + row * rowBytes
        // Each run of lit pixels is one fill, whatever the scale.
        var column = 0
        while column < glyph.width {
          guard isLit(start, column) else {
            column += 1
            continue
          }
          let runStart = column
          while column < glyph.width && isLit(start, column) { column += 1 }
          buffer.fill(
            PixelRect(
              x: left + runStart * scale, y: y + lineRow * scale,
              width: (column - runStart) * scale, height: scale), with: color)
        }
      }
      extent = max(extent, pen + glyph.xOffset + glyph.width)
      pen += glyph.advance
    }
    return x + extent * scale
  }

  /// Whether every character of `text` has a glyph of its own, in capitals or without its
  /// accent (rather than being drawn as `?` or skipped).
  public func supports(_ text: String) -> Bool {
    text.allSatisfy { ownIndex(for: $0) != nil }
  }

  @inline(__always)
  private func isLit(_ rowStart: Int, _ column: Int) -> Bool {
    bits[rowStart + column >> 3] & (0x80 >> UInt8(column & 7)) != 0
  }

  // MARK: - Glyphs

  /// The glyph drawn for `character` (see `supports`), `?` when there is none, or nil when the
  /// font has no `?` either.
  public func glyph(for character: Character) -> Glyph? {
    glyphIndex(for: character).map { glyphs[$0] }
  }

  /// The glyph of a code point (BDF's ENCODING), exactly.
  public func glyph(forCodePoint codePoint: UInt32) -> Glyph? {
    index(ofCodePoint: codePoint).map { glyphs[$0] }
  }

  /// A glyph's bitmap as text, top row first: `#` lit, `.` dark (for tests and for people).
  public func rows(of glyph: Glyph) -> [String] {
    (0..<glyph.height).map { row in
      let start = Int(glyph.bitsStart) + row * glyph.bytesPerRow
      return String((0..<glyph.width).map { isLit(start, $0) ? "#" : "." })
    }
  }

  private func glyphIndex(for character: Character) -> Int? {
    if let own = ownIndex(for: character) { return own }
    return questionMark >= 0 ? Int(questionMark) : nil
  }

  /// The character as written if the font has it, else its capital, else its base letter
  /// without the accent (in its own case, then as a capital), else a look-alike. ASCII takes
  /// the first two steps without allocating: this runs for every character of every frame.
  private func ownIndex(for character: Character) -> Int? {
    if let ascii = character.asciiValue {
      let own = asciiGlyphs[Int(ascii)]
      if own >= 0 { return Int(own) }
      guard ascii >= 0x61, ascii <= 0x7A else { return nil }
      let capital = asciiGlyphs[Int(ascii - 0x20)]
      return capital >= 0 ? Int(capital) : nil
    }
    if let own = index(ofExactly: character) { return own }
    for candidate in Self.alternatives(for: character) {
      if let index = index(ofExactly: candidate) { return index }
    }
    return nil
  }

  /// What to try for a character the font lacks, in order.
  static func alternatives(for character: Character) -> [Character] {
    var candidates: [Character] = []
    let upper = character.uppercased()
    // ß upper-cases to two letters: no one glyph stands for it.
    if upper.count == 1, let capital = upper.first, capital != character {
      candidates.append(capital)
    }
    if let base = baseLetter(upper.count == 1 ? upper.first ?? character : character) {
      if character.isLowercase, let lower = base.lowercased().first { candidates.append(lower) }
      candidates.append(base)
    }
    switch character {
    case "×": candidates += ["x", "X"]
    case "·": candidates.append(".")
    default: break
    }
    return candidates
  }

  /// The base letter of an accented capital, so the display words of every built-in language
  /// are drawable with fonts that have only ASCII.
  static func baseLetter(_ capital: Character) -> Character? {
    switch capital {
    case "À", "Á", "Â", "Ä", "Å": return "A"
    case "È", "É", "Ê", "Ë": return "E"
    case "Ì", "Í", "Î", "Ï": return "I"
    case "Ò", "Ó", "Ô", "Ö", "Ø": return "O"
    case "Ù", "Ú", "Û", "Ü": return "U"
    case "Ñ": return "N"
    case "Ç": return "C"
    case "Æ": return "E"
    default: return nil
    }
  }

  private func index(ofExactly character: Character) -> Int? {
    let scalars = character.unicodeScalars
    guard let scalar = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex
    else { return nil }
    return index(ofCodePoint: scalar.value)
  }

  private func index(ofCodePoint codePoint: UInt32) -> Int? {
    if codePoint < 128 {
      let index = asciiGlyphs[Int(codePoint)]
      return index >= 0 ? Int(index) : nil
    }
    var low = 0
    var high = codePoints.count
    while low < high {
      let middle = (low + high) / 2
      if codePoints[middle] < codePoint { low = middle + 1 } else { high = middle }
    }
    return low < codePoints.count && codePoints[low] == codePoint ? low : nil
  }
}

/// Collects glyphs for a `CaptionFont`: the built-in table and the BDF parser both fill one.
struct CaptionFontBuilder {
  private(set) var glyphs: [(codePoint: UInt32, glyph: CaptionFont.Glyph)] = []
  private var bits: [UInt8] = []
  private var codePoints: Set<UInt32> = []

  /// Adds a glyph whose rows are `rows`, each padded to whole bytes, the leftmost pixel in the
  /// top bit. A code point already added keeps its first glyph: returns false.
  @discardableResult
  mutating func add(
    codePoint: UInt32, width: Int, height: Int, xOffset: Int, yOffset: Int, advance: Int,
    rows: [UInt8]
  ) -> Bool {
    guard codePoints.insert(codePoint).inserted else { return false }
    let glyph = CaptionFont.Glyph(
      width: width, height: height, xOffset: xOffset, yOffset: yOffset, advance: advance,
      bitsStart: bits.count)
    precondition(rows.count == glyph.bytesPerRow * height, "rows of the wrong size")
    bits += rows
    glyphs.append((codePoint, glyph))
    return true
  }

  func build(name: String, ascent: Int, descent: Int, characterSet: String?) -> CaptionFont {
    CaptionFont(
      name: name, ascent: ascent, descent: descent, characterSet: characterSet, glyphs: glyphs,
      bits: bits)
  }
}

extension CaptionFont {
  /// The built-in font from pictures of its glyphs (`#` lit): each glyph as wide as its
  /// picture, on the baseline, followed by one blank column.
  init(height: Int, rows pictures: [Character: [String]]) {
    var builder = CaptionFontBuilder()
    for (character, lines) in pictures {
      guard let scalar = character.unicodeScalars.first else { continue }
      let width = lines.first?.count ?? 0
      let rowBytes = (width + 7) / 8
      var rows = [UInt8](repeating: 0, count: rowBytes * height)
      for (row, line) in lines.enumerated() {
        for (column, pixel) in line.enumerated() where pixel == "#" {
          rows[row * rowBytes + column / 8] |= 0x80 >> UInt8(column % 8)
        }
      }
      builder.add(
        codePoint: scalar.value, width: width, height: height, xOffset: 0, yOffset: 0,
        advance: width + 1, rows: rows)
    }
    self = builder.build(name: "built-in", ascent: height, descent: 0, characterSet: nil)
  }

  /// The built-in font: the five rows of ``FiveRowFont``, which the terminal's small digits
  /// share.
  public static let small = CaptionFont(height: FiveRowFont.height, rows: FiveRowFont.glyphs)
}

/// The big digits: square-cornered strokes like a segment clock, generated for any height so
/// the time fills whatever rows a layout gives it (7 rows on a 16-row panel up to 48 on 64).
public struct DigitFont: Sendable, Hashable {
  public let height: Int
  public let digitWidth: Int
  public let stroke: Int
  /// Blank columns between glyphs.
  public let gap: Int

  /// The fewest rows a digit takes: below 5 a segment shape is no longer readable.
  public static let minimumHeight = 5

  /// The font for `height` rows. Width is about 3/5 of the height and the stroke about 1/7:
  /// the proportions of the terminal's `BlockFont.large` (5×7, stroke 1), scaled.
  public init(height: Int) {
    self.height = max(Self.minimumHeight, height)
    digitWidth = (self.height * 3 + 4) / 5
    stroke = max(1, (self.height + 4) / 7)
    gap = max(1, stroke / 2)
  }

  /// Whether the font draws `character`: digits, `:`, `-`, space.
  public static func supports(_ character: Character) -> Bool {
    character.isASCII && (character.isNumber || ":- ".contains(character))
  }

  private func glyphWidth(_ character: Character) -> Int {
    character == ":" ? stroke : digitWidth
  }

  /// Width of `text` in pixels.
  public func width(of text: String) -> Int {
    var total = 0
    var count = 0
    for character in text {
      total += glyphWidth(character)
      count += 1
    }
    return count == 0 ? 0 : total + (count - 1) * gap
  }

  /// Draws `text` with its top-left corner at (x, y). With `colonVisible` false colons keep
  /// their width but stay dark, so a blinking colon never moves the digits.
  public func draw(
    _ text: String, x: Int, y: Int, color: RGB, colonVisible: Bool = true,
    into buffer: inout Framebuffer
  ) {
    var cursor = x
    for character in text {
      drawGlyph(character, x: cursor, y: y, color: color, colonVisible: colonVisible, &buffer)
      cursor += glyphWidth(character) + gap
    }
  }

  /// Segment bits: a top, b top right, c bottom right, d bottom, e bottom left, f top left,
  /// g middle (the usual 7-segment naming).
  private static func segments(_ character: Character) -> UInt8 {
    switch character {
    case "0": 0b011_1111
    case "1": 0b000_0110
    case "2": 0b101_1011
    case "3": 0b100_1111
    case "4": 0b110_0110
    case "5": 0b110_1101
    case "6": 0b111_1101
    case "7": 0b000_0111
    case "8": 0b111_1111
    case "9": 0b110_1111
    case "-": 0b100_0000
    default: 0
    }
  }

  private func drawGlyph(
    _ character: Character, x: Int, y: Int, color: RGB, colonVisible: Bool,
    _ buffer: inout Framebuffer
  ) {
    let w = digitWidth
    let h = height
    let s = stroke
    let middle = y + (h - s) / 2
    if character == ":" {
      guard colonVisible else { return }
      buffer.fill(PixelRect(x: x, y: y + h / 3 - s / 2, width: s, height: s), with: color)
      buffer.fill(
        PixelRect(x: x, y: y + h - h / 3 - (s + 1) / 2, width: s, height: s), with: color)
      return
    }
    let bits = Self.segments(character)
    func on(_ bit: Int) -> Bool { bits & (1 << bit) != 0 }
    let upper = PixelRect(x: 0, y: y, width: s, height: middle + s - y)
    let lower = PixelRect(x: 0, y: middle, width: s, height: y + h - middle)
    if on(0) { buffer.fill(PixelRect(x: x, y: y, width: w, height: s), with: color) }
    if on(1) {
      buffer.fill(PixelRect(x: x + w - s, y: upper.y, width: s, height: upper.height), with: color)
    }
    if on(2) {
      buffer.fill(PixelRect(x: x + w - s, y: lower.y, width: s, height: lower.height), with: color)
    }
    if on(3) { buffer.fill(PixelRect(x: x, y: y + h - s, width: w, height: s), with: color) }
    if on(4) {
      buffer.fill(PixelRect(x: x, y: lower.y, width: s, height: lower.height), with: color)
    }
    if on(5) {
      buffer.fill(PixelRect(x: x, y: upper.y, width: s, height: upper.height), with: color)
    }
    if on(6) { buffer.fill(PixelRect(x: x, y: middle, width: w, height: s), with: color) }
  }

  /// The tallest font of at most `maxHeight` rows whose rendering of `text` fits `maxWidth`.
  public static func fitting(_ text: String, maxWidth: Int, maxHeight: Int) -> DigitFont? {
    var height = maxHeight
    while height >= minimumHeight {
      let font = DigitFont(height: height)
      if font.width(of: text) <= maxWidth { return font }
      height -= 1
    }
    return nil
  }
}
