// SPDX-License-Identifier: MIT
// Base64 against RFC 4648's test vectors, round trips of every length and the text it refuses.

import JSONKit
import Testing
import WodclockTestSupport

@Suite("Base64")
struct Base64Tests {
  /// RFC 4648 §10.
  static let vectors: [(String, String)] = [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
    ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
  ]

  @Test func theRFCTestVectors() {
    for (plain, encoded) in Self.vectors {
      #expect(Base64.encode(Array(plain.utf8)) == encoded)
      #expect(Base64.decode(encoded) == Array(plain.utf8))
    }
  }

  @Test func everyByteValueAndLengthRoundTrips() {
    var generator = SeededGenerator(seed: 64)
    for length in 0..<200 {
      let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      let text = Base64.encode(bytes)
      #expect(text.utf8.count == (length + 2) / 3 * 4)
      #expect(Base64.decode(text) == bytes, "length \(length)")
    }
    let all = (0...255).map(UInt8.init)
    #expect(Base64.decode(Base64.encode(all)) == all)
    #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
  }

  @Test func textThatIsNotBase64IsRefused() {
    for text in [
      "Zg", "Zg=", "Zm9v\n", "Zm 9v", "Zm9v-_8=", "Z===", "=Zm9", "Zg==Zg==", "Zm=v", "Zh==",
      "Zm9=",
    ] {
      #expect(Base64.decode(text) == nil, "\(text)")
    }
  }
}
