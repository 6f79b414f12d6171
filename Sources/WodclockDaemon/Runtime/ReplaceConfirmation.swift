// SPDX-License-Identifier: MIT
// A running workout is never replaced by one keystroke: a load over a count-in, a running or a
// paused workout waits for a second press of the same key within a few seconds, and the
// displays say so. The command socket answers such a load `busy` unless it says `replace`.

import Configuration
import ControlProtocol
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

extension Daemon {
  /// The displays' words while a load waits for its second press.
  static let pressAgainMessage = "press again to replace"

  /// The socket's answer to a load over a running or paused workout without `replace`.
  func busyFailure(at now: Int64) -> CommandFailure {
    let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
    let state = snapshot.runState == .paused ? "is paused" : "is running"
    return CommandFailure(
      CommandProtocol.busyCode,
      "'\(host.preset.name)' \(state); send \"replace\": true to abandon it "
        + "(wodclockctl load, run or again with --replace)")
  }

  /// A load asked for at the wall (a key, a button). Over a running or paused workout only a
  /// second press within ``ReplaceConfirmation/window`` carries it out; the first says so.
  /// Returns whether it was carried out (or failed), not waiting.
  @discardableResult
  func loadAtTheWall(_ request: LoadRequest, at now: Int64) -> Bool {
    // The loop advanced the engine at its last deadline, so a workout that ended is seen ended.
    if host.isActive && !replaceConfirmation.confirms(request, at: now) {
      logger.info("load waits for a second press", [("preset", host.preset.name)])
      frames.show(Self.pressAgainMessage, at: now)
      showComposition()
      publish(cues: [], at: now, force: true)
      return false
    }
    replaceConfirmation.clear()
    if frames.message?.text == Self.pressAgainMessage { frames.show(nil, at: now) }
    if let failure = load(resolved: request, replacing: true, start: false, at: now) {
      frames.show("cannot load that", at: now)
      logger.info("load at the wall failed", [("reason", failure.message)])
    }
    return true
  }

  /// Drops a first press whose second did not come in time, and its words.
  func expireReplaceConfirmation(at now: Int64) {
    guard replaceConfirmation.expire(at: now) else { return }
    if frames.message?.text == Self.pressAgainMessage { frames.show(nil, at: now) }
    showComposition()
  }
}
