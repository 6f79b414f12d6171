// SPDX-License-Identifier: MIT
// Whether the wall clock has been set from a time source since the machine booted.

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
}
