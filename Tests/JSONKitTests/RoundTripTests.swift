// SPDX-License-Identifier: MIT

import JSONKit
import Testing
import WodclockTestSupport

@Suite("Round trips")
struct RoundTripTests {
  /// value → text → value, for every layout, must give back the identical tree.
  @Test(arguments: [
    JSONSerializationOptions(), .sortedKeys, .prettyPrinted, [.prettyPrinted, .sortedKeys],
  ])
  func randomValues(options: JSONSerializationOptions) throws {
    var random = RandomJSON(seed: 0x5EED_C10C)
    for iteration in 0..<1_500 {
      let value = random.value()
      let text = value.serialized(options: options)
      let parsed = try JSONValue.parse(text)
      if options.contains(.sortedKeys) {
        #expect(parsed == value, "iteration \(iteration): \(text)")
        // Sorting is idempotent.
        #expect(parsed.serialized(options: options) == text)
      } else {
        #expect(identical(parsed, value), "iteration \(iteration): \(text)")
      }
      if !options.contains(.prettyPrinted) {
        #expect(!text.utf8.contains(UInt8(ascii: "\n")))
      }
    }
  }

  @Test func randomDoublesReadBackBitForBit() throws {
    var rng = SeededGenerator(seed: 42)
    for _ in 0..<20_000 {
      let number = Double(bitPattern: rng.next())
      guard number.isFinite else { continue }
      let parsed = try JSONValue.parse(JSONValue.double(number).serialized())
      #expect(parsed.doubleValue?.bitPattern == number.bitPattern, "\(number)")
    }
  }

  @Test func randomIntegersReadBackExactly() throws {
    var rng = SeededGenerator(seed: 7)
    for _ in 0..<20_000 {
      let number = Int64(bitPattern: rng.next()) >> Int64.random(in: 0...63, using: &rng)
      #expect(try JSONValue.parse(JSONValue.integer(number).serialized()) == .integer(number))
    }
  }
}
