// SPDX-License-Identifier: MIT
// Places as competitions give them, per division, with ties that stay ties.

import HeatKit
import Testing

/// Eight athletes in two heats, two divisions; Scaled is named first.
let eventSheet = """
  heat,lane,athlete,division
  1,1,Ada,Scaled
  1,2,Bo,Rx
  1,3,Cy,Rx
  1,4,Di,Rx
  2,1,Ed,Rx
  2,2,Flo,Scaled
  2,3,Gus,Rx
  2,4,Hal,Scaled
  """

func event(_ entries: [LaneJournalEntry], format: LaneTimeFormat = .tenths) throws -> EventResults {
  let sheet = try HeatSheet.parse(eventSheet, name: "heats.csv").get()
  var results = EventResults(sheet: sheet, numberedLanes: 8, timeFormat: format)
  for entry in entries { try results.apply(entry) }
  return results
}

/// `place athlete score` per row, compact to compare.
func summary(_ rows: [RankedRow]) -> [String] {
  rows.map { "\($0.division) \($0.place.map(String.init) ?? "-") \($0.athlete) \($0.score)" }
}

let forTime = ScoringRule.forTime(capMilliseconds: 600_000, capRepSeconds: false, totalReps: 100)

@Suite struct RankingTests {
  @Test func finishersByTimeThenCappedByRepsThenThoseWithoutAScorePerDivision() throws {
    let results = try event([
      entry(1, 2, .reps(80)), entry(1, 3, .finish(atMilliseconds: 540_000)),
      entry(1, 4, .reps(95)), entry(2, 1, .finish(atMilliseconds: 462_300)),
      entry(2, 2, .finish(atMilliseconds: 500_000)), entry(1, 1, .reps(50)),
    ])
    let rows = results.ranked(forTime)
    #expect(
      summary(rows) == [
        "Scaled 1 Flo 8:20.0", "Scaled 2 Ada CAP+50", "Scaled - Hal ",
        "Rx 1 Ed 7:42.3", "Rx 2 Cy 9:00.0", "Rx 3 Di CAP+95", "Rx 4 Bo CAP+80", "Rx - Gus ",
      ])
    let ed = try #require(rows.first { $0.athlete == "Ed" })
    #expect(ed.heat == 2 && ed.lane == 1 && ed.timeSeconds == 462.3 && ed.tiebreakSeconds == nil)
    #expect(rows.first { $0.athlete == "Di" }?.timeSeconds == nil)
  }

  @Test func equalScoresShareAPlaceAndTheNextPlaceSkips() throws {
    // Bo and Cy both read 7:42.3 (truncated), so they tie; Di is fourth, not third.
    let results = try event([
      entry(1, 2, .finish(atMilliseconds: 462_310)), entry(1, 3, .finish(atMilliseconds: 462_399)),
      entry(1, 4, .finish(atMilliseconds: 470_000)), entry(2, 1, .finish(atMilliseconds: 400_000)),
    ])
    #expect(
      results.ranked(forTime).filter { $0.division == "Rx" }.map(\.place) == [1, 2, 2, 4, nil])
  }

  @Test func timesCompareAsTheFormatShowsThem() throws {
    let entries = [
      entry(1, 2, .finish(atMilliseconds: 462_300)), entry(1, 3, .finish(atMilliseconds: 462_900)),
    ]
    let tenths = try event(entries, format: .tenths).ranked(forTime, heat: 1)
    let seconds = try event(entries, format: .seconds).ranked(forTime, heat: 1)
    #expect(tenths.filter { $0.division == "Rx" }.map(\.place) == [1, 2, nil])
    #expect(seconds.filter { $0.division == "Rx" }.map(\.place) == [1, 1, nil])
    #expect(seconds.first { $0.athlete == "Cy" }?.score == "7:42")
  }

  @Test func theLastTiebreakSeparatesEqualScoresAndAMissingOneLoses() throws {
    let results = try event([
      entry(1, 2, .reps(80)), entry(1, 3, .reps(80)), entry(1, 4, .reps(80)),
      entry(2, 1, .reps(80)),
      // Bo: an early first tiebreak but a late last one; Cy: the best last tiebreak.
      entry(1, 2, .tiebreak(atMilliseconds: 100_000)),
      entry(1, 2, .tiebreak(atMilliseconds: 400_000)),
      entry(1, 3, .tiebreak(atMilliseconds: 200_000)),
      entry(1, 3, .tiebreak(atMilliseconds: 300_000)),
      // Ed has the same last tiebreak as Bo; Di has none.
      entry(2, 1, .tiebreak(atMilliseconds: 400_000)),
    ])
    let rows = results.ranked(forTime).filter { $0.division == "Rx" }
    #expect(
      summary(rows) == [
        "Rx 1 Cy CAP+80", "Rx 2 Bo CAP+80", "Rx 2 Ed CAP+80", "Rx 4 Di CAP+80", "Rx - Gus ",
      ])
    #expect(rows[0].tiebreakSeconds == 300)
    #expect(rows[3].tiebreakSeconds == nil)
  }

  @Test func aTiebreakNeverBeatsABetterScore() throws {
    let results = try event([
      entry(1, 2, .finish(atMilliseconds: 500_000)), entry(1, 2, .tiebreak(atMilliseconds: 10_000)),
      entry(1, 3, .finish(atMilliseconds: 490_000)),
    ])
    #expect(
      summary(results.ranked(forTime, heat: 1)).prefix(3) == [
        "Scaled - Ada ", "Rx 1 Cy 8:10.0", "Rx 2 Bo 8:20.0",
      ])
  }

  @Test func withCapRepSecondsACappedScoreIsTheCapPlusASecondPerMissingRep() throws {
    let rule = ScoringRule.forTime(capMilliseconds: 600_000, capRepSeconds: true, totalReps: 100)
    let results = try event([
      entry(1, 2, .reps(88)), entry(1, 3, .reps(95)), entry(1, 4, .finish(atMilliseconds: 599_000)),
      entry(2, 1, .reps(140)),  // more than the workout has: no missing reps, not a negative
    ])
    let rows = results.ranked(rule).filter { $0.division == "Rx" }
    #expect(
      summary(rows) == [
        "Rx 1 Di 9:59.0", "Rx 2 Ed 10:00.0", "Rx 3 Cy 10:05.0", "Rx 4 Bo 10:12.0", "Rx - Gus ",
      ])
    #expect(rows[3].timeSeconds == 612)
    // Without the workout's total reps it cannot count them: capped athletes stay CAP+reps.
    let unknown = ScoringRule.forTime(capMilliseconds: 600_000, capRepSeconds: true, totalReps: nil)
    #expect(results.ranked(unknown).first { $0.athlete == "Bo" }?.score == "CAP+88")
  }

  @Test func amrapScoresRankFromTheHighest() throws {
    let results = try event([
      entry(1, 2, .score(amrap(5, 12))), entry(1, 3, .score(amrap(6, 0))),
      entry(1, 4, .score(amrap(5, 12))), entry(2, 1, .score(amrap(0, 87))),
      entry(2, 3, .finish(atMilliseconds: 1000)),  // not an AMRAP score: no place
    ])
    let rows = results.ranked(.amrap).filter { $0.division == "Rx" }
    #expect(
      summary(rows) == [
        "Rx 1 Cy 6+0", "Rx 2 Bo 5+12", "Rx 2 Di 5+12", "Rx 4 Ed 87", "Rx - Gus 0:01.0",
      ])
    #expect(rows.allSatisfy { $0.timeSeconds == nil })
  }

  @Test func oneHeatIsRankedOnItsOwn() throws {
    let results = try event([
      entry(1, 2, .finish(atMilliseconds: 500_000)), entry(2, 1, .finish(atMilliseconds: 400_000)),
    ])
    let heat1 = results.ranked(forTime, heat: 1)
    #expect(Set(heat1.map(\.heat)) == [1])
    #expect(heat1.first { $0.athlete == "Bo" }?.place == 1)
    #expect(results.ranked(forTime).first { $0.athlete == "Bo" }?.place == 2)
    #expect(results.ranked(forTime, heat: 9).isEmpty)
  }

  @Test func withoutASheetOnlyLanesWithSomethingRecordedAreRanked() throws {
    var results = EventResults(sheet: nil, numberedLanes: 8)
    try results.apply(entry(1, 3, .finish(atMilliseconds: 300_000)))
    try results.apply(entry(1, 5, .finish(atMilliseconds: 200_000)))
    try results.apply(entry(1, 6, .tiebreak(atMilliseconds: 100_000)))
    try results.apply(entry(1, 7, .finish(atMilliseconds: 100_000)))
    try results.apply(entry(1, 7, .undo))
    let rows = results.ranked(forTime)
    #expect(rows.map(\.lane) == [5, 3, 6])
    #expect(rows.map(\.place) == [1, 2, nil])
    #expect(rows.allSatisfy { $0.athlete.isEmpty && $0.division.isEmpty })
  }
}
