// SPDX-License-Identifier: MIT

/// Limits and policies for `JSONValue.parse(_:options:)`.
///
/// RFC 8259 §9 lets a parser limit the size of texts and the depth of nesting; both limits exist
/// so that a hostile control-socket client can neither exhaust memory nor overflow the stack of
/// the recursive-descent parser.
public struct JSONParseOptions: Sendable, Hashable {
  /// What to do when an object repeats a key. RFC 8259 §4 says names SHOULD be unique and that
  /// receivers disagree on what duplicates mean, so rejecting them is the safe default.
  public enum DuplicateKeyPolicy: Sendable, Hashable {
    /// Fail with ``JSONParseError/Reason/duplicateKey(_:)``.
    case reject
    /// Keep the last value, at the position where the key first appeared.
    case lastWins
  }

  /// Deepest allowed nesting of arrays and objects; `[[1]]` has depth 2, a scalar has depth 0.
  /// Each level costs a few hundred bytes of stack, so keep this modest on small thread stacks.
  public var maxDepth: Int
  /// Largest accepted input, in UTF-8 bytes.
  public var maxInputBytes: Int
  /// Handling of repeated object keys.
  public var duplicateKeys: DuplicateKeyPolicy

  /// Options with the given limits; the defaults suit both the control protocol and state files.
  public init(
    maxDepth: Int = 64, maxInputBytes: Int = 4 * 1024 * 1024,
    duplicateKeys: DuplicateKeyPolicy = .reject
  ) {
    self.maxDepth = maxDepth
    self.maxInputBytes = maxInputBytes
    self.duplicateKeys = duplicateKeys
  }

  /// Depth 64, 4 MiB, duplicate keys rejected.
  public static let `default` = JSONParseOptions()
}

/// Why and where parsing failed.
///
/// `description` reads like `expected ',' or '}' after object member, found ']' at 1:17`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable, Hashable {
    /// The input held nothing but whitespace (RFC 8259 §2: a JSON text is one value).
    case emptyInput
    /// Input ended where `expected` was needed.
    case unexpectedEnd(expected: String)
    /// `found` appeared where `expected` was needed. `found` is the offending byte.
    case unexpectedByte(UInt8, expected: String)
    /// A number broke the RFC 8259 §6 grammar or is out of `Double` range; says how.
    case invalidNumber(String)
    /// A backslash escape broke RFC 8259 §7; says how.
    case invalidEscape(String)
    /// A `\uXXXX` escape named half of a surrogate pair without its other half (RFC 8259 §8.2).
    case loneSurrogate(UInt16)
    /// An unescaped control character (U+0000 to U+001F) inside a string (RFC 8259 §7).
    case controlCharacterInString(UInt8)
    /// Bytes that are not well-formed UTF-8 (RFC 8259 §8.1, RFC 3629).
    case invalidUTF8
    /// An object repeated this key under ``JSONParseOptions/DuplicateKeyPolicy/reject``.
    case duplicateKey(String)
    /// Arrays and objects nested deeper than the limit.
    case nestingTooDeep(limit: Int)
    /// The input is longer than the limit, in bytes.
    case inputTooLarge(limit: Int)
    /// Something other than whitespace followed the value.
    case trailingData
  }

  /// What went wrong.
  public let reason: Reason
  /// Zero-based byte offset into the UTF-8 input.
  public let offset: Int
  /// One-based line; lines end at `\n`.
  public let line: Int
  /// One-based column, counted in Unicode scalars from the start of the line.
  public let column: Int

  /// Creates an error; the parser computes line and column from the offset.
  public init(reason: Reason, offset: Int, line: Int, column: Int) {
    self.reason = reason
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// The reason alone, without position.
  public var message: String {
    switch reason {
    case .emptyInput: return "empty input, expected a JSON value"
    case .unexpectedEnd(let expected): return "unexpected end of input, expected \(expected)"
    case .unexpectedByte(let byte, let expected):
      return "expected \(expected), found \(Self.show(byte))"
    case .invalidNumber(let detail): return "invalid number: \(detail)"
    case .invalidEscape(let detail): return "invalid escape: \(detail)"
    case .loneSurrogate(let unit):
      return "lone surrogate \\u\(Self.hex(unit)) is not a Unicode scalar"
    case .controlCharacterInString(let byte):
      return "control character U+\(Self.hex(UInt16(byte))) must be escaped in a string"
    case .invalidUTF8: return "invalid UTF-8"
    case .duplicateKey(let key): return "duplicate object key \"\(key)\""
    case .nestingTooDeep(let limit): return "nesting deeper than the limit of \(limit)"
    case .inputTooLarge(let limit): return "input longer than the limit of \(limit) bytes"
    case .trailingData: return "unexpected data after the JSON value"
    }
  }

  public var description: String { "\(message) at \(line):\(column)" }

  private static func show(_ byte: UInt8) -> String {
    switch byte {
    case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
    case 0x20: return "' '"
    default: return "byte 0x\(hex(UInt16(byte)).suffix(2))"
    }
  }

  private static func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
