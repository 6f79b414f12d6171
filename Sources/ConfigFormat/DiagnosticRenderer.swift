// SPDX-License-Identifier: MIT

/// Prints diagnostics in the compiler shape every editor understands:
///
/// ```
/// wodclock.yaml:14:11: error: unknown key 'rouds' in preset 'fran'
///     rouds: 5
///     ^~~~~
/// hint: did you mean 'rounds'?
/// ```
///
/// What it prints costs what the file costs: a source line is quoted up to
/// ``maximumQuotedLength`` characters (a longer one is cut around the column, with `...`), at
/// most ``limit`` diagnostics are printed and the rest are counted, and control characters from
/// the file are shown as `<U+001B>`, so a diagnostic never sends a terminal an escape sequence.
public struct DiagnosticRenderer: Sendable {
  /// How many diagnostics `render(_:)` prints by default.
  public static let defaultLimit = 50
  /// The most characters of a source line a diagnostic quotes.
  public static let maximumQuotedLength = 120
  /// The characters a cut line keeps before the column, so the context stays readable.
  private static let contextBeforeColumn = 40

  /// Adds ANSI colours; turn it on only when the output is a terminal.
  public var usesColor: Bool
  /// The most diagnostics `render(_:)` prints; a closing line counts the others.
  public var limit: Int
  private let linesByFile: [String: [Substring]]

  /// Creates a renderer that can quote lines of the given files (file name to full text).
  public init(sources: [String: String], usesColor: Bool = false, limit: Int = defaultLimit) {
    self.usesColor = usesColor
    self.limit = max(1, limit)
    self.linesByFile = sources.mapValues { Self.lines(of: $0) }
  }

  /// Creates a renderer for diagnostics of a single file.
  public init(file: String, source: String, usesColor: Bool = false, limit: Int = defaultLimit) {
    self.init(sources: [file: source], usesColor: usesColor, limit: limit)
  }

  /// Renders one diagnostic and its notes, each line ending in a newline.
  public func render(_ diagnostic: Diagnostic) -> String {
    var output = ""
    append(diagnostic, to: &output)
    return output
  }

  /// Renders diagnostics sorted by position: the first `limit` of them, then one line that
  /// counts the rest (`wodclock.yaml: and 12 more errors not shown`). A note that stands on its
  /// own (a `DiagnosticBag` saying how many it left out) is printed after it all the same.
  public func render(_ diagnostics: [Diagnostic]) -> String {
    var output = ""
    let sorted = Diagnostic.sortedByLocation(diagnostics)
    for diagnostic in sorted.prefix(limit) {
      append(diagnostic, to: &output)
    }
    if sorted.count > limit {
      let rest = sorted[limit...]
      let errors = rest.count { $0.severity == .error }
      let warnings = rest.count { $0.severity == .warning }
      if errors + warnings > 0 {
        output += Self.escaped(sorted[limit].location.file, keepingLineBreaks: false) + ": and "
        output += Self.countText(errors: errors, warnings: warnings, more: true) + " not shown\n"
      }
      for note in rest where note.severity == .note {
        append(note, to: &output)
      }
    }
    return output
  }

  /// A closing line such as `wodclock.yaml: 3 errors, 1 warning` (notes are not counted).
  public static func summaryLine(file: String, diagnostics: [Diagnostic]) -> String {
    let errors = diagnostics.count { $0.severity == .error }
    let warnings = diagnostics.count { $0.severity == .warning }
    let counts = errors + warnings > 0 ? countText(errors: errors, warnings: warnings) : "no errors"
    return escaped(file, keepingLineBreaks: false) + ": " + counts
  }

  /// `3 errors, 1 warning`, or with `more`: `3 more errors, 1 more warning`.
  private static func countText(errors: Int, warnings: Int, more: Bool = false) -> String {
    let adjective = more ? "more " : ""
    var parts: [String] = []
    if errors > 0 { parts.append("\(errors) \(adjective)error\(errors == 1 ? "" : "s")") }
    if warnings > 0 { parts.append("\(warnings) \(adjective)warning\(warnings == 1 ? "" : "s")") }
    return parts.joined(separator: ", ")
  }

  private func append(_ diagnostic: Diagnostic, to output: inout String) {
    let location = diagnostic.location
    let header = Self.escaped("\(location):", keepingLineBreaks: false)
    output += paint(header, .bold) + " "
    output += paint("\(diagnostic.severity.rawValue):", color(for: diagnostic.severity)) + " "
    output += paint(Self.escaped(diagnostic.message, keepingLineBreaks: false), .bold) + "\n"
    if let lines = linesByFile[location.file], location.line >= 1, location.line <= lines.count {
      let quoted = quote(lines[location.line - 1], diagnostic: diagnostic)
      output += quoted.line + "\n"
      output += paint(quoted.caret, .green) + "\n"
    }
    if let hint = diagnostic.hint {
      output += paint("hint:", .cyan) + " " + Self.escaped(hint, keepingLineBreaks: true) + "\n"
    }
    for note in diagnostic.notes {
      append(note, to: &output)
    }
  }

