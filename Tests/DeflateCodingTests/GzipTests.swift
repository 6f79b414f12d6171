// SPDX-License-Identifier: MIT
// The gzip members the web server sends: a header a browser accepts, deflate data that a
// decoder written from RFC 1951 inflates to exactly the input, and the CRC-32 and length that
// RFC 1952 §2.3.1 puts after it. The web tests decode the real server's replies with Python's
// gzip module as well.

import DeflateCoding
import PNGDecoding
import Testing
import WebAssets

@Suite struct GzipTests {
  static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// The member of `data`, taken apart and checked field by field.
  static func decoded(_ member: [UInt8]) throws -> [UInt8] {
    #expect(Array(member.prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
    let data = try Zlib.inflate(Array(member.dropFirst(10).dropLast(8)))
    #expect(Self.littleEndian(member.suffix(8).prefix(4)) == Checksum.crc32(data))
    #expect(Self.littleEndian(member.suffix(4)) == UInt32(data.count))
    return data
  }

  @Test func membersInflateToTheirInput() throws {
    let text = Array("The quick brown fox jumps over the lazy dog. ".utf8)
    let samples: [[UInt8]] = [[], [42], text, Array(repeating: text, count: 400).flatMap { $0 }]
    for data in samples {
      #expect(try Self.decoded(Gzip.compress(data)) == data)
    }
  }

  @Test func theCRCIsGzipsOwn() {
    // RFC 1952's CRC-32 of "123456789", the check value every CRC-32 implementation quotes.
    #expect(Checksum.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  /// Every page of the web interface, as the server sends it compressed: the same bytes back,
  /// smaller, and at most 40 % of them in all (fixed Huffman codes on text: about a third).
  @Test func everyWebFileCompressesAndComesBack() throws {
    var files = 0
    var compressed = 0
    for index in 0..<web_asset_count() {
      let asset = web_asset(index)
      let path = String(cString: asset.path)
      let bytes = Array(UnsafeRawBufferPointer(start: asset.bytes, count: Int(asset.length)))
      let member = Gzip.compress(bytes)
      #expect(try Self.decoded(member) == bytes, "\(path)")
      #expect(member.count < bytes.count, "\(path): \(member.count) of \(bytes.count)")
      files += bytes.count
      compressed += member.count
    }
    #expect(compressed * 10 <= files * 4, "\(compressed) of \(files) bytes")
  }
}
