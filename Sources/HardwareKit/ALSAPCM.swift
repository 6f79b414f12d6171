// SPDX-License-Identifier: MIT
// What ALSAPlayback and ALSACapture share: an open, configured, non-blocking PCM, its poll
// descriptors, and the recovery of an underrun or overrun.

import CALSA
import Glibc

/// One of a PCM's poll descriptors, with what to wait for on it, as `EventPoller` takes them.
public struct ALSAPollDescriptor: Hashable, Sendable {
  /// The descriptor to watch.
  public var fileDescriptor: FileDescriptor
  /// Readable, writable or both.
  public var interest: EventPoller.Interest

  /// Creates a value.
  public init(fileDescriptor: FileDescriptor, interest: EventPoller.Interest) {
    self.fileDescriptor = fileDescriptor
    self.interest = interest
  }
}

/// What a PCM is ready for, decoded from its poll descriptors' events by ALSA
/// (`snd_pcm_poll_descriptors_revents`): a plugin's descriptor may be readable when the PCM is
/// writable, so the raw events are never read directly.
public struct ALSAReadiness: OptionSet, Hashable, Sendable {
  /// The bits (`POLLIN`, `POLLOUT`, `POLLERR`, `POLLHUP`).
  public var rawValue: UInt16
  /// Wraps the bits.
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// Capture frames can be read.
  public static var readable: ALSAReadiness { ALSAReadiness(rawValue: UInt16(POLLIN)) }
  /// Playback frames can be written.
  public static var writable: ALSAReadiness { ALSAReadiness(rawValue: UInt16(POLLOUT)) }
  /// An underrun, overrun or a gone device: the next call recovers or reports it.
  public static var error: ALSAReadiness { ALSAReadiness(rawValue: UInt16(POLLERR)) }
  /// The device hung up (unplugged).
  public static var hangup: ALSAReadiness { ALSAReadiness(rawValue: UInt16(POLLHUP)) }
}

/// A PCM's state (`snd_pcm_state`).
public enum ALSAState: Hashable, Sendable {
  /// Opened, not configured.
  case open
  /// Configured, stopped (after `stop()`).
  case setUp
  /// Ready to start: the stream starts when enough frames are queued, or on `start()`.
  case prepared
  /// Playing or recording.
  case running
  /// Underrun (playback) or overrun (capture): recovered by the next call.
  case xrun
  /// Draining, paused or suspended (the daemon never asks for these).
  case other
  /// The device is gone.
  case disconnected
}

/// The PCM handle and what ALSA gave when it was configured.
final class ALSAPCM {
  let device: String
  let sampleRate: Int
  let channels: Int
  let bufferFrames: Int
  let periodFrames: Int
  /// Underruns (playback) or overruns (capture) recovered so far.
  var xruns = 0
  private(set) var pollDescriptors: [ALSAPollDescriptor] = []
  private var handle: OpaquePointer?
  private var pollStorage: [calsa_pollfd] = []

  /// Opens and configures `device`; `startFrames` nil starts the stream when its buffer is full
  /// (a capture stream is started with `start()`).
  init(
    device: String, capture: Bool, sampleRate: Int, channels: Int?, bufferTime: Int64,
    periods: Int, startFrames: Int?
  ) throws(ALSAError) {
    let what = capture ? "capture device" : "sound device"
    guard (1_000...768_000).contains(sampleRate) else {
      throw ALSAError(
        .unsupported, "cannot open \(what) '\(device)': a rate of \(sampleRate) Hz",
        code: -EINVAL, hint: "rates go from 1000 to 768000 Hz; 48000 is what cards take")
    }
    guard (1_000_000...2_000_000_000).contains(bufferTime), (2...16).contains(periods) else {
      throw ALSAError(
        .unsupported, "cannot open \(what) '\(device)': a buffer of \(bufferTime) ns",
        code: -EINVAL, hint: "a buffer of 1 ms to 2 s in 2 to 16 periods")
    }
    if let channels, !(1...32).contains(channels) {
      throw ALSAError(
        .unsupported, "cannot open \(what) '\(device)': \(channels) channels", code: -EINVAL,
        hint: "1 to 32 channels")
    }
    try loadALSA()
    var opened: OpaquePointer?
    let openResult = calsa_pcm_open(
      &opened, device, capture ? Int32(CALSA_CAPTURE) : Int32(CALSA_PLAYBACK))
    guard openResult == 0, let opened else {
      throw ALSAError.open(what, device, code: openResult)
    }
    var setup = calsa_pcm_setup()
    setup.rate = UInt32(sampleRate)
    setup.channels = UInt32(channels ?? 0)
    setup.buffer_time_us = UInt32(bufferTime / 1_000)
    setup.periods = UInt32(periods)
    // 0: start when the buffer is full (a playback stream started earlier underruns at once).
    let result = calsa_pcm_configure(opened, &setup, UInt(max(startFrames ?? 0, 0)))
    guard result == 0 else {
      _ = calsa_pcm_close(opened)
      throw ALSAError(
        result == -EINVAL ? .unsupported : .system,
        "cannot set up \(what) '\(device)' for 16-bit samples at \(sampleRate) Hz: "
          + ALSAError.reason(result), code: result,
        hint: result == -EINVAL
          ? "a `plughw:` device converts rates and channels the card itself lacks" : nil)
    }
    self.device = device
    handle = opened
    self.sampleRate = Int(setup.actual_rate)
    self.channels = Int(setup.actual_channels)
    bufferFrames = Int(setup.buffer_frames)
    periodFrames = Int(setup.period_frames)
    let count = calsa_pcm_poll_descriptors_count(opened)
    if count > 0 {
      pollStorage = [calsa_pollfd](repeating: calsa_pollfd(), count: Int(count))
      let filled = calsa_pcm_poll_descriptors(opened, &pollStorage, UInt32(count))
      pollStorage = Array(pollStorage.prefix(Int(max(filled, 0))))
    }
    pollDescriptors = pollStorage.map { entry in
      var interest: EventPoller.Interest = []
      if entry.events & Int16(POLLIN) != 0 { interest.insert(.readable) }
      if entry.events & Int16(POLLOUT) != 0 { interest.insert(.writable) }
      return ALSAPollDescriptor(
        fileDescriptor: FileDescriptor(rawValue: entry.fd), interest: interest)
    }
  }

