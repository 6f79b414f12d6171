// SPDX-License-Identifier: MIT
// The shell's one time seam: the clocks the daemon reads, given to it as a value. Nothing in the
// shell reads a clock on its own, so a test can run the whole daemon on manual time.

import HardwareKit

/// The three readings the daemon takes of the machine's time.
///
/// Real time is `CLOCK_MONOTONIC` in nanoseconds (`Int64`) everywhere in the shell and the
/// plugin contract: deadlines, timeouts, backoff, a cue's instant on a frame. Engine time is the
/// engine's own ``EngineInstant``, which runs N times faster under `--speed`; ``TimeBase`` is
/// the only place that converts between the two.
public struct DaemonClock {
  /// `CLOCK_MONOTONIC` now, nanoseconds: never steps, stops while the machine is suspended.
  public var monotonic: () -> Int64
  /// `CLOCK_REALTIME` now: the time of day, the history's stamps, the gap across a reboot.
  public var wall: () -> WallClock.Instant
  /// This boot's id (`/proc/sys/kernel/random/boot_id`): a saved monotonic instant is only
  /// comparable to one of the same boot. Empty when it cannot be read.
  public var bootID: () -> String

  /// A clock made of the three readings (tests give manual ones).
  public init(
    monotonic: @escaping () -> Int64, wall: @escaping () -> WallClock.Instant,
    bootID: @escaping () -> String
  ) {
    self.monotonic = monotonic
    self.wall = wall
    self.bootID = bootID
  }

  /// The machine's clocks.
  public static var system: DaemonClock {
    DaemonClock(
      monotonic: MonotonicClock.now, wall: WallClock.now,
      bootID: { (try? BootID.current()) ?? "" })
  }
}
