// SPDX-License-Identifier: MIT
// Pixel fonts for big digits (and short words) drawn with block characters.

/// A bitmap font: each glyph is a few rows of pixels, drawn with `█` at an integer scale.
/// Glyphs are separated by one blank pixel column.
public struct BlockFont: Sendable, Hashable {
  /// Rows of one glyph at scale 1.
  public let height: Int
  private let glyphs: [Character: [String]]

  /// Whether every character of `text` (letters in either case) has a glyph.
  public func supports(_ text: String) -> Bool {
    !text.isEmpty && text.allSatisfy { glyph(for: $0) != nil }
  }

  /// Columns `text` takes at a horizontal scale, or nil when a character has no glyph.
  public func width(of text: String, scaleX: Int = 1) -> Int? {
    guard supports(text) else { return nil }
    let pixels = text.reduce(0) { $0 + (glyph(for: $1)?.first?.count ?? 0) } + text.count - 1
    return pixels * scaleX
  }

  /// The rows of `text`, each pixel `scaleX` columns wide and `scaleY` rows tall. With
  /// `colonVisible` false colons are drawn blank (same width), so blinking never shifts digits.
  /// Nil when a character has no glyph.
  public func render(
    _ text: String, scaleX: Int = 1, scaleY: Int = 1, colonVisible: Bool = true
  ) -> [String]? {
    guard supports(text), scaleX > 0, scaleY > 0 else { return nil }
    let on = String(repeating: "█", count: scaleX)
    let off = String(repeating: " ", count: scaleX)
    var rows: [String] = []
    for row in 0..<height {
      var line = ""
      for (index, character) in text.enumerated() {
        if index > 0 { line += off }
        let pixels = glyph(for: character)?[row] ?? ""
        let blank = character == ":" && !colonVisible
        for pixel in pixels { line += pixel == "#" && !blank ? on : off }
      }
      rows += Array(repeating: line, count: scaleY)
    }
    return rows
  }

  private func glyph(for character: Character) -> [String]? {
    glyphs[character] ?? glyphs[Character(character.uppercased())]
  }

  /// Seven rows, square-cornered digits like an LED segment clock; digits, `:`, `-`, space.
  public static let large = BlockFont(
    height: 7,
    glyphs: [
      "0": ["#####", "#...#", "#...#", "#...#", "#...#", "#...#", "#####"],
      "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
      "2": ["#####", "....#", "....#", "#####", "#....", "#....", "#####"],
      "3": ["#####", "....#", "....#", ".####", "....#", "....#", "#####"],
      "4": ["#...#", "#...#", "#...#", "#####", "....#", "....#", "....#"],
      "5": ["#####", "#....", "#....", "#####", "....#", "....#", "#####"],
      "6": ["#####", "#....", "#....", "#####", "#...#", "#...#", "#####"],
      "7": ["#####", "....#", "....#", "...#.", "..#..", "..#..", "..#.."],
      "8": ["#####", "#...#", "#...#", "#####", "#...#", "#...#", "#####"],
      "9": ["#####", "#...#", "#...#", "#####", "....#", "....#", "#####"],
      ":": [".", ".", "#", ".", "#", ".", "."],
      "-": ["...", "...", "...", "###", "...", "...", "..."],
      " ": ["...", "...", "...", "...", "...", "...", "..."],
    ])

  /// Five rows: the matrix's built-in font (``FiveRowFont``), digits, letters for short phase
  /// words and the punctuation of counters.
  public static let small = BlockFont(height: FiveRowFont.height, glyphs: FiveRowFont.glyphs)
}
