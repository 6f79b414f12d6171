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

  /// The diagnostics as the config's, for text that starts at `column` of `line` of `file`
  /// (a one-line value: columns simply add up).
  public func located(file: String, line: Int, column: Int) -> [Diagnostic] {
    diagnostics.map { problem in
      Diagnostic(
        severity: .error,
        location: SourceLocation(
          file: file, line: line, column: column + problem.columns.lowerBound),
        length: max(1, problem.columns.count), message: problem.message, hint: problem.hint)
    }
  }

  /// The diagnostics printed as a compiler prints them, the text quoted with a caret under the
  /// problem: `workout:1:10: error: ...`.
  public func rendered(name: String = "workout", usesColor: Bool = false) -> String {
    // The text is quoted on one line: line breaks in it would split the caret from its column.
    let oneLine = String(
      String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    return DiagnosticRenderer(file: name, source: oneLine, usesColor: usesColor).render(
      located(file: name, line: 1, column: 1))
  }

  public var description: String {
    diagnostics.map { "column \($0.columns.lowerBound + 1): \($0.message)" }.joined(separator: "; ")
  }
}

/// Reads and writes the whiteboard notation. Pure: no IO, no clock.
public enum WorkoutNotation {
  /// The count-in a written workout gets unless it says otherwise (`countin 5s`, `no countin`).
  public static let standardCountIn = TimeSpan.seconds(10)
  /// The longest name a plan gets: the canonical text, shortened with `…` past this many
  /// characters, so it fits a status line.
  public static let maximumNameLength = 32
  /// The most characters a written workout may have: a whiteboard holds far fewer, and the
  /// parser's work stays bounded whatever a client sends.
  public static let maximumLength = 1000
  /// Death by ... runs until the athletes fail; without a number of rounds it is given this many.
  public static let deathByRounds = 30

  /// Reads a written workout. `defaultCountIn` is the count-in of a text that names none (the
  /// config passes its `defaults: count_in`).
  public static func parse(_ text: String, defaultCountIn: TimeSpan = standardCountIn)
    -> Result<WorkoutPlan, NotationError>
  {
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
    do throws(NotationDiagnostic) {
      let tokens = try Lexer.tokens(of: scalars)
      var parser = Parser(scalars: scalars, tokens: tokens)
      var plan = try parser.plan(defaultCountIn: defaultCountIn)
      // The count-in every workout of this config gets goes unsaid, as the coach left it
      // unsaid: `amrap 14`, not `amrap 14 countin 5s` where the config's count-in is 5 s.
      var unsaid = plan
      if plan.countIn == defaultCountIn { unsaid.countIn = standardCountIn }
      let canonical = write(unsaid) ?? text
      plan.notation = canonical
      plan.name = shortName(canonical)
      return .success(plan)
    } catch {
      return fail(error)
    }
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
