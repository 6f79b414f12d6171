// SPDX-License-Identifier: MIT
// A TM1637 modelled from its datasheet (v2.4): START/STOP, LSB-first bytes with an
// acknowledge clock, and the three command classes.

/// What a TM1637 would latch from a waveform on its CLK and DIO.
public struct TM1637Decoder {
  /// The display RAM, GRID1…GRID6 (addresses 0xC0…0xC5).
  public var ram = [UInt8](repeating: 0, count: 6)
  /// Display control: nil until one was received; then on/off and the pulse-width step 0–7.
  public var displayOn: Bool?
  public var brightness: Int?
  /// Each transaction's bytes, START to STOP, for tests that count what was sent.
  public var transactions: [[UInt8]] = []
  /// Protocol violations found (DIO changing while CLK is high inside a byte, a host driving
  /// DIO high during an acknowledge clock, bytes cut short).
  public var violations: [String] = []
  /// The shortest CLK high and low times seen, in the waveform's time unit.
  public var shortestClockHigh: Int64 = .max
  public var shortestClockLow: Int64 = .max
  /// The shortest time from a DIO change to the next CLK rising edge (data set-up).
  public var shortestSetup: Int64 = .max

  public init() {}

  /// Decodes `waveform`, where `clock` and `data` are the CLK and DIO line numbers.
  public mutating func decode(_ waveform: Waveform, clock: Int, data: Int) {
    var clk = waveform.initial[clock] ?? true
    var dio = waveform.initial[data] ?? true
    var inTransaction = false
    var bits: [Bool] = []
    var bytes: [UInt8] = []
    var holds = HoldTimes()
    var lastDataChange: Int64?
    for edge in waveform.edges {
      if edge.line == clock {
        holds.record(newValue: edge.value, at: edge.instant)
        clk = edge.value
        guard clk, inTransaction else { continue }
        if let last = lastDataChange { shortestSetup = min(shortestSetup, edge.instant - last) }
        // Rising edge: the chip samples DIO. Every ninth clock is the acknowledge slot, where
        // the chip drives DIO low; a host driving it high there would fight the chip.
        if bits.count == 8 {
          if dio {
            violations.append(
              "DIO high during the acknowledge clock after \(bytes.count + 1) byte(s)")
          }
          var byte: UInt8 = 0
          for (index, bit) in bits.enumerated() where bit { byte |= 1 << UInt8(index) }
          bytes.append(byte)
          bits = []
        } else {
          bits.append(dio)
        }
      } else if edge.line == data {
        lastDataChange = edge.instant
        let falling = dio && !edge.value
        dio = edge.value
        guard clk else { continue }
        if falling {
          if inTransaction { violations.append("START inside a transaction") }
          inTransaction = true
          bits = []
          bytes = []
        } else {
          // STOP. Its own CLK rising edge (CLK goes high before DIO does) is not a data bit.
          if bits.count > 1 { violations.append("STOP after \(bits.count - 1) bits of a byte") }
          if inTransaction { finish(bytes) }
          inTransaction = false
        }
      }
    }
    shortestClockHigh = holds.shortestHigh
    shortestClockLow = holds.shortestLow
  }

  private var autoIncrement = true

  /// Applies one complete transaction (datasheet "command description").
  private mutating func finish(_ bytes: [UInt8]) {
    transactions.append(bytes)
    guard let command = bytes.first else { return }
    switch command & 0xC0 {
    case 0x40:  // data command: bit 2 fixed address, bits 1-0 = 00 write
      autoIncrement = command & 0x04 == 0
      if command & 0x03 != 0 { violations.append("data command \(command) is not a write") }
    case 0xC0:  // address command, then data
      var address = Int(command & 0x0F)
      for byte in bytes.dropFirst() {
        guard address < 6 else {
          violations.append("write past GRID6")
          break
        }
        ram[address] = byte
        if autoIncrement { address += 1 }
      }
    case 0x80:  // display control
      displayOn = command & 0x08 != 0
      brightness = Int(command & 0x07)
    default:
      violations.append("unknown command \(command)")
    }
  }
}
