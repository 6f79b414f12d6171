// SPDX-License-Identifier: MIT
// The whiteboard notation: a workout written the way a coach writes it (`amrap 14`,
// `21-15-9 for time cap 10`), read into the same plans as the config's presets.

import ConfigFormat
import WorkoutCore

/// One problem in a written workout: the columns it covers (0-based offsets in Unicode scalars
/// of the text), what is wrong and how to write it instead.
public struct NotationDiagnostic: Error, Sendable, Hashable {
  public var columns: Range<Int>
  public var message: String
  public var hint: String?

  public init(columns: Range<Int>, message: String, hint: String? = nil) {
    self.columns = columns
    self.message = message
    self.hint = hint
  }
}

/// Why a written workout was refused: its diagnostics, each placed within the text, so a caller
/// can point into the line it came from (a config value, a command line argument).
public struct NotationError: Error, Sendable, Hashable, CustomStringConvertible {
  public var text: String
  public var diagnostics: [NotationDiagnostic]

  public init(text: String, diagnostics: [NotationDiagnostic]) {
    self.text = text
    self.diagnostics = diagnostics
  }

  /// The line (0-based) and the column within it (0-based) of `offset`, lines split at `\n`.
  public func position(of offset: Int) -> (line: Int, column: Int) {
    var line = 0
    var start = 0
    for (index, scalar) in text.unicodeScalars.enumerated() {
      guard index < offset else { break }
      if scalar == "\n" {
        line += 1
        start = index + 1
      }
    }
    return (line, offset - start)
  }

  /// The diagnostics as the config's, for text that starts at `column` of `line` of `file`;
  /// a problem on a later line of the text is on a later line of the file, from its first
  /// column.
  public func located(file: String, line: Int, column: Int) -> [Diagnostic] {
    diagnostics.map { problem in
      let (lineOffset, inLine) = position(of: problem.columns.lowerBound)
      return Diagnostic(
        severity: .error,
        location: SourceLocation(
          file: file, line: line + lineOffset,
          column: (lineOffset == 0 ? column : 1) + inLine),
        length: max(1, min(problem.columns.count, lineLength(at: problem.columns.lowerBound))),
        message: problem.message, hint: problem.hint)
    }
  }

  /// How many characters of its line follow `offset`, itself included.
  func lineLength(at offset: Int) -> Int {
    var count = 0
    for scalar in text.unicodeScalars.dropFirst(offset) {
      if scalar == "\n" || scalar == "\r" { break }
      count += 1
    }
    return max(1, count)
  }

  /// The diagnostics printed as a compiler prints them, the line quoted with a caret under
  /// the problem: `workout:1:10: error: ...` (`workout:3:1` on the third line of a text
  /// with whiteboard lines).
  public func rendered(name: String = "workout", usesColor: Bool = false) -> String {
    let source = String(
      String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\r" ? " " : $0 }))
    return DiagnosticRenderer(file: name, source: source, usesColor: usesColor).render(
      located(file: name, line: 1, column: 1))
  }

  public var description: String {
    diagnostics.map { problem in
      let (line, column) = position(of: problem.columns.lowerBound)
      let place = line == 0 ? "column \(column + 1)" : "line \(line + 1), column \(column + 1)"
      return "\(place): \(problem.message)"
    }.joined(separator: "; ")
  }
}

/// Reads and writes the whiteboard notation. Pure: no IO, no clock.
public enum WorkoutNotation {
  /// The count-in a written workout gets unless it says otherwise (`countin 5s`, `no countin`).
  public static let standardCountIn = TimeSpan.seconds(10)
  /// The longest name a plan gets: the canonical text, shortened with `…` past this many
  /// characters, so it fits a status line.
  public static let maximumNameLength = 32
  /// The most characters a written workout may have, its whiteboard lines included: a
  /// whiteboard holds fewer, and the parser's work stays bounded whatever a client sends.
  public static let maximumLength = 2000
  /// Death by ... runs until the athletes fail; without a number of rounds it is given this many.
  public static let deathByRounds = 30

  /// Reads a written workout: the workout on its first line, the whiteboard on the lines after
  /// it (`\n` or `\r\n`). `defaultCountIn` is the count-in of a text that names none (the
  /// config passes its `defaults: count_in`). A text that is only a name of `library`
  /// (`cindy`, `Fight Gone Bad`) reads as that workout, called by its name.
  public static func parse(
    _ text: String, defaultCountIn: TimeSpan = standardCountIn,
    library: WorkoutLibrary = .standard
  ) -> Result<WorkoutPlan, NotationError> {
    let scalars = Array(text.unicodeScalars)
    let fail = { (diagnostic: NotationDiagnostic) -> Result<WorkoutPlan, NotationError> in
      .failure(NotationError(text: text, diagnostics: [diagnostic]))
    }
    if scalars.count > maximumLength {
      return fail(
        NotationDiagnostic(
          columns: maximumLength..<scalars.count,
          message:
            "a written workout may have at most \(maximumLength) characters, this one has \(scalars.count)",
          hint: "write the workout itself, as on a whiteboard: 'amrap 14'"))
    }
    if let named = library.workout(named: text) {
      switch parse(named.text, defaultCountIn: defaultCountIn, library: .empty) {
      case .success(var plan):
        plan.name = named.name
        return .success(plan)
      case .failure(let error):
        return fail(
          NotationDiagnostic(
            columns: 0..<max(1, scalars.count),
            message:
              "the workout '\(named.name)' does not read: \(error.diagnostics.first?.message ?? "")",
            hint: error.diagnostics.first?.hint))
      }
    }
    do throws(NotationDiagnostic) {
      var (plan, workoutLine) = try read(scalars, defaultCountIn: defaultCountIn)
      // The count-in every workout of this config gets goes unsaid, as the coach left it
      // unsaid: `amrap 14`, not `amrap 14 countin 5s` where the config's count-in is 5 s.
      var unsaid = plan
      if plan.countIn == defaultCountIn { unsaid.countIn = standardCountIn }
      let line = writeWorkoutLine(unsaid) ?? workoutLine
      plan.notation = line + Writer.whiteboard(plan)
      plan.name = shortName(line)
      return .success(plan)
    } catch {
      return fail(error)
    }
  }

  /// Reads the workout line and the whiteboard of `scalars`; the plan and the workout line as
  /// written.
  static func read(_ scalars: [Unicode.Scalar], defaultCountIn: TimeSpan)
    throws(NotationDiagnostic) -> (WorkoutPlan, String)
  {
    let board = try WhiteboardReader.read(scalars)
    // The workout line alone, at its own columns: the rest reads as blanks.
    var line = [Unicode.Scalar](repeating: " ", count: scalars.count)
    for column in board.workoutColumns { line[column] = scalars[column] }
    var parser = Parser(
      scalars: line, tokens: try Lexer.tokens(of: line), textColumns: board.workoutColumns)
    var plan = try parser.plan(defaultCountIn: defaultCountIn)
    plan.whiteboard = board.lines
    plan.media = board.media
    return (plan, WhiteboardReader.text(board.workoutColumns, in: scalars))
  }

  /// The name of a plan written as `text`: the text itself, shortened to
  /// ``maximumNameLength`` characters.
  public static func shortName(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count > maximumNameLength else { return text }
    var view = String.UnicodeScalarView(scalars.prefix(maximumNameLength - 1))
    view.append("…")
    return String(view)
  }
}
