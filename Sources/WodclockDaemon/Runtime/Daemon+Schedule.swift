// SPDX-License-Identifier: MIT
// The class schedule's part of a turn: the class that is due goes on the clock.

import Configuration
import WorkoutCore
import WorkoutNotation

extension Daemon {
  /// Loads the class the schedule says is due now, if any (see ``ClassScheduler`` for when
  /// that is and when it is not).
  func loadScheduledClass(at now: Int64) {
    // A follower runs what its leader loads, the leader's schedule included.
    guard link?.isFollower != true else { return }
    guard let due = scheduler.classToLoad(at: now, phase: host.engine.state.phase) else { return }
    let fields = [
      ("class", due.scheduled.name), ("starts", ScheduleText.time(due.scheduled.time)),
      ("date", due.date.description),
    ]
    let preset: Preset
    switch due.scheduled.workout {
    case .preset(let name):
      guard let named = configuration.preset(named: name) else {
        logger.error("class not loaded", fields + [("reason", "no preset named '\(name)'")])
        return
      }
      preset = named
    case .notation(let text):
      switch writtenWorkout(text) {
      case .success(let plan):
        preset = Preset(name: plan.name, plan: plan, location: EngineHost.writtenWorkoutLocation)
      case .failure(let error):
        logger.error("class not loaded", fields + [("reason", error.description)])
        return
      }
    }
    do throws(HostError) {
      try host.load(preset, at: timeBase.engineInstant(atMonotonic: now))
      logger.info("class loaded", fields + [("preset", preset.name)])
    } catch {
      logger.error("class not loaded", fields + [("reason", error.message)])
    }
  }
}
