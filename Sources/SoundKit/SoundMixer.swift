// SPDX-License-Identifier: MIT
// The PCM the speaker writes: the schedule's sounds mixed into a buffer of frames, each sound's
// first sample on the frame of its instant.

/// Mixes a schedule's sounds into frames of one stream.
///
/// Frame `f` of the stream plays at `origin + f / sampleRate` seconds (monotonic nanoseconds):
/// the writer counts frames from the instant it started the stream, so a sound lands on the
/// frame of its instant however the stream is cut into buffers.
public struct SoundMixer: Sendable {
  public let sampleRate: Int
  /// The instant of frame 0.
  public let origin: Int64

  /// What a call found.
  public struct Result: Sendable, Equatable {
    /// Whether any sound played in the buffer.
    public var audible: Bool
    /// The first instant from the buffer's end on at which something sounds, or nil: until
    /// then the writer may leave the stream idle.
    public var nextSound: Int64?
  }

  /// A mixer for a stream at `sampleRate` (clamped to ``PCMClip/supportedSampleRates``) whose
  /// frame 0 plays at `origin`.
  public init(sampleRate: Int, origin: Int64) {
    self.sampleRate = SoundSynthesis.supportedRate(sampleRate)
    self.origin = origin
  }

  /// The frame playing at `instant`: the nearest one (frames are at most 125 µs apart).
  public func frame(at instant: Int64) -> Int64 {
    let (seconds, nanoseconds) = (instant &- origin).quotientAndRemainder(dividingBy: 1_000_000_000)
    // Split so that no product overflows: 2^63 ns is 292 years, times 192 000 still fits.
    let rate = Int64(sampleRate)
    let fraction = nanoseconds * rate
    let rounded =
      fraction >= 0
      ? (fraction + 500_000_000) / 1_000_000_000 : -((-fraction + 499_999_999) / 1_000_000_000)
    return seconds * rate + rounded
  }

  /// The instant frame `frame` plays (rounded down to the nanosecond).
  public func instant(ofFrame frame: Int64) -> Int64 {
    let rate = Int64(sampleRate)
    let (seconds, frames) = frame.quotientAndRemainder(dividingBy: rate)
    return origin + seconds * 1_000_000_000 + frames * 1_000_000_000 / rate
  }

  /// Fills `buffer` with the frames from `firstFrame` on: silence, plus each sound of
  /// `schedule` where it overlaps, at its gain, a cut sound fading out over
  /// ``SoundSchedule/fade``; sums saturate instead of wrapping. Allocates nothing.
  public func render(
    into buffer: UnsafeMutableBufferPointer<Int16>, firstFrame: Int64, schedule: SoundSchedule,
    bank: SoundBank
  ) -> Result {
    precondition(bank.sampleRate == sampleRate, "the bank is at another rate than the stream")
    for index in buffer.indices { buffer[index] = 0 }
    let endFrame = firstFrame + Int64(buffer.count)
    let fadeFrames = max(1, Int64(sampleRate) * SoundSchedule.fade / 1_000_000_000)
    var audible = false
    for entry in schedule.entries where entry.gain > 0 {
      guard let clip = bank[entry.sound] else { continue }
      let start = frame(at: entry.start)
      var stop = start + Int64(clip.samples.count)
      let cutFrame = entry.cut.map { frame(at: $0) }
      if let cutFrame { stop = min(stop, cutFrame + fadeFrames) }
      let from = max(start, firstFrame)
      let to = min(stop, endFrame)
      guard from < to else { continue }
      audible = true
      // Gain in 1/32768ths, so a sample times it stays an Int32.
      let gain = Int32((entry.gain * 32_768).rounded())
      clip.samples.withUnsafeBufferPointer { samples in
        for frame in from..<to {
          var value = (Int32(samples[Int(frame - start)]) * gain) >> 15
          if let cutFrame, frame >= cutFrame {
            value = value * Int32(cutFrame + fadeFrames - frame) / Int32(fadeFrames)
          }
          let index = Int(frame - firstFrame)
          let sum = Int32(buffer[index]) + value
          buffer[index] = Int16(max(Int32(Int16.min), min(Int32(Int16.max), sum)))
        }
      }
    }
    return Result(audible: audible, nextSound: schedule.nextSound(from: instant(ofFrame: endFrame)))
  }

  /// ``render(into:firstFrame:schedule:bank:)`` into an array.
  public func render(
    into buffer: inout [Int16], firstFrame: Int64, schedule: SoundSchedule, bank: SoundBank
  ) -> Result {
    buffer.withUnsafeMutableBufferPointer {
      render(into: $0, firstFrame: firstFrame, schedule: schedule, bank: bank)
    }
  }
}
