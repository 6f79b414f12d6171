// SPDX-License-Identifier: MIT
// What the daemon is given from outside, as values: its clocks (the shell's one time seam:
// nothing in the shell reads a clock on its own), the service manager and the plugin kinds. So a
// test can run the whole daemon in its own process on manual time.

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

/// What the daemon is given from outside: its clocks, the service manager, the plugin kinds.
/// The machine's own for `wodclockd`; tests give manual time, a socket of their own and fake
/// plugin kinds, and run the whole daemon in their process.
public struct DaemonEnvironment {
  public var clock: DaemonClock
  public var notifier: SystemdNotifier
  /// How often to ping the watchdog (half of `WatchdogSec=`), nil without one.
  public var watchdogInterval: Int64?
  public var catalog: [PluginKind]

  public init(
    clock: DaemonClock, notifier: SystemdNotifier, watchdogInterval: Int64?,
    catalog: [PluginKind]
  ) {
    self.clock = clock
    self.notifier = notifier
    self.watchdogInterval = watchdogInterval
    self.catalog = catalog
  }

  /// The machine's clocks, systemd's `NOTIFY_SOCKET` and `WATCHDOG_USEC`, every plugin kind.
  public static var system: DaemonEnvironment {
    DaemonEnvironment(
      clock: .system, notifier: .fromEnvironment(), watchdogInterval: Watchdog.interval(),
      catalog: PluginCatalog.kinds)
  }
}
