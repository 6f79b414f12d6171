// SPDX-License-Identifier: MIT
// A workout composed on a keypad at the wall: its keys reach the composer, the displays show
// what is composed, and the confirm key loads it (through the replace confirmation, as a
// preset key does).

import ButtonKit
import ConfigFormat
import Configuration
import DisplayKit
import WorkoutCore
import WorkoutNotation

extension Daemon {
  /// The caption under a composition.
  static let composingCaption = "ENTER loads"

  /// A composer key from an input.
  func compose(_ key: ComposerKey, otherwise: InputEvent?, at now: Int64) {
    _ = composer.expire(at: now)
    if !composer.isComposing, case .mode = key, let otherwise {
      // A mode key that is also a workout key (next, previous) starts nothing on its own.
      handle([otherwise], at: now)
      return
    }
    let outcome = composer.press(key, at: now)
    switch outcome {
    case .notComposing:
      if let otherwise { handle([otherwise], at: now) }
      return
    case .composing, .cancelled:
      frames.show(nil, at: now)
      if outcome == .cancelled { replaceConfirmation.clear() }
    case .incomplete(let missing):
      frames.show(missing, at: now)
    case .preset(let number):
      guard number <= configuration.presets.count else {
        frames.show("no preset \(number)", at: now)
        break
      }
      if loadAtTheWall(.preset(configuration.presets[number - 1].name), at: now) {
        composer.clear()
      }
    case .workout(let composed):
      // Read by the notation, so a workout keyed at the wall is the one the same words give
      // everywhere else (its name, its count-in, `again`).
      switch writtenWorkout(composed) {
      case .success(let plan):
        if loadAtTheWall(.workout(plan), at: now) { composer.clear() }
      case .failure(let error):
        frames.show("cannot run that", at: now)
        logger.error(
          "a composed workout is not read by the notation",
          [("workout", composed), ("error", error.description)])
      }
    }
    showComposition()
    publish(cues: [], at: now, force: true)
  }

  /// What the displays show over the workout: the question before a replace, else what is
  /// being composed, else nothing.
  func showComposition() {
    let caption = frames.message?.text
    if replaceConfirmation.pending != nil {
      frames.overlay = DisplayOverlay(
        text: composer.text?.wide ?? "again?", narrow: "SurE",
        caption: Self.pressAgainMessage)
    } else if let text = composer.text {
      frames.overlay = DisplayOverlay(
        text: text.wide, narrow: text.narrow, caption: caption ?? Self.composingCaption)
    } else {
      frames.overlay = nil
    }
  }

  /// Drops a composition left unfinished.
  func expireComposition(at now: Int64) {
    guard composer.expire(at: now) else { return }
    replaceConfirmation.clear()
    showComposition()
  }
}
