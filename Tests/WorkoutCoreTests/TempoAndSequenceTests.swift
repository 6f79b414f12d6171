// SPDX-License-Identifier: MIT
// TempoRep's cases and the Workout Framework's templates.

import JSONKit
import Testing
import WodclockTestSupport

@testable import WorkoutCore

@Suite struct TempoTests {
  private func tempo(
    _ values: [Int], reps: Int = 2, sets: Int = 1, start: TempoParameters.StartPhase = .eccentric,
    unilateral: Bool = false, switchPause: TimeSpan = .seconds(5), reverse: Bool = false
  ) throws -> WorkoutEngine {
    try engine(
      .tempo(
        TempoParameters(
          tempo: Tempo(halfSeconds: values), reps: reps, sets: sets, setRest: .seconds(60),
          startPhase: start, unilateral: unilateral, switchPause: switchPause,
          reverseDirection: reverse)))
  }

  @Test func bilateralTimeline() throws {
    // 4010 = ↓4·0·↑1·0: the zero-length pauses are skipped.
    let clock = try tempo([8, 0, 2, 0], reps: 2, sets: 2)
    let shape = clock.timeline.segments.map { "\($0.kind.rawValue):\($0.duration!)" }
    #expect(
      shape == [
        "eccentric:0:04", "concentric:0:01", "eccentric:0:04", "concentric:0:01",
        "set_rest:1:00",
        "eccentric:0:04", "concentric:0:01", "eccentric:0:04", "concentric:0:01",
      ])
    #expect(clock.timeline.segments[0].rep == Counter(1, of: 2))
    #expect(clock.timeline.segments[5].set == Counter(2, of: 2))
  }

  /// TempoRep counts the seconds of a phase after its name: "Down, 2, 3, 4" through a 4 s
  /// lowering; a 1.5 s phase counts 2, a 1 s phase nothing.
  @Test func tempoPhasesCountTheirSeconds() throws {
    // 4-0-1.5-0, one rep (no count-in): down 4 s from 0 s, up 1.5 s from 4 s.
    var clock = try tempo([8, 0, 3, 0], reps: 1)
    let counts = describe(try runToEnd(&clock)).filter { $0.contains("count(") }
    #expect(counts == ["1.0 count(2)", "2.0 count(3)", "3.0 count(4)", "5.0 count(2)"])
    var short = try tempo([2, 2, 2, 0], reps: 1)
    #expect(describe(try runToEnd(&short)).allSatisfy { !$0.contains("count(") })
  }

  @Test func halfSecondPhasesAndExplosiveConcentric() throws {
    // 3-0-1.5-0 and 2-1-0-0 (explosive concentric, timed as 1 s).
    let half = try tempo([6, 0, 3, 0], reps: 1)
    #expect(half.timeline.segments.map(\.duration) == [.seconds(3), seconds(1.5)])
    let explosive = try tempo([4, 2, 0, 0], reps: 1)
    #expect(explosive.timeline.segments.map(\.kind) == [.eccentric, .bottomPause, .concentric])
    #expect(explosive.timeline.segments.map(\.duration) == [.seconds(2), .seconds(1), .seconds(1)])
  }

  @Test func startPhaseReordersTheRep() throws {
    let clock = try tempo([6, 2, 2, 2], reps: 1, start: .concentric)
    #expect(
      clock.timeline.segments.map(\.kind) == [.concentric, .topPause, .eccentric, .bottomPause])
  }

  @Test func unilateralDoesOneSideSwitchesThenTheOther() throws {
    var clock = try tempo([4, 0, 2, 0], reps: 2, sets: 2, unilateral: true)
    let shape = clock.timeline.segments.map { "\($0.kind.rawValue):\($0.side?.rawValue ?? "-")" }
    #expect(
      shape == [
        "eccentric:left", "concentric:left", "eccentric:left", "concentric:left",
        "side_switch:right",
        "eccentric:right", "concentric:right", "eccentric:right", "concentric:right",
        "set_rest:-",
        "eccentric:left", "concentric:left", "eccentric:left", "concentric:left",
        "side_switch:right",
        "eccentric:right", "concentric:right", "eccentric:right", "concentric:right",
      ])
    let cues = describe(try runToEnd(&clock, step: 0.5))
    #expect(cues.filter { $0.contains("rep(") }.count == 8)
    #expect(cues.filter { $0.contains("set(") } == ["17.0 set(1/2)", "94.0 set(2/2)"])
    #expect(cues.filter { $0.contains("switch(") } == ["6.0 switch(right)", "83.0 switch(right)"])
    #expect(cues.first == "0.0 start")
    // No 3-2-1 inside tempo phases; the switch pause and the set rest get theirs.
    #expect(cues.contains("8.0 countdown(3,side_switch)"))
    #expect(cues.contains("74.0 countdown(3,set_rest)"))
    #expect(!cues.contains { $0.contains("countdown") && $0.contains("centric") })
  }

  @Test func switchPauseOfZeroStillAnnouncesTheSwitch() throws {
    var clock = try tempo([2, 0, 2, 0], reps: 1, unilateral: true, switchPause: .zero)
    #expect(
      clock.timeline.segments.map(\.kind) == [.eccentric, .concentric, .eccentric, .concentric])
    let cues = describe(try runToEnd(&clock))
    #expect(cues.contains("2.0 switch(right)"))
  }

  @Test func timeUnderTensionAndPacingTrack() throws {
    var clock = try tempo([8, 2, 2, 0], reps: 2, reverse: false)
    _ = try clock.apply(.start, at: at(0))
    let lowering = clock.snapshot(at: at(1))
    #expect(lowering.tempo?.phase == .eccentric)
    #expect(lowering.tempo?.arrow == .down)
    #expect(lowering.tempo?.phaseProgress == 0.25)
    #expect(lowering.tempo?.trackPosition == 0.25)
    #expect(lowering.timeUnderTension == .seconds(1))
    let bottom = clock.snapshot(at: at(4.5))
    #expect(bottom.tempo?.phase == .bottomPause)
    #expect(bottom.tempo?.trackPosition == 1)
    let lifting = clock.snapshot(at: at(5.5))
    #expect(lifting.tempo?.phase == .concentric)
    #expect(lifting.tempo?.trackPosition == 0.5)
    #expect(lifting.display == DisplayTime(seconds: 1, direction: .down))
    _ = clock.advance(to: at(100))
    #expect(clock.snapshot(at: at(100)).timeUnderTension == .seconds(12))

    var reversed = try tempo([8, 2, 2, 0], reps: 1, reverse: true)
    _ = try reversed.apply(.start, at: at(0))
    let mirrored = reversed.snapshot(at: at(1))
    #expect(mirrored.tempo?.arrow == .up)
    #expect(mirrored.tempo?.trackPosition == 0.75)
    // Reverse direction never changes timing.
    #expect(reversed.timeline.segments.map(\.duration) == [.seconds(4), .seconds(1), .seconds(1)])
  }

  @Test func tempoValuesOutOfRangeAreRefused() {
    #expect(throws: PlanErrors.self) { try tempo([20, 0, 2, 0]) }
  }
}

