// SPDX-License-Identifier: MIT
// The keypad's composer: keys to what the displays show and to the written workout on confirm
// (read by the notation into the plan the daemon loads), the
// timeout, cancel and delete, and the preset numbers.

import ButtonKit
import Testing
import WorkoutCore
import WorkoutNotation

private let second: Int64 = 1_000_000_000

/// Presses `keys` one second apart from `start`; the outcome of the last.
private func press(
  _ keys: [ComposerKey], on composer: inout WorkoutComposer, from start: Int64 = 0
) -> ComposerOutcome {
  var outcome = ComposerOutcome.notComposing
  for (index, key) in keys.enumerated() {
    outcome = composer.press(key, at: start + Int64(index) * second)
  }
  return outcome
}

private func digits(_ text: String) -> [ComposerKey] {
  text.map { character in
    switch character {
    case "*": .times
    case ".": .colon
    default: .digit(Int(String(character)) ?? 0)
    }
  }
}

@Suite struct WorkoutComposerTests {
  @Test(arguments: [
    ("14", ComposerMode.amrap, "A 14", "A 14", "amrap 14", TimeSpan.minutes(14)),
    ("14.30", .amrap, "A 14:30", "A 14:30", "amrap 14:30", .seconds(870)),
    ("10*1", .emom, "E 10×1", "E 10.1", "emom 10 x 1:00", .minutes(10)),
    ("8*2.30", .emom, "E 8×2:30", "E 8.2:30", "emom 8 x 2:30", .minutes(20)),
    ("12", .emom, "E 12", "E 12", "emom 12", .minutes(12)),
    ("20", .forTime, "F 20", "F 20", "for time cap 20", .minutes(20)),
    ("8*20*10", .intervals, "t 8×20/10", "t 8.20.10", "8 x 20/10", .minutes(4)),
    (
      "5*3.00*1.00", .intervals, "t 5×3:00/1:00", "t 5.3:00.1:00", "5 x 3:00/1:00",
      .minutes(20)
    ),
  ])
  func digitsThenAModeKeyComposeAWorkout(
    keys: String, mode: ComposerMode, wide: String, narrow: String, notation: String,
    length: TimeSpan
  ) throws {
    var composer = WorkoutComposer()
    #expect(press(digits(keys) + [.mode(mode)], on: &composer) == .composing)
    #expect(composer.text == ComposedText(wide: wide, narrow: narrow))
    guard case .workout(let text) = composer.press(.confirm, at: 14 * second) else {
      Issue.record("\(keys) \(mode) did not compose a workout")
      return
    }
    #expect(text == notation)
    let plan = try WorkoutNotation.parse(text).get()
    let timeline = try plan.compile()
    #expect(timeline.workoutLength == length)
  }

