// SPDX-License-Identifier: MIT
// From the picture to the bytes the LEDs get: brightness (the tokens' day/night level), gamma
// correction and a cap on the current a 5 V supply must deliver.

import DisplayKit

/// Brightness, gamma and the power budget, applied to a framebuffer in wiring order.
public struct OutputPipeline: Sendable {
  /// The exponent of the perceptual correction: LEDs are linear in PWM duty, eyes are not
  /// (2.2–2.8 are usual for WS2812; 1 disables the correction).
  public let gamma: Double
  /// The supply's budget in milliamperes; nil for no limit.
  public let currentLimitMilliamps: Int?
  /// The current of one channel at full duty (WS2812B datasheet: about 20 mA per colour).
  public let milliampsPerChannel: Double
  /// The quiescent current of one LED package with every channel off (about 1 mA on WS2812B).
  public let idleMilliampsPerLED: Double
  private let table: [UInt8]

  public init(
    gamma: Double = 2.2, currentLimitMilliamps: Int? = nil, milliampsPerChannel: Double = 20,
    idleMilliampsPerLED: Double = 1
  ) {
    self.gamma = gamma
    self.currentLimitMilliamps = currentLimitMilliamps
    self.milliampsPerChannel = milliampsPerChannel
    self.idleMilliampsPerLED = idleMilliampsPerLED
    table = (0..<256).map { value in
      guard gamma != 1 else { return UInt8(value) }
      return UInt8((Self.power(Double(value) / 255, gamma) * 255).rounded())
    }
  }

  /// The gamma-corrected value of one channel.
  public func corrected(_ value: UInt8) -> UInt8 { table[Int(value)] }

  /// The estimated current of already corrected channel bytes, in milliamperes: each channel
  /// draws in proportion to its duty, plus every package's idle current.
  public func estimatedMilliamps(_ channels: [UInt8]) -> Double {
    var sum = 0
    for value in channels { sum += Int(value) }
    return Double(sum) / 255 * milliampsPerChannel
      + Double(channels.count / 3) * idleMilliampsPerLED
  }

  /// The channel bytes of `buffer` in `wiring` order: scaled to `brightnessPercent`, gamma
  /// corrected, then scaled down as a whole when the estimate exceeds the budget, so the
  /// supply never browns out on an all-white frame.
  public func bytes(
    _ buffer: Framebuffer, wiring: WiringMap, brightnessPercent: Int
  ) -> [UInt8] {
    let level = UInt32(min(100, max(0, brightnessPercent)))
    // Brightness then gamma, folded into one table per frame: 256 steps instead of three
    // multiplications per LED.
    var combined = [UInt8](repeating: 0, count: 256)
    for value in 0..<256 { combined[value] = table[Int((UInt32(value) * level + 50) / 100)] }
    var output = [UInt8](repeating: 0, count: wiring.ledCount * 3)
    var sum = 0
    buffer.pixels.withUnsafeBufferPointer { pixels in
      combined.withUnsafeBufferPointer { lut in
        output.withUnsafeMutableBufferPointer { out in
          var offset = 0
          for source in wiring.sourceIndices {
            let pixel = pixels[source]
            let red = lut[Int(pixel.red)]
            let green = lut[Int(pixel.green)]
            let blue = lut[Int(pixel.blue)]
            out[offset] = red
            out[offset + 1] = green
            out[offset + 2] = blue
            offset += 3
            sum &+= Int(red) &+ Int(green) &+ Int(blue)
          }
        }
      }
    }
    guard let limit = currentLimitMilliamps else { return output }
    let idle = Double(wiring.ledCount) * idleMilliampsPerLED
    let drive = Double(sum) / 255 * milliampsPerChannel
    guard idle + drive > Double(limit), drive > 0 else { return output }
    // One factor for the whole frame keeps the colours' proportions; 16.16 fixed point,
    // rounded down so the estimate stays under the budget.
    let factor = UInt32(max(0, Double(limit) - idle) / drive * 65536)
    output.withUnsafeMutableBufferPointer { out in
      for index in out.indices { out[index] = UInt8((UInt32(out[index]) &* factor) >> 16) }
    }
    return output
  }

  private static func power(_ base: Double, _ exponent: Double) -> Double {
    // exp(exponent * ln(base)) without Foundation: the standard library has no pow.
    guard base > 0 else { return 0 }
    return exp2(exponent * log2(base))
  }
}

// Natural-enough log2 and exp2 for a 256-entry table computed once, from the standard library
// only: log2 by range reduction to [1, 2) and a series, exp2 by splitting the integer part.
private func log2(_ value: Double) -> Double {
  var x = value
  var result = 0.0
  while x >= 2 {
    x /= 2
    result += 1
  }
  while x < 1 {
    x *= 2
    result -= 1
  }
  // ln(x) = 2 atanh((x - 1) / (x + 1)), converging fast on [1, 2).
  let t = (x - 1) / (x + 1)
  var term = t
  var sum = 0.0
  var n = 1.0
  while n < 60 {
    sum += term / n
    term *= t * t
    n += 2
  }
  return result + 2 * sum / 0.693_147_180_559_945_3
}

private func exp2(_ value: Double) -> Double {
  let whole = value.rounded(.down)
  let fraction = (value - whole) * 0.693_147_180_559_945_3
  var term = 1.0
  var sum = 1.0
  for n in 1..<30 {
    term *= fraction / Double(n)
    sum += term
  }
  var scale = 1.0
  if whole >= 0 {
    for _ in 0..<Int(whole) { scale *= 2 }
  } else {
    for _ in 0..<Int(-whole) { scale /= 2 }
  }
  return sum * scale
}
