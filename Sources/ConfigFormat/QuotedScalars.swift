// SPDX-License-Identifier: MIT

/// A quoted scalar and where it ended.
struct QuotedScalarScan {
  var scalar: Scalar
  var endLine: Int
  /// Just past the closing quote.
  var endOffset: Int
}

/// Single- and double-quoted scalars (YAML 1.2 §7.3.1, §7.3.2), with line folding (§6.5).
extension SubsetParser {
  /// Scans the quoted scalar whose opening quote is at `start`. When `allowsLineBreaks` is false
  /// (keys), it must close on its first line; otherwise its continuation lines must be indented
  /// at least `minimumIndent`, and a line that is not ends it as unterminated.
  mutating func scanQuotedScalar(
    line startLine: Int, offset start: Int, minimumIndent: Int, allowsLineBreaks: Bool
  ) throws(ParseAbort) -> QuotedScalarScan {
    let quote = bytes[start]
    let isDouble = quote == Byte.doubleQuote
    var text: [UInt8] = []
    var lineIndex = startLine
    var index = start + 1
    var lineEnd = lines[lineIndex].end
    var hadError = false
    while true {
      var escapedLineBreak = false
      while index < lineEnd {
        let byte = bytes[index]
        if byte == quote {
          if !isDouble, index + 1 < lineEnd, bytes[index + 1] == Byte.singleQuote {
            // '' is one quote (§7.3.2).
            text.append(quote)
            index += 2
            continue
          }
          if hadError { throw ParseAbort(resumeLine: lineIndex + 1) }
          let scalar = Scalar(
            text: String(decoding: text, as: UTF8.self),
            style: isDouble ? .doubleQuoted : .singleQuoted,
            range: range(fromLine: startLine, start, toLine: lineIndex, index + 1))
          return QuotedScalarScan(scalar: scalar, endLine: lineIndex, endOffset: index + 1)
        }
        if isDouble, byte == Byte.backslash {
          if index + 1 == lineEnd {
            // An escaped line break joins the lines without a space (§7.3.1).
            escapedLineBreak = true
            index += 1
            break
          }
          if !decodeEscape(line: lineIndex, at: &index, into: &text) { hadError = true }
          continue
        }
        if byte == Byte.space || byte == Byte.tab {
          var next = index + 1
          while next < lineEnd, bytes[next] == Byte.space || bytes[next] == Byte.tab { next += 1 }
          // White space before a line break is not content (§6.5).
          if next == lineEnd {
            index = next
            break
          }
          text.append(contentsOf: bytes[index..<next])
          index = next
          continue
        }
        text.append(byte)
        index += 1
      }
      guard allowsLineBreaks else {
        error(
          "unterminated quoted key", line: startLine, offset: start,
          hint: "close the quote on the same line; keys must fit on one line")
        throw ParseAbort(resumeLine: startLine + 1)
      }
      // Fold the line break: one break becomes a space, each empty line a '\n' (§6.5).
      var emptyLines = 0
      var nextIndex = lineIndex + 1
      while true {
        guard nextIndex < lines.count else {
          reportUnterminated(line: startLine, offset: start, isDouble: isDouble)
          throw ParseAbort(resumeLine: startLine + 1)
        }
        let next = lines[nextIndex]
        if next.kind == .documentStart || next.kind == .documentEnd
          || (next.kind != .blank && next.indent < minimumIndent)
        {
          reportUnterminated(line: startLine, offset: start, isDouble: isDouble)
          throw ParseAbort(resumeLine: nextIndex)
        }
        if next.kind != .blank { break }
        emptyLines += 1
        nextIndex += 1
      }
      if emptyLines > 0 {
        text.append(contentsOf: repeatElement(Byte.lineFeed, count: emptyLines))
      } else if !escapedLineBreak {
        text.append(Byte.space)
      }
      lineIndex = nextIndex
      index = lines[nextIndex].contentStart
      lineEnd = lines[nextIndex].end
    }
  }

  private mutating func reportUnterminated(line lineIndex: Int, offset: Int, isDouble: Bool) {
    error(
      "unterminated \(isDouble ? "double" : "single")-quoted string", line: lineIndex,
      offset: offset, hint: "add the closing \(isDouble ? "'\"'" : "\"'\"")")
  }

  /// Decodes the escape sequence at `index` (a backslash) into `text` (YAML 1.2 §5.7) and
  /// advances past it. Returns false after reporting an invalid escape.
  private mutating func decodeEscape(
    line lineIndex: Int, at index: inout Int, into text: inout [UInt8]
  ) -> Bool {
    let start = index
    let code = bytes[index + 1]
    index += 2
    let value: UInt32
    switch code {
    case UInt8(ascii: "0"): value = 0x00
    case UInt8(ascii: "a"): value = 0x07
    case UInt8(ascii: "b"): value = 0x08
    case UInt8(ascii: "t"), Byte.tab: value = 0x09
    case UInt8(ascii: "n"): value = 0x0A
    case UInt8(ascii: "v"): value = 0x0B
    case UInt8(ascii: "f"): value = 0x0C
    case UInt8(ascii: "r"): value = 0x0D
    case UInt8(ascii: "e"): value = 0x1B
    case Byte.space: value = 0x20
    case Byte.doubleQuote: value = 0x22
    case Byte.slash: value = 0x2F
    case Byte.backslash: value = 0x5C
    case UInt8(ascii: "N"): value = 0x85
    case UInt8(ascii: "_"): value = 0xA0
    case UInt8(ascii: "L"): value = 0x2028
    case UInt8(ascii: "P"): value = 0x2029
    case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
      let digits = code == UInt8(ascii: "x") ? 2 : code == UInt8(ascii: "u") ? 4 : 8
      guard let decoded = decodeHexEscape(line: lineIndex, start: start, at: &index, digits: digits)
      else { return false }
      value = decoded
    default:
      let shown = excerpt(
        line: lineIndex, from: start + 1, maximumLength: 1, marksTruncation: false)
      error(
        "unknown escape sequence '\\\(shown)' in a double-quoted string", line: lineIndex,
        offset: start, length: 2,
        hint: "write '\\\\' for a backslash, or use single quotes, which have no escapes")
      return false
    }
    // Every value above is a Unicode scalar; the hexadecimal ones were checked.
    for unit in UTF8.encode(Unicode.Scalar(value)!)! {
      text.append(unit)
    }
    return true
  }

  private mutating func decodeHexEscape(
    line lineIndex: Int, start: Int, at index: inout Int, digits: Int
  ) -> UInt32? {
    let lineEnd = lines[lineIndex].end
    let letter = String(UnicodeScalar(bytes[start + 1]))
    var value: UInt32 = 0
    for _ in 0..<digits {
      guard index < lineEnd, let digit = hexDigitValue(bytes[index]) else {
        error(
          "escape '\\\(letter)' needs \(digits) hexadecimal digits", line: lineIndex,
          offset: start, length: index - start + 1)
        return nil
      }
      value = value << 4 | digit
      index += 1
    }
    guard Unicode.Scalar(value) != nil else {
      error(
        "escape '\\\(letter)\(hex(value, digits: digits))' is not a Unicode character",
        line: lineIndex, offset: start, length: index - start,
        hint: "surrogates and values above 10FFFF cannot appear in text")
      return nil
    }
    return value
  }

  private func hexDigitValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }
}
