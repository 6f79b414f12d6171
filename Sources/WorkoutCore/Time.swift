// SPDX-License-Identifier: MIT
// Time values of the engine. The engine never reads a clock: every instant is given to it.

/// A point in engine time, in nanoseconds since an arbitrary origin: the monotonic clock as the
/// engine is given it (the daemon's CLOCK_MONOTONIC, scaled N times under `--speed`), so immune
/// to NTP steps; wall-clock time is a separate input the engine never sees. Its own type, so an
/// engine instant is never taken for a real one by mistake (the daemon's TimeBase converts).
public struct EngineInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public var nanoseconds: Int64

  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
  public static func + (lhs: Self, rhs: TimeSpan) -> Self {
    Self(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
  }
  public static func - (lhs: Self, rhs: TimeSpan) -> Self {
    Self(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
  }
  public static func - (lhs: Self, rhs: Self) -> TimeSpan {
    TimeSpan(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
  }

  public var description: String { "@\(TimeSpan(nanoseconds: nanoseconds))" }
}

/// A length of time in nanoseconds. Int64 nanoseconds cover ±292 years exactly, so sums of
/// segment lengths never round: the engine's arithmetic is exact, which is what makes
/// "zero drift over 24 hours" a property rather than a hope.
public struct TimeSpan: Sendable, Hashable, Comparable, Codable, AdditiveArithmetic,
  CustomStringConvertible
{
  public var nanoseconds: Int64

  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  public static let zero = TimeSpan(nanoseconds: 0)
  public static let nanosecondsPerSecond: Int64 = 1_000_000_000

  public static func seconds(_ value: Int64) -> Self {
    Self(nanoseconds: value * nanosecondsPerSecond)
  }
  public static func milliseconds(_ value: Int64) -> Self { Self(nanoseconds: value * 1_000_000) }
  public static func minutes(_ value: Int64) -> Self { .seconds(value * 60) }
  public static func hours(_ value: Int64) -> Self { .seconds(value * 3600) }
  /// Half-second steps, the unit of tempo phases.
  public static func halfSeconds(_ value: Int) -> Self {
    Self(nanoseconds: Int64(value) * nanosecondsPerSecond / 2)
  }

  /// Converts a standard-library `Duration`, truncating below a nanosecond. The duration must
  /// fit (±292 years); use ``init(exactly:)`` for one that comes from outside.
  public init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self.nanoseconds = seconds * Self.nanosecondsPerSecond + attoseconds / 1_000_000_000
  }

  /// Converts a standard-library `Duration`, truncating below a nanosecond, or returns nil when
  /// it does not fit in 64-bit nanoseconds.
  public init?(exactly duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: Self.nanosecondsPerSecond)
    guard !overflow else { return nil }
    let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !sumOverflow else { return nil }
    self.nanoseconds = sum
  }

  public var seconds: Double { Double(nanoseconds) / Double(Self.nanosecondsPerSecond) }

  /// Whole seconds rounded down (count-up displays show the floor of the elapsed seconds).
  public var flooredSeconds: Int64 { floorDivide(nanoseconds, Self.nanosecondsPerSecond) }
  /// Whole seconds rounded up (count-down displays show the ceiling of the remaining seconds).
  public var ceiledSeconds: Int64 { -floorDivide(-nanoseconds, Self.nanosecondsPerSecond) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
  }
  public static func - (lhs: Self, rhs: Self) -> Self {
    Self(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
  }
  public static func * (lhs: Self, rhs: Int64) -> Self {
    Self(nanoseconds: lhs.nanoseconds * rhs)
  }

  /// The longest span there is; saturating sums stop here instead of overflowing.
  public static let saturated = TimeSpan(nanoseconds: .max)

  /// The sum, or ``saturated`` when it does not fit: for adding up lengths that come from
  /// outside before they are checked. Negative lengths (which validation refuses) count as zero.
  public func saturatingAdd(_ other: TimeSpan) -> TimeSpan {
    let (sum, overflow) = max(nanoseconds, 0).addingReportingOverflow(max(other.nanoseconds, 0))
    return overflow ? .saturated : TimeSpan(nanoseconds: sum)
  }

  /// The product with a count, or ``saturated`` when it does not fit; a negative length or count
  /// gives zero.
  public func saturatingMultiply(_ count: Int) -> TimeSpan {
    guard nanoseconds > 0, count > 0 else { return .zero }
    let (product, overflow) = nanoseconds.multipliedReportingOverflow(by: Int64(count))
    return overflow ? .saturated : TimeSpan(nanoseconds: product)
  }

  /// `1:30`, `0:05.5`, `1:02:03`: how a person reads a length of time.
  public var description: String {
    let negative = nanoseconds < 0
    // The magnitude as unsigned: -Int64.min does not fit in Int64.
    let magnitude = nanoseconds.magnitude
    let perSecond = UInt64(Self.nanosecondsPerSecond)
    let totalSeconds = Int64(magnitude / perSecond)
    let fraction = Int64(magnitude % perSecond)
    let hours = totalSeconds / 3600
    let minutes = (totalSeconds / 60) % 60
    let seconds = totalSeconds % 60
    var text = negative ? "-" : ""
    if hours > 0 {
      text += "\(hours):" + twoDigits(minutes) + ":" + twoDigits(seconds)
    } else {
      text += "\(minutes):" + twoDigits(seconds)
    }
    if fraction != 0 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: 9 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text
  }
}

private func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

/// Division that rounds toward negative infinity (Swift's `/` truncates toward zero).
@inline(__always)
func floorDivide(_ numerator: Int64, _ denominator: Int64) -> Int64 {
  let quotient = numerator / denominator
  return (numerator % denominator != 0 && (numerator < 0) != (denominator < 0))
    ? quotient - 1 : quotient
}

extension Int {
  /// The product, or `Int.max` when it does not fit; a negative factor gives zero. For counts
  /// (rounds × sets) that come from outside.
  func saturatingMultiply(_ other: Int) -> Int {
    guard self > 0, other > 0 else { return 0 }
    let (product, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? .max : product
  }

  /// The sum of two counts, or `Int.max` when it does not fit; negative counts count as zero.
  func saturatingAdd(_ other: Int) -> Int {
    let (sum, overflow) = Swift.max(self, 0).addingReportingOverflow(Swift.max(other, 0))
    return overflow ? .max : sum
  }
}
