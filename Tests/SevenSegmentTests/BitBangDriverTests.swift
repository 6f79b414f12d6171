// SPDX-License-Identifier: MIT
// The bit-banged drivers through FakeGPIOChip: every recorded line change is decoded by the
// datasheet models in SegmentDecoders and compared with the datasheets' codes written out here.

import HardwareKit
import SegmentDecoders
import SegmentDrivers
import SevenSegment
import Testing
import WodclockTestSupport

/// A frame of characters with a colon after `colonAfter`.
private func frame(_ text: String, colonAfter: Int? = nil, brightness: Int = 100) throws
  -> SegmentFrame
{
  SegmentFrame(
    digits: try SegmentFont.render(text), colonsLit: colonAfter.map { [$0] } ?? [],
    brightnessPercent: brightness)
}

@Suite struct TM1637DriverTests {
  let clk = 23
  let dio = 24

  private func driver(_ chip: FakeGPIOChip, _ time: ManualClock, digits: Int = 4) -> TM1637Driver {
    TM1637Driver(
      chip: chip, clock: .offset(clk), data: .offset(dio), digits: digits,
      halfPeriodNanoseconds: 20_000, consumer: "test", delay: time.wait)
  }

  private func decode(_ chip: FakeGPIOChip) -> TM1637Decoder {
    var decoder = TM1637Decoder()
    decoder.decode(waveform(chip, [clk, dio]), clock: clk, data: dio)
    return decoder
  }

  @Test func fourDigitsWithTheColonOnTheSecondDigitsBit7() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time)
    try display.start()
    try display.show(try frame("1234", colonAfter: 1))
    let chipState = decode(chip)
    #expect(chipState.violations == [])
    // Datasheet codes 1 = 06, 2 = 5B, 3 = 4F, 4 = 66; colon = bit 7 of address C1.
    #expect(Array(chipState.ram.prefix(4)) == [0x06, 0x5B | 0x80, 0x4F, 0x66])
    #expect(chipState.displayOn == true)
    #expect(chipState.brightness == 7)
    // Datasheet: 500 kHz max, so every level lasts at least 1 µs; the driver keeps 20 µs.
    #expect(chipState.shortestClockHigh >= 20_000)
    #expect(chipState.shortestClockLow >= 20_000)
    #expect(chipState.shortestSetup >= 20_000)
    #expect(chipState.transactions == [[0x40], [0xC0, 0x06, 0xDB, 0x4F, 0x66], [0x8F]])
  }

  @Test func onlyChangedDigitsAreSentAndNothingWhenNothingChanged() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time)
    try display.start()
    try display.show(try frame("1234", colonAfter: 1))
    try display.show(try frame("1235", colonAfter: 1))
    var chipState = decode(chip)
    #expect(chipState.transactions.suffix(2) == [[0x40], [0xC3, 0x6D]])
    #expect(chipState.ram[3] == 0x6D)
    let changes = chip.history(of: clk).count + chip.history(of: dio).count
    try display.show(try frame("1235", colonAfter: 1))
    #expect(chip.history(of: clk).count + chip.history(of: dio).count == changes)
    // Brightness alone: one display-control byte (25 % of 8 steps → step 1, pulse width 2/16).
    try display.show(try frame("1235", colonAfter: 1, brightness: 25))
    chipState = decode(chip)
    #expect(chipState.transactions.last == [0x89])
    try display.show(try frame("1235", colonAfter: 1, brightness: 0))
    #expect(decode(chip).displayOn == false)
  }

  @Test func sixDigitModulesWriteTheirGridsOutOfOrder() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time, digits: 6)
    try display.start()
    try display.show(try frame("123456"))
    let chipState = decode(chip)
    #expect(chipState.violations == [])
    // Displayed position i is GRID map[i] with map {2, 1, 0, 5, 4, 3}: GRID1 shows the third
    // digit, GRID3 the first, GRID4 the sixth.
    #expect(chipState.ram == [0x4F, 0x5B, 0x06, 0x7D, 0x6D, 0x66])
  }

  @Test func shutDownBlanksAndTurnsOffThenReleasesTheLines() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time)
    try display.start()
    try display.show(try frame("8888"))
    display.shutDown()
    let chipState = decode(chip)
    #expect(Array(chipState.ram.prefix(4)) == [0, 0, 0, 0])
    #expect(chipState.displayOn == false)
    #expect(chip.consumer(of: clk) == nil)
  }

  @Test func aFullRefreshCostsWhatTheCommentSays() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time, digits: 6)
    try display.start()
    let before = time.now
    try display.show(try frame("888888"))
    // 9 bytes at 20 µs per half period: about 3.4 ms, and under 4 ms.
    #expect(time.now - before < 4_000_000)
    #expect(time.now - before > 3_000_000)
  }
}

