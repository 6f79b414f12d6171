// SPDX-License-Identifier: MIT
// Lane times as the wall and the results show them, AMRAP scores, and the scores a coach types
// for a class: text to values and back, every typed value range-checked before it is computed.

/// How a lane's time is written: whole seconds (`7:42`) or tenths (`7:42.3`).
///
/// A time is truncated toward the press, never rounded up: an athlete who finished at 7:42.39
/// did not finish at 7:42.4. An hour or more gets an hour field (`1:02:03`).
public enum LaneTimeFormat: String, Sendable, Hashable, CaseIterable {
  /// `7:42`, `1:02:03`.
  case seconds
  /// `7:42.3`, `1:02:03.4`.
  case tenths

  /// The milliseconds one step of this format stands for: 1000 or 100. Times that show the same
  /// text compare equal in a ranking (``EventResults/ranked(_:heat:format:)``).
  public var resolutionMilliseconds: Int64 {
    switch self {
    case .seconds: return 1000
    case .tenths: return 100
    }
  }

  /// `milliseconds` as text; a negative time (which a lane refuses) is written as 0.
  public func text(milliseconds: Int64) -> String {
    let total = max(0, milliseconds)
    let seconds = total / 1000
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    let secondsInMinute = seconds % 60
    var text: String
    if hours > 0 {
      text = "\(hours):\(Self.twoDigits(minutes)):\(Self.twoDigits(secondsInMinute))"
    } else {
      text = "\(minutes):\(Self.twoDigits(secondsInMinute))"
    }
    if self == .tenths { text += ".\(total % 1000 / 100)" }
    return text
  }

  /// `milliseconds` cut down to this format's resolution: what the text shows.
  public func truncated(_ milliseconds: Int64) -> Int64 {
    let step = resolutionMilliseconds
    return max(0, milliseconds) / step * step
  }

  private static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}

/// Why a typed score or time was not understood: what was expected and how to write it.
public struct ScoreProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, lowercase, naming what was found: `expected a time such as '7:42', found 'x'`.
  public var message: String
  /// How to write it instead.
  public var hint: String?

  /// Creates a problem from its message and hint.
  public init(message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }

  /// `message; hint: ...`, one line for a reply.
  public var description: String {
    hint.map { "\(message); hint: \($0)" } ?? message
  }
}

/// An AMRAP's score: complete rounds and the reps of the round that was not finished.
///
/// Written `5+12`; a score of reps only (`87`, for a workout scored in reps) is zero rounds and
/// is written back as `87`. Higher is better: rounds first, then reps.
public struct AMRAPScore: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The most rounds or reps a score may have: far beyond any workout, small enough that no sum
  /// or comparison can overflow.
  public static let maximum = 100_000

  /// Complete rounds, 0...``maximum``.
  public let rounds: Int
  /// Reps past the last complete round, 0...``maximum``.
  public let reps: Int

  /// A score, or nil when a part is outside 0...``maximum``.
  public init?(rounds: Int, reps: Int) {
    guard (0...Self.maximum).contains(rounds), (0...Self.maximum).contains(reps) else {
      return nil
    }
    self.rounds = rounds
    self.reps = reps
  }

  /// Reads `5+12`, `5 + 12` or `87` (reps only); spaces around the text are ignored.
  public static func parse(_ text: String) -> Result<AMRAPScore, ScoreProblem> {
    let trimmed = TextScan.trimmed(text)
    let parts = trimmed.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
    let expected = "expected an AMRAP score as rounds+reps ('5+12') or reps ('87')"
    let hint = "rounds and reps are whole numbers from 0 to \(maximum)"
    guard parts.count <= 2, !trimmed.isEmpty else {
      return .failure(ScoreProblem(message: "\(expected), found '\(trimmed)'", hint: hint))
    }
    let numbers = parts.map { TextScan.wholeNumber(TextScan.trimmed($0), atMost: maximum) }
    guard numbers.allSatisfy({ $0 != nil }) else {
      return .failure(ScoreProblem(message: "\(expected), found '\(trimmed)'", hint: hint))
    }
    let rounds = numbers.count == 2 ? numbers[0] ?? 0 : 0
    let reps = numbers.last.flatMap { $0 } ?? 0
    guard let score = AMRAPScore(rounds: rounds, reps: reps) else {
      return .failure(ScoreProblem(message: "\(expected), found '\(trimmed)'", hint: hint))
    }
    return .success(score)
  }

  /// Rounds first, then reps.
  public static func < (lhs: AMRAPScore, rhs: AMRAPScore) -> Bool {
    (lhs.rounds, lhs.reps) < (rhs.rounds, rhs.reps)
  }

  /// `5+12`, or `87` for zero rounds.
  public var description: String { rounds == 0 ? "\(reps)" : "\(rounds)+\(reps)" }
}

/// A score typed for a class without a heat sheet: a time, capped with reps done, or an AMRAP
/// score.
public enum ClassScore: Sendable, Hashable, CustomStringConvertible {
  /// Finished a For Time workout: `7:42`, `7:42.3`, `1:02:03`.
  case time(milliseconds: Int64)
  /// Stopped by a For Time workout's cap with this many reps done: `CAP+12`.
  case capped(reps: Int)
  /// An AMRAP's rounds and reps: `5+12`, `87`.
  case amrap(AMRAPScore)

  /// The longest time a typed score may be: a day.
  public static let maximumMilliseconds: Int64 = 24 * 3600 * 1000

