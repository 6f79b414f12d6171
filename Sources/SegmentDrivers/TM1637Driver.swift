// SPDX-License-Identifier: MIT
// TM1637 LED driver (4- and 6-digit modules) on two GPIO lines, CLK and DIO.
//
// Wire protocol (TM1637 datasheet v2.4, "interface interpretation"): idle with CLK and DIO
// high; START is DIO falling while CLK is high, STOP is DIO rising while CLK is high; data bits
// go LSB first, DIO changing only while CLK is low, sampled on CLK's rising edge; after eight
// bits the chip acknowledges by pulling DIO low from the eighth falling edge to the end of the
// ninth clock.
//
// The lines are push-pull outputs. So that the host never drives DIO high against the chip's
// acknowledge, DIO is driven low right after the eighth falling edge and held low through the
// ninth clock (the chip pulls low too, so nobody fights); only when bit 7 was 1 does the host
// drive high for the one GPIO call between that edge and DIO falling. A 1 kΩ series resistor in
// DIO bounds that overlap (README). The acknowledge is not read: a missing display shows as
// nothing on the wall, not as an error the daemon could act on.
//
// Timing: the datasheet allows a 500 kHz clock (1 µs half period) but modules put 10 kΩ
// pull-ups and up to 100 nF on the lines, so the default half period is 20 µs. One full
// 6-digit refresh is 9 bytes (0x40; 0xC0 + six digits; 0x8x) = 81 clocks ≈ 170 half periods
// ≈ 3.4 ms at 20 µs, about 250 GPIO calls; a new second on `MM:SS` rewrites one digit: 3 bytes,
// ≈ 1.3 ms. The daemon's loop stalls for that long; it is single-threaded and that is well
// below a display frame.

public import HardwareKit
public import SevenSegment

/// A TM1637 module.
public final class TM1637Driver: SegmentDriver {
  /// The 6-digit modules' grid order: displayed position i (0 = leftmost) is at address
  /// 0xC0 + map[i] (the common 6-digit PCB; the map is its own inverse).
  public static let sixDigitAddressMap = [2, 1, 0, 5, 4, 3]

  public let digitCount: Int
  private let chip: any GPIOChip
  private let clockLine: GPIOLine
  private let dataLine: GPIOLine
  private let halfPeriod: Int64
  private let consumer: String
  private let delay: (Int64) -> Void
  private var lines: BitBangLines?
  private var ram: [UInt8]?
  private var control: UInt8?

  private static let clk = 0
  private static let dio = 1

  /// - Parameters:
  ///   - digits: 4 or 6.
  ///   - halfPeriodNanoseconds: the time between edges; at least 1 µs (datasheet: 500 kHz).
  public init(
    chip: any GPIOChip, clock: GPIOLine, data: GPIOLine, digits: Int,
    halfPeriodNanoseconds: Int64 = 20_000, consumer: String,
    delay: @escaping (Int64) -> Void = SpinDelay.wait
  ) {
    precondition(digits == 4 || digits == 6, "TM1637 modules have 4 or 6 digits")
    self.chip = chip
    self.clockLine = clock
    self.dataLine = data
    digitCount = digits
    halfPeriod = max(1_000, halfPeriodNanoseconds)
    self.consumer = consumer
    self.delay = delay
  }

  /// The number of GPIO value changes written so far.
  public var gpioWrites: Int { lines?.writes ?? 0 }

  public func start() throws {
    if lines == nil {
      lines = try BitBangLines(
        chip: chip, lines: [clockLine, dataLine], initialValues: [true, true], consumer: consumer,
        delay: delay)
    }
    ram = nil
    control = nil
  }

  public func show(_ frame: SegmentFrame) throws {
    guard let lines else { return }
    let digits = frame.digitsWithColonsAsDecimalPoints
    // Each RAM byte: SEG1 (A) = bit 0 … SEG8 (DP/colon) = bit 7 (datasheet display register).
    var next = [UInt8](repeating: 0, count: digitCount)
    for position in 0..<min(digitCount, digits.count) {
      next[address(of: position)] = SegmentBitMap.standard.byte(for: digits[position])
    }
    let changed = SegmentDiff.changedPositions(from: ram, to: next)
    if !changed.isEmpty {
      // Data command: write, auto-increment address (0x40).
      try transfer([0x40], on: lines)
      for run in SegmentDiff.runs(changed) {
        // Address command 0xC0 + first address, then the run's bytes.
        try transfer([0xC0 | UInt8(run.lowerBound)] + next[run], on: lines)
      }
      ram = next
    }
    // Display control: 0x88 | pulse width 0…7, or 0x80 for off.
    let level = BrightnessScale.step(frame.brightnessPercent, maximum: 7)
    let nextControl: UInt8 = level.map { 0x88 | UInt8($0) } ?? 0x80
    if nextControl != control {
      try transfer([nextControl], on: lines)
      control = nextControl
    }
  }

  public func shutDown() {
    if let lines {
      try? transfer([0x40], on: lines)
      try? transfer([0xC0] + [UInt8](repeating: 0, count: digitCount), on: lines)
      try? transfer([0x80], on: lines)
      lines.release()
    }
    lines = nil
    ram = nil
    control = nil
  }

  private func address(of position: Int) -> Int {
    digitCount == 6 ? Self.sixDigitAddressMap[position] : position
  }

  /// START, the bytes (each acknowledged), STOP.
  private func transfer(_ bytes: [UInt8], on lines: BitBangLines) throws(GPIOError) {
    // START: DIO falls while CLK is high (from idle, both high).
    try lines.set(Self.dio, false)
    lines.wait(halfPeriod)
    try lines.set(Self.clk, false)
    for byte in bytes {
      for bit in 0..<8 {
        // DIO changes right after CLK falls, then a full half period before the rising edge.
        try lines.set(Self.dio, byte & (1 << UInt8(bit)) != 0)
        lines.wait(halfPeriod)
        try lines.set(Self.clk, true)
        lines.wait(halfPeriod)
        try lines.set(Self.clk, false)
      }
      // Ninth clock: the chip's acknowledge; hold DIO low with it (see the file comment).
      try lines.set(Self.dio, false)
      lines.wait(halfPeriod)
      try lines.set(Self.clk, true)
      lines.wait(halfPeriod)
      try lines.set(Self.clk, false)
    }
    // STOP: DIO low while CLK is low, CLK rises, then DIO rises while CLK is high.
    try lines.set(Self.dio, false)
    lines.wait(halfPeriod)
    try lines.set(Self.clk, true)
    lines.wait(halfPeriod)
    try lines.set(Self.dio, true)
    lines.wait(halfPeriod)
  }
}
