// SPDX-License-Identifier: MIT
// The compressed PNGs decode, through a reader written from the specifications, to exactly the
// pixels encoded; and the pictures of LED dots that snapshots write stay small.

import DeflateCoding
import DisplayKit
import MatrixKit
import PNGDecoding
import PNGEncoding
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct PNGCompressionTests {
  /// Bytes with every kind of structure the compressor meets: runs longer than one match,
  /// repeats at the hinted distances and beyond the 32 KiB window, and noise.
  static func samples() -> [(String, [UInt8])] {
    var generator = SplitMix(seed: 15_948)
    let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let pattern = Array((0..<40_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 5) })
    return [
      ("empty", []),
      ("one byte", [42]),
      ("two bytes", [1, 2]),
      ("a run of 1000", [UInt8](repeating: 9, count: 1000)),
      ("a run of 259 then 3", [UInt8](repeating: 0, count: 259) + [1, 1, 1]),
      ("noise", noise),
      ("noise repeated beyond the window", noise + Array(noise.prefix(40_000))),
      ("a slow pattern", pattern),
      ("all values", (0..<3000).map { UInt8(truncatingIfNeeded: $0) }),
    ]
  }

  @Test func deflatedDataInflatesToTheInput() throws {
    for (name, data) in Self.samples() {
      for hints in [[], [1], [3, 301], [32_768], [40_000, 0, -1]] {
        let compressed = Deflate.compress(data, distanceHints: hints)
        #expect(try Zlib.inflate(compressed) == data, "\(name), hints \(hints)")
      }
    }
  }

  @Test func runsAndRepeatsShrinkAndNoiseBarelyGrows() {
    let run = Deflate.compress([UInt8](repeating: 0, count: 100_000))
    // One literal, then matches of 258 at 17 or 18 bits each.
    #expect(run.count < 1_000)
    var generator = SplitMix(seed: 1)
    let noise = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    // Literals of the fixed code are 8 or 9 bits: at most 12.5 % more.
    #expect(Deflate.compress(noise).count <= 10_000 * 9 / 8 + 4)
  }

  @Test func bothCompressionsDecodeToTheFramePixels() throws {
    var frame = Framebuffer(width: 37, height: 23, fill: DesignTokens.standard.color(for: .work))
    var generator = SplitMix(seed: 23)
    for _ in 0..<200 {
      let value = generator.next()
      frame[Int(value % 37), Int((value >> 8) % 23)] = RGB(
        red: UInt8(truncatingIfNeeded: value >> 16), green: UInt8(truncatingIfNeeded: value >> 24),
        blue: UInt8(truncatingIfNeeded: value >> 32))
    }
    for compression in [PNGEncoder.Compression.stored, .deflate] {
      let decoded = try PNGDecoder.decode(PNGEncoder.encode(frame, compression: compression))
      #expect(decoded.width == 37 && decoded.height == 23)
      #expect(decoded.rgb == frame.rgbBytes, "\(compression)")
    }
  }

  @Test func aScaledTabataOn128x64IsSmallAndExact() throws {
    var tabata = try Workout(
      .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 8)),
      name: "Tabata")
    try tabata.start()
    let frame = MatrixRenderer(width: 128, height: 64).render(
      tabata.snapshot(25), timeOfDay: TimeOfDay(hour: 9, minute: 5), milliseconds: 200)
    let dots = LEDDots.render(frame, scale: 8, gap: DesignTokens.standard.color(for: .background))
    let png = PNGEncoder.encode(dots)
    // 1024×512 pixels: 1.5 MB stored.
    #expect(png.count < 60_000, "\(png.count) bytes")
    #expect(try PNGDecoder.decode(png).rgb == dots.rgbBytes)
  }
}

/// SplitMix64: deterministic noise, so a failure reproduces.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
