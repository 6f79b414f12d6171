// SPDX-License-Identifier: MIT
// A matrix output's `font:` with the real binaries: `wodclockd --check-config` reads the BDF
// file and reports what is wrong with it at the `font:` key (exit 78 for errors); the daemon
// draws the words in the font, `wodclockctl snapshot` shows exactly the renderer's picture in
// it, and a SIGHUP picks up a replaced font file although the config did not change.

import Configuration
import DisplayKit
import Glibc
import HardwareKit
import MatrixKit
import PNGDecoding
import Testing
import WorkoutCore

@testable import WodclockDaemon

@Suite struct MatrixFontTests {
  /// The hand-drawn 8-row font of the matrix tests.
  static let fixtureFont: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)  // DaemonTests/MatrixFontTests.swift
    let path = parts.joined(separator: "/") + "/MatrixKitTests/Fixtures/caps-8.bdf"
    return (try? FileSystem.readTextFile(path)) ?? ""
  }()

  /// The test config with a 64x32 matrix on `device` drawing in `font`, idle on the loaded
  /// preset (a still picture), its wire bytes its pixels.
  static func config(device: String, font: String, width: Int = 64, height: Int = 32) -> String {
    testConfig + """

        - type: serial-matrix
          id: wall
          device: \(device)
          baud: 1000000
          width: \(width)
          height: \(height)
          startup_delay: 0s
          font: \(font)
      clock:
        idle: preset
      """
  }

  func writeFont(_ text: String, in daemon: DaemonHarness, as name: String) throws {
    try FileSystem.makeDirectories(daemon.directory + "/fonts")
    try FileSystem.writeFileAtomically(daemon.directory + "/fonts/" + name, text: text)
  }

  func check(_ daemon: DaemonHarness) throws -> (status: Int32, output: String, error: String) {
    try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
  }

  @Test func theConfigCheckReadsTheFontBesideTheConfigFile() throws {
    #expect(Self.fixtureFont.hasPrefix("STARTFONT 2.1"))
    let daemon = try DaemonHarness(config: Self.config(device: "/dev/null", font: "fonts/caps.bdf"))
    let fontPath = daemon.directory + "/fonts/caps.bdf"
    // The config names the font relative to its own directory; the check runs elsewhere.
    let missing = try check(daemon)
    #expect(missing.status == 78)
    #expect(
      missing.error.contains(
        "wodclock.yaml:21:11: error: cannot read the font '\(fontPath)': no such file or "
          + "directory (ENOENT)"), "\(missing.error)")
    #expect(missing.error.contains("    font: fonts/caps.bdf\n          ^~~~~~~~~~~~~~\n"))
    #expect(
      missing.error.contains("hint: a relative path is read from the config file's directory"))

    try writeFont(Self.fixtureFont, in: daemon, as: "caps.bdf")
    let good = try check(daemon)
    #expect(good.status == 0, "\(good.error)")
    #expect(good.output.hasPrefix("ok: "))
    #expect(good.error.isEmpty, "\(good.error)")
    // The same file by its absolute path.
    try daemon.writeConfig(Self.config(device: "/dev/null", font: fontPath))
    #expect(try check(daemon).status == 0)

    // A glyph one bitmap row short: the file and line of the BITMAP, what is wrong, a hint.
    var lines = Self.fixtureFont.split(separator: "\n", omittingEmptySubsequences: false)
    let bitmap = try #require(
      lines.indices.first { lines[$0] == "BITMAP" && lines[$0 - 1] == "BBX 5 7 0 0" })
    lines.remove(at: bitmap + 3)
    try writeFont(lines.joined(separator: "\n"), in: daemon, as: "caps.bdf")
    let broken = try check(daemon)
    #expect(broken.status == 78)
    #expect(
      broken.error.contains(
        "error: not a usable BDF font: \(fontPath):\(bitmap + 1): BITMAP has 6 rows, BBX says 7"),
      "\(broken.error)")
    #expect(broken.error.contains("hint: glyph '"))
  }

  @Test func aFontWithoutDigitsIsRefusedAndATallOneWarned() throws {
    let daemon = try DaemonHarness(config: Self.config(device: "/dev/null", font: "fonts/f.bdf"))
    // Letters only: the counters could not be drawn.
    let letters = Self.fixtureFont.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    var withoutDigits: [String] = []
    var skipping = false
    for line in letters {
      if line.hasPrefix("ENCODING "), let code = Int(line.dropFirst(9)), (48...57).contains(code) {
        skipping = true
        withoutDigits.removeLast()  // its STARTCHAR
      }
      if !skipping { withoutDigits.append(line) }
      if line == "ENDCHAR" { skipping = false }
    }
    try writeFont(withoutDigits.joined(separator: "\n"), in: daemon, as: "f.bdf")
    let noDigits = try check(daemon)
    #expect(noDigits.status == 78)
    #expect(
      noDigits.error.contains(
        "error: the font 'fonts/f.bdf' has no glyph for '0', '1', '2', '3', '4', '5', '6', '7', "
          + "'8' and '9'"), "\(noDigits.error)")

    // 8 rows on a 32x16 panel: the digits would get 6; the built-in font is used, with a warning.
    try writeFont(Self.fixtureFont, in: daemon, as: "f.bdf")
    try daemon.writeConfig(
      Self.config(device: "/dev/null", font: "fonts/f.bdf", width: 32, height: 16))
    let tall = try check(daemon)
    #expect(tall.status == 0)
    #expect(
      tall.error.contains(
        "warning: the font's lines are 8 rows tall, which leaves the digits of a 32x16 panel "
          + "too little room: the built-in 5-row font is used"), "\(tall.error)")
    #expect(tall.error.contains("hint: a font of at most 6 rows fits this panel"))
  }

  /// The renderer's picture of the idle preset on a `width`×`height` matrix in `font`.
  func expected(_ daemon: DaemonHarness, width: Int, height: Int, font: CaptionFont) throws
    -> [UInt8]
  {
    guard
      case .success(let loaded) = ConfigurationFile.load(
        path: daemon.configPath, plugins: PluginCatalog.schemas)
    else { throw HarnessError("the test config does not load") }
    let plan = try #require(loaded.configuration.presets.first { $0.name == "emom" }).plan
    let idle = try WorkoutEngine(plan: plan).snapshot(at: EngineInstant(nanoseconds: 0))
    return MatrixRenderer(width: width, height: height, font: font).render(
      idle, timeOfDay: TimeOfDay(hour: 12, minute: 0), milliseconds: 0
    ).rgbBytes
  }

  func snapshot(_ daemon: DaemonHarness, _ arguments: [String] = []) throws -> [UInt8]? {
    let file = daemon.directory + "/snapshot.png"
    guard try daemon.ctl(["snapshot", "--png", file] + arguments).status == 0 else { return nil }
    return try PNGDecoder.decode(try FileSystem.readFile(file)).rgb
  }

  @Test(.timeLimit(.minutes(1)))
  func theMatrixDrawsInItsFontAndAReloadReadsAReplacedFile() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    let daemon = try DaemonHarness(
      config: Self.config(device: terminal.secondaryPath, font: "fonts/caps.bdf"))
    try writeFont(Self.fixtureFont, in: daemon, as: "caps.bdf")
    try daemon.start()
    let font = try CaptionFont(bdf: Self.fixtureFont)
    let inFont = try expected(daemon, width: 64, height: 32, font: font)
    let builtIn = try expected(daemon, width: 64, height: 32, font: .small)
    #expect(inFont != builtIn, "the idle picture shows no text")

    var shown: [UInt8]?
    #expect(
      try eventually {
        shown = try snapshot(daemon)
        return shown != nil
      })
    #expect(shown == inFont, "log:\n\(daemon.log)")
    // A preview at another size is drawn in the matrix's font too.
    #expect(
      try snapshot(daemon, ["--size", "128x64"])
        == expected(daemon, width: 128, height: 64, font: font))

    // The file replaced (wider letter spacing), the config untouched: a reload reads it.
    let wider = Self.fixtureFont.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0 == "DWIDTH 6 0" ? "DWIDTH 7 0" : String($0) }
      .joined(separator: "\n")
    try writeFont(wider, in: daemon, as: "caps.bdf")
    let widerFont = try CaptionFont(bdf: wider)
    let inWiderFont = try expected(daemon, width: 64, height: 32, font: widerFont)
    #expect(inWiderFont != inFont)
    try daemon.signal(.hangup)
    #expect(
      try eventually { try snapshot(daemon) == inWiderFont }, "log:\n\(daemon.log)")
    #expect(daemon.log.contains("output re-read its files"))
    // Read again without a change: nothing to say.
    try daemon.signal(.hangup)
    #expect(eventually { daemon.log.components("reloaded") == 2 })
    #expect(daemon.log.components("output re-read its files") == 1)
  }
}

extension String {
  /// How many times `word` occurs.
  fileprivate func components(_ word: String) -> Int {
    var count = 0
    var rest = self[...]
    while let range = rest.firstRange(of: word) {
      count += 1
      rest = rest[range.upperBound...]
    }
    return count
  }
}
