// SPDX-License-Identifier: MIT
// Plan → timeline. Each mode lays out its segments; one function then plans every cue.

extension WorkoutPlan {
  /// Validates the plan and lays out its timeline.
  public func compile() throws(PlanErrors) -> Timeline {
    let errors = validationErrors()
    if !errors.isEmpty { throw PlanErrors(errors: errors) }
    var segments: [Segment] = []
    let hasCountIn = mode.name != .clock && countIn > .zero
    if hasCountIn { segments.append(Segment(kind: .countIn, duration: countIn)) }
    segments += Self.segments(of: mode, label: label)
    segments = placingWhiteboard(on: segments)
    let workoutStartIndex = hasCountIn ? 1 : 0
    return Timeline(
      segments: segments,
      schedule: CuePlanner(plan: self, segments: segments, workoutStartIndex: workoutStartIndex)
        .schedule(),
      workoutStartIndex: workoutStartIndex)
  }

  static func segments(of mode: WorkoutMode, label: String?) -> [Segment] {
    switch mode {
    case .clock:
      return []
    case .forTime(let parameters):
      return [Segment(kind: .work, duration: parameters.cap, label: label, skippable: false)]
    case .amrap(let parameters):
      return [Segment(kind: .work, duration: parameters.time, label: label, skippable: false)]
    case .emom(let parameters):
      return (1...parameters.rounds).map { round in
        Segment(
          kind: .work, duration: parameters.interval,
          label: cycled(parameters.labels, round) ?? label,
          round: Counter(round, of: parameters.rounds),
          targetReps: parameters.ladder?.reps(inRound: round))
      }
    case .intervals(let parameters), .tabata(let parameters):
      return intervalSegments(parameters, label: label)
    case .tempo(let parameters):
      return tempoSegments(parameters, label: label)
    case .sequence(let parameters):
      return SequenceCompiler.segments(parameters)
    }
  }

  private static func cycled(_ labels: [String], _ round: Int) -> String? {
    labels.isEmpty ? nil : labels[(round - 1) % labels.count]
  }

  private static func intervalSegments(_ parameters: IntervalParameters, label: String?)
    -> [Segment]
  {
    var segments: [Segment] = []
    let sets = parameters.sets
    for set in 1...sets {
      let setCounter = sets > 1 ? Counter(set, of: sets) : nil
      for round in 1...parameters.rounds {
        let roundCounter = Counter(round, of: parameters.rounds)
        segments.append(
          Segment(
            kind: .work, duration: parameters.work,
            label: cycled(parameters.labels, round) ?? label, round: roundCounter, set: setCounter))
        let lastOfSet = round == parameters.rounds
        let lastOfAll = lastOfSet && set == sets
        let rest = Segment(
          kind: .rest, duration: parameters.rest, label: label, round: roundCounter, set: setCounter
        )
        if !lastOfSet {
          if parameters.rest > .zero { segments.append(rest) }
        } else if !lastOfAll {
          if parameters.setRest > .zero {
            segments.append(Segment(kind: .setRest, duration: parameters.setRest, label: label))
          } else if parameters.rest > .zero {
            segments.append(rest)
          }
        } else if !parameters.skipLastRest && parameters.rest > .zero {
          segments.append(rest)
        }
      }
    }
    return segments
  }

  private static func tempoSegments(_ parameters: TempoParameters, label: String?) -> [Segment] {
    var segments: [Segment] = []
    let sides: [Side?] = parameters.unilateral ? [.left, .right] : [nil]
    let phases = parameters.phaseOrder.filter { parameters.tempo.duration(of: $0) > .zero }
    for set in 1...parameters.sets {
      let setCounter = Counter(set, of: parameters.sets)
      for (sideIndex, side) in sides.enumerated() {
        if sideIndex > 0 && parameters.switchPause > .zero {
          segments.append(
            Segment(
              kind: .sideSwitch, duration: parameters.switchPause, label: label, set: setCounter,
              side: side))
        }
        for rep in 1...parameters.reps {
          for phase in phases {
            segments.append(
              Segment(
                kind: SegmentKind(phase), duration: parameters.tempo.duration(of: phase),
                label: label, set: setCounter, rep: Counter(rep, of: parameters.reps), side: side,
                targetReps: parameters.reps))
          }
        }
      }
      if set < parameters.sets && parameters.setRest > .zero {
        segments.append(Segment(kind: .setRest, duration: parameters.setRest, label: label))
      }
    }
    return segments
  }
}

