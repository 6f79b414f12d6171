// SPDX-License-Identifier: MIT
// FakeGPIOChip: the stand-in the plugin tests use, checked against the behaviour the HIL suite
// sees on a real kernel chip (Tests/hil): same edges, same values, same error texts.

import HardwareKit
import Testing
import WodclockTestSupport

@Suite struct FakeGPIOChipTests {
  @Test func raspberryPiLayout() throws {
    let chip = FakeGPIOChip.raspberryPi()
    #expect(chip.info.description == "gpiochip0 (pinctrl-rp1, 54 lines)")
    #expect(try chip.offset(of: "GPIO17") == 17)
    #expect(try chip.lineInfo(at: 53).name == "GPIO53")
  }

  @Test func buttonWithActiveLowPullUp() throws {
    let chip = FakeGPIOChip.raspberryPi()
    let button = try chip.requestInput(
      "GPIO17", consumer: "button", bias: .pullUp, activeLow: true, edges: .both)
    #expect(try button.values() == [false])
    chip.press(17, at: 5_000)
    #expect(try button.value(at: 17))
    chip.releaseButton(17, at: 9_000)
    let expected = [
      GPIOEdgeEvent(offset: 17, edge: .rising, timestamp: 5_000),
      GPIOEdgeEvent(offset: 17, edge: .falling, timestamp: 9_000),
    ]
    #expect(try button.readEvents() == expected)
    #expect(try button.readEvents().isEmpty)
    #expect(chip.events(for: 17) == expected)
    #expect(try button.values() == [false])
  }

  @Test func plainPullUpSeesFallingThenRising() throws {
    // The HIL check on gpio-sim: pull-up, sim-pull down then up -> falling, rising.
    let chip = FakeGPIOChip(lineNames: [3: "wodclock-button"])
    let input = try chip.requestInput("wodclock-button", consumer: "t", bias: .pullUp)
    #expect(try input.values() == [true])
    chip.drive(3, high: false, at: 10)
    chip.drive(3, high: true, at: 20)
    #expect(try input.readEvents().map(\.edge) == [.falling, .rising])
  }

