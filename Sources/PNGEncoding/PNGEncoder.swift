// SPDX-License-Identifier: MIT
// A minimal PNG writer for golden images and snapshots: 8-bit truecolour, no filtering, zlib
// stream of deflate data, either stored blocks (byte-stable, for the golden images) or
// compressed with fixed Huffman codes (for snapshots, whose scaled pictures would be megabytes
// stored). PNG spec (ISO/IEC 15948, W3C PNG 2nd ed.) §5.2 signature, §5.3 chunk layout,
// §11.2.2 IHDR, §10 zlib/deflate (RFC 1950, RFC 1951 §3.2.4 stored blocks).

import DeflateCoding
public import MatrixKit

public enum PNGEncoder {
  /// How the image data is deflated.
  public enum Compression: Sendable {
    /// Stored blocks: the bytes of a picture never change with the compressor.
    case stored
    /// LZ77 with fixed Huffman codes (``Deflate``).
    case deflate
  }

  /// The PNG of a framebuffer.
  public static func encode(_ buffer: Framebuffer, compression: Compression = .deflate)
    -> [UInt8]
  {
    encode(
      width: buffer.width, height: buffer.height, rgb: buffer.rgbBytes, compression: compression)
  }

  /// The PNG of `rgb` (3 bytes per pixel, row-major).
  public static func encode(
    width: Int, height: Int, rgb: [UInt8], compression: Compression = .deflate
  ) -> [UInt8] {
    precondition(rgb.count == width * height * 3, "rgb must hold width × height pixels")
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header: [UInt8] = []
    header += bigEndian(UInt32(width))
    header += bigEndian(UInt32(height))
    // Bit depth 8, colour type 2 (truecolour), deflate, adaptive filtering, no interlace.
    header += [8, 2, 0, 0, 0]
    chunk("IHDR", header, into: &png)
    // Every scanline starts with its filter type: 0, none (§9.2).
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 3 + 1) * height)
    for row in 0..<height {
      raw.append(0)
      raw += rgb[(row * width * 3)..<((row + 1) * width * 3)]
    }
    switch compression {
    case .stored:
      chunk("IDAT", zlibStored(raw), into: &png)
    case .deflate:
      // A pixel often repeats its left neighbour (3 bytes back) or the one above it (a
      // scanline, with its filter byte, back).
      chunk("IDAT", zlibDeflated(raw, distanceHints: [3, width * 3 + 1]), into: &png)
    }
    chunk("IEND", [], into: &png)
    return png
  }

  /// A zlib stream (RFC 1950) of stored deflate blocks of at most 65535 bytes (RFC 1951 §3.2.4).
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    // CMF 0x78: deflate, 32K window; FLG 0x01 makes CMF*256+FLG a multiple of 31.
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let length = min(65535, data.count - offset)
      let final: UInt8 = offset + length == data.count ? 1 : 0
      out.append(final)  // BFINAL, BTYPE 00
      out += [UInt8(length & 0xFF), UInt8(length >> 8)]
      out += [UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
      out += data[offset..<(offset + length)]
      offset += length
    } while offset < data.count
    out += bigEndian(Checksum.adler32(data))
    return out
  }

  /// A zlib stream (RFC 1950) of one compressed deflate block.
  static func zlibDeflated(_ data: [UInt8], distanceHints: [Int]) -> [UInt8] {
    // The same header as the stored stream: FLEVEL only informs, decoders ignore it.
    var out: [UInt8] = [0x78, 0x01]
    out += Deflate.compress(data, distanceHints: distanceHints)
    out += bigEndian(Checksum.adler32(data))
    return out
  }

  private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
    let typeBytes = Array(type.utf8)
    png += bigEndian(UInt32(data.count))
    png += typeBytes
    png += data
    png += bigEndian(Checksum.crc32(typeBytes + data))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ]
  }
}
