// SPDX-License-Identifier: MIT
// Ranges of every parameter, and the typed errors that name the parameter and say why.

/// A parameter of a plan that makes no sense. `parameter` is the config key path, relative to
/// the preset (`rounds`, `steps[2].duration`), so the config layer can point at the line.
public struct PlanError: Error, Sendable, Hashable, CustomStringConvertible {
  public var parameter: String
  public var message: String
  public init(parameter: String, message: String) {
    self.parameter = parameter
    self.message = message
  }
  public var description: String { "'\(parameter)' \(message)" }
}

/// Every problem found in a plan, all at once.
public struct PlanErrors: Error, Sendable, Hashable, CustomStringConvertible {
  public var errors: [PlanError]
  public var description: String { errors.map(\.description).joined(separator: "; ") }
}

/// The allowed ranges, shared with the config layer so messages and checks agree.
public enum PlanLimits {
  public static let countIn = TimeSpan.zero...TimeSpan.seconds(99)
  public static let rounds = 1...999
  public static let sets = 1...99
  public static let reps = 1...99
  public static let segmentLength = TimeSpan.seconds(1)...TimeSpan.hours(24)
  public static let restLength = TimeSpan.zero...TimeSpan.hours(24)
  public static let switchPause = TimeSpan.zero...TimeSpan.seconds(60)
  public static let sequenceDepth = 8
  /// A sequence may expand to at most this many segments (a guard against a typo like
  /// `repetitions: 999` nested three deep).
  public static let maximumSegments = 100_000
}

extension WorkoutPlan {
  /// Checks every parameter against ``PlanLimits``; returns all problems found.
  public func validationErrors() -> [PlanError] {
    var errors = PlanErrorCollector()
    if mode.name != .clock {
      errors.check(countIn, in: PlanLimits.countIn, "count_in")
    }
    switch mode {
    case .clock:
      break
    case .forTime(let parameters):
      if let cap = parameters.cap { errors.check(cap, in: PlanLimits.segmentLength, "cap") }
      if let rounds = parameters.rounds { errors.check(rounds, in: PlanLimits.rounds, "rounds") }
    case .amrap(let parameters):
      errors.check(parameters.time, in: PlanLimits.segmentLength, "time")
    case .emom(let parameters):
      errors.check(parameters.interval, in: PlanLimits.segmentLength, "interval")
      errors.check(parameters.rounds, in: PlanLimits.rounds, "rounds")
      if let ladder = parameters.ladder {
        errors.check(ladder.start, in: 0...999, "ladder.start")
        errors.check(ladder.step, in: -99...99, "ladder.step")
        if ladder.reps(inRound: parameters.rounds) < 0 {
          errors.add("ladder", "goes below zero reps before the last round")
        }
      }
    case .intervals(let parameters), .tabata(let parameters):
      errors.check(parameters.work, in: PlanLimits.segmentLength, "work")
      errors.check(parameters.rest, in: PlanLimits.restLength, "rest")
      errors.check(parameters.rounds, in: PlanLimits.rounds, "rounds")
      errors.check(parameters.sets, in: PlanLimits.sets, "sets")
      errors.check(parameters.setRest, in: PlanLimits.restLength, "set_rest")
    case .tempo(let parameters):
      for phase in TempoPhase.allCases {
        let value = parameters.tempo.value(of: phase)
        if !Tempo.allowedHalfSeconds.contains(value) {
          errors.add(
            "tempo", "\(phase.rawValue) must be between 0 and 9 seconds, got \(Double(value) / 2)")
        }
      }
      errors.check(parameters.reps, in: PlanLimits.reps, "reps")
      errors.check(parameters.sets, in: PlanLimits.sets, "sets")
      errors.check(parameters.setRest, in: PlanLimits.restLength, "set_rest")
      errors.check(parameters.switchPause, in: PlanLimits.switchPause, "switch_pause")
    case .sequence(let parameters):
      if parameters.steps.isEmpty { errors.add("steps", "must list at least one step") }
      for (index, step) in parameters.steps.enumerated() {
        validate(step, path: "steps[\(index)]", depth: 1, into: &errors)
      }
      if errors.errors.isEmpty,
        SequenceCompiler.segmentCount(parameters) > PlanLimits.maximumSegments
      {
        errors.add(
          "steps",
          "expands to more than \(PlanLimits.maximumSegments) segments; use fewer repetitions")
      }
    }
    return errors.errors
  }

  private func validate(
    _ step: SequenceStep, path: String, depth: Int, into errors: inout PlanErrorCollector
  ) {
    if depth > PlanLimits.sequenceDepth {
      errors.add(path, "nests deeper than \(PlanLimits.sequenceDepth) levels")
      return
    }
    errors.check(step.repetitions, in: PlanLimits.rounds, path + ".repeat")
    if let duration = step.duration {
      errors.check(duration, in: PlanLimits.segmentLength, path + ".duration")
    }
    if let reps = step.reps { errors.check(reps, in: 0...9999, path + ".reps") }
    if step.loop {
      if step.steps.isEmpty {
        errors.add(path + ".loop", "needs sub-steps to repeat")
      }
      if step.duration == nil {
        errors.add(
          path + ".duration", "is required when 'loop' is true: the loop runs until it ends")
      }
      if containsOpenEndedStep(step.steps) {
        errors.add(path + ".steps", "of a looping step must all have a duration")
      }
    } else if !step.steps.isEmpty && step.duration != nil {
      errors.add(
        path + ".duration",
        "is taken from the sub-steps; remove it, or set 'loop: true' to repeat them until it ends")
    }
    for (index, child) in step.steps.enumerated() {
      validate(child, path: path + ".steps[\(index)]", depth: depth + 1, into: &errors)
    }
  }

  private func containsOpenEndedStep(_ steps: [SequenceStep]) -> Bool {
    steps.contains { step in
      step.steps.isEmpty ? step.duration == nil : (!step.loop && containsOpenEndedStep(step.steps))
    }
  }
}

private struct PlanErrorCollector {
  var errors: [PlanError] = []

  mutating func add(_ parameter: String, _ message: String) {
    errors.append(PlanError(parameter: parameter, message: message))
  }

  mutating func check(_ value: Int, in range: ClosedRange<Int>, _ parameter: String) {
    if !range.contains(value) {
      add(parameter, "must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
    }
  }

  mutating func check(_ value: TimeSpan, in range: ClosedRange<TimeSpan>, _ parameter: String) {
    if !range.contains(value) {
      add(parameter, "must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
    }
  }
}