@Suite struct SequenceTests {
  @Test func fightGoneBad() throws {
    let stations = ["wall balls", "sumo deadlift high pulls", "box jumps", "push press", "row"]
    let round = SequenceStep(
      name: "round", repetitions: 3,
      steps: stations.map { SequenceStep(name: $0, duration: .minutes(1)) }
        + [SequenceStep(name: "rest", kind: .rest, duration: .minutes(1))])
    let clock = try engine(.sequence(SequenceParameters(steps: [round])))
    #expect(clock.timeline.segments.count == 18)
    #expect(clock.timeline.workoutLength == .minutes(18))
    #expect(clock.timeline.segments[7].label == "sumo deadlift high pulls")
    #expect(clock.timeline.segments[7].round == Counter(2, of: 3))
    #expect(clock.timeline.segments[5].kind == .rest)
    // Written with `skip_last_rest`, it ends on the third round's row: 17:00.
    let skipping = try engine(.sequence(SequenceParameters(steps: [round], skipLastRest: true)))
    #expect(skipping.timeline.segments.count == 17)
    #expect(skipping.timeline.workoutLength == .minutes(17))
    #expect(skipping.timeline.segments.last?.label == "row")
    #expect(skipping.timeline.segments[5].kind == .rest)
    #expect(skipping.plan.timedLength == .minutes(17))
  }

