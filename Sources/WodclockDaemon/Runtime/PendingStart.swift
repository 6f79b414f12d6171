// SPDX-License-Identifier: MIT
// A linked start (docs/link-protocol.md): a start a leader is asked for takes effect a `lead`
// later, at one engine instant on every clock of the room, so their count-ins begin together.
// Pure: it is given the action, the workout's phase and the instants; it reads no clock.

import WorkoutCore

/// The start a clock waits to carry out: a leader's, a lead after it was asked for, or the one
/// a follower was told of.
struct PendingStart: Sendable, Equatable {
  /// What an action asked of a leading clock does.
  enum Decision: Sendable, Equatable {
    /// It starts the workout at this engine instant, a lead from when it was asked.
    case scheduled(EngineInstant)
    /// It called the waiting start off, and does nothing else.
    case calledOff
    /// It asked again for the start that waits: that one stands, at its instant. Carried out
    /// at once, a second press of START within the lead would start this clock a lead ahead
    /// of the room, and the waiting start would then be refused.
    case alreadyWaiting(EngineInstant)
    /// It is carried out as it is.
    case passedThrough
  }

  /// The engine instant the start takes effect at; nil while none waits.
  private(set) var instant: EngineInstant?

  /// A start at `instant` (a follower's, as its leader said), or none.
  init(at instant: EngineInstant? = nil) {
    self.instant = instant
  }

  /// What `action`, asked of a leading clock at `now` while its workout is in `phase`, does.
  /// A start, or a toggle of an idle or finished workout, waits `lead` (the real lead, `speed`
  /// times as long on the engine's time); a toggle, a reset or a pause calls a waiting start
  /// off; another start while one waits is that one. Every other action passes through, and
  /// so does a start whose lead does not fit the engine's time.
  mutating func decide(
    _ action: WorkoutAction, phase: EngineState.Phase, at now: EngineInstant, lead: TimeSpan,
    speed: Int64
  ) -> Decision {
    if instant != nil && (action == .toggle || action == .reset || action == .pause) {
      instant = nil
      return .calledOff
    }
    if let waiting = instant, action == .start { return .alreadyWaiting(waiting) }
    guard action == .start || action == .toggle, phase == .idle || phase == .finished,
      instant == nil
    else { return .passedThrough }
    let (engineLead, overflow) = lead.nanoseconds.multipliedReportingOverflow(by: speed)
    guard !overflow else { return .passedThrough }
    let start = EngineInstant(nanoseconds: now.nanoseconds &+ engineLead)
    instant = start
    return .scheduled(start)
  }

  /// The start, once `now` has reached it: its own instant, not `now`, so that every clock
  /// starts at the same one whenever its loop notices. Taken once.
  mutating func due(by now: EngineInstant) -> EngineInstant? {
    guard let start = instant, start <= now else { return nil }
    instant = nil
    return start
  }

  /// Forgets the waiting start (another workout was loaded, the link started again).
  mutating func clear() { instant = nil }

  /// When the loop must wake for it, on the monotonic clock.
  func wakeUp(on timeBase: TimeBase) -> Int64? {
    instant.map { timeBase.monotonic(forEngine: $0) }
  }
}
