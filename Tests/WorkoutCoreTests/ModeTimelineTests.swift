// SPDX-License-Identifier: MIT
// Per mode: the timeline's shape, the displayed time and round at chosen instants, the cues.

import Testing
import WodclockTestSupport

@testable import WorkoutCore

@Suite struct ModeTimelineTests {
  @Test func emomShapeDisplayAndCues() throws {
    var clock = try engine(
      .emom(EMOMParameters(interval: .seconds(60), rounds: 3, labels: ["burpees", "wall balls"])),
      countIn: 10, cues: CueOptions(halfway: false, lastTenSeconds: false))
    #expect(clock.timeline.segments.map(\.kind) == [.countIn, .work, .work, .work])
    #expect(clock.timeline.workoutLength == .minutes(3))
    #expect(clock.timeline.segments.compactMap(\.label) == ["burpees", "wall balls", "burpees"])

    let idle = clock.snapshot(at: at(0))
    #expect(idle.runState == .idle)
    #expect(idle.display == DisplayTime(seconds: 60, direction: .down))

    let cues = try clock.apply(.start, at: at(0))
    #expect(describe(cues) == ["0.0 segment(count_in)"])
    #expect(clock.snapshot(at: at(0)).display == DisplayTime(seconds: 10, direction: .down))
    #expect(clock.snapshot(at: at(0.5)).display?.seconds == 10)
    #expect(clock.snapshot(at: at(9.999)).display?.seconds == 1)
    #expect(clock.snapshot(at: at(5)).runState == .countIn)

    let s = clock.snapshot(at: at(10 + 61.5))
    #expect(s.runState == .running)
    #expect(s.round == Counter(2, of: 3))
    #expect(s.label == "wall balls")
    #expect(s.display == DisplayTime(seconds: 59, direction: .down))
    #expect(s.elapsed == seconds(61.5))
    #expect(s.remaining == seconds(118.5))
    #expect(s.secondsIntoMinute == 1)

    var all = cues
    var now = 0.0
    while clock.state.phase != .finished {
      now += 0.5
      all += clock.advance(to: at(now))
    }
    #expect(
      describe(all) == [
        "0.0 segment(count_in)",
        "7.0 countdown(3,count_in)", "8.0 countdown(2,count_in)", "9.0 countdown(1,count_in)",
        "10.0 start", "10.0 round(1/3)", "10.0 segment(work)",
        "67.0 countdown(3,work)", "68.0 countdown(2,work)", "69.0 countdown(1,work)",
        "70.0 round(2/3)", "70.0 remaining(2)", "70.0 segment(work)",
        "127.0 countdown(3,work)", "128.0 countdown(2,work)", "129.0 countdown(1,work)",
        "130.0 round(3/3)", "130.0 segment(work)",
        "187.0 countdown(3,work)", "188.0 countdown(2,work)", "189.0 countdown(1,work)",
        "190.0 finish",
      ])
    let end = clock.snapshot(at: at(500))
    #expect(end.runState == .finished)
    #expect(end.finishReason == .completed)
    #expect(end.display == DisplayTime(seconds: 0, direction: .down))
    #expect(end.elapsed == .minutes(3))
  }

  @Test func countDownShowsCeilingAndReachesZeroExactlyAtTheEnd() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .seconds(10))))
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.snapshot(at: at(0)).display?.seconds == 10)
    #expect(clock.snapshot(at: at(0.000_000_001)).display?.seconds == 10)
    #expect(clock.snapshot(at: at(0.999_999_999)).display?.seconds == 10)
    #expect(clock.snapshot(at: at(1)).display?.seconds == 9)
    #expect(clock.snapshot(at: at(9.5)).display?.seconds == 1)
    #expect(clock.snapshot(at: at(9.999_999_999)).display?.seconds == 1)
    #expect(clock.snapshot(at: at(10)).display?.seconds == 0)
    #expect(clock.snapshot(at: at(10)).runState == .finished)
  }

  @Test func forTimeCountsUpAndFinishFreezesTheTime() throws {
    var clock = try engine(.forTime(ForTimeParameters()), countIn: 3)
    #expect(clock.timeline.workoutLength == nil)
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.snapshot(at: at(3)).display == DisplayTime(seconds: 0, direction: .up))
    #expect(clock.snapshot(at: at(3.999)).display?.seconds == 0)
    #expect(clock.snapshot(at: at(4)).display?.seconds == 1)
    #expect(clock.snapshot(at: at(3 + 125.7)).display?.seconds == 125)
    #expect(clock.snapshot(at: at(100)).remaining == nil)
    let cues = try clock.apply(.finish, at: at(3 + 200.25))
    #expect(describe(cues).last == "203.25 finish")
    let frozen = clock.snapshot(at: at(9999))
    #expect(frozen.runState == .finished)
    #expect(frozen.finishReason == .completed)
    #expect(frozen.elapsed == seconds(200.25))
    #expect(frozen.display == DisplayTime(seconds: 200, direction: .up))
    #expect(clock.nextDeadline == nil)
  }

  @Test func forTimeCapFinishesAtTheCapAndSaysSo() throws {
    var clock = try engine(
      .forTime(ForTimeParameters(cap: .minutes(10))), countIn: 0,
      cues: CueOptions(countdown: false, halfway: false))
    let cues = try runToEnd(&clock, step: 1)
    #expect(
      describe(cues) == [
        "0.0 start", "0.0 segment(work)", "590.0 last10", "600.0 cap", "600.0 finish",
      ])
    let end = clock.snapshot(at: at(700))
    #expect(end.finishReason == .capped)
    #expect(end.display == DisplayTime(seconds: 600, direction: .up))
  }

  @Test func roundsForTimeTalliesLapsAndTheLastLapFinishes() throws {
    var clock = try engine(.forTime(ForTimeParameters(rounds: 3)))
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.snapshot(at: at(1)).round == Counter(1, of: 3))
    _ = try clock.apply(.lap, at: at(40))
    #expect(clock.snapshot(at: at(41)).round == Counter(2, of: 3))
    _ = try clock.apply(.lap, at: at(85))
    let cues = try clock.apply(.lap, at: at(130.5))
    #expect(describe(cues) == ["130.5 lap(3)", "130.5 finish"])
    let end = clock.snapshot(at: at(200))
    #expect(end.runState == .finished)
    #expect(end.laps == 3)
    #expect(end.elapsed == seconds(130.5))
    #expect(end.lastLapAt == seconds(130.5))
  }

  @Test func amrapCountsDownAndTalliesRounds() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(12))), countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.snapshot(at: at(10)).display == DisplayTime(seconds: 720, direction: .down))
    _ = try clock.apply(.lap, at: at(100))
    _ = try clock.apply(.lap, at: at(200))
    let s = clock.snapshot(at: at(250))
    #expect(s.laps == 2)
    // The round is the score: the rounds done, not the round under way.
    #expect(s.round == Counter(2, of: nil))
    #expect(s.display == DisplayTime(seconds: 480, direction: .down))
    #expect(throws: ActionRefusal.self) {
      var fresh = try engine(.amrap(AMRAPParameters(time: .minutes(1))), countIn: 10)
      _ = try fresh.apply(.start, at: at(0))
      _ = try fresh.apply(.lap, at: at(5))
    }
  }

  @Test func amrapRoundIsTheRoundsDoneFromTheFirstLap() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(12))))
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.snapshot(at: at(30)).round == nil)
    for lap in 1...5 { _ = try clock.apply(.lap, at: at(Double(lap) * 60)) }
    let afterFive = clock.snapshot(at: at(330))
    #expect(afterFive.round == Counter(5, of: nil))
    #expect(afterFive.laps == 5)
    _ = clock.advance(to: at(800))
    #expect(clock.snapshot(at: at(800)).round == Counter(5, of: nil))
  }

  @Test func aForTimeRepSchemeAdvancesRoundByRoundAndItsLastLapStops() throws {
    var clock = try engine(
      .forTime(ForTimeParameters(cap: .minutes(10), rounds: 3, repScheme: [21, 15, 9])),
      countIn: 10)
    let idle = clock.snapshot(at: at(0))
    #expect(idle.round == Counter(1, of: 3))
    #expect(idle.targetReps == 21)
    _ = try clock.apply(.start, at: at(0))
    let first = clock.snapshot(at: at(40))
    #expect(first.round == Counter(1, of: 3))
    #expect(first.targetReps == 21)
    _ = try clock.apply(.lap, at: at(100))
    let second = clock.snapshot(at: at(101))
    #expect(second.round == Counter(2, of: 3))
    #expect(second.targetReps == 15)
    _ = try clock.apply(.lap, at: at(170))
    #expect(clock.snapshot(at: at(171)).targetReps == 9)
    let cues = try clock.apply(.lap, at: at(215.5))
    #expect(describe(cues) == ["215.5 lap(3)", "215.5 finish"])
    let end = clock.snapshot(at: at(300))
    #expect(end.runState == .finished)
    #expect(end.finishReason == .completed)
    #expect(end.elapsed == seconds(205.5))
    #expect(end.round == Counter(3, of: 3))
  }

  @Test func aRepSchemeWithoutRoundsTakesItsCount() throws {
    var clock = try engine(.forTime(ForTimeParameters(repScheme: [5, 3])))
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.snapshot(at: at(1)).round == Counter(1, of: 2))
    _ = try clock.apply(.lap, at: at(10))
    #expect(try clock.apply(.lap, at: at(20)).map(\.kind) == [.lap(2), .finish])
  }

  @Test func aRepSchemeOutOfRangeOrAtOddsWithItsRoundsIsRefused() {
    func problems(_ parameters: ForTimeParameters) -> [String] {
      WorkoutPlan(name: "t", mode: .forTime(parameters)).validationErrors().map(\.description)
    }
    #expect(
      problems(ForTimeParameters(repScheme: [])) == [
        "'reps' must list between 1 and 999 rounds, got 0"
      ])
    #expect(
      problems(ForTimeParameters(repScheme: Array(repeating: 1, count: 1000))) == [
        "'reps' must list between 1 and 999 rounds, got 1000"
      ])
    #expect(
      problems(ForTimeParameters(repScheme: [21, 0, 9])) == [
        "'reps' of round 2 must be between 1 and 999, got 0"
      ])
    #expect(
      problems(ForTimeParameters(repScheme: [21, Int.max])) == [
        "'reps' of round 2 must be between 1 and 999, got \(Int.max)"
      ])
    #expect(
      problems(ForTimeParameters(rounds: 5, repScheme: [21, 15, 9])) == [
        "'rounds' is 5, but 'reps' lists 3 rounds; leave 'rounds' out: 'reps' sets it"
      ])
  }

  @Test func intervalsWithSetsSetRestAndSkippedLastRest() throws {
    let parameters = IntervalParameters(
      work: .seconds(30), rest: .seconds(15), rounds: 3, sets: 2, setRest: .seconds(60),
      skipLastRest: true)
    let clock = try engine(.intervals(parameters))
    let kinds = clock.timeline.segments.map(\.kind)
    #expect(
      kinds == [.work, .rest, .work, .rest, .work, .setRest, .work, .rest, .work, .rest, .work])
    let expected: TimeSpan = .seconds(300)  // 6 × 30 s work, 4 × 15 s rest, 60 s set rest
    #expect(clock.timeline.workoutLength == expected)
    #expect(clock.timeline.segments[6].set == Counter(2, of: 2))
    #expect(clock.timeline.segments[6].round == Counter(1, of: 3))
  }

  @Test func intervalsWithZeroRestHaveNoRestSegments() throws {
    let clock = try engine(
      .intervals(IntervalParameters(work: .seconds(40), rest: .zero, rounds: 4)))
    #expect(clock.timeline.segments.map(\.kind) == [.work, .work, .work, .work])
  }

  @Test func tabataDefaultsAndCues() throws {
    var clock = try engine(.tabata(.tabata), countIn: 10)
    #expect(clock.timeline.workoutLength == .minutes(4))
    #expect(clock.timeline.segments.count == 1 + 16)
    let cues = try runToEnd(&clock)
    let text = describe(cues)
    #expect(text.filter { $0.hasSuffix("segment(work)") }.count == 8)
    #expect(text.contains("40.0 round(2/8)"))
    #expect(text.contains("27.0 countdown(3,rest)") == false)
    #expect(text.contains("37.0 countdown(3,rest)"))
    #expect(text.contains("130.0 halfway"))
    #expect(text.contains("240.0 last10"))
    #expect(text.last == "250.0 finish")
    // Rounds remaining, counting the round that starts: round 4 of 8 has 5 left, round 7 has 2.
    #expect(text.contains("100.0 remaining(5)"))
    #expect(text.contains("190.0 remaining(2)"))
  }

  @Test func clockModeOnlyShowsTheTime() throws {
    var clock = try engine(.clock(ClockFace(twentyFourHour: false, showSeconds: true)))
    #expect(clock.timeline.segments.isEmpty)
    let s = clock.snapshot(at: at(5))
    #expect(s.clockFace == ClockFace(twentyFourHour: false, showSeconds: true))
    #expect(s.display == nil)
    #expect(clock.nextDeadline == nil)
    #expect(throws: ActionRefusal.self) { _ = try clock.apply(.start, at: at(1)) }
  }

  @Test func emomLadderGivesGrowingRepTargets() throws {
    let clock = try engine(
      .emom(EMOMParameters(rounds: 5, ladder: Ladder(start: 1, step: 1))))
    #expect(clock.timeline.segments.compactMap(\.targetReps) == [1, 2, 3, 4, 5])
  }

  @Test func invalidParametersAreRefusedWithTheParameterNamed() {
    #expect(throws: PlanErrors.self) { try engine(.emom(EMOMParameters(rounds: 0))) }
    do {
      _ = try engine(
        .intervals(IntervalParameters(work: .zero, rest: .seconds(-1), rounds: 1000)),
        countIn: 100)
      Issue.record("expected an error")
    } catch let error as PlanErrors {
      #expect(error.errors.map(\.parameter) == ["count_in", "work", "rest", "rounds"])
      #expect(error.errors[3].message == "must be between 1 and 999, got 1000")
      #expect(error.errors[0].message == "must be between 0:00 and 1:39, got 1:40")
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }
}