  deinit { close() }

  func pcm(_ operation: String) throws(ALSAError) -> OpaquePointer {
    guard let handle else {
      throw ALSAError(
        .system, "sound device '\(device)': \(operation) after close", code: -EBADF)
    }
    return handle
  }

  func close() {
    if let handle { _ = calsa_pcm_close(handle) }
    handle = nil
  }

  var state: ALSAState {
    guard let handle else { return .disconnected }
    switch calsa_pcm_state(handle) {
    case Int32(CALSA_STATE_OPEN): return .open
    case Int32(CALSA_STATE_SETUP): return .setUp
    case Int32(CALSA_STATE_PREPARED): return .prepared
    case Int32(CALSA_STATE_RUNNING): return .running
    case Int32(CALSA_STATE_XRUN): return .xrun
    case Int32(CALSA_STATE_DISCONNECTED): return .disconnected
    default: return .other
    }
  }

  func readiness(
    _ reported: [(descriptor: FileDescriptor, event: EventPoller.Event)]
  ) throws(ALSAError) -> ALSAReadiness {
    let pcm = try pcm("poll")
    for index in pollStorage.indices {
      pollStorage[index].revents = 0
      for (descriptor, event) in reported where descriptor.rawValue == pollStorage[index].fd {
        var bits: Int32 = 0
        if event.isReadable { bits |= POLLIN }
        if event.isWritable { bits |= POLLOUT }
        if event.isError { bits |= POLLERR }
        if event.isHangup { bits |= POLLHUP }
        pollStorage[index].revents |= Int16(truncatingIfNeeded: bits)
      }
    }
    var revents: UInt16 = 0
    let result = calsa_pcm_poll_descriptors_revents(
      pcm, &pollStorage, UInt32(pollStorage.count), &revents)
    guard result >= 0 else { throw failure("poll", result) }
    return ALSAReadiness(rawValue: revents)
  }

  /// Recovers from an underrun or overrun (`-EPIPE`) or a suspend (`-ESTRPIPE`); returns false
  /// for any other code, which the caller reports.
  func recover(_ code: Int32) throws(ALSAError) -> Bool {
    guard code == -EPIPE || code == -ESTRPIPE else { return false }
    let result = calsa_pcm_recover(try pcm("recover"), code)
    guard result == 0 else { throw failure("recovery", result) }
    xruns += 1
    return true
  }

  /// `snd_pcm_avail_update`, an underrun recovered first.
  func available() throws(ALSAError) -> Int {
    let pcm = try pcm("avail")
    var frames = calsa_pcm_avail_update(pcm)
    if frames < 0, try recover(Int32(truncatingIfNeeded: frames)) {
      frames = calsa_pcm_avail_update(pcm)
    }
    guard frames >= 0 else {
      throw failure("avail", Int32(truncatingIfNeeded: frames))
    }
    // On a `hw:` device snd_pcm_avail_update reads the pointer the kernel maps and makes no
    // call, so a card unplugged with its buffer full says "0 free" for ever and nothing else
    // is asked of it: the state, in the same mapped page, says it is gone.
    if state == .disconnected { throw failure("avail", -ENODEV) }
    return frames
  }

  /// `snd_pcm_delay`, an underrun recovered first.
  func delay() throws(ALSAError) -> Int {
    let pcm = try pcm("delay")
    var frames = 0
    var result = calsa_pcm_delay(pcm, &frames)
    if result < 0, try recover(result) { result = calsa_pcm_delay(pcm, &frames) }
    guard result == 0 else { throw failure("delay", result) }
    return frames
  }

  /// The frames available and the monotonic instant they were counted, the card's pointer read
  /// now (`snd_pcm_avail`, then `snd_pcm_htimestamp`).
  func timestampedAvailable() throws(ALSAError) -> (frames: Int, instant: Int64) {
    var frames: UInt = 0
    var instant: Int64 = 0
    let result = calsa_pcm_htimestamp(try pcm("htimestamp"), &frames, &instant)
    guard result == 0 else { throw failure("htimestamp", result) }
    return (Int(clamping: frames), instant)
  }

  /// The error of a failed call: the device is gone, or the call failed.
  func failure(_ operation: String, _ code: Int32) -> ALSAError {
    ALSAError.io(operation, device, code: code, disconnected: state == .disconnected)
  }

  func start() throws(ALSAError) {
    let result = calsa_pcm_start(try pcm("start"))
    guard result == 0 else { throw failure("start", result) }
  }

  func prepare() throws(ALSAError) {
    let result = calsa_pcm_prepare(try pcm("prepare"))
    guard result == 0 else { throw failure("prepare", result) }
  }

  func drop() throws(ALSAError) {
    let result = calsa_pcm_drop(try pcm("drop"))
    guard result == 0 else { throw failure("stop", result) }
  }
}
