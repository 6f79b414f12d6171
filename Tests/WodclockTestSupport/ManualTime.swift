// SPDX-License-Identifier: MIT
// Manual time for the tests of pure code: instants from a fixed origin, in the units that read
// best, and a workout driven through the real engine at the instants a test names.

public import WorkoutCore

/// `value` milliseconds in nanoseconds.
public func ms(_ value: Int64) -> Int64 { value * 1_000_000 }

/// The origin of the tests' instants: not zero, so no test relies on time zero.
public let origin: Int64 = 7_000 * TimeSpan.nanosecondsPerSecond

/// The instant `seconds` after `origin`.
public func at(_ seconds: Double) -> EngineInstant {
  EngineInstant(nanoseconds: origin + Int64((seconds * 1e9).rounded()))
}

/// A workout driven through the real engine, at instants given in seconds after `origin`.
public struct Workout {
  /// The engine, for what the helpers below do not cover.
  public var engine: WorkoutEngine

  /// A workout of `mode` with a count-in of `countIn` seconds, not yet started.
  public init(_ mode: WorkoutMode, countIn: Int64 = 0, name: String = "test") throws {
    engine = try WorkoutEngine(
      plan: WorkoutPlan(name: name, mode: mode, countIn: .seconds(countIn)))
  }

  /// Starts it `seconds` after the origin.
  public mutating func start(at seconds: Double = 0) throws {
    _ = try engine.apply(.start, at: at(seconds))
  }

  /// Applies `action` at `seconds`, the engine first brought up to that instant.
  public mutating func apply(_ action: WorkoutAction, at seconds: Double) throws {
    _ = engine.advance(to: at(seconds))
    _ = try engine.apply(action, at: at(seconds))
  }

  /// The snapshot at `seconds`, the engine first brought up to that instant.
  public mutating func snapshot(_ seconds: Double) -> WorkoutSnapshot {
    _ = engine.advance(to: at(seconds))
    return engine.snapshot(at: at(seconds))
  }
}

/// A clock a test moves by hand, in nanoseconds: what the fake GPIO chip and the plugins under
/// test are given as their clock.
public final class ManualClock {
  /// The instant now; a test sets it or moves it on.
  public var now: Int64

  /// A clock at `now` (one second: not zero, so no test relies on time zero).
  public init(now: Int64 = 1_000_000_000) {
    self.now = now
  }

  /// Moves on by a nanosecond and returns the new instant: as a chip's clock, every GPIO call
  /// then takes 1 ns, so recorded instants are strictly ordered.
  public func tick() -> Int64 {
    now += 1
    return now
  }

  /// Moves on by `nanoseconds`: a driver's delay, so that half periods can be measured.
  public func wait(_ nanoseconds: Int64) { now += nanoseconds }
}
