// SPDX-License-Identifier: MIT
// The scheduling nice value: the service runs with the one its unit gives it, and the wake-up
// benchmark measures the daemon and the timer floor at that same value.

import Glibc

/// A process's or a thread's nice value (-20 ... 19; lower runs first).
///
/// On Linux the nice value belongs to a thread: `PRIO_PROCESS` with a thread ID, or 0 for the
/// calling thread, changes that thread only (setpriority(2), BUGS). A single-threaded process's
/// ID names its one thread.
public enum NiceValue {
  /// The nice value of `threadID`, or of the calling thread when it is 0.
  ///
  /// The corresponding C function is `getpriority`, whose -1 is told apart from a failure by
  /// errno.
  public static func get(threadID: Int32 = 0) throws(SystemError) -> Int32 {
    errno = 0
    let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID))
    if value == -1 && errno != 0 {
      throw SystemError(operation: "getpriority", errno: .current)
    }
    return value
  }

  /// Sets the nice value of `threadID`, or of the calling thread when it is 0. Lowering it
  /// below the current value needs `CAP_SYS_NICE` (or `RLIMIT_NICE`): EACCES otherwise.
  ///
  /// The corresponding C function is `setpriority`.
  public static func set(_ value: Int32, threadID: Int32 = 0) throws(SystemError) {
    try check("setpriority") {
      setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID), value)
    }
  }
}
