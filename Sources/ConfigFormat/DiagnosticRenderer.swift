// SPDX-License-Identifier: MIT

/// Prints diagnostics in the compiler shape every editor understands:
///
/// ```
/// wodclock.yaml:14:11: error: unknown key 'rouds' in preset 'fran'
///     rouds: 5
///     ^~~~~
/// hint: did you mean 'rounds'?
/// ```
public struct DiagnosticRenderer: Sendable {
  /// Adds ANSI colours; turn it on only when the output is a terminal.
  public var usesColor: Bool
  private let linesByFile: [String: [Substring]]

  /// Creates a renderer that can quote lines of the given files (file name to full text).
  public init(sources: [String: String], usesColor: Bool = false) {
    self.usesColor = usesColor
    self.linesByFile = sources.mapValues { Self.splitLines($0) }
  }

  /// Creates a renderer for diagnostics of a single file.
  public init(file: String, source: String, usesColor: Bool = false) {
    self.init(sources: [file: source], usesColor: usesColor)
  }

  /// Renders one diagnostic and its notes, each line ending in a newline.
  public func render(_ diagnostic: Diagnostic) -> String {
    var output = ""
    append(diagnostic, to: &output)
    return output
  }

  /// Renders diagnostics sorted by position.
  public func render(_ diagnostics: [Diagnostic]) -> String {
    var output = ""
    for diagnostic in Diagnostic.sortedByLocation(diagnostics) {
      append(diagnostic, to: &output)
    }
    return output
  }

  /// A closing line such as `wodclock.yaml: 3 errors, 1 warning` (notes are not counted).
  public static func summaryLine(file: String, diagnostics: [Diagnostic]) -> String {
    let errors = diagnostics.count { $0.severity == .error }
    let warnings = diagnostics.count { $0.severity == .warning }
    var parts: [String] = []
    if errors > 0 { parts.append(errors == 1 ? "1 error" : "\(errors) errors") }
    if warnings > 0 { parts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
    if parts.isEmpty { parts.append("no errors") }
    return "\(file): " + parts.joined(separator: ", ")
  }

  private func append(_ diagnostic: Diagnostic, to output: inout String) {
    let location = diagnostic.location
    output += paint("\(location):", .bold) + " "
    output += paint("\(diagnostic.severity.rawValue):", color(for: diagnostic.severity)) + " "
    output += paint(diagnostic.message, .bold) + "\n"
    if let lines = linesByFile[location.file], location.line >= 1, location.line <= lines.count {
      let line = lines[location.line - 1]
      output += line + "\n"
      output += paint(caretLine(under: line, diagnostic: diagnostic), .green) + "\n"
    }
    if let hint = diagnostic.hint {
      output += paint("hint:", .cyan) + " " + hint + "\n"
    }
    for note in diagnostic.notes {
      append(note, to: &output)
    }
  }

  /// Spaces up to the column (tabs copied from the source so the caret lines up), then `^` and
  /// `~` for the rest of the length, stopping at the end of the line.
  private func caretLine(under line: Substring, diagnostic: Diagnostic) -> String {
    let scalars = Array(line.unicodeScalars)
    let startIndex = max(0, diagnostic.location.column - 1)
    var caret = ""
    for index in 0..<startIndex {
      caret += index < scalars.count && scalars[index] == "\t" ? "\t" : " "
    }
    let remaining = max(1, scalars.count - startIndex)
    let length = min(diagnostic.length, remaining)
    caret += "^" + String(repeating: "~", count: max(0, length - 1))
    return caret
  }

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

  /// Splits on LF bytes, dropping a CR just before an LF. Splitting the `String` itself would not
  /// work: Swift treats CR LF as a single `Character`, different from "\n".
  private static func splitLines(_ text: String) -> [Substring] {
    let pieces = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
    return pieces.enumerated().map { index, line in
      let isFollowedByLineFeed = index < pieces.count - 1
      return Substring(isFollowedByLineFeed && line.last == 0x0D ? line.dropLast() : line)
    }
  }
}
