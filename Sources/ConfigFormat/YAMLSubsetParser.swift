// SPDX-License-Identifier: MIT

/// The outcome of parsing a file: a document, or every diagnostic that could be found.
public enum ParseResult: Sendable, Equatable {
  /// The file is valid; its tree is here.
  case success(ConfigDocument)
  /// The file is invalid; the errors are sorted by position.
  case failure([Diagnostic])

  /// The document, when parsing succeeded.
  public var document: ConfigDocument? {
    if case .success(let document) = self { return document }
    return nil
  }

  /// The diagnostics, empty when parsing succeeded.
  public var diagnostics: [Diagnostic] {
    if case .failure(let diagnostics) = self { return diagnostics }
    return []
  }
}

/// What could be read of a file, and every diagnostic found while reading it.
public struct RecoveredDocument: Sendable, Equatable {
  /// The tree of everything that parsed. When there are diagnostics, the collections that lost
  /// or garbled part of their content say so (`ConfigMapping.isIncomplete`).
  public var document: ConfigDocument
  /// The errors, sorted by position, without repeats; empty when the file is valid.
  public var diagnostics: [Diagnostic]
}

/// A strict parser for the subset of YAML 1.2 that wodclock configuration files use.
///
/// Supported: block mappings and sequences (compact `- key: value` items, sequences indented or
/// not under their key), flow sequences and mappings (nested too), plain, single-quoted and
/// double-quoted scalars (multi-line quoted scalars fold as YAML 1.2 §6.5 says), comments, an
/// optional `---` start and `...` end marker, and empty values. Lines end at LF, CR LF or a lone
/// CR (YAML 1.2 §5.4), so files from any editor read the same.
///
/// Everything else is rejected by name rather than guessed at: bytes that are not UTF-8, tabs in
/// indentation, anchors, aliases, tags, block scalars (`|`, `>`), complex keys (`? `),
/// directives, several documents, duplicate keys, multi-line plain scalars, inconsistent
/// indentation, unterminated quotes and brackets, and trailing garbage. Every document it accepts
/// means the same as it does to a full YAML parser.
public enum YAMLSubsetParser {
  /// Parses `text`, naming `file` in every location. Reports every error it can find, not just
  /// the first: after an error it resumes at the next line indented no deeper than the broken
  /// entry.
  public static func parse(_ text: String, file: String) -> ParseResult {
    result(of: parseRecovering(bytes: Array(text.utf8), file: file))
  }

  /// Parses the raw bytes of a file. Unlike a `String`, they may hold invalid UTF-8, which is
  /// reported at its line and column instead of being replaced unseen.
  public static func parse(bytes: [UInt8], file: String) -> ParseResult {
    result(of: parseRecovering(bytes: bytes, file: file))
  }

  /// Parses the raw bytes of a file and returns what could be read even when there are errors,
  /// so a schema can still check the rest of the file in the same run.
  public static func parseRecovering(bytes: [UInt8], file: String) -> RecoveredDocument {
    var parser = SubsetParser(bytes: bytes, file: file)
    let root = parser.parseDocument()
    return RecoveredDocument(
      document: ConfigDocument(file: file, root: root), diagnostics: parser.diagnostics.sorted)
  }

  private static func result(of recovered: RecoveredDocument) -> ParseResult {
    recovered.diagnostics.isEmpty
      ? .success(recovered.document) : .failure(recovered.diagnostics)
  }
}

/// Thrown when an entry cannot be parsed; its diagnostic is already recorded. Parsing resumes at
/// `resumeLine`, skipping lines indented deeper than the entry's collection.
struct ParseAbort: Error {
  var resumeLine: Int
}

/// One physical line of the file.
struct SourceLine {
  enum Kind: Equatable {
    /// Nothing but spaces and tabs.
    case blank
    /// Only a comment after optional whitespace.
    case comment
    /// `---` at column 1 followed by whitespace or the end of line (YAML 1.2 §9.1.2).
    case documentStart
    /// `...` at column 1 followed by whitespace or the end of line (YAML 1.2 §9.1.2).
    case documentEnd
    /// Anything else.
    case content
  }

