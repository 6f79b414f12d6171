// SPDX-License-Identifier: MIT
// The two checksums of the deflate wrappers: CRC-32 (PNG chunks, gzip members) and Adler-32
// (zlib streams).

/// Checksums over bytes.
public enum Checksum {
  /// CRC-32 as PNG (ISO/IEC 15948 Annex D) and gzip (RFC 1952 §8) define it: polynomial
  /// 0xEDB88320, reflected, inverted.
  public static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  /// Adler-32 (RFC 1950 §8.2).
  public static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }

  private static let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }
}
