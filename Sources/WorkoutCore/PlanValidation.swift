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
  /// `'rounds' must be ...`; a problem of the whole plan (an empty `parameter`) is its message.
  public var description: String { parameter.isEmpty ? message : "'\(parameter)' \(message)" }
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
  /// The reps of one round of a For Time's rep scheme (21-15-9, 50-40-30-20-10, 100).
  public static let schemeReps = 1...999
  public static let segmentLength = TimeSpan.seconds(1)...TimeSpan.hours(24)
  public static let restLength = TimeSpan.zero...TimeSpan.hours(24)
  public static let switchPause = TimeSpan.zero...TimeSpan.seconds(60)
  public static let sequenceDepth = 8
  /// A sequence may expand to at most this many segments (a guard against a typo like
  /// `repetitions: 999` nested three deep).
  public static let maximumSegments = 100_000
  /// The longest a whole workout may last, count-in included (for one with open-ended
  /// segments: its timed segments together). A 24-hour event fits with room to spare, and
  /// every sum the engine makes of segment lengths and instants stays far below the 292 years
  /// that 64-bit nanoseconds hold, so no plan that passes validation can overflow.
  public static let workoutLength = TimeSpan.hours(48)
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
      if let scheme = parameters.repScheme {
        validate(scheme, rounds: parameters.rounds, into: &errors)
      }
    case .amrap(let parameters):
      errors.check(parameters.time, in: PlanLimits.segmentLength, "time")
    case .emom(let parameters):
      errors.check(parameters.interval, in: PlanLimits.segmentLength, "interval")
      errors.check(parameters.rounds, in: PlanLimits.rounds, "rounds")
      if let ladder = parameters.ladder {
        errors.check(ladder.start, in: 0...999, "ladder.start")
        errors.check(ladder.step, in: -99...99, "ladder.step")
        // Only in range are the ladder's reps small enough to compute.
        if errors.errors.isEmpty, ladder.reps(inRound: parameters.rounds) < 0 {
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
    // The one place the length of a whole workout is bounded; only parameters in range are
    // worth adding up. The message gives the real length, which can be far past what a
    // `TimeSpan` holds (24-hour intervals, 999 rounds of 99 sets: about 4.7 million hours).
    if errors.errors.isEmpty, timedLength > PlanLimits.workoutLength {
      let nanosecondsPerHour = Int128(3600 * TimeSpan.nanosecondsPerSecond)
      let length = Self.exactTimedLength(countIn: countIn, mode: mode)
      let hours = length.nanoseconds / nanosecondsPerHour
      let limit = Int128(PlanLimits.workoutLength.nanoseconds) / nanosecondsPerHour
      errors.add(
        "",
        "would last \(length.isSaturated ? "more than" : "about") \(hours) hours, longer "
          + "than the \(limit) hours a workout may last; use fewer rounds, sets or repetitions, "
          + "or shorter intervals")
    }
    return errors.errors
  }

  /// The summed length of every timed segment `compile()` lays out, count-in included (an
  /// open-ended segment counts as zero). It saturates at ``TimeSpan/saturated`` instead of
  /// overflowing, so it can be asked of any plan; it is exact for one whose parameters are in
  /// range.
  public var timedLength: TimeSpan {
    let length = Self.exactTimedLength(countIn: countIn, mode: mode)
    return TimeSpan(nanoseconds: Int64(clamping: length.nanoseconds))
  }

  private static func exactTimedLength(countIn: TimeSpan, mode: WorkoutMode) -> WideLength {
    let countIn = mode.name != .clock ? WideLength(countIn) : .zero
    return countIn + timedLength(of: mode)
  }

  private static func timedLength(of mode: WorkoutMode) -> WideLength {
    switch mode {
    case .clock:
      return .zero
    case .forTime(let parameters):
      return WideLength(parameters.cap ?? .zero)
    case .amrap(let parameters):
      return WideLength(parameters.time)
    case .emom(let parameters):
      return WideLength(parameters.interval) * parameters.rounds
    case .intervals(let parameters), .tabata(let parameters):
      // As `intervalSegments` lays them out: a rest after every work interval but the last of
      // each set, a set rest (or, without one, a rest) between sets, a last rest unless skipped.
      let sets = max(parameters.sets, 1)
      let rounds = max(parameters.rounds, 1)
      let rest = WideLength(parameters.rest)
      let between = parameters.setRest > .zero ? WideLength(parameters.setRest) : rest
      return WideLength(parameters.work) * sets * rounds + rest * sets * (rounds - 1)
        + between * (sets - 1) + (parameters.skipLastRest ? .zero : rest)
    case .tempo(let parameters):
      let rep = TempoPhase.allCases.reduce(WideLength.zero) { total, phase in
        total + WideLength(parameters.tempo.duration(of: phase))
      }
      let sides = parameters.unilateral ? 2 : 1
      let sets = max(parameters.sets, 1)
      let set = rep * sides * parameters.reps + WideLength(parameters.switchPause) * (sides - 1)
      return set * sets + WideLength(parameters.setRest) * (sets - 1)
    case .sequence(let parameters):
      let steps = parameters.steps.reduce(WideLength.zero) { $0 + timedLength(of: $1) }
      // Within range the sum is exact, so the skipped rest is in it and the difference is.
      guard !steps.isSaturated, let skipped = SequenceCompiler.skippedRest(parameters)?.duration
      else { return steps }
      let skippedLength = WideLength(skipped)
      guard skippedLength.nanoseconds <= steps.nanoseconds else { return steps }
      return WideLength(nanoseconds: steps.nanoseconds - skippedLength.nanoseconds)
    }
  }

  /// A step's timed length: a leaf's duration, a loop's own duration (it fills it exactly), or
  /// its children's, each times the repetitions.
  private static func timedLength(of step: SequenceStep) -> WideLength {
    let once: WideLength
    if step.steps.isEmpty || step.loop {
      once = WideLength(step.duration ?? .zero)
    } else {
      once = step.steps.reduce(.zero) { $0 + timedLength(of: $1) }
    }
    return once * step.repetitions
  }

  /// A rep scheme: one entry per round, each a sane rep count, and as many rounds as `rounds`
  /// says when it is given too (`reps` is parameter's config key).
  private func validate(
    _ scheme: [Int], rounds: Int?, into errors: inout PlanErrorCollector
  ) {
    let limit = PlanLimits.rounds
    guard limit.contains(scheme.count) else {
      errors.add(
        "reps",
        "must list between \(limit.lowerBound) and \(limit.upperBound) rounds, got \(scheme.count)")
      return
    }
    let range = PlanLimits.schemeReps
    if let (index, reps) = scheme.enumerated().first(where: { !range.contains($0.element) }) {
      errors.add(
        "reps",
        "of round \(index + 1) must be between \(range.lowerBound) and \(range.upperBound), "
          + "got \(reps)")
    }
    if let rounds, rounds != scheme.count {
      errors.add(
        "rounds",
        "is \(rounds), but 'reps' lists \(scheme.count) rounds; leave 'rounds' out: 'reps' sets it")
    }
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

/// A length in nanoseconds wide enough for any plan's parameters added up, however far out of
/// range: the products of in-range counts and lengths reach about 10^20 ns, past `Int64`, and
/// sequences nest deeper still, so the arithmetic saturates rather than overflows. Negative
/// lengths and counts (which validation refuses) count as zero, as `TimeSpan`'s saturating
/// arithmetic does.
private struct WideLength {
  var nanoseconds: Int128

  static let zero = WideLength(nanoseconds: 0)
  static let saturated = WideLength(nanoseconds: .max)
  var isSaturated: Bool { nanoseconds == .max }

  init(nanoseconds: Int128) { self.nanoseconds = nanoseconds }
  init(_ span: TimeSpan) { nanoseconds = Int128(max(span.nanoseconds, 0)) }

  static func + (lhs: Self, rhs: Self) -> Self {
    let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
    return overflow ? .saturated : Self(nanoseconds: sum)
  }

  static func * (lhs: Self, count: Int) -> Self {
    guard count > 0 else { return .zero }
    let (product, overflow) = lhs.nanoseconds.multipliedReportingOverflow(by: Int128(count))
    return overflow ? .saturated : Self(nanoseconds: product)
  }
}
