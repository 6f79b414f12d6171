// SPDX-License-Identifier: MIT
// ALSAPlayback and ALSAMixer without a sound card: the errors users read for a device that
// does not exist, and the non-blocking write path on ALSA's `null` and `file` devices, which
// every libasound install has (they do not play in real time: the timing is checked against
// the snd-aloop loopback card in Tests/hil).

import Glibc
import HardwareKit
import Testing
import WodclockTestSupport

@Suite struct ALSATests {
  static let listHint =
    "no card or device answers to that name; `aplay -l` lists the cards and `aplay -L` the device names"

  @Test func aCardNumberNoMachineHasIsAClearError() {
    let error = #expect(throws: ALSAError.self) { try ALSAPlayback.open(device: "hw:99") }
    #expect(error?.kind == .noSuchDevice)
    #expect(error?.isUnplugged == false)
    #expect(
      error?.description
        == "cannot open sound device 'hw:99': Invalid argument (EINVAL); hint: \(Self.listHint)")
  }

  @Test func anUnknownDeviceNameIsAClearError() {
    let error = #expect(throws: ALSAError.self) {
      try ALSAPlayback.open(device: "wodclock-no-such-device")
    }
    #expect(error?.kind == .noSuchDevice)
    #expect(error?.errno == .noSuchFile)
    #expect(
      error?.description
        == "cannot open sound device 'wodclock-no-such-device': No such file or directory "
        + "(ENOENT); hint: \(Self.listHint)")
  }

  @Test func settingsNoDeviceTakesAreRefusedBeforeTheDeviceIsOpened() {
    let rate = #expect(throws: ALSAError.self) {
      try ALSAPlayback.open(device: "null", sampleRate: 0)
    }
    #expect(rate?.kind == .unsupported)
    #expect(rate?.description.hasPrefix("cannot open sound device 'null': a rate of 0 Hz") == true)
    let buffer = #expect(throws: ALSAError.self) {
      try ALSAPlayback.open(device: "null", bufferTime: Int64.max)
    }
    #expect(buffer?.kind == .unsupported)
    let channels = #expect(throws: ALSAError.self) {
      try ALSAPlayback.open(device: "null", channels: -1)
    }
    #expect(channels?.kind == .unsupported)
  }

  @Test func theNullDeviceTakesWritesWithoutBlocking() throws {
    let playback = try ALSAPlayback.open(device: "null", bufferTime: 20_000_000)
    defer { playback.close() }
    #expect(playback.channels == 1)
    #expect(playback.sampleRate == 48_000)
    // 20 ms at 48 kHz, in four periods (the null device takes what is asked).
    #expect((480...1_920).contains(playback.bufferFrames))
    #expect(playback.periodFrames * 4 <= playback.bufferFrames + 4)
    #expect(!playback.pollDescriptors.isEmpty)
    #expect(playback.state == .prepared)
    let free = try playback.writableFrames()
    #expect(free == playback.bufferFrames)
    #expect(try playback.delayFrames() == 0)
    // A write of more than the buffer holds takes what fits and returns; it never waits.
    let samples = [Int16](repeating: 1_000, count: playback.bufferFrames * 3)
    let written = try playback.write(samples)
    #expect(written > 0 && written <= samples.count)
    #expect(try playback.delayFrames() >= 0)
    #expect(playback.underruns == 0)
    // Stopped, the stream is prepared again by the next write.
    try playback.stop()
    #expect(playback.state == .setUp)
    #expect(try playback.write(Array(samples.prefix(16))) == 16)
    #expect(playback.state != .setUp)
  }

  @Test func aCallInTheWrongStateIsAnErrorNotAnUnpluggedDevice() throws {
    let playback = try ALSAPlayback.open(device: "null")
    defer { playback.close() }
    try playback.start()
    #expect(playback.state == .running)
    // ALSA answers EBADFD, which of a disconnected stream means gone; this one is not.
    let error = #expect(throws: ALSAError.self) { try playback.start() }
    #expect(error?.kind == .system)
    #expect(error?.isUnplugged == false)
    #expect(
      error?.description
        == "sound device 'null': start failed: File descriptor in bad state (EBADFD)")
  }

  @Test func aCaptureStreamStartedTwiceGoesOnRecording() throws {
    let capture = try ALSACapture.open(device: "null")
    defer { capture.close() }
    try capture.start()
    try capture.start()
    #expect(capture.state == .running)
    var samples: [Int16] = []
    #expect(try capture.read(appendingTo: &samples) >= 0)
    #expect(capture.overruns == 0)
    // Stopped, it starts afresh.
    try capture.stop()
    try capture.start()
    #expect(capture.state == .running)
  }

  @Test func theNextFrameIsHeardAfterTheDelay() throws {
    let playback = try ALSAPlayback.open(device: "null")
    defer { playback.close() }
    // 480 frames at 48 kHz are 10 ms.
    #expect(playback.instantOfNextFrame(now: 1_000_000_000, delayFrames: 480) == 1_010_000_000)
    #expect(playback.instantOfNextFrame(now: 5, delayFrames: 0) == 5)
  }

  @Test func eachMonoSampleGoesToEveryChannel() throws {
    let scratch = try ScratchDirectory()
    let path = "\(scratch.path)/played.raw"
    let playback = try ALSAPlayback.open(
      device: "file:FILE=\(path),FORMAT=raw", channels: 2, startFrames: 1)
    #expect(playback.channels == 2)
    #expect(try playback.write([100, -200, 300]) == 3)
    playback.close()
    let bytes = try FileSystem.readFile(path)
    let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
      Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
    }
    #expect(samples == [100, 100, -200, -200, 300, 300])
  }

  @Test func aMixerOfACardNoMachineHasIsAClearError() {
    let error = #expect(throws: ALSAError.self) { try ALSAMixer.open(card: "hw:99") }
    #expect(error?.kind == .noSuchDevice)
    #expect(
      error?.description
        == "cannot open mixer of 'hw:99': Invalid argument (EINVAL); hint: \(Self.listHint)")
  }
}

@Suite struct ALSALinkingTests {
  /// A clock without a speaker must not pay for libasound: the library is loaded with dlopen
  /// when a sound device is first opened, never linked (this test binary links HardwareKit as
  /// the daemon does).
  @Test func libasoundIsNotLinked() throws {
    let dynamic = try run("/usr/bin/readelf", ["--dynamic", "/proc/\(getpid())/exe"])
    #expect(dynamic.status == 0)
    #expect(dynamic.output.contains("(NEEDED)"))
    #expect(!dynamic.output.contains("libasound"))
  }
}
