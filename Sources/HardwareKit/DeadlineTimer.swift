// SPDX-License-Identifier: MIT
// timerfd(2) on CLOCK_MONOTONIC with absolute deadlines: the engine's next deadline as a fd.

import CLinux
import Glibc

/// A timer descriptor that becomes readable when the monotonic clock reaches a deadline.
///
/// Deadlines are absolute (`TFD_TIMER_ABSTIME`), so time spent between computing a deadline and
/// arming the timer does not push the wake-up later, and a deadline already in the past fires at
/// once. Register `fileDescriptor` with an `EventPoller` for `.readable`.
public struct DeadlineTimer: Hashable, Sendable {
  /// The timer descriptor (non-blocking, close-on-exec).
  public let fileDescriptor: FileDescriptor

  /// Creates a disarmed timer on `CLOCK_MONOTONIC`.
  /// - Parameter nonBlocking: `false` makes `readExpirations()` sleep until the deadline (the
  ///   timer-floor benchmark wants that); the event loop keeps the default.
  ///
  /// The corresponding C function is `timerfd_create`.
  public init(nonBlocking: Bool = true) throws(SystemError) {
    let flags = Int32(TFD_CLOEXEC) | (nonBlocking ? Int32(TFD_NONBLOCK) : 0)
    let fd = try check("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, flags) }
    fileDescriptor = FileDescriptor(rawValue: fd)
  }

  /// Arms the timer to expire once when `MonotonicClock.now()` reaches `deadline`.
  ///
  /// Re-arming replaces the previous deadline and discards an expiration not read yet: the
  /// descriptor is no longer readable afterwards (fs/timerfd.c, timerfd_setup). A zero `it_value` would disarm the timer
  /// (timerfd_create(2)), so a deadline at or before the clock's origin is raised to 1 ns, which
  /// is in the past and therefore fires immediately.
  /// - Parameter deadline: nanoseconds on the `CLOCK_MONOTONIC` scale.
  ///
  /// The corresponding C function is `timerfd_settime` with `TFD_TIMER_ABSTIME`.
  public func arm(at deadline: Int64) throws(SystemError) {
    let instant = max(deadline, 1)
    var setting = itimerspec()
    setting.it_value.tv_sec = Int(instant / 1_000_000_000)
    setting.it_value.tv_nsec = Int(instant % 1_000_000_000)
    try check("timerfd_settime") {
      timerfd_settime(fileDescriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }
  }

  /// Stops the timer; a pending expiration that was not read yet is discarded too.
  ///
  /// The corresponding C function is `timerfd_settime` with a zero value.
  public func disarm() throws(SystemError) {
    var setting = itimerspec()
    try check("timerfd_settime") { timerfd_settime(fileDescriptor.rawValue, 0, &setting, nil) }
  }

  /// Reads and resets the number of expirations since the last read.
  /// - Returns: the count (1 for a one-shot deadline), or 0 when the timer has not expired
  ///   (`EAGAIN` on the non-blocking descriptor).
  ///
  /// The corresponding C function is `read` on the timer descriptor.
  public func readExpirations() throws(SystemError) -> UInt64 {
    var count: UInt64 = 0
    let result = try withUnsafeMutableBytes(of: &count) { (raw) throws(SystemError) in
      try fileDescriptor.read(into: raw)
    }
    switch result {
    case .bytes: return count
    case .wouldBlock, .endOfFile: return 0
    }
  }

  /// Closes the timer descriptor.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }
}
