// SPDX-License-Identifier: MIT
// What a heat puts on an LED matrix. During its call-up: `HEAT 3` on the word's line, the
// countdown to its start where the digits are, and the lanes' athletes under them (`1 ANNA`).
// While it runs and after: the lanes that finished under the clock (`L3 7:42`), by place. What
// is too much for the line is shown in turns, a few seconds each, by the monotonic clock: the
// same instant always shows the same turn, so a preview and a test see what the wall sees.

public import DisplayKit

/// The heat's part of a matrix picture at one instant.
public struct HeatLines: Sendable, Equatable {
  /// The word's line during a call-up (`HEAT 3`); nil while the heat runs or is over.
  public var title: String?
  /// The whole seconds to the start during a call-up (`1:42`), for the big digits.
  public var countdown: String?
  /// What the line under the digits lists, in order: the lanes' athletes during a call-up,
  /// the finished lanes' results after.
  public var items: [String]

  /// How long each turn of a line too long for the panel stands.
  public static let turnMilliseconds: Int64 = 3_000

  /// What `board` shows at monotonic `milliseconds`, or nil when it shows nothing (a heat
  /// under way with no lane finished yet: the workout's own picture stands).
  public init?(_ board: LaneBoard, milliseconds: Int64) {
    switch board.phase {
    case .callUp:
      title = board.heat.map { "HEAT \($0)" } ?? "HEAT"
      countdown = board.startsAt.map {
        TimeText.format(seconds: Self.secondsLeft(until: $0 / 1_000_000, at: milliseconds))
      }
      items = board.lanes.map {
        $0.athlete.isEmpty ? "LANE \($0.lane)" : "\($0.lane) \($0.athlete)"
      }
    case .running, .done:
      items = board.finished.compactMap(\.shortText)
      guard !items.isEmpty else { return nil }
    }
  }

  /// The whole seconds left until `start` (both monotonic milliseconds), rounded up: `0:01`
  /// shows during the last second, `0:00` from the start on.
  public static func secondsLeft(until start: Int64, at milliseconds: Int64) -> Int64 {
    let left = start &- milliseconds
    return left <= 0 ? 0 : (left - 1) / 1_000 + 1
  }

  /// The next monotonic millisecond after `milliseconds` at which the countdown shows another
  /// second, or nil when it shows none or has reached the start.
  public static func nextCountdownChange(_ board: LaneBoard, after milliseconds: Int64) -> Int64? {
    guard board.phase == .callUp, let starts = board.startsAt.map({ $0 / 1_000_000 }) else {
      return nil
    }
    let left = secondsLeft(until: starts, at: milliseconds)
    guard left > 0 else { return nil }
    return starts - (left - 1) * 1_000
  }

  /// The turns of `items` on a line `width` pixels wide in `font`: as many items in each as
  /// fit, two spaces apart; an item wider than the line alone is cut to it.
  public static func turns(_ items: [String], width: Int, font: CaptionFont) -> [String] {
    var turns: [String] = []
    var current = ""
    for item in items {
      var item = item
      while !item.isEmpty && font.width(of: item) > width { item.removeLast() }
      guard !item.isEmpty else { continue }
      let joined = current.isEmpty ? item : current + "  " + item
      if font.width(of: joined) <= width {
        current = joined
      } else {
        turns.append(current)
        current = item
      }
    }
    if !current.isEmpty { turns.append(current) }
    return turns
  }

  /// The turn shown at monotonic `milliseconds` of `count` turns.
  static func turn(of count: Int, at milliseconds: Int64) -> Int {
    guard count > 1 else { return 0 }
    let step = steps(milliseconds)
    return Int(((step % Int64(count)) + Int64(count)) % Int64(count))
  }

  /// The next monotonic millisecond after `milliseconds` at which another turn shows.
  static func nextTurn(after milliseconds: Int64) -> Int64 {
    (steps(milliseconds) + 1) * turnMilliseconds
  }

  /// The turns begun by `milliseconds` since the clock's zero (rounded down, also before it).
  private static func steps(_ milliseconds: Int64) -> Int64 {
    let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: turnMilliseconds)
    return remainder < 0 ? quotient - 1 : quotient
  }
}
