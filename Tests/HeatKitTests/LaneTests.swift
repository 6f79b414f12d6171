// SPDX-License-Identifier: MIT
// The journal's lines and the lanes built from them: finishes, undo, tiebreaks, reps at the
// cap and AMRAP scores, and the refusals a bumped button or a wrong lane gets.

import HeatKit
import Testing

/// Two heats of an Rx and a Scaled division; heat 2 has no lane 3.
let fridaySheet = """
  heat,lane,athlete,division
  1,1,Anna,Rx
  1,2,Ben,Scaled
  1,3,Cleo,Rx
  2,1,Dan,Rx
  2,2,Eve,Scaled
  2,4,Finn,Rx
  """

func entry(_ heat: Int, _ lane: Int, _ operation: LaneOperation) -> LaneJournalEntry {
  LaneJournalEntry(heat: heat, lane: lane, operation: operation)
}

func amrap(_ rounds: Int, _ reps: Int) -> AMRAPScore {
  guard let score = AMRAPScore(rounds: rounds, reps: reps) else {
    Issue.record("\(rounds)+\(reps) is out of range")
    return AMRAPScore(rounds: 0, reps: 0)!
  }
  return score
}

@Suite struct LaneJournalTests {
  @Test func eachOperationIsOneLineOfJSON() {
    #expect(
      entry(3, 2, .finish(atMilliseconds: 462_300)).line
        == #"{"heat":3,"lane":2,"op":"finish","ms":462300}"#)
    #expect(entry(3, 2, .undo).line == #"{"heat":3,"lane":2,"op":"undo"}"#)
    #expect(
      entry(1, 8, .tiebreak(atMilliseconds: 301_200)).line
        == #"{"heat":1,"lane":8,"op":"tiebreak","ms":301200}"#)
    #expect(entry(1, 1, .reps(12)).line == #"{"heat":1,"lane":1,"op":"reps","reps":12}"#)
    #expect(
      entry(1, 1, .score(amrap(5, 12))).line == #"{"heat":1,"lane":1,"op":"score","score":"5+12"}"#)
  }

  @Test func linesDecodeBackToTheSameEntries() throws {
    let entries = [
      entry(3, 2, .finish(atMilliseconds: 462_300)), entry(3, 2, .undo),
      entry(1, 8, .tiebreak(atMilliseconds: 301_200)), entry(1, 1, .reps(12)),
      entry(999, 64, .score(amrap(5, 12))), entry(2, 2, .score(amrap(0, 87))),
    ]
    let text = LaneJournal.encode(entries)
    #expect(text.split(separator: "\n").count == entries.count)
    #expect(LaneJournal.decode(text) == LaneJournal(entries: entries))
  }

  @Test func aTornLastLineIsSkippedAndReportedAsTorn() {
    let whole = entry(1, 1, .finish(atMilliseconds: 1000)).line
    let torn = String(entry(1, 2, .finish(atMilliseconds: 2000)).line.prefix(20))
    let journal = LaneJournal.decode(whole + "\n" + torn)
    #expect(journal.entries == [entry(1, 1, .finish(atMilliseconds: 1000))])
    #expect(journal.skipped.map(\.line) == [2])
    #expect(journal.skipped.map(\.isTorn) == [true])
  }

  @Test func badLinesInTheMiddleAreSkippedAndTheRestRead() {
    let text =
      [
        #"{"heat":1,"lane":1,"op":"finish","ms":1000}"#,
        #"{"heat":0,"lane":1,"op":"finish","ms":1000}"#,
        #"{"heat":1,"lane":65,"op":"undo"}"#,
        #"{"heat":1,"lane":1,"op":"jump"}"#,
        #"{"heat":1,"lane":1,"op":"finish"}"#,
        #"{"heat":1,"lane":1,"op":"reps","reps":-1}"#,
        #"{"heat":1,"lane":1,"op":"score","score":"x"}"#,
        #"{"heat":1,"lane":1,"op":"finish","ms":1.5}"#,
        "[1,2]", "\u{0}\u{1}garbage", "",
        #"{"heat":1,"lane":2,"op":"undo"}"# + "\r",
      ].joined(separator: "\n") + "\n"
    let journal = LaneJournal.decode(text)
    #expect(journal.entries == [entry(1, 1, .finish(atMilliseconds: 1000)), entry(1, 2, .undo)])
    #expect(journal.skipped.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10])
    #expect(journal.skipped.allSatisfy { !$0.isTorn && !$0.reason.isEmpty })
  }
}

@Suite struct EventResultsTests {
  func friday() throws -> EventResults {
    let sheet = try HeatSheet.parse(fridaySheet, name: "heats.csv").get()
    return EventResults(sheet: sheet, numberedLanes: 8)
  }

