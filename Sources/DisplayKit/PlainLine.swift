// SPDX-License-Identifier: MIT
// One line of text for logs and pipes, when stdout is not a terminal.

import WorkoutCore

/// A single-line rendering: `12:34 WORK R 3/10 burpees`.
public enum PlainLine: Sendable {
  /// The time, the phase word, the counters, the tempo and the label, separated by spaces.
  /// Only whole-second and state changes alter it, so a caller that prints it when it changes
  /// prints at most once a second. The clock mode gives the time of day (pass `timeOfDay`;
  /// without it the line is just the mode title) — a line a minute, or a second with seconds.
  public static func render(
    _ snapshot: WorkoutSnapshot, words: DisplayWords = .english, timeOfDay: TimeOfDay? = nil
  ) -> String {
    var parts: [String] = []
    if snapshot.mode == .clock {
      guard let time = timeOfDay else { return words.title(of: .clock) }
      let face = snapshot.clockFace ?? ClockFace()
      parts.append(
        TimeText.clock(hour: time.hour, minute: time.minute, second: time.second, face: face))
    } else {
      if let display = snapshot.display { parts.append(TimeText.format(display)) }
      parts.append(words.word(for: snapshot))
      parts.append(contentsOf: TimeText.roundParts(snapshot, words: words))
      if let tempo = snapshot.tempo {
        parts.append(TimeText.tempo(tempo))
      }
    }
    if let label = snapshot.label, !label.isEmpty { parts.append(label) }
    return Cells.sanitized(parts.joined(separator: " "))
  }
}
