// SPDX-License-Identifier: MIT
// The events a subscriber gets (`subscribe`, `wodclockctl watch`): every cue, and the status
// when something a person would see has changed, not on every wake-up.

import ControlProtocol
import JSONKit
import WorkoutCore

/// Turns what the daemon publishes into the subscribers' event lines.
struct SubscriberFeed {
  /// Continuous figures: they change on every wake-up (elapsed to the nanosecond), so they do
  /// not make a status event by themselves.
  private static let continuousKeys = [
    "elapsed_s", "remaining_s", "segment_remaining_s", "time_under_tension_s",
  ]
  /// The status last sent.
  private var lastStatus: JSONObject?

  /// The events for `cues` and `status`: one per cue, and a status event when the status
  /// differs from the last one sent in more than its continuous figures, or when `force`d.
  /// A cue says when it was due (`due_ms`, the daemon's monotonic clock in milliseconds, as the
  /// web page's cue events do): a program on the same machine compares it with what it heard
  /// or saw, whatever the delay of the socket.
  mutating func events(cues: [FrameCue], status: JSONValue, force: Bool) -> [JSONValue] {
    var events = cues.map { cue in
      CommandProtocol.event(
        "cue",
        [
          ("cue", CommandProtocol.cue(cue.kind)),
          ("due_ms", .double(CommandProtocol.milliseconds(ofMonotonic: cue.due))),
        ])
    }
    let object = status.objectValue ?? JSONObject()
    if force || !Self.looksTheSame(object, as: lastStatus) {
      lastStatus = object
      events.append(CommandProtocol.event("status", [("status", status)]))
    }
    return events
  }

  /// Whether `status` differs from `last` in its continuous figures only. Compared member by
  /// member where they stand, without a copy that leaves those figures out: this runs on every
  /// wake-up while someone watches, and a copy with four members removed cost more than the
  /// rest of the wake-up (each removal re-indexed the object's keys).
  private static func looksTheSame(_ status: JSONObject, as last: JSONObject?) -> Bool {
    guard let last, last.count == status.count else { return false }
    for (position, key) in status.keys.enumerated() where !continuousKeys.contains(key) {
      // Built by the same code, the members are in the same order: a different order is a
      // different status, which at worst sends one event more.
      guard last.keys[position] == key, last.values[position] == status.values[position] else {
        return false
      }
    }
    return true
  }
}
