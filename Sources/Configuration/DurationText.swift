// SPDX-License-Identifier: MIT
// Durations written back the way a gym owner writes them, so messages and --print-config use the
// config's own syntax rather than the engine's `0:20` display form.

import WorkoutCore

/// Formats lengths of time in the config's unit syntax.
public enum DurationText {
  /// `20s`, `90s`, `1m`, `2m30s`, `2h`, `500ms`, `1s500ms`, `0s`: whole minutes in minutes,
  /// other lengths under 100 seconds in seconds (as coaches say "90 seconds"), the rest in units
  /// from hours down to milliseconds, each at most once, so `ValueSyntax.duration` reads it back
  /// to the same value. Below a millisecond is dropped (the config cannot express it).
  public static func format(_ span: TimeSpan) -> String {
    let negative = span.nanoseconds < 0
    var milliseconds = (negative ? -span.nanoseconds : span.nanoseconds) / 1_000_000
    if milliseconds == 0 { return "0s" }
    var text = negative ? "-" : ""
    if milliseconds % 1000 == 0, milliseconds < 100_000, milliseconds % 60_000 != 0 {
      return text + "\(milliseconds / 1000)s"
    }
    let units: [(name: String, size: Int64)] = [("h", 3_600_000), ("m", 60_000), ("s", 1000)]
    for unit in units where milliseconds >= unit.size {
      text += "\(milliseconds / unit.size)\(unit.name)"
      milliseconds %= unit.size
    }
    if milliseconds > 0 { text += "\(milliseconds)ms" }
    return text
  }
}
