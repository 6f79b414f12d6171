// SPDX-License-Identifier: MIT
// Loading at the wall, on its own and on exact instants: what a keypad's key does, the second
// press a load over a workout under way waits for, what the displays show meanwhile, and when
// the question and the composition go.

import ButtonKit
import DisplayKit
import Testing

@testable import WodclockDaemon

private let presets = ["tabata", "amrap"]
private let second: Int64 = 1_000_000_000
private let start: Int64 = 100 * second

private let question = DisplayOverlay(
  text: "again?", narrow: "SurE", caption: "press again to replace")

@Suite struct WallLoadingTests {
  private func press(
    _ keys: [ComposerKey], on wall: inout WallLoading, at now: Int64 = start
  ) -> [WallLoading.KeyOutcome] {
    keys.map { wall.press($0, hasOtherMeaning: true, presets: presets, at: now) }
  }

  @Test func keysComposeAndTheDisplaysShowWhatIsComposed() {
    var wall = WallLoading()
    #expect(
      press([.digit(1), .digit(4), .mode(.amrap)], on: &wall)
        == Array(repeating: .show(nil), count: 3))
    #expect(
      wall.overlay(message: nil)
        == DisplayOverlay(text: "A 14", narrow: "A 14", caption: "ENTER loads"))
    // A message the displays show is the composition's caption.
    #expect(wall.overlay(message: "amrap needs minutes")?.caption == "amrap needs minutes")
    #expect(press([.confirm], on: &wall) == [.loadWorkout("amrap 14")])
  }

  @Test func aKeyThatStartsNothingHasItsOtherMeaningWhileNothingIsComposed() {
    var wall = WallLoading()
    #expect(
      press([.confirm, .cancel, .delete, .times], on: &wall)
        == Array(repeating: .otherMeaning, count: 4))
    // A mode key with another meaning does that; one without starts a composition.
    #expect(press([.mode(.emom)], on: &wall) == [.otherMeaning])
    #expect(wall.overlay(message: nil) == nil)
    #expect(
      wall.press(.mode(.emom), hasOtherMeaning: false, presets: presets, at: start) == .show(nil))
    #expect(wall.overlay(message: nil)?.text == "E")
  }

  @Test func aLoneNumberLoadsThatPresetOrSaysThereIsNone() {
    var wall = WallLoading()
    #expect(press([.digit(2), .confirm], on: &wall).last == .loadPreset("amrap"))
    var other = WallLoading()
    #expect(press([.digit(7), .confirm], on: &other).last == .show("no preset 7"))
    // The number stays, to be put right.
    #expect(other.overlay(message: nil)?.text == "7")
    var zero = WallLoading()
    #expect(press([.digit(0), .confirm], on: &zero).last == .show("press a mode key"))
  }

  @Test func aLoadOverAWorkoutUnderWayWaitsFiveSecondsForTheSecondPress() {
    var wall = WallLoading()
    #expect(
      wall.load(.preset("amrap"), overWorkoutUnderWay: true, composed: false, at: start)
        == .askAgain)
    #expect(wall.deadline == start + 5 * second)
    #expect(wall.overlay(message: nil) == question)
    // Another load is not the second press: it asks again, and waits from now.
    #expect(
      wall.load(.preset("tabata"), overWorkoutUnderWay: true, composed: false, at: start + second)
        == .askAgain)
    #expect(wall.deadline == start + 6 * second)
    #expect(
      wall.load(
        .preset("tabata"), overWorkoutUnderWay: true, composed: false, at: start + 6 * second)
        == .carryOut)
    #expect(wall.deadline == nil)
    #expect(wall.overlay(message: nil) == nil)
  }

  @Test func aLoadOverNothingUnderWayIsCarriedOutAtOnce() {
    var wall = WallLoading()
    #expect(
      wall.load(.preset("amrap"), overWorkoutUnderWay: false, composed: false, at: start)
        == .carryOut)
    #expect(wall.deadline == nil)
    #expect(wall.overlay(message: nil) == nil)
  }

  @Test func theQuestionGoesFiveSecondsAfterTheFirstPress() {
    var wall = WallLoading()
    _ = wall.load(.preset("amrap"), overWorkoutUnderWay: true, composed: false, at: start)
    #expect(wall.expire(at: start + 5 * second - 1).isEmpty)
    #expect(wall.overlay(message: nil) == question)
    #expect(wall.expire(at: start + 5 * second) == .question)
    #expect(wall.overlay(message: nil) == nil)
    #expect(wall.deadline == nil)
    // The press after that is a first press again.
    #expect(
      wall.load(
        .preset("amrap"), overWorkoutUnderWay: true, composed: false, at: start + 5 * second)
        == .askAgain)
  }

  @Test func aComposedLoadAsksOverItsCompositionAndEndsItOnceCarriedOut() {
    var wall = WallLoading()
    _ = press([.digit(1), .digit(4), .mode(.amrap)], on: &wall)
    #expect(
      wall.load(.preset("amrap"), overWorkoutUnderWay: true, composed: true, at: start) == .askAgain
    )
    #expect(
      wall.overlay(message: nil)
        == DisplayOverlay(text: "A 14", narrow: "SurE", caption: "press again to replace"))
    #expect(
      wall.load(.preset("amrap"), overWorkoutUnderWay: true, composed: true, at: start + 3 * second)
        == .carryOut)
    #expect(wall.overlay(message: nil) == nil)
    #expect(wall.deadline == nil)
  }

  @Test func aLoadThatWasNotComposedLeavesTheCompositionAsItIs() {
    var wall = WallLoading()
    _ = press([.digit(1), .digit(4)], on: &wall)
    #expect(
      wall.load(.preset("amrap"), overWorkoutUnderWay: false, composed: false, at: start)
        == .carryOut)
    #expect(wall.overlay(message: nil)?.text == "14")
  }

  @Test func aCompositionGoesFifteenSecondsAfterItsLastKeyWithItsQuestion() {
    var wall = WallLoading()
    _ = press([.digit(1)], on: &wall)
    _ = press([.digit(4)], on: &wall, at: start + 2 * second)
    #expect(wall.deadline == start + 17 * second)
    // A question asked late in the composition goes with it.
    _ = wall.load(
      .preset("amrap"), overWorkoutUnderWay: true, composed: false, at: start + 14 * second)
    #expect(wall.deadline == start + 17 * second)
    #expect(wall.expire(at: start + 17 * second - 1).isEmpty)
    // Both are said gone, so the question's words go from the displays too.
    #expect(wall.expire(at: start + 17 * second) == [.question, .composition])
    #expect(wall.overlay(message: nil) == nil)
    #expect(wall.deadline == nil)
  }

  @Test func theQuestionAndTheCompositionCanGoTogether() {
    var wall = WallLoading()
    _ = press([.digit(1)], on: &wall)
    _ = wall.load(
      .preset("amrap"), overWorkoutUnderWay: true, composed: false, at: start + 10 * second)
    #expect(wall.expire(at: start + 15 * second) == [.question, .composition])
  }

  @Test func cancelDropsTheCompositionAndTheQuestion() {
    var wall = WallLoading()
    _ = press([.digit(1), .digit(4), .mode(.amrap)], on: &wall)
    _ = wall.load(.preset("amrap"), overWorkoutUnderWay: true, composed: true, at: start)
    #expect(press([.cancel], on: &wall, at: start + second) == [.show(nil)])
    #expect(wall.overlay(message: nil) == nil)
    #expect(wall.deadline == nil)
  }

  @Test func aKeyAfterTheCompositionTimedOutStartsAfresh() {
    var wall = WallLoading()
    _ = press([.digit(1), .digit(4), .mode(.amrap)], on: &wall)
    #expect(press([.confirm], on: &wall, at: start + 15 * second) == [.otherMeaning])
    #expect(
      press([.digit(2), .confirm], on: &wall, at: start + 15 * second).last == .loadPreset("amrap"))
  }
}
