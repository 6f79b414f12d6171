// SPDX-License-Identifier: MIT
// The small font of the matrix: captions, counters and tempo values, five rows tall. Designed
// for single LEDs at a distance: no serifs, open counters, a blank column between glyphs.

public import DisplayKit

/// A proportional bitmap font; every glyph is `height` rows, its own width.
public struct CaptionFont: Sendable {
  public let height: Int
  /// Per glyph, its columns; each column is a bit mask of rows, bit 0 the top row.
  private let glyphs: [Character: [UInt16]]

  /// Width in pixels of `text` at `scale`, glyphs separated by `scale` blank columns. Characters
  /// without a glyph take the width of `?`.
  public func width(of text: String, scale: Int = 1) -> Int {
    var total = 0
    var count = 0
    for character in text {
      total += columns(for: character).count
      count += 1
    }
    return count == 0 ? 0 : (total + count - 1) * scale
  }

  /// Draws `text` with its top-left corner at (x, y); returns the x after the last glyph.
  @discardableResult
  public func draw(
    _ text: String, x: Int, y: Int, color: RGB, scale: Int = 1, into buffer: inout Framebuffer
  ) -> Int {
    var cursor = x
    for character in text {
      for mask in columns(for: character) {
        for row in 0..<height where mask & (1 << row) != 0 {
          buffer.fill(
            PixelRect(x: cursor, y: y + row * scale, width: scale, height: scale), with: color)
        }
        cursor += scale
      }
      cursor += scale
    }
    return cursor - scale
  }

  /// Whether every character of `text` has a glyph (after upper-casing).
  public func supports(_ text: String) -> Bool {
    text.allSatisfy { glyphs[Self.normalize($0)] != nil }
  }

  private func columns(for character: Character) -> [UInt16] {
    glyphs[Self.normalize(character)] ?? glyphs["?"] ?? []
  }

  /// Upper case, and accented Latin letters as their base letter, so the display words of every
  /// built-in language are drawable.
  static func normalize(_ character: Character) -> Character {
    let upper = Character(character.uppercased())
    switch upper {
    case "À", "Á", "Â", "Ä", "Å": return "A"
    case "È", "É", "Ê", "Ë": return "E"
    case "Ì", "Í", "Î", "Ï": return "I"
    case "Ò", "Ó", "Ô", "Ö", "Ø": return "O"
    case "Ù", "Ú", "Û", "Ü": return "U"
    case "Ñ": return "N"
    case "Ç": return "C"
    case "Æ": return "E"
    default: return upper
    }
  }

  init(height: Int, rows: [Character: [String]]) {
    self.height = height
    var glyphs: [Character: [UInt16]] = [:]
    for (character, lines) in rows {
      let width = lines.first?.count ?? 0
      var columns = [UInt16](repeating: 0, count: width)
      for (row, line) in lines.enumerated() {
        for (column, pixel) in line.enumerated() where pixel == "#" {
          columns[column] |= 1 << row
        }
      }
      glyphs[character] = columns
    }
    self.glyphs = glyphs
  }

