// SPDX-License-Identifier: MIT
// How late the loop gets to the engine deadline it went to sleep for. Every such deadline
// counts once, measured when the engine is about to be advanced past it: a deadline that passed
// during a long wake-up (a flood of requests), an interrupted wait or a wake-up for something
// else counts as late as it really was; one that an action moved since does not count.
// Pure: it is given the instants, on the monotonic clock.

/// The engine deadline the loop waits for, and the latenesses it got to those before it.
struct DeadlineLateness {
  /// The engine's next deadline as the loop last went to sleep.
  private(set) var awaited: Int64?
  private(set) var recorder = LatenessRecorder()

  /// The loop goes to sleep with `deadline` as the engine's next one.
  mutating func wait(for deadline: Int64?) {
    awaited = deadline
  }

  /// How late the loop is at `now` for the deadline it waited for, if that is due and still
  /// `engineDeadline`, the engine's next one.
  func pending(at now: Int64, engineDeadline: Int64?) -> Int64? {
    guard let awaited, awaited <= now, engineDeadline == awaited else { return nil }
    return now - awaited
  }

  /// Counts how late the loop got to the deadline it waited for, once that is due; a due one
  /// is not waited for any more, whether it counted or not.
  mutating func record(at now: Int64, engineDeadline: Int64?) {
    let late = pending(at: now, engineDeadline: engineDeadline)
    if let awaited, awaited <= now { self.awaited = nil }
    if let late { recorder.record(late) }
  }

  /// The figures so far, with the lateness at `now` of a due deadline not recorded yet.
  func summary(at now: Int64, engineDeadline: Int64?) -> LatenessRecorder.Summary? {
    recorder.summary(including: pending(at: now, engineDeadline: engineDeadline))
  }
}
