// SPDX-License-Identifier: MIT
// The movement line under the digits: the movement of the step under way, the next one during
// a rest and in the last ten seconds before it, nothing where the whiteboard gives no step a
// movement.

import DisplayKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct MovementCaptionTests {
  private let lines = [
    WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups"), WhiteboardLine("Rx: strict"),
  ]

  private func workout(_ mode: WorkoutMode, countIn: Int64 = 0) throws -> Workout {
    var workout = try Workout(mode)
    workout.engine = try WorkoutEngine(
      plan: WorkoutPlan(name: "w", mode: mode, countIn: .seconds(countIn), whiteboard: lines))
    return workout
  }

  @Test func anEMOMShowsTheMinutesMovementThenTheNextInItsLastTenSeconds() throws {
    var emom = try workout(.emom(EMOMParameters(interval: .seconds(60), rounds: 3)), countIn: 5)
    try emom.start()
    #expect(MovementCaption.line(for: emom.snapshot(2)) == .next("5 pull-ups"), "count-in")
    #expect(MovementCaption.line(for: emom.snapshot(5)) == .now("5 pull-ups"))
    #expect(MovementCaption.line(for: emom.snapshot(54.9)) == .now("5 pull-ups"))
    #expect(MovementCaption.line(for: emom.snapshot(55)) == .next("10 push-ups"))
    #expect(MovementCaption.line(for: emom.snapshot(55))?.text == "next: 10 push-ups")
    #expect(MovementCaption.line(for: emom.snapshot(65)) == .now("10 push-ups"))
    // The last minute has nothing after it.
    #expect(MovementCaption.line(for: emom.snapshot(180)) == .now("5 pull-ups"))
    #expect(MovementCaption.line(for: emom.snapshot(190)) == nil, "finished")
  }

  @Test func aRestAnnouncesTheNextMovementFromItsFirstSecond() throws {
    var tabata = try workout(
      .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 4)))
    try tabata.start()
    #expect(MovementCaption.line(for: tabata.snapshot(5)) == .now("5 pull-ups"))
    #expect(MovementCaption.line(for: tabata.snapshot(20)) == .next("10 push-ups"))
    #expect(MovementCaption.line(for: tabata.snapshot(31)) == .now("10 push-ups"))
  }

  @Test func anAMRAPAndAWorkoutWithoutAWhiteboardHaveNoMovementLine() throws {
    var amrap = try workout(.amrap(AMRAPParameters(time: .seconds(600))))
    try amrap.start()
    #expect(MovementCaption.line(for: amrap.snapshot(300)) == nil)
    var plain = try Workout(.emom(EMOMParameters(interval: .seconds(60), rounds: 3)))
    try plain.start()
    #expect(MovementCaption.line(for: plain.snapshot(55)) == nil)
  }
}
