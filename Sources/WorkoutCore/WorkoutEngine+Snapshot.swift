// SPDX-License-Identifier: MIT
// Deriving what the displays show at an instant, without changing the engine.

extension WorkoutEngine {
  /// The workout as it stands at `instant`. Pure: segments that ended since the last
  /// ``advance(to:)`` are walked past on a copy of the position, so the snapshot is right even
  /// when the engine has not been advanced yet.
  public func snapshot(at instant: EngineInstant) -> WorkoutSnapshot {
    let now = max(instant.nanoseconds, state.lastInstant ?? instant.nanoseconds)
    var position = Position(engine: self, now: now)
    position.walk(through: timeline)
    return makeSnapshot(position)
  }

  /// The workout's time at `instant`, which may be earlier than the latest instant the engine
  /// was given: a button's press, dated by the kernel and decided at its release. Since its
  /// last start or resume the engine's time runs with the clock, and a pause or the finish
  /// only freezes it, so any instant from then to the freeze is placed exactly. Nil before
  /// that run began, after the freeze, while idle, and before the workout proper (the
  /// count-in). Pure, as ``snapshot(at:)``: a count-in's end or a cap that passed since the
  /// last ``advance(to:)`` counts as it will once the engine is advanced, so a request served
  /// before the loop gets round to that deadline is timed as the status shows the workout.
  public func workoutTime(at instant: EngineInstant) -> TimeSpan? {
    guard state.phase != .idle else { return nil }
    let now = max(instant.nanoseconds, state.lastInstant ?? instant.nanoseconds)
    var position = Position(engine: self, now: now)
    position.walk(through: timeline)
    guard let workoutStart = position.workoutStart else { return nil }
    let (time, overflow) = instant.nanoseconds.subtractingReportingOverflow(state.origin)
    guard !overflow, time >= workoutStart else { return nil }
    if state.phase == .running {
      // The run resumed at engine time `frozenTime` (0 for a run from the start): an instant
      // before it fell in the pause. The walk ends at the workout's end (its cap) when that
      // passed since the last advance: an instant after it is after the freeze.
      guard time >= state.frozenTime else { return nil }
      if position.runState == .finished, time > position.time { return nil }
    } else if time > state.frozenTime {
      return nil
    }
    return TimeSpan(nanoseconds: time - workoutStart)
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
        runState: .idle, mode: plan.mode.name, presetName: plan.name, notation: plan.notation,
        label: plan.label,
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

    let shown = DisplayTime.source(
      inCountIn: inCountIn, mode: plan.mode.name, elapsed: elapsed, remaining: remaining,
      segmentElapsed: segmentElapsed, segmentRemaining: segmentRemaining)
    let display =
      shown.direction == .down ? DisplayTime.down(shown.nanoseconds) : .up(shown.nanoseconds)

    let laps = state.laps
    var round = segment.round
    var targetReps = segment.targetReps
    switch plan.mode {
    case .amrap:
      round = roundsDone(laps.count)
    case .forTime(let parameters):
      if let rounds = parameters.roundTarget {
        let current = min(laps.count + 1, rounds)
        round = Counter(current, of: rounds)
        // A rep scheme's round shows its reps: 21, then 15, then 9.
        targetReps = parameters.reps(inRound: current)
      } else {
        round = roundsDone(laps.count)
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
      notation: plan.notation,
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
      targetReps: targetReps,
      laps: laps.count,
      lastLapAt: laps.last.map { TimeSpan(nanoseconds: $0) },
      secondsIntoMinute: Int(floorDivide(elapsed, second) % 60),
      timeUnderTension: TimeSpan(nanoseconds: tensionNow),
      tempo: tempoSnapshot(segment: segment, elapsed: segmentElapsed),
      clockFace: nil, whiteboardLine: segment.whiteboardLine,
      nextMovement: segment.nextMovement)
  }

  /// The score of a workout without a rounds target (an AMRAP, a For Time that tallies laps):
  /// the rounds done, as the coach reads it off the wall, none before the first lap.
  private func roundsDone(_ laps: Int) -> Counter? {
    laps > 0 ? Counter(laps, of: nil) : nil
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
    let position = TempoSnapshot.trackPosition(
      in: phase, progress: progress, reverseDirection: parameters.reverseDirection)
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
  /// What the big digits show, exactly, and which way they run: the count-in's time left; a For
  /// Time's workout time; an AMRAP's time left in the workout; else the segment's time left, or
  /// its time so far when it is open-ended. The one rule of the snapshot's ``WorkoutSnapshot/display``
  /// and of ``WorkoutSnapshot/displayedSpan``.
  static func source(
    inCountIn: Bool, mode: ModeName, elapsed: Int64, remaining: Int64?, segmentElapsed: Int64,
    segmentRemaining: Int64?
  ) -> (nanoseconds: Int64, direction: Direction) {
    if inCountIn { return (segmentRemaining ?? 0, .down) }
    switch mode {
    case .forTime: return (elapsed, .up)
    case .amrap: return (remaining ?? 0, .down)
    default: return segmentRemaining.map { ($0, .down) } ?? (segmentElapsed, .up)
    }
  }

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

  /// Reads an engine back. The plan is validated by compiling it, and the state is checked
  /// against the compiled timeline and ``StateLimits`` before anything computes with it: a file
  /// can hold any number, and Swift traps on overflow.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let plan = try container.decode(WorkoutPlan.self, forKey: .plan)
    let staleCueLimit = try container.decode(TimeSpan.self, forKey: .staleCueLimit)
    guard (0...StateLimits.time).contains(staleCueLimit.nanoseconds) else {
      throw DecodingError.dataCorruptedError(
        forKey: .staleCueLimit, in: container,
        debugDescription: "saved stale-cue limit \(staleCueLimit.nanoseconds) ns is out of range")
    }
    do {
      try self.init(plan: plan, staleCueLimit: staleCueLimit)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .plan, in: container, debugDescription: "saved plan is invalid: \(error)")
    }
    let state = try container.decode(EngineState.self, forKey: .state)
    if let problem = problem(with: state) {
      throw DecodingError.dataCorruptedError(
        forKey: .state, in: container, debugDescription: "saved state: \(problem)")
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

/// Bounds on an engine state read back from a file.
public enum StateLimits {
  /// The largest instant or engine time a state may hold: 2^61 ns, about 73 years. No monotonic
  /// clock and no workout gets near it, and three such values (an instant, a segment's start, a
  /// timeline's length) add up without leaving Int64.
  public static let time: Int64 = 1 << 61
  /// The most laps one workout tallies: as many as the rounds a plan may have
  /// (``PlanLimits/rounds``), which no class gets near. The whole state is rewritten on every
  /// action, laps included: a lap action measured 0.8 ms at 999 laps (0.2 ms with none), 6 ms
  /// at 10,000 and 9 ms at 18,000.
  public static let laps = PlanLimits.rounds.upperBound
  /// The largest pass or dropped-cue count: far beyond any use, and the engine can go on adding
  /// one at a time without ever nearing `Int.max`.
  public static let count = 1 << 48
}

/// Why a saved engine state cannot be used.
public struct EngineStateError: Error, Sendable, Hashable, CustomStringConvertible {
  public var reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}

extension WorkoutEngine {
  /// The latest instant the engine was given, if any: a state saved at an earlier instant was
  /// not saved by the daemon.
  public var latestInstant: EngineInstant? {
    state.lastInstant.map { EngineInstant(nanoseconds: $0) }
  }

  /// The engine with every stored instant moved by `offset`: carries a saved state across a
  /// restart, where the monotonic clock has a new origin. The result is checked like a
  /// decoded state, so a shift that would carry an instant out of range (a state saved under a
  /// clock far from today's) is an error instead of a trap.
  public func shiftingInstants(by offset: TimeSpan) throws(EngineStateError) -> WorkoutEngine {
    let limit = StateLimits.time
    guard (-limit...limit).contains(offset.nanoseconds) else {
      throw EngineStateError("a shift of \(offset.nanoseconds) ns is out of range")
    }
    var shifted = self
    // Both terms are within ±2^61, so the sums cannot overflow; the check below bounds them.
    shifted.state.origin += offset.nanoseconds
    if let last = state.lastInstant { shifted.state.lastInstant = last + offset.nanoseconds }
    if let problem = shifted.problem(with: shifted.state) {
      throw EngineStateError("after a shift of \(offset.nanoseconds) ns: \(problem)")
    }
    return shifted
  }

  /// Active engine time at `instant`: the count-in included, pauses excluded, what every number
  /// of a snapshot is derived from. The time frozen at the pause or the end while paused or
  /// finished; zero while idle. An instant before the latest one given counts as that one, as in
  /// ``snapshot(at:)``; a time past 64-bit nanoseconds (an instant no clock gives) saturates.
  public func engineTime(at instant: EngineInstant) -> TimeSpan {
    let now = max(instant.nanoseconds, state.lastInstant ?? instant.nanoseconds)
    switch state.phase {
    case .idle: return .zero
    case .paused, .finished: return TimeSpan(nanoseconds: state.frozenTime)
    case .running:
      // The origin is never after the latest instant, so only a positive overflow can happen.
      let (time, overflow) = now.subtractingReportingOverflow(state.origin)
      return overflow ? .saturated : TimeSpan(nanoseconds: time)
    }
  }

  /// This engine's plan with `state` in place of its own: for a state that comes from outside
  /// the engine (a linked clock's leader sends one). It is checked as a state read back from a
  /// file is, so a state that passes cannot make the engine trap.
  public func restoring(_ state: EngineState) throws(EngineStateError) -> WorkoutEngine {
    if let problem = problem(with: state) { throw EngineStateError(problem) }
    var restored = self
    restored.state = state
    return restored
  }

  /// What is wrong with `state` for this engine's timeline, or nil when the engine can run it:
  /// every index points into the timeline, every time lies in ``StateLimits/time`` and in the
  /// order the engine writes them (a segment starts after the workout and before now, laps
  /// ascend), and an idle state holds no position. These are the facts the engine's arithmetic
  /// and indexing rely on, so a state that passes cannot make it trap.
  func problem(with state: EngineState) -> String? {
    let limit = StateLimits.time
    let instants = -limit...limit
    let times = 0...limit
    guard (0...StateLimits.count).contains(state.pass),
      (0...StateLimits.count).contains(state.droppedCues)
    else { return "pass \(state.pass) or dropped cues \(state.droppedCues) out of range" }
    guard instants.contains(state.origin), state.lastInstant.map(instants.contains) ?? true
    else { return "instant out of range" }
    guard state.phase != .idle else {
      let holdsNothing =
        state.segmentIndex == 0 && state.cueCursor == 0 && state.segmentStart == 0
        && state.frozenTime == 0 && state.workoutStart == nil && state.laps.isEmpty
        && state.tension.isEmpty && state.tensionTotal == 0 && state.finishReason == nil
      return holdsNothing ? nil : "an idle state holds a position"
    }
    guard !timeline.segments.isEmpty else { return "the clock mode does not run" }
    guard timeline.segments.indices.contains(state.segmentIndex),
      (0...timeline.schedule[state.segmentIndex].count).contains(state.cueCursor)
    else { return "position outside the timeline" }
    guard let last = state.lastInstant else { return "a started workout without an instant" }
    guard times.contains(state.frozenTime) else { return "frozen time out of range" }
    // Both within ±2^61: the difference cannot overflow.
    let time = state.phase == .running ? last - state.origin : state.frozenTime
    guard times.contains(time), (0...time).contains(state.segmentStart) else {
      return "segment start \(state.segmentStart) or engine time \(time) out of range"
    }
    // What is left of the timeline from here: the engine adds it to instants and times.
    let segment = timeline.segments[state.segmentIndex]
    let (ahead, overflow) = (segment.duration?.nanoseconds ?? 0).addingReportingOverflow(
      timeline.remainingAfter[state.segmentIndex]?.nanoseconds ?? 0)
    guard !overflow, ahead <= limit else { return "the timeline is too long" }
    guard (state.segmentIndex >= timeline.workoutStartIndex) == (state.workoutStart != nil),
      (0...state.segmentStart).contains(state.workoutStart ?? 0)
    else { return "workout start does not match the position" }
    guard state.laps.count <= StateLimits.laps else {
      return "\(state.laps.count) laps, more than \(StateLimits.laps)"
    }
    if let first = state.laps.first, let latest = state.laps.last {
      guard let workoutStart = state.workoutStart, first >= 0, latest <= time - workoutStart,
        zip(state.laps, state.laps.dropFirst()).allSatisfy({ $0 <= $1 })
      else { return "laps out of order or out of range" }
    }
    var tension: Int64 = 0
    for record in state.tension {
      guard timeline.segments.indices.contains(record.segmentIndex),
        (1...limit).contains(record.amount)
      else { return "time under tension out of range" }
      // Each term is at most 2^61 and the sum is checked against 2^61 after every step.
      tension += record.amount
      guard tension <= limit else { return "time under tension out of range" }
    }
    guard tension == state.tensionTotal, state.tensionTotal <= time else {
      return "time under tension does not add up"
    }
    guard (state.phase == .finished) == (state.finishReason != nil) else {
      return "finish reason does not match the phase"
    }
    return nil
  }
}
