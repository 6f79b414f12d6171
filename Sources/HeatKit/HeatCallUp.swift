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

  private static func byLane(_ entries: [HeatEntry]) -> [HeatEntry] {
    entries.sorted { $0.lane < $1.lane }
  }
}
