// SPDX-License-Identifier: MIT
// The gzip wrapper (RFC 1952) around one deflate block: what a browser takes as
// `Content-Encoding: gzip` (RFC 9110 §8.4.1.3).

/// A gzip member of compressed data.
public enum Gzip {
  /// `data` compressed, in one gzip member with no name and no time stamp, so the same bytes
  /// always give the same member.
  public static func compress(_ data: [UInt8]) -> [UInt8] {
    // §2.3.1: ID1 ID2, CM 8 (deflate), FLG 0, MTIME 0 (none), XFL 0, OS 3 (Unix).
    var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    member += Deflate.compress(data)
    member += littleEndian(Checksum.crc32(data))
    // ISIZE: the input's length modulo 2^32.
    member += littleEndian(UInt32(truncatingIfNeeded: data.count))
    return member
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF),
      UInt8(value >> 24),
    ]
  }
}
