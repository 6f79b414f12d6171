// SPDX-License-Identifier: MIT
// Deriving what the displays show at an instant, without changing the engine.

extension WorkoutEngine {
  /// The workout as it stands at `instant`. Pure: segments that ended since the last
  /// ``advance(to:)`` are walked past on a copy of the position, so the snapshot is right even
  /// when the engine has not been advanced yet.
  public func snapshot(at instant: MonotonicInstant) -> WorkoutSnapshot {
    let now = max(instant.nanoseconds, state.lastInstant ?? instant.nanoseconds)
    var position = Position(engine: self, now: now)
    position.walk(through: timeline)
    return makeSnapshot(position)
  }

  /// Where the engine is, walked forward to an instant.
  private struct Position {
    var index: Int
    var segmentStart: Int64
    var time: Int64
    var workoutStart: Int64?
    var tension: Int64
    var runState: RunState
    var finishReason: FinishReason?

    /// Borrows the engine: a snapshot is taken on every wake-up, and an owned parameter would
    /// copy the whole engine (its timeline's arrays and strings) each time.
    init(engine: borrowing WorkoutEngine, now: Int64) {
      tension = engine.state.tensionTotal
      finishReason = engine.state.finishReason
      switch engine.state.phase {
      case .idle:
        // Idle shows the workout as it will begin: the first segment after the count-in.
        index = min(engine.timeline.workoutStartIndex, max(engine.timeline.segments.count - 1, 0))
        segmentStart = 0
        time = 0
        workoutStart = 0
        runState = .idle
      case .running, .paused, .finished:
        index = engine.state.segmentIndex
        segmentStart = engine.state.segmentStart
        time = engine.engineTime(at: now)
        workoutStart = engine.state.workoutStart
        runState =
          engine.state.phase == .finished
          ? .finished
          : engine.state.phase == .paused
            ? .paused : (index < engine.timeline.workoutStartIndex ? .countIn : .running)
      }
    }

    mutating func walk(through timeline: Timeline) {
      guard runState == .running || runState == .countIn || runState == .paused else { return }
      while let length = timeline.segments[index].duration?.nanoseconds,
        time - segmentStart >= length
      {
        if timeline.segments[index].countsTowardTension { tension += length }
        if index == timeline.segments.count - 1 {
          time = segmentStart + length
          runState = .finished
          finishReason = finishReason ?? .completed
          return
        }
        segmentStart += length
        index += 1
        if index == timeline.workoutStartIndex && workoutStart == nil {
          workoutStart = segmentStart
        }
      }
      if runState == .countIn && index >= timeline.workoutStartIndex { runState = .running }
    }
  }

  private func makeSnapshot(_ position: Position) -> WorkoutSnapshot {
    let second = TimeSpan.nanosecondsPerSecond
    guard !timeline.segments.isEmpty else {
      return WorkoutSnapshot(
        runState: .idle, mode: plan.mode.name, presetName: plan.name, label: plan.label,
        finishReason: nil, display: nil, elapsed: .zero, remaining: nil, workoutLength: nil,
        progress: nil, segmentIndex: nil, segmentCount: 0, segmentKind: nil, segmentLength: nil,
        segmentElapsed: .zero, segmentRemaining: nil, segmentProgress: nil, round: nil, set: nil,
        rep: nil, side: nil, targetReps: nil, laps: 0, lastLapAt: nil, secondsIntoMinute: 0,
        timeUnderTension: .zero, tempo: nil, clockFace: clockFace)
    }
    let segment = timeline.segments[position.index]
    let inCountIn = position.index < timeline.workoutStartIndex
    let segmentElapsed = position.time - position.segmentStart
    let segmentLength = segment.duration?.nanoseconds
    let segmentRemaining = segmentLength.map { max(0, $0 - segmentElapsed) }
    let elapsed = inCountIn ? 0 : position.workoutStart.map { position.time - $0 } ?? 0
    let workoutLength = timeline.workoutLength?.nanoseconds
    var remaining: Int64?
    if inCountIn || position.runState == .idle {
      remaining = workoutLength
    } else if let segmentRemaining, let after = timeline.remainingAfter[position.index] {
      remaining = segmentRemaining + after.nanoseconds
    }
    if state.phase == .finished, position.runState == .finished, remaining != nil,
      finishedEarly
    {
      remaining = workoutLength.map { max(0, $0 - elapsed) }
    }

    let display: DisplayTime
    if inCountIn {
      display = .down(segmentRemaining ?? 0)
    } else {
      switch plan.mode.name {
      case .forTime: display = .up(elapsed)
      case .amrap: display = .down(remaining ?? 0)
      default:
        display = segmentRemaining.map { .down($0) } ?? .up(segmentElapsed)
      }
    }

    let laps = state.laps
    var round = segment.round
    switch plan.mode {
    case .amrap:
      round = Counter(laps.count + 1, of: nil)
    case .forTime(let parameters):
      if let rounds = parameters.rounds {
        round = Counter(min(laps.count + 1, rounds), of: rounds)
      } else if !laps.isEmpty {
        round = Counter(laps.count + 1, of: nil)
      }
    default:
      break
    }

    let tensionNow =
      position.tension
      + (segment.countsTowardTension && position.runState != .idle
        && position.runState != .finished ? segmentElapsed : 0)

    return WorkoutSnapshot(
      runState: position.runState,
      mode: plan.mode.name,
      presetName: plan.name,
      label: segment.label ?? plan.label,
      finishReason: position.runState == .finished ? position.finishReason : nil,
      display: display,
      elapsed: TimeSpan(nanoseconds: elapsed),
      remaining: remaining.map { TimeSpan(nanoseconds: $0) },
      workoutLength: workoutLength.map { TimeSpan(nanoseconds: $0) },
      progress: workoutLength.map { $0 > 0 ? min(1, Double(elapsed) / Double($0)) : 1 },
      segmentIndex: position.index,
      segmentCount: timeline.segments.count,
      segmentKind: segment.kind,
      segmentLength: segment.duration,
      segmentElapsed: TimeSpan(nanoseconds: segmentElapsed),
      segmentRemaining: segmentRemaining.map { TimeSpan(nanoseconds: $0) },
      segmentProgress: segmentLength.map {
        $0 > 0 ? min(1, Double(segmentElapsed) / Double($0)) : 1
      },
      round: round,
      set: segment.set,
      rep: segment.rep,
      side: segment.side,
      targetReps: segment.targetReps,
      laps: laps.count,
      lastLapAt: laps.last.map { TimeSpan(nanoseconds: $0) },
      secondsIntoMinute: Int(floorDivide(elapsed, second) % 60),
      timeUnderTension: TimeSpan(nanoseconds: tensionNow),
      tempo: tempoSnapshot(segment: segment, elapsed: segmentElapsed),
      clockFace: nil)
  }

