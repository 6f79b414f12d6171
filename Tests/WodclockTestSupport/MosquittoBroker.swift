// SPDX-License-Identifier: MIT
// A real MQTT broker for the tests: Debian's mosquitto on a free loopback port, with its own
// configuration (users and an ACL when asked) in a scratch directory, stopped and started again
// on the same port at will.

public import HardwareKit

/// A mosquitto process of the test's own.
public final class MosquittoBroker {
  /// The broker Debian's `mosquitto` package installs.
  public static let executable = "/usr/sbin/mosquitto"

  public let directory: ScratchDirectory
  /// 127.0.0.1 and the port, the same across restarts.
  public let address: SocketAddress
  /// The running process; nil while stopped.
  public private(set) var process: Subprocess?

  /// Writes the configuration and starts the broker.
  /// - Parameters:
  ///   - users: names and passwords (a `password_file` made by `mosquitto_passwd -b`); with
  ///     any, anonymous clients are refused.
  ///   - acl: the text of an `acl_file`, or nil for none.
  public init(users: [(name: String, password: String)] = [], acl: String? = nil) throws {
    directory = try ScratchDirectory(prefix: "wodclock-mqtt-", in: "/tmp")
    // A port the kernel says is free now; the broker binds it with SO_REUSEADDR.
    let probe = try TCPListener(SocketAddress(.loopbackIPv4, port: 0))
    address = probe.address
    try probe.close()
    var lines = [
      // Started as root (a CI container), mosquitto would become the `mosquitto` user, who
      // cannot read the private scratch directory; `root` keeps it as it is, and the option is
      // ignored when the tests do not run as root.
      "user root",
      "listener \(address.port) 127.0.0.1",
      "allow_anonymous \(users.isEmpty)",
      "persistence false",
      "log_dest file \(directory.file("broker.log"))",
      "log_type all",
    ]
    for (index, user) in users.enumerated() {
      let result = try run(
        "/usr/bin/mosquitto_passwd",
        (index == 0 ? ["-c"] : []) + ["-b", directory.file("passwords"), user.name, user.password])
      guard result.status == 0 else {
        throw SystemError(
          operation: "mosquitto_passwd", errno: .invalidArgument, hint: result.error)
      }
    }
    if !users.isEmpty { lines.append("password_file \(directory.file("passwords"))") }
    if let acl {
      try writeFile(directory.file("acl"), text: acl)
      lines.append("acl_file \(directory.file("acl"))")
    }
    try writeFile(directory.file("mosquitto.conf"), text: lines.joined(separator: "\n") + "\n")
    try start()
  }

  deinit {
    try? stop()
    directory.remove()
  }

  /// Starts the broker and returns once it accepts connections (within 10 s, a bound against
  /// a hang).
  public func start() throws {
    guard process == nil else { return }
    let child = try Subprocess.spawn(
      executable: Self.executable, arguments: ["-c", directory.file("mosquitto.conf")],
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
    process = child
    let deadline = MonotonicClock.now() + 10_000_000_000
    while MonotonicClock.now() < deadline {
      if accepts() { return }
      if let status = try child.wait(timeoutMilliseconds: 20) {
        process = nil
        throw SystemError(
          operation: "mosquitto", errno: .invalidArgument,
          hint: "the broker \(status): " + log)
      }
    }
    throw SystemError(operation: "mosquitto", errno: .timedOut, hint: log)
  }

  /// Stops the broker (SIGTERM) and waits for it.
  public func stop() throws {
    guard let child = process else { return }
    process = nil
    try child.kill(.terminate)
    _ = try child.wait()
  }

  /// The broker's log so far.
  public var log: String {
    (try? FileSystem.readTextFile(directory.file("broker.log"))) ?? ""
  }

  private func accepts() -> Bool {
    guard let (socket, progress) = try? TCPSocket.connect(to: address) else { return false }
    defer { try? socket.close() }
    if progress == .connected { return true }
    guard let poller = try? EventPoller() else { return false }
    defer { try? poller.close() }
    guard (try? poller.register(socket.fileDescriptor, token: 1, interest: .writable)) != nil,
      (try? poller.wait(timeoutMilliseconds: 1_000)) != nil
    else { return false }
    return (try? socket.finishConnecting()) == .connected
  }
}
