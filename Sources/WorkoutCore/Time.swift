// SPDX-License-Identifier: MIT
// Time values of the engine. The engine never reads a clock: every instant is given to it.

/// A point on the monotonic clock, in nanoseconds since an arbitrary origin (for example the
/// daemon's CLOCK_MONOTONIC). Monotonic instants are immune to NTP steps; wall-clock time is a
/// separate input the engine never sees.
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

  /// Converts a standard-library `Duration`, truncating below a nanosecond.
  public init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self.nanoseconds = seconds * Self.nanosecondsPerSecond + attoseconds / 1_000_000_000
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

  /// `1:30`, `0:05.5`, `1:02:03`: how a person reads a length of time.
  public var description: String {
    let negative = nanoseconds < 0
    let magnitude = negative ? -nanoseconds : nanoseconds
    let totalSeconds = magnitude / Self.nanosecondsPerSecond
    let fraction = magnitude % Self.nanosecondsPerSecond
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
