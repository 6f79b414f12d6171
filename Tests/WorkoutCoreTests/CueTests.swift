// SPDX-License-Identifier: MIT
// Cues as the config's own comments describe them: rounds remaining counting the round that
// starts, and a 3-2-1 that fits a segment of exactly three seconds.

import Testing
import WodclockTestSupport

@testable import WorkoutCore

@Suite struct CueTests {
  @Test func roundsRemainingAnnouncesTheFirstRoundToo() throws {
    var clock = try engine(
      .emom(EMOMParameters(interval: .seconds(60), rounds: 5)), countIn: 10,
      cues: CueOptions(roundsRemaining: [10, 5, 2]))
    let cues = describe(try runToEnd(&clock))
    // Round 1 of 5 has 5 left (itself included), round 4 has 2.
    #expect(
      cues.filter { $0.contains("remaining(") } == ["10.0 remaining(5)", "190.0 remaining(2)"])
    let first = try #require(cues.firstIndex(of: "10.0 round(1/5)"))
    #expect(cues[first + 1] == "10.0 remaining(5)")
  }

  @Test func aThreeSecondCountInSoundsItsWholeThreeTwoOne() throws {
    var clock = try engine(
      .amrap(AMRAPParameters(time: .minutes(1))), countIn: 3,
      cues: CueOptions(halfway: false, lastTenSeconds: false))
    let cues = describe(try runToEnd(&clock))
    #expect(
      Array(cues.prefix(5)) == [
        "0.0 segment(count_in)", "0.0 countdown(3,count_in)", "1.0 countdown(2,count_in)",
        "2.0 countdown(1,count_in)", "3.0 start",
      ])
  }

  /// Tempo 2-0-2-0 × 1 each side with a 3 s side switch: left 0–4 s, the switch 4–7 s.
  private func unilateralWithAThreeSecondSwitch() throws -> WorkoutEngine {
    try engine(
      .tempo(
        TempoParameters(
          tempo: Tempo(halfSeconds: [4, 0, 4, 0]), reps: 1, unilateral: true,
          switchPause: .seconds(3))))
  }

  @Test func aThreeSecondSideSwitchSoundsItsWholeThreeTwoOne() throws {
    var clock = try unilateralWithAThreeSecondSwitch()
    let cues = describe(try runToEnd(&clock))
    #expect(
      cues.filter { $0.contains("side_switch") } == [
        "4.0 segment(side_switch)", "4.0 countdown(3,side_switch)",
        "5.0 countdown(2,side_switch)", "6.0 countdown(1,side_switch)",
      ])
  }

  @Test func aLateThreeOnTheFirstInstantIsDroppedNotAnnounced() throws {
    // Back 1.5 s into the switch: its start still announces the present moment, but a "3"
    // sounded now would count a second that is over.
    var clock = try unilateralWithAThreeSecondSwitch()
    _ = try clock.apply(.start, at: at(0))
    for tenth in 1...39 { _ = clock.advance(to: at(Double(tenth) / 10)) }
    #expect(clock.state.droppedCues == 0)
    #expect(
      describe(clock.advance(to: at(5.5))) == [
        "5.0 switch(right)", "5.0 segment(side_switch)", "5.0 countdown(2,side_switch)",
      ])
    // Dropped: the "3" and the left side's rep completion at 4 s.
    #expect(clock.state.droppedCues == 2)
  }
}
