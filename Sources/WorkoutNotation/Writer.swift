// SPDX-License-Identifier: MIT
// Plan → canonical notation: the one spelling `parse` reads back into the same plan.

import WorkoutCore

extension WorkoutNotation {
  /// The canonical notation of `plan`, or nil when the notation cannot express it (a clock, a
  /// sequence not made of written parts, a tempo with a switch pause other than 5 s, ...).
  /// Lengths are written as m:ss (an AMRAP's and a cap's whole minutes bare), the count-in only
  /// when it is not 10 s; a tempo's words in the order `each side`, `up first`, `reversed`.
  /// The whiteboard follows, a line each: the workout's media (`@cindy.mp4`) first, then each
  /// line with its media at its end.
  public static func write(_ plan: WorkoutPlan) -> String? {
    guard let line = writeWorkoutLine(plan) else { return nil }
    let text = line + Writer.whiteboard(plan)
    guard plan.whiteboard.isEmpty && plan.media == nil else {
      // Only lines that read back as themselves are the whiteboard's notation.
      guard case .success(let read) = parseWithoutNaming(text), read.whiteboard == plan.whiteboard,
        read.media == plan.media
      else { return nil }
      return text
    }
    return text
  }

  /// The workout line of `plan`'s notation, without its whiteboard.
  static func writeWorkoutLine(_ plan: WorkoutPlan) -> String? {
    guard let text = Writer.plan(plan) else { return nil }
    // Only a text that reads back into the same plan is its notation.
    guard case .success(let read) = parseWithoutNaming(text),
      read.mode == plan.mode, read.countIn == plan.countIn, read.label == plan.label
    else { return nil }
    return text
  }

  static func parseWithoutNaming(_ text: String) -> Result<WorkoutPlan, NotationError> {
    let scalars = Array(text.unicodeScalars)
    do throws(NotationDiagnostic) {
      return .success(try read(scalars, defaultCountIn: standardCountIn).0)
    } catch {
      return .failure(NotationError(text: text, diagnostics: [error]))
    }
  }
}

enum Writer {
  static func plan(_ plan: WorkoutPlan) -> String? {
    guard let countIn = countInSuffix(plan.countIn, standard: WorkoutNotation.standardCountIn)
    else { return nil }
    if case .sequence(let parameters) = plan.mode {
      return chain(parameters, countIn: countIn)
    }
    guard let part = part(plan.mode, label: plan.label) else { return nil }
    return part + countIn
  }

  /// ` countin 5s`, ` no countin`, or nothing for the standard count-in.
  static func countInSuffix(_ countIn: TimeSpan, standard: TimeSpan) -> String? {
    if countIn == standard { return "" }
    if countIn == .zero { return " no countin" }
    guard let seconds = wholeSeconds(countIn) else { return nil }
    return " countin \(seconds)s"
  }

  static func chain(_ parameters: SequenceParameters, countIn: String) -> String? {
    var parts: [String] = []
    var gap: TimeSpan?
    var previous: WrittenPart?
    for step in parameters.steps {
      if step.name == Chain.getReady, step.kind == .rest, step.steps.isEmpty, gap == nil,
        let duration = step.duration, !parts.isEmpty
      {
        gap = duration
        continue
      }
      guard let text = partText(of: step),
        case .success(let read) = WorkoutNotation.parseWithoutNaming(text),
        let part = writtenPart(of: read)
      else { return nil }
      var written = text
      if let previous {
        let standard = Chain.defaultGap(after: previous, before: part)
        guard let suffix = countInSuffix(gap ?? .zero, standard: standard) else { return nil }
        written += suffix
      } else {
        written += countIn
      }
      parts.append(written)
      previous = part
      gap = nil
    }
    guard gap == nil, !parts.isEmpty else { return nil }
    return parts.joined(separator: " + ")
  }

  /// The text of one step of a chain: a timed step, or a part named by its notation.
  static func partText(of step: SequenceStep) -> String? {
    if step.steps.isEmpty {
      guard let duration = step.duration, let length = clock(duration), step.repetitions == 1,
        !step.loop, step.skippable, step.reps == nil
      else { return nil }
      switch (step.kind, step.name) {
      case (.rest, "rest"): return "rest \(length)"
      case (.work, "warm-up"), (.work, "cool-down"): return "\(step.name) \(length)"
      default: return nil
      }
    }
    return step.name
  }

  /// The part a one-part reading stands for, for the count-in rules.
  static func writtenPart(of plan: WorkoutPlan) -> WrittenPart? {
    if case .sequence(let parameters) = plan.mode {
      guard parameters.steps.count == 1, let step = parameters.steps.first, step.steps.isEmpty,
        let duration = step.duration
      else { return nil }
      return WrittenPart(
        body: .step(name: step.name, kind: step.kind, duration: duration), columns: 0..<0)
    }
    return WrittenPart(body: .workout(plan.mode), label: plan.label, columns: 0..<0)
  }

