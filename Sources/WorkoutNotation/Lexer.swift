// SPDX-License-Identifier: MIT
// Written workout → tokens: words (lowercased), numbers, clock times (1:30) and symbols, each
// with the columns it came from.

struct Token: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    /// Letters, lowercased; a hyphen between letters belongs to the word (`warm-up`).
    case word(String)
    /// Digits; more than nine of them read as ``Lexer/tooLarge``, beyond every limit.
    case number(Int)
    /// `m:ss` or `h:mm:ss`, in seconds.
    case clock(Int)
    case symbol(Unicode.Scalar)
  }

  var kind: Kind
  var columns: Range<Int>

  var word: String? {
    if case .word(let word) = kind { return word }
    return nil
  }

  func isSymbol(_ symbol: Unicode.Scalar) -> Bool { kind == .symbol(symbol) }
}

enum Lexer {
  /// What a number of more than nine digits reads as: out of every range, and small enough
  /// that no sum or product of a few of them overflows.
  static let tooLarge = 1_000_000_000

  static func tokens(of scalars: [Unicode.Scalar]) throws(NotationDiagnostic) -> [Token] {
    var tokens: [Token] = []
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      let start = index
      if scalar.properties.isWhitespace {
        index += 1
      } else if isDigit(scalar) {
        let first = digits(scalars, &index)
        if index + 2 < scalars.count + 0, index < scalars.count, scalars[index] == ":",
          index + 1 < scalars.count, isDigit(scalars[index + 1])
        {
          var parts = [first]
          while index < scalars.count, scalars[index] == ":", index + 1 < scalars.count,
            isDigit(scalars[index + 1])
          {
            let partStart = index + 1
            index += 1
            let value = digits(scalars, &index)
            if index - partStart != 2 || value > 59 || parts.count == 3 {
              throw NotationDiagnostic(
                columns: start..<index,
                message:
                  "expected a time like '1:30' (m:ss) or '1:02:03' (h:mm:ss), found '\(String(String.UnicodeScalarView(scalars[start..<index])))'",
                hint: "write two digits of seconds (00–59) after ':'")
            }
            parts.append(value)
          }
          let seconds = parts.reduce(0) { min($0 * 60 + $1, tooLarge) }
          tokens.append(Token(kind: .clock(seconds), columns: start..<index))
        } else {
          tokens.append(Token(kind: .number(first), columns: start..<index))
        }
      } else if isWordCharacter(scalar) {
        var word = String.UnicodeScalarView()
        while index < scalars.count {
          let next = scalars[index]
          if isWordCharacter(next) {
            word.append(lowercased(next))
            index += 1
          } else if next == "-", !word.isEmpty, index + 1 < scalars.count,
            isWordCharacter(scalars[index + 1])
          {
            word.append("-")
            index += 1
          } else {
            break
          }
        }
        tokens.append(Token(kind: .word(String(word)), columns: start..<index))
      } else if scalar == "×" {
        index += 1
        tokens.append(Token(kind: .word("x"), columns: start..<index))
      } else {
        index += 1
        tokens.append(Token(kind: .symbol(scalar), columns: start..<index))
      }
    }
    return tokens
  }

  private static func digits(_ scalars: [Unicode.Scalar], _ index: inout Int) -> Int {
    var value = 0
    while index < scalars.count, isDigit(scalars[index]) {
      value = min(value * 10 + Int(scalars[index].value - 48), tooLarge)
      index += 1
    }
    return value
  }

  static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

  /// ASCII letters, and any letter beyond ASCII (a caption may be in any language).
  static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
    return scalar.properties.isAlphabetic
  }

  private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
  }
}
