// SPDX-License-Identifier: MIT
// Runs the real wodclockd and wodclockctl binaries in a temporary directory.

import Glibc
import HardwareKit
import JSONKit
import WodclockTestSupport

/// The build directory holding the binaries `swift build` made (the tests run the real ones).
let binaryDirectory: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)  // Tests/DaemonTests/DaemonHarness.swift
  return parts.joined(separator: "/") + "/.build/debug"
}()

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Sleeps for `milliseconds` (waiting on real processes; never used to make time pass for the
/// engine, whose own tests use manual time).
func pause(milliseconds: Int) {
  var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
  var remaining = timespec()
  while nanosleep(&request, &remaining) != 0 { request = remaining }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes.
func eventually(timeoutMilliseconds: Int = 5_000, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
  while MonotonicClock.now() < deadline {
    if try condition() { return true }
    pause(milliseconds: 10)
  }
  return try condition()
}

/// One wodclockd in its own temporary directory, with its own config, socket, state and log.
final class DaemonHarness {
  private let scratch: ScratchDirectory
  var directory: String { scratch.path }
  var configPath: String { directory + "/wodclock.yaml" }
  var socketPath: String { directory + "/wodclockd.sock" }
  var stateDirectory: String { directory + "/state" }
  var logPath: String { directory + "/daemon.log" }
  private(set) var process: Subprocess?

  init(config: String) throws {
    scratch = try ScratchDirectory(prefix: "wodclock-test-")
    try writeConfig(config)
  }

  deinit {
    if let process {
      try? process.kill(.kill)
      _ = try? process.wait()
    }
    scratch.remove()
  }

  func writeConfig(_ text: String) throws {
    try FileSystem.writeFileAtomically(configPath, text: text)
  }

  /// Starts the daemon and waits until its control socket answers. A `launcher` (a program and
  /// its arguments) is run instead, with the daemon's path and arguments after its own.
  func start(
    arguments: [String] = [], environment: [String] = [], waitForSocket: Bool = true,
    launcher: [String] = []
  ) throws {
    let log = try FileDescriptor.open(logPath, .writeOnly, options: [.create, .append])
    defer { try? log.close() }
    let command = launcher + [binaryDirectory + "/wodclockd"]
    process = try Subprocess.spawn(
      executable: command[0],
      arguments: Array(command.dropFirst()) + [
        "--config", configPath, "--socket", socketPath, "--state-dir", stateDirectory,
      ] + arguments,
      environment: ["PATH=/usr/bin:/bin", "TZ=UTC"] + environment,
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .fileDescriptor(log))
    if waitForSocket {
      let up = eventually { (try? request(["cmd": "version"]))?["ok"]?.boolValue == true }
      if !up { throw HarnessError("wodclockd did not come up; log:\n\(self.log)") }
    }
  }

  /// Sends one request on a fresh connection and returns the reply.
  func request(_ object: JSONValue) throws -> JSONValue {
    var client = try UnixClient.connect(path: socketPath, timeoutMilliseconds: 2_000)
    defer { try? client.close() }
    try client.send(object.serialized() + "\n", timeoutMilliseconds: 2_000)
    guard let line = try client.readLine(timeoutMilliseconds: 5_000) else {
      throw HarnessError("no reply to \(object)")
    }
    return try JSONValue.parse(line)
  }

  func status() throws -> JSONValue {
    let reply = try request(["cmd": "status"])
    guard let status = reply["status"] else {
      throw HarnessError("status reply without a status: \(reply)")
    }
    return status
  }

  /// Runs wodclockctl against this daemon.
  func ctl(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    try run(binaryDirectory + "/wodclockctl", ["--socket", socketPath] + arguments)
  }

  func signal(_ signal: Signal) throws {
    guard let process else { throw HarnessError("not running") }
    try process.kill(signal)
  }

  /// Waits for the daemon to exit and returns how.
  @discardableResult
  func waitForExit(timeoutMilliseconds: Int = 10_000) throws -> Subprocess.ExitStatus {
    guard let process else { throw HarnessError("not running") }
    guard let status = try process.wait(timeoutMilliseconds: timeoutMilliseconds) else {
      throw HarnessError("wodclockd did not exit; log:\n\(log)")
    }
    self.process = nil
    return status
  }

  var log: String { (try? FileSystem.readTextFile(logPath)) ?? "" }
}

/// A config most daemon tests use: a short EMOM with no count-in, and a log output.
let testConfig = """
  defaults:
    preset: emom
    count_in: 0s
  presets:
    emom:
      mode: emom
      interval: 10s
      rounds: 6
    amrap:
      mode: amrap
      time: 20m
  outputs:
    - type: log
  """
