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
  private var lastVisibleStatus: JSONValue?

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
    var visible = status.objectValue ?? JSONObject()
    for key in Self.continuousKeys { visible[key] = nil }
    if force || JSONValue.object(visible) != lastVisibleStatus {
      lastVisibleStatus = .object(visible)
      events.append(CommandProtocol.event("status", [("status", status)]))
    }
    return events
  }
}
