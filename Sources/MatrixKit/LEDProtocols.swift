// SPDX-License-Identifier: MIT
// Wire framing of LED controllers: TPM2 and Adalight on a serial line, raw frames, and DDP
// over UDP. Byte-exact per the protocols' descriptions; multi-byte fields are big-endian and
// pixels go R, G, B (the controller re-orders for its strip).

/// How a frame of channel bytes is wrapped on a serial line.
public enum SerialFraming: String, Sendable, Hashable, CaseIterable {
  /// TPM2.serial: `C9 DA` size(16) payload `36`.
  case tpm2
  /// Adalight: `Ada` (LEDs − 1)(16) checksum payload.
  case adalight
  /// The channel bytes alone, for controllers that count bytes themselves.
  case raw

  /// The bytes on the wire for one frame of `channels` (3 per LED).
  public func frame(_ channels: [UInt8]) -> [UInt8] {
    switch self {
    case .tpm2:
      // TPM2 block: start 0xC9, type 0xDA (data), payload size high/low, payload, end 0x36.
      var bytes: [UInt8] = [0xC9, 0xDA, UInt8(channels.count >> 8), UInt8(channels.count & 0xFF)]
      bytes += channels
      bytes.append(0x36)
      return bytes
    case .adalight:
      // The count field is LEDs − 1; the checksum is hi XOR lo XOR 0x55.
      let count = max(0, channels.count / 3 - 1)
      let high = UInt8((count >> 8) & 0xFF)
      let low = UInt8(count & 0xFF)
      return [0x41, 0x64, 0x61, high, low, high ^ low ^ 0x55] + channels
    case .raw:
      return channels
    }
  }

  /// Bytes a frame of `ledCount` LEDs takes on the wire.
  public func frameLength(ledCount: Int) -> Int {
    switch self {
    case .tpm2: ledCount * 3 + 5
    case .adalight: ledCount * 3 + 6
    case .raw: ledCount * 3
    }
  }

  /// Whether WLED reads a TPM2 frame of `ledCount` LEDs right. WLED computes the pixel count
  /// as ⌊hi·256/3⌋ + ⌊lo/3⌋, exact only when the size's high byte is a multiple of 3: frames of
  /// 86–255 LEDs lose a pixel and leave bytes WLED takes for commands (a baud change among
  /// them). Every size fits the TPM2 limit of 65 535 payload bytes otherwise.
  public static func tpm2ReadRightByWLED(ledCount: Int) -> Bool {
    let size = ledCount * 3
    return size <= 65535 && (size >> 8) % 3 == 0
  }
}

/// DDP (Distributed Display Protocol) packets: 10-byte header, push on the last packet.
public enum DDP {
  /// The controllers' UDP port.
  public static let port = 4048
  /// WLED's own DDP sender puts at most 1440 bytes (480 RGB pixels) in a packet.
  public static let maximumPayload = 1440

  /// The packets of one frame. `sequence` is 1–15 (0 means unused); the header is version 1
  /// (0x40) with the push flag (0x01) on the last packet, data type 0x0B (RGB, 8 bits per
  /// element), destination 1 (the default output), the byte offset and the payload length.
  public static func packets(_ channels: [UInt8], sequence: UInt8) -> [[UInt8]] {
    var packets: [[UInt8]] = []
    var offset = 0
    repeat {
      let length = min(maximumPayload, channels.count - offset)
      let last = offset + length >= channels.count
      var packet: [UInt8] = [last ? 0x41 : 0x40, sequence & 0x0F, 0x0B, 0x01]
      packet += [
        UInt8((offset >> 24) & 0xFF), UInt8((offset >> 16) & 0xFF), UInt8((offset >> 8) & 0xFF),
        UInt8(offset & 0xFF),
      ]
      packet += [UInt8(length >> 8), UInt8(length & 0xFF)]
      packet += channels[offset..<(offset + length)]
      packets.append(packet)
      offset += length
    } while offset < channels.count
    return packets
  }
}