  /// One part, without its count-in.
  static func part(_ mode: WorkoutMode, label: String?) -> String? {
    var text: String
    var labels: [String] = []
    switch mode {
    case .clock, .sequence:
      return nil
    case .amrap(let parameters):
      guard let time = minutesOrClock(parameters.time) else { return nil }
      text = "amrap \(time)"
    case .forTime(let parameters):
      if let scheme = parameters.repScheme {
        guard scheme.count > 1, parameters.rounds == scheme.count else { return nil }
        text = scheme.map(String.init).joined(separator: "-") + " for time"
      } else if let rounds = parameters.rounds {
        text = "\(rounds) rounds for time"
      } else {
        text = "for time"
      }
      if let cap = parameters.cap {
        guard let written = minutesOrClock(cap) else { return nil }
        text += " cap \(written)"
      }
    case .emom(let parameters):
      labels = parameters.labels
      if let ladder = parameters.ladder {
        guard ladder == Ladder(), parameters.interval == .seconds(60) else { return nil }
        text = "death by \(parameters.rounds)"
      } else if parameters.interval == .seconds(60) {
        text = "emom \(parameters.rounds)"
      } else {
        guard let interval = clock(parameters.interval) else { return nil }
        text = "every \(interval) x \(parameters.rounds)"
      }
    case .intervals(let parameters), .tabata(let parameters):
      labels = parameters.labels
      var isTabata = false
      if case .tabata = mode { isTabata = true }
      guard let work = shortLength(parameters.work), let rest = shortLength(parameters.rest) else {
        return nil
      }
      let standard =
        parameters.work == IntervalParameters.tabata.work
        && parameters.rest == IntervalParameters.tabata.rest
        && parameters.rounds == IntervalParameters.tabata.rounds
      if isTabata && standard {
        text = "tabata"
      } else {
        text = (isTabata ? "tabata " : "") + "\(parameters.rounds) x \(work)/\(rest)"
      }
      if parameters.sets != 1 { text += " x \(parameters.sets)" }
      if parameters.setRest != .zero {
        guard let setRest = clock(parameters.setRest) else { return nil }
        text += " rest \(setRest)"
      }
      if parameters.skipLastRest { text += " no last rest" }
    case .tempo(let parameters):
      guard parameters.switchPause == .seconds(5), let rest = clock(parameters.setRest) else {
        return nil
      }
      text =
        "tempo \(parameters.tempo.written) \(parameters.reps) x \(parameters.sets) rest \(rest)"
      if parameters.unilateral { text += " each side" }
      if parameters.startPhase == .concentric { text += " up first" }
      if parameters.reverseDirection { text += " reversed" }
    }
    if let label {
      guard labels.isEmpty, isCaption(label, cycling: false) else { return nil }
      text += ": " + label
    } else if !labels.isEmpty {
      guard labels.count > 1, labels.allSatisfy({ isCaption($0, cycling: true) }) else {
        return nil
      }
      text += ": " + labels.joined(separator: " / ")
    }
    return text
  }

  /// Whether `caption` reads back as itself after ':'.
  static func isCaption(_ caption: String, cycling: Bool) -> Bool {
    let scalars = Array(caption.unicodeScalars)
    guard let first = scalars.first, let last = scalars.last, !first.properties.isWhitespace,
      !last.properties.isWhitespace, scalars.count <= Parser.maximumCaptionLength,
      !scalars.contains(where: { $0 == "+" || $0 == "\n" || $0 == "\r" || (cycling && $0 == "/") })
    else { return false }
    // A count-in at its end would be read as the part's count-in, and a word 'then' as a join.
    guard let tokens = try? Lexer.tokens(of: scalars) else { return false }
    let words = tokens.compactMap(\.word)
    return !words.contains(where: {
      ["then", "countin", "count-in", "countdown", "count", "no"].contains($0)
    })
  }

  static func wholeSeconds(_ span: TimeSpan) -> Int64? {
    guard span.nanoseconds >= 0, span.nanoseconds % TimeSpan.nanosecondsPerSecond == 0 else {
      return nil
    }
    return span.nanoseconds / TimeSpan.nanosecondsPerSecond
  }

  /// `1:30`, `2:00`, `1:00:00`.
  static func clock(_ span: TimeSpan) -> String? {
    guard wholeSeconds(span) != nil else { return nil }
    return span.description
  }

  /// Whole minutes bare (`14`), anything else as a clock (`14:30`).
  static func minutesOrClock(_ span: TimeSpan) -> String? {
    guard let seconds = wholeSeconds(span) else { return nil }
    return seconds % 60 == 0 && seconds > 0 ? "\(seconds / 60)" : span.description
  }

  /// Work and rest of intervals: bare seconds under a minute (`20`), a clock from one (`3:00`).
  static func shortLength(_ span: TimeSpan) -> String? {
    guard let seconds = wholeSeconds(span) else { return nil }
    return seconds < 60 ? "\(seconds)" : span.description
  }
}