  /// Offset of the first byte.
  var start: Int
  /// Offset just past the last byte, line break excluded.
  var end: Int
  /// Spaces before the first tab or non-space character.
  var indent: Int
  /// Offset of the first character that is neither a space nor a tab.
  var contentStart: Int
  /// Offset of the first tab in the leading whitespace, if any.
  var leadingTab: Int?
  var kind: Kind
  /// Lets columns be computed by subtraction.
  var isASCII: Bool
}

/// Byte values of the characters the grammar cares about.
enum Byte {
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let exclamation: UInt8 = 0x21
  static let doubleQuote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let percent: UInt8 = 0x25
  static let ampersand: UInt8 = 0x26
  static let singleQuote: UInt8 = 0x27
  static let asterisk: UInt8 = 0x2A
  static let comma: UInt8 = 0x2C
  static let dash: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let slash: UInt8 = 0x2F
  static let colon: UInt8 = 0x3A
  static let greaterThan: UInt8 = 0x3E
  static let question: UInt8 = 0x3F
  static let at: UInt8 = 0x40
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let backtick: UInt8 = 0x60
  static let openBrace: UInt8 = 0x7B
  static let pipe: UInt8 = 0x7C
  static let closeBrace: UInt8 = 0x7D
  static let delete: UInt8 = 0x7F
}

/// The parser's state. The grammar lives in extensions: block structure, flow collections and
/// quoted scalars each have their own file.
struct SubsetParser {
  /// Flow collections nest at most this deep, so hostile input cannot exhaust the stack.
  static let maximumFlowDepth = 64
  /// Block collections nest at most this deep, for the same reason.
  static let maximumBlockDepth = 200
  /// YAML 1.2 §7.4.3 (and PyYAML) limit implicit keys to 1024 characters.
  static let maximumKeyLength = 1024

  let bytes: [UInt8]
  let file: String
  var lines: [SourceLine] = []
  /// What was found, each once, at most `DiagnosticBag.standardLimit` of them.
  var diagnostics = DiagnosticBag(limit: DiagnosticBag.standardLimit)
  private var recorded = Set<Diagnostic>()
  /// Every report, repeats included: a collection whose parse raised it may have lost content.
  var problemCount = 0
  /// The last column counted on a line that is not ASCII.
  let lastColumn = ColumnMemo()
  /// The first line the last parsed node did not consume.
  var nextLine = 0
  var blockDepth = 0

  init(bytes: [UInt8], file: String) {
    self.bytes = bytes
    self.file = file
    splitLines()
  }

  // MARK: Lines

