// SPDX-License-Identifier: MIT
// A non-blocking ALSA capture stream: what the hardware-in-the-loop check records from the
// loopback card's capture side to find when each sound was heard.

import CALSA
import Glibc

/// An open ALSA capture stream of 16-bit samples.
public final class ALSACapture {
  private let pcm: ALSAPCM
  private var interleaved: [Int16] = []

  /// The ALSA name it was opened with.
  public var device: String { pcm.device }
  /// The frames per second the device gave.
  public var sampleRate: Int { pcm.sampleRate }
  /// The channels the device records; `read` keeps the first.
  public var channels: Int { pcm.channels }
  /// The buffer's length in frames.
  public var bufferFrames: Int { pcm.bufferFrames }
  /// Overruns recovered since the stream was opened (frames were lost).
  public var overruns: Int { pcm.xruns }
  /// The descriptors to watch, each with its interest.
  public var pollDescriptors: [ALSAPollDescriptor] { pcm.pollDescriptors }
  /// The stream's state.
  public var state: ALSAState { pcm.state }

  private init(pcm: ALSAPCM) { self.pcm = pcm }

  /// Opens `device` for capture, without blocking; it records from `start()` on.
  public static func open(
    device: String, sampleRate: Int = 48_000, channels: Int? = nil,
    bufferTime: Int64 = 200_000_000
  ) throws(ALSAError) -> ALSACapture {
    ALSACapture(
      pcm: try ALSAPCM(
        device: device, capture: true, sampleRate: sampleRate, channels: channels,
        bufferTime: bufferTime, periods: 4, startFrames: nil))
  }

  /// What the stream is ready for, given what epoll reported on its descriptors.
  public func readiness(
    _ reported: [(descriptor: FileDescriptor, event: EventPoller.Event)]
  ) throws(ALSAError) -> ALSAReadiness {
    try pcm.readiness(reported)
  }

  /// Starts recording; a stream already recording goes on, and one that overran while nobody
  /// read it (counted in `overruns`) or was stopped starts afresh.
  public func start() throws(ALSAError) {
    switch pcm.state {
    case .running: return
    case .xrun:
      _ = try pcm.recover(-EPIPE)
    case .setUp: try pcm.prepare()
    default: break
    }
    try pcm.start()
  }

  /// The frames recorded and not yet read, and the monotonic instant the device's pointer was
  /// read for that count, read now (`snd_pcm_avail`, then `snd_pcm_htimestamp`).
  public func timestampedReadableFrames() throws(ALSAError) -> (frames: Int, instant: Int64) {
    try pcm.timestampedAvailable()
  }

  /// Appends what has been recorded (the first channel of each frame) to `samples`; returns
  /// the frames read, 0 when there are none yet or after an overrun (recovered, counted, and
  /// started again).
  public func read(appendingTo samples: inout [Int16]) throws(ALSAError) -> Int {
    let handle = try pcm.pcm("read")
    let available = try pcm.available()
    if pcm.state == .prepared { try pcm.start() }
    guard available > 0 else { return 0 }
    let needed = available * channels
    if interleaved.count < needed { interleaved = [Int16](repeating: 0, count: needed) }
    let read = interleaved.withUnsafeMutableBufferPointer { buffer in
      calsa_pcm_readi(handle, buffer.baseAddress, UInt(available))
    }
    if read < 0 {
      let code = Int32(truncatingIfNeeded: read)
      if code == -EAGAIN { return 0 }
      if try pcm.recover(code) {
        try pcm.start()
        return 0
      }
      throw pcm.failure("read", code)
    }
    for frame in 0..<read { samples.append(interleaved[frame * channels]) }
    return read
  }

  /// Stops recording (`snd_pcm_drop`).
  public func stop() throws(ALSAError) { try pcm.drop() }

  /// Closes the stream; its descriptors must be unregistered from the poller first.
  public func close() { pcm.close() }
}
