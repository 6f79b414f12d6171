// SPDX-License-Identifier: MIT
// What the sound checks share (wodclock-sound-check, `wodclock-bench speaker`): a recording of
// the snd-aloop loopback card's capture side placed on the monotonic clock, the onsets found in
// it, and onsets matched with the instants they were due.
//
// When was a recorded frame heard? The capture stream runs on the card's clock: frame k was
// recorded at t0 + k / rate. Each time the stream is read, ALSA says how many frames it holds
// and when its pointer was read (snd_pcm_htimestamp, CLOCK_MONOTONIC as CALSA sets it); that
// pointer never runs ahead of the true position (snd-aloop moves it on timer ticks), so every
// reading gives an upper bound of t0, and the least of them is the estimate.

public import HardwareKit

/// The samples recorded from a capture stream, and when they were heard.
///
/// A capture overrun (the reader was too late: the card dropped frames) breaks the recording
/// into stretches: the samples after one are placed on the clock anew, from their own
/// readings, and the time between is a gap the recording does not cover.
public struct LoopbackRecording {
  public let sampleRate: Int
  public private(set) var samples: [Int16] = []
  /// The first sample of each stretch and the monotonic instant of that sample; `.max` until
  /// the stream has said.
  private var stretches: [(firstSample: Int, origin: Int64)] = [(0, .max)]
  /// The capture's overruns when it was last read.
  private var overrunsSeen = 0

  /// The monotonic instant of the first sample; `.max` until the stream has said.
  public var origin: Int64 { stretches[0].origin }

  public init(sampleRate: Int, reservingSeconds seconds: Int = 0) {
    self.sampleRate = sampleRate
    samples.reserveCapacity(max(0, seconds) * sampleRate)
  }

  /// Takes what the stream holds and narrows the estimate of the current stretch's origin.
  public mutating func drain(_ capture: ALSACapture) throws(ALSAError) {
    let before = samples.count
    _ = try capture.read(appendingTo: &samples)
    if capture.overruns != overrunsSeen {
      // Recovered and started again: what is read from now on is a new stretch.
      overrunsSeen = capture.overruns
      if stretches[stretches.count - 1].firstSample == samples.count {
        stretches[stretches.count - 1].origin = .max
      } else {
        stretches.append((samples.count, .max))
      }
    }
    let current = stretches.count - 1
    guard samples.count > before || stretches[current].origin == .max else { return }
    let (held, instant) = try capture.timestampedReadableFrames()
    guard instant > 0 else { return }
    let position = Int64(samples.count - stretches[current].firstSample + held)
    stretches[current].origin = min(
      stretches[current].origin, instant - position * 1_000_000_000 / Int64(sampleRate))
  }

  /// The monotonic instant of sample `index`.
  public func instant(ofSample index: Int) -> Int64 {
    // The last stretch that starts at or before it and whose origin is known.
    let stretch =
      stretches.last { $0.firstSample <= index && $0.origin != .max } ?? stretches[0]
    return stretch.origin
      + Int64(index - stretch.firstSample) * 1_000_000_000 / Int64(sampleRate)
  }

  /// The spans the recording lost to overruns: from the end of the last sample before each
  /// to the first sample after it.
  public var gaps: [(from: Int64, to: Int64)] {
    stretches.indices.dropFirst().compactMap { index in
      let next = stretches[index]
      guard next.origin != .max, next.firstSample > 0 else { return nil }
      return (
        instant(ofSample: next.firstSample - 1) + 1_000_000_000 / Int64(sampleRate), next.origin
      )
    }
  }

  /// Whether an instant falls in a gap of the recording, or within `margin` of one (a sound
  /// cut by the gap, or begun in it, is heard only in part).
  public func isLost(_ instant: Int64, margin: Int64) -> Bool {
    gaps.contains { instant >= $0.from - margin && instant <= $0.to + margin }
  }

  /// Onsets: a sample louder than `threshold` after at least `quiet` nanoseconds of samples
  /// no louder (the loopback copies samples exactly: silence is zeros). Empty until the origin
  /// is known.
  public func onsets(threshold: Int16, quiet: Int64 = 5_000_000) -> [Int64] {
    guard origin != .max else { return [] }
    let quietFrames = Int(quiet * Int64(sampleRate) / 1_000_000_000)
    var lastLoud = -quietFrames - 1
    var found: [Int64] = []
    for (index, sample) in samples.enumerated() where sample.magnitude > threshold.magnitude {
      if index - lastLoud > quietFrames { found.append(instant(ofSample: index)) }
      lastLoud = index
    }
    return found
  }
}

/// Onsets matched with the instants they were due, in order.
public struct OnsetMatch: Sendable {
  /// Onset minus due instant of each instant matched, in order.
  public var lateness: [Int64] = []
  /// The instants no onset was found for within the bound.
  public var missed: [Int64] = []
  /// Onsets that belong to no instant.
  public var strays: [Int64] = []

  /// Matches each instant of `due` (ascending) with the first onset within `bound` of it
  /// either way; onsets before an instant's window are strays.
  public init(due: [Int64], onsets: [Int64], bound: Int64) {
    var remaining = onsets[...]
    for instant in due {
      while let onset = remaining.first, onset < instant - bound {
        strays.append(onset)
        remaining.removeFirst()
      }
      if let onset = remaining.first, onset <= instant + bound {
        lateness.append(onset - instant)
        remaining.removeFirst()
      } else {
        missed.append(instant)
      }
    }
    strays += remaining
  }

  /// Nearest-rank percentile of the distances from the due instants (`p` of 100), and the
  /// signed median.
  public func distance(percentile p: Int) -> Int64 {
    let sorted = lateness.map { Int64($0.magnitude) }.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, sorted.count * p / 100)]
  }

  public var median: Int64 {
    let sorted = lateness.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }
}

/// The loopback card's volume control: ALSA's softvol plugin adds one (`Master`, on the card,
/// as it does for a USB card without a hardware volume) through a device of ~/.asoundrc.
public enum LoopbackVolumeControl {
  public static let deviceName = "wodclock_ducked"

  /// Defines the softvol device playing to `card`'s (`hw:Loopback`) device 0, subdevice 1;
  /// before anything opens a sound device, since libasound reads its configuration once.
  public static func define(card: String, home: String = "/root") throws(SystemError) {
    try FileSystem.writeFileAtomically(
      "\(home)/.asoundrc",
      text: """
        pcm.\(deviceName) {
          type softvol
          slave.pcm "\(card),0,1"
          control { name "Master" card \(card.dropFirst(3)) }
        }

        """)
  }

  /// Opens and closes the softvol device once, so its control exists on the card: it stays
  /// after the device is closed, and then anyone may set it (while the device that added it is
  /// open, that device's handle owns the control and others' writes fail with EPERM).
  public static func create(sampleRate: Int) throws(ALSAError) {
    let playback = try ALSAPlayback.open(device: deviceName, sampleRate: sampleRate)
    _ = try playback.write([Int16](repeating: 0, count: 64))
    playback.close()
  }
}