  @Test func skipLastRestLeavesWorkAndALoneRestAlone() throws {
    let endsOnWork = try engine(
      .sequence(
        SequenceParameters(
          steps: [
            SequenceStep(name: "rest", kind: .rest, duration: .minutes(1)),
            SequenceStep(name: "row", duration: .minutes(2)),
          ], skipLastRest: true)))
    #expect(endsOnWork.timeline.workoutLength == .minutes(3))
    let onlyARest = try engine(
      .sequence(
        SequenceParameters(
          steps: [SequenceStep(name: "breathe", kind: .rest, duration: .minutes(1))],
          skipLastRest: true)))
    #expect(onlyARest.timeline.segments.count == 1)
    #expect(onlyARest.plan.timedLength == .minutes(1))
  }

  @Test func aSequenceSavedBeforeSkipLastRestStillReads() throws {
    let saved =
      #"{"steps": [{"name": "row", "kind": "work", "duration": {"nanoseconds": 60000000000}, "#
      + #""repetitions": 1, "steps": [], "loop": false, "skippable": true}]}"#
    let parameters = try JSONValueDecoder().decode(SequenceParameters.self, from: saved)
    #expect(parameters.skipLastRest == false)
    #expect(parameters.steps.map(\.name) == ["row"])
  }

  @Test func openEndedStepWaitsForNext() throws {
    let steps = [
      SequenceStep(name: "warm-up", duration: .minutes(5)),
      SequenceStep(name: "find a 1RM"),
      SequenceStep(name: "cool-down", duration: .minutes(3)),
    ]
    var clock = try engine(.sequence(SequenceParameters(steps: steps)))
    #expect(clock.timeline.workoutLength == nil)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(1000))
    let waiting = clock.snapshot(at: at(1000))
    #expect(waiting.label == "find a 1RM")
    #expect(waiting.display == DisplayTime(seconds: 700, direction: .up))
    #expect(waiting.remaining == nil)
    let cues = try clock.apply(.next, at: at(1000))
    #expect(describe(cues) == ["1000.0 segment(work)"])
    let s = clock.snapshot(at: at(1010))
    #expect(s.label == "cool-down")
    #expect(s.display == DisplayTime(seconds: 170, direction: .down))
    #expect(s.remaining == .seconds(170))
  }

  @Test func loopingSubStepsRunUntilTheParentEnds() throws {
    let block = SequenceStep(
      name: "block", duration: seconds(100),
      steps: [
        SequenceStep(name: "work", duration: .seconds(40)),
        SequenceStep(name: "rest", kind: .rest, duration: .seconds(20)),
      ], loop: true)
    let clock = try engine(.sequence(SequenceParameters(steps: [block])))
    #expect(clock.timeline.segments.map(\.duration) == [.seconds(40), .seconds(20), .seconds(40)])
    #expect(
      clock.timeline.segments.map(\.round) == [
        Counter(1, of: nil), Counter(1, of: nil), Counter(2, of: nil),
      ])
    #expect(clock.timeline.workoutLength == .seconds(100))
  }

  @Test func nonSkippableStepsRefuseNext() throws {
    var clock = try engine(
      .sequence(
        SequenceParameters(steps: [
          SequenceStep(name: "test", duration: .minutes(1), skippable: false),
          SequenceStep(name: "after", duration: .minutes(1)),
        ])))
    _ = try clock.apply(.start, at: at(0))
    #expect(throws: ActionRefusal(.next, "'test' cannot be skipped")) {
      _ = try clock.apply(.next, at: at(5))
    }
  }

  @Test func nonsenseIsRefusedWithThePath() {
    do {
      _ = try engine(
        .sequence(
          SequenceParameters(steps: [
            SequenceStep(name: "a", steps: [SequenceStep(name: "x")], loop: true),
            SequenceStep(
              name: "b", duration: .seconds(30),
              steps: [SequenceStep(name: "y", duration: .seconds(5))]),
          ])))
      Issue.record("expected errors")
    } catch let errors as PlanErrors {
      #expect(
        errors.errors.map(\.parameter) == [
          "steps[0].duration", "steps[0].steps", "steps[1].duration",
        ])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
