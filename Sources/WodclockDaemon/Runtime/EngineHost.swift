// SPDX-License-Identifier: MIT
// The one owner of the engine: the loaded preset, actions, persistence and history.

import ConfigFormat
import Configuration
import HardwareKit
import WorkoutCore

/// Why a request about presets failed.
struct HostError: Error, CustomStringConvertible {
  var code: String
  var message: String
  var description: String { message }
}

/// Owns the engine. Every action is applied here, saved to disk, and finished or abandoned
/// workouts are appended to the history.
final class EngineHost {
  private(set) var configuration: WodclockConfiguration
  private(set) var engine: WorkoutEngine
  private(set) var preset: Preset
  private(set) var startedWallSeconds: Int64?
  private let store: StateStore?
  /// The state directory, when it can be used (the web sessions are kept there too).
  var stateDirectory: String? { store?.directory }
  private let logger: Logger
  private let timeBase: TimeBase
  private let clock: DaemonClock
  /// Finished workouts the history file did not take yet (a full disk), oldest first. Each
  /// save and each new record tries them again, so none is lost once there is room.
  private var unwrittenHistory: [(entry: HistoryEntry, active: TimeSpan)] = []
  /// Whether the last history append or state save failed: each outage is logged once, not on
  /// every retry, and its end once.
  private var historyFailing = false
  private var saveFailing = false
  /// Counts the changes a person or a link made (actions, loads, restores, a new plan), not
  /// time moving on: a leader publishes its state when this moves, never once a second.
  private(set) var revision = 0

  /// The most finished workouts kept waiting for the history file; beyond it the oldest goes
  /// (a disk full for weeks must not grow the daemon without bound).
  static let unwrittenHistoryLimit = 100

  init(
    configuration: WodclockConfiguration, preset: Preset, store: StateStore?, logger: Logger,
    timeBase: TimeBase, clock: DaemonClock
  ) throws {
    self.configuration = configuration
    self.preset = preset
    self.store = store
    self.logger = logger
    self.timeBase = timeBase
    self.clock = clock
    self.engine = try Self.makeEngine(preset, configuration)
  }

  static func makeEngine(_ preset: Preset, _ configuration: WodclockConfiguration) throws
    -> WorkoutEngine
  {
    try WorkoutEngine(plan: preset.plan, staleCueLimit: configuration.defaults.staleCuesAfter)
  }

  /// Where a workout given as notation, not read from the config, is said to come from.
  static let writtenWorkoutLocation = SourceLocation(file: "workout", line: 1, column: 1)

  /// The preset the daemon starts with: the config's default, else the first.
  static func initialPreset(_ configuration: WodclockConfiguration) -> Preset? {
    configuration.defaults.preset.flatMap { configuration.preset(named: $0) }
      ?? configuration.presets.first
  }

  var isActive: Bool { engine.state.phase == .running || engine.state.phase == .paused }

  func snapshot(at instant: EngineInstant) -> WorkoutSnapshot {
    inPlace { $0.snapshot(at: instant) }
  }

  /// The workout's time at an instant that may be earlier than the engine's latest (a press
  /// dated by its input); nil where the engine cannot place it.
  func workoutTime(at instant: EngineInstant) -> TimeSpan? {
    inPlace { $0.workoutTime(at: instant) }
  }

  /// The engine's next deadline.
  var nextDeadline: EngineInstant? { inPlace { $0.nextDeadline } }

  /// Whether the time of day is on the displays: the clock mode, or nothing started yet while
  /// the idle screen is the clock. Asked on every wake-up, so without building a snapshot.
  func showsTimeOfDay(idleShowsClock: Bool) -> Bool {
    inPlace { $0.plan.mode.name == .clock || (idleShowsClock && $0.state.phase == .idle) }
  }

  /// Reads the engine where it is stored. A plain read of a class's stored value is a copy (a
  /// retain of each of its arrays and strings, and a release after), which the loop would pay
  /// several times on every wake-up; an exclusive access lends it instead. Nothing in `read`
  /// changes the engine.
  private func inPlace<Result>(_ read: (inout WorkoutEngine) -> Result) -> Result {
    read(&engine)
  }

