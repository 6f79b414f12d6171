// SPDX-License-Identifier: MIT
// The one engine that runs every timeline. Pure: it is given instants and never reads a clock.

/// Runs a compiled plan. Time is "engine time": nanoseconds of active running since `start`,
/// count-in included, pauses excluded. Engine time is derived from the instants given
/// (`now − origin`), never accumulated, so a late or irregular caller cannot make it drift.
///
/// The caller (the daemon) drives it with three calls: ``apply(_:at:)`` for user actions,
/// ``advance(to:)`` when time has passed, and ``nextDeadline`` to know when to wake up next.
public struct WorkoutEngine: Sendable {
  public let plan: WorkoutPlan
  public let timeline: Timeline
  /// Cues due longer ago than this when the engine is advanced are stale: dropped, not fired
  /// in a burst (a restore after a crash, a stalled or suspended process), except those that
  /// announce the present moment (see ``drain(now:)``).
  public var staleCueLimit: TimeSpan
  public internal(set) var state: EngineState

  private static let second = TimeSpan.nanosecondsPerSecond

  public init(plan: WorkoutPlan, staleCueLimit: TimeSpan = .seconds(1)) throws(PlanErrors) {
    self.plan = plan
    self.timeline = try plan.compile()
    self.staleCueLimit = staleCueLimit
    self.state = EngineState()
  }

  // MARK: - Actions

  /// Applies a user action at `instant`, after advancing to it. Returns the cues that became
  /// due, in order, including any the action itself causes (a lap, a finish).
  public mutating func apply(_ action: WorkoutAction, at instant: EngineInstant)
    throws(ActionRefusal) -> [Cue]
  {
    guard !timeline.segments.isEmpty else {
      throw ActionRefusal(action, "the clock mode only shows the time of day")
    }
    var cues = advance(to: instant)
    let now = state.lastInstant ?? instant.nanoseconds
    switch (action, state.phase) {
    case (.start, .idle), (.start, .finished), (.toggle, .idle), (.toggle, .finished):
      begin(at: now)
    case (.start, _):
      throw ActionRefusal(
        action,
        state.phase == .paused ? "the workout is paused; resume it" : "it is already running")
    case (.pause, .running), (.toggle, .running):
      state.frozenTime = now - state.origin
      state.phase = .paused
    case (.pause, _):
      throw ActionRefusal(action, "the workout is \(describe(state.phase))")
    case (.resume, .paused), (.toggle, .paused):
      state.origin = now - state.frozenTime
      state.phase = .running
    case (.resume, _):
      throw ActionRefusal(action, "the workout is \(describe(state.phase))")
    case (.reset, .idle):
      throw ActionRefusal(action, "nothing has started")
    case (.reset, _):
      reset()
    case (.finish, .running), (.finish, .paused):
      end(at: engineTime(at: now), reason: plan.mode.name == .forTime ? .completed : .stopped)
      cues.append(manualCue(.finish, at: now))
    case (.next, .running), (.next, .paused):
      try skipToNext(at: now, appending: &cues)
    case (.previous, .running), (.previous, .paused):
      try goBack(at: now)
    case (.lap, .running):
      try tallyLap(at: now, appending: &cues)
    case (.finish, _), (.next, _), (.previous, _), (.lap, _):
      throw ActionRefusal(action, "the workout is \(describe(state.phase))")
    }
    if state.phase == .running || state.phase == .paused {
      cues += drain(now: now)
    }
    return cues
  }

  /// Moves time forward to `instant` and returns the cues that became due, in order, each
  /// exactly once. An instant earlier than one already seen is treated as that one.
  public mutating func advance(to instant: EngineInstant) -> [Cue] {
    let now = max(instant.nanoseconds, state.lastInstant ?? instant.nanoseconds)
    state.lastInstant = now
    guard state.phase == .running || state.phase == .paused else { return [] }
    return drain(now: now)
  }

  /// The next instant at which a displayed second or a cue changes: the daemon sleeps until
  /// then. Nil while idle, paused or finished, and for the clock mode.
  public var nextDeadline: EngineInstant? {
    guard state.phase == .running, let now = state.lastInstant else { return nil }
    let second = Self.second
    let time = now - state.origin
    let start = state.segmentStart
    let segment = timeline.segments[state.segmentIndex]
    var best = Int64.max
    func consider(_ candidate: Int64) {
      if candidate > time && candidate < best { best = candidate }
    }
    let schedule = timeline.schedule[state.segmentIndex]
    if state.cueCursor < schedule.count {
      consider(start + schedule[state.cueCursor].offset.nanoseconds)
    }
    consider(start + (floorDivide(time - start, second) + 1) * second)
    if let length = segment.duration?.nanoseconds {
      let end = start + length
      consider(end)
      consider(end - (ceilingDivide(end - time, second) - 1) * second)
      if let after = timeline.remainingAfter[state.segmentIndex]?.nanoseconds {
        let workoutEnd = end + after
        consider(workoutEnd - (ceilingDivide(workoutEnd - time, second) - 1) * second)
      }
    }
    if let workoutStart = state.workoutStart {
      consider(workoutStart + (floorDivide(time - workoutStart, second) + 1) * second)
    }
    guard best != Int64.max else { return nil }
    return EngineInstant(nanoseconds: now + (best - time))
  }

