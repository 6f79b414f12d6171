// SPDX-License-Identifier: MIT
// wodclockd's command line: --check-config, --print-config, usage errors, missing files.

import HardwareKit
import Testing
import WodclockTestSupport

@Suite struct CommandLineTests {
  private var repositoryRoot: String {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }

  private func wodclockd(_ arguments: [String]) throws -> (
    status: Int32, output: String, error: String
  ) {
    try run(binaryDirectory + "/wodclockd", arguments)
  }

  @Test(arguments: [
    "Config/wodclock.yaml", "Config/examples/demo.yaml", "Config/examples/garage.yaml",
    "Config/examples/box-gym.yaml", "Config/examples/tm1637.yaml", "Config/examples/max7219.yaml",
    "Config/examples/shift-register.yaml", "Config/examples/ht16k33.yaml",
    "Config/examples/sparkfun-serial.yaml", "Config/examples/clicker.yaml",
    "Config/examples/keypad.yaml", "Config/examples/matrix.yaml",
  ])
  func shippedConfigsPassTheCheck(_ path: String) throws {
    let result = try wodclockd(["--check-config", repositoryRoot + "/" + path])
    // The check looks the socket's group up, and `make install` creates it: a machine it has
    // not run on gets that one error and no other.
    if path == "Config/wodclock.yaml", (try? UnixListener.groupID(named: "wodclock")) == nil {
      #expect(result.status == 78)
      #expect(result.error.contains("error: no group named 'wodclock' on this system"))
      #expect(result.error.hasSuffix("wodclock.yaml: 1 error\n"), "\(result.error)")
      return
    }
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.hasPrefix("ok: "))
  }

  /// The resolver's child, as the daemon runs it: an address a line, or why there is none.
  @Test func resolveAnswersWithTheAddressesOfAName() throws {
    let found = try wodclockd(["--resolve", "localhost"])
    #expect(found.status == 0, "\(found.error)")
    #expect(found.output.split(separator: "\n").contains("address 127.0.0.1"), "\(found.output)")
    let missing = try wodclockd(["--resolve", "wled.invalid"])
    #expect(missing.status == 0)
    #expect(missing.output.hasPrefix("error EAI_"), "\(missing.output)")
    // Not an option for people: no config is read, and it takes exactly one name.
    let usage = try wodclockd(["--resolve"])
    #expect(usage.status == 64)
    #expect(usage.error.contains("'--resolve' takes one host name"))
    #expect(!(try wodclockd(["--help"]).output.contains("--resolve")))
  }

  @Test func aBrokenConfigExits78WithCompilerStyleDiagnostics() throws {
    let daemon = try DaemonHarness(config: testConfig.replacingFirst("rounds: 6", with: "rouds: 6"))
    let result = try wodclockd(["--check-config", daemon.configPath])
    #expect(result.status == 78)
    #expect(result.error.contains("wodclock.yaml:8:5: error: unknown key 'rouds' in preset 'emom'"))
    #expect(result.error.contains("    rouds: 6\n    ^~~~~\n"))
    #expect(result.error.contains("hint: did you mean 'rounds'?"))
  }

  @Test func printConfigIsItselfAValidConfig() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let printed = try wodclockd(["--print-config", daemon.configPath])
    #expect(printed.status == 0)
    #expect(printed.output.contains("count_in: 0s"))
    try daemon.writeConfig(printed.output)
    let again = try wodclockd(["--print-config", daemon.configPath])
    #expect(again.output == printed.output)
    #expect(try wodclockd(["--check-config", daemon.configPath]).status == 0)
  }

  @Test func usageErrorsExit64() throws {
    let unknown = try wodclockd(["--confg", "x"])
    #expect(unknown.status == 64)
    #expect(unknown.error.contains("unknown option '--confg'; did you mean '--config'?"))
    let speed = try wodclockd(["--speed", "0"])
    #expect(speed.status == 64)
    #expect(speed.error.contains("'--speed' takes a whole number from 1 to 1000"))
  }

  @Test func aMissingConfigFileSaysHowToStart() throws {
    let result = try wodclockd(["--config", "/nonexistent/wodclock.yaml"])
    #expect(result.status == 78)
    #expect(
      result.error.contains("cannot read the configuration: no such file or directory (ENOENT)"))
    #expect(result.error.contains("hint: copy the annotated default"))
  }

  /// VERSION is the one place of the version: both binaries report it, and the newest entry of
  /// CHANGELOG.md names it (the Debian package's version is checked by Tests/package/run.sh).
  @Test func theBinariesAndTheChangelogAgreeWithTheVersionFile() throws {
    let version = try FileSystem.readTextFile(repositoryRoot + "/VERSION")
      .split(separator: "\n").first.map(String.init)
    #expect(version?.isEmpty == false)
    let daemon = try wodclockd(["--version"])
    #expect(daemon.status == 0)
    #expect(daemon.output == "wodclockd \(version ?? "")\n")
    let client = try run(binaryDirectory + "/wodclockctl", ["--version"])
    #expect(client.status == 0)
    #expect(client.output == "wodclockctl \(version ?? "")\n")
    let changelog = try FileSystem.readTextFile(repositoryRoot + "/CHANGELOG.md")
    let released = changelog.split(separator: "\n").first {
      $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
    }
    #expect(released?.hasPrefix("## [\(version ?? "")] - ") == true)
  }
}

@Suite struct ControlReferenceTests {
  @Test func aButtonNamingAnUndefinedControlIsAConfigError() throws {
    let daemon = try DaemonHarness(
      config: testConfig + """

        inputs:
          - type: gpio-button
            buttons:
              - {line: GPIO17, control: strat}
        """)
    let result = try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
    #expect(result.status == 78)
    #expect(
      result.error.contains(
        "error: input 'gpio-button' uses control 'strat', which 'controls' does not define"))
    #expect(result.error.contains("hint: did you mean 'start'?"))
  }
}

@Suite struct ConfigWarningTests {
  @Test func checkConfigShowsWarningsAndStillSaysOk() throws {
    let daemon = try DaemonHarness(
      config: "presets:\n  t:\n    mode: tabata\n    work: 10s\n    rest: 20s\n")
    let result = try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("ok: "))
    #expect(result.error.contains("warning: rest (20s) is longer than work (10s) in tabata 't'"))
    #expect(result.error.contains("hint: check that 'work' and 'rest' are not swapped"))
  }
}
