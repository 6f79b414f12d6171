// SPDX-License-Identifier: MIT
// `web-attacks`: how soon the real daemon answers a fresh device while slow or flooding clients
// attack its web interface (target: /api/status within 2 s). The attacks come from several
// loopback addresses at once, which `Tests/web/bench_attacks.py` makes with threads and bound
// sockets; this runs it on the wodclockd next to the bench and reports its figures. The tests
// check that a fresh device is answered, and what the web front decides, never how soon.

import Glibc
import HardwareKit

enum WebAttackBenchmark {
  /// The Python script that runs the attacks, from the source tree's root.
  static let script = "Tests/web/bench_attacks.py"
  /// The longest a fresh device may wait for /api/status during an attack.
  static let targetMilliseconds = 2_000.0

  static func run(_ options: BenchmarkOptions) throws {
    let python = "/usr/bin/python3"
    guard access(python, X_OK) == 0 else {
      throw BenchmarkUnavailable("web-attacks needs \(python) (apt install python3)")
    }
    try Interruption.check()
    let path = try WebBenchmark.findSourceFile(script)
    let daemon = try DaemonUnderTest.executablePath()
    guard let resolved = realpath(daemon, nil) else {
      throw BenchmarkError("cannot resolve the path of \(daemon)")
    }
    let executable = String(cString: resolved)
    free(resolved)
    // The script starts the wodclockd and wodclockctl of this directory (the web tests' way).
    let build = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)])
    let child = try Subprocess.spawn(
      executable: python, arguments: [path],
      environment: try DaemonUnderTest.environment(notifySocket: nil) + ["WODCLOCK_BUILD=" + build],
      standardInput: .nullDevice, standardOutput: .pipe, standardError: .inherit)
    defer { DaemonUnderTest.terminate(child) }
    let (bytes, status) = try DaemonUnderTest.output(of: child)
    guard status == .exited(0) else { throw BenchmarkError("\(script) \(status)") }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 3, let value = Double(fields[1]), fields[2] == "ms" else {
        throw BenchmarkError("\(script) printed a line that is no figure: \(line)")
      }
      let name = String(fields[0])
      // The 503 of a full server is no answer to the device: its figure has no target.
      let note =
        name.hasSuffix(".busy_max")
        ? nil
        : value <= targetMilliseconds
          ? "within \(Int(targetMilliseconds)) ms" : "OVER \(Int(targetMilliseconds)) ms"
      report(name, value, "ms", note: note)
    }
  }
}
