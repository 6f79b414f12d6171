// SPDX-License-Identifier: MIT
// MAX7219/MAX7221 chains, bit-banged on three GPIO lines or through spidev.
//
// Serial interface (MAX7219 datasheet, "Serial-Addressing Modes", Table 1, Figure 1): 16-bit
// packets, MSB first, D15–D12 don't care, D11–D8 the register, D7–D0 the data; DIN is shifted in
// on CLK's rising edges and the packet is latched on LOAD's rising edge, which must come at or
// after the 16th rising edge. Chained chips pass bits on from DOUT, so N chips take N × 16 bits
// under one LOAD pulse and the first packet shifted ends up in the farthest chip.
//
// Timing: the datasheet's shortest times are tens of nanoseconds (10 MHz); a GPIO call from
// userspace already takes longer, so the default half period is 1 µs. One full refresh of an
// 8-digit chain of C chips is 8 frames of C × 16 bits: with one chip about 128 clocks ≈ 0.3 ms
// plus ~400 GPIO calls; a new second rewrites one register: 16 clocks.

public import HardwareKit
public import SevenSegment

/// Sends one frame of bytes, MSB first, ending with a latch: a LOAD/chip-select rising edge.
public protocol FrameTransport: AnyObject {
  func send(_ bytes: [UInt8]) throws
  func close()
}

/// SPI mode 0 bit-banged on GPIO lines: data, clock, and a load/latch line that is low during
/// the frame and rises after its last rising clock edge.
public final class BitBangFrameTransport: FrameTransport {
  private let lines: BitBangLines
  private let halfPeriod: Int64

  /// Lines in the order data, clock, load; idle: clock low, load high.
  public init(
    chip: any GPIOChip, data: GPIOLine, clock: GPIOLine, load: GPIOLine,
    halfPeriodNanoseconds: Int64, consumer: String,
    delay: @escaping (Int64) -> Void = SpinDelay.wait
  ) throws(GPIOError) {
    lines = try BitBangLines(
      chip: chip, lines: [data, clock, load], initialValues: [false, false, true],
      consumer: consumer, delay: delay)
    halfPeriod = max(0, halfPeriodNanoseconds)
  }

  public var gpioWrites: Int { lines.writes }

  public func send(_ bytes: [UInt8]) throws {
    try lines.set(2, false)
    try lines.shiftOutMSBFirst(bytes, data: 0, clock: 1, halfPeriod: halfPeriod)
    // LOAD rises after the last rising clock edge: the chips latch (datasheet Figure 1).
    lines.wait(halfPeriod)
    try lines.set(2, true)
    lines.wait(halfPeriod)
  }

  public func close() { lines.release() }
}

/// spidev: mode 0, MSB first; chip select is LOAD (its rising edge at the end of a transfer
/// latches, as LOAD does).
public final class SPIFrameTransport: FrameTransport {
  private let device: SPIDevice
  public init(device: SPIDevice) { self.device = device }
  public func send(_ bytes: [UInt8]) throws { try device.transfer(bytes) }
  public func close() { device.close() }
}

/// A chain of MAX7219s in no-decode mode.
public final class MAX7219Driver: SegmentDriver {
  /// Register addresses (datasheet Table 2).
  enum Register: UInt8 {
    case noOp = 0x00
    case decodeMode = 0x09
    case intensity = 0x0A
    case scanLimit = 0x0B
    case shutdown = 0x0C
    case displayTest = 0x0F
  }

  public let digitCount: Int
  private let chips: Int
  private let digitsPerChip: Int
  private let rightToLeft: Bool
  private let makeTransport: () throws -> any FrameTransport
  private var transport: (any FrameTransport)?
  /// Per chip, the eight digit registers as last written.
  private var registers: [[UInt8]]?
  private var intensity: UInt8?
  private var on: Bool?

  /// - Parameters:
  ///   - chips: chips in the chain; chip 0 is wired to the Pi and shows the leftmost digits.
  ///   - digitsPerChip: 1–8, the scan limit plus one.
  ///   - rightToLeft: DIG0 is the rightmost digit of each chip (most 8-digit modules).
  public init(
    chips: Int, digitsPerChip: Int, rightToLeft: Bool,
    transport: @escaping () throws -> any FrameTransport
  ) {
    precondition((1...8).contains(digitsPerChip) && chips >= 1)
    self.chips = chips
    self.digitsPerChip = digitsPerChip
    self.rightToLeft = rightToLeft
    digitCount = chips * digitsPerChip
    makeTransport = transport
  }

  public func start() throws {
    if transport == nil { transport = try makeTransport() }
    registers = nil
    intensity = nil
    on = nil
    // Power-up is shutdown, scan limit 1 digit, random digit RAM (datasheet "Initial Power-Up").
    try broadcast(.displayTest, 0x00)
    try broadcast(.scanLimit, UInt8(digitsPerChip - 1))
    try broadcast(.decodeMode, 0x00)
  }

  public func show(_ frame: SegmentFrame) throws {
    guard transport != nil else { return }
    let digits = frame.digitsWithColonsAsDecimalPoints
    var next = [[UInt8]](repeating: [UInt8](repeating: 0, count: 8), count: chips)
    for position in 0..<min(digitCount, digits.count) {
      let chip = position / digitsPerChip
      let index = position % digitsPerChip
      let digit = rightToLeft ? digitsPerChip - 1 - index : index
      next[chip][digit] = SegmentBitMap.max7219.byte(for: digits[position])
    }
    // Per chip, the digit registers that changed; frame k carries each chip's k-th change and
    // no-ops for chips with fewer, so chips with changes share frames.
    var pending = (0..<chips).map { chip in
      (0..<digitsPerChip).filter { registers == nil || registers![chip][$0] != next[chip][$0] }
    }
    while pending.contains(where: { !$0.isEmpty }) {
      var packets: [(UInt8, UInt8)] = []
      for chip in 0..<chips {
        if let digit = pending[chip].first {
          pending[chip].removeFirst()
          packets.append((UInt8(digit + 1), next[chip][digit]))
        } else {
          packets.append((Register.noOp.rawValue, 0))
        }
      }
      try send(packets)
    }
    registers = next
    let level = BrightnessScale.step(frame.brightnessPercent, maximum: 15)
    if let level, UInt8(level) != intensity {
      try broadcast(.intensity, UInt8(level))
      intensity = UInt8(level)
    }
    // 0 %: shutdown mode (the lowest intensity is 1/32 duty, not dark).
    let wantOn = level != nil
    if wantOn != on {
      try broadcast(.shutdown, wantOn ? 0x01 : 0x00)
      on = wantOn
    }
  }

  public func shutDown() {
    if transport != nil {
      for digit in 1...8 { try? broadcast(UInt8(digit), 0) }
      try? broadcast(.shutdown, 0x00)
      transport?.close()
    }
    transport = nil
    registers = nil
  }

  private func broadcast(_ register: Register, _ data: UInt8) throws {
    try broadcast(register.rawValue, data)
  }

  private func broadcast(_ register: UInt8, _ data: UInt8) throws {
    try send([(UInt8, UInt8)](repeating: (register, data), count: chips))
  }

  /// `packets[c]` goes to chip c: the farthest chip's packet is shifted first.
  private func send(_ packets: [(UInt8, UInt8)]) throws {
    guard let transport else { return }
    var bytes: [UInt8] = []
    for (register, data) in packets.reversed() { bytes += [register, data] }
    try transport.send(bytes)
  }
}
