// SPDX-License-Identifier: MIT
// Hardware-in-the-loop check of the 7-segment drivers against a real kernel: the bit-banged
// ones through libgpiod on gpio-sim, the HT16K33 one through i2c-dev on i2c-stub.
//
// Runs inside the VM of Tests/hil/gpio-sim-vm.sh (with --banks 16 --i2c-stub 0x70). After every
// GPIO write it reads every line of the request back from gpio-sim's sysfs
// (`sim_gpioN/value`, what the outside world sees while the line is held), so the decoders in
// SegmentDecoders see the waveform the kernel produced, not what the driver meant to write.
// The HT16K33's display RAM is read back from the stub with SMBus block reads.
//
// Usage: wodclock-segment-check --chip NAME --sysfs DIR [--i2c /dev/i2c-N]
// Prints one PASS or FAIL line per check and exits 1 if any failed.

import Glibc
import HardwareKit
import SegmentDecoders
import SegmentDrivers
import SevenSegment

nonisolated(unsafe) var failures = 0

func check(_ condition: Bool, _ what: String, _ detail: @autoclosure () -> String = "") {
  if condition {
    print("PASS: \(what)")
  } else {
    failures += 1
    print("FAIL: \(what) (\(detail()))")
  }
}

func hex(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let text = String(byte, radix: 16)
    return text.count == 1 ? "0" + text : text
  }.joined(separator: " ")
}

// MARK: reading lines back from gpio-sim

/// Every sample of the lines of the requests made through `ReadBackChip`.
final class Recorder {
  let sysfs: String
  var lines: [Int] = []
  var samples: [[Bool]] = []
  init(sysfs: String) { self.sysfs = sysfs }

  /// Nanoseconds spent reading back, to tell the check's cost from the driver's.
  var readingTime: Int64 = 0
  private var descriptors: [Int: Int32] = [:]

  func sample() {
    let start = MonotonicClock.now()
    samples.append(lines.map(read))
    readingTime += MonotonicClock.now() - start
  }

  /// One pread of the sysfs attribute, kept open (sysfs re-reads the value on every pread at
  /// offset 0).
  private func read(_ offset: Int) -> Bool {
    if descriptors[offset] == nil {
      descriptors[offset] = open("\(sysfs)/sim_gpio\(offset)/value", O_RDONLY | O_CLOEXEC)
    }
    var byte: UInt8 = 0
    guard let fd = descriptors[offset], fd >= 0, pread(fd, &byte, 1, 0) == 1 else { return false }
    return byte == UInt8(ascii: "1")
  }

  func waveform() -> Waveform { Waveform(samples: samples, lines: lines) }
  func reset() {
    lines = []
    samples = []
    readingTime = 0
  }
}

/// A chip whose output requests sample every line after every write.
final class ReadBackChip: GPIOChip {
  let base: any GPIOChip
  let recorder: Recorder
  init(base: any GPIOChip, recorder: Recorder) {
    self.base = base
    self.recorder = recorder
  }
  var info: GPIOChipInfo { base.info }
  func lineInfo(at offset: Int) throws(GPIOError) -> GPIOLineInfo { try base.lineInfo(at: offset) }
  func offset(of line: GPIOLine) throws(GPIOError) -> Int { try base.offset(of: line) }
  func requestInputs(
    _ lines: [GPIOLine], consumer: String, bias: GPIOBias, activeLow: Bool,
    edges: GPIOEdgeDetection
  ) throws(GPIOError) -> any GPIOInputRequest {
    try base.requestInputs(
      lines, consumer: consumer, bias: bias, activeLow: activeLow, edges: edges)
  }
  func requestOutputs(
    _ lines: [GPIOLine], consumer: String, activeLow: Bool, initialValues: [Bool]
  ) throws(GPIOError) -> any GPIOOutputRequest {
    let request = try base.requestOutputs(
      lines, consumer: consumer, activeLow: activeLow, initialValues: initialValues)
    recorder.lines = request.offsets
    recorder.sample()
    return ReadBackRequest(base: request, recorder: recorder)
  }
}

