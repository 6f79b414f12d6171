// SPDX-License-Identifier: MIT
// `wodclockctl snapshot` against the real daemon: the PNG of a serial matrix on a
// pseudo-terminal holds exactly the pixels the controller received; without a matrix it is the
// renderer's picture of the loaded preset; the command line's mistakes are reported before the
// daemon is asked, with sysexits statuses.

import Configuration
import DisplayKit
import Glibc
import HardwareKit
import JSONKit
import MatrixKit
import PNGDecoding
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

@Suite struct SnapshotTests {
  static let black: [UInt8] = [0, 0, 0]

  /// A 32×16 matrix whose wire bytes are its pixels: gamma 1, no current cap, full brightness
  /// by night too, progressive wiring from the top-left corner.
  func matrixConfig(device: String) -> String {
    testConfig + """

        - type: serial-matrix
          id: wall
          device: \(device)
          baud: 1000000
          width: 32
          height: 16
          gamma: "1"
          max_current_ma: 0
          startup_delay: 0s
      tokens:
        brightness:
          night: 100%
      """
  }

  @Test(.timeLimit(.minutes(1)))
  func thePNGHoldsThePixelsTheMatrixWasSent() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let daemon = try DaemonHarness(config: matrixConfig(device: terminal.secondaryPath))
    try daemon.start()
    let length = 6 + 32 * 16 * 3
    var bytes: [UInt8] = []
    func frames() throws -> [[UInt8]] {
      while case .bytes(let count) = try terminal.primary.read(appendingTo: &bytes), count > 0 {}
      return stride(from: 0, to: bytes.count - bytes.count % length, by: length).compactMap {
        decodeAdalight(Array(bytes[$0..<($0 + length)]))
      }
    }
    #expect(try daemon.ctl(["start"]).status == 0)
    #expect(try eventually { try frames().count >= 2 }, "log:\n\(daemon.log)")
    // A finished workout is a still picture (no blink, no clock): the last frame sent stays
    // what the matrix shows, apart from keep-alives of the same frame.
    #expect(try daemon.ctl(["finish"]).status == 0)
    let sentBeforeFinish = try frames().count
    #expect(try eventually { try frames().count > sentBeforeFinish })
    pause(milliseconds: 100)
    let shown = try #require(try frames().last)
    #expect(shown.contains { $0 != 0 })

