// SPDX-License-Identifier: MIT
// HT16K33 through a seam over the i2c-dev calls, and the SparkFun serial display against a
// pseudo-terminal whose far end decodes the byte stream by the firmware's command table.

import Glibc
import HardwareKit
import SegmentDrivers
import SevenSegment
import Testing

private func frame(_ text: String, colon: Bool = false, brightness: Int = 100) throws
  -> SegmentFrame
{
  SegmentFrame(
    digits: try SegmentFont.render(text), colonsLit: colon ? [1] : [],
    brightnessPercent: brightness)
}

/// Records the SMBus transfers and keeps the RAM they would leave in an HT16K33.
private final class FakeI2C: I2CTransport {
  var commands: [UInt8] = []
  var blocks: [(register: UInt8, data: [UInt8])] = []
  var ram = [UInt8](repeating: 0xAA, count: 16)  // power-up RAM is random
  var closed = false
  func sendByte(_ value: UInt8) throws(SystemError) { commands.append(value) }
  func writeBlock(register: UInt8, _ data: [UInt8]) throws(SystemError) {
    blocks.append((register, data))
    for (offset, byte) in data.enumerated() { ram[Int(register) + offset] = byte }
  }
  func close() { closed = true }
}

@Suite struct HT16K33DriverTests {
  @Test func theBackpackLayoutWithItsColon() throws {
    let bus = FakeI2C()
    let display = HT16K33Driver { bus }
    try display.start()
    try display.show(try frame("1234", colon: true))
    // 0x21 oscillator on, then dimming 15 (0xEF) and display on (0x81).
    #expect(bus.commands == [0x21, 0xEF, 0x81])
    // One 17-byte write: address 0, then digits at 0x00, 0x02, 0x06, 0x08, the colon (0x02) at
    // 0x04, odd bytes 0.
    #expect(bus.blocks.count == 1)
    #expect(bus.blocks[0].register == 0)
    #expect(bus.ram == [0x06, 0, 0x5B, 0, 0x02, 0, 0x4F, 0, 0x66, 0, 0, 0, 0, 0, 0, 0])
  }

  @Test func onlyChangedRAMIsWritten() throws {
    let bus = FakeI2C()
    let display = HT16K33Driver { bus }
    try display.start()
    try display.show(try frame("1234", colon: true))
    try display.show(try frame("1235", colon: true))
    #expect(bus.blocks.count == 2)
    #expect(bus.blocks[1].register == 0x08)
    #expect(bus.blocks[1].data == [0x6D])
    try display.show(try frame("1235", colon: false))
    #expect(bus.blocks.last!.register == 0x04)
    #expect(bus.blocks.last!.data == [0x00])
    let count = bus.blocks.count + bus.commands.count
    try display.show(try frame("1235", colon: false))
    #expect(bus.blocks.count + bus.commands.count == count)
    try display.show(try frame("1235", colon: false, brightness: 0))
    #expect(bus.commands.last == 0x80)
    display.shutDown()
    #expect(bus.ram.allSatisfy { $0 == 0 })
    #expect(bus.closed)
  }
}

/// The SparkFun Serial 7-Segment firmware's view of a byte stream (settings.h command bytes).
private struct SerialSevenSegment {
  var digits = [UInt8](repeating: 0, count: 4)
  var dots: UInt8 = 0
  var brightness: Int?
  var brightnessWrites = 0
  var clears = 0

  mutating func decode(_ bytes: [UInt8]) {
    var index = 0
    while index < bytes.count {
      let command = bytes[index]
      switch command {
      case 0x76:
        digits = [0, 0, 0, 0]
        dots = 0
        clears += 1
        index += 1
        continue
      case 0x77: dots = bytes[index + 1]
      case 0x7A:
        brightness = Int(bytes[index + 1])
        brightnessWrites += 1
      case 0x7B...0x7E: digits[Int(command - 0x7B)] = bytes[index + 1] & 0x7F
      default: Issue.record("unexpected byte \(command)")
      }
      index += 2
    }
  }
}

@Suite struct SparkFunSerialDriverTests {
  private func drain(_ terminal: PseudoTerminal) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try terminal.primary.setNonBlocking()
    while case .bytes = try terminal.primary.read(appendingTo: &bytes) {}
    return bytes
  }

  @Test func rawNineSixHundredBaudAndTheCommandStream() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    let display = SparkFunSerialDriver(path: terminal.secondaryPath, baud: 9600)
    try display.start()
    // termios settings belong to the tty, so the test's own descriptor sees what the driver set.
    #expect(try SerialPort.baudRate(of: terminal.secondary) == 9600)
    #expect(try SerialPort.isRaw(terminal.secondary))
    var model = SerialSevenSegment()
    try display.show(try frame("1234", colon: true))
    model.decode(try drain(terminal))
    #expect(model.clears == 1)
    #expect(model.digits == [0x06, 0x5B, 0x4F, 0x66])
    #expect(model.dots == 0x10)  // bit 4: the colon
    #expect(model.brightness == 100)

    try display.show(try frame("1235", colon: true))
    let next = try drain(terminal)
    #expect(next == [0x7E, 0x6D])  // one digit, nothing else
    try display.show(try frame("1235", colon: true))
    #expect(try drain(terminal) == [])

    // Brightness lives in EEPROM: sent once per change, never repeated.
    try display.show(try frame("1235", colon: true, brightness: 25))
    try display.show(try frame("1236", colon: true, brightness: 25))
    model.decode(try drain(terminal))
    #expect(model.brightness == 25)
    #expect(model.brightnessWrites == 2)
    #expect(model.digits[3] == 0x7D)
    display.shutDown()
    model.decode(try drain(terminal))
    #expect(model.clears == 2)
  }

  @Test func decimalPointsGoThroughTheDotCommand() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    let display = SparkFunSerialDriver(path: terminal.secondaryPath, baud: 57600)
    try display.start()
    #expect(try SerialPort.baudRate(of: terminal.secondary) == 57600)
    try display.show(try frame("1.2.34"))
    var model = SerialSevenSegment()
    model.decode(try drain(terminal))
    #expect(model.dots == 0b0011)
    #expect(model.digits == [0x06, 0x5B, 0x4F, 0x66])
  }
}
