// SPDX-License-Identifier: MIT
// Layout templates: which digit of a display shows what, written as a short picture of it.

/// A display's digits and what each one shows, read from a template such as `RR MM:SS`.
///
/// Template characters:
/// - `R`: one digit of the counter field (rounds, laps, reps; see `SegmentRenderer`).
/// - `H`, `M`, `S`: one digit of the time field, grouped by unit (hours, minutes, seconds).
/// - `_`: a digit that stays blank (an unused digit of an 8-digit module).
/// - `:`: a colon after the digit before it; `.`: a decimal point after the digit before it
///   that is always lit. Neither takes a digit.
/// - space: only separates; it takes no digit.
///
/// Rules: at most one counter field and one time field, each one run of digits; time units run
/// from coarse to fine (H before M before S) without skipping one; a unit below another has
/// exactly two digits.
public struct SegmentLayout: Hashable, Sendable, CustomStringConvertible {
  /// A unit of the time field.
  public enum TimeUnit: Int, Hashable, Sendable, Comparable {
    case second = 1
    case minute = 60
    case hour = 3600

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// How many of the next finer unit make one of this (60), or nil for seconds.
    var coarser: TimeUnit? {
      switch self {
      case .second: .minute
      case .minute: .hour
      case .hour: nil
      }
    }
  }

  /// One unit group of the time field: its unit and the digit positions it covers.
  public struct TimeGroup: Hashable, Sendable {
    public var unit: TimeUnit
    public var positions: Range<Int>
  }

  /// The template as written.
  public let template: String
  /// How many digits the display has.
  public let digitCount: Int
  /// The counter field's digit positions, if any.
  public let counter: Range<Int>?
  /// The time field's unit groups, coarsest first (empty when there is no time field).
  public let timeGroups: [TimeGroup]
  /// Positions followed by a colon (the colon is drawn per the driver, usually as that digit's
  /// decimal point).
  public let colonsAfter: [Int]
  /// Positions whose decimal point is always lit.
  public let dotsAfter: [Int]

  /// The time field's positions.
  public var time: Range<Int>? {
    guard let first = timeGroups.first, let last = timeGroups.last else { return nil }
    return first.positions.lowerBound..<last.positions.upperBound
  }

  public var description: String { template }

  /// Reads a template.
  public init(parsing template: String) throws(SegmentLayoutError) {
    self.template = template
    var classes: [Character] = []  // per digit position: R, H, M, S or _
    var colons: [Int] = []
    var dots: [Int] = []
    for (index, character) in template.enumerated() {
      switch character {
      case "R", "H", "M", "S", "_":
        classes.append(character)
      case ":", ".":
        guard !classes.isEmpty else {
          throw SegmentLayoutError(
            template: template, reason: "'\(character)' at position \(index + 1) follows no digit")
        }
        if character == ":" {
          colons.append(classes.count - 1)
        } else {
          dots.append(classes.count - 1)
        }
      case " ":
        break
      default:
        throw SegmentLayoutError(
          template: template,
          reason:
            "'\(character)' at position \(index + 1) is not a digit letter (R, H, M, S, _), ':', '.' or a space"
        )
      }
    }
    guard !classes.isEmpty else {
      throw SegmentLayoutError(template: template, reason: "it has no digits")
    }
    guard classes.count <= 64 else {
      throw SegmentLayoutError(template: template, reason: "it has more than 64 digits")
    }
    if Set(colons).count != colons.count || Set(dots).count != dots.count {
      throw SegmentLayoutError(
        template: template, reason: "a digit is followed by two colons or two dots")
    }

    func runs(_ matching: (Character) -> Bool) -> [Range<Int>] {
      var result: [Range<Int>] = []
      var start: Int?
      for index in 0...classes.count {
        let inside = index < classes.count && matching(classes[index])
        if inside, start == nil { start = index }
        if !inside, let begin = start {
          result.append(begin..<index)
          start = nil
        }
      }
      return result
    }
    let counterRuns = runs { $0 == "R" }
    let timeRuns = runs { $0 == "H" || $0 == "M" || $0 == "S" }
    guard counterRuns.count <= 1 else {
      throw SegmentLayoutError(template: template, reason: "the counter digits (R) must be one run")
    }
    guard timeRuns.count <= 1 else {
      throw SegmentLayoutError(
        template: template, reason: "the time digits (H, M, S) must be one run")
    }
    var groups: [TimeGroup] = []
    if let run = timeRuns.first {
      for index in run {
        let unit: TimeUnit =
          switch classes[index] {
          case "H": .hour
          case "M": .minute
          default: .second
          }
        if let last = groups.last, last.unit == unit {
          groups[groups.count - 1].positions = last.positions.lowerBound..<(index + 1)
        } else {
          if let last = groups.last {
            guard last.unit > unit else {
              throw SegmentLayoutError(
                template: template, reason: "time units must run from H to M to S")
            }
            guard last.unit.rawValue == unit.rawValue * 60 else {
              throw SegmentLayoutError(
                template: template,
                reason:
                  "a time unit is missing between \(Self.letter(last.unit)) and \(Self.letter(unit))"
              )
            }
          }
          groups.append(TimeGroup(unit: unit, positions: index..<(index + 1)))
        }
      }
      for group in groups.dropFirst() where group.positions.count != 2 {
        throw SegmentLayoutError(
          template: template,
          reason: "\(Self.letter(group.unit)) below another unit needs exactly two digits")
      }
    }
    digitCount = classes.count
    counter = counterRuns.first
    timeGroups = groups
    colonsAfter = colons
    dotsAfter = dots
  }

  static func letter(_ unit: TimeUnit) -> String {
    switch unit {
    case .hour: "H"
    case .minute: "M"
    case .second: "S"
    }
  }
}

/// A layout template that cannot be used, with the reason.
public struct SegmentLayoutError: Error, Equatable, CustomStringConvertible {
  public var template: String
  public var reason: String
  public init(template: String, reason: String) {
    self.template = template
    self.reason = reason
  }
  public var description: String { "layout '\(template)': \(reason)" }
}
