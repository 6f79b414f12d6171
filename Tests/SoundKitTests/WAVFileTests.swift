// SPDX-License-Identifier: MIT
// WAV files of every format built here byte by byte, and broken ones that must be refused
// without trapping.

import SoundKit
import Testing
import WodclockTestSupport

@Suite struct WAVFileTests {
  /// A WAV file: `fmt ` with `tag`, the samples' bytes as `data`, and `extra` chunks before.
  static func wav(
    tag: UInt16 = 1, channels: Int = 1, rate: Int = 8_000, bits: Int, data: [UInt8],
    extra: [UInt8] = [], extensible: Bool = false
  ) -> [UInt8] {
    var format: [UInt8] = []
    format += le16(extensible ? 0xFFFE : tag) + le16(UInt16(channels)) + le32(UInt32(rate))
    format += le32(UInt32(rate * channels * bits / 8)) + le16(UInt16(channels * bits / 8))
    format += le16(UInt16(bits))
    if extensible {
      format += le16(22) + le16(UInt16(bits)) + le32(channels == 1 ? 4 : 3) + le16(tag)
      format += [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
      ]
    }
    var body = Array("WAVE".utf8) + extra + Array("fmt ".utf8) + le32(UInt32(format.count)) + format
    body += Array("data".utf8) + le32(UInt32(data.count)) + data
    return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
  }

  static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
  static func le32(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
  }

  @Test func anEncodedClipDecodesToItself() throws {
    let clip = PCMClip(sampleRate: 22_050, samples: [0, 1, -1, 32_767, -32_768, 12_345])
    let bytes = try #require(WAVFile.encode(clip))
    #expect(bytes.count == 44 + 2 * clip.samples.count)
    #expect(try WAVFile.decode(bytes) == clip)
    // The header a player reads: PCM, mono, 16 bits, the rate and the byte rate.
    #expect(
      Array(bytes[20..<36]) == Self.le16(1) + Self.le16(1) + Self.le32(22_050) + Self.le32(44_100)
        + Self.le16(2) + Self.le16(16))
  }

  @Test func everyFormatDecodesToTheSameSamples() throws {
    let expected: [Int16] = [0, 16_384, -16_384, 32_767 & ~0xFF, -32_768]
    let pcm8 = expected.map { UInt8(Int($0 >> 8) + 128) }
    let pcm16 = expected.flatMap { Self.le16(UInt16(bitPattern: $0)) }
    let pcm24 = expected.flatMap { [UInt8(0)] + Self.le16(UInt16(bitPattern: $0)) }
    let pcm32 = expected.flatMap { (sample: Int16) -> [UInt8] in
      [0, 0] + Self.le16(UInt16(bitPattern: sample))
    }
    let float = expected.flatMap { Self.le32((Float($0) / 32_767).bitPattern) }
    let cases: [(String, [UInt8])] = [
      ("8-bit", Self.wav(bits: 8, data: pcm8)),
      ("16-bit", Self.wav(bits: 16, data: pcm16)),
      ("24-bit", Self.wav(bits: 24, data: pcm24)),
      ("32-bit", Self.wav(bits: 32, data: pcm32)),
      ("float", Self.wav(tag: 3, bits: 32, data: float)),
      ("extensible 24-bit", Self.wav(bits: 24, data: pcm24, extensible: true)),
      ("extensible float", Self.wav(tag: 3, bits: 32, data: float, extensible: true)),
      // A chunk before `fmt ` (LIST metadata, odd length padded) is skipped.
      (
        "with LIST",
        Self.wav(bits: 16, data: pcm16, extra: Array("LIST".utf8) + Self.le32(3) + [1, 2, 3, 0])
      ),
    ]
    for (name, bytes) in cases {
      let clip = try WAVFile.decode(bytes)
      #expect(clip.sampleRate == 8_000, "\(name)")
      // Float's round trip through -1 ... 1 may be one step off; integers are exact.
      let close = zip(clip.samples, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
      #expect(clip.samples.count == expected.count && close, "\(name): \(clip.samples)")
    }
  }

  @Test func stereoIsMixedDownAndTheRateKept() throws {
    let frames: [(Int16, Int16)] = [(1_000, 3_000), (-2_000, 2_000), (32_767, 32_767)]
    let data = frames.flatMap {
      Self.le16(UInt16(bitPattern: $0.0)) + Self.le16(UInt16(bitPattern: $0.1))
    }
    let clip = try WAVFile.decode(Self.wav(channels: 2, rate: 44_100, bits: 16, data: data))
    #expect(clip == PCMClip(sampleRate: 44_100, samples: [2_000, 0, 32_767]))
  }

  @Test func refusalsSayWhatIsWrongAndWhatToDo() {
    let good = Self.wav(bits: 16, data: [1, 0, 2, 0])
    var lying = good
    lying[40] = 0xFF  // the data chunk claims 255 bytes more than there are
    let cases: [([UInt8], WAVError)] = [
      ([], .notWAV),
      (Array("RIFF\0\0\0\0AVI LIST".utf8), .notWAV),
      (lying, .chunkTooLong(chunk: "data", size: 255, available: 4)),
      (Self.wav(bits: 16, data: []), .empty),
      (Self.wav(bits: 12, data: [0, 0, 0]), .unsupportedEncoding("12-bit integer samples")),
      (
        Self.wav(tag: 85, bits: 16, data: [0, 0]),
        .unsupportedEncoding("format code 85 (compressed audio)")
      ),
      (
        Self.wav(channels: 6, bits: 16, data: [UInt8](repeating: 0, count: 12)),
        .unsupportedChannels(6)
      ),
      (Self.wav(rate: 1_000, bits: 16, data: [0, 0]), .unsupportedSampleRate(1_000)),
      (
        Self.wav(rate: 8_000, bits: 8, data: [UInt8](repeating: 128, count: 80_008)),
        .tooLong(duration: 10_001_000_000)
      ),
      (Array(good[0..<36]), .missingChunk("data")),
    ]
    for (bytes, expected) in cases {
      #expect(throws: expected) { try WAVFile.decode(bytes) }
      #expect(!expected.description.isEmpty && !expected.hint.isEmpty)
    }
    #expect(WAVError.tooLong(duration: 12_345_000_000).description.contains("12.3 s"))
  }

  @Test func truncatedAndGarbledFilesAreRefusedWithoutTrapping() {
    var random = SeededGenerator(seed: 16)
    let samples = (0..<200).flatMap { _ in
      Self.le16(UInt16.random(in: 0...UInt16.max, using: &random))
    }
    let files = [
      Self.wav(bits: 16, data: samples),
      Self.wav(bits: 24, data: Array(samples[0..<300]), extensible: true),
      Self.wav(tag: 3, channels: 2, bits: 32, data: samples),
    ]
    var refused = 0
    for file in files {
      // Every truncation: a file cut anywhere decodes (to fewer samples) or is refused.
      for length in 0..<file.count where (try? WAVFile.decode(Array(file[0..<length]))) == nil {
        refused += 1
      }
      // Random bytes overwritten, a thousand times.
      for _ in 0..<1_000 {
        var garbled = file
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          garbled[Int.random(in: 0..<min(60, garbled.count), using: &random)] = UInt8.random(
            in: 0...255, using: &random)
        }
        _ = try? WAVFile.decode(garbled)
      }
    }
    #expect(refused > 100)
    for _ in 0..<1_000 {
      let garbage = (0..<Int.random(in: 0...200, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      _ = try? WAVFile.decode(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8) + garbage)
    }
  }
}