  /// A workout finished by the coach before its timeline ended.
  private var finishedEarly: Bool {
    state.finishReason == .stopped
      || state.finishReason == .completed
        && state.segmentIndex < timeline.segments.count - 1
  }

  private var clockFace: ClockFace? {
    if case .clock(let face) = plan.mode { return face }
    return nil
  }

  private func tempoSnapshot(segment: Segment, elapsed: Int64) -> TempoSnapshot? {
    guard case .tempo(let parameters) = plan.mode else { return nil }
    let phase = segment.kind.tempoPhase
    let length = segment.duration?.nanoseconds ?? 0
    let progress = length > 0 ? min(1, max(0, Double(elapsed) / Double(length))) : 0
    var position: Double
    switch phase {
    case .eccentric: position = progress
    case .bottomPause: position = 1
    case .concentric: position = 1 - progress
    case .topPause, nil: position = 0
    }
    if parameters.reverseDirection { position = 1 - position }
    var arrow: TempoSnapshot.Arrow?
    switch phase {
    case .eccentric: arrow = parameters.reverseDirection ? .up : .down
    case .concentric: arrow = parameters.reverseDirection ? .down : .up
    default: arrow = nil
    }
    return TempoSnapshot(
      tempo: parameters.tempo, phase: phase, phaseProgress: progress, trackPosition: position,
      explosiveConcentric: parameters.tempo.concentric == 0,
      reverseDirection: parameters.reverseDirection, arrow: arrow)
  }
}

extension DisplayTime {
  static func down(_ nanoseconds: Int64) -> DisplayTime {
    DisplayTime(seconds: TimeSpan(nanoseconds: nanoseconds).ceiledSeconds, direction: .down)
  }
  static func up(_ nanoseconds: Int64) -> DisplayTime {
    DisplayTime(seconds: TimeSpan(nanoseconds: nanoseconds).flooredSeconds, direction: .up)
  }
}

extension WorkoutEngine: Codable {
  private enum CodingKeys: String, CodingKey {
    case plan
    case staleCueLimit = "stale_cue_limit"
    case state
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let plan = try container.decode(WorkoutPlan.self, forKey: .plan)
    do {
      try self.init(
        plan: plan, staleCueLimit: try container.decode(TimeSpan.self, forKey: .staleCueLimit))
    } catch let errors as PlanErrors {
      throw DecodingError.dataCorruptedError(
        forKey: .plan, in: container, debugDescription: "saved plan is invalid: \(errors)")
    }
    let state = try container.decode(EngineState.self, forKey: .state)
    guard timeline.segments.isEmpty || timeline.segments.indices.contains(state.segmentIndex),
      state.cueCursor >= 0,
      timeline.segments.isEmpty || state.cueCursor <= timeline.schedule[state.segmentIndex].count
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .state, in: container, debugDescription: "saved position is outside the timeline")
    }
    self.state = state
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(plan, forKey: .plan)
    try container.encode(staleCueLimit, forKey: .staleCueLimit)
    try container.encode(state, forKey: .state)
  }
}
