// SPDX-License-Identifier: MIT
// The service watchdog: whether and how often to send WATCHDOG=1, per sd_watchdog_enabled(3).

/// systemd's service watchdog settings (`WatchdogSec=`), read the way sd_watchdog_enabled(3)
/// reads them.
public struct Watchdog: Hashable, Sendable {
  /// The timeout systemd enforces, in microseconds (`WATCHDOG_USEC`).
  public var timeoutMicroseconds: UInt64

  /// Creates a watchdog setting.
  public init(timeoutMicroseconds: UInt64) { self.timeoutMicroseconds = timeoutMicroseconds }

  /// How often to send `WATCHDOG=1`, in nanoseconds: half the timeout, as sd_watchdog_enabled(3)
  /// recommends, so one late ping does not trip it.
  public var pingIntervalNanoseconds: Int64 { Int64(timeoutMicroseconds / 2) * 1000 }

  /// The watchdog of this process from `WATCHDOG_USEC` and `WATCHDOG_PID`, or `nil` if it is
  /// disabled or meant for another process.
  ///
  /// The corresponding C function is `getenv`.
  public static func fromEnvironment() -> Watchdog? {
    parse(
      watchdogUSec: Environment.get("WATCHDOG_USEC"),
      watchdogPID: Environment.get("WATCHDOG_PID"), processID: Environment.processID)
  }

  /// The ping interval in nanoseconds for this process, or `nil` when no watchdog applies.
  public static func interval() -> Int64? { fromEnvironment()?.pingIntervalNanoseconds }

  /// Interprets the two variables as sd_watchdog_enabled(3) does: `WATCHDOG_USEC` must be a
  /// positive decimal number; if `WATCHDOG_PID` is set it must equal `processID`, otherwise the
  /// settings belong to another process (a parent that forked us) and are ignored.
  public static func parse(
    watchdogUSec: String?, watchdogPID: String?, processID: Int32
  ) -> Watchdog? {
    guard let watchdogUSec, let microseconds = UInt64(watchdogUSec), microseconds > 0,
      microseconds < UInt64.max
    else { return nil }
    if let watchdogPID {
      guard let pid = Int32(watchdogPID), pid > 0, pid == processID else { return nil }
    }
    return Watchdog(timeoutMicroseconds: microseconds)
  }
}