  @Test func lanesAreTheSheetsWithTheirAthletes() throws {
    let results = try friday()
    #expect(results.heats == [1, 2])
    #expect(results.lanes(inHeat: 2).map(\.lane) == [1, 2, 4])
    #expect(results.lanes(inHeat: 2).map(\.athlete) == ["Dan", "Eve", "Finn"])
    #expect(results.lanes(inHeat: 1).allSatisfy { $0.state == .working })
    #expect(results.lanes(inHeat: 3).isEmpty)
  }

  @Test func aFinishATiebreakRepsAndAScoreSetTheLanesState() throws {
    var results = try friday()
    try results.apply(entry(1, 1, .tiebreak(atMilliseconds: 200_000)))
    try results.apply(entry(1, 1, .finish(atMilliseconds: 462_300)))
    try results.apply(entry(1, 2, .reps(12)))
    try results.apply(entry(1, 3, .score(amrap(5, 12))))
    let lanes = results.lanes(inHeat: 1)
    #expect(lanes.map(\.state) == [.finished, .capped, .scored])
    #expect(lanes[0].finishMilliseconds == 462_300 && lanes[0].tiebreakMilliseconds == [200_000])
    #expect(lanes[1].capReps == 12)
    #expect(lanes[2].amrap == amrap(5, 12))
    #expect(lanes.map { $0.scoreText(format: .tenths) } == ["7:42.3", "CAP+12", "5+12"])
    #expect(results.lane(1, inHeat: 2)?.state == .working)
  }