  @Test func theModeKeyMayComeFirstAndBeChangedBeforeConfirming() throws {
    var composer = WorkoutComposer()
    _ = press([.mode(.emom), .digit(1), .digit(4), .mode(.amrap)], on: &composer)
    #expect(composer.text?.wide == "A 14")
    guard case .workout(let text) = composer.press(.confirm, at: 5 * second) else {
      Issue.record("no workout")
      return
    }
    #expect(
      try WorkoutNotation.parse(text).get().mode == .amrap(AMRAPParameters(time: .minutes(14))))
  }

  @Test func aModeKeyAloneIsTheWholeWorkoutWhereThatMeansSomething() throws {
    var composer = WorkoutComposer()
    _ = composer.press(.mode(.intervals), at: 0)
    #expect(composer.text?.wide == "t")
    guard case .workout(let tabata) = composer.press(.confirm, at: second) else {
      Issue.record("no tabata")
      return
    }
    #expect(try WorkoutNotation.parse(tabata).get().mode == .tabata(.tabata))
    #expect(tabata == "tabata")

    composer.clear()
    _ = composer.press(.mode(.forTime), at: 0)
    guard case .workout(let forTime) = composer.press(.confirm, at: second) else {
      Issue.record("no for time")
      return
    }
    #expect(try WorkoutNotation.parse(forTime).get().mode == .forTime(ForTimeParameters()))
    #expect(forTime == "for time")
    composer.clear()
    #expect(press([.digit(0), .mode(.forTime), .confirm], on: &composer) == .workout(forTime))

    composer.clear()
    _ = composer.press(.mode(.amrap), at: 0)
    #expect(composer.press(.confirm, at: second) == .incomplete("amrap needs minutes"))
    // Still there to be finished.
    #expect(composer.isComposing)
  }

  @Test func oneNumberAndConfirmIsAPreset() {
    var composer = WorkoutComposer()
    #expect(press([.digit(3), .confirm], on: &composer) == .preset(3))
    composer.clear()
    #expect(press([.digit(1), .digit(2), .confirm], on: &composer) == .preset(12))
    composer.clear()
    #expect(press([.digit(0), .confirm], on: &composer) == .incomplete("press a mode key"))
    composer.clear()
    #expect(press(digits("10*1") + [.confirm], on: &composer) == .incomplete("press a mode key"))
  }

  @Test func keysOtherThanDigitsAndModesDoNotStartAComposition() {
    var composer = WorkoutComposer()
    for key in [ComposerKey.confirm, .times, .colon, .delete, .cancel] {
      #expect(composer.press(key, at: 0) == .notComposing)
      #expect(!composer.isComposing)
      #expect(composer.text == nil)
    }
  }

  @Test func anUnfinishedCompositionIsDroppedFifteenSecondsAfterItsLastKey() {
    var composer = WorkoutComposer()
    _ = press([.digit(1), .digit(4)], on: &composer)
    #expect(composer.deadline == 16 * second)
    let early = composer.expire(at: 16 * second - 1)
    #expect(!early)
    #expect(composer.text?.wide == "14")
    let due = composer.expire(at: 16 * second)
    #expect(due)
    #expect(composer.text == nil)
    // A key after the deadline starts afresh even when nobody expired it.
    _ = press([.digit(1), .digit(4)], on: &composer)
    #expect(composer.press(.digit(2), at: 60 * second) == .composing)
    #expect(composer.text?.wide == "2")
    #expect(composer.press(.confirm, at: 61 * second) == .preset(2))
  }

  @Test func deleteTakesTheLastKeyBackAndCancelsOnNothing() {
    var composer = WorkoutComposer()
    _ = press(digits("10*1") + [.mode(.emom)], on: &composer)
    #expect(composer.press(.delete, at: 10 * second) == .composing)
    #expect(composer.text?.wide == "E 10×")
    _ = composer.press(.delete, at: 11 * second)
    #expect(composer.text?.wide == "E 10")
    _ = composer.press(.delete, at: 12 * second)
    _ = composer.press(.delete, at: 13 * second)
    #expect(composer.text?.wide == "E")
    #expect(composer.press(.delete, at: 14 * second) == .cancelled)
    #expect(composer.text == nil)

    _ = press(digits("14") + [.mode(.amrap)], on: &composer)
    #expect(composer.press(.cancel, at: 5 * second) == .cancelled)
    #expect(!composer.isComposing)
  }

  @Test func numbersStayWithinWhatCanBeShownAndRun() {
    var composer = WorkoutComposer()
    _ = press(digits("12345"), on: &composer)
    #expect(composer.text?.wide == "123")
    composer.clear()
    _ = press(digits("1.234"), on: &composer)
    #expect(composer.text?.wide == "1:23")
    composer.clear()
    // A second separator, or one before any digit, is not taken.
    _ = press([.times] + digits("1**2*3*") + [.colon, .colon], on: &composer)
    #expect(composer.text?.wide == "1×2×3:")
    composer.clear()
    _ = press(digits("1.75") + [.mode(.amrap)], on: &composer)
    #expect(composer.press(.confirm, at: 10 * second) == .incomplete("amrap needs minutes"))
    composer.clear()
    _ = press(digits("999") + [.mode(.amrap)], on: &composer)
    guard case .workout = composer.press(.confirm, at: 10 * second) else {
      Issue.record("999 minutes is a workout the engine runs")
      return
    }
  }
}
