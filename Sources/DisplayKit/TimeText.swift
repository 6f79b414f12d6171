// SPDX-License-Identifier: MIT
// How times and counters read on a display.

import WorkoutCore

/// Text for the big digits, the time of day and the round/set/rep line.
public enum TimeText: Sendable {
  /// `0:00`, `9:59`, `59:59` under an hour (minutes without a leading zero), `1:00:00` from an
  /// hour. A negative value (never produced by the engine) gets a leading minus.
  public static func format(_ display: DisplayTime) -> String { format(seconds: display.seconds) }

  /// ``format(_:)`` for a plain number of seconds.
  public static func format(seconds value: Int64) -> String {
    let sign = value < 0 ? "-" : ""
    let magnitude = value.magnitude
    let hours = magnitude / 3600
    let minutes = magnitude / 60 % 60
    let seconds = magnitude % 60
    if hours > 0 { return sign + "\(hours):" + twoDigits(minutes) + ":" + twoDigits(seconds) }
    return sign + "\(minutes):" + twoDigits(seconds)
  }

  /// The time of day as a clock face shows it: `21:05`, `09:05:30` on 24 hours; `9:05 PM`,
  /// `12:00 AM` (midnight), `9:05:30 AM` on 12 hours. Out-of-range parts wrap.
  public static func clock(hour: Int, minute: Int, second: Int, face: ClockFace) -> String {
    let digits = clockDigits(hour: hour, minute: minute, second: second, face: face)
    guard let suffix = meridiem(hour: hour, face: face) else { return digits }
    return digits + " " + suffix
  }

  /// The digits of ``clock(hour:minute:second:face:)`` without the AM/PM suffix, for big fonts.
  public static func clockDigits(hour: Int, minute: Int, second: Int, face: ClockFace) -> String {
    let hour24 = wrap(hour, 24)
    var text: String
    if face.twentyFourHour {
      text = twoDigits(UInt64(hour24))
    } else {
      let hour12 = hour24 % 12 == 0 ? 12 : hour24 % 12
      text = "\(hour12)"
    }
    text += ":" + twoDigits(UInt64(wrap(minute, 60)))
    if face.showSeconds { text += ":" + twoDigits(UInt64(wrap(second, 60))) }
    return text
  }

  /// `AM` or `PM` on a 12-hour face, nil on a 24-hour one.
  public static func meridiem(hour: Int, face: ClockFace) -> String? {
    face.twentyFourHour ? nil : (wrap(hour, 24) < 12 ? "AM" : "PM")
  }

  /// The compact counter line: `R 3/10`, `SET 2/5 · REP 4/8 · LEFT`, `R 4/10 · ×4`.
  /// Empty when there is nothing to count. The round word is shortened to its initial because
  /// rounds are on every interval display and space is scarce.
  public static func rounds(_ snapshot: WorkoutSnapshot, words: DisplayWords) -> String {
    roundParts(snapshot, words: words).joined(separator: " · ")
  }

  /// The parts of ``rounds(_:words:)``, for renderers that lay them out themselves: the one
  /// rule of every display that writes words, so the terminal, the log line and the matrix
  /// show the same score.
  public static func roundParts(_ snapshot: WorkoutSnapshot, words: DisplayWords) -> [String] {
    var parts: [String] = []
    if let round = snapshot.round {
      if isLapTally(snapshot) {
        // An AMRAP's score: the rounds done (`LAP 5` after five laps), not the round under way.
        parts.append("\(words[.lap]) \(round.index)")
      } else {
        let initial = words[.round].first.map(String.init) ?? "R"
        parts.append("\(initial) \(round)")
      }
    }
    if let set = snapshot.set { parts.append("\(words[.set]) \(set)") }
    if let rep = snapshot.rep { parts.append("\(words[.rep]) \(rep)") }
    // A rep target repeats the rep counter's count in tempo sets; show it only when it adds news
    // (ladders, sequence steps with a rep goal).
    if let target = snapshot.targetReps, snapshot.rep?.count != target {
      parts.append("×\(target)")
    }
    if let side = snapshot.side { parts.append(words[side == .left ? .left : .right]) }
    return parts
  }

  /// Whether the snapshot's round is the lap tally (the rounds done in an AMRAP, or in a For
  /// Time without a rounds target) rather than the round under way.
  public static func isLapTally(_ snapshot: WorkoutSnapshot) -> Bool {
    (snapshot.mode == .amrap || snapshot.mode == .forTime) && snapshot.round?.count == nil
  }

  /// One value of a tempo as TempoRep writes it: `↓4`, `0`, `↑1.5`, `X` (an explosive
  /// concentric). Arrows follow the lift's direction, so a reversed lift swaps them.
  public static func tempoValue(_ tempo: TempoSnapshot, _ phase: TempoPhase) -> String {
    let text = tempoFigure(tempo, phase)
    let down = tempo.reverseDirection ? "↑" : "↓"
    let up = tempo.reverseDirection ? "↓" : "↑"
    switch phase {
    case .eccentric: return down + text
    case .concentric: return up + text
    case .bottomPause, .topPause: return text
    }
  }

  /// One value of a tempo without its arrow: `4`, `0`, `1.5`, `X` (an explosive concentric).
  public static func tempoFigure(_ tempo: TempoSnapshot, _ phase: TempoPhase) -> String {
    if phase == .concentric && tempo.explosiveConcentric { return "X" }
    let value = tempo.tempo.value(of: phase)
    return value % 2 == 0 ? "\(value / 2)" : "\(value / 2).5"
  }

  /// The whole tempo in written order: `↓4·0·↑1·0`.
  public static func tempo(_ tempo: TempoSnapshot) -> String {
    TempoPhase.allCases.map { tempoValue(tempo, $0) }.joined(separator: "·")
  }

  private static func wrap(_ value: Int, _ modulus: Int) -> Int {
    ((value % modulus) + modulus) % modulus
  }

  private static func twoDigits(_ value: UInt64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
