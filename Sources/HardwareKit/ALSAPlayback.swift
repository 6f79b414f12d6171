// SPDX-License-Identifier: MIT
// A non-blocking ALSA playback stream that the daemon's one loop drives: its poll descriptors
// are watched with the others, and every call returns at once.
//
// The timing model. A cue's sound must reach the speaker at the cue's instant, so the writer
// knows, for every frame it writes, when that frame will be heard:
//
//     a frame written now is heard at  now + delay / rate
//
// where `delay` is `delayFrames()` read just before the write (snd_pcm_delay: the frames
// already queued and not yet played plus what the card itself holds; for a prepared stream
// that has not started, only the queued frames, heard once it starts). The writer therefore
// renders each new chunk for the instants its frames will play: a sound due at instant `t`
// begins `(t - (now + delay / rate)) * rate` frames into the chunk written now, and a chunk
// written later continues it frame by frame. The buffer is small (10 to 20 ms: latency is
// the buffer, the period only sets how often the writer is woken), kept full of silence
// between sounds so the stream never stops, and the writer is woken once a period is free.
//
// Nothing blocks: the PCM is opened with SND_PCM_NONBLOCK (a busy device fails at once rather
// than waiting), a full buffer writes 0 frames, and there is no snd_pcm_drain. An underrun
// (-EPIPE) or a suspend (-ESTRPIPE) is recovered by snd_pcm_recover and counted in
// `underruns`; since the model reads the delay afresh before every write, the next sound is
// not moved by it. A device that goes away (-ENODEV, -EBADFD: a pulled USB card) throws an
// error whose `isUnplugged` is true: the caller closes the stream and opens it again with
// backoff.
//
// libasound is loaded with dlopen the first time a stream or mixer is opened (see CALSA.c).

import CALSA
import Glibc

/// An open ALSA playback stream of 16-bit samples.
public final class ALSAPlayback {
  private let pcm: ALSAPCM
  private var interleaved: [Int16] = []

  /// The ALSA name it was opened with, such as `hw:1,0`.
  public var device: String { pcm.device }
  /// The frames per second the device gave (the rate asked, or the nearest it has).
  public var sampleRate: Int { pcm.sampleRate }
  /// The channels the device plays; `write` puts each mono sample on all of them.
  public var channels: Int { pcm.channels }
  /// The buffer's length in frames: the stream's latency when it is kept full.
  public var bufferFrames: Int { pcm.bufferFrames }
  /// The period in frames: the descriptors report writable once this much is free.
  public var periodFrames: Int { pcm.periodFrames }
  /// Underruns recovered since the stream was opened.
  public var underruns: Int { pcm.xruns }
  /// The descriptors to watch, each with its interest, as `EventPoller.register` takes them.
  public var pollDescriptors: [ALSAPollDescriptor] { pcm.pollDescriptors }
  /// The stream's state.
  public var state: ALSAState { pcm.state }

  private init(pcm: ALSAPCM) { self.pcm = pcm }

  /// Opens `device` for playback, without blocking.
  ///
  /// - Parameters:
  ///   - device: an ALSA name: `default`, `hw:1,0`, `plughw:CARD=Device`.
  ///   - sampleRate: frames per second asked; the device may give the nearest it has.
  ///   - channels: `nil` plays mono where the device takes it, else on its fewest channels.
  ///   - bufferTime: the buffer's length in nanoseconds (10 to 20 ms for cues), in four
  ///     periods.
  ///   - startFrames: the stream starts once this many frames are queued; `nil`, when the
  ///     buffer is full.
  /// - Throws: an `ALSAError` such as `cannot open sound device 'hw:1,0': No such file or
  ///   directory (ENOENT); hint: …`.
  public static func open(
    device: String, sampleRate: Int = 48_000, channels: Int? = nil,
    bufferTime: Int64 = 20_000_000, startFrames: Int? = nil
  ) throws(ALSAError) -> ALSAPlayback {
    ALSAPlayback(
      pcm: try ALSAPCM(
        device: device, capture: false, sampleRate: sampleRate, channels: channels,
        bufferTime: bufferTime, periods: 4, startFrames: startFrames))
  }

  /// What the stream is ready for, given what epoll reported on its descriptors.
  public func readiness(
    _ reported: [(descriptor: FileDescriptor, event: EventPoller.Event)]
  ) throws(ALSAError) -> ALSAReadiness {
    try pcm.readiness(reported)
  }

  /// The frames that can be written now without blocking (`snd_pcm_avail_update`); an
  /// underrun is recovered first.
  public func writableFrames() throws(ALSAError) -> Int { try pcm.available() }

  /// The frames written and not yet heard (`snd_pcm_delay`): a frame written now is heard at
  /// now + `delayFrames() / sampleRate`. An underrun is recovered first.
  public func delayFrames() throws(ALSAError) -> Int { try pcm.delay() }

  /// The instant, on the monotonic clock, at which the next frame written is heard, given the
  /// delay read at `now`.
  public func instantOfNextFrame(now: Int64, delayFrames: Int) -> Int64 {
    now + Int64(delayFrames) * 1_000_000_000 / Int64(sampleRate)
  }

  /// The free frames and the monotonic instant the device's pointer was read for that count,
  /// read now (`snd_pcm_avail`, then `snd_pcm_htimestamp`).
  public func timestampedWritableFrames() throws(ALSAError) -> (frames: Int, instant: Int64) {
    try pcm.timestampedAvailable()
  }

  /// Writes mono samples, each on every channel; returns how many were taken (0 when the
  /// buffer is full, or after an underrun, which is recovered and counted: write again).
  /// A stream stopped with `stop()` is prepared again first.
  public func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Int {
    let handle = try pcm.pcm("write")
    if pcm.state == .setUp { try pcm.prepare() }
    guard let base = samples.baseAddress, !samples.isEmpty else { return 0 }
    let written: Int
    if channels == 1 {
      written = calsa_pcm_writei(handle, base, UInt(samples.count))
    } else {
      let needed = samples.count * channels
      if interleaved.count < needed {
        interleaved = [Int16](repeating: 0, count: needed)
      }
      var index = 0
      for sample in samples {
        for _ in 0..<channels {
          interleaved[index] = sample
          index += 1
        }
      }
      written = interleaved.withUnsafeBufferPointer { buffer in
        calsa_pcm_writei(handle, buffer.baseAddress, UInt(samples.count))
      }
    }
    if written >= 0 { return written }
    let code = Int32(truncatingIfNeeded: written)
    if code == -EAGAIN { return 0 }
    if try pcm.recover(code) { return 0 }
    throw pcm.failure("write", code)
  }

  /// Writes mono samples; see `write(_:)` for a buffer.
  public func write(_ samples: [Int16]) throws(ALSAError) -> Int {
    try samples.withUnsafeBufferPointer { buffer throws(ALSAError) -> Int in try write(buffer) }
  }

  /// Starts a prepared stream before its start threshold is reached.
  public func start() throws(ALSAError) { try pcm.start() }

  /// Stops at once, dropping what is queued (`snd_pcm_drop`, never a drain); the next write
  /// prepares the stream again.
  public func stop() throws(ALSAError) { try pcm.drop() }

  /// Makes a stopped stream ready to start again (`snd_pcm_prepare`).
  public func prepare() throws(ALSAError) { try pcm.prepare() }

  /// Closes the stream; its descriptors must be unregistered from the poller first.
  public func close() { pcm.close() }
}
