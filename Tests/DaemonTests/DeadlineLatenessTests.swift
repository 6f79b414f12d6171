// SPDX-License-Identifier: MIT
// The lateness of the engine deadline the loop sleeps until, on its own and on exact instants:
// counted once when due, not at all when an action moved it, and shown before it is counted.

import Testing

@testable import WodclockDaemon

private let deadline: Int64 = 5_000_000_000

@Suite struct DeadlineLatenessTests {
  @Test func aDueDeadlineCountsHowLateTheLoopGotToItOnce() {
    var lateness = DeadlineLateness()
    lateness.wait(for: deadline)
    lateness.record(at: deadline - 1, engineDeadline: deadline)
    #expect(lateness.recorder.total == 0)
    #expect(lateness.awaited == deadline)
    lateness.record(at: deadline + 250_000, engineDeadline: deadline)
    #expect(lateness.recorder.total == 1)
    #expect(lateness.recorder.summary?.max == 250_000)
    #expect(lateness.awaited == nil)
    // The turn after it, with the engine not advanced yet, counts nothing more.
    lateness.record(at: deadline + 900_000, engineDeadline: deadline)
    #expect(lateness.recorder.total == 1)
  }

  @Test func aDeadlineAnActionMovedDoesNotCount() {
    var lateness = DeadlineLateness()
    lateness.wait(for: deadline)
    #expect(lateness.pending(at: deadline + 1_000, engineDeadline: deadline + 3_000_000_000) == nil)
    lateness.record(at: deadline + 1_000, engineDeadline: deadline + 3_000_000_000)
    #expect(lateness.recorder.total == 0)
    #expect(lateness.awaited == nil)
  }

  @Test func nothingCountsWithoutADeadlineWaitedFor() {
    var lateness = DeadlineLateness()
    lateness.wait(for: nil)
    lateness.record(at: deadline, engineDeadline: deadline)
    #expect(lateness.recorder.total == 0)
    #expect(lateness.summary(at: deadline, engineDeadline: deadline) == nil)
  }

  @Test func theSummaryShowsADueLatenessBeforeItIsCounted() {
    var lateness = DeadlineLateness()
    lateness.wait(for: deadline)
    lateness.record(at: deadline + 100_000, engineDeadline: deadline)
    lateness.wait(for: 2 * deadline)
    let summary = lateness.summary(at: 2 * deadline + 2_000_000, engineDeadline: 2 * deadline)
    #expect(summary?.count == 2)
    #expect(summary?.max == 2_000_000)
    #expect(summary?.overOneMillisecond == 1)
    #expect(lateness.recorder.total == 1)
    #expect(lateness.pending(at: 2 * deadline - 1, engineDeadline: 2 * deadline) == nil)
  }
}