  /// Applies a user action. Saves the state; records history when the workout ends or is
  /// abandoned.
  func perform(_ action: WorkoutAction, at instant: EngineInstant) throws(ActionRefusal)
    -> [Cue]
  {
    let before = engine.state.phase
    let snapshotBefore = engine.snapshot(at: instant)
    let cues = try engine.apply(action, at: instant)
    let after = engine.state.phase
    if (before == .running || before == .paused) && after == .idle
      && snapshotBefore.runState != .countIn
    {
      record(snapshotBefore, outcome: "abandoned")
    }
    if after == .running && (before == .idle || before == .finished) {
      startedWallSeconds = clock.wall().seconds
    }
    if after == .finished && before != .finished {
      record(
        engine.snapshot(at: instant), outcome: engine.state.finishReason?.rawValue ?? "completed")
    }
    revision &+= 1
    save(at: instant)
    return cues
  }

  /// Moves time forward; a workout that ends by itself is recorded and saved.
  func advance(to instant: EngineInstant) -> [Cue] {
    let before = engine.state.phase
    let cues = engine.advance(to: instant)
    if engine.state.phase == .finished && before != .finished {
      record(
        engine.snapshot(at: instant), outcome: engine.state.finishReason?.rawValue ?? "completed")
      save(at: instant)
    }
    return cues
  }

  /// Loads a preset by name. A running workout is abandoned (and recorded as such).
  func load(presetNamed name: String, at instant: EngineInstant) throws(HostError) {
    guard let next = configuration.preset(named: name) else {
      let names = configuration.presets.map(\.name)
      throw HostError(
        code: "unknown_preset",
        message: "no preset named '\(name)'; presets: \(names.joined(separator: ", ")); "
          + "a workout as written loads with `wodclockctl run` (run amrap 14)")
    }
    try load(next, at: instant)
  }

  /// Loads `next`, a preset of the config or a workout made at the wall. A running workout is
  /// abandoned (and recorded as such).
  func load(_ next: Preset, at instant: EngineInstant) throws(HostError) {
    let current = engine.snapshot(at: instant)
    let fresh: WorkoutEngine
    do {
      fresh = try Self.makeEngine(next, configuration)
    } catch {
      throw HostError(
        code: "invalid_preset", message: "preset '\(next.name)' is invalid: \(error)")
    }
    if isActive && current.runState != .countIn { record(current, outcome: "abandoned") }
    engine = fresh
    preset = next
    startedWallSeconds = nil
    revision &+= 1
    save(at: instant)
  }

  /// Takes a new, valid configuration. A running workout keeps running on its plan; an idle
  /// one picks up the preset's new definition.
  func replaceConfiguration(_ next: WodclockConfiguration, at instant: EngineInstant) {
    configuration = next
    guard !isActive else { return }
    let chosen = next.preset(named: preset.name) ?? Self.initialPreset(next)
    guard let chosen, let rebuilt = try? Self.makeEngine(chosen, next) else { return }
    preset = chosen
    engine = rebuilt
    revision &+= 1
    save(at: instant)
  }

  /// Takes the workout a link's leader runs: `followed`, its engine already on this clock,
  /// named `name`. The cues the old engine gave up to its latest instant are not given again
  /// (the same countdown, heard twice, when a state message comes in just after it). Not a
  /// change of this clock's own: the revision stays.
  func adopt(_ followed: WorkoutEngine, named name: String, at instant: EngineInstant) {
    var next = followed
    next.staleCueLimit = configuration.defaults.staleCuesAfter
    if let heard = engine.latestInstant, (next.latestInstant ?? heard) < heard,
      next.plan == engine.plan
    {
      _ = next.advance(to: heard)
    }
    let samePlan = next.plan == engine.plan && preset.name == name
    engine = next
    if !samePlan {
      preset =
        configuration.preset(named: name).flatMap { $0.plan == next.plan ? $0 : nil }
        ?? Preset(name: name, plan: next.plan, location: Self.writtenWorkoutLocation)
    }
    if engine.state.phase == .running && startedWallSeconds == nil {
      startedWallSeconds = clock.wall().seconds
    }
    save(at: instant)
  }

