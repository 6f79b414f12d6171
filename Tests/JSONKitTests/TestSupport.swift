// SPDX-License-Identifier: MIT

import JSONKit
import WodclockTestSupport

/// Random JSON trees covering the awkward corners: extreme integers, doubles from raw bit
/// patterns, every escape class, astral scalars, empty and nested containers.
struct RandomJSON {
  var rng: SeededGenerator

  init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

  mutating func value(depth: Int = 0) -> JSONValue {
    let leafOnly = depth >= 5
    switch Int.random(in: 0..<(leafOnly ? 5 : 7), using: &rng) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return .integer(integer())
    case 3: return .double(double())
    case 4: return .string(string())
    case 5:
      let count = Int.random(in: 0...5, using: &rng)
      return .array((0..<count).map { _ in value(depth: depth + 1) })
    default:
      var object = JSONObject()
      for _ in 0..<Int.random(in: 0...5, using: &rng) {
        object[string()] = value(depth: depth + 1)
      }
      return .object(object)
    }
  }

  mutating func integer() -> Int64 {
    switch Int.random(in: 0..<4, using: &rng) {
    case 0:
      return [Int64.min, Int64.max, 0, -1, 1, Int64.min + 1, 1 << 53, -(1 << 53) - 1][
        Int.random(in: 0..<8, using: &rng)]
    case 1: return Int64.random(in: -1000...1000, using: &rng)
    default: return Int64(bitPattern: rng.next())
    }
  }

  mutating func double() -> Double {
    switch Int.random(in: 0..<5, using: &rng) {
    case 0:
      let specials: [Double] = [
        0.0, -0.0, 0.1, 1e-300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .leastNormalMagnitude, 1e16, 1e15, 123_456.789, 1.0, -1.0,
        0x1p53 + 2, 2.5e-5, 1e22, 1e23,
      ]
      return specials[Int.random(in: 0..<specials.count, using: &rng)]
    case 1: return Double.random(in: -1000...1000, using: &rng)
    case 2: return Double(Int.random(in: -100_000...100_000, using: &rng)) / 100
    default:
      while true {
        let candidate = Double(bitPattern: rng.next())
        if candidate.isFinite { return candidate }
      }
    }
  }

  mutating func string() -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
      let raw: UInt32
      switch Int.random(in: 0..<6, using: &rng) {
      case 0: raw = UInt32.random(in: 0...0x1F, using: &rng)  // control characters
      case 1: raw = [0x22, 0x5C, 0x2F, 0x7F, 0x2028, 0xFEFF][Int.random(in: 0..<6, using: &rng)]
      case 2: raw = UInt32.random(in: 0x80...0xD7FF, using: &rng)
      case 3: raw = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)  // astral: surrogate pairs
      default: raw = UInt32.random(in: 0x20...0x7E, using: &rng)
      }
      scalars.append(Unicode.Scalar(raw)!)
    }
    return String(scalars)
  }
}

/// Stricter than `==`: objects must agree on key order and doubles on their bits (so -0.0 and
/// 0.0 differ), which is what "reads back exactly" means.
func identical(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
  switch (lhs, rhs) {
  case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
  case (.array(let a), .array(let b)):
    return a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
  case (.object(let a), .object(let b)):
    return a.count == b.count
      && zip(a, b).allSatisfy {
        $0.key.utf8.elementsEqual($1.key.utf8) && identical($0.value, $1.value)
      }
  default: return lhs == rhs
  }
}
