// SPDX-License-Identifier: MIT
// `wodclockd --safe-outputs`, what the unit's ExecStopPost= runs after the daemon died: the real
// binary, with every output kind the catalog has. Devices this machine has (pseudo-terminals
// for serial controllers, a loopback UDP socket for DDP) must receive the safe state; devices
// it lacks (no GPIO chip, no i2c or spidev bus) must be reported by output and reason, exit 69.

import Configuration
import Glibc
import HardwareKit
import Testing
import WodclockDaemon
import WodclockTestSupport

@Suite struct SafeOutputsTests {
  /// For every output kind with a device: an entry whose device is missing (paths under DIR,
  /// the test's own directory). A kind the catalog gains fails `everyOutputKindIsCovered`
  /// until it is added here or to one of the lists below.
  static let unreachable: [String: String] = [
    "gpio-buzzer": "{type: gpio-buzzer, id: horn, line: 5, chip: DIR/gpiochip9}",
    "gpio-signal": "{type: gpio-signal, id: lamps, lines: {work: 6, rest: 7}, chip: DIR/gpiochip9}",
    "tm1637": "{type: tm1637, id: timer, chip: DIR/gpiochip9, clk: 20, dio: 21}",
    "shift-register":
      "{type: shift-register, id: big, chip: DIR/gpiochip9, data: 22, clock: 23, latch: 24}",
    "max7219": "{type: max7219, id: rounds, device: DIR/spidev9.0}",
    "ht16k33": "{type: ht16k33, id: backpack, bus: DIR/i2c-9}",
    "sparkfun-serial": "{type: sparkfun-serial, id: serial7, device: DIR/ttyS9}",
    "serial-matrix":
      "{type: serial-matrix, id: wall, device: DIR/ttyACM9, width: 8, height: 8, startup_delay: 0s}",
  ]
  /// Outputs with no device that could be left on (a speaker's stream ends with its process).
  static let withoutHardware = ["terminal", "log", "speaker"]
  /// UDP cannot tell a missing controller from a silent one: reached on loopback below.
  static let overTheNetwork = ["ddp-matrix"]

  private func safeOutputs(_ config: String, in daemon: DaemonHarness) throws -> (
    status: Int32, output: String, error: String
  ) {
    try daemon.writeConfig(config)
    return try run(
      binaryDirectory + "/wodclockd", ["--safe-outputs", "--config", daemon.configPath])
  }

  private func config(outputs: [String]) -> String {
    "presets:\n  amrap: {mode: amrap, time: 10m}\noutputs:\n"
      + outputs.map { "  - \($0)\n" }.joined()
  }

  @Test func everyOutputKindIsCovered() {
    let outputKinds = PluginCatalog.kinds.filter { $0.schema.direction == .output }
      .map(\.schema.kind)
    let covered = Set(Self.unreachable.keys).union(Self.withoutHardware).union(Self.overTheNetwork)
    #expect(Set(outputKinds) == covered)
  }

  @Test func everyUnreachableDeviceIsNamedWithItsOutputAndTheExitIs69() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let entries = Self.unreachable.keys.sorted().map {
      Self.unreachable[$0]!.replacing("DIR", with: daemon.directory)
    }
    let result = try safeOutputs(config(outputs: entries + ["{type: log}"]), in: daemon)
    #expect(result.status == 69, "\(result.output)\(result.error)")
    let ids = [
      "gpio-buzzer": "horn", "gpio-signal": "lamps", "tm1637": "timer", "shift-register": "big",
      "max7219": "rounds", "ht16k33": "backpack", "sparkfun-serial": "serial7",
      "serial-matrix": "wall",
    ]
    for (kind, id) in ids {
      let line = result.error.split(separator: "\n").first {
        $0.hasPrefix("wodclockd: output '\(id)' (\(kind)): cannot drive to its safe state: ")
      }
      #expect(line?.contains(daemon.directory + "/") == true, "\(kind): \(result.error)")
    }
    // Every output is tried, also after some failed.
    #expect(result.output.contains("wodclockd: output 'log' (log): nothing to secure\n"))
  }

  @Test(.timeLimit(.minutes(1)))
  func devicesThatAreThereGetTheirSafeState() throws {
    let matrix = try PseudoTerminal.open()
    defer { try? matrix.close() }
    let sevenSegment = try PseudoTerminal.open()
    defer { try? sevenSegment.close() }
    let ddp = try UDPSocket.bindLoopback()
    defer { ddp.close() }
    for terminal in [matrix, sevenSegment] { try terminal.primary.setNonBlocking() }
    let daemon = try DaemonHarness(config: testConfig)
    let result = try safeOutputs(
      config(outputs: [
        "{type: log}", "{type: terminal}",
        "{type: serial-matrix, id: wall, device: \(matrix.secondaryPath), width: 8, height: 4,"
          + " startup_delay: 0s}",
        "{type: ddp-matrix, id: wifi, host: 127.0.0.1, port: \(ddp.port), width: 8, height: 4}",
        "{type: sparkfun-serial, id: serial7, device: \(sevenSegment.secondaryPath)}",
      ]), in: daemon)
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        wodclockd: output 'log' (log): nothing to secure
        wodclockd: output 'terminal' (terminal): nothing to secure
        wodclockd: output 'wall' (serial-matrix): dark
        wodclockd: output 'wifi' (ddp-matrix): dark
        wodclockd: output 'serial7' (sparkfun-serial): blank, display off

        """)

    // The serial controller got one Adalight frame of 32 dark LEDs.
    var bytes: [UInt8] = []
    while case .bytes(let count) = try matrix.primary.read(appendingTo: &bytes), count > 0 {}
    #expect(decodeAdalight(bytes) == [UInt8](repeating: 0, count: 32 * 3), "\(bytes)")

    // The network controller got the dark frame in one DDP packet, pushed.
    let packet = try ddp.receive()
    #expect(packet.map { Array($0[10...]) } == [UInt8](repeating: 0, count: 32 * 3))
    #expect(packet?[0] == 0x41)

    // The SparkFun display was cleared (0x76) and every digit written blank, the last one too.
    bytes.removeAll()
    while case .bytes(let count) = try sevenSegment.primary.read(appendingTo: &bytes), count > 0 {}
    #expect(bytes.first == 0x76, "\(bytes)")
    #expect(bytes.last == 0x76, "\(bytes)")
  }

  // TIOCEXCL and file modes do not stop root: the refusal needs another user, which only root
  // can become (setpriv --reuid).
  @Test(.enabled(if: geteuid() == 0, "opening as user nobody needs root (setpriv --reuid)"))
  func aDeviceTheUserMayNotOpenIsReportedWithAHint() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    #expect(chmod(terminal.secondaryPath, 0o600) == 0)
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.writeConfig(
      config(outputs: ["{type: sparkfun-serial, id: serial7, device: \(terminal.secondaryPath)}"]))
    #expect(chmod(daemon.directory, 0o755) == 0)
    let result = try run(
      "/usr/bin/setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", binaryDirectory + "/wodclockd",
        "--safe-outputs", "--config", daemon.configPath,
      ])
    #expect(result.status == 69)
    #expect(
      result.error.contains(
        "wodclockd: output 'serial7' (sparkfun-serial): cannot drive to its safe state: "),
      "\(result.error)")
    #expect(result.error.contains("(EACCES)\nhint: "), "\(result.error)")
  }
}