final class ReadBackRequest: GPIOOutputRequest {
  let base: any GPIOOutputRequest
  let recorder: Recorder
  init(base: any GPIOOutputRequest, recorder: Recorder) {
    self.base = base
    self.recorder = recorder
  }
  var offsets: [Int] { base.offsets }
  func setValue(_ value: Bool, at offset: Int) throws(GPIOError) {
    try base.setValue(value, at: offset)
    recorder.sample()
  }
  func setValues(_ values: [Bool]) throws(GPIOError) {
    try base.setValues(values)
    recorder.sample()
  }
  func release() { base.release() }
}

// MARK: arguments

var chipName = ProcessInfoLite.environment("GPIO_SIM_CHIP") ?? "gpiochip0"
var sysfs = ProcessInfoLite.environment("GPIO_SIM_SYSFS") ?? ""
var i2cBus = ProcessInfoLite.environment("I2C_STUB_BUS")
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--chip": chipName = arguments.next() ?? chipName
  case "--sysfs": sysfs = arguments.next() ?? sysfs
  case "--i2c": i2cBus = arguments.next()
  default:
    print("usage: wodclock-segment-check [--chip NAME] [--sysfs DIR] [--i2c /dev/i2c-N]")
    exit(2)
  }
}

enum ProcessInfoLite {
  static func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }
}

func frame(_ text: String, colonAfter: Int? = nil) -> SegmentFrame {
  // The texts below are all showable.
  SegmentFrame(
    digits: (try? SegmentFont.render(text)) ?? [], colonsLit: colonAfter.map { [$0] } ?? [],
    brightnessPercent: 100)
}

func run(_ what: String, _ body: () throws -> Void) {
  do {
    try body()
  } catch {
    failures += 1
    print("FAIL: \(what): \(error)")
  }
}

let recorder = Recorder(sysfs: sysfs)

// MARK: TM1637, 6 digits, lines 0 (CLK) and 1 (DIO)

run("tm1637") {
  let chip = ReadBackChip(base: try GPIOChips.open(chipName), recorder: recorder)
  recorder.reset()
  let display = TM1637Driver(
    chip: chip, clock: .offset(0), data: .offset(1), digits: 6, halfPeriodNanoseconds: 20_000,
    consumer: "segment-check")
  try display.start()
  let started = MonotonicClock.now()
  recorder.readingTime = 0
  try display.show(frame("123456"))
  let full = MonotonicClock.now() - started
  var decoder = TM1637Decoder()
  decoder.decode(recorder.waveform(), clock: 0, data: 1)
  check(decoder.violations.isEmpty, "tm1637: no protocol violations", "\(decoder.violations)")
  // Datasheet codes 1 06 … 6 7D at GRIDs {2, 1, 0, 5, 4, 3}.
  check(
    decoder.ram == [0x4F, 0x5B, 0x06, 0x7D, 0x6D, 0x66], "tm1637: 6-digit RAM in grid order",
    hex(decoder.ram))
  check(decoder.displayOn == true && decoder.brightness == 7, "tm1637: display on, brightness 7")
  let before = decoder.transactions.count
  try display.show(frame("123457"))
  decoder = TM1637Decoder()
  decoder.decode(recorder.waveform(), clock: 0, data: 1)
  check(
    decoder.transactions.count == before + 2 && decoder.ram[3] == 0x07,
    "tm1637: one changed digit is one address write", "\(decoder.transactions.suffix(2))")
  let samples = recorder.samples.count
  try display.show(frame("123457"))
  check(recorder.samples.count == samples, "tm1637: an unchanged frame writes nothing")
  print(
    "tm1637: full 6-digit refresh took \((full - recorder.readingTime) / 1000) µs "
      + "(plus \(recorder.readingTime / 1000) µs reading lines back)")
  display.shutDown()
}

// MARK: shift-register chain, lines 2 (SER), 3 (SRCK), 4 (RCK), 5 (/OE)

