// SPDX-License-Identifier: MIT
// Loading a workout, whoever asks: a preset by name, or a workout as a coach writes it on the
// whiteboard (`wodclockctl run amrap 14`, the socket's `load` with `workout`, a keypad), read by
// the notation with the config's count-in and cues; `again` and `recent` from the history.

import ConfigFormat
import Configuration
import ControlProtocol
import WorkoutCore
import WorkoutNotation

extension Daemon {
  /// The most workouts `recent` lists.
  static let recentLimit = 10
  /// How far back in the history `recent` looks for distinct workouts.
  static let recentLookBack = 1000

  /// A workout written in the notation, as this config runs it: its count-in unless the text
  /// gives one (`countin 5s`, `no countin`), and the config's cues; a name of the config's
  /// library (`cindy`, a workout of the gym's own file) is that workout.
  func writtenWorkout(_ text: String) -> Result<WorkoutPlan, NotationError> {
    WorkoutNotation.parse(
      text, defaultCountIn: configuration.defaults.countIn, library: configuration.workouts
    ).map { parsed in
      var plan = parsed
      plan.cues = configuration.defaults.cues
      return plan
    }
  }

  /// The socket's answer to a load over a running or paused workout without `replace`.
  func busyFailure(at now: Int64) -> CommandFailure {
    let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
    let state = snapshot.runState == .paused ? "is paused" : "is running"
    return CommandFailure(
      CommandProtocol.busyCode,
      "'\(host.preset.name)' \(state); send \"replace\": true to abandon it "
        + "(wodclockctl load, run or again with --replace)")
  }

  /// Loads what a request names; a text that is not a workout is answered `bad_workout` with
  /// the notation's diagnostic (the column, a caret, what was expected).
  func load(_ target: LoadTarget, replacing: Bool, start: Bool, at now: Int64)
    -> CommandFailure?
  {
    switch target {
    case .preset(let name):
      return load(resolved: .preset(name), replacing: replacing, start: start, at: now)
    case .workout(let text) where configuration.preset(loadedBy: text) != nil:
      // `run tabata` on a config with its own `tabata`: the gym's preset, as it set it up; so
      // too `run Fran` where the config has a preset `fran`: it wins over the library's Fran.
      let name = configuration.preset(loadedBy: text)!.name
      return load(resolved: .preset(name), replacing: replacing, start: start, at: now)
    case .workout(let text):
      switch writtenWorkout(text) {
      case .success(let plan):
        return load(resolved: .workout(plan), replacing: replacing, start: start, at: now)
      case .failure(let error):
        logger.info(
          "workout not understood",
          [("workout", text), ("error", error.diagnostics.first?.message ?? "")])
        return CommandFailure("bad_workout", error.rendered())
      }
    }
  }

  /// Loads a preset or a written workout; over a count-in, a running or a paused workout only
  /// when `replacing` (else `busy`). With `start` the loaded workout starts at once.
  func load(resolved request: LoadRequest, replacing: Bool, start: Bool, at now: Int64)
    -> CommandFailure?
  {
    if let forwarded = forwardToLeader(load: request, start: start) { return forwarded }
    let instant = timeBase.engineInstant(atMonotonic: now)
    recordLateness(at: now)
    var cues = host.advance(to: instant)
    defer { publish(cues: cues, at: now) }
    if host.isActive && !replacing {
      logger.info("load refused", [("preset", request.name), ("reason", "busy")])
      return busyFailure(at: now)
    }
    do {
      switch request {
      case .preset(let name):
        try host.load(presetNamed: name, at: instant)
        logger.info("preset loaded", [("preset", name)])
      case .workout(let plan):
        try host.load(
          Preset(name: plan.name, plan: plan, location: EngineHost.writtenWorkoutLocation),
          at: instant)
        logger.info("workout loaded", [("preset", plan.name), ("workout", plan.notation ?? "")])
      }
    } catch {
      return CommandFailure(error.code, error.message)
    }
    // The coach chose this one: the schedule does not replace it with the next class.
    scheduler.noteHandLoad(at: now)
    pendingStart.clear()
    guard start else { return nil }
    if let scheduled = scheduleStart(.start, at: now) { return scheduled }
    do {
      cues += try host.perform(.start, at: instant)
      logger.info("action", [("action", "start"), ("preset", host.preset.name)])
    } catch {
      return CommandFailure("refused", error.description)
    }
    return nil
  }

  /// Loads the last workout of the history again: its preset while the config has it, else
  /// the workout as it was written.
  func again(replacing: Bool, start: Bool, at now: Int64) -> CommandFailure? {
    guard let last = host.history(limit: 1).last else {
      return CommandFailure(
        "no_history",
        "no workout has been run yet; load one (wodclockctl run TEXT, wodclockctl load PRESET)")
    }
    if configuration.preset(named: last.preset) != nil {
      return load(LoadTarget.preset(last.preset), replacing: replacing, start: start, at: now)
    }
    // A named workout (`Cindy`) is loaded by its name again while it is the same workout.
    if let workout = last.workout, configuration.workouts.workout(named: last.preset) != nil,
      configuration.preset(loadedBy: last.preset) == nil,
      case .success(let named) = writtenWorkout(last.preset), named.notation == workout
    {
      return load(.workout(last.preset), replacing: replacing, start: start, at: now)
    }
    guard let workout = last.workout else {
      return CommandFailure(
        "unknown_preset",
        "the last workout, preset '\(last.preset)', is no longer in the config")
    }
    return load(.workout(workout), replacing: replacing, start: start, at: now)
  }

  /// The last distinct workouts of the history, newest first: one entry each, its latest run.
  func recentWorkouts() -> [HistoryEntry] {
    var seen: Set<String> = []
    var recent: [HistoryEntry] = []
    for entry in host.history(limit: Self.recentLookBack).reversed() {
      guard recent.count < Self.recentLimit else { break }
      if seen.insert(entry.workout ?? entry.preset).inserted { recent.append(entry) }
    }
    return recent
  }
}

extension LoadRequest {
  /// The name a log line gives the workout.
  var name: String {
    switch self {
    case .preset(let name): name
    case .workout(let plan): plan.name
    }
  }
}