    let file = daemon.directory + "/wall.png"
    let result = try daemon.ctl(["snapshot", "--png", file])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "\(file): LED matrix 'wall', 32x16 LEDs, 32x16 pixels\n")
    let picture = try PNGDecoder.decode(try FileSystem.readFile(file))
    #expect(picture.width == 32 && picture.height == 16)
    #expect(picture.rgb == shown)
    #expect(try frames().last == shown, "the picture changed during the test")

    // Named, enlarged, to a path relative to the client's directory: each LED a dot whose
    // middle has the LED's colour, with a dark gap on its right and below.
    let scaled = try run(
      "/bin/sh",
      [
        "-c",
        "cd \"$1\" && exec \"$2\" --socket \"$3\" snapshot --output wall --scale 4 --png dots.png",
        "sh", daemon.directory, binaryDirectory + "/wodclockctl", daemon.socketPath,
      ])
    #expect(scaled.status == 0, "\(scaled.error)")
    let dots = try PNGDecoder.decode(try FileSystem.readFile(daemon.directory + "/dots.png"))
    #expect(dots.width == 128 && dots.height == 64)
    for y in 0..<16 {
      for x in 0..<32 {
        let led = Array(shown[((y * 32 + x) * 3)..<((y * 32 + x) * 3 + 3)])
        #expect(dots.pixel(x: x * 4 + 1, y: y * 4 + 1) == led, "LED \(x),\(y)")
        #expect(dots.pixel(x: x * 4 + 3, y: y * 4 + 3) == Self.black, "gap of LED \(x),\(y)")
      }
    }

    // --size renders a preview although a matrix is configured.
    let preview = try daemon.ctl(["snapshot", "--size", "64x32", "--png", file])
    #expect(preview.status == 0, "\(preview.error)")
    #expect(preview.output.contains("a preview, 64x32 LEDs"))
    let previewPicture = try PNGDecoder.decode(try FileSystem.readFile(file))
    #expect(previewPicture.width == 64 && previewPicture.height == 32)

    // The wrong output: what exists is listed.
    let unknown = try daemon.ctl(["snapshot", "--output", "door", "--png", file])
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("no output 'door'; LED-matrix outputs: wall"))
    let notAMatrix = try daemon.ctl(["snapshot", "--output", "log", "--png", file])
    #expect(notAMatrix.status == 1)
    #expect(
      notAMatrix.error.contains(
        "output 'log' is a log output, not an LED matrix; LED-matrix outputs: wall"))
  }

  @Test(.timeLimit(.minutes(1)))
  func aMatrixThatWentAwayGivesTheLastPictureItGotWithAWarning() throws {
    var terminal: PseudoTerminal? = try PseudoTerminal.open()
    defer { try? terminal?.close() }
    try terminal?.primary.setNonBlocking()
    // Named through a link, like /dev/serial/by-id/…, that goes with the device: retries after
    // the unplug must not open a pty that another test got under the freed number.
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "wodclock-snapshot-")
    let link = directory + "/by-id"
    defer {
      _ = unlink(link)
      try? FileSystem.removeDirectory(directory)
    }
    _ = symlink(try #require(terminal).secondaryPath, link)
    let daemon = try DaemonHarness(config: matrixConfig(device: link))
    try daemon.start()
    // A finished workout: a still picture, resent as keep-alives.
    #expect(try daemon.ctl(["start"]).status == 0)
    #expect(try daemon.ctl(["finish"]).status == 0)
    var bytes: [UInt8] = []
    func frames() throws -> [[UInt8]] {
      try adalightFrames(try #require(terminal), &bytes, ledCount: 32 * 16)
    }
    let before = try frames().count
    #expect(try eventually { try frames().count > before + 1 }, "log:\n\(daemon.log)")
    let got = try #require(try frames().last)
    let file = daemon.directory + "/wall.png"
    let connected = try daemon.ctl(["snapshot", "--png", file])
    #expect(connected.status == 0, "\(connected.error)")
    #expect(!connected.error.contains("warning"))
    #expect(try PNGDecoder.decode(try FileSystem.readFile(file)).rgb == got)
    // Unplugged, and at once the picture changes: the send of the idle screen fails (or a
    // keep-alive before it), and the snapshot stays the picture that reached the controller.
    try terminal?.close()
    terminal = nil
    _ = unlink(link)
    #expect(try daemon.ctl(["reset"]).status == 0)
    var away = connected
    let warned = try eventually {
      away = try daemon.ctl(["snapshot", "--png", file])
      return away.error.contains("warning: LED matrix 'wall' is not connected")
    }
    #expect(warned, "\(away.error); log:\n\(daemon.log)")
    #expect(away.status == 0)
    #expect(away.error.contains("this is the last picture it was sent before it went away"))
    let picture = try PNGDecoder.decode(try FileSystem.readFile(file))
    #expect(picture.width == 32 && picture.height == 16)
    #expect(picture.rgb == got, "not the last picture the controller got")
  }

  @Test(.timeLimit(.minutes(1)))
  func aMatrixThatNeverAppearedHasNoPicture() throws {
    let daemon = try DaemonHarness(config: matrixConfig(device: "/dev/wodclock-test-absent"))
    try daemon.start()
    let result = try daemon.ctl(["snapshot", "--png", daemon.directory + "/wall.png"])
    #expect(result.status == 1)
    #expect(result.error.contains("LED matrix 'wall' has not been sent a picture yet"))
    #expect(!FileSystem.fileExists(daemon.directory + "/wall.png"))
    // A preview needs no matrix.
    let preview = try daemon.ctl(["snapshot", "--size", "32x16", "--png", "-"])
    #expect(preview.status == 0)
  }

  /// The idle screen of the loaded preset (not the time of day), so the picture is still.
  static let previewConfig =
    testConfig + """

      clock:
        idle: preset
      """

  @Test(.timeLimit(.minutes(1)))
  func withoutAMatrixTheSnapshotIsThePictureOfThePreset() throws {
    let daemon = try DaemonHarness(config: Self.previewConfig)
    try daemon.start()
    guard
      case .success(let loaded) = ConfigurationFile.load(
        path: daemon.configPath, plugins: PluginCatalog.schemas)
    else {
      Issue.record("the test config does not load")
      return
    }
    let plan = try #require(loaded.configuration.presets.first { $0.name == "emom" }).plan
    let idle = try WorkoutEngine(plan: plan).snapshot(at: EngineInstant(nanoseconds: 0))
    for (size, note) in [
      ("64x32", "a preview (no LED-matrix output is configured), 64x32 LEDs, 64x32 pixels"),
      ("128x64", "a preview, 128x64 LEDs, 128x64 pixels"),
    ] {
      let sides = size.split(separator: "x").compactMap { Int($0) }
      let expected = MatrixRenderer(width: sides[0], height: sides[1]).render(
        idle, timeOfDay: TimeOfDay(hour: 12, minute: 0), milliseconds: 0)
      let file = daemon.directory + "/preview-\(size).png"
      // The default size is 64x32: the first run names none.
      let arguments = size == "64x32" ? [] : ["--size", size]
      let result = try daemon.ctl(["snapshot", "--png", file] + arguments)
      #expect(result.status == 0, "\(result.error)")
      #expect(result.output == "\(file): \(note)\n")
      let picture = try PNGDecoder.decode(try FileSystem.readFile(file))
      #expect(picture.width == sides[0] && picture.height == sides[1])
      #expect(picture.rgb == expected.rgbBytes, "\(size)")
    }
    // To standard output, byte for byte the PNG the file got.
    let piped = try runCapturingBytes(
      binaryDirectory + "/wodclockctl", ["--socket", daemon.socketPath, "snapshot", "--png", "-"])
    #expect(piped.status == 0, "\(piped.error)")
    #expect(piped.output == (try FileSystem.readFile(daemon.directory + "/preview-64x32.png")))
    // No matrix output to name.
    let named = try daemon.ctl(["snapshot", "--output", "wall", "--png", "x.png"])
    #expect(named.status == 1)
    #expect(named.error.contains("no output 'wall'; no LED-matrix output is configured"))

    // The protocol itself, as another program would speak it.
    let reply = try daemon.request(["cmd": "snapshot", "id": 3, "width": 5, "height": 2])
    #expect(reply["ok"] == true && reply["id"] == 3 && reply["preview"] == true)
    #expect(reply["output"] == .null && reply["width"] == 5 && reply["height"] == 2)
    let rgb = try #require(reply["rgb_base64"]?.stringValue.flatMap(Base64.decode))
    #expect(rgb.count == 5 * 2 * 3)
    for (request, code) in [
      (["cmd": "snapshot", "width": 64] as JSONValue, "bad_request"),
      (["cmd": "snapshot", "width": 64, "height": 0], "bad_request"),
      (["cmd": "snapshot", "width": 64.5, "height": 32], "bad_request"),
      (["cmd": "snapshot", "width": 1024, "height": 1024], "too_large"),
      (["cmd": "snapshot", "output": "wall", "width": 64, "height": 32], "bad_request"),
      (["cmd": "snapshot", "output": 7], "bad_request"),
      (["cmd": "snapshot", "output": "wall"], "unknown_output"),
    ] {
      let refused = try daemon.request(request)
      #expect(refused["ok"] == false)
      #expect(refused["error"]?["code"]?.stringValue == code, "\(request)")
    }
  }

  @Test func commandLineMistakesExit64BeforeTheDaemonIsAsked() throws {
    // No daemon runs: each mistake is found on the command line alone.
    let daemon = try DaemonHarness(config: testConfig)
    let cases: [([String], String)] = [
      (["--size", "64by32"], "bad --size '64by32': expected WIDTHxHEIGHT in LEDs, e.g. 64x32"),
      (["--size", "0x32"], "bad --size '0x32': each side is 1 to 1024 LEDs"),
      (["--size", "1024x1024"], "1048576 LEDs; a snapshot carries 131072 at most"),
      (["--scale", "0"], "bad --scale '0': expected a whole number from 1 to 32"),
      (["--scale", "big"], "bad --scale 'big'"),
      (["--sclae", "8"], "unknown option '--sclae'; did you mean '--scale'?"),
      (["--output", "wall", "--size", "64x32"], "--output and --size exclude each other"),
      (["--png", "a.png", "--png", "b.png"], "--png is given twice"),
      (["--output"], "--output needs a value"),
      (["--output", "--scale", "2"], "--output needs a value"),
      (["wall.png"], "unexpected 'wall.png' (options come as --NAME VALUE)"),
    ]
    for (arguments, message) in cases {
      let needsFile = !arguments.contains("--png")
      let result = try daemon.ctl(["snapshot"] + arguments + (needsFile ? ["--png", "x.png"] : []))
      #expect(result.status == 64, "\(arguments)")
      #expect(result.error.contains(message), "\(arguments): \(result.error)")
      #expect(result.error.contains("usage: wodclockctl snapshot --png FILE"))
    }
    let missing = try daemon.ctl(["snapshot"])
    #expect(missing.status == 64)
    #expect(missing.error.contains("'snapshot' needs --png FILE (- writes to standard output)"))
    // A well-formed command without a daemon: unavailable.
    let unreachable = try daemon.ctl(["snapshot", "--png", "x.png"])
    #expect(unreachable.status == 69)
    #expect(unreachable.error.contains("not running"))
  }

  @Test func aPNGIsNotWrittenToATerminal() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    let child = try Subprocess.spawn(
      executable: binaryDirectory + "/wodclockctl",
      arguments: ["--socket", daemon.socketPath, "snapshot", "--png", "-"],
      environment: ["PATH=/usr/bin:/bin"], standardInput: .nullDevice,
      standardOutput: .fileDescriptor(terminal.secondary), standardError: .pipe)
    var error: [UInt8] = []
    if let pipe = child.standardError {
      while case .bytes = try pipe.read(appendingTo: &error, maximumCount: 4096) {}
      try pipe.close()
    }
    #expect(try child.wait() == .exited(64))
    #expect(String(decoding: error, as: UTF8.self).contains("not writing a PNG to a terminal"))
  }

  @Test(.timeLimit(.minutes(1)))
  func aFileThatCannotBeWrittenExits73WithAHint() throws {
    let daemon = try DaemonHarness(config: Self.previewConfig)
    try daemon.start()
    let missing = daemon.directory + "/no-such-directory/wall.png"
    let result = try daemon.ctl(["snapshot", "--png", missing])
    #expect(result.status == 73)
    #expect(result.error.contains("cannot write '\(missing)': No such file or directory (ENOENT)"))
    #expect(
      result.error.contains(
        "hint: the directory '\(daemon.directory)/no-such-directory' does not exist"))
    let directory = try daemon.ctl(["snapshot", "--png", daemon.directory])
    #expect(directory.status == 73)
    #expect(directory.error.contains("cannot write '\(daemon.directory)': it is a directory"))
    #expect(!FileSystem.fileExists(missing))
  }
}
