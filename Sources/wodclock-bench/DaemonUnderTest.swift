// SPDX-License-Identifier: MIT
// One `wodclockd` started by a benchmark: spawned beside the bench binary in a scratch
// directory, ready when it says READY=1 as under systemd, driven through its control socket.

import Glibc
import HardwareKit
import JSONKit
import WodclockTestSupport

final class DaemonUnderTest {
  let process: Subprocess
  let socketPath: String
  /// Nanoseconds from just before the spawn to the arrival of READY=1.
  let readyAfter: Int64
  /// Where its standard error goes when it was started with `keepsLog`; nil otherwise.
  let logPath: String?
  private var stopped = false

  /// Writes `configuration` to `<name>.yaml` in `scratch`, starts the daemon on it and waits
  /// until it is ready. A daemon that exits or stays silent is stopped and the error says why.
  /// - Parameter keepsLog: its log lines go to `<name>.log` in `scratch` (``logPath``) rather
  ///   than nowhere, for a benchmark that must read what the daemon says (the web interface's
  ///   port); a file, not a pipe, so an unread log never holds the daemon up.
  init(
    configuration: String, in scratch: ScratchDirectory, name: String = "wodclockd",
    speed: Int = 1, readyTimeoutMilliseconds: Int = 10_000, keepsLog: Bool = false
  ) throws {
    let executable = try Self.executablePath()
    let configPath = scratch.file("\(name).yaml")
    try FileSystem.writeFileAtomically(configPath, text: configuration)
    socketPath = scratch.file("\(name).sock")
    let arguments = [
      "--config", configPath, "--socket", socketPath, "--state-dir", scratch.file("\(name)-state"),
      "--speed", String(speed),
    ]
    let notify = try DatagramSocket(boundTo: scratch.file("\(name).notify"))
    defer { notify.close() }
    let environment = try Self.environment(notifySocket: notify.path)

    // Its log lines go nowhere unless asked for: the figures are the daemon's work, not a
    // terminal's or a pipe's.
    logPath = keepsLog ? scratch.file("\(name).log") : nil
    let log = try logPath.map {
      try FileDescriptor.open($0, .writeOnly, options: [.create, .append])
    }
    defer { try? log?.close() }

    let spawned = MonotonicClock.now()
    let child = try Subprocess.spawn(
      executable: executable, arguments: arguments, environment: environment,
      standardInput: .nullDevice, standardOutput: .nullDevice,
      standardError: log.map { .fileDescriptor($0) } ?? .nullDevice)
    do {
      let ready = try Self.waitForReady(
        notify, child, timeoutMilliseconds: readyTimeoutMilliseconds)
      readyAfter = ready - spawned
      process = child
    } catch let failure as StartFailure {
      Self.terminate(child)
      // The scratch directory is gone by the time this is read, so its paths are not shown.
      var message = "\(executable) did not start: \(failure.reason)"
      let said = Self.diagnose(executable: executable, arguments: arguments)
      if !said.isEmpty { message += "\nit says:\n" + said }
      throw BenchmarkError(message)
    } catch {
      Self.terminate(child)
      throw error
    }
  }

  /// Sends one control request on a connection of its own and returns the reply; a reply with
  /// `"ok": false` throws. A connection per request, as `wodclockctl` makes: the daemon closes
  /// clients that stay silent for 10 s, which a measuring window would be.
  @discardableResult
  func request(_ line: String) throws -> JSONValue {
    var client = try UnixClient.connect(path: socketPath, timeoutMilliseconds: 5_000)
    defer { try? client.close() }
    try client.send(line + "\n", timeoutMilliseconds: 5_000)
    guard let reply = try client.readLine(timeoutMilliseconds: 5_000) else {
      throw BenchmarkError("wodclockd closed the control socket on \(line)")
    }
    let value = try JSONValue.parse(reply)
    guard value["ok"]?.boolValue == true else {
      throw BenchmarkError("wodclockd refused \(line): \(reply)")
    }
    return value
  }

