// SPDX-License-Identifier: MIT
// The segments of one 7-segment digit and the characters a gym clock shows with them.
//
// Naming follows every datasheet used here: A top, B upper right, C lower right, D bottom,
// E lower left, F upper left, G middle, DP the decimal point. The raw value puts A at bit 0 and
// DP at bit 7, which is the TM1637's SEG1…SEG8 order (TM1637 datasheet v2.4, display register
// table) and the HT16K33 backpack's; other chips remap it (see `SegmentBitMap`).

/// The lit segments of one digit.
public struct Segments: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let a = Segments(rawValue: 1 << 0)
  public static let b = Segments(rawValue: 1 << 1)
  public static let c = Segments(rawValue: 1 << 2)
  public static let d = Segments(rawValue: 1 << 3)
  public static let e = Segments(rawValue: 1 << 4)
  public static let f = Segments(rawValue: 1 << 5)
  public static let g = Segments(rawValue: 1 << 6)
  public static let dp = Segments(rawValue: 1 << 7)

  /// No segment lit.
  public static let blank: Segments = []

  /// The seven segments of the digit without the decimal point.
  public var withoutDecimalPoint: Segments { subtracting(.dp) }

  /// The segment letters that are lit, `abcdefg.` order: `"abcdeg"` for a 2, `""` for blank.
  public var description: String {
    let names: [(Segments, Character)] = [
      (.a, "a"), (.b, "b"), (.c, "c"), (.d, "d"), (.e, "e"), (.f, "f"), (.g, "g"), (.dp, "."),
    ]
    return String(names.filter { contains($0.0) }.map(\.1))
  }
}

/// A character that has no 7-segment shape.
public struct UnshowableCharacterError: Error, Equatable, CustomStringConvertible {
  /// The character asked for.
  public var character: Character
  /// Where it stood in the text, 0-based.
  public var position: Int
  public init(character: Character, position: Int) {
    self.character = character
    self.position = position
  }
  public var description: String {
    "'\(character)' (position \(position + 1)) cannot be shown on a 7-segment digit; "
      + "digits, the minus sign, blank and the letters \(SegmentFont.letters) can"
  }
}

/// The shapes of the characters a clock needs.
///
/// Letters exist in the case a 7-segment digit can draw: `b`, `d`, `n`, `o`, `r`, `t`, `u` are
/// lower case, `A`, `C`, `E`, `F`, `G`, `H`, `J`, `L`, `P`, `S`, `U`, `Y` upper case. Asking for
/// the other case of a letter that only has one gives the one shape (`B` is `b`); `c`/`C`,
/// `h`/`H`, `o`/`O` and `u`/`U` have a shape each. `K`, `M`, `V`, `W`, `X`, `Z` have none.
public enum SegmentFont {
  private static let table: [Character: UInt8] = [
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
    "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
    "A": 0x77, "b": 0x7C, "C": 0x39, "c": 0x58, "d": 0x5E, "E": 0x79, "F": 0x71,
    "G": 0x3D, "H": 0x76, "h": 0x74, "I": 0x30, "i": 0x10, "J": 0x1E, "L": 0x38,
    "n": 0x54, "O": 0x3F, "o": 0x5C, "P": 0x73, "q": 0x67, "r": 0x50, "S": 0x6D,
    "t": 0x78, "U": 0x3E, "u": 0x1C, "Y": 0x6E,
    "-": 0x40, "_": 0x08, " ": 0x00, "=": 0x48, "'": 0x02, "°": 0x63,
  ]

  /// The letters that have a shape, for error messages.
  public static let letters = "A b C c d E F G H h I i J L n O o P q r S t U u Y"

  /// The shape of `character`, or nil when it has none.
  public static func segments(for character: Character) -> Segments? {
    if let bits = table[character] { return Segments(rawValue: bits) }
    // A letter with a single shape answers to either case.
    for other in [Character(character.uppercased()), Character(character.lowercased())] {
      if let bits = table[other] { return Segments(rawValue: bits) }
    }
    return nil
  }

