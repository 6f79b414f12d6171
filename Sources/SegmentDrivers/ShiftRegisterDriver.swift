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
// Brightness: /OE (/G on TPIC parts, low = outputs on) on a GPIO line is driven high at 0 % and
// low otherwise. On a hardware PWM channel instead (Documentation/ABI/testing/sysfs-class-pwm)
// the digits dim: they are lit while /OE is low, and sysfs's `duty_cycle` is the active time,
// high in normal polarity, so the duty cycle is the dark part: period × (100 % − brightness).
// Normal polarity with the complement rather than `polarity: inversed`, because not every
// controller can invert (the write fails on those). Software PWM from the daemon's loop would
// flicker whenever the loop is busy; the controller's waveform does not.

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
  private let pwm: PWMChannel?
  private let pwmPeriod: Int64

  /// - Parameters:
  ///   - outputEnable: the /OE (/G) line, if wired to a GPIO line.
  ///   - pwm: the PWM channel wired to /OE (/G), for dimming; instead of `outputEnable`.
  ///   - pwmPeriodNanoseconds: its period (1 ms: 1 kHz, well above visible flicker).
  ///   - map: where each segment sits in a register (the board's wiring).
  ///   - invert: a 0 bit lights a segment (a 74HC595 sinking common-anode digits).
  ///   - nearestIsLeftmost: the register wired to the Pi drives the leftmost digit (the chain
  ///     runs left to right).
  public init(
    chip: any GPIOChip, data: GPIOLine, clock: GPIOLine, latch: GPIOLine,
    outputEnable: GPIOLine?, pwm: PWMChannel? = nil, pwmPeriodNanoseconds: Int64 = 1_000_000,
    digits: Int, map: SegmentBitMap, invert: Bool = false, nearestIsLeftmost: Bool = true,
    halfPeriodNanoseconds: Int64 = 1_000, consumer: String,
    delay: @escaping (Int64) -> Void = SpinDelay.wait
  ) {
    self.pwm = pwm
    pwmPeriod = max(1, pwmPeriodNanoseconds)
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
    if let pwm {
      // Dark (/OE high all the time) until the first frame is latched, as with a GPIO /OE.
      try pwm.open()
      try pwm.set(periodNanoseconds: pwmPeriod, dutyNanoseconds: pwmPeriod)
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
    if let pwm {
      let percent = Int64(max(0, min(100, frame.brightnessPercent)))
      // The high (dark) time; PWMChannel writes nothing when it has not changed.
      try pwm.set(
        periodNanoseconds: pwmPeriod, dutyNanoseconds: pwmPeriod * (100 - percent) / 100)
    } else if hasOutputEnable {
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
    // After the chain is blank: a disabled PWM output's level is the controller's choice.
    pwm?.close()
    lines = nil
    chain = nil
  }

  /// `bytes` are left to right; the farthest register's byte is shifted first.
  private func shift(_ bytes: [UInt8], on lines: BitBangLines) throws(GPIOError) {
    let order = nearestIsLeftmost ? Array(bytes.reversed()) : bytes
    try lines.shiftOutMSBFirst(order, data: 0, clock: 1, halfPeriod: halfPeriod)
    lines.wait(halfPeriod)
    try lines.set(2, true)
    lines.wait(halfPeriod)
    try lines.set(2, false)
  }
}
