// SPDX-License-Identifier: MIT
// What the daemon is given from outside, as values: its clocks (the shell's one time seam:
// nothing in the shell reads a clock on its own), the service manager and the plugin kinds. So a
// test can run the whole daemon in its own process on manual time.

import ConfigFormat
import Configuration
import HardwareKit

/// The readings the daemon takes of the machine's time.
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
  /// Whether the wall clock has been synchronized to a time source (the kernel's NTP status):
  /// the class schedule loads nothing by a wall clock that may be days off.
  public var synchronized: () -> Bool
  /// The local time zone, for the class schedule.
  public var zone: LocalZone

  /// A clock made of its readings (tests give manual ones). Without `synchronized` the wall
  /// clock counts as synchronized; without `zone` it is the system's.
  public init(
    monotonic: @escaping () -> Int64, wall: @escaping () -> WallClock.Instant,
    bootID: @escaping () -> String, synchronized: @escaping () -> Bool = { true },
    zone: LocalZone = .system
  ) {
    self.monotonic = monotonic
    self.wall = wall
    self.bootID = bootID
    self.synchronized = synchronized
    self.zone = zone
  }

  /// The machine's clocks.
  public static var system: DaemonClock {
    DaemonClock(
      monotonic: MonotonicClock.now, wall: WallClock.now,
      bootID: { (try? BootID.current()) ?? "" }, synchronized: WallClock.isSynchronized)
  }
}

/// A time zone's rules: the civil time the displays show and the class schedule's dates, and
/// where a local date and time falls on the time line.
public struct LocalZone: Sendable {
  /// The local civil time at a wall-clock instant, by the rules last read.
  public var civilTime: @Sendable (WallClock.Instant) -> CivilTime
  /// Where a local date and time falls (DST gaps and repeats).
  public var resolve: LocalTimeResolver
  /// Reads the rules again (a zone changed with `timedatectl`); nothing for rules that are given.
  public var reload: @Sendable () -> Void

  public init(
    civilTime: @escaping @Sendable (WallClock.Instant) -> CivilTime,
    resolve: @escaping LocalTimeResolver, reload: @escaping @Sendable () -> Void = {}
  ) {
    self.civilTime = civilTime
    self.resolve = resolve
    self.reload = reload
  }

  /// The local date at a wall-clock instant.
  public func date(_ instant: WallClock.Instant) -> LocalDate {
    let civil = civilTime(instant)
    return LocalDate(year: civil.year, month: civil.month, day: civil.day)
  }

  /// The zone the idle clock shows: `TZ` or `/etc/localtime`, as last read (the frame composer
  /// reads it again once a minute, so a zone changed with `timedatectl` follows).
  public static let system = LocalZone(
    civilTime: { WallClock.civilTime(at: $0) },
    resolve: { date, time in
      let found = WallClock.offsets(
        year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute)
      switch found.offsets.count {
      case 0: return .skipped(before: found.before)
      case 1: return .unique(utcOffset: found.offsets[0])
      default: return .repeated(first: found.offsets[0], second: found.offsets[1])
      }
    },
    reload: { WallClock.reloadTimeZone() })
}

/// What the daemon is given from outside: its clocks, the service manager, the plugin kinds,
/// the web server and the MQTT client. The machine's own for `wodclockd`; tests give manual
/// time, a socket of their own, fake plugin kinds, an in-memory web transport and an in-memory
/// broker's clients, and run the whole daemon (or several) in their process.
public struct DaemonEnvironment {
  public var clock: DaemonClock
  public var notifier: SystemdNotifier
  /// How often to ping the watchdog (half of `WatchdogSec=`), nil without one.
  public var watchdogInterval: Int64?
  public var catalog: [PluginKind]
  /// Starts the web interface's server: libmicrohttpd on the machine, an in-memory transport
  /// in the tests.
  public var webTransport: HTTPTransportMaker
  /// Makes the link's MQTT client: libmosquitto on the machine, a client of an in-memory
  /// broker in the tests.
  public var linkTransport: MQTTTransportMaker

  public init(
    clock: DaemonClock, notifier: SystemdNotifier, watchdogInterval: Int64?,
    catalog: [PluginKind], webTransport: @escaping HTTPTransportMaker = HTTPServer.start,
    linkTransport: @escaping MQTTTransportMaker = MQTTClient.make
  ) {
    self.clock = clock
    self.notifier = notifier
    self.watchdogInterval = watchdogInterval
    self.catalog = catalog
    self.webTransport = webTransport
    self.linkTransport = linkTransport
  }

  /// The machine's clocks, systemd's `NOTIFY_SOCKET` and `WATCHDOG_USEC`, every plugin kind,
  /// libmicrohttpd, libmosquitto.
  public static var system: DaemonEnvironment {
    DaemonEnvironment(
      clock: .system, notifier: .fromEnvironment(), watchdogInterval: Watchdog.interval(),
      catalog: PluginCatalog.kinds)
  }
}
