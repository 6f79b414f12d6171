// SPDX-License-Identifier: MIT
// The class schedule's part of a turn: the class that is due goes on the clock.

import Configuration
import WorkoutCore

extension Daemon {
  /// Loads the class the schedule says is due now, if any (see ``ClassScheduler`` for when
  /// that is and when it is not).
  func loadScheduledClass(at now: Int64) {
    guard let due = scheduler.classToLoad(at: now, phase: host.engine.state.phase) else { return }
    let fields = [
      ("class", due.scheduled.name), ("starts", ScheduleText.time(due.scheduled.time)),
      ("date", due.date.description),
    ]
    switch due.scheduled.workout {
    case .preset(let name):
      do throws(HostError) {
        try host.load(presetNamed: name, at: timeBase.engineInstant(atMonotonic: now))
        logger.info("class loaded", fields + [("preset", name)])
      } catch {
        logger.error("class not loaded", fields + [("reason", error.message)])
      }
    case .notation(let text):
      // The configuration only gives preset names today (resolveScheduledWorkout).
      logger.error(
        "class not loaded", fields + [("reason", "a workout in the notation: '\(text)'")])
    }
  }
}
