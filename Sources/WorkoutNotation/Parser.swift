// SPDX-License-Identifier: MIT
// Tokens → plan. One part at a time (parts are joined by `+`), each read as a workout word with
// the quantities around it; the readings of the whiteboard's ambiguous spellings are decided
// here and documented in the README's "Workouts as written" section.

import ConfigFormat
import WorkoutCore

/// One part of a written workout, before it becomes a plan or a step of a chain.
struct WrittenPart: Sendable, Hashable {
  enum Body: Sendable, Hashable {
    case workout(WorkoutMode)
    /// A warm-up, a cool-down or a rest of a chain: one timed step.
    case step(name: String, kind: SequenceStep.Kind, duration: TimeSpan)
  }

  var body: Body
  var label: String?
  /// The count-in the part says it has (`countin 5s`, `no countin` for zero); nil when it says
  /// nothing and the rules decide.
  var countIn: TimeSpan?
  var columns: Range<Int>
  /// Where each parameter was written, by WorkoutCore's parameter names, so a value out of
  /// range is reported under it.
  var parameterColumns: [String: Range<Int>] = [:]
  var countInColumns: Range<Int>?
}

/// A length as written, with the unit it was given (none for a bare number).
struct WrittenQuantity {
  enum Unit { case none, seconds, minutes, hours, clock }
  var number: Int
  var unit: Unit
  var columns: Range<Int>

  /// Its length, a bare number read in `bareUnit`; saturates far beyond every limit.
  func span(bare bareUnit: Unit) -> TimeSpan {
    let unit = self.unit == .none ? bareUnit : self.unit
    let seconds: Int
    switch unit {
    case .hours: seconds = number.multipliedReportingOverflow(by: 3600).partialValue
    case .minutes: seconds = number * 60
    case .seconds, .clock, .none: seconds = number
    }
    return .seconds(Int64(min(seconds, Lexer.tooLarge)))
  }
}

struct Parser {
  let scalars: [Unicode.Scalar]
  let tokens: [Token]
  /// The columns of the workout line: a problem of the whole workout is reported under it.
  let textColumns: Range<Int>
  var index = 0
  var end = 0

  init(scalars: [Unicode.Scalar], tokens: [Token], textColumns: Range<Int>? = nil) {
    self.scalars = scalars
    self.tokens = tokens
    self.textColumns = textColumns ?? 0..<scalars.count
    self.end = tokens.count
  }

  static let workoutWords = [
    "amrap", "emom", "every", "for", "time", "ft", "rft", "fortime", "tabata", "death", "by",
    "tempo", "warm-up", "warmup", "cool-down", "cooldown", "rest", "cap", "rounds", "countin",
    "count-in", "no", "each", "side", "sets", "reps", "min", "mins", "minutes", "seconds",
  ]

  static let examples =
    "write e.g. 'amrap 14', 'emom 10', 'for time cap 15', 'tabata', '8 x 20/10', "
    + "'tempo 31X0 6x4 rest 90s' or 'warm-up 8:00 + amrap 12'"

  // MARK: The whole text

  mutating func plan(defaultCountIn: TimeSpan) throws(NotationDiagnostic) -> WorkoutPlan {
    guard !tokens.isEmpty else {
      throw NotationDiagnostic(
        columns: textColumns.isEmpty
          ? textColumns.lowerBound..<(textColumns.lowerBound + 1) : textColumns,
        message: "expected a workout, found nothing",
        hint: Self.examples)
    }
    var parts: [WrittenPart] = []
    if let mix = try openWodTimerMix() {
      parts = mix
    } else {
      var start = 0
      var depth = 0
      for (position, token) in tokens.enumerated() {
        if token.isSymbol("(") { depth += 1 }
        if token.isSymbol(")") { depth -= 1 }
        if depth == 0, token.isSymbol("+") || token.word == "then" {
          parts.append(try part(from: start, to: position, separator: token))
          start = position + 1
        }
      }
      parts.append(try part(from: start, to: tokens.count, separator: tokens.last))
    }
    return try Chain.plan(of: parts, defaultCountIn: defaultCountIn, textColumns: textColumns)
  }

  mutating func part(from start: Int, to stop: Int, separator: Token?) throws(NotationDiagnostic)
    -> WrittenPart
  {
    guard start < stop else {
      let columns = separator?.columns ?? 0..<1
      throw NotationDiagnostic(
        columns: columns, message: "expected a part of the workout here, found nothing",
        hint: "join parts with '+', as in 'warm-up 8:00 + amrap 12'")
    }
    index = start
    end = stop
    var part = try partBody()
    part.columns = tokens[start].columns.lowerBound..<tokens[stop - 1].columns.upperBound
    try tail(&part)
    return part
  }

  // MARK: Cursor

  var atEnd: Bool { index >= end }
  var current: Token? { index < end ? tokens[index] : nil }
  func peek(_ offset: Int = 0) -> Token? { index + offset < end ? tokens[index + offset] : nil }
  func word(_ offset: Int = 0) -> String? { peek(offset)?.word }
  var lastColumns: Range<Int> { tokens[max(index - 1, 0)].columns }
  var hereColumns: Range<Int> {
    current?.columns ?? (lastColumns.upperBound..<lastColumns.upperBound + 1)
  }

  mutating func take(_ words: String...) -> Bool {
    guard let word = word(), words.contains(word) else { return false }
    index += 1
    return true
  }

