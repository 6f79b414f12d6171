// SPDX-License-Identifier: MIT
// An owner's own sounds (an air horn) from WAV files: RIFF/WAVE with PCM or float samples.
// Every size in the file is checked against the bytes there are before it is used.

/// Reads WAV files into clips.
///
/// The format is Microsoft's RIFF WAVE ("Multimedia Programming Interface and Data
/// Specifications 1.0", 1991, and WAVE_FORMAT_EXTENSIBLE from "Multiple Channel Audio Data and
/// WAVE Files", 2001): little-endian, a `RIFF` header with the form type `WAVE`, then chunks of
/// a four-letter id, a 32-bit size and the data padded to an even length; `fmt ` says how the
/// samples of `data` are stored.
public enum WAVFile {
  /// The longest sound a cue may play.
  public static let maximumDuration: Int64 = 10_000_000_000

  static let pcm: UInt16 = 1
  static let ieeeFloat: UInt16 = 3
  static let extensible: UInt16 = 0xFFFE

  /// The clip of a WAV file's bytes: mono, or stereo mixed down to mono, at the file's rate.
  public static func decode(_ bytes: [UInt8]) throws(WAVError) -> PCMClip {
    guard bytes.count >= 12 else { throw .notWAV }
    guard bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
      throw .notWAV
    }
    // The RIFF size is often wrong in files written by streaming tools; the chunks are checked
    // one by one against the bytes there are instead.
    var format: Format?
    var data: Range<Int>?
    var offset = 12
    while offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let size = Int(readUInt32(bytes, offset + 4))
      let start = offset + 8
      guard size <= bytes.count - start else {
        throw .chunkTooLong(chunk: id, size: size, available: bytes.count - start)
      }
      if id == "fmt " {
        format = try Format(bytes, start, size)
      } else if id == "data" {
        data = start..<start + size
        break
      }
      offset = start + size + size % 2
    }
    guard let format else { throw .missingChunk("fmt ") }
    guard let data else { throw .missingChunk("data") }
    let frameCount = data.count / format.blockAlign
    guard frameCount > 0 else { throw .empty }
    let duration = Int64(frameCount) * 1_000_000_000 / Int64(format.sampleRate)
    guard duration <= maximumDuration else { throw .tooLong(duration: duration) }

    var samples = [Int16](repeating: 0, count: frameCount)
    let width = format.bitsPerSample / 8
    for frame in 0..<frameCount {
      let base = data.lowerBound + frame * format.blockAlign
      var sum = 0
      for channel in 0..<format.channels {
        sum += Int(format.sample(bytes, base + channel * width))
      }
      samples[frame] = Int16(sum / format.channels)
    }
    return PCMClip(sampleRate: format.sampleRate, samples: samples)
  }

  /// The bytes of a 16-bit PCM mono WAV file of `clip` (a recording to keep or play elsewhere),
  /// in the layout ``decode(_:)`` reads; nil when the data would not fit the 32-bit sizes.
  public static func encode(_ clip: PCMClip) -> [UInt8]? {
    let dataSize = clip.samples.count * 2
    guard dataSize <= Int(UInt32.max) - 36, clip.sampleRate > 0, clip.sampleRate <= 0x7FFF_FFFF
    else { return nil }
    let rate = UInt32(clip.sampleRate)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(44 + dataSize)
    bytes += Array("RIFF".utf8) + littleEndian32(UInt32(36 + dataSize)) + Array("WAVE".utf8)
    bytes += Array("fmt ".utf8) + littleEndian32(16) + littleEndian16(pcm) + littleEndian16(1)
    bytes += littleEndian32(rate) + littleEndian32(rate * 2) + littleEndian16(2)
    bytes += littleEndian16(16)
    bytes += Array("data".utf8) + littleEndian32(UInt32(dataSize))
    for sample in clip.samples { bytes += littleEndian16(UInt16(bitPattern: sample)) }
    return bytes
  }

  /// What `fmt ` says, checked.
  struct Format {
    var isFloat: Bool
    var channels: Int
    var sampleRate: Int
    var bitsPerSample: Int
    var blockAlign: Int

    init(_ bytes: [UInt8], _ start: Int, _ size: Int) throws(WAVError) {
      guard size >= 16 else {
        throw .malformedFormat("the fmt chunk is \(size) bytes, not 16 or more")
      }
      var tag = readUInt16(bytes, start)
      channels = Int(readUInt16(bytes, start + 2))
      let rate = readUInt32(bytes, start + 4)
      blockAlign = Int(readUInt16(bytes, start + 12))
      bitsPerSample = Int(readUInt16(bytes, start + 14))
      if tag == WAVFile.extensible {
        // cbSize, valid bits, channel mask, then the sub-format GUID, whose first two bytes are
        // the format tag proper.
        guard size >= 40 else {
          throw .malformedFormat("an extensible fmt chunk is \(size) bytes, not 40 or more")
        }
        tag = readUInt16(bytes, start + 24)
      }
      switch tag {
      case WAVFile.pcm:
        isFloat = false
        guard [8, 16, 24, 32].contains(bitsPerSample) else {
          throw .unsupportedEncoding("\(bitsPerSample)-bit integer samples")
        }
      case WAVFile.ieeeFloat:
        isFloat = true
        guard bitsPerSample == 32 else {
          throw .unsupportedEncoding("\(bitsPerSample)-bit floating-point samples")
        }
      default:
        throw .unsupportedEncoding("format code \(tag) (compressed audio)")
      }
      guard channels == 1 || channels == 2 else { throw .unsupportedChannels(channels) }
      guard rate <= UInt32(Int32.max), PCMClip.supportedSampleRates.contains(Int(rate)) else {
        throw .unsupportedSampleRate(Int(rate))
      }
      sampleRate = Int(rate)
      guard blockAlign == channels * bitsPerSample / 8 else {
        throw .malformedFormat(
          "a frame is \(blockAlign) bytes, but \(channels) channel(s) of \(bitsPerSample) bits "
            + "make \(channels * bitsPerSample / 8)")
      }
    }

    /// One sample at `offset` as 16 bits: 8-bit is unsigned, wider integers keep their top 16
    /// bits, floats are scaled from -1 ... 1 (beyond clipped, NaN silent).
    func sample(_ bytes: [UInt8], _ offset: Int) -> Int16 {
      switch bitsPerSample {
      case 8: return Int16(Int(bytes[offset]) - 128) << 8
      case 16: return Int16(bitPattern: readUInt16(bytes, offset))
      case 24: return Int16(bitPattern: UInt16(bytes[offset + 1]) | UInt16(bytes[offset + 2]) << 8)
      default:
        let bits = readUInt32(bytes, offset)
        guard isFloat else { return Int16(truncatingIfNeeded: Int32(bitPattern: bits) >> 16) }
        let value = Float(bitPattern: bits)
        guard !value.isNaN else { return 0 }
        return Int16((max(-1, min(1, value)) * 32_767).rounded())
      }
    }
  }
}

