// SPDX-License-Identifier: MIT
// From the picture to the bytes the LEDs get: brightness (the tokens' day/night level), gamma
// correction and a cap on the current a 5 V supply must deliver.
//
// The current model, per LED: `idleMilliampsPerLED` with every channel off, plus
// `milliampsPerChannel` for each colour at full duty, in proportion to its byte. The figures:
// WLED's brightness limiter (wled00/bus_manager.cpp, BusDigital::estimateCurrent) counts 1 mA of
// standby per LED ("WS2812: ~0.7mA, WS2815: ~2mA") and 55 mA for a white LED (its
// LED_MILLIAMPS_DEFAULT, "common WS2812B"); FastLED's power_mgt.cpp, from measured strips,
// counts 1 mA dark and 16, 11 and 15 mA for red, green and blue at full; Adafruit and the
// WS2812B datasheet give about 20 mA a colour, 60 mA a white LED. Parts measure 0.3 to 1 mA
// idle. We take the high end of each, 1 mA and 20 mA: an estimate that errs high dims the
// picture a little, one that errs low browns out the supply. A 64×32 panel (2,048 LEDs) thus
// idles at 2,048 mA before it lights anything.

import DisplayKit

/// Brightness, gamma and the power budget, applied to a framebuffer in wiring order.
public struct OutputPipeline: Sendable {
  /// What the power budget did to a frame.
  public enum BudgetOutcome: Sendable, Hashable {
    /// No budget, or the frame's estimate is within it: the frame is as drawn.
    case withinBudget
    /// Scaled down as a whole to the budget.
    case scaledDown
    /// The budget leaves too little to show the picture (the LEDs' idle draw alone may exceed
    /// it): scaled to the lowest visible level instead, which the estimate puts over the
    /// budget, at about `estimatedMilliamps`. Never black from a picture that is not.
    case heldAtLowestVisibleLevel(estimatedMilliamps: Int)
  }

  /// The current of one channel at full duty, in mA (see the model above).
  public static let standardMilliampsPerChannel = 20.0
  /// The quiescent current of one LED package with every channel off, in mA.
  public static let standardIdleMilliampsPerLED = 1.0
  /// The brightest channel of a frame the budget scales down is kept at least this high (out of
  /// 255, about 3 % duty: dim but readable indoors), unless it was lower to begin with.
  public static let lowestVisibleLevel: UInt8 = 8

  /// The exponent of the perceptual correction: LEDs are linear in PWM duty, eyes are not
  /// (2.2–2.8 are usual for WS2812; 1 disables the correction).
  public let gamma: Double
  /// The supply's budget in milliamperes; nil for no limit.
  public let currentLimitMilliamps: Int?
  /// The current of one channel at full duty.
  public let milliampsPerChannel: Double
  /// The quiescent current of one LED package with every channel off.
  public let idleMilliampsPerLED: Double
  private let table: [UInt8]

  public init(
    gamma: Double = 2.2, currentLimitMilliamps: Int? = nil,
    milliampsPerChannel: Double = standardMilliampsPerChannel,
    idleMilliampsPerLED: Double = standardIdleMilliampsPerLED
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

  /// The current `ledCount` LEDs draw with every channel off, in whole milliamperes, rounded up.
  public func idleMilliamps(ledCount: Int) -> Int {
    Int((Double(max(0, ledCount)) * idleMilliampsPerLED).rounded(.up))
  }

  /// The budget `ledCount` LEDs need to show a picture well: their idle draw, and as much again
  /// for the picture (1 mA an LED on average: a running workout, about 11 A at full duty on a
  /// 64×32 panel, at a fifth of it).
  public func neededMilliamps(ledCount: Int) -> Int { 2 * idleMilliamps(ledCount: ledCount) }

  /// The channel bytes of `buffer` in `wiring` order: scaled to `brightnessPercent`, gamma
  /// corrected, then scaled down as a whole when the estimate exceeds the budget, so the
  /// supply never browns out on an all-white frame.
  public func bytes(
    _ buffer: Framebuffer, wiring: WiringMap, brightnessPercent: Int
  ) -> [UInt8] {
    channels(buffer, wiring: wiring, brightnessPercent: brightnessPercent).bytes
  }

  /// The channel bytes as `bytes(_:wiring:brightnessPercent:)` makes them, and what the budget
  /// did to them: a budget too small for the picture never turns it black, it holds the picture
  /// at the lowest visible level and says so, for the output to log.
  public func channels(
    _ buffer: Framebuffer, wiring: WiringMap, brightnessPercent: Int
  ) -> (bytes: [UInt8], budget: BudgetOutcome) {
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
    guard let limit = currentLimitMilliamps else { return (output, .withinBudget) }
    let idle = Double(wiring.ledCount) * idleMilliampsPerLED
    let drive = Double(sum) / 255 * milliampsPerChannel
    guard idle + drive > Double(limit), drive > 0 else { return (output, .withinBudget) }
    // One factor for the whole frame keeps the colours' proportions; 16.16 fixed point,
    // rounded down so the estimate stays under the budget.
    let budgetFactor = UInt32(max(0, Double(limit) - idle) / drive * 65536)
    // The lowest visible level, rounded up so the brightest channel reaches it; never above 1:
    // a picture already dimmer than that is left as it is.
    let brightest = UInt32(output.max() ?? 0)
    let lowest = UInt32(Self.lowestVisibleLevel)
    let lowestFactor = min(65536, ((lowest << 16) + brightest - 1) / brightest)
    let held = budgetFactor < lowestFactor
    // A constant, not a variable the closure captures: the loop below stays vectorized.
    let factor = held ? lowestFactor : budgetFactor
    output.withUnsafeMutableBufferPointer { out in
      for index in out.indices { out[index] = UInt8((UInt32(out[index]) &* factor) >> 16) }
    }
    guard held else { return (output, .scaledDown) }
    let estimate = idle + drive * Double(factor) / 65536
    return (output, .heldAtLowestVisibleLevel(estimatedMilliamps: Int(estimate.rounded(.up))))
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
