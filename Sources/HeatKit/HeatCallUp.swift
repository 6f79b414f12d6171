// SPDX-License-Identifier: MIT
// The call-up of a heat: what the wall shows and the speaker says before the start.

/// The text that calls a heat's athletes to their lanes.
public enum HeatCallUp {
  /// `["Heat 3", "1 Anna", "2 Ben"]`: a heading, then one line per lane in lane order.
  public static func lines(heat: Int, entries: [HeatEntry]) -> [String] {
    ["Heat \(heat)"] + byLane(entries).map { "\($0.lane) \($0.athlete)" }
  }

  /// `Heat 3. Lane 1, Anna. Lane 2, Ben.`: numbers as digits, which the speaker says as words.
  public static func spoken(heat: Int, entries: [HeatEntry]) -> String {
    (["Heat \(heat)."] + byLane(entries).map { "Lane \($0.lane), \($0.athlete)." })
      .joined(separator: " ")
  }

  /// A lane's finish as the speaker says it, in words a speech synthesizer reads as a person
  /// would: `Lane 3, 7:42` ("seven forty-two"), `Lane 3, 7 oh 5` (a synthesizer reads `7:05`
  /// as "seven zero five"), `Lane 3, 7 minutes`, `Lane 3, 42 seconds` (`0:42` would be "zero
  /// forty-two"), `Lane 3, 1 hour 2 minutes 5 seconds`. Whole seconds: the tenth is for the
  /// board, not the ear.
  public static func spokenFinish(lane: Int, milliseconds: Int64) -> String {
    let total = max(milliseconds, 0) / 1_000
    let (hours, minutes, seconds) = (total / 3_600, total / 60 % 60, total % 60)
    func count(_ value: Int64, _ unit: String) -> String {
      "\(value) \(unit)" + (value == 1 ? "" : "s")
    }
    let time: String
    if hours > 0 {
      time = [count(hours, "hour"), count(minutes, "minute"), count(seconds, "second")]
        .joined(separator: " ")
    } else if minutes == 0 {
      time = count(seconds, "second")
    } else if seconds == 0 {
      time = count(minutes, "minute")
    } else if seconds < 10 {
      time = "\(minutes) oh \(seconds)"
    } else {
      time = "\(minutes):\(seconds)"
    }
    return "Lane \(lane), \(time)"
  }

  private static func byLane(_ entries: [HeatEntry]) -> [HeatEntry] {
    entries.sorted { $0.lane < $1.lane }
  }
}
