// SPDX-License-Identifier: MIT
// Loading a workout at the wall: a workout composed on a keypad, and a running workout never
// replaced by one keystroke. A load over a count-in, a running or a paused workout waits for a
// second press of the same key within a few seconds, and the displays say so; the command
// socket answers such a load `busy` unless it says `replace`.
//
// Pure: it is given each key and load and the instant it came at; it reads no clock.

import ButtonKit
import DisplayKit
import WorkoutCore

/// What a load at the wall asks for.
enum LoadRequest: Equatable, Sendable {
  /// A preset of the config, by name.
  case preset(String)
  /// A workout written in the notation or composed on a keypad, read by the notation.
  case workout(WorkoutPlan)
}

/// The first press of a load that would replace a running workout, waiting for the second.
struct ReplaceConfirmation: Sendable {
  /// How long the first press waits for the second.
  static let window: Int64 = 5_000_000_000

  private(set) var pending: (request: LoadRequest, until: Int64)?

  /// When the waiting press is forgotten.
  var deadline: Int64? { pending?.until }

  /// Whether `request` at `now` is the second press of a waiting one; if it is not, it becomes
  /// the one that waits.
  mutating func confirms(_ request: LoadRequest, at now: Int64) -> Bool {
    if let pending, pending.request == request, now <= pending.until {
      self.pending = nil
      return true
    }
    pending = (request, now + Self.window)
    return false
  }

  /// Forgets the waiting press once its time is up; returns whether it did.
  mutating func expire(at now: Int64) -> Bool {
    guard let until = pending?.until, until <= now else { return false }
    pending = nil
    return true
  }

  mutating func clear() { pending = nil }
}

/// What a keypad is composing and the load that waits for its second press: what a key or a
/// load at the wall does, what the displays show over the workout meanwhile, and when either
/// is dropped.
struct WallLoading: Sendable {
  /// The displays' words while a load waits for its second press.
  static let pressAgainMessage = "press again to replace"
  /// The caption under a composition.
  static let composingCaption = "ENTER loads"

  /// What a composer key does.
  enum KeyOutcome: Sendable, Equatable {
    /// The key is not the composer's now: its other meaning applies, if it has one.
    case otherMeaning
    /// The displays show these words under the composition (nil: none).
    case show(String?)
    /// Load the config's preset of this name (a lone number and the confirm key).
    case loadPreset(String)
    /// Load this workout, as the notation writes it.
    case loadWorkout(String)
  }

  /// What a load at the wall does.
  enum LoadOutcome: Sendable, Equatable {
    /// It is the first press over a workout under way: it waits for the second.
    case askAgain
    /// It is carried out.
    case carryOut
  }

  /// What went at an expiry.
  struct Expired: OptionSet, Sendable {
    let rawValue: Int
    /// The first press of a load, its second not come in time.
    static let question = Expired(rawValue: 1)
    /// A composition left unfinished.
    static let composition = Expired(rawValue: 2)
  }

  private(set) var composer: WorkoutComposer
  private(set) var confirmation = ReplaceConfirmation()

  init(composer: WorkoutComposer = WorkoutComposer()) {
    self.composer = composer
  }

  /// When the next of them is dropped.
  var deadline: Int64? {
    switch (composer.deadline, confirmation.deadline) {
    case (let composing?, let confirming?): min(composing, confirming)
    case (let composing, let confirming): composing ?? confirming
    }
  }

  /// A composer key at `now`; `presets` are the config's preset names, in order. A mode key
  /// that is also a workout key (next, previous: `hasOtherMeaning`) starts nothing on its own.
  mutating func press(
    _ key: ComposerKey, hasOtherMeaning: Bool, presets: [String], at now: Int64
  ) -> KeyOutcome {
    _ = composer.expire(at: now)
    if !composer.isComposing, case .mode = key, hasOtherMeaning { return .otherMeaning }
    switch composer.press(key, at: now) {
    case .notComposing:
      return .otherMeaning
    case .composing:
      return .show(nil)
    case .cancelled:
      confirmation.clear()
      return .show(nil)
    case .incomplete(let missing):
      return .show(missing)
    case .preset(let number):
      guard number <= presets.count else { return .show("no preset \(number)") }
      return .loadPreset(presets[number - 1])
    case .workout(let composed):
      return .loadWorkout(composed)
    }
  }

  /// A load at the wall at `now`, over a count-in, a running or a paused workout when
  /// `overWorkoutUnderWay`: only the second press of the same load within
  /// ``ReplaceConfirmation/window`` is carried out. One `composed` on the keypad ends its
  /// composition once it is.
  mutating func load(
    _ request: LoadRequest, overWorkoutUnderWay: Bool, composed: Bool, at now: Int64
  ) -> LoadOutcome {
    if overWorkoutUnderWay && !confirmation.confirms(request, at: now) { return .askAgain }
    confirmation.clear()
    if composed { composer.clear() }
    return .carryOut
  }

  /// Drops what has waited too long by `now`: a first press whose second did not come, and a
  /// composition left unfinished (with the question it asked).
  mutating func expire(at now: Int64) -> Expired {
    var expired: Expired = []
    if confirmation.expire(at: now) { expired.insert(.question) }
    if composer.expire(at: now) {
      // The question goes with the composition it asked about, and its words with it.
      if confirmation.pending != nil { expired.insert(.question) }
      confirmation.clear()
      expired.insert(.composition)
    }
    return expired
  }

  /// What the displays show over the workout: the question before a replace, else what is
  /// being composed (captioned by the displays' `message`, if any), else nothing.
  func overlay(message: String?) -> DisplayOverlay? {
    if confirmation.pending != nil {
      return DisplayOverlay(
        text: composer.text?.wide ?? "again?", narrow: "SurE", caption: Self.pressAgainMessage)
    }
    guard let text = composer.text else { return nil }
    return DisplayOverlay(
      text: text.wide, narrow: text.narrow, caption: message ?? Self.composingCaption)
  }
}
