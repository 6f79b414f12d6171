// SPDX-License-Identifier: MIT
// Every layout for every mode at chosen instants, with snapshots from the real engine. Pictures
// are read back with the datasheet digit table (TestSupport), so `G0` is the shape of GO and
// `5` that of S; an unlit colon reads as a space.

import DisplayKit
import SevenSegment
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct RendererTests {
  @Test func emomWithCountInOnEveryLayout() throws {
    var emom = try Workout(.emom(EMOMParameters(interval: .seconds(60), rounds: 10)), countIn: 10)
    #expect(try show(emom.snapshot(0), "RR MM:SS") == "    1:00")  // idle: the first interval
    try emom.start()
    let layouts = ["RR MM:SS", "RRR MM:SS", "R MM:SS", "MM:SS", "HH:MM", "SS"]
    let expected: KeyValuePairs<Double, [String]> = [
      3: ["    0:07", "PrE  0:07", "   0:07", " 0:07", " 0:07", " 7"],
      10.5: ["G0  1:00", " G0  1:00", "1  1:00", " 1:00", " 1:00", "60"],
      75: [" 2  0:55", "  2  0:55", "2  0:55", " 0:55", " 0:55", "55"],
      609.5: ["10  0:01", " 10  0:01", "-  0:01", " 0:01", " 0:01", " 1"],
      700: ["10  0:00", "End  0:00", "-  0:00", " 0:00", " 0:00", " 0"],
    ]
    for (instant, pictures) in expected {
      let snapshot = emom.snapshot(instant)
      for (layout, picture) in zip(layouts, pictures) {
        #expect(try show(snapshot, layout) == picture, "\(layout) at \(instant) s")
      }
    }
  }

  @Test func roundsRemainingAndThePrefix() throws {
    var emom = try Workout(.emom(EMOMParameters(interval: .seconds(60), rounds: 10)))
    try emom.start()
    let second = emom.snapshot(75)
    let last = emom.snapshot(599)
    #expect(try show(second, "RR MM:SS", rounds: .remaining) == " 9  0:45")
    #expect(try show(last, "RR MM:SS", rounds: .remaining) == " 1  0:01")
    #expect(try show(second, "RR MM:SS", prefix: true) == "r2  0:45")
    #expect(try show(last, "RR MM:SS", prefix: true) == "10  0:01")
  }

  @Test func tabataRestsAndRounds() throws {
    var tabata = try Workout(
      .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 8)))
    try tabata.start()
    #expect(try show(tabata.snapshot(0.2), "RR MM:SS") == "G0  0:20")
    #expect(try show(tabata.snapshot(5), "RR MM:SS") == " 1  0:15")
    #expect(try show(tabata.snapshot(25), "RR MM:SS") == " 1  0:05")  // rest keeps the round
    #expect(try show(tabata.snapshot(25), "RRR SS") == "r5t  5")  // rSt on three digits
    #expect(try show(tabata.snapshot(35), "R MM:SS") == "2  0:15")
    #expect(try show(tabata.snapshot(35), "SS") == "15")
  }

  @Test func amrapShowsTheLapTallyAndBlinksWhenPaused() throws {
    var amrap = try Workout(.amrap(AMRAPParameters(time: .seconds(720))))
    try amrap.start()
    #expect(try show(amrap.snapshot(30), "RR MM:SS") == "   11:30")  // no lap yet: blank
    try amrap.apply(.lap, at: 100)
    try amrap.apply(.lap, at: 200)
    #expect(try show(amrap.snapshot(250), "RR MM:SS") == " 2  7:50")
    try amrap.apply(.pause, at: 300)
    let paused = amrap.snapshot(300.2)
    // Pause blink: lit for the first half of the tokens' 1 s period, dark (colon too) after.
    #expect(try show(paused, "RR MM:SS", milliseconds: 200) == " 2  7:00")
    #expect(try show(paused, "RR MM:SS", milliseconds: 700) == " 2      ")
    try amrap.apply(.resume, at: 310)
    #expect(try show(amrap.snapshot(1100), "RRR MM:SS") == "End  0:00")
    #expect(try show(amrap.snapshot(1100), "RR MM:SS") == " 2  0:00")
  }

  @Test func aRepSchemeShowsTheRepsOfTheRoundAndRoundsForTimeTheRoundUnderWay() throws {
    var fran = try Workout(.forTime(ForTimeParameters(rounds: 3, repScheme: [21, 15, 9])))
    try fran.start()
    #expect(try show(fran.snapshot(30), "RR MM:SS") == "21  0:30")
    try fran.apply(.lap, at: 100)
    #expect(try show(fran.snapshot(130), "RR MM:SS") == "15  2:10")
    try fran.apply(.lap, at: 170)
    #expect(try show(fran.snapshot(180), "RR MM:SS") == " 9  3:00")
    var rounds = try Workout(.forTime(ForTimeParameters(rounds: 5)))
    try rounds.start()
    try rounds.apply(.lap, at: 100)
    try rounds.apply(.lap, at: 200)
    // Round 3 of 5 under way, as the terminal's and the matrix's `R 3/5` say.
    #expect(try show(rounds.snapshot(250), "RR MM:SS") == " 3  4:10")
    #expect(try show(rounds.snapshot(250), "RR MM:SS", rounds: .remaining) == " 3  4:10")
    #expect(try show(rounds.snapshot(250), "RR MM:SS", prefix: true) == "r3  4:10")
  }

  @Test func forTimeOverRangeDegradesToCoarserUnitsThenDashes() throws {
    var forTime = try Workout(.forTime(ForTimeParameters()))
    try forTime.start()
    let layouts = ["RR MM:SS", "SS", "H:MM:SS", "HH:MM"]
    let expected: KeyValuePairs<Double, [String]> = [
      59: ["    0:59", "59", "0:00:59", " 0:59"],
      3600: ["   60:00", "--", "1:00:00", "60:00"],
      5999: ["   99:59", "--", "1:39:59", "99:59"],
      6000: ["    1:40", "--", "1:40:00", " 1:40"],  // 100 minutes: hours and minutes
      359_999: ["   99:59", "--", "-:--:--", "99:59"],
      360_000: ["   --:--", "--", "-:--:--", "--:--"],
    ]
    for (instant, pictures) in expected {
      let snapshot = forTime.snapshot(instant)
      for (layout, picture) in zip(layouts, pictures) {
        #expect(try show(snapshot, layout) == picture, "\(layout) at \(instant) s")
      }
    }
  }

  @Test func aFinishShowsEndOrCapAlternatingWithTheTime() throws {
    var forTime = try Workout(.forTime(ForTimeParameters()))
    try forTime.start()
    try forTime.apply(.finish, at: 754)
    let done = forTime.snapshot(760)
    #expect(try show(done, "RRR MM:SS") == "End 12:34")
    #expect(try show(done, "MM:SS", milliseconds: 100) == "12:34")
    #expect(try show(done, "MM:SS", milliseconds: 600) == " E nd")
    var capped = try Workout(.forTime(ForTimeParameters(cap: .seconds(600))))
    try capped.start()
    #expect(try show(capped.snapshot(700), "RRR MM:SS") == "CAP 10:00")
    #expect(try show(capped.snapshot(700), "MM:SS", milliseconds: 600) == " C AP")
  }

  @Test func tempoShowsSetAndRep() throws {
    let tempo = Tempo(eccentric: 6, bottomPause: 2, concentric: 2, topPause: 0)  // 5 s a rep
    var workout = try Workout(
      .tempo(TempoParameters(tempo: tempo, reps: 5, sets: 3, setRest: .seconds(60))))
    try workout.start()
    #expect(try show(workout.snapshot(0.5), "RR MM:SS") == " 1  0:03")
    #expect(try show(workout.snapshot(0.5), "RRR MM:SS") == "101  0:03")
    #expect(try show(workout.snapshot(21), "RRR MM:SS") == "105  0:02")
    #expect(try show(workout.snapshot(30), "RRR MM:SS") == "5Et  0:55")  // set rest: SEt
    #expect(try show(workout.snapshot(100), "RRR MM:SS") == "204  0:03")
  }

  @Test func theClockShowsTheTimeOfDayWithABlinkingColon() throws {
    var clock = try Workout(.clock(ClockFace(twentyFourHour: true)))
    let now = clock.snapshot(1)
    #expect(try show(now, "HH:MM") == "09:05")
    #expect(try show(now, "HH:MM", milliseconds: 600) == "09 05")
    #expect(try show(now, "MM:SS") == "09:05")  // two units: hours and minutes
    #expect(try show(now, "RR MM:SS") == "   09:05")  // no counter in the clock mode
    #expect(try show(now, "H:MM:SS") == "9:05:30")
    var twelve = try Workout(.clock(ClockFace(twentyFourHour: false)))
    let evening = TimeOfDay(hour: 21, minute: 7)
    #expect(try show(twelve.snapshot(1), "HH:MM", time: evening) == " 9:07")
    #expect(try show(twelve.snapshot(1), "HH:MM", time: TimeOfDay(hour: 0, minute: 7)) == "12:07")
  }

  @Test func brightnessFollowsTheNightSchedule() throws {
    var clock = try Workout(.clock(ClockFace()))
    let layout = try SegmentLayout(parsing: "HH:MM")
    func percent(_ hour: Int) -> Int {
      SegmentRenderer.render(
        clock.snapshot(1), options: SegmentDisplayOptions(layout: layout), tokens: .standard,
        timeOfDay: TimeOfDay(hour: hour, minute: 0), milliseconds: 0
      ).brightnessPercent
    }
    #expect(percent(12) == DesignTokens.standard.brightness(atMinuteOfDay: 12 * 60))
    #expect(percent(12) == 100)
    #expect(percent(23) == 25)
  }

  @Test func blinkPeriods() throws {
    let options = SegmentDisplayOptions(layout: try SegmentLayout(parsing: "RR MM:SS"))
    var clock = try Workout(.clock(ClockFace()))
    #expect(
      SegmentRenderer.blinkPeriodMilliseconds(
        clock.snapshot(1), options: options, tokens: .standard) == 1000)
    var emom = try Workout(.emom(EMOMParameters(rounds: 3)))
    try emom.start()
    #expect(
      SegmentRenderer.blinkPeriodMilliseconds(emom.snapshot(5), options: options, tokens: .standard)
        == nil)
    try emom.apply(.pause, at: 6)
    #expect(
      SegmentRenderer.blinkPeriodMilliseconds(emom.snapshot(7), options: options, tokens: .standard)
        == 1000)
  }

  @Test func onlyChangedDigitsAreListed() {
    #expect(SegmentDiff.changedPositions(from: nil, to: [1, 2, 3]) == [0, 1, 2])
    #expect(SegmentDiff.changedPositions(from: [1, 2, 3], to: [1, 2, 3]) == [])
    #expect(SegmentDiff.changedPositions(from: [1, 2, 3, 4], to: [1, 9, 9, 4]) == [1, 2])
    #expect(SegmentDiff.runs([5, 1, 2, 3]) == [1..<4, 5..<6])
  }
}