  /// Reads a typed score: a time with a colon (`7:42`, `7:42.3`, `1:02:03`), `CAP+12` (any case,
  /// spaces allowed around the `+`), or an AMRAP score (`5+12`, `87`).
  public static func parse(_ text: String) -> Result<ClassScore, ScoreProblem> {
    let trimmed = TextScan.trimmed(text)
    let expected =
      "expected a time ('7:42', '7:42.3'), a capped score ('CAP+12') or rounds+reps ('5+12')"
    if trimmed.isEmpty {
      return .failure(
        ScoreProblem(
          message: "\(expected), found nothing",
          hint: "a For Time score is the time on the clock; an AMRAP score is rounds+reps"))
    }
    if trimmed.contains(":") {
      return parseTime(trimmed).map { .time(milliseconds: $0) }
    }
    if trimmed.lowercased().hasPrefix("cap") {
      let rest = TextScan.trimmed(trimmed.dropFirst(3))
      let capHint = "'CAP+12' is a For Time athlete stopped by the cap with 12 reps done"
      guard rest.first == "+",
        let reps = TextScan.wholeNumber(
          TextScan.trimmed(rest.dropFirst()), atMost: AMRAPScore.maximum)
      else {
        return .failure(
          ScoreProblem(
            message: "expected reps done after 'CAP+', found '\(trimmed)'", hint: capHint))
      }
      return .success(.capped(reps: reps))
    }
    if trimmed.allSatisfy({ $0.isNumber || $0 == "+" || $0 == " " }) {
      return AMRAPScore.parse(trimmed).map { .amrap($0) }
    }
    return .failure(
      ScoreProblem(
        message: "\(expected), found '\(trimmed)'",
        hint: "a For Time score is the time on the clock; an AMRAP score is rounds+reps"))
  }

  /// Reads a time: `m:ss`, `m:ss.f` (up to three decimals), `h:mm:ss` or `h:mm:ss.f`.
  public static func parseTime(_ text: String) -> Result<Int64, ScoreProblem> {
    let trimmed = TextScan.trimmed(text)
    let problem = ScoreProblem(
      message: "expected a time such as '7:42', '7:42.3' or '1:02:03', found '\(trimmed)'",
      hint: "minutes:seconds, seconds and minutes with two digits from 00 to 59")
    let fractionParts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
    guard fractionParts.count <= 2 else { return .failure(problem) }
    var milliseconds: Int64 = 0
    if fractionParts.count == 2 {
      let digits = fractionParts[1]
      guard (1...3).contains(digits.count),
        let fraction = TextScan.wholeNumber(Substring(digits), atMost: 999)
      else { return .failure(problem) }
      let scale: Int64 = digits.count == 1 ? 100 : digits.count == 2 ? 10 : 1
      milliseconds = Int64(fraction) * scale
    }
    let fields = fractionParts[0].split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(fields.count) else { return .failure(problem) }
    // The first field may be any size up to a day; the others are two-digit 00...59.
    guard let first = TextScan.wholeNumber(fields[0], atMost: 24 * 60) else {
      return .failure(problem)
    }
    var total = Int64(first)
    for field in fields.dropFirst() {
      guard field.count == 2, let value = TextScan.wholeNumber(field, atMost: 59) else {
        return .failure(problem)
      }
      total = total * 60 + Int64(value)
    }
    milliseconds += total * 1000
    guard milliseconds <= maximumMilliseconds else {
      return .failure(
        ScoreProblem(
          message: "a time of at most 24 hours was expected, found '\(trimmed)'",
          hint: "minutes:seconds such as '7:42', or hours:minutes:seconds such as '1:02:03'"))
    }
    return .success(milliseconds)
  }

  /// `7:42` (or `7:42.3` when the time has a fraction of a second), `CAP+12`, `5+12`.
  public var description: String {
    switch self {
    case .time(let milliseconds):
      let format: LaneTimeFormat = milliseconds % 1000 == 0 ? .seconds : .tenths
      return format.text(milliseconds: milliseconds)
    case .capped(let reps): return "CAP+\(reps)"
    case .amrap(let score): return score.description
    }
  }
}

/// Small text helpers shared by the parsers, none of which can trap on any input.
enum TextScan {
  /// `text` without spaces and tabs at either end.
  static func trimmed(_ text: some StringProtocol) -> String {
    let characters = Array(text)
    var start = 0
    var end = characters.count
    while start < end, characters[start] == " " || characters[start] == "\t" { start += 1 }
    while end > start, characters[end - 1] == " " || characters[end - 1] == "\t" { end -= 1 }
    return String(characters[start..<end])
  }

  /// The whole number `text` spells with ASCII digits only, when it is at most `limit`; nil for
  /// anything else (empty, a sign, a decimal point, too many digits), without overflowing.
  static func wholeNumber(_ text: some StringProtocol, atMost limit: Int) -> Int? {
    guard !text.isEmpty else { return nil }
    var value = 0
    for scalar in text.unicodeScalars {
      guard scalar.value >= 0x30, scalar.value <= 0x39 else { return nil }
      value = value * 10 + Int(scalar.value - 0x30)
      // Checked at every digit, so the product above never exceeds 10 × limit + 9.
      if value > limit { return nil }
    }
    return value
  }

  /// True when `text` holds a control character (a line break, a tab, an escape), which a name
  /// shown on the wall or in a terminal must not carry.
  static func hasControlCharacter(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
  }
}
