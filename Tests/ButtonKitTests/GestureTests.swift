// SPDX-License-Identifier: MIT
// Debouncing on timestamps, press versus long press, and two-button combinations.

import ButtonKit
import Testing
import WodclockTestSupport

@Suite struct DebouncerTests {
  @Test func aBouncyPressSettlesOnceDatedToItsFirstEdge() {
    var debouncer = Debouncer(period: ms(30), level: false)
    // Contact bounce: five edges within 4 ms, ending pressed.
    let train: [(Bool, Int64)] = [
      (true, 100), (false, 101), (true, 102), (false, 103), (true, 104),
    ]
    for (level, at) in train { #expect(debouncer.edge(to: level, at: ms(at)) == nil) }
    #expect(debouncer.settle(at: ms(133)) == nil)
    #expect(debouncer.settlesAt == ms(134))
    #expect(debouncer.settle(at: ms(134)) == Debouncer.Change(level: true, instant: ms(100)))
    #expect(debouncer.level)
  }

  @Test func aSpikeShorterThanThePeriodIsIgnored() {
    var debouncer = Debouncer(period: ms(30), level: false)
    _ = debouncer.edge(to: true, at: ms(10))
    _ = debouncer.edge(to: false, at: ms(12))
    #expect(debouncer.settle(at: ms(100)) == nil)
    #expect(!debouncer.level)
    #expect(debouncer.settlesAt == nil)
  }

  @Test func aNewEdgeSettlesTheQuietBurstBeforeIt() {
    var debouncer = Debouncer(period: ms(30), level: false)
    _ = debouncer.edge(to: true, at: ms(0))
    #expect(debouncer.edge(to: false, at: ms(500)) == Debouncer.Change(level: true, instant: 0))
    #expect(debouncer.settle(at: ms(530)) == Debouncer.Change(level: false, instant: ms(500)))
  }

  @Test func zeroPeriodAcceptsEveryEdge() {
    var debouncer = Debouncer(period: 0, level: false)
    #expect(debouncer.edge(to: true, at: 5) == Debouncer.Change(level: true, instant: 5))
    #expect(debouncer.edge(to: false, at: 6) == Debouncer.Change(level: false, instant: 6))
  }
}

@Suite struct GestureRecognizerTests {
  @Test func aShortPressFiresOnRelease() {
    var recognizer = GestureRecognizer(longPressTimes: [ms(800)])
    #expect(recognizer.change(0, down: true, at: ms(0)).isEmpty)
    #expect(recognizer.nextDeadline == ms(800))
    #expect(
      recognizer.change(0, down: false, at: ms(799))
        == [RecognizedGesture(.press(button: 0), at: ms(799), pressedAt: 0)])
    #expect(recognizer.nextDeadline == nil)
  }

