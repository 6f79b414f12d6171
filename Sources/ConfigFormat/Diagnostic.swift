// SPDX-License-Identifier: MIT

/// A problem found in a configuration file, reported the way a compiler would.
///
/// Messages are lowercase, without a trailing period, with names in single quotes:
/// `unknown key 'rouds' in preset 'fran'`.
public struct Diagnostic: Error, Sendable, Equatable, Hashable {
  /// How serious a diagnostic is.
  public enum Severity: String, Sendable, Equatable, Hashable, Comparable {
    /// Extra information attached to another diagnostic ("first defined here").
    case note
    /// Something suspicious that does not stop the configuration from loading.
    case warning
    /// Something that stops the configuration from loading.
    case error

    private var rank: Int {
      switch self {
      case .note: return 0
      case .warning: return 1
      case .error: return 2
      }
    }

    /// Orders note < warning < error.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
  }

  /// How serious it is.
  public var severity: Severity
  /// Where the problem starts.
  public var location: SourceLocation
  /// How many columns to underline, at least 1. The renderer stops at the end of the line.
  public var length: Int
  /// What is wrong, lowercase, no trailing period.
  public var message: String
  /// How to fix it, printed as `hint: ...` under the source line.
  public var hint: String?
  /// Related places, such as the first definition of a duplicate key.
  public var notes: [Diagnostic]

  /// Creates a diagnostic. `length` is clamped to at least 1.
  public init(
    severity: Severity, location: SourceLocation, length: Int = 1, message: String,
    hint: String? = nil, notes: [Diagnostic] = []
  ) {
    self.severity = severity
    self.location = location
    self.length = max(1, length)
    self.message = message
    self.hint = hint
    self.notes = notes
  }

  /// Creates a diagnostic that underlines `range`.
  public init(
    severity: Severity, range: SourceRange, message: String, hint: String? = nil,
    notes: [Diagnostic] = []
  ) {
    self.init(
      severity: severity, location: range.start, length: range.underlineLength, message: message,
      hint: hint, notes: notes)
  }

  /// An error underlining `range`.
  public static func error(
    _ message: String, at range: SourceRange, hint: String? = nil, notes: [Diagnostic] = []
  ) -> Diagnostic {
    Diagnostic(severity: .error, range: range, message: message, hint: hint, notes: notes)
  }

  /// A warning underlining `range`.
  public static func warning(
    _ message: String, at range: SourceRange, hint: String? = nil, notes: [Diagnostic] = []
  ) -> Diagnostic {
    Diagnostic(severity: .warning, range: range, message: message, hint: hint, notes: notes)
  }

  /// A note underlining `range`, to attach to another diagnostic's `notes`.
  public static func note(_ message: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(severity: .note, range: range, message: message)
  }

  /// Sorts by position (file, line, column), keeping the original order for equal positions.
  public static func sortedByLocation(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.enumerated().sorted { lhs, rhs in
      if lhs.element.location != rhs.element.location {
        return lhs.element.location < rhs.element.location
      }
      return lhs.offset < rhs.offset
    }.map(\.element)
  }
}

/// Collects diagnostics while a configuration is checked, so every problem is reported in one run.
///
/// A bag may keep at most `limit` of them and only count the rest, so a file made of nothing
/// but mistakes costs a bounded amount of memory and time to check (compilers stop listing
/// errors the same way); ``sorted`` then ends with a note that says where the listing stopped.
public struct DiagnosticBag: Sendable, Equatable {
  /// How many diagnostics the parser and the schema checker each keep at most.
  public static let standardLimit = 1000

  /// Everything kept so far, in the order it was added.
  public private(set) var diagnostics: [Diagnostic] = []
  /// The most diagnostics the bag keeps.
  public let limit: Int
  /// Diagnostics added past the limit, counted but not kept.
  public private(set) var omittedErrors = 0
  /// Warnings added past the limit.
  public private(set) var omittedWarnings = 0
  private var firstOmitted: SourceLocation?

  /// Creates an empty bag that keeps at most `limit` diagnostics.
  public init(limit: Int = .max) {
    self.limit = max(0, limit)
  }

  /// Creates a bag holding `diagnostics`, such as the parser's.
  public init(_ diagnostics: [Diagnostic], limit: Int = .max) {
    self.init(limit: limit)
    append(contentsOf: diagnostics)
  }

  /// Adds one diagnostic, or counts it when the bag is full.
  public mutating func append(_ diagnostic: Diagnostic) {
    if diagnostics.count < limit {
      diagnostics.append(diagnostic)
      return
    }
    firstOmitted = firstOmitted ?? diagnostic.location
    switch diagnostic.severity {
    case .error: omittedErrors += 1
    case .warning: omittedWarnings += 1
    case .note: break
    }
  }

  /// Adds several diagnostics.
  public mutating func append(contentsOf other: [Diagnostic]) {
    for diagnostic in other { append(diagnostic) }
  }

  /// How many diagnostics were added, kept or not.
  public var count: Int { diagnostics.count + omittedErrors + omittedWarnings }

  /// Adds an error underlining `range`.
  public mutating func error(
    _ message: String, at range: SourceRange, hint: String? = nil, notes: [Diagnostic] = []
  ) {
    append(.error(message, at: range, hint: hint, notes: notes))
  }

  /// Adds an error underlining `node`.
  public mutating func error(
    _ message: String, at node: ConfigNode, hint: String? = nil, notes: [Diagnostic] = []
  ) {
    error(message, at: node.range, hint: hint, notes: notes)
  }

  /// Adds a warning underlining `range`.
  public mutating func warning(
    _ message: String, at range: SourceRange, hint: String? = nil, notes: [Diagnostic] = []
  ) {
    append(.warning(message, at: range, hint: hint, notes: notes))
  }

  /// Adds a warning underlining `node`.
  public mutating func warning(
    _ message: String, at node: ConfigNode, hint: String? = nil, notes: [Diagnostic] = []
  ) {
    warning(message, at: node.range, hint: hint, notes: notes)
  }

  /// Returns the value of `result`, or records its diagnostic and returns nil.
  public mutating func take<Value>(_ result: Result<Value, Diagnostic>) -> Value? {
    switch result {
    case .success(let value): return value
    case .failure(let diagnostic):
      append(diagnostic)
      return nil
    }
  }

  /// True when at least one error was collected.
  public var hasErrors: Bool { errorCount > 0 }

  /// How many errors were collected, kept or not (notes inside diagnostics are not counted).
  public var errorCount: Int { diagnostics.count { $0.severity == .error } + omittedErrors }

  /// How many warnings were collected, kept or not.
  public var warningCount: Int {
    diagnostics.count { $0.severity == .warning } + omittedWarnings
  }

  /// The diagnostics kept, sorted by position, as they should be printed; when some were only
  /// counted, a note at the first of them says how many.
  public var sorted: [Diagnostic] {
    var sorted = Diagnostic.sortedByLocation(diagnostics)
    if let firstOmitted {
      sorted.append(
        Diagnostic(
          severity: .note, location: firstOmitted,
          message: "more problems from here on are not listed: the check lists at most \(limit)",
          hint: "fix the ones above and check again"))
    }
    return sorted
  }
}
