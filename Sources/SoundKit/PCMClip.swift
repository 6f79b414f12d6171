// SPDX-License-Identifier: MIT
// A sound in memory: mono 16-bit samples at a rate, as the speaker plays them.

/// Mono signed 16-bit samples at `sampleRate` frames per second.
public struct PCMClip: Sendable, Equatable {
  public var sampleRate: Int
  public var samples: [Int16]

  /// The rates a clip may have: from telephone quality to the fastest USB cards.
  public static let supportedSampleRates = 8_000...192_000

  /// Creates a clip.
  public init(sampleRate: Int, samples: [Int16]) {
    self.sampleRate = sampleRate
    self.samples = samples
  }

  /// How long it plays, nanoseconds (0 for a clip of an unsupported rate).
  public var duration: Int64 {
    guard Self.supportedSampleRates.contains(sampleRate) else { return 0 }
    return Int64(samples.count) * 1_000_000_000 / Int64(sampleRate)
  }

  /// The clip at another rate, by linear interpolation, or nil when either rate is outside
  /// ``supportedSampleRates``. Its length is the same time, rounded to whole frames.
  public func resampled(to rate: Int) -> PCMClip? {
    guard Self.supportedSampleRates.contains(sampleRate), Self.supportedSampleRates.contains(rate)
    else { return nil }
    if rate == sampleRate || samples.isEmpty { return PCMClip(sampleRate: rate, samples: samples) }
    // Both rates are at most 192 000 and a clip is bounded by memory, so the products fit.
    let count = (samples.count * rate + sampleRate / 2) / sampleRate
    var output = [Int16](repeating: 0, count: count)
    let last = samples.count - 1
    for index in 0..<count {
      // The source position index * sampleRate / rate, as a whole frame and a remainder.
      let numerator = index * sampleRate
      let whole = numerator / rate
      let fraction = numerator % rate
      guard whole < last else {
        output[index] = samples[last]
        continue
      }
      let a = Int(samples[whole])
      let b = Int(samples[whole + 1])
      output[index] = Int16(a + (b - a) * fraction / rate)
    }
    return PCMClip(sampleRate: rate, samples: output)
  }
}