  @Test func aLongPressFiresAtTheThresholdAndItsReleaseDoesNothing() {
    var recognizer = GestureRecognizer(longPressTimes: [ms(800)])
    _ = recognizer.change(0, down: true, at: ms(0))
    #expect(recognizer.advance(to: ms(799)).isEmpty)
    #expect(
      recognizer.advance(to: ms(800))
        == [RecognizedGesture(.longPress(button: 0), at: ms(800), pressedAt: 0)])
    #expect(recognizer.advance(to: ms(5_000)).isEmpty)
    #expect(recognizer.change(0, down: false, at: ms(5_000)).isEmpty)
  }

  @Test func aLateReleaseStillDecidesTheLongPressFirst() {
    var recognizer = GestureRecognizer(longPressTimes: [ms(800)])
    _ = recognizer.change(0, down: true, at: ms(0))
    // Nobody advanced the recogniser in between: the release at 900 ms reports the long press.
    #expect(
      recognizer.change(0, down: false, at: ms(900))
        == [RecognizedGesture(.longPress(button: 0), at: ms(800), pressedAt: 0)])
  }

  @Test func bothHeldForTheHoldTimeFireTheCombinationOnly() {
    var recognizer = GestureRecognizer(
      longPressTimes: [ms(800), ms(800)], combinations: [ButtonCombination(0, 1, hold: ms(2_000))])
    _ = recognizer.change(0, down: true, at: ms(0))
    _ = recognizer.change(1, down: true, at: ms(150))
    // Past both long-press times: nothing, the combination has taken the buttons.
    #expect(recognizer.advance(to: ms(2_149)).isEmpty)
    #expect(
      recognizer.advance(to: ms(2_150))
        == [RecognizedGesture(.combination(0), at: ms(2_150), pressedAt: ms(150))])
    #expect(recognizer.change(0, down: false, at: ms(3_000)).isEmpty)
    #expect(recognizer.change(1, down: false, at: ms(3_010)).isEmpty)
    // Afterwards the buttons work alone again.
    _ = recognizer.change(1, down: true, at: ms(4_000))
    #expect(
      recognizer.change(1, down: false, at: ms(4_100))
        == [RecognizedGesture(.press(button: 1), at: ms(4_100), pressedAt: ms(4_000))])
  }

  @Test func anAbortedCombinationFiresNothing() {
    var recognizer = GestureRecognizer(
      longPressTimes: [ms(800), ms(800)], combinations: [ButtonCombination(0, 1, hold: ms(2_000))])
    _ = recognizer.change(0, down: true, at: ms(0))
    _ = recognizer.change(1, down: true, at: ms(100))
    #expect(recognizer.change(1, down: false, at: ms(1_000)).isEmpty)
    #expect(recognizer.advance(to: ms(5_000)).isEmpty)
    #expect(recognizer.change(0, down: false, at: ms(5_000)).isEmpty)
  }

  @Test func aButtonThatAlreadyLongPressedDoesNotJoinACombination() {
    var recognizer = GestureRecognizer(
      longPressTimes: [ms(800), ms(800)], combinations: [ButtonCombination(0, 1, hold: ms(2_000))])
    _ = recognizer.change(0, down: true, at: ms(0))
    #expect(
      recognizer.advance(to: ms(900))
        == [RecognizedGesture(.longPress(button: 0), at: ms(800), pressedAt: 0)])
    _ = recognizer.change(1, down: true, at: ms(1_000))
    #expect(
      recognizer.change(1, down: false, at: ms(1_200))
        == [RecognizedGesture(.press(button: 1), at: ms(1_200), pressedAt: ms(1_000))])
  }
}

@Suite struct ButtonBankTests {
  let settings = ButtonBank.Button(debounce: ms(30), longPress: ms(800))

