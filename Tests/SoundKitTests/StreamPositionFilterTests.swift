// SPDX-License-Identifier: MIT

import Testing
import WodclockTestSupport

@testable import SoundKit

@Suite struct StreamPositionFilterTests {
  static func filter() -> StreamPositionFilter {
    StreamPositionFilter(immediate: 2_000_000, followed: 200_000)
  }

  /// Reads of a card whose position moves every 4 ms (snd-aloop's timer at HZ=250), made at
  /// random phases: each is late by 0 to 4 ms. The count settles near the earliest, where an
  /// average would settle 2 ms late, and is never put early.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func theCountFollowsTheEarliestReadNotTheAverage(seed: UInt64) {
    var filter = Self.filter()
    var generator = SeededGenerator(seed: seed)
    let truth: Int64 = 1_500_000  // the count is 1.5 ms off at the start
    var offset: Int64 = 0  // what the count has been corrected by
    var settled: [Int64] = []
    for read in 0..<400 {
      let staleness = Int64.random(in: 0..<4_000_000, using: &generator)
      let error = truth + staleness - offset
      let correction = filter.correction(adding: error, whileSilent: true)
      if read == 0 { #expect(correction == error, "the first read after a reset is taken whole") }
      offset += correction
      if read >= 100 { settled.append(offset - truth) }
    }
    let mean = settled.reduce(0, +) / Int64(settled.count)
    #expect(mean < 500_000, "on average \(mean) ns late")
    let range = "\(settled.min() ?? 0)...\(settled.max() ?? 0) ns"
    #expect(settled.allSatisfy { $0 >= 0 && $0 < 1_500_000 }, "\(range)")
  }

  /// While a sound plays only a jump moves the count; a small correction waits for silence.
  @Test func aPlayingSoundMovesOnlyForAJump() {
    var filter = Self.filter()
    #expect(filter.correction(adding: 0, whileSilent: false) == 0)
    #expect(filter.correction(adding: -500_000, whileSilent: false) == 0)
    #expect(filter.correction(adding: 300_000, whileSilent: true) == -500_000)
    // Frames lost: every read from now on is 5 ms earlier; the first says so at once.
    #expect(filter.correction(adding: -5_000_000, whileSilent: false) == -5_000_000)
  }

  /// Late reads alone never move the count until every remembered read is late: the card
  /// really fell behind.
  @Test func theCountMovesLaterOnlyWhenEveryRecentReadIsLater() {
    var filter = Self.filter()
    _ = filter.correction(adding: 0, whileSilent: true)
    for index in 1..<StreamPositionFilter.capacity {
      #expect(filter.correction(adding: 3_000_000, whileSilent: true) == 0, "read \(index)")
    }
    #expect(filter.correction(adding: 3_000_000, whileSilent: true) == 3_000_000)
  }

  @Test func aResetTakesTheNextReadWhole() {
    var filter = Self.filter()
    _ = filter.correction(adding: 0, whileSilent: true)
    filter.reset()
    #expect(filter.correction(adding: 7_000_000, whileSilent: false) == 7_000_000)
  }
}