@Suite struct MAX7219DriverTests {
  let din = 5
  let clk = 6
  let load = 13

  private func decode(_ chip: FakeGPIOChip, chips: Int) -> MAX7219Decoder {
    var decoder = MAX7219Decoder(chips: chips)
    decoder.decode(waveform(chip, [din, clk, load]), data: din, clock: clk, load: load)
    return decoder
  }

  private func driver(_ chip: FakeGPIOChip, _ time: ManualClock) -> MAX7219Driver {
    MAX7219Driver(chips: 2, digitsPerChip: 4, rightToLeft: true) {
      try BitBangFrameTransport(
        chip: chip, data: .offset(din), clock: .offset(clk), load: .offset(load),
        halfPeriodNanoseconds: 1_000, consumer: "test", delay: time.wait)
    }
  }

  @Test func aChainOfTwoInNoDecodeMode() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time)
    try display.start()
    try display.show(try frame("12345678", colonAfter: 5))
    let chain = decode(chip, chips: 2)
    #expect(chain.violations == [])
    for chip in 0..<2 {
      let registers = chain.registers[chip]
      #expect(registers[0x09] == 0x00)  // decode mode: none
      #expect(registers[0x0B] == 3)  // scan limit: digits 0-3
      #expect(registers[0x0F] == 0x00)  // display test off
      #expect(registers[0x0A] == 15)  // intensity 31/32 at 100 %
      #expect(registers[0x0C] == 0x01)  // normal operation
    }
    // No-decode codes (datasheet order DP A B C D E F G): 1 30, 2 6D, 3 79, 4 33, 5 5B, 6 5F,
    // 7 70, 8 7F. DIG0 is the rightmost digit; chip 0 (nearest the Pi) the left half. The colon
    // after the sixth digit is its DP.
    #expect(chain.digits(ofChip: 0).prefix(4) == [0x33, 0x79, 0x6D, 0x30])
    #expect(chain.digits(ofChip: 1).prefix(4) == [0x7F, 0x70, 0x5F | 0x80, 0x5B])
    #expect(chain.shortestClockHigh >= 1_000)
  }

  @Test func changesShareFramesAndNoOpsFillTheRest() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time)
    try display.start()
    try display.show(try frame("12345678"))
    let latches = decode(chip, chips: 2).latches
    try display.show(try frame("12345679"))
    var chain = decode(chip, chips: 2)
    #expect(chain.latches == latches + 1)
    #expect(chain.packets[0].last! == (0x00, 0x00))  // chip 0: no-op
    #expect(chain.packets[1].last! == (0x01, 0x7B))  // chip 1 DIG0: 9
    try display.show(try frame("12345679"))
    #expect(decode(chip, chips: 2).latches == latches + 1)
    try display.show(try frame("12345679", brightness: 0))
    chain = decode(chip, chips: 2)
    #expect(chain.registers[0][0x0C] == 0x00)  // shutdown at 0 %
  }
}

@Suite struct ShiftRegisterDriverTests {
  let data = 17
  let clock = 27
  let latch = 22
  let enable = 4