  /// Brings back the workout `store` holds, if any, and says in the log how: resumed, resumed
  /// after a reboot, restored paused, or moved aside when unreadable.
  func restore(from store: StateStore, at now: Int64) {
    switch store.load() {
    case .none:
      return
    case .corrupt(let reason, let movedTo):
      logger.warning(
        "the saved workout state was unreadable; moved aside, starting idle",
        [("moved_to", movedTo), ("reason", reason)])
    case .loaded(let saved):
      guard
        let plan = restore(saved, bootID: clock.bootID(), monotonicNow: now, wallNow: clock.wall())
      else { return }
      let snapshot = snapshot(at: timeBase.engineInstant(atMonotonic: now))
      let how: String
      switch plan {
      case .resumeByMonotonic: how = "resumed"
      case .resumeByWallClock: how = "resumed after a reboot"
      case .restorePaused: how = "restored paused"
      }
      logger.notice(
        "workout state restored",
        [
          ("how", how), ("preset", saved.preset), ("state", snapshot.runState.rawValue),
          ("elapsed", snapshot.elapsed.description),
        ])
    }
  }

  /// Brings back a saved state (after `kill -9`, a crash or a power cut). A state that cannot
  /// be carried to today's clocks (an instant would overflow) is moved aside and the daemon
  /// starts idle.
  func restore(
    _ saved: SavedState, bootID: String, monotonicNow: Int64, wallNow: WallClock.Instant
  ) -> RestorePlan? {
    // A workout loaded as written (`wodclockctl run amrap 14`) is its own definition: the
    // saved plan is run again whether or not the config has a preset of that name.
    let adHoc = saved.engine.plan.notation.map { _ in
      Preset(name: saved.preset, plan: saved.engine.plan, location: Self.writtenWorkoutLocation)
    }
    guard let savedPreset = configuration.preset(named: saved.preset) ?? adHoc else {
      logger.warning(
        "saved workout's preset is gone from the config; starting idle", [("preset", saved.preset)])
      return nil
    }
    var restored = saved.engine
    restored.staleCueLimit = configuration.defaults.staleCuesAfter
    let plan = RestorePlan.decide(
      saved: saved, bootID: bootID, monotonicNow: monotonicNow, wallNow: wallNow,
      resumeWithin: configuration.daemon.resumeWithin)
    let nowEngine = timeBase.engineInstant(atMonotonic: monotonicNow).nanoseconds
    let savedEngine = saved.savedEngineInstant
    do {
      switch plan {
      case .resumeByMonotonic(let gap), .resumeByWallClock(let gap):
        // Where the engine's clock would be now had the daemon never stopped.
        let (scaled, scaledOverflow) = gap.multipliedReportingOverflow(by: timeBase.speed)
        let (expected, expectedOverflow) = savedEngine.addingReportingOverflow(scaled)
        let (offset, offsetOverflow) = nowEngine.subtractingReportingOverflow(expected)
        guard !scaledOverflow && !expectedOverflow && !offsetOverflow else {
          throw EngineStateError("a gap of \(gap) ns cannot be carried to today's clock")
        }
        restored = try restored.shiftingInstants(by: TimeSpan(nanoseconds: offset))
      case .restorePaused:
        if restored.state.phase == .running {
          _ = try? restored.apply(.pause, at: EngineInstant(nanoseconds: savedEngine))
        }
        // Both are within ±2^61 (the saved one was checked on load).
        restored = try restored.shiftingInstants(by: TimeSpan(nanoseconds: nowEngine - savedEngine))
      }
    } catch {
      logger.warning(
        "the saved workout state cannot be carried to today's clocks; moved aside, starting idle",
        [("moved_to", store?.setAside() ?? ""), ("reason", "\(error)")])
      return nil
    }
    engine = restored
    preset = savedPreset
    startedWallSeconds = saved.startedWallSeconds
    revision &+= 1
    return plan
  }