  /// One digit per character; `.` and `:` light the decimal point of the digit before them
  /// instead of taking a digit of their own (a leading one takes a blank digit).
  public static func render(_ text: String) throws(UnshowableCharacterError) -> [Segments] {
    var digits: [Segments] = []
    for (position, character) in text.enumerated() {
      if character == "." || character == ":" {
        if digits.isEmpty { digits.append(.blank) }
        digits[digits.count - 1].insert(.dp)
        continue
      }
      guard let shape = segments(for: character) else {
        throw UnshowableCharacterError(character: character, position: position)
      }
      digits.append(shape)
    }
    return digits
  }
}

/// Where each segment sits in the byte a chip or a board expects.
///
/// `bits[n]` is the segment at bit n. The canonical order (`Segments.rawValue`) is
/// `.standard`; the MAX7219 and the SparkFun Large Digit Driver wire it differently.
public struct SegmentBitMap: Hashable, Sendable {
  /// The segment at each bit, bit 0 first; exactly eight distinct single segments.
  public let bits: [Segments]

  /// Creates a map; nil unless `bits` names each of the eight segments once.
  public init?(bits: [Segments]) {
    guard bits.count == 8, Set(bits.map(\.rawValue)).count == 8,
      bits.allSatisfy({ $0.rawValue.nonzeroBitCount == 1 })
    else { return nil }
    self.bits = bits
  }

  /// A = bit 0 … G = bit 6, DP = bit 7: TM1637, HT16K33, SparkFun Serial 7-Segment.
  public static let standard = SegmentBitMap(bits: [.a, .b, .c, .d, .e, .f, .g, .dp])!

  /// MAX7219 no-decode mode: D7…D0 = DP A B C D E F G (MAX7219 datasheet, "No-Decode Mode
  /// Data Bits and Corresponding Segment Lines"), so G is bit 0 and A bit 6.
  public static let max7219 = SegmentBitMap(bits: [.g, .f, .e, .d, .c, .b, .a, .dp])!

  /// The SparkFun Large Digit Driver's PCB (TPIC6C596): A = bit 0, F = 1, G = 2, E = 3, D = 4,
  /// C = 5, B = 6, DP = 7 (Large_Digit_Driver example firmware).
  public static let sparkFunLargeDigit = SegmentBitMap(bits: [.a, .f, .g, .e, .d, .c, .b, .dp])!

  /// Reads a map as written in a config file: `standard`, `max7219`, `sparkfun`, or eight
  /// segment names for bit 0 to bit 7 separated by commas or spaces (`a,f,g,e,d,c,b,dp`).
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "standard": self = .standard
    case "max7219": self = .max7219
    case "sparkfun", "sparkfun-large-digit": self = .sparkFunLargeDigit
    default:
      let names: [String: Segments] = [
        "a": .a, "b": .b, "c": .c, "d": .d, "e": .e, "f": .f, "g": .g, "dp": .dp,
      ]
      let words = text.lowercased().split { $0 == "," || $0 == " " }
      var bits: [Segments] = []
      for word in words {
        guard let segment = names[String(word)] else { return nil }
        bits.append(segment)
      }
      self.init(bits: bits)
    }
  }

  /// The byte with the bits of the lit segments set.
  public func byte(for segments: Segments) -> UInt8 {
    var byte: UInt8 = 0
    for (bit, segment) in bits.enumerated() where segments.contains(segment) {
      byte |= 1 << UInt8(bit)
    }
    return byte
  }

  /// The segments a byte lights.
  public func segments(for byte: UInt8) -> Segments {
    var segments: Segments = []
    for (bit, segment) in bits.enumerated() where byte & (1 << UInt8(bit)) != 0 {
      segments.insert(segment)
    }
    return segments
  }
}
