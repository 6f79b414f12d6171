// SPDX-License-Identifier: MIT
// 74HC595 / TPIC6B595 / TPIC6C596 chains, one register per digit (SparkFun Large Digit Driver
// and home-built large displays).
//
// Per update (TI TPIC6B595 datasheet SLIS032, "logic diagram" and timing; 74HC595 the same):
// for every bit set SER, then a rising SRCK edge shifts it in; after all bits one rising RCK
// edge copies the shift registers to the outputs, so nothing flickers while shifting. Bits go
// MSB first, so bit 7 ends in QH/DRAIN7; in a chain the first byte shifted ends in the farthest
// register.
//
// A chain cannot take a single digit (shifting moves every digit along), so a change rewrites
// the whole chain; an unchanged frame writes nothing. Cost: 8 clocks per digit; with the 1 µs
// default half period a 6-digit chain is 48 clocks ≈ 0.1 ms plus ~150 GPIO calls.
//
// Brightness: /OE (/G on TPIC parts, low = outputs on) when wired is driven high at 0 % and low
// otherwise; dimming in steps needs a hardware PWM on /OE, which this driver does not drive.

public import HardwareKit
public import SevenSegment

/// A chain of 8-bit shift registers, one per digit.
public final class ShiftRegisterDriver: SegmentDriver {
  public let digitCount: Int
  private let chip: any GPIOChip
  private let lineSpecs: [GPIOLine]
  private let hasOutputEnable: Bool
  private let map: SegmentBitMap
  private let invert: Bool
  private let nearestIsLeftmost: Bool
  private let halfPeriod: Int64
  private let consumer: String
  private let delay: (Int64) -> Void
  private var lines: BitBangLines?
  private var chain: [UInt8]?
  private var enabled: Bool?

  /// - Parameters:
  ///   - outputEnable: the /OE (/G) line, if wired.
  ///   - map: where each segment sits in a register (the board's wiring).
  ///   - invert: a 0 bit lights a segment (a 74HC595 sinking common-anode digits).
  ///   - nearestIsLeftmost: the register wired to the Pi drives the leftmost digit (the chain
  ///     runs left to right).
  public init(
    chip: any GPIOChip, data: GPIOLine, clock: GPIOLine, latch: GPIOLine,
    outputEnable: GPIOLine?, digits: Int, map: SegmentBitMap, invert: Bool = false,
    nearestIsLeftmost: Bool = true, halfPeriodNanoseconds: Int64 = 1_000, consumer: String,
    delay: @escaping (Int64) -> Void = SpinDelay.wait
  ) {
    self.chip = chip
    lineSpecs = [data, clock, latch] + (outputEnable.map { [$0] } ?? [])
    hasOutputEnable = outputEnable != nil
    digitCount = digits
    self.map = map
    self.invert = invert
    self.nearestIsLeftmost = nearestIsLeftmost
    halfPeriod = max(0, halfPeriodNanoseconds)
    self.consumer = consumer
    self.delay = delay
  }

  public var gpioWrites: Int { lines?.writes ?? 0 }

  public func start() throws {
    if lines == nil {
      // /OE starts high (outputs off) until the first frame is latched.
      lines = try BitBangLines(
        chip: chip, lines: lineSpecs,
        initialValues: [false, false, false] + (hasOutputEnable ? [true] : []),
        consumer: consumer, delay: delay)
    }
    chain = nil
    enabled = nil
  }

  public func show(_ frame: SegmentFrame) throws {
    guard let lines else { return }
    let digits = frame.digitsWithColonsAsDecimalPoints
    var bytes = (0..<digitCount).map { position in
      map.byte(for: position < digits.count ? digits[position] : .blank)
    }
    if invert { bytes = bytes.map { ~$0 } }
    if bytes != chain {
      try shift(bytes, on: lines)
      chain = bytes
    }
    if hasOutputEnable {
      let on = frame.brightnessPercent > 0
      if on != enabled {
        try lines.set(3, !on)
        enabled = on
      }
    }
  }

  public func shutDown() {
    if let lines {
      try? shift([UInt8](repeating: invert ? 0xFF : 0x00, count: digitCount), on: lines)
      if hasOutputEnable { try? lines.set(3, true) }
      lines.release()
    }
    lines = nil
    chain = nil
  }

  /// `bytes` are left to right; the farthest register's byte is shifted first.
  private func shift(_ bytes: [UInt8], on lines: BitBangLines) throws(GPIOError) {
    let order = nearestIsLeftmost ? Array(bytes.reversed()) : bytes
    for byte in order {
      for bit in (0..<8).reversed() {
        try lines.set(0, byte & (1 << UInt8(bit)) != 0)
        lines.wait(halfPeriod)
        try lines.set(1, true)
        lines.wait(halfPeriod)
        try lines.set(1, false)
      }
    }
    lines.wait(halfPeriod)
    try lines.set(2, true)
    lines.wait(halfPeriod)
    try lines.set(2, false)
  }
}