  /// Writes the state file, after any finished workout still waiting for the history.
  func save(at instant: EngineInstant) {
    guard let store else { return }
    writeUnwrittenHistory()
    // The clocks as they were at `instant`, which a restore pairs with the engine's: read now,
    // they are later by however long the action and the history took, and a restore would put
    // the clock that much behind.
    let savedMonotonic = timeBase.monotonic(forEngine: instant)
    let since = max(0, clock.monotonic() - savedMonotonic)
    let wallNow = clock.wall()
    let wallNanoseconds =
      wallNow.seconds &* 1_000_000_000 &+ Int64(wallNow.nanoseconds) &- since
    let (wallSeconds, wallRemainder) = wallNanoseconds.quotientAndRemainder(
      dividingBy: 1_000_000_000)
    let wall = WallClock.Instant(
      seconds: wallRemainder < 0 ? wallSeconds - 1 : wallSeconds,
      nanoseconds: Int32(wallRemainder < 0 ? wallRemainder + 1_000_000_000 : wallRemainder))
    let state = SavedState(
      version: SavedState.currentVersion, bootID: clock.bootID(),
      savedMonotonic: savedMonotonic, savedEngineInstant: instant.nanoseconds,
      savedWallSeconds: wall.seconds, savedWallNanoseconds: wall.nanoseconds, preset: preset.name,
      startedWallSeconds: startedWallSeconds, engine: engine)
    do {
      try store.save(state)
      if saveFailing {
        saveFailing = false
        logger.notice("the workout state is saved again", [("path", store.statePath)])
      }
    } catch {
      // The file on disk now holds an older state than the engine's: a kill -9 or a power cut
      // would bring that one back (a finished workout as running). Removing it needs no free
      // space, and no state is better than a wrong one: the next save that works writes it anew.
      let discarded = store.discard()
      guard !saveFailing else { return }
      saveFailing = true
      logger.error(
        discarded
          ? "cannot save the workout state; the older one is removed, retrying on every action"
          : "cannot save the workout state, nor remove the older one; retrying on every action",
        [("path", store.statePath), ("error", "\(error)")])
    }
  }

  private func record(_ snapshot: WorkoutSnapshot, outcome: String) {
    guard store != nil else { return }
    let entry = HistoryEntry(
      preset: preset.name, workout: preset.plan.notation, mode: snapshot.mode.rawValue,
      startedWallSeconds: startedWallSeconds,
      endedWallSeconds: clock.wall().seconds, activeSeconds: snapshot.elapsed.seconds,
      outcome: outcome, rounds: snapshot.round?.index, laps: snapshot.laps,
      timeUnderTensionSeconds: snapshot.mode == .tempo ? snapshot.timeUnderTension.seconds : nil)
    unwrittenHistory.append((entry, snapshot.elapsed))
    if unwrittenHistory.count > Self.unwrittenHistoryLimit {
      let dropped = unwrittenHistory.removeFirst().entry
      logger.warning(
        "too many workouts wait for the history; the oldest is dropped",
        [("preset", dropped.preset), ("ended_at", String(dropped.endedWallSeconds))])
    }
    writeUnwrittenHistory()
  }

  /// Appends the waiting workouts to the history in order, stopping at the first failure.
  private func writeUnwrittenHistory() {
    guard let store, !unwrittenHistory.isEmpty else { return }
    while let (entry, active) = unwrittenHistory.first {
      do {
        try store.appendHistory(entry)
      } catch {
        if !historyFailing {
          historyFailing = true
          logger.error(
            "cannot append to the history; the workout is kept and written when it can be",
            [("path", store.historyPath), ("error", "\(error)")])
        }
        return
      }
      unwrittenHistory.removeFirst()
      logger.info(
        "workout recorded",
        [("preset", entry.preset), ("outcome", entry.outcome), ("active", active.description)])
    }
    if historyFailing {
      historyFailing = false
      logger.notice("the history is written again", [("path", store.historyPath)])
    }
  }

  func history(limit: Int) -> [HistoryEntry] { store?.history(limit: limit) ?? [] }
}
