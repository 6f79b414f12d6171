// SPDX-License-Identifier: MIT
// How late the loop gets to the engine's deadlines, as `stats` reports it, on manual time: a
// request answered in the wake-up of a due deadline shows it, and the lateness that counts is
// the one at which the loop gets to advance the engine past it.

import JSONKit
import Testing

@testable import WodclockDaemon

@Suite struct WakeLatenessTests {
  /// The daemon tests' EMOM, which wakes the loop every second.
  private let config = testConfig

  /// The engine's next deadline on the monotonic clock.
  private func nextEngineDeadline(_ clock: InProcessDaemon) throws -> Int64 {
    let daemon = try #require(clock.daemon)
    let deadline = try #require(daemon.host.nextDeadline)
    return daemon.timeBase.monotonic(forEngine: deadline)
  }

  private func lateness(_ clock: InProcessDaemon) throws -> (count: Int64, maxMicroseconds: Double)
  {
    let late = try clock.request(#"{"cmd": "stats"}"#)["wake_lateness_us"]
    return (late?["count"]?.intValue ?? 0, late?["max"]?.doubleValue ?? 0)
  }

  @Test func aDeadlineAnsweredForBeforeItsTurnCountsAtTheTurn() throws {
    let clock = try InProcessDaemon(config: config, kinds: [])
    clock.start()
    #expect(try clock.request(#"{"cmd": "start"}"#)["ok"] == true)
    clock.run(for: 0.5)
    #expect(try lateness(clock).count == 0)

    // Woken 2 ms after the deadline, with a request ready: the request is answered before the
    // loop's turn, and the deadline shows at its lateness so far.
    let deadline = try nextEngineDeadline(clock)
    clock.time.monotonic = deadline + 2_000_000
    let answered = try lateness(clock)
    #expect(answered.count == 1)
    #expect(answered.maxMicroseconds == 2_000)

    // Then held for two seconds (stopped) before the turn: the loop got to that deadline 2.002 s
    // late, and that is what counts, once, although the next deadline passed too.
    clock.stall(for: 2)
    clock.daemon.turn()
    let counted = try lateness(clock)
    #expect(counted.count == 1)
    #expect(counted.maxMicroseconds == 2_002_000)

    // Asked again in the same wake-up, nothing more is due: the figures stay.
    #expect(try lateness(clock) == counted)
  }

  @Test func aDeadlinePassedWhileHeldShowsBeforeTheTurn() throws {
    let clock = try InProcessDaemon(config: config, kinds: [])
    clock.start()
    #expect(try clock.request(#"{"cmd": "start"}"#)["ok"] == true)
    clock.run(for: 0.5)
    let deadline = try nextEngineDeadline(clock)
    clock.time.monotonic = deadline - 100_000_000
    clock.stall(for: 1.5)
    // Answered in the wake-up after the hold, before the turn: 1.4 s late so far.
    #expect(try lateness(clock).count == 1)
    #expect(try lateness(clock).maxMicroseconds == 1_400_000)
    clock.daemon.turn()
    #expect(try lateness(clock).count == 1)
    #expect(try lateness(clock).maxMicroseconds == 1_400_000)
  }
}