  func text(_ columns: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[columns])) }

  func shown(_ token: Token?) -> String { token.map { "'\(text($0.columns))'" } ?? "the end" }

  // MARK: Quantities

  /// A number, with a unit word after it if one follows (`14 min`, `90s`, `1m30s`), or a clock
  /// time; nil when the next token is neither.
  mutating func quantity() -> WrittenQuantity? {
    guard let token = current else { return nil }
    switch token.kind {
    case .clock(let seconds):
      index += 1
      return WrittenQuantity(number: seconds, unit: .clock, columns: token.columns)
    case .number(let number):
      index += 1
      var quantity = WrittenQuantity(number: number, unit: .none, columns: token.columns)
      guard let unit = unit(word()) else { return quantity }
      index += 1
      quantity.unit = unit
      quantity.columns = token.columns.lowerBound..<lastColumns.upperBound
      // `1m30s`, `1 min 30 s`: a smaller unit after a larger one adds up.
      if unit != .seconds, case .number(let more)? = peek()?.kind, let smaller = self.unit(word(1)),
        smaller == .seconds || (unit == .hours && smaller == .minutes)
      {
        index += 2
        let total = quantity.span(bare: .none).nanoseconds / TimeSpan.nanosecondsPerSecond
        let extra =
          WrittenQuantity(number: more, unit: smaller, columns: token.columns)
          .span(bare: .none).nanoseconds / TimeSpan.nanosecondsPerSecond
        quantity = WrittenQuantity(
          number: Int(min(total + extra, Int64(Lexer.tooLarge))), unit: .seconds,
          columns: token.columns.lowerBound..<lastColumns.upperBound)
      }
      return quantity
    default:
      return nil
    }
  }

  func unit(_ word: String?) -> WrittenQuantity.Unit? {
    switch word {
    case "s", "sec", "secs", "second", "seconds": .seconds
    case "m", "min", "mins", "minute", "minutes", "mn": .minutes
    case "h", "hr", "hrs", "hour", "hours": .hours
    default: nil
    }
  }

  /// A length that must be there: `what` names it in the message.
  mutating func length(_ what: String, bare: WrittenQuantity.Unit, example: String)
    throws(NotationDiagnostic) -> (TimeSpan, Range<Int>)
  {
    guard let quantity = quantity() else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected \(what), found \(shown(current))",
        hint: "write e.g. '\(example)'")
    }
    return (quantity.span(bare: bare), quantity.columns)
  }

  /// A count that must be there: a bare number (`rounds`, `sets`).
  mutating func count(_ what: String, example: String) throws(NotationDiagnostic) -> (
    Int, Range<Int>
  ) {
    guard case .number(let number)? = current?.kind, unit(word(1)) == nil else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected \(what), found \(shown(current))",
        hint: "write e.g. '\(example)'")
    }
    index += 1
    return (number, lastColumns)
  }

  /// A rounds count, optionally followed by `rounds`.
  mutating func rounds(example: String) throws(NotationDiagnostic) -> (Int, Range<Int>) {
    let rounds = try count("a number of rounds", example: example)
    _ = take("rounds", "round", "rds", "rd")
    return rounds
  }

  // MARK: Parts

  mutating func partBody() throws(NotationDiagnostic) -> WrittenPart {
    let nowhere = 0..<0
    func workout(_ mode: WorkoutMode, _ columns: [String: Range<Int>]) -> WrittenPart {
      WrittenPart(body: .workout(mode), columns: nowhere, parameterColumns: columns)
    }
    if let call = try openWodTimerCall() { return call }
    guard let first = current else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected a workout", hint: Self.examples)
    }
    switch first.kind {
    case .number, .clock:
      return try quantityFirst()
    case .symbol:
      throw NotationDiagnostic(
        columns: first.columns, message: "expected a workout, found \(shown(first))",
        hint: Self.examples)
    case .word(let word):
      index += 1
      switch word {
      case "amrap", "amrep":
        let (time, columns) = try length("the AMRAP's length", bare: .minutes, example: "amrap 14")
        return workout(.amrap(AMRAPParameters(time: time)), ["time": columns])
      case "emom":
        return try emom(interval: .seconds(60), intervalColumns: first.columns, minutes: false)
      case "e" where self.word(0) == "mom" || peek().map(isQuantity) == true:
        return try everyN(first)
      case "every":
        return try everyN(first)
      case "for" where take("time"), "fortime", "ft":
        return try forTime(rounds: nil, repScheme: nil, columns: [:])
      case "rft":
        throw NotationDiagnostic(
          columns: first.columns, message: "'rft' needs its number of rounds before it",
          hint: "write e.g. '5 rft cap 20'")
      case "tabata":
        return try tabata()
      case "death", "deathby":
        if word == "death" && !take("by") {
          throw NotationDiagnostic(
            columns: hereColumns, message: "expected 'by' after 'death', found \(shown(current))",
            hint: "write e.g. 'death by 10' or 'death by burpees'")
        }
        return try deathBy()
      case "tempo":
        return try tempo()
      case "warm-up", "warmup", "wu", "warm":
        if word == "warm" { _ = take("up") }
        return try step("warm-up", kind: .work, example: "warm-up 8:00")
      case "cool-down", "cooldown", "cool", "cd":
        if word == "cool" { _ = take("down") }
        return try step("cool-down", kind: .work, example: "cool-down 5:00")
      case "rest":
        return try step("rest", kind: .rest, example: "rest 3:00")
      case "intervals", "interval":
        return try quantityFirst()
      default:
        index -= 1
        throw unknownWord(first, expected: "a workout")
      }
    }
  }

  func isQuantity(_ token: Token) -> Bool {
    switch token.kind {
    case .number, .clock: true
    default: false
    }
  }

  func unknownWord(_ token: Token, expected: String) -> NotationDiagnostic {
    let written = text(token.columns)
    let candidates = [
      "amrap", "emom", "for time", "tabata", "death by", "tempo", "warm-up", "cool-down", "rest",
      "countin", "cap", "rounds", "every", "rft",
    ]
    if let match = closestMatch(to: token.word ?? written, among: candidates + ["for"]) {
      let match = match == "for" ? "for time" : match
      return NotationDiagnostic(
        columns: token.columns, message: "unknown word '\(written)': expected \(expected)",
        hint: "did you mean '\(match)'?")
    }
    return NotationDiagnostic(
      columns: token.columns, message: "unknown word '\(written)': expected \(expected)",
      hint: Self.examples + "; a caption goes after ':', as in 'amrap 14: cindy'")
  }

  /// `warm-up 8:00`, `rest 3:00`: a bare number is minutes.
  mutating func step(_ name: String, kind: SequenceStep.Kind, example: String)
    throws(NotationDiagnostic)
    -> WrittenPart
  {
    let (duration, columns) = try length(
      "the length of the \(name)", bare: .minutes, example: example)
    return WrittenPart(
      body: .step(name: name, kind: kind, duration: duration), columns: 0..<0,
      parameterColumns: ["duration": columns])
  }

  /// `emom 10`, `emom 10 x 1:00`, `emom 12 min`, `emom 10 rounds`.
  mutating func emom(interval: TimeSpan, intervalColumns: Range<Int>, minutes: Bool)
    throws(NotationDiagnostic)
    -> WrittenPart
  {
    var interval = interval
    var intervalColumns = intervalColumns
    guard case .number(let number)? = current?.kind else {
      throw NotationDiagnostic(
        columns: hereColumns,
        message: "expected the EMOM's number of minutes, found \(shown(current))",
        hint: "write e.g. 'emom 10' (10 rounds of 1:00) or 'emom 10 x 2:00'")
    }
    let numberColumns = current!.columns
    index += 1
    var rounds = number
    if take("rounds", "round", "rds") {
    } else if let unit = unit(word()) {
      index += 1
      if unit != .minutes {
        throw NotationDiagnostic(
          columns: numberColumns.lowerBound..<lastColumns.upperBound,
          message:
            "an EMOM lasts whole minutes or rounds, found \(text(numberColumns.lowerBound..<lastColumns.upperBound))",
          hint: "write e.g. 'emom 10' or 'every 90s x 10'")
      }
    }
    if take("x", "*") {
      let (length, columns) = try self.length(
        "the interval", bare: .minutes, example: "emom 10 x 1:00")
      interval = length
      intervalColumns = columns
    }
    _ = minutes
    rounds = max(rounds, 0)
    return WrittenPart(
      body: .workout(.emom(EMOMParameters(interval: interval, rounds: rounds))), columns: 0..<0,
      parameterColumns: ["rounds": numberColumns, "interval": intervalColumns])
  }

  /// `e2mom 16`, `e90s x 10`, `every 2:00 x 8`, `every 2:30 for 15`, `every 90s for 6 rounds`.
  mutating func everyN(_ first: Token) throws(NotationDiagnostic) -> WrittenPart {
    let example = "every 2:00 x 8"
    guard let every = quantity() else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected how often, found \(shown(current))",
        hint: "write e.g. '\(example)' or 'e2mom 16'")
    }
    // `e2mom`, `every 2 minutes`: a bare number is minutes.
    let interval = every.span(bare: .minutes)
    let intervalColumns = first.columns.lowerBound..<every.columns.upperBound
    if first.word == "e" {
      guard take("mom") || every.unit != .none else {
        throw NotationDiagnostic(
          columns: hereColumns,
          message: "expected 'mom' after '\(text(intervalColumns))', found \(shown(current))",
          hint: "write e.g. 'e2mom 16' or 'e90s x 10'")
      }
    }
    var rounds: Int
    var roundsColumns: Range<Int>
    if take("x", "*") {
      (rounds, roundsColumns) = try self.rounds(example: example)
    } else if take("for") {
      guard let total = quantity() else {
        throw NotationDiagnostic(
          columns: hereColumns,
          message: "expected how long, in minutes or rounds, found \(shown(current))",
          hint: "write e.g. 'every 2:30 for 15' (15 minutes) or 'every 2:30 for 6 rounds'")
      }
      roundsColumns = total.columns
      if total.unit == .none, take("rounds", "round", "rds") {
        rounds = total.number
      } else {
        rounds = try wholeRounds(total.span(bare: .minutes), of: interval, columns: roundsColumns)
      }
    } else if case .number(let number)? = current?.kind {
      // `e2mom 16`: the minutes the EMOM lasts when they are a whole number of intervals (the
      // reading most boxes mean), otherwise its rounds (`e3mom 5` is 5 rounds, 15:00).
      index += 1
      roundsColumns = lastColumns
      if take("rounds", "round", "rds") {
        rounds = number
      } else {
        let explicitMinutes = unit(word()) == .minutes
        if explicitMinutes { index += 1 }
        let minutes = TimeSpan.seconds(Int64(number) * 60)
        let whole = interval > .zero && minutes.nanoseconds % interval.nanoseconds == 0
        if explicitMinutes || whole {
          rounds = try wholeRounds(minutes, of: interval, columns: roundsColumns)
        } else {
          rounds = number
        }
      }
    } else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected how many rounds, found \(shown(current))",
        hint: "write e.g. '\(example)' (8 rounds) or 'every 2:30 for 15' (15 minutes)")
    }
    return WrittenPart(
      body: .workout(.emom(EMOMParameters(interval: interval, rounds: rounds))), columns: 0..<0,
      parameterColumns: ["rounds": roundsColumns, "interval": intervalColumns])
  }

  func isClock(_ token: Token) -> Bool {
    if case .clock = token.kind { return true }
    return false
  }

  func wholeRounds(_ total: TimeSpan, of interval: TimeSpan, columns: Range<Int>)
    throws(NotationDiagnostic) -> Int
  {
    guard interval > .zero, total.nanoseconds % interval.nanoseconds == 0 else {
      throw NotationDiagnostic(
        columns: columns,
        message: "\(total) is not a whole number of \(interval) rounds",
        hint: "write the rounds instead, as in 'every \(interval) x 8'")
    }
    return Int(total.nanoseconds / interval.nanoseconds)
  }

  /// After `for time`: the cap is read by the tail.
  mutating func forTime(rounds: Int?, repScheme: [Int]?, columns: [String: Range<Int>])
    throws(NotationDiagnostic) -> WrittenPart
  {
    WrittenPart(
      body: .workout(.forTime(ForTimeParameters(rounds: rounds, repScheme: repScheme))),
      columns: 0..<0, parameterColumns: columns)
  }

  /// `tabata`, `tabata squats`, `tabata 10 x 30/15`, `tabata x 2 rest 1:00` (sets by the tail).
  mutating func tabata() throws(NotationDiagnostic) -> WrittenPart {
    if let current, isQuantity(current) {
      var part = try quantityFirst()
      if case .workout(.intervals(let parameters)) = part.body {
        part.body = .workout(.tabata(parameters))
      }
      return part
    }
    var part = WrittenPart(body: .workout(.tabata(.tabata)), columns: 0..<0)
    part.label = freeWords()
    return part
  }

  /// `death by 10`, `death by burpees`, `death by 15 burpees`: a ladder EMOM of 1, 2, 3 ... reps.
  mutating func deathBy() throws(NotationDiagnostic) -> WrittenPart {
    var rounds = WorkoutNotation.deathByRounds
    var roundsColumns = hereColumns
    var label = freeWords()
    if case .number(let number)? = current?.kind {
      index += 1
      roundsColumns = lastColumns
      rounds = number
      _ = take("rounds", "round", "min", "mins", "minutes")
      if label == nil { label = freeWords() }
    }
    var part = WrittenPart(
      body: .workout(.emom(EMOMParameters(rounds: rounds, ladder: Ladder()))), columns: 0..<0,
      parameterColumns: ["rounds": roundsColumns])
    part.label = label
    return part
  }

  /// Words up to the next keyword, as a caption (`tabata squats`); nil when there are none.
  mutating func freeWords() -> String? {
    let start = index
    while let word = word(), !Self.tailWords.contains(word) { index += 1 }
    guard index > start else { return nil }
    return text(tokens[start].columns.lowerBound..<tokens[index - 1].columns.upperBound)
  }

  static let tailWords: Set<String> = [
    "x", "cap", "tc", "rest", "r", "countin", "count-in", "count", "no", "each", "per",
    "unilateral", "skip",
    "sets", "set",
  ]

  /// `tempo 31X0 6x4 rest 90s`, `tempo 3-1-1-0 x 6 x 4 r 1:30 each side`, `tempo 4010 5 reps 3 sets`,
  /// `tempo 30X0 5x3 rest 2:00 up first reversed`.
  mutating func tempo() throws(NotationDiagnostic) -> WrittenPart {
    guard let first = current else {
      throw NotationDiagnostic(
        columns: hereColumns,
        message: "expected a tempo such as '31X0' after 'tempo', found the end",
        hint: "write e.g. 'tempo 31X0 6x4 rest 90s'")
    }
    // The tempo is the run of text up to the next space: `31X0` lexes as 31, x, 0.
    var stop = first.columns.lowerBound
    while stop < scalars.count, !scalars[stop].properties.isWhitespace { stop += 1 }
    let tempoColumns = first.columns.lowerBound..<stop
    while let token = current, token.columns.upperBound <= stop { index += 1 }
    let tempo: Tempo
    switch Tempo.parse(text(tempoColumns)) {
    case .success(let parsed): tempo = parsed
    case .failure(let error):
      throw NotationDiagnostic(columns: tempoColumns, message: error.message, hint: error.hint)
    }
    var parameters = TempoParameters(tempo: tempo, reps: 1)
    var columns: [String: Range<Int>] = ["tempo": tempoColumns]
    _ = take("x", "*")
    let (reps, repsColumns) = try count("the reps of a set", example: "tempo 31X0 6x4")
    parameters.reps = reps
    columns["reps"] = repsColumns
    _ = take("reps", "rep")
    if take("x", "*") || word() == nil {
      if case .number(let sets)? = current?.kind {
        index += 1
        parameters.sets = sets
        columns["sets"] = lastColumns
        _ = take("sets", "set")
      }
    }
    return WrittenPart(
      body: .workout(.tempo(parameters)), columns: 0..<0, parameterColumns: columns)
  }

  /// A part that starts with a number: `14 min amrap`, `12 min emom`, `5 rft`, `3 rounds for
  /// time`, `21-15-9 for time`, `8 x 20/10`, `10 rounds 40/20`, `5 x 3:00/1:00`, `20/10 x 8`.
  mutating func quantityFirst() throws(NotationDiagnostic) -> WrittenPart {
    let startToken = current
    guard let first = quantity() else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected a number, found \(shown(current))",
        hint: Self.examples)
    }
    // A rep scheme: 21-15-9.
    if first.unit == .none, current?.isSymbol("-") == true, case .number? = peek(1)?.kind {
      var scheme = [first.number]
      var stop = first.columns.upperBound
      while current?.isSymbol("-") == true, case .number(let next)? = peek(1)?.kind {
        index += 2
        scheme.append(next)
        stop = lastColumns.upperBound
      }
      let columns = first.columns.lowerBound..<stop
      if let bad = scheme.first(where: { !(1...999).contains($0) }) {
        throw NotationDiagnostic(
          columns: columns,
          message: "the reps of a rep scheme must be between 1 and 999, got \(bad)")
      }
      if scheme.count > PlanLimits.rounds.upperBound {
        throw NotationDiagnostic(
          columns: columns,
          message:
            "a rep scheme may have at most \(PlanLimits.rounds.upperBound) rounds, this one has \(scheme.count)"
        )
      }
      if take("for") {
        guard take("time") else {
          throw NotationDiagnostic(
            columns: hereColumns, message: "expected 'time' after 'for', found \(shown(current))",
            hint: "write e.g. '21-15-9 for time cap 10'")
        }
      } else {
        _ = take("ft", "fortime")
      }
      return try forTime(rounds: scheme.count, repScheme: scheme, columns: ["rounds": columns])
    }
    // Work/rest: 20/10 (bare numbers are seconds), optionally `x 8` after it.
    if current?.isSymbol("/") == true {
      index += 1
      let (rest, restColumns) = try length("the rest after '/'", bare: .seconds, example: "20/10")
      var parameters = IntervalParameters(work: first.span(bare: .seconds), rest: rest, rounds: 1)
      var columns = ["work": first.columns, "rest": restColumns]
      if take("x", "*") {
        let rounds = try self.rounds(example: "20/10 x 8")
        parameters.rounds = rounds.0
        columns["rounds"] = rounds.1
      } else {
        throw NotationDiagnostic(
          columns: hereColumns,
          message:
            "expected the number of rounds before or after '\(text(first.columns.lowerBound..<restColumns.upperBound))'",
          hint: "write e.g. '8 x 20/10' or '10 rounds 40/20'")
      }
      return WrittenPart(
        body: .workout(.intervals(parameters)), columns: 0..<0, parameterColumns: columns)
    }
    let firstWord = word()
    switch firstWord {
    case "amrap", "amrep":
      index += 1
      return WrittenPart(
        body: .workout(.amrap(AMRAPParameters(time: first.span(bare: .minutes)))), columns: 0..<0,
        parameterColumns: ["time": first.columns])
    case "emom":
      index += 1
      guard first.unit == .none || first.unit == .minutes else {
        throw NotationDiagnostic(
          columns: first.columns,
          message: "an EMOM lasts whole minutes, found \(text(first.columns))",
          hint: "write e.g. '12 min emom' or 'every 90s x 10'")
      }
      return WrittenPart(
        body: .workout(.emom(EMOMParameters(rounds: first.number))), columns: 0..<0,
        parameterColumns: ["rounds": first.columns, "interval": first.columns])
    default:
      break
    }
    guard first.unit == .none else {
      throw NotationDiagnostic(
        columns: first.columns,
        message: "'\(text(first.columns))' has no meaning here: expected a workout word after it",
        hint: "write e.g. '14 min amrap', '12 min emom' or 'amrap 14'")
    }
    // A count of rounds: `5 rft`, `3 rounds for time`, `8 x 20/10`, `10 rounds 40/20`.
    let rounds = first.number
    let roundsColumns = first.columns
    let saidRounds = take("rounds", "round", "rds", "rd")
    if take("rft") {
      return try forTime(rounds: rounds, repScheme: nil, columns: ["rounds": roundsColumns])
    }
    if take("for") {
      guard take("time") else {
        throw NotationDiagnostic(
          columns: hereColumns, message: "expected 'time' after 'for', found \(shown(current))",
          hint: "write e.g. '3 rounds for time'")
      }
      return try forTime(rounds: rounds, repScheme: nil, columns: ["rounds": roundsColumns])
    }
    if take("ft", "fortime") {
      return try forTime(rounds: rounds, repScheme: nil, columns: ["rounds": roundsColumns])
    }
    let saidTimes = take("x", "*")
    if saidRounds || saidTimes, let work = quantity() {
      guard current?.isSymbol("/") == true else {
        throw NotationDiagnostic(
          columns: hereColumns,
          message: "expected '/' and a rest after '\(text(work.columns))', found \(shown(current))",
          hint: "write work/rest, as in '\(rounds) x \(text(work.columns))/10'")
      }
      index += 1
      let (rest, restColumns) = try length("the rest after '/'", bare: .seconds, example: "20/10")
      let parameters = IntervalParameters(
        work: work.span(bare: .seconds), rest: rest, rounds: rounds)
      return WrittenPart(
        body: .workout(.intervals(parameters)), columns: 0..<0,
        parameterColumns: ["rounds": roundsColumns, "work": work.columns, "rest": restColumns])
    }
    let what = startToken.map { text($0.columns) } ?? ""
    throw NotationDiagnostic(
      columns: current?.columns ?? roundsColumns,
      message: current == nil
        ? "'\(what)' alone is not a workout"
        : "expected a workout after '\(what)', found \(shown(current))",
      hint:
        "a number first is rounds or a length: '\(what) rft', '\(what) x 20/10', '\(what) min amrap'"
    )
  }

  // MARK: What follows a part

  /// Caps, sets, rests, sides, count-ins and the caption after ':'.
  mutating func tail(_ part: inout WrittenPart) throws(NotationDiagnostic) {
    while let token = current {
      if token.isSymbol(":") {
        index += 1
        try caption(&part)
        continue
      }
      if try countIn(&part) { continue }
      guard let word = token.word else {
        if isQuantity(token) { throw strayNumber(token, in: part) }
        throw unexpectedWord(token, in: part)
      }
      index += 1
      switch (word, part.body) {
      case ("cap", .workout(.forTime(var parameters))), ("tc", .workout(.forTime(var parameters))):
        let (cap, columns) = try length("the cap", bare: .minutes, example: "for time cap 15")
        parameters.cap = cap
        part.body = .workout(.forTime(parameters))
        part.parameterColumns["cap"] = columns
      case ("time", .workout(.forTime(var parameters))) where take("cap"):
        let (cap, columns) = try length("the cap", bare: .minutes, example: "for time cap 15")
        parameters.cap = cap
        part.body = .workout(.forTime(parameters))
        part.parameterColumns["cap"] = columns
      case ("for", .workout(.forTime)) where take("time"):
        break
      case ("x", .workout(.intervals(var parameters))), ("x", .workout(.tabata(var parameters))),
        ("*", .workout(.intervals(var parameters))):
        let (sets, columns) = try count("a number of sets", example: "tabata x 2 rest 1:00")
        _ = take("sets", "set")
        parameters.sets = sets
        part.body = intervalsBody(part.body, parameters)
        part.parameterColumns["sets"] = columns
      case ("x", .workout(.tempo(var parameters))):
        let (sets, columns) = try count("a number of sets", example: "tempo 31X0 6 x 4")
        _ = take("sets", "set")
        parameters.sets = sets
        part.body = .workout(.tempo(parameters))
        part.parameterColumns["sets"] = columns
      case ("rest", .workout(.intervals(var parameters))),
        ("r", .workout(.intervals(var parameters))),
        ("rest", .workout(.tabata(var parameters))), ("r", .workout(.tabata(var parameters))):
        let (rest, columns) = try length(
          "the rest between sets", bare: .minutes, example: "rest 1:00")
        parameters.setRest = rest
        part.body = intervalsBody(part.body, parameters)
        part.parameterColumns["set_rest"] = columns
      case ("set", .workout(.intervals(var parameters))) where take("rest"),
        ("set", .workout(.tabata(var parameters))) where take("rest"):
        let (rest, columns) = try length(
          "the rest between sets", bare: .minutes, example: "set rest 1:00")
        parameters.setRest = rest
        part.body = intervalsBody(part.body, parameters)
        part.parameterColumns["set_rest"] = columns
      case ("no", .workout(.intervals(var parameters))) where take("last"),
        ("no", .workout(.tabata(var parameters))) where take("last"),
        ("skip", .workout(.intervals(var parameters))) where take("last"),
        ("skip", .workout(.tabata(var parameters))) where take("last"):
        guard take("rest") else {
          throw NotationDiagnostic(
            columns: hereColumns, message: "expected 'rest' after 'last', found \(shown(current))",
            hint: "write 'no last rest'")
        }
        parameters.skipLastRest = true
        part.body = intervalsBody(part.body, parameters)
      case ("rest", .workout(.tempo(var parameters))), ("r", .workout(.tempo(var parameters))):
        // Rests between tempo sets are counted in seconds: `rest 90` is 1:30.
        let (rest, columns) = try length(
          "the rest between sets", bare: .seconds, example: "rest 90s")
        parameters.setRest = rest
        part.body = .workout(.tempo(parameters))
        part.parameterColumns["set_rest"] = columns
      case ("each", .workout(.tempo(var parameters))), ("per", .workout(.tempo(var parameters))):
        guard take("side", "leg", "arm") else {
          throw NotationDiagnostic(
            columns: hereColumns,
            message: "expected 'side' after '\(word)', found \(shown(current))",
            hint: "write 'each side'")
        }
        parameters.unilateral = true
        part.body = .workout(.tempo(parameters))
      case ("unilateral", .workout(.tempo(var parameters))):
        parameters.unilateral = true
        part.body = .workout(.tempo(parameters))
      case ("up", .workout(.tempo(var parameters))),
        ("concentric", .workout(.tempo(var parameters))):
        // A deadlift or a pull-up starts with the lift: `up first`.
        guard take("first") else {
          throw NotationDiagnostic(
            columns: hereColumns,
            message: "expected 'first' after '\(word)', found \(shown(current))",
            hint: "write 'up first' for sets that start with the lift (a deadlift, a pull-up)")
        }
        parameters.startPhase = .concentric
        part.body = .workout(.tempo(parameters))
      case ("reversed", .workout(.tempo(var parameters))),
        ("reverse", .workout(.tempo(var parameters))):
        // A lat pulldown's lift pulls down: the arrows and words swap, the timing stays.
        parameters.reverseDirection = true
        part.body = .workout(.tempo(parameters))
      case ("min", _), ("mins", _), ("minutes", _), ("s", _), ("sec", _), ("seconds", _):
        index -= 1
        throw NotationDiagnostic(
          columns: token.columns, message: "'\(text(token.columns))' has no number before it",
          hint: "write the unit right after a number, as in 'amrap 14 min'")
      default:
        index -= 1
        throw unexpectedWord(token, in: part)
      }
    }
  }

  func intervalsBody(_ body: WrittenPart.Body, _ parameters: IntervalParameters) -> WrittenPart.Body
  {
    if case .workout(.tabata) = body { return .workout(.tabata(parameters)) }
    return .workout(.intervals(parameters))
  }

  /// `countin 5s`, `count-in 5`, `count in 0:05`, `no countin`: true when one was read. A
  /// bare number is seconds (a count-in is never longer than 99 s).
  mutating func countIn(_ part: inout WrittenPart) throws(NotationDiagnostic) -> Bool {
    let start = index
    let negated = take("no")
    var isCountIn = take("countin", "count-in", "countdown")
    if !isCountIn, word() == "count", word(1) == "in" {
      index += 2
      isCountIn = true
    }
    guard isCountIn else {
      index = start
      return false
    }
    if negated {
      part.countIn = .zero
      part.countInColumns = tokens[start].columns.lowerBound..<lastColumns.upperBound
      return true
    }
    let (span, columns) = try length(
      "the length of the count-in", bare: .seconds, example: "countin 5s")
    part.countIn = span
    part.countInColumns = columns
    return true
  }

  /// The caption after ':': for EMOMs and intervals several captions split by '/' cycle round
  /// by round; otherwise the text is the part's label. A count-in may follow it.
  mutating func caption(_ part: inout WrittenPart) throws(NotationDiagnostic) {
    let start = index
    var stop = end
    // The caption ends where a count-in that runs to the end of the part begins.
    for candidate in start..<end
    where ["no", "countin", "count-in", "count", "countdown"].contains(tokens[candidate].word ?? "")
    {
      var probe = self
      probe.index = candidate
      var scratch = part
      if (try? probe.countInsToEnd(&scratch)) == true {
        stop = candidate
        break
      }
    }
    let fromColumn =
      start < tokens.count ? tokens[max(start - 1, 0)].columns.upperBound : scalars.count
    let toColumn =
      stop < tokens.count && stop < end
      ? tokens[stop].columns.lowerBound
      : (end > 0 ? tokens[end - 1].columns.upperBound : fromColumn)
    let raw = text(fromColumn..<max(fromColumn, toColumn))
    index = stop
    let columns = fromColumn..<max(fromColumn + 1, toColumn)
    let cycles: Bool
    switch part.body {
    case .workout(.emom), .workout(.intervals), .workout(.tabata): cycles = true
    default: cycles = false
    }
    let pieces =
      cycles
      ? raw.split(separator: "/", omittingEmptySubsequences: false).map { trimmed(String($0)) }
      : [trimmed(raw)]
    guard !pieces.contains(where: \.isEmpty) else {
      throw NotationDiagnostic(
        columns: columns, message: "expected a caption after ':', found an empty one",
        hint: cycles
          ? "write captions split by '/', as in 'emom 12: power clean / burpees'"
          : "write e.g. 'amrap 20: cindy'")
    }
    if let long = pieces.first(where: { $0.unicodeScalars.count > Self.maximumCaptionLength }) {
      throw NotationDiagnostic(
        columns: columns,
        message:
          "a caption may have at most \(Self.maximumCaptionLength) characters, '\(long)' has \(long.unicodeScalars.count)"
      )
    }
    if pieces.count == 1 {
      part.label = pieces[0]
    } else {
      switch part.body {
      case .workout(.emom(var parameters)):
        parameters.labels = pieces
        part.body = .workout(.emom(parameters))
      case .workout(.intervals(var parameters)), .workout(.tabata(var parameters)):
        parameters.labels = pieces
        part.body = intervalsBody(part.body, parameters)
      default: break
      }
    }
  }

  /// The config's limit on a label and a step's name.
  static let maximumCaptionLength = 64

  mutating func countInsToEnd(_ part: inout WrittenPart) throws(NotationDiagnostic) -> Bool {
    while !atEnd {
      guard try countIn(&part) else { return false }
    }
    return true
  }

  func trimmed(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars[...]
    while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }

  /// A number nothing gives a meaning to (`amrap 14 7`): the error says what one there could be.
  func strayNumber(_ token: Token, in part: WrittenPart) -> NotationDiagnostic {
    let written = text(token.columns)
    let hint: String
    switch part.body {
    case .workout(.amrap):
      hint =
        "the AMRAP's length is already given; a number here could be a count-in ('countin \(written)s') or another part ('+ amrap \(written)')"
    case .workout(.emom):
      hint =
        "a number here could be the interval ('x \(written):00'), a count-in ('countin \(written)s') or another part ('+ emom \(written)')"
    case .workout(.forTime):
      hint = "a number here could be a cap ('cap \(written)') or a count-in ('countin \(written)s')"
    case .workout(.intervals), .workout(.tabata):
      hint =
        "a number here could be sets ('x \(written)'), a rest between sets ('rest \(written):00') or a count-in ('countin \(written)s')"
    case .workout(.tempo):
      hint =
        "a number here could be sets ('x \(written)'), a rest between sets ('rest \(written)s') or a count-in ('countin \(written)s')"
    default:
      hint =
        "a number here could be a count-in ('countin \(written)s') or another part ('+ amrap \(written)')"
    }
    return NotationDiagnostic(
      columns: token.columns, message: "'\(written)' has no meaning here", hint: hint)
  }

  func unexpectedWord(_ token: Token, in part: WrittenPart) -> NotationDiagnostic {
    guard token.word != nil else {
      return NotationDiagnostic(
        columns: token.columns, message: "unexpected \(shown(token))",
        hint: "join parts with '+'; a caption goes after ':', as in 'amrap 14: cindy'")
    }
    let written = text(token.columns)
    let words: [String]
    switch part.body {
    case .workout(.forTime): words = ["cap", "countin", "no countin"]
    case .workout(.intervals), .workout(.tabata):
      words = ["x", "rest", "no last rest", "countin", "no countin"]
    case .workout(.tempo):
      words = ["x", "rest", "each side", "up first", "reversed", "countin", "no countin"]
    default: words = ["countin", "no countin"]
    }
    let allWords =
      words + [
        "cap", "rest", "each side", "reversed", "countin", "amrap", "emom", "tabata", "tempo",
      ]
    let listing =
      "this part may be followed by \(words.map { "'\($0)'" }.joined(separator: ", ")), a caption after ':' (as in ': cindy'), or '+' and another part"
    let match = closestMatch(to: written, among: allWords)
    if match == token.word {
      return NotationDiagnostic(
        columns: token.columns, message: "'\(written)' does not go with this part", hint: listing)
    }
    let hint =
      match.map { "did you mean '\($0)'?" }
      ?? "this part may be followed by \(words.map { "'\($0)'" }.joined(separator: ", ")), a caption after ':' (as in ': cindy'), or '+' and another part"
    return NotationDiagnostic(
      columns: token.columns, message: "unexpected word '\(written)'", hint: hint)
  }

  // MARK: OpenWodTimer

  /// `mix(ft(12:00),rest(05:00),amrap(10:00))`, OpenWodTimer's chain; nil when the text is not
  /// one.
  mutating func openWodTimerMix() throws(NotationDiagnostic) -> [WrittenPart]? {
    guard tokens.first?.word == "mix", tokens.count > 1, tokens[1].isSymbol("(") else { return nil }
    index = 2
    var parts: [WrittenPart] = []
    while true {
      let start = index
      guard var part = try openWodTimerCall() else {
        throw NotationDiagnostic(
          columns: hereColumns,
          message: "expected a timer such as 'amrap(10:00)' in 'mix(...)', found \(shown(current))",
          hint: "OpenWodTimer's timers: ft, amrap, emom, tabata, rest")
      }
      part.columns = tokens[start].columns.lowerBound..<lastColumns.upperBound
      parts.append(part)
      if current?.isSymbol(",") == true {
        index += 1
        continue
      }
      guard current?.isSymbol(")") == true else {
        throw NotationDiagnostic(
          columns: hereColumns, message: "expected ',' or ')', found \(shown(current))")
      }
      index += 1
      break
    }
    var last = parts.removeLast()
    try tail(&last)
    parts.append(last)
    return parts
  }

  /// `emom(01:00,10)`, `amrap(15:00)`, `ft(20:00,5)` (a cap and rounds), `tabata(00:20,00:10,8)`,
  /// `rest(02:00)`: OpenWodTimer's spelling (times mm:ss, counts whole numbers), accepted because
  /// workouts are shared in it. Nil when the next tokens are not one.
  mutating func openWodTimerCall() throws(NotationDiagnostic) -> WrittenPart? {
    guard let name = word(), ["emom", "amrap", "ft", "fortime", "tabata", "rest"].contains(name),
      peek(1)?.isSymbol("(") == true
    else { return nil }
    let nameToken = current!
    index += 2
    var arguments: [(Token, Bool)] = []
    while let token = current, !token.isSymbol(")") {
      switch token.kind {
      case .clock: arguments.append((token, true))
      case .number: arguments.append((token, false))
      default:
        throw NotationDiagnostic(
          columns: token.columns,
          message: "expected a time (mm:ss) or a count in '\(name)(...)', found \(shown(token))",
          hint: "write e.g. 'emom(01:00,10)'")
      }
      index += 1
      if current?.isSymbol(",") == true { index += 1 }
    }
    guard current?.isSymbol(")") == true else {
      throw NotationDiagnostic(
        columns: hereColumns, message: "expected ')' to close '\(name)(', found the end")
    }
    index += 1
    let columns = nameToken.columns.lowerBound..<lastColumns.upperBound
    func seconds(_ position: Int) -> TimeSpan? {
      guard position < arguments.count, arguments[position].1,
        case .clock(let value) = arguments[position].0.kind
      else { return nil }
      return .seconds(Int64(value))
    }
    func number(_ position: Int) -> Int? {
      guard position < arguments.count, !arguments[position].1,
        case .number(let value) = arguments[position].0.kind
      else { return nil }
      return value
    }
    func shape(_ expected: String) -> NotationDiagnostic {
      NotationDiagnostic(
        columns: columns, message: "expected '\(expected)', found '\(text(columns))'",
        hint: "OpenWodTimer writes times as mm:ss and counts as whole numbers")
    }
    func column(_ position: Int) -> Range<Int> { arguments[position].0.columns }
    switch name {
    case "emom":
      guard arguments.count == 2, let interval = seconds(0), let rounds = number(1) else {
        throw shape("emom(mm:ss,rounds)")
      }
      return WrittenPart(
        body: .workout(.emom(EMOMParameters(interval: interval, rounds: rounds))), columns: columns,
        parameterColumns: ["interval": column(0), "rounds": column(1)])
    case "amrap":
      guard arguments.count == 1, let time = seconds(0) else { throw shape("amrap(mm:ss)") }
      return WrittenPart(
        body: .workout(.amrap(AMRAPParameters(time: time))), columns: columns,
        parameterColumns: ["time": column(0)])
    case "ft", "fortime":
      guard (1...2).contains(arguments.count), let cap = seconds(0) else {
        throw shape("\(name)(mm:ss) or \(name)(mm:ss,rounds)")
      }
      var parameters = ForTimeParameters(cap: cap)
      var parameterColumns = ["cap": column(0)]
      if arguments.count == 2 {
        guard let rounds = number(1) else { throw shape("\(name)(mm:ss,rounds)") }
        parameters.rounds = rounds
        parameterColumns["rounds"] = column(1)
      }
      return WrittenPart(
        body: .workout(.forTime(parameters)), columns: columns, parameterColumns: parameterColumns)
    case "tabata":
      guard arguments.count == 3, let work = seconds(0), let rest = seconds(1),
        let rounds = number(2)
      else { throw shape("tabata(mm:ss,mm:ss,rounds)") }
      return WrittenPart(
        body: .workout(.tabata(IntervalParameters(work: work, rest: rest, rounds: rounds))),
        columns: columns,
        parameterColumns: ["work": column(0), "rest": column(1), "rounds": column(2)])
    default:
      guard arguments.count == 1, let duration = seconds(0) else { throw shape("rest(mm:ss)") }
      return WrittenPart(
        body: .step(name: "rest", kind: .rest, duration: duration), columns: columns,
        parameterColumns: ["duration": column(0)])
    }
  }
}