  // MARK: - Transitions

  private mutating func begin(at now: Int64) {
    let pass = state.pass + 1
    let dropped = state.droppedCues
    state = EngineState()
    state.pass = pass
    state.droppedCues = dropped
    state.lastInstant = now
    state.origin = now
    state.phase = .running
    if timeline.workoutStartIndex == 0 { state.workoutStart = 0 }
  }

  private mutating func reset() {
    let pass = state.pass + 1
    let dropped = state.droppedCues
    let last = state.lastInstant
    state = EngineState()
    state.pass = pass
    state.droppedCues = dropped
    state.lastInstant = last
  }

  private mutating func end(at time: Int64, reason: FinishReason) {
    state.phase = .finished
    state.frozenTime = time
    state.finishReason = reason
  }

  private mutating func enter(_ index: Int, at time: Int64) {
    state.segmentIndex = index
    state.segmentStart = time
    state.cueCursor = 0
    if index == timeline.workoutStartIndex && state.workoutStart == nil {
      state.workoutStart = time
    }
  }

  private mutating func recordTension(_ index: Int, _ amount: Int64) {
    guard amount > 0 else { return }
    state.tension.append(EngineState.TensionRecord(segmentIndex: index, amount: amount))
    state.tensionTotal += amount
  }

  private mutating func skipToNext(at now: Int64, appending cues: inout [Cue]) throws(ActionRefusal)
  {
    let index = state.segmentIndex
    let segment = timeline.segments[index]
    guard segment.skippable else {
      throw ActionRefusal(.next, "'\(segment.label ?? segment.kind.rawValue)' cannot be skipped")
    }
    let time = engineTime(at: now)
    if segment.countsTowardTension { recordTension(index, time - state.segmentStart) }
    if index + 1 == timeline.segments.count {
      end(at: time, reason: .completed)
      cues.append(manualCue(.finish, at: now))
    } else {
      enter(index + 1, at: time)
    }
  }

  private mutating func goBack(at now: Int64) throws(ActionRefusal) {
    let index = state.segmentIndex
    guard index >= timeline.workoutStartIndex else {
      throw ActionRefusal(.previous, "there is nothing before the count-in")
    }
    let time = engineTime(at: now)
    state.pass += 1
    if index == timeline.workoutStartIndex {
      enter(index, at: time)
      return
    }
    if let last = state.tension.last, last.segmentIndex == index - 1 {
      state.tension.removeLast()
      state.tensionTotal -= last.amount
    }
    enter(index - 1, at: time)
  }

  private mutating func tallyLap(at now: Int64, appending cues: inout [Cue]) throws(ActionRefusal) {
    guard let workoutStart = state.workoutStart else {
      throw ActionRefusal(.lap, "laps are counted once the count-in is over")
    }
    guard state.laps.count < StateLimits.laps else {
      throw ActionRefusal(.lap, "the tally is full at \(StateLimits.laps) laps")
    }
    let time = engineTime(at: now)
    state.laps.append(time - workoutStart)
    cues.append(manualCue(.lap(state.laps.count), at: now))
    if case .forTime(let parameters) = plan.mode, let rounds = parameters.roundTarget,
      state.laps.count >= rounds
    {
      end(at: time, reason: .completed)
      cues.append(manualCue(.finish, at: now))
    }
  }

