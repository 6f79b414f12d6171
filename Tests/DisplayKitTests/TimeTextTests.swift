// SPDX-License-Identifier: MIT
// Big-digit times, the time of day and the counter line.

import DisplayKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct TimeTextTests {
  @Test(arguments: [
    (Int64(0), "0:00"), (9, "0:09"), (59, "0:59"), (60, "1:00"), (599, "9:59"), (600, "10:00"),
    (3599, "59:59"), (3600, "1:00:00"), (3661, "1:01:01"), (6000, "1:40:00"),
    (36_000, "10:00:00"), (-5, "-0:05"),
  ])
  func formatsDisplayTimes(_ seconds: Int64, _ expected: String) {
    #expect(TimeText.format(DisplayTime(seconds: seconds, direction: .down)) == expected)
    #expect(TimeText.format(DisplayTime(seconds: seconds, direction: .up)) == expected)
  }

  @Test func countDownShowsTheCeilingFromTheEngine() throws {
    let amrap = WorkoutMode.amrap(AMRAPParameters(time: .minutes(10)))
    #expect(TimeText.format(try snapshot(amrap, after: nil).display!) == "10:00")
    #expect(TimeText.format(try snapshot(amrap, after: 0.5).display!) == "10:00")
    #expect(TimeText.format(try snapshot(amrap, after: 1).display!) == "9:59")
    #expect(TimeText.format(try snapshot(amrap, after: 599.5).display!) == "0:01")
    #expect(TimeText.format(try snapshot(amrap, after: 600).display!) == "0:00")
  }

  @Test func hundredMinutesCountingUp() throws {
    let forTime = WorkoutMode.forTime(ForTimeParameters())
    #expect(TimeText.format(try snapshot(forTime, after: 6000.9).display!) == "1:40:00")
    #expect(TimeText.format(try snapshot(forTime, after: 3599.99).display!) == "59:59")
  }

  @Test(arguments: [
    (21, 5, 9, true, false, "21:05"), (21, 5, 9, true, true, "21:05:09"),
    (9, 5, 0, true, false, "09:05"), (0, 0, 0, true, false, "00:00"),
    (21, 5, 9, false, false, "9:05 PM"), (21, 5, 9, false, true, "9:05:09 PM"),
    (0, 0, 0, false, false, "12:00 AM"), (12, 0, 0, false, false, "12:00 PM"),
    (9, 5, 0, false, false, "9:05 AM"), (11, 59, 59, false, true, "11:59:59 AM"),
    (23, 59, 0, false, false, "11:59 PM"), (24, 0, 0, true, false, "00:00"),
  ])
  func formatsTheTimeOfDay(
    _ hour: Int, _ minute: Int, _ second: Int, _ twentyFour: Bool, _ seconds: Bool,
    _ expected: String
  ) {
    let face = ClockFace(twentyFourHour: twentyFour, showSeconds: seconds)
    #expect(TimeText.clock(hour: hour, minute: minute, second: second, face: face) == expected)
  }

  @Test func clockDigitsLeaveTheMeridiemOut() {
    let face = ClockFace(twentyFourHour: false)
    #expect(TimeText.clockDigits(hour: 13, minute: 7, second: 0, face: face) == "1:07")
    #expect(TimeText.meridiem(hour: 13, face: face) == "PM")
    #expect(TimeText.meridiem(hour: 13, face: ClockFace()) == nil)
  }

  @Test func countersOfEachMode() throws {
    let words = DisplayWords.english
    #expect(TimeText.rounds(try snapshot(tabata, after: 65), words: words) == "R 3/8")
    #expect(
      TimeText.rounds(try snapshot(squats, after: 0.5), words: words) == "SET 1/3 · REP 1/5 · LEFT")
    let ladder = WorkoutMode.emom(
      EMOMParameters(rounds: 10, ladder: Ladder(start: 1, step: 1)))
    #expect(TimeText.rounds(try snapshot(ladder, after: 200), words: words) == "R 4/10 · ×4")
    let sets = WorkoutMode.intervals(
      IntervalParameters(
        work: .seconds(30), rest: .seconds(10), rounds: 4, sets: 3, setRest: .seconds(60)))
    #expect(TimeText.rounds(try snapshot(sets, after: 45), words: words) == "R 2/4 · SET 1/3")
    // An AMRAP's counter is its score, the lap tally: nothing before the first lap.
    #expect(TimeText.rounds(try snapshot(amrap20, after: 10), words: words).isEmpty)
    var amrap = try Workout(amrap20)
    try amrap.start()
    for lap in 1...5 { try amrap.apply(.lap, at: Double(lap) * 60) }
    #expect(TimeText.rounds(amrap.snapshot(330), words: words) == "LAP 5")
    #expect(
      TimeText.rounds(amrap.snapshot(330), words: DisplayWords(language: .german)) == "RUNDE 5")
    let fran = WorkoutMode.forTime(ForTimeParameters(rounds: 3, repScheme: [21, 15, 9]))
    #expect(TimeText.rounds(try snapshot(fran, after: 10), words: words) == "R 1/3 · ×21")
    let forTime = WorkoutMode.forTime(ForTimeParameters())
    #expect(TimeText.rounds(try snapshot(forTime, after: 10), words: words).isEmpty)
    let german = DisplayWords(language: .german)
    #expect(
      TimeText.rounds(try snapshot(squats, after: 0.5), words: german)
        == "SATZ 1/3 · WDH 1/5 · LINKS")
  }

  @Test func tempoText() throws {
    let tempo = try #require(try snapshot(squats, after: 0.5).tempo)
    #expect(TimeText.tempo(tempo) == "↓4·0·↑1·0")
    let explosive = WorkoutMode.tempo(
      TempoParameters(tempo: Tempo(halfSeconds: [3, 2, 0, 0]), reps: 3, reverseDirection: true))
    let reversed = try #require(try snapshot(explosive, after: 0.5).tempo)
    #expect(TimeText.tempo(reversed) == "↑1.5·1·↓X·0")
    // The figures without their arrows, as a page draws them beside its own.
    #expect(
      TempoPhase.allCases.map { TimeText.tempoFigure(reversed, $0) } == ["1.5", "1", "X", "0"])
  }

  @Test func overlayOnOneLine() {
    let overlay = DisplayOverlay(text: "E 10×1", narrow: "E 10.1", caption: "ENTER loads")
    #expect(overlay.line == "E 10×1  ·  ENTER loads")
  }
}
