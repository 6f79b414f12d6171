// SPDX-License-Identifier: MIT
// A row of terminal cells with colours, measured in cells rather than characters.

/// How a run of cells looks.
struct CellStyle: Hashable {
  var foreground: RGB
  var background: RGB
  var bold = false

  /// Foreground and background swapped: the highlight of the running tempo value.
  var inverted: CellStyle {
    CellStyle(foreground: background, background: foreground, bold: bold)
  }
}

/// Text in one style.
struct Span {
  var text: String
  var style: CellStyle
}

/// One terminal line under construction. `width` counts cells, so ANSI escapes (added only when
/// rendering) and wide characters are accounted for.
struct StyledRow {
  private(set) var spans: [Span] = []
  private(set) var width = 0

  init() {}

  init(_ text: String, _ style: CellStyle) { append(text, style) }

  mutating func append(_ text: String, _ style: CellStyle) {
    guard !text.isEmpty else { return }
    spans.append(Span(text: text, style: style))
    width += Cells.width(of: text)
  }

  mutating func append(_ row: StyledRow) {
    spans += row.spans
    width += row.width
  }

  mutating func pad(to columns: Int, _ style: CellStyle) {
    if width < columns { append(String(repeating: " ", count: columns - width), style) }
  }

  /// Exactly `columns` cells: cut at the edge (a wide character that would straddle it becomes a
  /// space) and padded with `fill`.
  func fitted(to columns: Int, fill: CellStyle) -> StyledRow {
    var row = StyledRow()
    for span in spans {
      if row.width + Cells.width(of: span.text) <= columns {
        row.append(span.text, span.style)
        continue
      }
      var text = ""
      var used = row.width
      for character in span.text {
        let cells = Cells.width(of: character)
        if used + cells > columns { break }
        text.append(character)
        used += cells
      }
      row.append(text, span.style)
      break
    }
    row.pad(to: columns, fill)
    return row
  }

  /// `spans` centred in `columns` cells.
  static func centered(_ content: StyledRow, columns: Int, fill: CellStyle) -> StyledRow {
    var row = StyledRow()
    row.append(String(repeating: " ", count: max(0, (columns - content.width) / 2)), fill)
    row.append(content)
    return row.fitted(to: columns, fill: fill)
  }

  /// The line as the terminal receives it: 24-bit SGR colours when `color` is true, plain text
  /// otherwise. A colour line ends with a reset so nothing leaks into the next line.
  func rendered(color: Bool) -> String {
    guard color else { return spans.map(\.text).joined() }
    var output = ""
    var current: CellStyle?
    for span in spans {
      if span.style != current {
        output += Self.sgr(span.style)
        current = span.style
      }
      output += span.text
    }
    return output + "\u{1B}[0m"
  }

  private static func sgr(_ style: CellStyle) -> String {
    let foreground = style.foreground
    let background = style.background
    return "\u{1B}[0;" + (style.bold ? "1;" : "") + "38;2;\(foreground.red);\(foreground.green);"
      + "\(foreground.blue);48;2;\(background.red);\(background.green);\(background.blue)m"
  }
}

/// Cell arithmetic for terminal text.
enum Cells {
  /// Cells a character takes: 2 for East Asian wide characters and emoji, else 1.
  static func width(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first?.value else { return 0 }
    // Everything below U+1100 (Latin, Greek, Cyrillic, box drawing, blocks) is narrow: the
    // common case skips the table.
    if scalar < 0x1100 { return 1 }
    return wideRanges.contains { $0.contains(scalar) } ? 2 : 1
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
  ]

  static func width(of text: String) -> Int { text.reduce(0) { $0 + width(of: $1) } }

  /// User-supplied text (preset names, labels, messages) with control characters replaced, so
  /// a stray escape in a config cannot move the cursor or recolour the terminal.
  static func sanitized(_ text: String) -> String {
    String(
      text.map { character -> Character in
        let isControl = character.unicodeScalars.contains {
          $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
        }
        return isControl ? " " : character
      })
  }

  /// `text` cut to `columns` cells, ending in `…` when something was cut.
  static func truncated(_ text: String, to columns: Int) -> String {
    guard columns > 0 else { return "" }
    if width(of: text) <= columns { return text }
    var result = ""
    var used = 0
    for character in text {
      let cells = width(of: character)
      if used + cells > columns - 1 { break }
      result.append(character)
      used += cells
    }
    return result + "…"
  }

  /// Visible cells of a rendered line: SGR escape sequences take none.
  static func visibleWidth(of line: String) -> Int {
    var cells = 0
    var inEscape = false
    for character in line {
      if inEscape {
        if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value),
          character != "["
        {
          inEscape = false
        }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        continue
      }
      cells += width(of: character)
    }
    return cells
  }
}
