// SPDX-License-Identifier: MIT
// Shift-register chains modelled from their datasheets: 74HC595 / TPIC6B595 (8-bit registers,
// shift on SRCK rising, copy to outputs on RCK rising, cascade out to the next SER) and the
// MAX7219 (16-bit packets shifted on CLK rising, latched on LOAD rising).

/// What a chain of 8-bit shift registers shows.
public struct ShiftChainDecoder {
  /// The shift registers, index 0 the one whose SER is driven by the host.
  public var shiftRegisters: [UInt8]
  /// The output registers (what the digits show), same order.
  public var outputs: [UInt8]
  /// How many RCK rising edges were seen.
  public var latches = 0
  /// The output-enable line's last level, if it was recorded (low = outputs on).
  public var outputEnableLevel: Bool?
  public var shortestClockHigh: Int64 = .max
  public var shortestClockLow: Int64 = .max
  public var shortestSetup: Int64 = .max

  public init(registers: Int) {
    shiftRegisters = [UInt8](repeating: 0, count: registers)
    outputs = [UInt8](repeating: 0, count: registers)
  }

  public mutating func decode(
    _ waveform: Waveform, data: Int, clock: Int, latch: Int, outputEnable: Int? = nil
  ) {
    var ser = waveform.initial[data] ?? false
    var holds = HoldTimes()
    var lastDataChange: Int64?
    if let outputEnable { outputEnableLevel = waveform.initial[outputEnable] }
    for edge in waveform.edges {
      switch edge.line {
      case data:
        ser = edge.value
        lastDataChange = edge.instant
      case clock:
        holds.record(newValue: edge.value, at: edge.instant)
        guard edge.value else { continue }
        if let last = lastDataChange { shortestSetup = min(shortestSetup, edge.instant - last) }
        // QH' of each register feeds the next register's SER.
        var carry: UInt8 = ser ? 1 : 0
        for index in shiftRegisters.indices {
          let out = shiftRegisters[index] >> 7
          shiftRegisters[index] = shiftRegisters[index] << 1 | carry
          carry = out
        }
      case latch:
        if edge.value {
          outputs = shiftRegisters
          latches += 1
        }
      case outputEnable:
        outputEnableLevel = edge.value
      default:
        break
      }
    }
    shortestClockHigh = holds.shortestHigh
    shortestClockLow = holds.shortestLow
  }
}

/// What a chain of MAX7219s holds in its registers.
public struct MAX7219Decoder {
  /// Per chip (0 = nearest the host), registers 0x00…0x0F as last latched; nil = never written.
  public var registers: [[UInt8?]]
  /// Per chip, the packets latched, in order: (register, data).
  public var packets: [[(register: UInt8, data: UInt8)]]
  public var latches = 0
  public var violations: [String] = []
  public var shortestClockHigh: Int64 = .max
  public var shortestClockLow: Int64 = .max

  public init(chips: Int) {
    registers = [[UInt8?]](repeating: [UInt8?](repeating: nil, count: 16), count: chips)
    packets = [[(register: UInt8, data: UInt8)]](repeating: [], count: chips)
  }

  /// The digit registers 1…8 of `chip` (nil where never written).
  public func digits(ofChip chip: Int) -> [UInt8?] { Array(registers[chip][1...8]) }

  public mutating func decode(_ waveform: Waveform, data: Int, clock: Int, load: Int) {
    var din = waveform.initial[data] ?? false
    var shift = [UInt16](repeating: 0, count: registers.count)
    var clocksSinceLoad = 0
    var holds = HoldTimes()
    for edge in waveform.edges {
      switch edge.line {
      case data:
        din = edge.value
      case clock:
        holds.record(newValue: edge.value, at: edge.instant)
        guard edge.value else { continue }
        // Rising CLK: every chip shifts; DOUT of chip k (the bit from 16 clocks before) is DIN of
        // chip k + 1 (datasheet "Serial-Addressing Modes").
        var carry: UInt16 = din ? 1 : 0
        for index in shift.indices {
          let out = shift[index] >> 15
          shift[index] = shift[index] << 1 | carry
          carry = out
        }
        clocksSinceLoad += 1
      case load:
        guard edge.value else {
          clocksSinceLoad = 0
          continue
        }
        if clocksSinceLoad != 16 * registers.count {
          violations.append(
            "LOAD rose after \(clocksSinceLoad) clocks, not \(16 * registers.count)")
        }
        latches += 1
        for chip in shift.indices {
          let register = UInt8((shift[chip] >> 8) & 0x0F)
          let value = UInt8(shift[chip] & 0xFF)
          packets[chip].append((register, value))
          if register != 0 { registers[chip][Int(register)] = value }
        }
        clocksSinceLoad = 0
      default:
        break
      }
    }
    shortestClockHigh = holds.shortestHigh
    shortestClockLow = holds.shortestLow
  }
}