  private func decode(_ chip: FakeGPIOChip, registers: Int) -> ShiftChainDecoder {
    var decoder = ShiftChainDecoder(registers: registers)
    decoder.decode(
      waveform(chip, [data, clock, latch, enable]), data: data, clock: clock, latch: latch,
      outputEnable: enable)
    return decoder
  }

  private func driver(
    _ chip: FakeGPIOChip, _ time: ManualClock, nearestIsLeftmost: Bool = true, invert: Bool = false
  ) -> ShiftRegisterDriver {
    ShiftRegisterDriver(
      chip: chip, data: .offset(data), clock: .offset(clock), latch: .offset(latch),
      outputEnable: .offset(enable), digits: 4, map: .sparkFunLargeDigit, invert: invert,
      nearestIsLeftmost: nearestIsLeftmost, halfPeriodNanoseconds: 1_000, consumer: "test",
      delay: time.wait)
  }

  @Test func pwmOnOutputEnableDimsWithTheComplementOfTheBrightness() throws {
    // A sysfs-like tree with pwm0 already exported (Documentation/ABI/testing/sysfs-class-pwm).
    let tree = try FakePWMTree()
    defer { tree.remove() }
    try tree.addChannel(0)
    var writes: [String] = []
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = ShiftRegisterDriver(
      chip: chip, data: .offset(data), clock: .offset(clock), latch: .offset(latch),
      outputEnable: nil,
      pwm: PWMChannel(
        chip: 0, channel: 0, root: tree.root, trace: { writes.append("\($0)=\($1)") }),
      pwmPeriodNanoseconds: 1_000_000, digits: 4, map: .sparkFunLargeDigit, consumer: "test",
      delay: time.wait)
    try display.start()
    // /OE high for the whole period: dark until the first frame is latched.
    #expect(writes == ["pwm0/period=1000000", "pwm0/duty_cycle=1000000", "pwm0/enable=1"])
    writes = []
    try display.show(try frame("1234", brightness: 100))
    #expect(writes == ["pwm0/duty_cycle=0"])  // /OE low all the time: full brightness
    try display.show(try frame("1235", brightness: 100))
    try display.show(try frame("1235", brightness: 30))
    #expect(writes == ["pwm0/duty_cycle=0", "pwm0/duty_cycle=700000"])
    #expect(try tree.read("pwm0/duty_cycle") == "700000\n")
    try display.show(try frame("1235", brightness: 0))
    #expect(writes.last == "pwm0/duty_cycle=1000000")
    writes = []
    display.shutDown()
    #expect(writes == ["pwm0/enable=0", "unexport=0"])
  }

  @Test func sparkFunBoardsChainedLeftToRight() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time)
    try display.start()
    #expect(decode(chip, registers: 4).outputEnableLevel == true)  // dark until the first frame
    try display.show(try frame("1234", colonAfter: 1))
    let chain = decode(chip, registers: 4)
    // SparkFun Large Digit Driver codes: 1 60, 2 5D, 3 75, 4 66; DP = bit 7. Register 0 (the
    // board on the Pi) is the leftmost digit.
    #expect(chain.outputs == [0x60, 0x5D | 0x80, 0x75, 0x66])
    #expect(chain.latches == 1)
    #expect(chain.outputEnableLevel == false)
    #expect(chain.shortestSetup >= 1_000)
    try display.show(try frame("1234", colonAfter: 1))
    #expect(decode(chip, registers: 4).latches == 1)
    try display.show(try frame("1234", colonAfter: 1, brightness: 0))
    #expect(decode(chip, registers: 4).outputEnableLevel == true)
  }

  @Test func rightToLeftChainsAndInvertedOutputs() throws {
    let time = ManualClock()
    let chip = fakeChip(time)
    let display = driver(chip, time, nearestIsLeftmost: false, invert: true)
    try display.start()
    try display.show(try frame("1-  "))
    let chain = decode(chip, registers: 4)
    // The board on the Pi is now the rightmost digit; a 0 bit lights a segment.
    #expect(chain.outputs == [0xFF, 0xFF, ~0x04, ~0x60])
  }
}
