// SPDX-License-Identifier: MIT
// Loads at the wall in the daemon: a keypad's keys reach the `WallLoading`, which says what
// each does; the displays show what is composed or the question before a replace, and a load
// is carried out as the socket's would be (see WallLoading for the rules).

import ButtonKit
import ConfigFormat
import Configuration
import ControlProtocol
import WorkoutCore
import WorkoutNotation

extension Daemon {
  /// A composer key from an input.
  func compose(_ key: ComposerKey, otherwise: InputEvent?, at now: Int64) {
    let outcome = wallLoading.press(
      key, hasOtherMeaning: otherwise != nil, presets: keypadList, at: now)
    switch outcome {
    case .otherMeaning:
      if let otherwise { handle([otherwise], at: now) }
      return
    case .show(let words):
      frames.show(words, at: now)
    case .loadPreset(let name) where configuration.preset(named: name) != nil:
      loadAtTheWall(.preset(name), composed: true, at: now)
    case .loadPreset(let name):
      // One of the gym's own workouts, numbered after the presets: read by name.
      switch writtenWorkout(name) {
      case .success(let plan): loadAtTheWall(.workout(plan), composed: true, at: now)
      case .failure: frames.show("cannot run that", at: now)
      }
    case .loadWorkout(let composed):
      // Read by the notation, so a workout keyed at the wall is the one the same words give
      // everywhere else (its name, its count-in, `again`).
      switch writtenWorkout(composed) {
      case .success(let plan):
        loadAtTheWall(.workout(plan), composed: true, at: now)
      case .failure(let error):
        frames.show("cannot run that", at: now)
        logger.error(
          "a composed workout is not read by the notation",
          [("workout", composed), ("error", error.description)])
      }
    }
    showWallLoading()
    publish(cues: [], at: now, force: true)
  }

  /// What a lone number and the confirm key load, by its number: the presets in the config's
  /// order, then the workouts known by name (the gym's own from the `workouts:` file, then the
  /// benchmark workouts, in the order `wodclockctl presets` lists them as `library`), so a
  /// keypad reaches them as well.
  var keypadList: [String] {
    configuration.presets.map(\.name) + configuration.workouts.workouts.map(\.name)
  }

  /// A load asked for at the wall (a key, a button, a composition). Over a running or paused
  /// workout only a second press within ``ReplaceConfirmation/window`` carries it out; the
  /// first says so.
  func loadAtTheWall(_ request: LoadRequest, composed: Bool = false, at now: Int64) {
    // The loop advanced the engine at its last deadline, so a workout that ended is seen ended.
    let outcome = wallLoading.load(
      request, overWorkoutUnderWay: host.isActive, composed: composed, at: now)
    switch outcome {
    case .askAgain:
      logger.info("load waits for a second press", [("preset", host.preset.name)])
      frames.show(WallLoading.pressAgainMessage, at: now)
      showWallLoading()
      publish(cues: [], at: now, force: true)
    case .carryOut:
      if frames.message?.text == WallLoading.pressAgainMessage { frames.show(nil, at: now) }
      if let failure = load(resolved: request, replacing: true, start: false, at: now) {
        frames.show("cannot load that", at: now)
        logger.info("load at the wall failed", [("reason", failure.message)])
      }
    }
  }

  /// Drops a first press whose second did not come in time, and its words, and a composition
  /// left unfinished.
  func expireWallLoading(at now: Int64) {
    let expired = wallLoading.expire(at: now)
    guard !expired.isEmpty else { return }
    if expired.contains(.question), frames.message?.text == WallLoading.pressAgainMessage {
      frames.show(nil, at: now)
    }
    showWallLoading()
  }

  /// Puts what the wall is loading over the workout on the displays.
  func showWallLoading() {
    frames.overlay = wallLoading.overlay(message: frames.message?.text)
  }
}
