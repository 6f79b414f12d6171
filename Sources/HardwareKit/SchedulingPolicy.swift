// SPDX-License-Identifier: MIT
// Scheduling policies: the service runs with the real-time policy its unit gives it, and the
// wake-up benchmark measures the daemon and the timer floor under that same policy.

import Glibc

/// A thread's scheduling policy (sched(7)).
public enum SchedulingPolicy: Equatable, Sendable {
  /// `SCHED_OTHER`, the default fair policy.
  case normal
  /// `SCHED_FIFO` at a static priority 1 ... 99: runs ahead of every normal thread until it
  /// blocks.
  case firstInFirstOut(priority: Int32)

  /// Applies the policy to `threadID`, or to the calling thread when it is 0 (on Linux the
  /// policy belongs to a thread; a single-threaded process's ID names its one thread). A
  /// real-time policy needs `CAP_SYS_NICE` or `RLIMIT_RTPRIO`: EPERM otherwise.
  ///
  /// The corresponding C function is `sched_setscheduler`.
  public func apply(threadID: Int32 = 0) throws(SystemError) {
    var parameters = sched_param()
    let policy: Int32
    switch self {
    case .normal:
      policy = SCHED_OTHER
      parameters.sched_priority = 0
    case .firstInFirstOut(let priority):
      policy = SCHED_FIFO
      parameters.sched_priority = priority
    }
    try check("sched_setscheduler") { sched_setscheduler(threadID, policy, &parameters) }
  }

  /// The policy of `threadID`, or of the calling thread when it is 0 (a policy other than
  /// these two reads as `.normal`).
  ///
  /// The corresponding C functions are `sched_getscheduler` and `sched_getparam`.
  public static func current(threadID: Int32 = 0) throws(SystemError) -> SchedulingPolicy {
    let policy = try check("sched_getscheduler") { sched_getscheduler(threadID) }
    guard policy == SCHED_FIFO else { return .normal }
    var parameters = sched_param()
    try check("sched_getparam") { sched_getparam(threadID, &parameters) }
    return .firstInFirstOut(priority: parameters.sched_priority)
  }
}
