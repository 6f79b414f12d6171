// SPDX-License-Identifier: MIT
// `wodclockd --check-config` and a reload on files that used to trap, flood or mislead.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

/// `testConfig` with enough presets to make a 20 KB file, each line ended by `lineEnd`.
private func largeConfig(lineEnd: String, misspelt: Bool = false) -> String {
  var presets = ""
  var index = 0
  while presets.utf8.count < 20_000 {
    presets += "  p\(index):\n    mode: intervals\n    work: 40s\n    rest: 20s\n    rounds: 8\n"
    index += 1
  }
  if misspelt {
    presets += "  last:\n    mode: intervals\n    work: 40s\n    rounds: 8\n    rset: 5s\n"
  }
  let text = testConfig.replacingFirst("presets:\n", with: "presets:\n" + presets)
  return text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: lineEnd)
}

@Suite struct ConfigCheckLimitTests {
  private func check(_ config: String) throws -> (status: Int32, output: String, error: String) {
    let daemon = try DaemonHarness(config: config)
    return try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
  }

  @Test func aWorkoutLongerThanTheLimitIsAConfigErrorNotATrap() throws {
    let config = """
      presets:
        forever:
          mode: intervals
          work: 24h
          rest: 24h
          rounds: 999
          sets: 99
          set_rest: 24h
      """
    let checked = try check(config)
    #expect(checked.status == 78)
    #expect(
      checked.error.contains(
        "wodclock.yaml:2:3: error: preset 'forever' would last about 4747248 hours, longer "
          + "than the 48 hours a workout may last"))
    // Started with it, the daemon refuses the file instead of dying of the overflow.
    let daemon = try DaemonHarness(config: config)
    try daemon.start(waitForSocket: false)
    #expect(try daemon.waitForExit() == .exited(78))
  }

  @Test func aDurationPastWhatNanosecondsHoldIsOutOfRange() throws {
    let result = try check("presets:\n  a:\n    mode: amrap\n    time: 999999999h\n")
    #expect(result.status == 78)
    #expect(
      result.error.contains("wodclock.yaml:4:11: error: 'time' must be between 1s and 24h"))
  }

  /// `--check-config` with its diagnostics written to a file, whatever their size (a pipe read
  /// after standard output would stall a child with megabytes to say).
  private func checkIntoFile(_ config: String) throws -> (status: Int32, error: String) {
    let daemon = try DaemonHarness(config: config)
    let errorPath = daemon.directory + "/check.err"
    let errorFile = try FileDescriptor.open(errorPath, .writeOnly, options: [.create])
    defer { try? errorFile.close() }
    let child = try Subprocess.spawn(
      executable: binaryDirectory + "/wodclockd", arguments: ["--check-config", daemon.configPath],
      environment: ["PATH=/usr/bin:/bin"], standardInput: .nullDevice,
      standardOutput: .nullDevice, standardError: .fileDescriptor(errorFile))
    let status: Int32
    switch try child.wait() {
    case .exited(let code): status = code
    case .signaled: status = -1
    }
    return (status, try FileSystem.readTextFile(errorPath))
  }

  @Test func aFileWithOldMacLineEndingsReadsLikeAnyOther() throws {
    let good = try checkIntoFile(largeConfig(lineEnd: "\r"))
    #expect(good.status == 0, "\(good.error.prefix(2000))")
    #expect(good.error.isEmpty, "\(good.error.utf8.count) bytes of diagnostics")
    let broken = try checkIntoFile(largeConfig(lineEnd: "\r", misspelt: true))
    #expect(broken.status == 78)
    #expect(broken.error.contains("error: unknown key 'rset' in preset 'last'\n    rset: 5s\n"))
    #expect(broken.error.hasSuffix(": 1 error\n"))
    #expect(broken.error.utf8.count < 1_000, "\(broken.error.utf8.count) bytes")
  }

  @Test func aBrokenFileWithOldMacLineEndingsReloadsIntoOneLogLine() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    try daemon.writeConfig(largeConfig(lineEnd: "\r", misspelt: true))
    try daemon.signal(.hangup)
    #expect(eventually { daemon.log.contains("unknown key 'rset' in preset 'last'") })
    #expect(daemon.log.utf8.count < 8_000, "\(daemon.log.utf8.count) bytes of log")
    #expect(try daemon.status()["preset"]?.stringValue == "emom")
  }

  @Test func bytesThatAreNotUTF8AreAnErrorAtTheirPlace() throws {
    let daemon = try DaemonHarness(config: "")
    let latin1 =
      Array("presets:\n  a:\n    mode: amrap\n    time: 1m\n    label: caf".utf8) + [0xE9]
    try FileSystem.writeFileAtomically(daemon.configPath, latin1 + [0x0A])
    let result = try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
    #expect(result.status == 78)
    #expect(result.error.contains("wodclock.yaml:5:15: error: byte 0xE9 is not valid UTF-8"))
    #expect(result.error.contains("hint: the file must be saved as UTF-8"))
  }

  @Test func noDiagnosticSendsTheTerminalAnEscapeSequence() throws {
    let daemon = try DaemonHarness(config: "")
    let text =
      "presets:\n  a:\n    mode: amrap\n    time: 1m\n    label: x\u{1B}]0;owned\u{7}\n"
      + "  b:\n    mode: amrap\n    time: 1m\n    label: \"\\e[2J\"\n"
    try daemon.writeConfig(text)
    let result = try runCapturingBytes(
      binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
    #expect(result.status == 78)
    #expect(!result.error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(result.error.contains("    label: x<U+001B>]0;owned<U+0007>\n"))
    #expect(result.error.contains("error: 'label' contains the control character U+001B"))
  }

  @Test func aFailedReloadSaysWhyWithoutRawControlCharacters() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    try daemon.writeConfig("\"\\e[2J\": 1\n" + testConfig)
    let reply = try daemon.request(["cmd": "reload"])
    #expect(reply["ok"] == false)
    let message = reply["error"]?["message"]?.stringValue ?? ""
    #expect(message.hasSuffix("wodclock.yaml:1:1: unknown section '<U+001B>[2J'"), "\(message)")
    #expect(!message.unicodeScalars.contains("\u{1B}"))
    #expect(!daemon.log.unicodeScalars.contains("\u{1B}"))
  }

  @Test func aSyntaxErrorAndASchemaErrorAreReportedTogether() throws {
    let result = try check("presets:\n  a:\n  \tmode: amrap\n  b:\n    mode: amarp\n")
    #expect(result.status == 78)
    #expect(result.error.contains("wodclock.yaml:3:3: error: tabs are not allowed in indentation"))
    #expect(result.error.contains("wodclock.yaml:5:11: error: unknown mode 'amarp' in preset 'b'"))
    #expect(result.error.hasSuffix(": 2 errors\n"))
  }

  @Test func theSocketGroupMustExistOnThisSystem() throws {
    let missing = try check(
      "daemon:\n  socket_group: no-such-group-wodclock\n" + testConfig)
    #expect(missing.status == 78)
    #expect(
      missing.error.contains(
        "wodclock.yaml:2:17: error: no group named 'no-such-group-wodclock' on this system"))
    #expect(missing.error.contains("hint: create it ('groupadd --system no-such-group-wodclock')"))
    // Every system has a root group.
    let root = try check("daemon:\n  socket_group: root\n" + testConfig)
    #expect(root.status == 0, "\(root.error)")
  }
}