  /// The address its web interface listens on, as its log says (`web interface ready
  /// address=HOST:PORT`): a `listen:` with port 0 gets a free port that only the daemon knows.
  /// Needs `keepsLog`. The line is written before READY=1, so it is there once `init` returned.
  func webAddress() throws -> SocketAddress {
    guard let logPath else {
      throw BenchmarkError("the web address is in the daemon's log: start it with keepsLog")
    }
    let text = try FileSystem.readTextFile(logPath)
    let announcement = ["web", "interface", "ready"] as [Substring]
    let lines = text.split(separator: "\n").map { $0.split(separator: " ") }
    let ready = lines.last { words in
      words.indices.contains { words[$0...].starts(with: announcement) }
    }
    guard let field = ready?.first(where: { $0.hasPrefix("address=") }) else {
      throw BenchmarkError("wodclockd did not log 'web interface ready'; its log:\n\(text)")
    }
    // 127.0.0.1:8080 or [::1]:8080: the port is after the last colon.
    let value = field.dropFirst("address=".count)
    guard let colon = value.lastIndex(of: ":"),
      let port = UInt16(value[value.index(after: colon)...]),
      let host = IPAddress(String(value[..<colon].filter { $0 != "[" && $0 != "]" }))
    else { throw BenchmarkError("wodclockd logged a web address it cannot mean: \(value)") }
    return SocketAddress(host, port: port)
  }

  /// Stops the daemon as systemd does (SIGTERM, SIGKILL after 5 s) and reaps it. Safe to call
  /// more than once; only the first call returns how it ended.
  @discardableResult
  func stop() -> Subprocess.ExitStatus? {
    guard !stopped else { return nil }
    stopped = true
    return Self.terminate(process)
  }

  deinit { stop() }

  // MARK: - Starting

  private struct StartFailure: Error {
    var reason: String
  }

