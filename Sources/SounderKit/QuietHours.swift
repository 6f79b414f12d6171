// SPDX-License-Identifier: MIT
// Times of day when a sounder stays silent (early classes, a neighbour's night).

/// Windows of the day, each `from ..< until` in minutes of the day; a window may run past
/// midnight (`22:00-06:00`).
public struct QuietHours: Sendable, Equatable {
  /// One window.
  public struct Window: Sendable, Equatable, CustomStringConvertible {
    /// Minute of the day it starts, 0 ..< 1440.
    public var from: Int
    /// Minute of the day it ends (exclusive), 0 ..< 1440.
    public var until: Int

    /// Creates a window.
    public init(from: Int, until: Int) {
      self.from = from
      self.until = until
    }

    /// Reads `HH:MM-HH:MM`, or nil.
    public init?(parsing text: String) {
      let parts = text.split(separator: "-", omittingEmptySubsequences: false)
      guard parts.count == 2, let from = Self.minute(parts[0]), let until = Self.minute(parts[1]),
        from != until
      else { return nil }
      self.init(from: from, until: until)
    }

    static func minute(_ text: Substring) -> Int? {
      let parts = text.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
        let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
        (0..<60).contains(minute)
      else { return nil }
      return hour * 60 + minute
    }

    /// Whether the window covers `minute` of the day.
    public func contains(_ minute: Int) -> Bool {
      from < until ? (from <= minute && minute < until) : (minute >= from || minute < until)
    }

    /// `22:00-06:00`.
    public var description: String {
      func text(_ minute: Int) -> String {
        let hour = minute / 60
        let rest = minute % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (rest < 10 ? "0" : "") + "\(rest)"
      }
      return "\(text(from))-\(text(until))"
    }
  }

  /// The windows.
  public var windows: [Window]

  /// Creates quiet hours.
  public init(_ windows: [Window] = []) { self.windows = windows }

  /// Whether `minute` of the day is quiet.
  public func contains(minuteOfDay minute: Int) -> Bool { windows.contains { $0.contains(minute) } }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return text
  }
}