  /// Splits the text into lines (YAML 1.2 §5.4: LF, CR LF and a lone CR each end a line, as
  /// PyYAML reads them too) and rejects what YAML does not allow in a stream: bytes that are not
  /// UTF-8 (§5.2) and non-printable characters (§5.1). Only the first such character of a line
  /// is reported, with a count of the others, so a file full of them costs one diagnostic a line.
  private mutating func splitLines() {
    var index = 0
    let count = bytes.count
    // A byte order mark is allowed at the very start (YAML 1.2 §5.2).
    if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    var lineStart = index
    var isASCII = true
    var firstProblem: (offset: Int, message: String, hint: String?)?
    var moreProblems = 0
    lines.reserveCapacity(count / 24 + 1)
    func problem(_ message: String, at offset: Int, hint: String? = nil) {
      if firstProblem == nil {
        firstProblem = (offset, message, hint)
      } else {
        moreProblems += 1
      }
    }
    func endLine(at end: Int) {
      if let first = firstProblem {
        var hint = first.hint
        if moreProblems > 0 {
          let more =
            "this line holds \(moreProblems) more such character\(moreProblems == 1 ? "" : "s")"
          hint = hint.map { "\($0); \(more)" } ?? more
        }
        report(
          first.message, lineIndex: lines.count, lineStart: lineStart, offset: first.offset,
          hint: hint)
        firstProblem = nil
        moreProblems = 0
      }
      appendLine(start: lineStart, end: end, isASCII: isASCII)
      isASCII = true
    }
    while index < count {
      let byte = bytes[index]
      if byte == Byte.lineFeed || byte == Byte.carriageReturn {
        endLine(at: index)
        let isCRLF =
          byte == Byte.carriageReturn && index + 1 < count && bytes[index + 1] == Byte.lineFeed
        index += isCRLF ? 2 : 1
        lineStart = index
        continue
      }
      if byte < 0x20 || byte == Byte.delete {
        if byte != Byte.tab {
          problem(
            "control character U+\(hex(UInt32(byte), digits: 4)) is not allowed in YAML",
            at: index)
        }
      } else if byte >= 0x80 {
        isASCII = false
        guard let length = utf8SequenceLength(at: index) else {
          problem(
            "byte 0x\(hex(UInt32(byte), digits: 2)) is not valid UTF-8", at: index,
            hint: "the file must be saved as UTF-8; this looks like another encoding such as "
              + "Latin-1 (convert it with 'iconv -f latin1 -t utf-8')")
          index += 1
          continue
        }
        if let message = forbiddenMultibyteMessage(at: index) {
          problem(message, at: index)
        }
        index += length
        continue
      }
      index += 1
    }
    endLine(at: count)
  }

