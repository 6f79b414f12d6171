// SPDX-License-Identifier: MIT
// One clock's readings at one instant: how a linked clock turns the wall-clock instants of the
// link into its own engine's instants and back.

import WorkoutCore

/// A clock's engine instant and wall-clock time read at one instant, and its `--speed`.
///
/// The engine instant is the daemon's monotonic reading as its `TimeBase` gives it to the
/// engine (scaled N times under `--speed N`); the wall clock is `CLOCK_REALTIME` in 64-bit
/// nanoseconds since 1970 (good until the year 2262; never 32 bits, never a count since some
/// boot or some mesh start, which wraps or means nothing to another clock). Engine time runs
/// `speed` times faster than wall time.
public struct ClockReading: Sendable, Hashable {
  public var engineInstant: EngineInstant
  public var wallNanoseconds: Int64
  public var speed: Int64

  /// `speed` must be one of ``LinkLimits/speeds`` (the daemon's own `--speed` range).
  public init(engineInstant: EngineInstant, wallNanoseconds: Int64, speed: Int64 = 1) {
    precondition(LinkLimits.speeds.contains(speed), "a speed of \(speed)")
    self.engineInstant = engineInstant
    self.wallNanoseconds = wallNanoseconds
    self.speed = speed
  }

  /// The engine instant at wall-clock instant `wall` (before or after the reading), or nil when
  /// it does not fit in 64 bits: `wall` may come from the network.
  public func engineInstant(atWall wall: Int64) -> EngineInstant? {
    let (gap, gapOverflow) = wall.subtractingReportingOverflow(wallNanoseconds)
    let (scaled, scaledOverflow) = gap.multipliedReportingOverflow(by: speed)
    let (instant, overflow) = engineInstant.nanoseconds.addingReportingOverflow(scaled)
    guard !gapOverflow, !scaledOverflow, !overflow else { return nil }
    return EngineInstant(nanoseconds: instant)
  }

  /// The wall-clock instant at engine instant `instant`, rounded toward the reading under
  /// `--speed` (a wall nanosecond is `speed` engine nanoseconds), or nil when it does not fit.
  public func wallNanoseconds(atEngine instant: EngineInstant) -> Int64? {
    let (gap, gapOverflow) = instant.nanoseconds.subtractingReportingOverflow(
      engineInstant.nanoseconds)
    let (wall, overflow) = wallNanoseconds.addingReportingOverflow(gap / speed)
    guard !gapOverflow, !overflow else { return nil }
    return wall
  }
}

/// The bounds of what the link accepts from the network.
public enum LinkLimits {
  /// The speeds a clock runs at: the daemon's `--speed` range.
  public static let speeds: ClosedRange<Int64> = 1...1000
  /// The wall-clock instants a message may carry: from 1970 on, as far as 64-bit nanoseconds
  /// go (2262). An instant before 1970 comes from a clock that was never set.
  public static let wallNanoseconds: ClosedRange<Int64> = 0...Int64.max
}

/// Why a message of the link cannot be used: said in a log line as it is.
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