private func littleEndian16(_ value: UInt16) -> [UInt8] {
  [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
}

private func littleEndian32(_ value: UInt32) -> [UInt8] {
  littleEndian16(UInt16(truncatingIfNeeded: value)) + littleEndian16(UInt16(value >> 16))
}

private func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
  UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}

private func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
  UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    | UInt32(bytes[offset + 3]) << 24
}

/// Why a WAV file cannot be played, for `--check-config`'s diagnostics.
public enum WAVError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No `RIFF` ... `WAVE` header.
  case notWAV
  /// A chunk says it is longer than the file.
  case chunkTooLong(chunk: String, size: Int, available: Int)
  /// No `fmt ` or no `data` chunk.
  case missingChunk(String)
  /// A `fmt ` chunk that contradicts itself.
  case malformedFormat(String)
  /// Compressed, or a sample width that WAV does not have.
  case unsupportedEncoding(String)
  case unsupportedChannels(Int)
  case unsupportedSampleRate(Int)
  /// No samples.
  case empty
  /// Longer than ``WAVFile/maximumDuration``.
  case tooLong(duration: Int64)

  /// What is wrong, in a sentence.
  public var description: String {
    switch self {
    case .notWAV: "not a WAV file (no RIFF/WAVE header)"
    case .chunkTooLong(let chunk, let size, let available):
      "the '\(chunk)' chunk says \(size) bytes but only \(available) follow: the file is cut short "
        + "or damaged"
    case .missingChunk(let chunk): "the WAV file has no '\(chunk)' chunk"
    case .malformedFormat(let what): "malformed WAV format: \(what)"
    case .unsupportedEncoding(let what): "unsupported WAV encoding: \(what)"
    case .unsupportedChannels(let count): "the WAV file has \(count) channels; 1 or 2 are played"
    case .unsupportedSampleRate(let rate):
      "the WAV file's sample rate is \(rate) Hz, outside 8000 to 192000"
    case .empty: "the WAV file holds no samples"
    case .tooLong(let duration):
      "the sound lasts \(duration / 1_000_000_000).\(duration / 100_000_000 % 10) s; a cue's "
        + "sound may last 10 s at most"
    }
  }

  /// What to do about it.
  public var hint: String {
    switch self {
    case .notWAV, .chunkTooLong, .missingChunk, .malformedFormat:
      "export the sound again as a WAV file, e.g. `sox in.mp3 out.wav` or Audacity's "
        + "File > Export > WAV"
    case .unsupportedEncoding, .unsupportedChannels, .unsupportedSampleRate:
      "convert it to 16-bit PCM, mono or stereo, e.g. `sox in.wav -b 16 -c 1 -r 48000 out.wav`"
    case .empty: "record or export the sound again; this file is silent"
    case .tooLong: "trim it to the part that matters, e.g. `sox in.wav out.wav trim 0 3`"
    }
  }
}
