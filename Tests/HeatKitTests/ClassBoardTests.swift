// SPDX-License-Identifier: MIT
// Today's board of class scores, and the call-up of a heat.

import HeatKit
import Testing

@Suite struct ClassBoardTests {
  func score(_ text: String) throws -> ClassScore { try ClassScore.parse(text).get() }

  @Test func forTimeRanksTimesThenCappedByRepsAndAMRAPFromTheHighest() throws {
    var board = ClassBoard()
    try board.record(score("CAP+40"), athlete: "Ann", workout: "Fran", kind: .forTime)
    try board.record(score("7:42"), athlete: "Ben", workout: "Fran", kind: .forTime)
    try board.record(score("CAP+45"), athlete: "Cat", workout: "Fran", kind: .forTime)
    try board.record(score("5:10.5"), athlete: "Dan", workout: "Fran", kind: .forTime)
    try board.record(score("5+12"), athlete: "Eve", workout: "Cindy", kind: .amrap)
    try board.record(score("7+3"), athlete: "Fay", workout: "Cindy", kind: .amrap)
    #expect(board.workouts == ["Fran", "Cindy"])
    #expect(
      board.ranked().map { "\($0.workout) \($0.place) \($0.athlete) \($0.score)" } == [
        "Fran 1 Dan 5:10.5", "Fran 2 Ben 7:42", "Fran 3 Cat CAP+45", "Fran 4 Ann CAP+40",
        "Cindy 1 Fay 7+3", "Cindy 2 Eve 5+12",
      ])
  }

  @Test func equalScoresShareAPlaceInTheOrderEntered() throws {
    var board = ClassBoard()
    for (athlete, text) in [("Ann", "20:00"), ("Ben", "18:00"), ("Cat", "20:00"), ("Dan", "21:00")]
    {
      try board.record(score(text), athlete: athlete, workout: "Murph", kind: .forTime)
    }
    #expect(board.ranked().map(\.place) == [1, 2, 2, 4])
    #expect(board.ranked().map(\.athlete) == ["Ben", "Ann", "Cat", "Dan"])
  }

  @Test func aNameTypedAgainReplacesItsScore() throws {
    var board = ClassBoard()
    try board.record(score("7:42"), athlete: "Ann", workout: "Fran", kind: .forTime)
    try board.record(score("6:59"), athlete: " ann ", workout: "Fran", kind: .forTime)
    try board.record(score("9:00"), athlete: "Ann", workout: "Grace", kind: .forTime)
    #expect(board.entries.count == 2)
    #expect(board.ranked().first?.score == .time(milliseconds: 419_000))
    let removed = board.remove(athlete: "ANN", workout: "Fran")
    let removedAgain = board.remove(athlete: "Ann", workout: "Fran")
    #expect(removed && !removedAgain)
    #expect(board.workouts == ["Grace"])
  }

  @Test func aScoreOfTheOtherKindOrABadNameIsRefused() throws {
    var board = ClassBoard()
    let refused: [(ClassScore, String, ClassWorkoutKind, String)] = [
      (
        try score("5+12"), "Ann", .forTime,
        "'Fran' is For Time and takes a time or CAP+reps, found '5+12'"
      ),
      (try score("7:42"), "Ann", .amrap, "'Fran' is an AMRAP and takes rounds+reps, found '7:42'"),
      (
        try score("CAP+3"), "Ann", .amrap, "'Fran' is an AMRAP and takes rounds+reps, found 'CAP+3'"
      ),
      (try score("7:42"), "  ", .forTime, "expected the athlete's name, found nothing"),
      (
        try score("7:42"), "A\nB", .forTime,
        "the athlete's name must be one line of at most 80 characters"
      ),
      (
        try score("7:42"), String(repeating: "x", count: 81), .forTime,
        "the athlete's name must be one line of at most 80 characters"
      ),
    ]
    for (score, athlete, kind, message) in refused {
      do {
        try board.record(score, athlete: athlete, workout: "Fran", kind: kind)
        Issue.record("\(score) for '\(athlete)' was recorded")
      } catch {
        #expect(error.message == message)
        #expect(error.hint != nil)
      }
    }
    #expect(board.entries.isEmpty)
  }

  @Test func theBoardHoldsABoundedNumberOfScores() throws {
    var board = ClassBoard()
    for index in 0..<ClassBoard.maximumEntries {
      try board.record(.capped(reps: index), athlete: "A\(index)", workout: "W", kind: .forTime)
    }
    #expect(throws: ScoreProblem.self) {
      try board.record(.capped(reps: 1), athlete: "One more", workout: "W", kind: .forTime)
    }
    // A correction of a name already there still goes in.
    try board.record(.capped(reps: 5000), athlete: "A0", workout: "W", kind: .forTime)
    #expect(board.ranked().first?.athlete == "A0")
  }
}

@Suite struct HeatCallUpTests {
  let entries = [
    HeatEntry(heat: 3, lane: 2, athlete: "Ben", division: "Rx"),
    HeatEntry(heat: 3, lane: 1, athlete: "Anna", division: "Rx"),
  ]

  @Test func theLinesAreAHeadingThenEachLaneInOrder() {
    #expect(HeatCallUp.lines(heat: 3, entries: entries) == ["Heat 3", "1 Anna", "2 Ben"])
    #expect(HeatCallUp.lines(heat: 4, entries: []) == ["Heat 4"])
  }

  @Test func theSpokenCallUpNamesEachLaneWithDigits() {
    #expect(HeatCallUp.spoken(heat: 3, entries: entries) == "Heat 3. Lane 1, Anna. Lane 2, Ben.")
  }

  @Test(
    arguments: [
      (462_300, "Lane 3, 7:42"), (425_999, "Lane 3, 7 oh 5"), (420_000, "Lane 3, 7 minutes"),
      (60_400, "Lane 3, 1 minute"), (42_900, "Lane 3, 42 seconds"), (1_000, "Lane 3, 1 second"),
      (3_725_000, "Lane 3, 1 hour 2 minutes 5 seconds"), (-5, "Lane 3, 0 seconds"),
    ] as [(Int64, String)])
  func aFinishIsSaidAsAPersonSaysATime(milliseconds: Int64, said: String) {
    #expect(HeatCallUp.spokenFinish(lane: 3, milliseconds: milliseconds) == said)
  }

  @Test func aLoadedSheetsHeatIsCalledUp() throws {
    let sheet = try HeatSheet.parse(eventSheet, name: "heats.csv").get()
    #expect(
      HeatCallUp.spoken(heat: 2, entries: sheet.entries(inHeat: 2))
        == "Heat 2. Lane 1, Ed. Lane 2, Flo. Lane 3, Gus. Lane 4, Hal.")
  }
}