  @Test func aSecondFinishIsRefusedWithTheWayBack() throws {
    var results = try friday()
    try results.apply(entry(1, 3, .finish(atMilliseconds: 462_399)))
    #expect(
      throws: LaneRefusal(
        code: .refused, message: "lane 3 finished at 7:42.3 already",
        hint: "'lane undo 3' takes it back")
    ) {
      try results.apply(entry(1, 3, .finish(atMilliseconds: 470_000)))
    }
    #expect(results.lane(3, inHeat: 1)?.finishMilliseconds == 462_399)
    let refusal = LaneRefusal(
      code: .refused, message: "lane 3 finished at 7:42.3 already",
      hint: "'lane undo 3' takes it back")
    #expect(
      refusal.description == "lane 3 finished at 7:42.3 already; hint: 'lane undo 3' takes it back")
  }

  @Test func undoTakesBackTheLastOperationOnly() throws {
    var results = try friday()
    try results.apply(entry(1, 1, .tiebreak(atMilliseconds: 100_000)))
    try results.apply(entry(1, 1, .tiebreak(atMilliseconds: 200_000)))
    try results.apply(entry(1, 1, .finish(atMilliseconds: 300_000)))
    try results.apply(entry(1, 1, .undo))
    #expect(results.lane(1, inHeat: 1)?.finishMilliseconds == nil)
    #expect(results.lane(1, inHeat: 1)?.tiebreakMilliseconds == [100_000, 200_000])
    try results.apply(entry(1, 1, .undo))
    #expect(results.lane(1, inHeat: 1)?.tiebreakMilliseconds == [100_000])
    // The finish may be pressed again once it is taken back.
    try results.apply(entry(1, 1, .finish(atMilliseconds: 310_000)))
    #expect(results.lane(1, inHeat: 1)?.finishMilliseconds == 310_000)
  }

  @Test func undoWithNothingToUndoIsRefused() throws {
    var results = try friday()
    do {
      try results.apply(entry(1, 2, .undo))
      Issue.record("the undo was applied")
    } catch {
      #expect(error.code == .refused)
      #expect(error.message == "lane 2 has nothing to undo")
    }
    // Nor does an undo reach another lane's operation.
    try results.apply(entry(1, 1, .finish(atMilliseconds: 1000)))
    #expect(throws: LaneRefusal.self) { try results.apply(entry(1, 2, .undo)) }
    #expect(results.lane(1, inHeat: 1)?.state == .finished)
  }

  @Test func newRepsReplaceTheEarlierAndUndoBringsThemBack() throws {
    var results = try friday()
    try results.apply(entry(1, 2, .reps(12)))
    try results.apply(entry(1, 2, .reps(14)))
    #expect(results.lane(2, inHeat: 1)?.capReps == 14)
    try results.apply(entry(1, 2, .undo))
    #expect(results.lane(2, inHeat: 1)?.capReps == 12)
  }

  @Test func aLaneHoldsOneKindOfResult() throws {
    var results = try friday()
    try results.apply(entry(1, 1, .finish(atMilliseconds: 462_300)))
    try results.apply(entry(1, 2, .reps(12)))
    try results.apply(entry(1, 3, .score(amrap(5, 12))))
    let refusals: [(LaneJournalEntry, String)] = [
      (entry(1, 1, .reps(3)), "lane 1 finished at 7:42.3 already"),
      (entry(1, 1, .score(amrap(1, 0))), "lane 1 finished at 7:42.3 already"),
      (entry(1, 2, .finish(atMilliseconds: 5000)), "lane 2 was capped with 12 reps already"),
      (entry(1, 3, .reps(3)), "lane 3 has a score of 5+12 already"),
    ]
    for (entry, message) in refusals {
      do {
        try results.apply(entry)
        Issue.record("\(entry) was applied")
      } catch {
        #expect(error.message == message)
        #expect(error.hint?.hasPrefix("'lane undo \(entry.lane)'") == true)
      }
    }
  }

  @Test func aLaneThatIsNotInTheHeatIsRefusedNamingTheLanesThereAre() throws {
    var results = try friday()
    do {
      try results.apply(entry(2, 3, .finish(atMilliseconds: 1000)))
      Issue.record("lane 3 of heat 2 finished")
    } catch {
      #expect(error.code == .noSuchLane)
      #expect(error.message == "heat 2 has no lane 3: its lanes are 1-2, 4")
    }
    do {
      try results.apply(entry(7, 1, .finish(atMilliseconds: 1000)))
      Issue.record("heat 7 finished")
    } catch {
      #expect(error.code == .noSuchLane)
      #expect(error.message == "the heat sheet has no heat 7: its heats are 1-2")
    }
  }

  @Test func timesBeforeTheStartOrPastADayAndRepsOutOfRangeAreRefused() throws {
    var results = try friday()
    let refused = [
      entry(1, 1, .finish(atMilliseconds: -1)), entry(1, 1, .tiebreak(atMilliseconds: .min)),
      entry(1, 1, .finish(atMilliseconds: .max)), entry(1, 1, .reps(-1)),
      entry(1, 1, .reps(AMRAPScore.maximum + 1)), entry(1, 1, .reps(.min)),
    ]
    for entry in refused {
      #expect(throws: LaneRefusal.self) { try results.apply(entry) }
    }
    #expect(results == (try friday()))
    do {
      try results.apply(entry(1, 1, .finish(atMilliseconds: -1)))
    } catch {
      #expect(error.message == "lane 1's finish comes before the start")
    }
  }

  @Test func tiebreaksAreLimitedPerLane() throws {
    var results = try friday()
    for index in 0..<EventResults.maximumTiebreaks {
      try results.apply(entry(1, 1, .tiebreak(atMilliseconds: Int64(index) * 1000)))
    }
    #expect(throws: LaneRefusal.self) {
      try results.apply(entry(1, 1, .tiebreak(atMilliseconds: 99_000)))
    }
    #expect(results.lane(1, inHeat: 1)?.tiebreakMilliseconds.count == 16)
  }

  @Test func withoutASheetEveryHeatHasTheNumberedLanes() throws {
    var results = EventResults(sheet: nil, numberedLanes: 4)
    #expect(results.lanes(inHeat: 1).map(\.lane) == [1, 2, 3, 4])
    #expect(results.lanes(inHeat: 1).allSatisfy { $0.athlete.isEmpty && $0.division.isEmpty })
    #expect(results.heats.isEmpty)
    try results.apply(entry(2, 4, .finish(atMilliseconds: 1000)))
    #expect(results.heats == [2])
    do {
      try results.apply(entry(1, 5, .finish(atMilliseconds: 1000)))
      Issue.record("lane 5 finished")
    } catch {
      #expect(error.code == .noSuchLane)
      #expect(error.message == "there is no lane 5: the lanes are 1-4")
    }
    #expect(EventResults(sheet: nil, numberedLanes: 500).numberedLanes == 64)
    #expect(EventResults(sheet: nil, numberedLanes: -3).lanes(inHeat: 1).count == 1)
  }

  @Test func replayingTheSameEntriesGivesTheSameLanes() throws {
    let entries = [
      entry(1, 1, .tiebreak(atMilliseconds: 100_000)),
      entry(1, 1, .finish(atMilliseconds: 300_000)),
      entry(1, 1, .finish(atMilliseconds: 301_000)),  // a bumped button: refused
      entry(1, 2, .reps(12)), entry(1, 2, .undo), entry(1, 2, .reps(13)),
      entry(2, 3, .finish(atMilliseconds: 1)),  // no such lane: refused
      entry(2, 1, .score(amrap(4, 2))),
    ]
    var live = try friday()
    var refusedLive = 0
    for entry in entries {
      do { try live.apply(entry) } catch { refusedLive += 1 }
    }
    var replayed = try friday()
    let refused = replayed.replay(LaneJournal.decode(LaneJournal.encode(entries)).entries)
    #expect(replayed == live)
    #expect(refused.map(\.entry) == [entries[2], entries[6]])
    #expect(refused.count == refusedLive)
    #expect(replayed.lanes(inHeat: 1) == live.lanes(inHeat: 1))
  }

  @Test func aLaneUndoneToNothingEqualsOneNeverTouched() throws {
    var results = try friday()
    try results.apply(entry(1, 1, .finish(atMilliseconds: 1000)))
    try results.apply(entry(1, 1, .undo))
    #expect(results == (try friday()))
  }
}
