// SPDX-License-Identifier: MIT

/// A position in a configuration file, as editors and compilers print it.
///
/// Lines and columns are 1-based. Columns count Unicode scalars, not bytes, so a caret drawn under
/// a line that contains `é` or `✓` still lands on the right character.
public struct SourceLocation: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
  /// The file name exactly as it was given to the parser.
  public var file: String
  /// The 1-based line number.
  public var line: Int
  /// The 1-based column, in Unicode scalars.
  public var column: Int

  /// Creates a location from its parts.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// Orders by file name, then line, then column.
  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    if lhs.file != rhs.file { return lhs.file < rhs.file }
    if lhs.line != rhs.line { return lhs.line < rhs.line }
    return lhs.column < rhs.column
  }

  /// `file:line:column`, the prefix of a rendered diagnostic.
  public var description: String { "\(file):\(line):\(column)" }
}

/// The extent of a node in its file: `start` is the first character, `end` is just past the last.
public struct SourceRange: Sendable, Equatable, Hashable {
  /// The first character of the node.
  public var start: SourceLocation
  /// The position just after the last character of the node.
  public var end: SourceLocation

  /// Creates a range; `end` must not come before `start`.
  public init(start: SourceLocation, end: SourceLocation) {
    self.start = start
    self.end = end
  }

  /// A zero-width range, used for values that are absent from the text (`key:` with nothing).
  public init(at location: SourceLocation) {
    self.init(start: location, end: location)
  }

  /// How many columns a diagnostic should underline: the whole node when it sits on one line,
  /// otherwise just its first character (a caret), as compilers do for multi-line ranges.
  public var underlineLength: Int {
    start.line == end.line ? max(1, end.column - start.column) : 1
  }
}
