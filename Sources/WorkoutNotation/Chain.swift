// SPDX-License-Identifier: MIT
// Parts → plan: one part is a plan of its mode; a chain of parts (`warm-up 8:00 + amrap 12`)
// is a sequence, each part a step, with these count-in rules:
//
// - the workout's count-in (10 s, or what the first part says) runs once, before the first part;
// - a later workout part (AMRAP, EMOM, For Time, intervals, Tabata) gets a 10 s "get ready" rest
//   step before it, unless it follows a rest (the rest was the transition);
// - a warm-up, a cool-down or a rest never gets one;
// - `countin Ns` or `no countin` at the end of a part overrides the rule for that part.

import WorkoutCore

enum Chain {
  /// The name of the rest step a chain puts before a part as its count-in.
  static let getReady = "get ready"

  static func plan(of parts: [WrittenPart], defaultCountIn: TimeSpan, textColumns: Range<Int>)
    throws(NotationDiagnostic) -> WorkoutPlan
  {
    for part in parts {
      if let countIn = part.countIn, !PlanLimits.countIn.contains(countIn) {
        throw NotationDiagnostic(
          columns: part.countInColumns ?? part.columns,
          message: "a count-in must be between 0 and 99 seconds, got \(countIn)",
          hint: "write e.g. 'countin 5s' or 'no countin'")
      }
      if case .workout(let mode) = part.body {
        try validate(WorkoutPlan(name: "", label: part.label, mode: mode, countIn: .zero), part)
      }
    }
    let countIn = parts[0].countIn ?? defaultCountIn
    var plan: WorkoutPlan
    if parts.count == 1, case .workout(let mode) = parts[0].body {
      plan = WorkoutPlan(name: "", label: parts[0].label, mode: mode, countIn: countIn)
    } else {
      var steps: [SequenceStep] = []
      for (position, part) in parts.enumerated() {
        if position > 0 {
          let gap = part.countIn ?? defaultGap(after: parts[position - 1], before: part)
          if gap > .zero { steps.append(SequenceStep(name: getReady, kind: .rest, duration: gap)) }
        }
        steps.append(try step(of: part))
      }
      plan = WorkoutPlan(
        name: "", mode: .sequence(SequenceParameters(steps: steps)), countIn: countIn)
    }
    if let problem = plan.validationErrors().first {
      let (message, hint) = splitAdvice(problem.message)
      throw NotationDiagnostic(
        columns: textColumns.isEmpty ? 0..<1 : textColumns, message: "the workout \(message)",
        hint: hint)
    }
    return plan
  }

  /// WorkoutCore's message and its advice after "; ", which becomes the hint.
  static func splitAdvice(_ text: String) -> (String, String?) {
    guard let separator = text.indices.first(where: { text[$0...].hasPrefix("; ") }) else {
      return (text, nil)
    }
    return (String(text[..<separator]), String(text[text.index(separator, offsetBy: 2)...]))
  }

  /// The count-in a later part gets when it says nothing.
  static func defaultGap(after previous: WrittenPart, before part: WrittenPart) -> TimeSpan {
    guard case .workout = part.body else { return .zero }
    if case .step(_, .rest, _) = previous.body { return .zero }
    return WorkoutNotation.standardCountIn
  }

  /// WorkoutCore's own checks, reported under the number they are about.
  static func validate(_ plan: WorkoutPlan, _ part: WrittenPart) throws(NotationDiagnostic) {
    guard let problem = plan.validationErrors().first else { return }
    let columns = part.parameterColumns[problem.parameter] ?? part.columns
    let subject = subjects[problem.parameter] ?? "the workout"
    let (message, hint) = splitAdvice(problem.message)
    throw NotationDiagnostic(columns: columns, message: "\(subject) \(message)", hint: hint)
  }

  static let subjects = [
    "time": "the AMRAP's length", "cap": "the cap", "rounds": "the number of rounds",
    "interval": "the interval", "work": "the work interval", "rest": "the rest",
    "sets": "the number of sets", "set_rest": "the rest between sets", "reps": "the reps of a set",
    "tempo": "the tempo", "ladder": "the ladder",
  ]

  /// A part as a step of a sequence: its name is its own canonical notation, so the chain can
  /// be written back; its sub-steps are the segments the part would run on its own.
  static func step(of part: WrittenPart) throws(NotationDiagnostic) -> SequenceStep {
    switch part.body {
    case .step(let name, let kind, let duration):
      return SequenceStep(name: part.label ?? name, kind: kind, duration: duration)
    case .workout(let mode):
      if case .tempo = mode {
        throw NotationDiagnostic(
          columns: part.columns, message: "a tempo set runs on its own, not as a part of a chain",
          hint: "load it as its own workout")
      }
      if case .forTime(let parameters) = mode, parameters.repScheme != nil, parameters.cap != nil {
        throw NotationDiagnostic(
          columns: part.columns,
          message: "a capped rep scheme runs on its own, not as a part of a chain",
          hint: "leave out the cap, or load it as its own workout")
      }
      let text = Writer.part(mode, label: part.label) ?? "workout"
      return SequenceStep(name: text, steps: leaves(of: mode, label: part.label))
    }
  }

  static func leaves(of mode: WorkoutMode, label: String?) -> [SequenceStep] {
    if case .forTime(let parameters) = mode {
      if let scheme = parameters.repScheme {
        return scheme.map { SequenceStep(name: label ?? "\($0) reps", reps: $0) }
      }
      return [SequenceStep(name: label ?? "for time", duration: parameters.cap, skippable: false)]
    }
    let plan = WorkoutPlan(name: "", label: label, mode: mode, countIn: .zero)
    guard let timeline = try? plan.compile() else { return [] }
    return timeline.segments.map { segment in
      let rest = segment.kind == .rest || segment.kind == .setRest || segment.kind == .sideSwitch
      return SequenceStep(
        name: segment.label ?? defaultName(of: mode, rest: rest), kind: rest ? .rest : .work,
        duration: segment.duration, skippable: segment.skippable, reps: segment.targetReps)
    }
  }

  static func defaultName(of mode: WorkoutMode, rest: Bool) -> String {
    if rest { return "rest" }
    switch mode {
    case .amrap: return "AMRAP"
    case .emom: return "EMOM"
    default: return "work"
    }
  }
}