  /// Five rows; digits three columns wide so `R 10/12` fits a 32-column panel.
  public static let small = CaptionFont(
    height: 5,
    rows: [
      "0": ["###", "#.#", "#.#", "#.#", "###"],
      "1": [".#", "##", ".#", ".#", ".#"],
      "2": ["###", "..#", "###", "#..", "###"],
      "3": ["###", "..#", ".##", "..#", "###"],
      "4": ["#.#", "#.#", "###", "..#", "..#"],
      "5": ["###", "#..", "###", "..#", "###"],
      "6": ["###", "#..", "###", "#.#", "###"],
      "7": ["###", "..#", "..#", ".#.", ".#."],
      "8": ["###", "#.#", "###", "#.#", "###"],
      "9": ["###", "#.#", "###", "..#", "###"],
      "A": [".#.", "#.#", "###", "#.#", "#.#"],
      "B": ["##.", "#.#", "##.", "#.#", "##."],
      "C": [".##", "#..", "#..", "#..", ".##"],
      "D": ["##.", "#.#", "#.#", "#.#", "##."],
      "E": ["###", "#..", "##.", "#..", "###"],
      "F": ["###", "#..", "##.", "#..", "#.."],
      "G": [".##", "#..", "#.#", "#.#", ".##"],
      "H": ["#.#", "#.#", "###", "#.#", "#.#"],
      "I": ["###", ".#.", ".#.", ".#.", "###"],
      "J": ["..#", "..#", "..#", "#.#", ".#."],
      "K": ["#.#", "#.#", "##.", "#.#", "#.#"],
      "L": ["#..", "#..", "#..", "#..", "###"],
      "M": ["#...#", "##.##", "#.#.#", "#...#", "#...#"],
      "N": ["#..#", "##.#", "#.##", "#..#", "#..#"],
      "O": [".#.", "#.#", "#.#", "#.#", ".#."],
      "P": ["##.", "#.#", "##.", "#..", "#.."],
      "Q": [".#.", "#.#", "#.#", "#.#", ".##"],
      "R": ["##.", "#.#", "##.", "#.#", "#.#"],
      "S": [".##", "#..", ".#.", "..#", "##."],
      "T": ["###", ".#.", ".#.", ".#.", ".#."],
      "U": ["#.#", "#.#", "#.#", "#.#", "###"],
      "V": ["#.#", "#.#", "#.#", "#.#", ".#."],
      "W": ["#...#", "#...#", "#.#.#", "##.##", "#...#"],
      "X": ["#.#", "#.#", ".#.", "#.#", "#.#"],
      "Y": ["#.#", "#.#", ".#.", ".#.", ".#."],
      "Z": ["###", "..#", ".#.", "#..", "###"],
      " ": ["..", "..", "..", "..", ".."],
      ":": [".", "#", ".", "#", "."],
      ".": [".", ".", ".", ".", "#"],
      ",": ["..", "..", "..", ".#", "#."],
      "-": ["..", "..", "##", "..", ".."],
      "+": ["...", ".#.", "###", ".#.", "..."],
      "/": ["..#", "..#", ".#.", "#..", "#.."],
      "·": [".", ".", "#", ".", "."],
      "×": ["...", "#.#", ".#.", "#.#", "..."],
      "!": ["#", "#", "#", ".", "#"],
      "?": ["##.", "..#", ".#.", "...", ".#."],
      "'": ["#", "#", ".", ".", "."],
      "↓": [".#.", ".#.", ".#.", "###", ".#."],
      "↑": [".#.", "###", ".#.", ".#.", ".#."],
      "(": [".#", "#.", "#.", "#.", ".#"],
      ")": ["#.", ".#", ".#", ".#", "#."],
      "#": ["#.#", "###", "#.#", "###", "#.#"],
      "%": ["#.#", "..#", ".#.", "#..", "#.#"],
      "&": [".#.", "#.#", ".#.", "#.#", ".##"],
    ])
}

/// The big digits: square-cornered strokes like a segment clock, generated for any height so
/// the time fills whatever rows a layout gives it (7 rows on a 16-row panel up to 48 on 64).
public struct DigitFont: Sendable, Hashable {
  public let height: Int
  public let digitWidth: Int
  public let stroke: Int
  /// Blank columns between glyphs.
  public let gap: Int

  /// The font for `height` rows. Width is about 3/5 of the height and the stroke about 1/7:
  /// the proportions of the terminal's `BlockFont.large` (5×7, stroke 1), scaled.
  public init(height: Int) {
    self.height = max(5, height)
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
    while height >= 5 {
      let font = DigitFont(height: height)
      if font.width(of: text) <= maxWidth { return font }
      height -= 1
    }
    return nil
  }
}
