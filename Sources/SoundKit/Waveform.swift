// SPDX-License-Identifier: MIT
// The little arithmetic the generated sounds need, without the C library: a sine, an
// exponential and raised-cosine edges.

enum Waveform {
  static let pi = 3.141_592_653_589_793

  /// sin(x), within about 1e-7, from a Taylor series after reducing x to [-π/2, π/2].
  static func sine(_ x: Double) -> Double {
    guard x.isFinite else { return 0 }
    let twoPi = 2 * pi
    var reduced = x - twoPi * (x / twoPi).rounded()
    // sin(π - r) = sin(r) folds [π/2, π] onto [0, π/2] (and likewise below -π/2).
    if reduced > pi / 2 {
      reduced = pi - reduced
    } else if reduced < -pi / 2 {
      reduced = -pi - reduced
    }
    let r2 = reduced * reduced
    var term = reduced
    var sum = reduced
    for n in stride(from: 2, through: 18, by: 2) {
      term *= -r2 / Double(n * (n + 1))
      sum += term
    }
    return sum
  }

  /// e^x for x ≤ 0 (decays), by halving until small, a Taylor series, and squaring back.
  static func exponential(_ x: Double) -> Double {
    guard x.isFinite, x > -700 else { return 0 }
    var reduced = x
    var squarings = 0
    while reduced < -0.5 {
      reduced /= 2
      squarings += 1
    }
    var term = 1.0
    var sum = 1.0
    for n in 1...12 {
      term *= reduced / Double(n)
      sum += term
    }
    for _ in 0..<squarings { sum *= sum }
    return sum
  }

  /// A raised-cosine gain, 0 at the edges of `0 ..< count` and 1 after `edge` frames in, so a
  /// tone starts and stops without a click.
  static func edgeGain(at index: Int, count: Int, edge: Int) -> Double {
    guard edge > 0 else { return 1 }
    let fromEdge = min(index, count - 1 - index)
    guard fromEdge < edge else { return 1 }
    let s = sine(pi / 2 * Double(fromEdge) / Double(edge))
    return s * s
  }

  /// Full scale times `level` (0 ... 1), rounded and kept inside Int16.
  static func sample(_ value: Double, level: Double) -> Int16 {
    let scaled = (value * level * 32_767).rounded()
    guard scaled.isFinite else { return 0 }
    return Int16(max(-32_767, min(32_767, scaled)))
  }
}