  /// Waits for a datagram containing READY=1 and returns the monotonic time of its arrival.
  private static func waitForReady(
    _ notify: DatagramSocket, _ process: Subprocess, timeoutMilliseconds: Int
  ) throws -> Int64 {
    let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
    while true {
      try Interruption.check()
      // Short polls, so an exit or Ctrl-C is seen within 20 ms; the arrival time is read as soon
      // as poll returns, so the slices do not blur the figure.
      var entry = pollfd(fd: notify.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
      if poll(&entry, 1, 20) > 0 {
        let arrived = MonotonicClock.now()
        while let datagram = try notify.receive() {
          let text = String(decoding: datagram, as: UTF8.self)
          if text.split(separator: "\n").contains("READY=1") { return arrived }
        }
      }
      if let status = try process.wait(timeoutMilliseconds: 0) {
        throw StartFailure(reason: "it \(status)\(meaning(of: status)) before it was ready")
      }
      if MonotonicClock.now() > deadline {
        throw StartFailure(reason: "no READY=1 within \(timeoutMilliseconds) ms")
      }
    }
  }

  /// wodclockd's documented exit statuses (sysexits).
  private static func meaning(of status: Subprocess.ExitStatus) -> String {
    switch status {
    case .exited(64): " (bad command line)"
    case .exited(69): " (cannot start)"
    case .exited(78): " (bad configuration)"
    default: ""
    }
  }

  /// Runs the same command again for at most 3 s with its standard error captured, so a failed
  /// start comes with the daemon's own words (the measured runs send them to /dev/null).
  private static func diagnose(executable: String, arguments: [String]) -> String {
    guard let environment = try? Self.environment(notifySocket: nil),
      let child = try? Subprocess.spawn(
        executable: executable, arguments: arguments, environment: environment,
        standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .pipe),
      let output = child.standardError
    else { return "" }
    defer { try? output.close() }
    if (try? child.wait(timeoutMilliseconds: 3_000)) == nil {
      terminate(child)
    }
    var bytes: [UInt8] = []
    while bytes.count < 65_536, case .bytes? = try? output.read(appendingTo: &bytes) {}
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").suffix(20)
    return lines.map { "  " + $0 }.joined(separator: "\n")
  }

  // MARK: - Process plumbing

  /// `wodclockd` in the directory of this executable, where `swift build` puts both.
  static func executablePath() throws -> String {
    var program = CommandLine.arguments.first ?? ""
    if !program.contains("/") {
      // Found through PATH: ask the kernel where the binary is.
      var buffer = [CChar](repeating: 0, count: 4096)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      program =
        count > 0
        ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
    let directory = program.lastIndex(of: "/").map { String(program[..<$0]) } ?? "."
    let path = "\(directory.isEmpty ? "/" : directory)/wodclockd"
    guard access(path, X_OK) == 0 else {
      throw BenchmarkError(
        "cannot find wodclockd next to wodclock-bench (\(path)); build both with "
          + "`make release`")
    }
    return path
  }

  /// This process's environment without the variables through which a service manager talks to
  /// its service: a bench started by systemd must not have the daemon report to systemd.
  static func environment(notifySocket: String?) throws -> [String] {
    let managed: Set<Substring> = [
      "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID",
      "LISTEN_FDNAMES", "RUNTIME_DIRECTORY", "STATE_DIRECTORY",
    ]
    var entries = try FileSystem.readFile("/proc/self/environ").split(separator: 0).map {
      String(decoding: $0, as: UTF8.self)
    }
    entries.removeAll { entry in managed.contains(entry.prefix { $0 != "=" }) }
    if let notifySocket { entries.append("NOTIFY_SOCKET=\(notifySocket)") }
    return entries
  }

  /// SIGTERM, then SIGKILL if the process is still there after 5 s; reaps it either way.
  @discardableResult
  static func terminate(_ process: Subprocess) -> Subprocess.ExitStatus? {
    if let status = try? process.wait(timeoutMilliseconds: 0) { return status }
    try? process.kill(.terminate)
    if let status = try? process.wait(timeoutMilliseconds: 5_000) { return status }
    try? process.kill(.kill)
    return try? process.wait()
  }

  /// Everything `process` writes on its standard output until it closes it, then its exit
  /// status; Ctrl-C is heard meanwhile (``Interruption``), every 200 ms at the latest.
  static func output(of process: Subprocess) throws -> (
    bytes: [UInt8], status: Subprocess.ExitStatus
  ) {
    var bytes: [UInt8] = []
    if let output = process.standardOutput {
      defer { try? output.close() }
      while true {
        try Interruption.check()
        var entry = pollfd(fd: output.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 200) > 0 else { continue }
        guard case .bytes = try output.read(appendingTo: &bytes) else { break }
      }
    }
    return (bytes, try process.wait())
  }
}

/// Busy child processes that keep every core they get at 100 %, to show lateness under load.
final class BusyLoad {
  private(set) var processes: [Subprocess] = []

  init(count: Int) throws {
    // A pure shell loop (no forks). It also ends by itself once the bench is gone, checking
    // every few tens of milliseconds, so a bench killed with SIGKILL leaves no spinning core.
    let script =
      "parent=$PPID; while kill -0 \"$parent\" 2>/dev/null; do "
      + "i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; done"
    do {
      for _ in 0..<count {
        processes.append(
          try Subprocess.spawn(
            executable: "/bin/sh", arguments: ["-c", script], standardInput: .nullDevice,
            standardOutput: .nullDevice, standardError: .nullDevice))
      }
    } catch {
      stop()
      throw error
    }
  }

  /// Kills and reaps every loop. Safe to call more than once.
  func stop() {
    for process in processes {
      try? process.kill(.kill)
      _ = try? process.wait()
    }
    processes = []
  }

  deinit { stop() }
}
