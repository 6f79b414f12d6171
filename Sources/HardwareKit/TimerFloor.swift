// SPDX-License-Identifier: MIT
// The bare timer floor: how late this machine wakes from an absolute timerfd deadline.

import Glibc

/// Measures the scheduler's wake-up lateness with nothing else running in the loop.
///
/// A daemon's timing figures only mean something beside this floor, measured in the same run:
/// an idle virtual CPU is slow to wake, and the floor moves from run to run.
public enum TimerFloor {
  /// Sleeps `count` times on absolute `CLOCK_MONOTONIC` deadlines spaced `period` apart and
  /// returns how late each wake-up was, in nanoseconds.
  ///
  /// Deadlines are computed from the start instant, not from the previous wake-up, so lateness
  /// does not accumulate. The clock is read right after the blocking read(2) of the timerfd
  /// returns; that read is the only work in the loop.
  ///
  /// The corresponding C functions are `timerfd_settime` (`TFD_TIMER_ABSTIME`), `read` and
  /// `clock_gettime`.
  public static func measure(count: Int, period: Duration) throws(SystemError) -> [Int64] {
    let components = period.components
    let periodNanoseconds =
      components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    precondition(periodNanoseconds > 0, "period must be positive")
    guard count > 0 else { return [] }
    let timer = try DeadlineTimer(nonBlocking: false)
    defer { try? timer.close() }
    var lateness: [Int64] = []
    lateness.reserveCapacity(count)
    let start = MonotonicClock.now()
    for index in 1...count {
      let deadline = start + Int64(index) * periodNanoseconds
      try timer.arm(at: deadline)
      _ = try timer.readExpirations()
      lateness.append(MonotonicClock.now() - deadline)
    }
    return lateness
  }
}
