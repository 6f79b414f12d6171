// SPDX-License-Identifier: MIT
// Base64 (RFC 4648 §4, the standard alphabet with `=` padding): how binary data such as a
// picture's pixels travels inside a JSON string.

/// Encodes bytes as base64 text and decodes it back.
public enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The value of each ASCII byte in the alphabet, or 0xFF for bytes outside it.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    return table
  }()

  /// The base64 text of `bytes`, padded to a multiple of four characters.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var output: [UInt8] = []
    output.reserveCapacity((input.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= input.count {
      let group =
        UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
        | UInt32(input[index + 2])
      for shift in [18, 12, 6, 0] { output.append(alphabet[Int((group >> UInt32(shift)) & 63)]) }
      index += 3
    }
    let rest = input.count - index
    if rest > 0 {
      var group = UInt32(input[index]) << 16
      if rest == 2 { group |= UInt32(input[index + 1]) << 8 }
      output.append(alphabet[Int(group >> 18)])
      output.append(alphabet[Int((group >> 12) & 63)])
      output.append(rest == 2 ? alphabet[Int((group >> 6) & 63)] : UInt8(ascii: "="))
      output.append(UInt8(ascii: "="))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes of padded base64 `text`, or nil when it is not base64: a character outside the
  /// alphabet (whitespace included), a length that is not a multiple of four, misplaced padding,
  /// or non-zero bits under the padding (RFC 4648 §3.5: such text has no canonical meaning).
  public static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 4 * 3)
    let equals = UInt8(ascii: "=")
    var index = 0
    while index < input.count {
      let isLast = index + 4 == input.count
      var padding = 0
      if isLast {
        if input[index + 3] == equals { padding += 1 }
        if input[index + 2] == equals { padding += 1 }
        if padding == 1 && input[index + 2] == equals { return nil }
      }
      var group: UInt32 = 0
      for offset in 0..<4 {
        let byte = input[index + offset]
        var value: UInt8 = 0
        if offset < 4 - padding {
          value = values[Int(byte)]
          guard value != 0xFF else { return nil }
        }
        group = group << 6 | UInt32(value)
      }
      output.append(UInt8(group >> 16))
      if padding < 2 { output.append(UInt8((group >> 8) & 0xFF)) }
      if padding < 1 { output.append(UInt8(group & 0xFF)) }
      // The bits the padding stands for must be zero.
      if padding == 1 && group & 0xFF != 0 { return nil }
      if padding == 2 && group & 0xFFFF != 0 { return nil }
      index += 4
    }
    return output
  }
}