  @Test func aBouncyTapIsOnePressDecidedOneDebouncePeriodAfterTheLastReleaseEdge() {
    var bank = ButtonBank(buttons: [settings], levels: [false])
    var gestures: [RecognizedGesture] = []
    for (level, at) in [(true, 0), (false, 2), (true, 3), (false, 120), (true, 121), (false, 123)] {
      gestures += bank.edge(0, pressed: level, at: ms(Int64(at)))
    }
    #expect(gestures.isEmpty)
    #expect(bank.nextWakeUp == ms(153))
    #expect(bank.advance(to: ms(152)).isEmpty)
    #expect(
      bank.advance(to: ms(153))
        == [RecognizedGesture(.press(button: 0), at: ms(120), pressedAt: 0)])
    #expect(bank.nextWakeUp == nil)
  }

  @Test func aLongPressWaitsForABouncingReleaseToSettle() {
    var bank = ButtonBank(buttons: [settings], levels: [false])
    _ = bank.edge(0, pressed: true, at: 0)
    #expect(bank.advance(to: ms(30)).isEmpty)
    // Released at 795 ms, still bouncing when the long-press time passes.
    _ = bank.edge(0, pressed: false, at: ms(795))
    #expect(bank.nextWakeUp == ms(825))
    #expect(bank.advance(to: ms(800)).isEmpty)
    #expect(
      bank.advance(to: ms(825))
        == [RecognizedGesture(.press(button: 0), at: ms(795), pressedAt: 0)])
  }

  @Test func aHeldButtonIsLongPressedAtItsThreshold() {
    var bank = ButtonBank(buttons: [settings], levels: [false])
    _ = bank.edge(0, pressed: true, at: ms(10))
    #expect(bank.advance(to: ms(40)).isEmpty)
    #expect(bank.nextWakeUp == ms(810))
    #expect(
      bank.advance(to: ms(810))
        == [RecognizedGesture(.longPress(button: 0), at: ms(810), pressedAt: ms(10))])
    _ = bank.edge(0, pressed: false, at: ms(2_000))
    #expect(bank.advance(to: ms(2_030)).isEmpty)
  }

  @Test func aButtonHeldAtStartUpFiresNothingWhenReleased() {
    var bank = ButtonBank(buttons: [settings], levels: [true])
    #expect(bank.advance(to: ms(5_000)).isEmpty)
    _ = bank.edge(0, pressed: false, at: ms(6_000))
    #expect(bank.advance(to: ms(6_030)).isEmpty)
    _ = bank.edge(0, pressed: true, at: ms(7_000))
    _ = bank.edge(0, pressed: false, at: ms(7_100))
    #expect(
      bank.advance(to: ms(7_130))
        == [RecognizedGesture(.press(button: 0), at: ms(7_100), pressedAt: ms(7_000))])
  }

  @Test func combinationsAcrossButtonsUseSettledLevels() {
    var bank = ButtonBank(
      buttons: [settings, settings], levels: [false, false],
      combinations: [ButtonCombination(0, 1, hold: ms(2_000))])
    _ = bank.edge(0, pressed: true, at: ms(0))
    _ = bank.edge(1, pressed: true, at: ms(50))
    _ = bank.edge(1, pressed: false, at: ms(51))
    _ = bank.edge(1, pressed: true, at: ms(52))
    #expect(bank.advance(to: ms(100)).isEmpty)
    #expect(bank.nextWakeUp == ms(2_050))
    // Dated to the first edge of the second button's bouncing press.
    #expect(
      bank.advance(to: ms(2_050))
        == [RecognizedGesture(.combination(0), at: ms(2_050), pressedAt: ms(50))])
  }

  @Test func aPressDecidedAtItsBouncingReleaseCarriesTheFirstDownEdge() {
    var bank = ButtonBank(buttons: [settings], levels: [false])
    // The athlete slaps the button at 100 ms: five edges of contact bounce, ending pressed.
    for (level, at) in [(true, 100), (false, 101), (true, 102), (false, 103), (true, 104)] {
      #expect(bank.edge(0, pressed: level, at: ms(Int64(at))).isEmpty)
    }
    #expect(bank.advance(to: ms(134)).isEmpty)
    // Let go at 400 ms, bouncing again; nothing is decided until the release has settled.
    for (level, at) in [(false, 400), (true, 401), (false, 402)] {
      #expect(bank.edge(0, pressed: level, at: ms(Int64(at))).isEmpty)
    }
    #expect(bank.advance(to: ms(431)).isEmpty)
    let decided = bank.advance(to: ms(432))
    #expect(decided == [RecognizedGesture(.press(button: 0), at: ms(400), pressedAt: ms(100))])
  }

  @Test func aSpikeBeforeThePressDoesNotDateIt() {
    var bank = ButtonBank(buttons: [settings], levels: [false])
    // A horn relay's spike at 10 ms, back within 2 ms: it never settles into a press.
    _ = bank.edge(0, pressed: true, at: ms(10))
    _ = bank.edge(0, pressed: false, at: ms(12))
    #expect(bank.advance(to: ms(100)).isEmpty)
    _ = bank.edge(0, pressed: true, at: ms(200))
    _ = bank.edge(0, pressed: false, at: ms(350))
    #expect(
      bank.advance(to: ms(380))
        == [RecognizedGesture(.press(button: 0), at: ms(350), pressedAt: ms(200))])
  }

  @Test func aLongPressDecidedLateStillCarriesItsFirstDownEdge() {
    var bank = ButtonBank(buttons: [settings], levels: [false])
    for (level, at) in [(true, 1_000), (false, 1_002), (true, 1_003)] {
      _ = bank.edge(0, pressed: level, at: ms(Int64(at)))
    }
    // The loop gets round to it long after the long-press time.
    #expect(
      bank.advance(to: ms(5_000))
        == [RecognizedGesture(.longPress(button: 0), at: ms(1_800), pressedAt: ms(1_000))])
  }
}
