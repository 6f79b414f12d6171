// SPDX-License-Identifier: MIT
// A small deflate compressor (RFC 1951) for the PNGs of the matrix and the web pages: LZ77
// matches found through a hash chain and through distances the caller knows to repeat (the
// previous pixel, the row above), coded with the fixed Huffman codes of §3.2.6. Pictures of LED
// dots are mostly runs and repeated rows, which this shrinks to a few percent; text to about a
// third, without dynamic code tables.

/// Raw deflate data (no zlib or gzip wrapper) in one final block of fixed Huffman codes.
public enum Deflate {
  static let minimumMatch = 3
  static let maximumMatch = 258
  static let window = 32_768
  /// How many earlier positions with the same three bytes are tried per position: enough for
  /// the repeats of a picture, bounded so a long run of one value costs no more than a few.
  static let chainDepth = 16

  /// The compressed form of `data`. `distanceHints` are distances at which the data is likely
  /// to repeat (for an RGB scanline image, 3 and the scanline length); they are tried first.
  public static func compress(_ data: [UInt8], distanceHints: [Int] = []) -> [UInt8] {
    var writer = BitWriter()
    writer.reserve(data.count / 8 + 64)
    writer.write(1, bitCount: 1)  // BFINAL
    writer.write(1, bitCount: 2)  // BTYPE 01: fixed Huffman codes
    let hints = distanceHints.filter { $0 > 0 && $0 <= window }
    let hashSize = 1 << 15
    var head = [Int32](repeating: -1, count: hashSize)
    // The chain links of the last `window` positions, by position modulo the window: a link is
    // only followed within the window, where no later position has overwritten it. Compressing
    // takes 256 KB at most, whatever the input's size.
    var previous = [Int32](repeating: -1, count: min(data.count, window))
    data.withUnsafeBufferPointer { bytes in
      let count = bytes.count
      func hash(_ position: Int) -> Int {
        (Int(bytes[position]) << 10 ^ Int(bytes[position + 1]) << 5 ^ Int(bytes[position + 2]))
          & (hashSize - 1)
      }
      func insert(_ position: Int) {
        guard position + minimumMatch <= count else { return }
        let key = hash(position)
        previous[position & (window - 1)] = head[key]
        head[key] = Int32(position)
      }
      func matchLength(_ earlier: Int, _ position: Int) -> Int {
        let limit = min(maximumMatch, count - position)
        var length = 0
        while length < limit && bytes[earlier + length] == bytes[position + length] { length += 1 }
        return length
      }
      var position = 0
      while position < count {
        var bestLength = 0
        var bestDistance = 0
        if position + minimumMatch <= count {
          func consider(_ earlier: Int) {
            let distance = position - earlier
            guard earlier >= 0, distance > 0, distance <= window else { return }
            let length = matchLength(earlier, position)
            if length > bestLength {
              bestLength = length
              bestDistance = distance
            }
          }
          for distance in hints where bestLength < maximumMatch { consider(position - distance) }
          var candidate = Int(head[hash(position)])
          var tries = 0
          while candidate >= 0, tries < chainDepth, bestLength < maximumMatch,
            position - candidate <= window
          {
            consider(candidate)
            candidate = Int(previous[candidate & (window - 1)])
            tries += 1
          }
        }
        if bestLength >= minimumMatch {
          writer.writeLength(bestLength)
          writer.writeDistance(bestDistance)
          for covered in position..<(position + bestLength) { insert(covered) }
          position += bestLength
        } else {
          writer.writeLiteral(bytes[position])
          insert(position)
          position += 1
        }
      }
    }
    writer.writeSymbol(256)  // end of block
    return writer.finish()
  }
}

/// Bits packed into bytes from the least significant bit up (RFC 1951 §3.1.1).
private struct BitWriter {
  var bytes: [UInt8] = []
  var buffer: UInt64 = 0
  var bufferedBits = 0

  mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

  mutating func write(_ value: Int, bitCount: Int) {
    buffer |= UInt64(value) << UInt64(bufferedBits)
    bufferedBits += bitCount
    while bufferedBits >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      bufferedBits -= 8
    }
  }

  mutating func writeSymbol(_ symbol: Int) {
    let (code, length) = FixedCodes.literal[symbol]
    write(Int(code), bitCount: Int(length))
  }

  mutating func writeLiteral(_ byte: UInt8) { writeSymbol(Int(byte)) }

  mutating func writeLength(_ length: Int) {
    let index = Int(FixedCodes.lengthIndex[length])
    writeSymbol(257 + index)
    let extra = FixedCodes.lengthExtraBits[index]
    if extra > 0 { write(length - FixedCodes.lengthBase[index], bitCount: extra) }
  }

  mutating func writeDistance(_ distance: Int) {
    var index = FixedCodes.distanceBase.count - 1
    while FixedCodes.distanceBase[index] > distance { index -= 1 }
    write(Int(FixedCodes.distance[index]), bitCount: 5)
    let extra = FixedCodes.distanceExtraBits[index]
    if extra > 0 { write(distance - FixedCodes.distanceBase[index], bitCount: extra) }
  }

  mutating func finish() -> [UInt8] {
    if bufferedBits > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    bufferedBits = 0
    return bytes
  }
}

/// The fixed codes and the length and distance tables of RFC 1951 §3.2.5–3.2.6.
private enum FixedCodes {
  /// Lengths 3…258: the first length of each code 257…285, and its extra bits.
  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
  ]
  static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  /// Distances 1…32768: the first distance of each code 0…29, and its extra bits.
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtraBits = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  /// The index into `lengthBase` of every match length 0…258 (0…2 unused).
  static let lengthIndex: [UInt8] = (0...258).map { length in
    var index = lengthBase.count - 1
    // 258 gets its own code, 285: code 284 covers 227…257 only.
    while index > 0 && lengthBase[index] > length { index -= 1 }
    return UInt8(index)
  }

  /// Every literal/length symbol's code, bit-reversed for LSB-first writing, and its length.
  static let literal: [(UInt16, UInt8)] = (0..<288).map { symbol in
    switch symbol {
    case 0...143: (reversed(0x30 + symbol, 8), 8)
    case 144...255: (reversed(0x190 + symbol - 144, 9), 9)
    case 256...279: (reversed(symbol - 256, 7), 7)
    default: (reversed(0xC0 + symbol - 280, 8), 8)
    }
  }

  /// The 5-bit distance codes, bit-reversed.
  static let distance: [UInt16] = (0..<30).map { reversed($0, 5) }

  /// Huffman codes are defined most significant bit first (§3.1.1), the stream is written
  /// least significant bit first: each code is stored reversed.
  static func reversed(_ code: Int, _ length: Int) -> UInt16 {
    var result = 0
    for bit in 0..<length where code & (1 << bit) != 0 { result |= 1 << (length - 1 - bit) }
    return UInt16(result)
  }
}