  /// Fires every scheduled cue up to engine time `now`, crossing segment ends as needed.
  ///
  /// A cue due longer than `staleCueLimit` before `now` is stale: the loop got to it late (a
  /// stalled process, a suspended machine, a restore after a crash) and sounding it now would
  /// be a burst of beeps for moments long over. Stale cues are dropped, except those that
  /// announce the present moment: the start of the segment that is running now (its start,
  /// round, rounds-left and side cues) or, when the workout ended meanwhile, its finish. Those
  /// sound once, late, stamped with the instant they are delivered at.
  private mutating func drain(now: Int64) -> [Cue] {
    var cues: [Cue] = []
    // Stale cues that announce the current segment, kept until it is known whether that
    // segment is still the present one when the loop is done, and where they go in `cues`:
    // before the first fresh cue of their segment.
    var announcements: [Cue] = []
    var announcementsPosition: Int?
    let time = engineTime(at: now)
    let lastIndex = timeline.segments.count - 1
    while state.phase == .running || state.phase == .paused {
      let index = state.segmentIndex
      let local = time - state.segmentStart
      let schedule = timeline.schedule[index]
      while state.cueCursor < schedule.count {
        let entry = schedule[state.cueCursor]
        if entry.offset.nanoseconds > local { break }
        let due = now - (local - entry.offset.nanoseconds)
        let cue = Cue(
          kind: entry.kind, instant: EngineInstant(nanoseconds: due), segmentIndex: index,
          pass: state.pass)
        if now - due <= staleCueLimit.nanoseconds {
          if !announcements.isEmpty && announcementsPosition == nil {
            announcementsPosition = cues.count
          }
          cues.append(cue)
        } else if entry.announcesSegmentStart || entry.kind == .finish
          || entry.kind == .capReached
        {
          announcements.append(cue)
        } else {
          state.droppedCues += 1
        }
        state.cueCursor += 1
      }
      guard let length = timeline.segments[index].duration?.nanoseconds, local >= length else {
        break
      }
      if timeline.segments[index].countsTowardTension { recordTension(index, length) }
      if index == lastIndex {
        end(at: state.segmentStart + length, reason: isCapped ? .capped : .completed)
      } else {
        enter(index + 1, at: state.segmentStart + length)
        // The segment those announced is over: it is not the present moment any more.
        state.droppedCues += announcements.count
        announcements.removeAll()
        announcementsPosition = nil
      }
    }
    // Only the end is the present moment of a workout that ended while the loop was away;
    // a segment that still runs cannot have its end pending, only its start.
    let ended = state.phase == .finished
    let kept = announcements.filter { ($0.kind == .finish || $0.kind == .capReached) == ended }
    state.droppedCues += announcements.count - kept.count
    guard !kept.isEmpty else { return cues }
    // They sound with the first fresh cue after them, or now: stamped when they are delivered.
    let position = announcementsPosition ?? cues.count
    let instant =
      position < cues.count ? cues[position].instant : EngineInstant(nanoseconds: now)
    cues.insert(
      contentsOf: kept.map { cue in
        var late = cue
        late.instant = instant
        return late
      }, at: position)
    return cues
  }

  private var isCapped: Bool {
    if case .forTime(let parameters) = plan.mode { return parameters.cap != nil }
    return false
  }

  private func manualCue(_ kind: CueKind, at now: Int64) -> Cue {
    Cue(
      kind: kind, instant: EngineInstant(nanoseconds: now), segmentIndex: state.segmentIndex,
      pass: state.pass)
  }

  func engineTime(at now: Int64) -> Int64 {
    state.phase == .running ? now - state.origin : state.frozenTime
  }

  private func describe(_ phase: EngineState.Phase) -> String {
    switch phase {
    case .idle: "not started"
    case .running: "running"
    case .paused: "paused"
    case .finished: "finished"
    }
  }
}

/// The engine's mutable state: a plain value, written out by the daemon after every action
/// and read back after a crash.
public struct EngineState: Sendable, Hashable, Codable {
  public enum Phase: String, Sendable, Hashable, Codable {
    case idle
    case running
    case paused
    case finished
  }

  struct TensionRecord: Sendable, Hashable, Codable {
    var segmentIndex: Int
    var amount: Int64
  }

  public internal(set) var phase: Phase = .idle
  /// Monotonic nanoseconds at which engine time was zero (meaningful while running).
  var origin: Int64 = 0
  /// Engine time while paused or finished.
  var frozenTime: Int64 = 0
  public internal(set) var segmentIndex = 0
  /// Engine time at which the current segment began.
  var segmentStart: Int64 = 0
  /// Index of the next cue of the current segment's schedule.
  var cueCursor = 0
  /// The latest instant given to the engine.
  var lastInstant: Int64?
  /// Engine time at which the workout proper (after the count-in) began.
  var workoutStart: Int64?
  /// Workout time of each lap.
  var laps: [Int64] = []
  var tension: [TensionRecord] = []
  var tensionTotal: Int64 = 0
  public internal(set) var finishReason: FinishReason?
  /// Incremented whenever segments may be passed again (start, reset, previous).
  var pass = 0
  /// Cues dropped because they were older than the stale-cue limit.
  public internal(set) var droppedCues = 0

  public init() {}
}

@inline(__always)
func ceilingDivide(_ numerator: Int64, _ denominator: Int64) -> Int64 {
  -floorDivide(-numerator, denominator)
}
