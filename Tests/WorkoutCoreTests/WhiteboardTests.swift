// SPDX-License-Identifier: MIT
// The whiteboard beside the clock: which lines are movements, the steps that cycle through
// them, the line a step highlights and the movement that comes next; a plan saved before the
// whiteboard existed reads back without one.

import JSONKit
import Testing
import WodclockTestSupport

@testable import WorkoutCore

@Suite struct WhiteboardTests {
  private let chelsea: [WhiteboardLine] = [
    WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups", media: "push-up.webm"),
    WhiteboardLine("15 air squats"), WhiteboardLine("Scaled: ring rows"),
  ]

  @Test func notesAreNotMovements() {
    let lines = [
      "5 pull-ups", "Rx 95/65 lb", "Scaled: ring rows", "Score: rounds + reps",
      "Thrusters 95/65 lb", "400 m run", "Tiebreak after the thrusters", "",
      "Rest 3:00 between rounds",
    ]
    #expect(
      lines.map { WhiteboardLine($0).isMovement }
        == [true, false, false, false, true, true, false, false, false])
  }

  @Test func anEMOMsMinutesTakeTheMovementsInTurnAndSayTheNextOne() throws {
    var workout = try Workout(.emom(EMOMParameters(interval: .seconds(60), rounds: 4)))
    workout.engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "e", mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 4)),
        countIn: .zero, whiteboard: chelsea))
    try workout.start()
    let minutes = [0.5, 60.5, 120.5, 180.5].map { workout.snapshot($0) }
    #expect(minutes.map(\.label) == ["5 pull-ups", "10 push-ups", "15 air squats", "5 pull-ups"])
    #expect(minutes.map(\.whiteboardLine) == [0, 1, 2, 0])
    #expect(minutes.map(\.nextMovement) == ["10 push-ups", "15 air squats", "5 pull-ups", nil])
  }

  @Test func intervalsRestsSayWhatComesNext() throws {
    var workout = try Workout(.tabata(.tabata))
    workout.engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "t",
        mode: .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 3)),
        countIn: .seconds(10), whiteboard: Array(chelsea.prefix(2))))
    try workout.start()
    let countIn = workout.snapshot(5)
    #expect(countIn.segmentKind == .countIn)
    #expect(countIn.nextMovement == "5 pull-ups")
    let rest = workout.snapshot(35)
    #expect(rest.segmentKind == .rest)
    #expect(rest.whiteboardLine == nil)
    #expect(rest.nextMovement == "10 push-ups")
    #expect(workout.snapshot(45).label == "10 push-ups")
  }

  @Test func captionsOfTheirOwnStayAndHighlightTheirLine() throws {
    let plan = WorkoutPlan(
      name: "e",
      mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 2, labels: ["15 air squats"])),
      countIn: .zero, whiteboard: chelsea)
    let segments = try plan.compile().segments
    #expect(segments.map(\.label) == ["15 air squats", "15 air squats"])
    #expect(segments.map(\.whiteboardLine) == [2, 2])
  }

  @Test func aCaptionOfThePlansOwnHoldsEveryMovementEachStep() throws {
    // `emom 30: Chelsea`: every minute is all three movements, none highlighted.
    let plan = WorkoutPlan(
      name: "Chelsea", label: "Chelsea",
      mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 3)), countIn: .zero,
      whiteboard: chelsea)
    let segments = try plan.compile().segments
    #expect(segments.map(\.label) == ["Chelsea", "Chelsea", "Chelsea"])
    #expect(segments.map(\.whiteboardLine) == [nil, nil, nil])
    #expect(segments.map(\.nextMovement) == [nil, nil, nil])
  }

  @Test func anAMRAPHoldsEveryMovementAtOnce() throws {
    let plan = WorkoutPlan(
      name: "cindy", mode: .amrap(AMRAPParameters(time: .seconds(1200))), countIn: .zero,
      whiteboard: chelsea)
    let segments = try plan.compile().segments
    #expect(segments.map(\.label) == [nil])
    #expect(segments.map(\.whiteboardLine) == [nil])
  }

  @Test func aPlanSavedBeforeTheWhiteboardReadsBackWithoutOne() throws {
    let plan = WorkoutPlan(name: "fran", mode: .forTime(ForTimeParameters(repScheme: [21, 15, 9])))
    let encoded = try JSONValueEncoder().encode(plan)
    #expect(encoded["whiteboard"] == nil, "no whiteboard, no key: the saved file is as before")
    let decoded = try JSONValueDecoder().decode(WorkoutPlan.self, from: encoded)
    #expect(decoded == plan)
    var written = plan
    written.whiteboard = chelsea
    written.media = "chelsea.png"
    let back = try JSONValueDecoder().decode(
      WorkoutPlan.self, from: try JSONValueEncoder().encode(written))
    #expect(back == written)
  }
}