run("shift-register") {
  let chip = ReadBackChip(base: try GPIOChips.open(chipName), recorder: recorder)
  recorder.reset()
  let display = ShiftRegisterDriver(
    chip: chip, data: .offset(2), clock: .offset(3), latch: .offset(4), outputEnable: .offset(5),
    digits: 4, map: .sparkFunLargeDigit, consumer: "segment-check")
  try display.start()
  try display.show(frame("1234", colonAfter: 1))
  var decoder = ShiftChainDecoder(registers: 4)
  decoder.decode(recorder.waveform(), data: 2, clock: 3, latch: 4, outputEnable: 5)
  // SparkFun Large Digit Driver codes 1 60, 2 5D (+ DP 80), 3 75, 4 66.
  check(
    decoder.outputs == [0x60, 0xDD, 0x75, 0x66], "shift-register: latched SparkFun codes",
    hex(decoder.outputs))
  check(decoder.latches == 1, "shift-register: one latch pulse")
  check(decoder.outputEnableLevel == false, "shift-register: /OE low (outputs on)")
  display.shutDown()
}

// MARK: MAX7219, lines 8 (DIN), 9 (CLK), 10 (LOAD)

run("max7219") {
  let gpio = try GPIOChips.open(chipName)
  let chip = ReadBackChip(base: gpio, recorder: recorder)
  recorder.reset()
  let display = MAX7219Driver(chips: 1, digitsPerChip: 8, rightToLeft: true) {
    try BitBangFrameTransport(
      chip: chip, data: .offset(8), clock: .offset(9), load: .offset(10),
      halfPeriodNanoseconds: 1_000, consumer: "segment-check")
  }
  try display.start()
  try display.show(frame("12345678"))
  var decoder = MAX7219Decoder(chips: 1)
  decoder.decode(recorder.waveform(), data: 8, clock: 9, load: 10)
  check(decoder.violations.isEmpty, "max7219: 16 clocks per LOAD", "\(decoder.violations)")
  // No-decode codes, DIG0 the rightmost: 8 7F, 7 70, 6 5F, 5 5B, 4 33, 3 79, 2 6D, 1 30.
  let digits = decoder.digits(ofChip: 0).map { $0 ?? 0xEE }
  check(
    digits == [0x7F, 0x70, 0x5F, 0x5B, 0x33, 0x79, 0x6D, 0x30], "max7219: digit registers",
    hex(digits))
  check(
    decoder.registers[0][0x0B] == 7 && decoder.registers[0][0x09] == 0
      && decoder.registers[0][0x0C] == 1,
    "max7219: scan limit 7, no decode, normal operation")
  display.shutDown()
}

// MARK: HT16K33 on i2c-stub

if let bus = i2cBus {
  run("ht16k33") {
    let device = try I2CDevice(path: bus, address: 0x70)
    let display = HT16K33Driver { device }
    try display.start()
    try display.show(frame("1234", colonAfter: 1))
    var ram = try device.readBlock(register: 0, count: 16)
    check(
      ram == [0x06, 0, 0x5B, 0, 0x02, 0, 0x4F, 0, 0x66, 0, 0, 0, 0, 0, 0, 0],
      "ht16k33: RAM read back from i2c-stub", hex(ram))
    try display.show(frame("1235", colonAfter: 1))
    ram = try device.readBlock(register: 0, count: 16)
    check(ram[8] == 0x6D && ram[0] == 0x06, "ht16k33: changed digit written", hex(ram))
    display.shutDown()
    let reopened = try I2CDevice(path: bus, address: 0x70)
    ram = try reopened.readBlock(register: 0, count: 16)
    check(ram.allSatisfy { $0 == 0 }, "ht16k33: shut down blanks the RAM", hex(ram))
    reopened.close()
  }
  run("ht16k33 absent address") {
    do throws(SystemError) {
      _ = try I2CDevice(path: bus, address: 0x71).readBlock(register: 0, count: 1)
      check(false, "ht16k33: an absent address fails")
    } catch {
      check(
        [ENXIO, EREMOTEIO, ENODEV].contains(error.errno.rawValue),
        "ht16k33: an absent address fails (\(error.errno.name))", "\(error)")
    }
  }
} else {
  print("SKIP: ht16k33 (no --i2c bus)")
}

print(failures == 0 ? "segment check: all passed" : "segment check: \(failures) failed")
exit(failures == 0 ? 0 : 1)
