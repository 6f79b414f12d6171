// SPDX-License-Identifier: MIT
// HT16K33 on the Adafruit 4-digit 7-segment backpacks (0.56" and 1.2"), over i2c-dev.
//
// Commands (HT16K33 datasheet, command summary; Adafruit_LEDBackpack): 0x21 oscillator on,
// 0x80 | blink << 1 | on display setup, 0xE0 | p dimming (duty (p+1)/16), and a write starting
// at a RAM address followed by data. The backpack's RAM: 0x00 digit 1, 0x02 digit 2, 0x04 the
// colon (0x02), 0x06 digit 3, 0x08 digit 4; A = bit 0 … G = bit 6, DP = bit 7.
//
// Display RAM goes out as SMBus "write I2C block data" (register = RAM address, then bytes), on
// the wire exactly the datasheet's address-then-data write. Only runs of changed RAM bytes are
// sent; a full refresh is one 17-byte transfer, ≈ 1.7 ms at 100 kHz (the ioctl blocks for it).

import HardwareKit
public import SevenSegment

/// An HT16K33 4-digit backpack.
public final class HT16K33Driver: SegmentDriver {
  /// RAM addresses of the four digits, left to right, and of the colon byte.
  public static let digitAddresses = [0x00, 0x02, 0x06, 0x08]
  public static let colonAddress = 0x04

  public let digitCount = 4
  private let open: () throws -> any I2CTransport
  private var transport: (any I2CTransport)?
  private var ram: [UInt8]?
  private var setup: UInt8?
  private var dimming: UInt8?

  public init(transport: @escaping () throws -> any I2CTransport) {
    open = transport
  }

  public func start() throws {
    if transport == nil { transport = try open() }
    guard let transport else { return }
    ram = nil
    setup = nil
    dimming = nil
    // Oscillator on (system setup 0x21); RAM powers up with random contents and is written in
    // full by the first frame.
    try transport.sendByte(0x21)
  }

  public func show(_ frame: SegmentFrame) throws {
    guard let transport else { return }
    var next = [UInt8](repeating: 0, count: 16)
    for (index, address) in Self.digitAddresses.enumerated() where index < frame.digits.count {
      next[address] = SegmentBitMap.standard.byte(for: frame.digits[index])
    }
    next[Self.colonAddress] = frame.colonLit ? 0x02 : 0x00
    for run in SegmentDiff.runs(SegmentDiff.changedPositions(from: ram, to: next)) {
      try transport.writeBlock(register: UInt8(run.lowerBound), Array(next[run]))
    }
    ram = next
    let level = BrightnessScale.step(frame.brightnessPercent, maximum: 15)
    if let level, UInt8(0xE0 | level) != dimming {
      try transport.sendByte(0xE0 | UInt8(level))
      dimming = 0xE0 | UInt8(level)
    }
    // Display setup: on without blinking (0x81), or off (0x80) at 0 %.
    let nextSetup: UInt8 = level == nil ? 0x80 : 0x81
    if nextSetup != setup {
      try transport.sendByte(nextSetup)
      setup = nextSetup
    }
  }

  public func shutDown() {
    if let transport {
      try? transport.writeBlock(register: 0x00, [UInt8](repeating: 0, count: 16))
      try? transport.sendByte(0x80)
      transport.close()
    }
    transport = nil
    ram = nil
  }
}