  /// The source line as printed (cut around the column when it is long, control characters
  /// escaped) and the caret line under it: spaces up to the column (tabs copied from the source
  /// so the caret lines up), then `^` and `~` for the rest of the length, stopping at the end of
  /// the line.
  private func quote(_ line: Substring, diagnostic: Diagnostic) -> (line: String, caret: String) {
    let scalars = Array(line.unicodeScalars)
    let column = max(0, diagnostic.location.column - 1)
    var first = 0
    var last = scalars.count
    if scalars.count > Self.maximumQuotedLength {
      first = max(
        0, min(column - Self.contextBeforeColumn, scalars.count - Self.maximumQuotedLength))
      last = first + Self.maximumQuotedLength
    }
    var text = first > 0 ? "..." : ""
    var caret = first > 0 ? "   " : ""
    for index in first..<last {
      let shown = Self.shown(scalars[index])
      text += shown
      if index < column {
        caret += scalars[index] == "\t" ? "\t" : String(repeating: " ", count: shown.count)
      }
    }
    if last < scalars.count { text += "..." }
    // A column past the end of the line (an absent value at the end) is still drawn.
    if column > last { caret += String(repeating: " ", count: column - last) }
    // The underline: the diagnostic's length, at least one column, within what is shown.
    let underlineEnd = min(max(column + diagnostic.length, column + 1), max(last, column + 1))
    var width = 0
    for index in column..<underlineEnd {
      width += index < last ? Self.shown(scalars[index]).count : 1
    }
    caret += "^" + String(repeating: "~", count: max(0, width - 1))
    return (text, caret)
  }

  // MARK: Escaping

  /// `<U+001B>` for a character that would act on the terminal instead of showing: the C0 and
  /// C1 control characters (a tab stays as it is) and the line and paragraph separators.
  private static func shown(_ scalar: Unicode.Scalar) -> String {
    guard isControl(scalar), scalar != "\t" else { return String(scalar) }
    return "<U+\(hex(scalar.value, digits: 4))>"
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
      || scalar.value == 0x2029
  }

  /// `text` with every control character shown as `<U+001B>`; line breaks are kept when
  /// `keepingLineBreaks` (hints may span lines), tabs never are (messages are one line).
  public static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var output = ""
    for scalar in text.unicodeScalars {
      if keepingLineBreaks && scalar == "\n" || !isControl(scalar) {
        output.unicodeScalars.append(scalar)
      } else {
        output += "<U+\(hex(scalar.value, digits: 4))>"
      }
    }
    return output
  }

  // MARK: Colour

  private enum Style: String {
    case bold = "\u{1B}[1m"
    case red = "\u{1B}[1;31m"
    case magenta = "\u{1B}[1;35m"
    case cyan = "\u{1B}[1;36m"
    case green = "\u{1B}[1;32m"
  }

  private func color(for severity: Diagnostic.Severity) -> Style {
    switch severity {
    case .error: return .red
    case .warning: return .magenta
    case .note: return .cyan
    }
  }

  private func paint(_ text: String, _ style: Style) -> String {
    usesColor ? style.rawValue + text + "\u{1B}[0m" : text
  }

  // MARK: Lines

  /// The lines of `text` as the parser numbers them: YAML 1.2 §5.4 ends a line at LF, CR LF or
  /// a lone CR; the line breaks are not part of the lines, nor is a byte order mark at the start.
  /// Splitting the `String` itself would not work: Swift treats CR LF as a single `Character`.
  public static func lines(of text: String) -> [Substring] {
    let utf8 = text.utf8
    var lines: [Substring] = []
    var start = utf8.startIndex
    if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { start = utf8.index(start, offsetBy: 3) }
    var index = start
    while index != utf8.endIndex {
      let byte = utf8[index]
      guard byte == 0x0A || byte == 0x0D else {
        index = utf8.index(after: index)
        continue
      }
      lines.append(Substring(utf8[start..<index]))
      index = utf8.index(after: index)
      if byte == 0x0D, index != utf8.endIndex, utf8[index] == 0x0A {
        index = utf8.index(after: index)
      }
      start = index
    }
    lines.append(Substring(utf8[start..<utf8.endIndex]))
    return lines
  }
}