  @Test func pullDownButtonPressesHigh() throws {
    let chip = FakeGPIOChip()
    let input = try chip.requestInput(2, consumer: "t", bias: .pullDown)
    chip.tap(2, at: 100, holding: 50)
    #expect(
      try input.readEvents() == [
        GPIOEdgeEvent(offset: 2, edge: .rising, timestamp: 100),
        GPIOEdgeEvent(offset: 2, edge: .falling, timestamp: 150),
      ])
  }

  @Test func edgeDetectionFilters() throws {
    let chip = FakeGPIOChip()
    let rising = try chip.requestInput(
      1, consumer: "t", bias: .pullUp, activeLow: true,
      edges: .rising)
    let none = try chip.requestInput(2, consumer: "t", bias: .pullUp, edges: .none)
    #expect(none.fileDescriptor == nil)
    chip.tap(1, at: 0)
    chip.tap(2, at: 0)
    #expect(try rising.readEvents().map(\.edge) == [.rising])
    #expect(try none.readEvents().isEmpty)
    #expect(try none.values() == [true])
    #expect(chip.events(for: 2).isEmpty)
  }

  @Test func unrequestedLinesQueueNothing() throws {
    let chip = FakeGPIOChip()
    chip.press(4, at: 1)
    #expect(chip.events(for: 4).isEmpty)
  }

  @Test func descriptorIsReadableWhileEventsWait() throws {
    let chip = FakeGPIOChip()
    let input = try chip.requestInput(0, consumer: "t", bias: .pullUp)
    let fd = try #require(input.fileDescriptor)
    let poller = try EventPoller()
    defer { try? poller.fileDescriptor.close() }
    try poller.register(fd, token: 7)
    #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
    chip.press(0, at: 1)
    chip.releaseButton(0, at: 2)
    #expect(try poller.wait(timeoutMilliseconds: 0).map(\.token) == [7])
    #expect(try input.readEvents(maximumCount: 1).count == 1)
    #expect(try poller.wait(timeoutMilliseconds: 0).map(\.token) == [7])
    #expect(try input.readEvents().count == 1)
    #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
  }

  @Test func outputHistoryUsesTheClock() throws {
    let clock = ManualClock(now: 1_000)
    let chip = FakeGPIOChip(lineNames: [5: "horn"], clock: { clock.now })
    let horn = try chip.requestOutput("horn", consumer: "horn")
    clock.now = 2_000
    try horn.setValue(true)
    clock.now = 2_500
    try horn.setValue(true)  // no change
    clock.now = 3_000
    try horn.setValue(false)
    #expect(
      chip.history(of: 5) == [
        .init(instant: 1_000, value: false), .init(instant: 2_000, value: true),
        .init(instant: 3_000, value: false),
      ])
    #expect(chip.history(of: 5).map(\.instant) == [1_000, 2_000, 3_000])
    #expect(chip.outputValue(of: 5) == false)
    #expect(try chip.lineInfo(at: 5).isOutput)
  }

  @Test func activeLowOutputDrivesLow() throws {
    let chip = FakeGPIOChip()
    let output = try chip.requestOutputs(
      [6, 7], consumer: "leds", activeLow: true, initialValues: [false, true])
    #expect(chip.level(of: 6) && !chip.level(of: 7))
    try output.setValues([true, false])
    #expect(!chip.level(of: 6) && chip.level(of: 7))
    try output.setValue(false, at: 6)
    #expect(chip.outputValue(of: 6) == false && chip.outputValue(of: 7) == false)
    output.release()
    #expect(chip.outputValue(of: 6) == nil)
    #expect(chip.history(of: 6).map(\.value) == [false, true, false])
  }

  @Test func busyLinesNameTheirHolder() throws {
    let chip = FakeGPIOChip()
    let held = try chip.requestOutput(3, consumer: "wodclockd")
    let error = #expect(throws: GPIOError.self) {
      try chip.requestInput(3, consumer: "other")
    }
    #expect(error?.kind == .lineBusy)
    #expect(error?.message == "line 3 of gpiochip0 is used by 'wodclockd'")
    held.release()
    held.release()  // twice is fine
    #expect(chip.consumer(of: 3) == nil)
    _ = try chip.requestInput(3, consumer: "other")

    chip.occupy(4, consumer: "other-program")
    let other = #expect(throws: GPIOError.self) { try chip.requestOutput(4, consumer: "me") }
    #expect(other?.message == "line 4 of gpiochip0 is used by 'other-program'")
    chip.occupy(5, consumer: "")
    let anonymous = #expect(throws: GPIOError.self) { try chip.requestOutput(5, consumer: "me") }
    #expect(
      anonymous?.message
        == "line 5 of gpiochip0 is used by another program (it gave no name)")
  }

  @Test func droppingARequestReleasesIt() throws {
    let chip = FakeGPIOChip()
    do {
      _ = try chip.requestInput(1, consumer: "scoped")
      #expect(chip.requestCount == 0)  // the result was dropped at once
    }
    var request: (any GPIOInputRequest)? = try chip.requestInput(1, consumer: "kept")
    #expect(chip.consumer(of: 1) == "kept")
    #expect(request != nil)
    request = nil
    #expect(chip.consumer(of: 1) == nil)
  }

  @Test func missingLineNamesAFew() {
    let chip = FakeGPIOChip.raspberryPi()
    let error = #expect(throws: GPIOError.self) { try chip.offset(of: "GPIO99") }
    #expect(error?.kind == .noSuchLine)
    #expect(
      error?.description == "gpiochip0 has 54 lines; no line named GPIO99; hint: line names"
        + " include GPIO0, GPIO1, GPIO2, GPIO3, GPIO4, GPIO5, … (54 named lines); `gpioinfo"
        + " gpiochip0` lists them")
    let folded = #expect(throws: GPIOError.self) { try chip.offset(of: "gpio17") }
    #expect(folded?.hint?.hasPrefix("line names include GPIO17, GPIO0") == true)
  }

  @Test func unnamedChipSaysSo() {
    let chip = FakeGPIOChip(lineCount: 8)
    let error = #expect(throws: GPIOError.self) { try chip.requestInput("GPIO4", consumer: "t") }
    #expect(
      error?.description == "gpiochip0 has 8 lines; no line named GPIO4; hint: no line of"
        + " gpiochip0 has a name; give an offset from 0 to 7")
  }

  @Test func badRequests() {
    let chip = FakeGPIOChip()
    let past = #expect(throws: GPIOError.self) { try chip.lineInfo(at: 8) }
    #expect(past?.description == "gpiochip0 has 8 lines; no line 8; hint: offsets run from 0 to 7")
    let twice = #expect(throws: GPIOError.self) {
      try chip.requestInputs([1, 1], consumer: "t", bias: .asIs, activeLow: false, edges: .both)
    }
    #expect(twice?.message == "line 1 of gpiochip0 is listed twice in one request")
    let empty = #expect(throws: GPIOError.self) {
      try chip.requestInputs([], consumer: "t", bias: .asIs, activeLow: false, edges: .both)
    }
    #expect(empty?.kind == .invalidRequest)
    let many = FakeGPIOChip(lineCount: 70)
    let tooMany = #expect(throws: GPIOError.self) {
      try many.requestOutputs(
        (0..<65).map { .offset($0) }, consumer: "t", activeLow: false,
        initialValues: Array(repeating: false, count: 65))
    }
    #expect(tooMany?.message == "cannot request 65 lines of gpiochip0 at once; the most is 64")
  }

  @Test func multiLineInputsKeepRequestOrder() throws {
    let chip = FakeGPIOChip.raspberryPi()
    let buttons = try chip.requestInputs(
      ["GPIO22", "GPIO5"], consumer: "buttons", bias: .pullUp, activeLow: true, edges: .both)
    #expect(buttons.offsets == [22, 5])
    chip.press(5, at: 1)
    #expect(try buttons.values() == [false, true])
    chip.press(22, at: 2)
    #expect(try buttons.readEvents().map(\.offset) == [5, 22])
  }

  @Test func chipsAreOpenedByPathNameLabelOrNumberAsTheKernelsAre() throws {
    let header = FakeGPIOChip.raspberryPi()
    let expander = FakeGPIOChip(name: "gpiochip1", label: "mcp23017", lineCount: 16)
    let chips = FakeGPIOChips([header, expander])
    #expect(chips.names() == ["gpiochip0", "gpiochip1"])
    for spec in ["/dev/gpiochip1", "gpiochip1", "mcp23017", "1"] {
      #expect(try chips.open(spec) === expander, "\(spec)")
    }
    #expect(try chips.open("pinctrl-rp1") === header)
    let missing = #expect(throws: GPIOError.self) { try chips.open("gpiochip7") }
    #expect(missing?.kind == .noSuchChip)
    #expect(
      missing?.description
        == "no GPIO chip gpiochip7; hint: chips: gpiochip0 (pinctrl-rp1, 54 lines),"
        + " gpiochip1 (mcp23017, 16 lines)")
  }
}
