// SPDX-License-Identifier: MIT
// Whether the wall clock has been set from a time source since the machine booted, and, for
// benchmarks and tests only, marking it so.

import CLinux

extension WallClock {
  /// Whether the kernel says the wall clock is synchronized to a time source (NTP): what
  /// `timedatectl` shows as "System clock synchronized". A Raspberry Pi has no battery clock,
  /// so until a time daemon has synchronized it after a boot its wall clock may be hours or
  /// days off. A failing call counts as not synchronized.
  ///
  /// The corresponding C function is `adjtimex` (modes 0), read as adjtimex(2) describes:
  /// synchronized unless the state is `TIME_ERROR` or the status has `STA_UNSYNC`.
  public static func isSynchronized() -> Bool {
    clinux_clock_synchronized() == 1
  }

  /// Marks the kernel's wall clock synchronized (or not) as a time daemon does when it has (or
  /// loses) a source: clears (or sets) `STA_UNSYNC` and sets the maximum and estimated errors
  /// (1 ms and 100 µs when synchronized; 16 s, the kernel's limit, when not). The time itself
  /// is left alone.
  ///
  /// For benchmarks and tests of the link between clocks on a machine without a time daemon
  /// (followers follow only a synchronized wall clock); they put it back after. The daemon
  /// never calls it: it only reads the status (``isSynchronized()``). Needs `CAP_SYS_TIME`.
  /// - Throws: `SystemError` with `EPERM` without the capability.
  ///
  /// The corresponding C function is `adjtimex` (`ADJ_STATUS`, `ADJ_MAXERROR`, `ADJ_ESTERROR`).
  public static func markSynchronized(_ synchronized: Bool) throws(SystemError) {
    try check(
      "adjtimex", hint: "marking the wall clock synchronized needs root (CAP_SYS_TIME)"
    ) { clinux_clock_mark_synchronized(synchronized ? 1 : 0) }
  }
}
