// SPDX-License-Identifier: MIT
// A PNG reader written from the specifications, independent of MatrixKit's encoder, so tests can
// check that a picture decodes to the pixels it should: PNG (W3C PNG 2nd ed.) chunks with their
// CRCs, IHDR, the five scanline filters (§9); zlib (RFC 1950) with its Adler-32; inflate
// (RFC 1951) of stored and fixed-Huffman blocks. 8-bit truecolour without interlacing only: the
// kind of picture wodclock writes.

/// A decoded truecolour picture.
public struct DecodedPNG: Equatable, Sendable {
  public var width: Int
  public var height: Int
  /// Red, green, blue per pixel, row-major from the top-left.
  public var rgb: [UInt8]

  /// The red, green and blue of one pixel.
  public func pixel(x: Int, y: Int) -> [UInt8] {
    let offset = (y * width + x) * 3
    return Array(rgb[offset..<(offset + 3)])
  }
}

public struct PNGDecodingError: Error, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

public enum PNGDecoder {
  public static func decode(_ bytes: [UInt8]) throws -> DecodedPNG {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count >= 8, Array(bytes.prefix(8)) == signature else {
      throw PNGDecodingError("not a PNG: the signature is missing")
    }
    var offset = 8
    var width = 0
    var height = 0
    var compressed: [UInt8] = []
    var sawEnd = false
    while offset < bytes.count {
      guard offset + 12 <= bytes.count else { throw PNGDecodingError("a chunk is cut short") }
      let length = Int(bigEndian(bytes, offset))
      let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
      let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
      let data = Array(typeAndData.dropFirst(4))
      guard bigEndian(bytes, offset + 8 + length) == crc32(typeAndData) else {
        throw PNGDecodingError("chunk \(type) has a wrong CRC")
      }
      offset += 12 + length
      switch type {
      case "IHDR":
        guard data.count == 13 else { throw PNGDecodingError("IHDR is not 13 bytes") }
        width = Int(bigEndian(data, 0))
        height = Int(bigEndian(data, 4))
        guard data[8] == 8, data[9] == 2, data[10] == 0, data[11] == 0, data[12] == 0 else {
          throw PNGDecodingError("only 8-bit truecolour without interlace is read: \(data[8...])")
        }
      case "IDAT": compressed += data
      case "IEND": sawEnd = true
      default:
        // Ancillary chunks (lower-case first letter) may be skipped; critical ones may not.
        guard type.first?.isLowercase == true else {
          throw PNGDecodingError("unknown critical chunk \(type)")
        }
      }
    }
    guard sawEnd else { throw PNGDecodingError("no IEND chunk") }
    guard width > 0, height > 0 else { throw PNGDecodingError("no IHDR chunk") }
    let raw = try Zlib.decompress(compressed)
    let stride = width * 3
    guard raw.count == (stride + 1) * height else {
      throw PNGDecodingError("\(raw.count) bytes of scanlines for \(width)x\(height)")
    }
    var rgb = [UInt8](repeating: 0, count: stride * height)
    for y in 0..<height {
      let filter = raw[y * (stride + 1)]
      for x in 0..<stride {
        let value = raw[y * (stride + 1) + 1 + x]
        let left = x >= 3 ? Int(rgb[y * stride + x - 3]) : 0
        let up = y > 0 ? Int(rgb[(y - 1) * stride + x]) : 0
        let upLeft = x >= 3 && y > 0 ? Int(rgb[(y - 1) * stride + x - 3]) : 0
        let predictor: Int
        switch filter {
        case 0: predictor = 0
        case 1: predictor = left
        case 2: predictor = up
        case 3: predictor = (left + up) / 2
        case 4: predictor = paeth(left, up, upLeft)
        default: throw PNGDecodingError("row \(y) has filter type \(filter)")
        }
        rgb[y * stride + x] = UInt8(truncatingIfNeeded: Int(value) + predictor)
      }
    }
    return DecodedPNG(width: width, height: height, rgb: rgb)
  }

  /// The chunk CRC (PNG Annex D).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
    let p = a + b - c
    let pa = abs(p - a)
    let pb = abs(p - b)
    let pc = abs(p - c)
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
  }

  static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }
}

