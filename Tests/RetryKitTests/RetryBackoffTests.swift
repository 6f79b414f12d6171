// SPDX-License-Identifier: MIT
// The waits between attempts: the first, the doubling, the ceiling, the reset after a success,
// and the settings that would make no sense (a zero first wait, a ceiling below it).

import RetryKit
import Testing

@Suite struct RetryBackoffTests {
  /// The waits of `count` failures in a row.
  private func waits(of backoff: inout RetryBackoff, count: Int) -> [Int64] {
    (0..<count).map { _ in backoff.failed() }
  }

  @Test func theDefaultIsOneSecondDoublingToThirtySeconds() {
    var backoff = RetryBackoff()
    #expect(backoff.initial == 1_000_000_000 && backoff.maximum == 30_000_000_000)
    #expect(
      waits(of: &backoff, count: 7).map { $0 / 1_000_000_000 } == [1, 2, 4, 8, 16, 30, 30])
  }

  @Test func eachFailureDoublesTheWaitUpToTheCeiling() {
    var backoff = RetryBackoff(initial: 250_000_000, maximum: 2_000_000_000)
    #expect(
      waits(of: &backoff, count: 6) == [
        250_000_000, 500_000_000, 1_000_000_000, 2_000_000_000, 2_000_000_000, 2_000_000_000,
      ])
  }

  @Test func upcomingIsTheWaitTheNextFailureGets() {
    var backoff = RetryBackoff(initial: 100, maximum: 300)
    #expect(backoff.upcoming == 100)
    #expect(backoff.failed() == 100)
    #expect(backoff.upcoming == 200)
    #expect(backoff.failed() == 200)
    #expect(backoff.upcoming == 300)
    #expect(backoff.failed() == 300)
    #expect(backoff.upcoming == 300)
  }

  @Test func aSuccessStartsTheWaitsAgainFromTheFirst() {
    var backoff = RetryBackoff(initial: 100, maximum: 1_000)
    _ = waits(of: &backoff, count: 3)
    backoff.reset()
    #expect(backoff == RetryBackoff(initial: 100, maximum: 1_000))
    #expect(waits(of: &backoff, count: 2) == [100, 200])
  }

  @Test func aCeilingAtTheFirstWaitNeverGrows() {
    var backoff = RetryBackoff(initial: 10_000_000_000, maximum: 10_000_000_000)
    #expect(waits(of: &backoff, count: 3) == [10_000_000_000, 10_000_000_000, 10_000_000_000])
  }

  @Test func aZeroFirstWaitIsOneNanosecondAndACeilingBelowItIsTheFirstWait() {
    let zero = RetryBackoff(initial: 0, maximum: 8)
    #expect(zero.initial == 1 && zero.maximum == 8)
    var low = RetryBackoff(initial: 500, maximum: 100)
    #expect(low.maximum == 500)
    #expect(waits(of: &low, count: 2) == [500, 500])
  }

  @Test func aCeilingNearTheLargestWaitDoesNotOverflow() {
    var backoff = RetryBackoff(initial: Int64.max / 2 + 1, maximum: Int64.max)
    #expect(waits(of: &backoff, count: 3) == [Int64.max / 2 + 1, Int64.max, Int64.max])
  }
}