/// Lays out the Workout Framework's nested steps.
enum SequenceCompiler {
  static func segments(_ parameters: SequenceParameters) -> [Segment] {
    var output: [Segment] = []
    for step in parameters.steps { expand(step, round: nil, into: &output) }
    if parameters.skipLastRest, output.count > 1, output.last?.kind == .rest {
      output.removeLast()
    }
    return output
  }

  /// The segment `skip_last_rest` leaves out, if any: the last one when it is a rest and not
  /// the only one. Only the last step is laid out, and only when it is small enough to lay
  /// out, so it can be asked of a plan not yet validated.
  static func skippedRest(_ parameters: SequenceParameters) -> Segment? {
    guard parameters.skipLastRest, let last = parameters.steps.last,
      count(last) <= PlanLimits.maximumSegments
    else { return nil }
    var tail: [Segment] = []
    expand(last, round: nil, into: &tail)
    guard let segment = tail.last, segment.kind == .rest,
      tail.count > 1 || parameters.steps.count > 1
    else { return nil }
    return segment
  }

  /// Counts segments without building them, so a runaway expansion is refused cheaply. The
  /// count saturates at `Int.max` instead of wrapping: 999 repetitions nested eight deep must
  /// count as too many, not as a small number.
  static func segmentCount(_ parameters: SequenceParameters) -> Int {
    parameters.steps.reduce(0) { $0.saturatingAdd(count($1)) }
  }

  private static func count(_ step: SequenceStep) -> Int {
    if step.steps.isEmpty { return max(step.repetitions, 0) }
    let once = step.steps.reduce(0) { $0.saturatingAdd(count($1)) }
    if step.loop {
      // A loop repeats its children until its duration ends; bound it by the shortest child.
      let shortest = minimumLength(step.steps)
      guard let duration = step.duration, shortest > .zero else { return .max }
      let passes = Int(max(duration.nanoseconds, 0) / shortest.nanoseconds).saturatingAdd(1)
      return step.repetitions.saturatingMultiply(passes.saturatingMultiply(max(once, 1)))
    }
    return step.repetitions.saturatingMultiply(once)
  }

  private static func minimumLength(_ steps: [SequenceStep]) -> TimeSpan {
    var total = TimeSpan.zero
    for step in steps {
      let once =
        step.steps.isEmpty || step.loop ? step.duration ?? .zero : minimumLength(step.steps)
      total = total.saturatingAdd(once.saturatingMultiply(step.repetitions))
    }
    return total
  }

  private static func expand(_ step: SequenceStep, round: Counter?, into output: inout [Segment]) {
    let kind: SegmentKind = step.kind == .work ? .work : .rest
    if step.steps.isEmpty {
      for repetition in 1...step.repetitions {
        output.append(
          Segment(
            kind: kind, duration: step.duration, label: step.name, round: round,
            rep: step.repetitions > 1 ? Counter(repetition, of: step.repetitions) : nil,
            targetReps: step.reps, skippable: step.skippable))
      }
      return
    }
    for repetition in 1...step.repetitions {
      let innerRound = step.repetitions > 1 ? Counter(repetition, of: step.repetitions) : round
      if step.loop, let duration = step.duration {
        var body: [Segment] = []
        for child in step.steps { expand(child, round: nil, into: &body) }
        var filled = TimeSpan.zero
        var pass = 0
        while filled < duration {
          pass += 1
          for var segment in body where filled < duration {
            let length = min(segment.duration ?? .zero, duration - filled)
            segment.duration = length
            segment.round = segment.round ?? innerRound ?? Counter(pass, of: nil)
            output.append(segment)
            filled = filled + length
          }
        }
      } else {
        for child in step.steps { expand(child, round: innerRound, into: &output) }
      }
    }
  }
}