/// zlib streams (RFC 1950) around deflate data.
public enum Zlib {
  public static func decompress(_ stream: [UInt8]) throws -> [UInt8] {
    guard stream.count >= 6 else { throw PNGDecodingError("the zlib stream is too short") }
    let cmf = Int(stream[0])
    let flags = Int(stream[1])
    guard cmf & 0x0F == 8, (cmf * 256 + flags) % 31 == 0, flags & 0x20 == 0 else {
      throw PNGDecodingError("not a zlib deflate header: \(cmf) \(flags)")
    }
    var inflater = Inflater(Array(stream.dropFirst(2)))
    let data = try inflater.inflate()
    let trailer = inflater.bytesConsumed + 2
    guard trailer + 4 <= stream.count else { throw PNGDecodingError("no Adler-32 after the data") }
    guard PNGDecoder.bigEndian(stream, trailer) == adler32(data) else {
      throw PNGDecodingError("the Adler-32 does not match the data")
    }
    return data
  }

  /// Raw deflate data, without the zlib header and trailer.
  public static func inflate(_ data: [UInt8]) throws -> [UInt8] {
    var inflater = Inflater(data)
    let output = try inflater.inflate()
    guard inflater.bytesConsumed == data.count else {
      throw PNGDecodingError("\(data.count - inflater.bytesConsumed) bytes after the final block")
    }
    return output
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }
}

/// Inflate (RFC 1951) of stored blocks and blocks with the fixed Huffman codes.
struct Inflater {
  let input: [UInt8]
  var bytePosition = 0
  var bitPosition = 0
  var output: [UInt8] = []

  init(_ input: [UInt8]) { self.input = input }

  /// The input bytes read, counting a partly read last byte.
  var bytesConsumed: Int { bytePosition + (bitPosition > 0 ? 1 : 0) }

  mutating func bit() throws -> Int {
    guard bytePosition < input.count else { throw PNGDecodingError("deflate data cut short") }
    let value = Int(input[bytePosition] >> UInt8(bitPosition)) & 1
    bitPosition += 1
    if bitPosition == 8 {
      bitPosition = 0
      bytePosition += 1
    }
    return value
  }

  /// `count` bits as a number, least significant bit first (§3.1.1).
  mutating func bits(_ count: Int) throws -> Int {
    var value = 0
    for index in 0..<count { value |= try bit() << index }
    return value
  }

  /// A Huffman code of `count` bits, most significant bit first.
  mutating func code(_ count: Int) throws -> Int {
    var value = 0
    for _ in 0..<count { value = value << 1 | (try bit()) }
    return value
  }

  mutating func inflate() throws -> [UInt8] {
    var final = false
    while !final {
      final = try bits(1) == 1
      switch try bits(2) {
      case 0: try storedBlock()
      case 1: try fixedBlock()
      case 2: throw PNGDecodingError("dynamic Huffman blocks are not read here")
      default: throw PNGDecodingError("block type 3 is reserved")
      }
    }
    return output
  }

  mutating func storedBlock() throws {
    if bitPosition > 0 {
      bitPosition = 0
      bytePosition += 1
    }
    guard bytePosition + 4 <= input.count else { throw PNGDecodingError("stored header cut") }
    let length = Int(input[bytePosition]) | Int(input[bytePosition + 1]) << 8
    let complement = Int(input[bytePosition + 2]) | Int(input[bytePosition + 3]) << 8
    guard length ^ 0xFFFF == complement else { throw PNGDecodingError("LEN and NLEN disagree") }
    bytePosition += 4
    guard bytePosition + length <= input.count else { throw PNGDecodingError("stored data cut") }
    output += input[bytePosition..<(bytePosition + length)]
    bytePosition += length
  }

  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
  ]
  static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  /// A literal/length symbol of the fixed code (§3.2.6): 7 bits give 256–279, 8 bits 0–143
  /// or 280–287, 9 bits 144–255.
  mutating func fixedSymbol() throws -> Int {
    var value = try code(7)
    if value <= 0b0010111 { return value + 256 }
    value = value << 1 | (try bit())
    if value >= 0b0011_0000 && value <= 0b1011_1111 { return value - 0b0011_0000 }
    if value >= 0b1100_0000 && value <= 0b1100_0111 { return value - 0b1100_0000 + 280 }
    value = value << 1 | (try bit())
    return value - 0b1_1001_0000 + 144
  }

  mutating func fixedBlock() throws {
    while true {
      let symbol = try fixedSymbol()
      if symbol < 256 {
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let index = symbol - 257
      guard index < 29 else { throw PNGDecodingError("length symbol \(symbol) is invalid") }
      let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
      let distanceCode = try code(5)
      guard distanceCode < 30 else { throw PNGDecodingError("distance code \(distanceCode)") }
      let distance = Self.distanceBase[distanceCode] + (try bits(Self.distanceExtra[distanceCode]))
      guard distance <= output.count else {
        throw PNGDecodingError("distance \(distance) reaches before the start")
      }
      // Byte by byte: a match may overlap the bytes it produces (§3.2.3).
      for _ in 0..<length { output.append(output[output.count - distance]) }
    }
  }
}