  /// The length of the well-formed UTF-8 sequence at `index` (Unicode 15, table 3-7: no
  /// overlong forms, no surrogates, nothing past U+10FFFF, as the standard library's UTF-8
  /// parser reads it), or nil when the bytes there are not one.
  private func utf8SequenceLength(at index: Int) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var rest = bytes[index...].makeIterator()
    guard case .valid(let sequence) = parser.parseScalar(from: &rest) else { return nil }
    return sequence.count
  }

  /// Names the non-ASCII characters YAML excludes or treats specially (YAML 1.2 §5.1, §5.4).
  private func forbiddenMultibyteMessage(at index: Int) -> String? {
    let byte = bytes[index]
    guard index + 1 < bytes.count else { return nil }
    let second = bytes[index + 1]
    if byte == 0xC2, (0x80...0x9F).contains(second) {
      return second == 0x85
        ? "next-line character U+0085 is not allowed; use a plain line break"
        : "control character U+00\(hex(UInt32(second), digits: 2)) is not allowed in YAML"
    }
    guard index + 2 < bytes.count else { return nil }
    let third = bytes[index + 2]
    if byte == 0xE2, second == 0x80, third == 0xA8 || third == 0xA9 {
      return "Unicode line or paragraph separator (U+2028, U+2029) is not allowed; "
        + "use a plain line break"
    }
    if byte == 0xEF, second == 0xBB, third == 0xBF {
      return "byte order mark (U+FEFF) is only allowed at the start of the file"
    }
    if byte == 0xEF, second == 0xBF, third == 0xBE || third == 0xBF {
      return "non-character U+FFF\(third == 0xBE ? "E" : "F") is not allowed in YAML"
    }
    return nil
  }

  private mutating func appendLine(start: Int, end: Int, isASCII: Bool) {
    var index = start
    var indent = 0
    var leadingTab: Int?
    while index < end {
      let byte = bytes[index]
      if byte == Byte.space {
        if leadingTab == nil { indent += 1 }
      } else if byte == Byte.tab {
        if leadingTab == nil { leadingTab = index }
      } else {
        break
      }
      index += 1
    }
    var kind = SourceLine.Kind.content
    if index == end {
      kind = .blank
    } else if bytes[index] == Byte.hash {
      kind = .comment
    } else if index == start, end - start >= 3,
      end - start == 3 || bytes[start + 3] == Byte.space || bytes[start + 3] == Byte.tab
    {
      if bytes[start] == Byte.dash, bytes[start + 1] == Byte.dash, bytes[start + 2] == Byte.dash {
        kind = .documentStart
      } else if bytes[start] == Byte.dot, bytes[start + 1] == Byte.dot,
        bytes[start + 2] == Byte.dot
      {
        kind = .documentEnd
      }
    }
    lines.append(
      SourceLine(
        start: start, end: end, indent: indent, contentStart: index, leadingTab: leadingTab,
        kind: kind, isASCII: isASCII))
  }

  /// The index of the next line, at or after `index`, that holds structure (not blank, not a
  /// comment). Tabs in the indentation of skipped lines are reported here; a content line
  /// indented with tabs is reported and skipped, because its depth cannot be known. When it
  /// opens a block (`key:` alone), the lines indented deeper than it, as written, go with it:
  /// they are its value, and read as entries of the collection above they would be misread.
  mutating func nextContentLine(from index: Int) -> Int? {
    var lineIndex = index
    while lineIndex < lines.count {
      let line = lines[lineIndex]
      if let tab = line.leadingTab {
        // YAML 1.2 §6.1: indentation is spaces only; tabs are not even allowed as separation
        // before a token at the start of a line.
        error(
          "tabs are not allowed in indentation", line: lineIndex, offset: tab,
          hint: "indent with spaces")
        if line.kind == .content {
          lineIndex += 1
          if opensBlock(line) {
            let written = line.contentStart - line.start
            while lineIndex < lines.count {
              let next = lines[lineIndex]
              let isStructure = next.kind == .content
              if isStructure && next.contentStart - next.start <= written { break }
              if next.kind == .documentStart || next.kind == .documentEnd { break }
              lineIndex += 1
            }
          }
          continue
        }
      }
      if line.kind == .blank || line.kind == .comment {
        lineIndex += 1
        continue
      }
      return lineIndex
    }
    return nil
  }

  /// True when `line` ends in a `:` or is a lone `-`, a comment aside: its value is on the
  /// lines below.
  private func opensBlock(_ line: SourceLine) -> Bool {
    var end = line.end
    var index = line.contentStart
    while index < line.end {
      if bytes[index] == Byte.hash, index > line.contentStart,
        bytes[index - 1] == Byte.space || bytes[index - 1] == Byte.tab
      {
        end = index
        break
      }
      index += 1
    }
    while end > line.contentStart, bytes[end - 1] == Byte.space || bytes[end - 1] == Byte.tab {
      end -= 1
    }
    guard end > line.contentStart else { return false }
    return bytes[end - 1] == Byte.colon
      || (end - line.contentStart == 1 && bytes[line.contentStart] == Byte.dash)
  }

  /// Skips, from `index`, the lines that belong to an entry that failed: blank lines and lines
  /// indented deeper than `indent`. Sets `nextLine` to the first line left.
  mutating func skipLines(deeperThan indent: Int, from index: Int) {
    var lineIndex = index
    while lineIndex < lines.count {
      let line = lines[lineIndex]
      let isStructure = line.kind != .blank && line.kind != .comment
      if isStructure && (line.leadingTab == nil && line.indent <= indent) { break }
      if line.kind == .documentStart || line.kind == .documentEnd { break }
      lineIndex += 1
    }
    nextLine = lineIndex
  }

  // MARK: Positions

  /// The 1-based location of byte `offset`, which lies on line `lineIndex` (or just past it).
  func location(line lineIndex: Int, offset: Int) -> SourceLocation {
    let line = lines[lineIndex]
    guard !line.isASCII else {
      return SourceLocation(file: file, line: lineIndex + 1, column: offset - line.start + 1)
    }
    let end = min(offset, line.end)
    let column: Int
    if lastColumn.line == lineIndex, lastColumn.offset <= end {
      // Positions come left to right: count on from the last one, so the nodes of one long
      // line that is not ASCII cost what the line costs, not its square.
      column = lastColumn.column + scalarCount(from: lastColumn.offset, to: end)
    } else {
      column = scalarCount(from: line.start, to: end)
    }
    lastColumn.remember(line: lineIndex, offset: end, column: column)
    return SourceLocation(file: file, line: lineIndex + 1, column: column + 1)
  }

  /// A range from one position to another.
  func range(fromLine startLine: Int, _ startOffset: Int, toLine endLine: Int, _ endOffset: Int)
    -> SourceRange
  {
    SourceRange(
      start: location(line: startLine, offset: startOffset),
      end: location(line: endLine, offset: endOffset))
  }

  /// How many Unicode scalars lie between two offsets of one line.
  func scalarCount(from start: Int, to end: Int) -> Int {
    var count = 0
    var index = start
    while index < end {
      if bytes[index] & 0xC0 != 0x80 { count += 1 }
      index += 1
    }
    return count
  }

  // MARK: Diagnostics

  /// Records `diagnostic` unless it was already reported (a line can be looked at from several
  /// levels of nesting).
  mutating func record(_ diagnostic: Diagnostic) {
    problemCount += 1
    if diagnostics.count < diagnostics.limit {
      guard recorded.insert(diagnostic).inserted else { return }
    }
    diagnostics.append(diagnostic)
  }

  /// Records an error at byte `offset` of line `line`, underlining `length` characters.
  mutating func error(
    _ message: String, line lineIndex: Int, offset: Int, length: Int = 1, hint: String? = nil,
    notes: [Diagnostic] = []
  ) {
    record(
      Diagnostic(
        severity: .error, location: location(line: lineIndex, offset: offset), length: length,
        message: message, hint: hint, notes: notes))
  }

  /// Records an error while lines are still being split (the line is not in the table yet).
  private mutating func report(
    _ message: String, lineIndex: Int, lineStart: Int, offset: Int, hint: String?
  ) {
    let column = scalarCount(from: lineStart, to: offset) + 1
    record(
      Diagnostic(
        severity: .error, location: SourceLocation(file: file, line: lineIndex + 1, column: column),
        message: message, hint: hint))
  }

  /// A short, printable excerpt of the text at `offset` for messages ("found 'xyz'").
  func excerpt(
    line lineIndex: Int, from offset: Int, maximumLength: Int = 24, marksTruncation: Bool = true
  ) -> String {
    let end = lines[lineIndex].end
    var stop = offset
    var count = 0
    while stop < end && count < maximumLength {
      stop += 1
      while stop < end && bytes[stop] & 0xC0 == 0x80 { stop += 1 }
      count += 1
    }
    let text = String(decoding: bytes[offset..<stop], as: UTF8.self)
    return stop < end && marksTruncation ? text + "..." : text
  }

  // MARK: Character classes

  /// True when `offset` is past the line or holds a space or tab: the separation YAML requires
  /// after `-`, `?` and `:` indicators (YAML 1.2 §7.3.3, §8.2.1, §8.2.2).
  func isBlank(_ offset: Int, lineEnd: Int) -> Bool {
    offset >= lineEnd || bytes[offset] == Byte.space || bytes[offset] == Byte.tab
  }

  /// True when line `lineIndex` starts a block sequence entry (`-` then blank) at its content.
  func isSequenceEntry(_ lineIndex: Int) -> Bool {
    let line = lines[lineIndex]
    return line.kind == .content && bytes[line.contentStart] == Byte.dash
      && isBlank(line.contentStart + 1, lineEnd: line.end)
  }
}

/// A position and its column, kept by reference so the parser's read-only helpers can update it.
final class ColumnMemo {
  private(set) var line = -1
  private(set) var offset = 0
  private(set) var column = 0

  func remember(line: Int, offset: Int, column: Int) {
    self.line = line
    self.offset = offset
    self.column = column
  }
}

/// Uppercase hexadecimal, zero-padded to `digits`.
func hex(_ value: UInt32, digits: Int) -> String {
  let text = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}
