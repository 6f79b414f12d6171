// SPDX-License-Identifier: MIT
// SparkFun Serial 7-Segment Display (COM-11441 and kin, firmware v3) on a UART.
//
// Commands (Serial7SegmentDisplay firmware settings.h): 0x76 clear, 0x77 decimal/colon bits
// (bit 0–3 DP1–DP4, bit 4 colon), 0x7A brightness 0–100, 0x7B–0x7E raw segments of digit 1–4
// (A = bit 0 … G = bit 6; bit 7 ignored, the DP goes through 0x77). Brightness is stored in the
// ATmega's EEPROM (about 100,000 writes), so it is sent once at start and then only when the
// value changes: twice a day with a night schedule.
//
// At 9600 baud a byte takes 1.04 ms on the wire; a full refresh is 10 bytes (4 × 2 digit
// commands + 2 for the dots) ≈ 10 ms, but the write only queues them in the tty buffer and
// returns at once.

import HardwareKit
public import SevenSegment

/// A SparkFun Serial 7-Segment Display.
public final class SparkFunSerialDriver: SegmentDriver {
  public let digitCount = 4
  private let path: String
  private let baud: Int
  private var port: FileDescriptor?
  private var digits: [UInt8]?
  private var dots: UInt8?
  private var brightness: Int?

  public init(path: String, baud: Int = 9600) {
    self.path = path
    self.baud = baud
  }

  public func start() throws {
    if port == nil { port = try SerialPort.open(path, baud: baud) }
    digits = nil
    dots = nil
    // 0x76 blanks all digits, clears the dots and puts the cursor on digit 1.
    try write([0x76])
  }

  public func show(_ frame: SegmentFrame) throws {
    guard port != nil else { return }
    var bytes: [UInt8] = []
    let percent = max(0, min(100, frame.brightnessPercent))
    if percent != brightness {
      bytes += [0x7A, UInt8(percent)]
    }
    let next = (0..<4).map { index in
      index < frame.digits.count
        ? SegmentBitMap.standard.byte(for: frame.digits[index].withoutDecimalPoint) : 0
    }
    for index in SegmentDiff.changedPositions(from: digits, to: next) {
      bytes += [0x7B + UInt8(index), next[index]]
    }
    var nextDots: UInt8 = frame.colonLit ? 0x10 : 0
    for index in 0..<min(4, frame.digits.count) where frame.digits[index].contains(.dp) {
      nextDots |= 1 << UInt8(index)
    }
    if nextDots != dots { bytes += [0x77, nextDots] }
    guard !bytes.isEmpty else { return }
    try write(bytes)
    brightness = percent
    digits = next
    dots = nextDots
  }

  public func shutDown() {
    if port != nil { try? write([0x76]) }
    try? port?.close()
    port = nil
    digits = nil
  }

  private func write(_ bytes: [UInt8]) throws {
    guard let port else { return }
    switch try port.write(bytes) {
    case .written(let count) where count == bytes.count:
      return
    default:
      // The tty buffer (4 KB) is full: the display is gone or far behind. Forget what it shows
      // so the next frame rewrites everything.
      digits = nil
      dots = nil
      throw SystemError(
        operation: "write", path: path, errno: .wouldBlock,
        hint: "the serial port does not take more bytes; is the display connected?")
    }
  }
}
