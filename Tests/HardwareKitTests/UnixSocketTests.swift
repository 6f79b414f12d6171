// SPDX-License-Identifier: MIT
// The control socket on real AF_UNIX sockets: round trips, permissions, refusal and stale files.

import Testing
import WodclockTestSupport

@testable import HardwareKit

@Suite struct UnixSocketTests {
  /// Accepts the one client that just connected (it is queued, so no waiting is needed).
  private func acceptOne(_ listener: UnixListener) throws -> UnixConnection {
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(listener.fileDescriptor, token: 1)
    _ = try poller.wait(timeoutMilliseconds: 1000)
    return try #require(try listener.accept())
  }

  @Test func lineRoundTrip() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let listener = try UnixListener(path: scratch.file("control.sock"))
    defer { try? listener.close() }
    #expect(try listener.accept() == nil)

    var client = try UnixClient.connect(path: listener.path, timeoutMilliseconds: 1000)
    defer { try? client.close() }
    let connection = try acceptOne(listener)

    try client.send("status\n", timeoutMilliseconds: 1000)
    var received: [UInt8] = []
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(connection.fileDescriptor, token: 2)
    while !received.contains(0x0A) {
      _ = try poller.wait(timeoutMilliseconds: 1000)
      _ = try connection.read(appendingTo: &received)
    }
    #expect(String(decoding: received, as: UTF8.self) == "status\n")

    #expect(try connection.write(Array("ok running\r\nsecond\n".utf8)) == .written(19))
    #expect(try client.readLine(timeoutMilliseconds: 1000) == "ok running")
    #expect(try client.readLine(timeoutMilliseconds: 1000) == "second")
    try connection.close()
    #expect(try client.readLine(timeoutMilliseconds: 1000) == nil)
  }

  @Test func socketFileHasRequestedModeAndGroup() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let listener = try UnixListener(path: scratch.file("a.sock"), mode: 0o660, group: "root")
    let attributes = try FileSystem.attributes(listener.path)
    #expect(attributes.kind == .socket)
    #expect(attributes.permissions == 0o660)
    #expect(attributes.groupID == 0)
    try listener.close()
    #expect(!FileSystem.fileExists(listener.path))
  }

  @Test func unknownGroupIsRefused() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let error = #expect(throws: SystemError.self) {
      try UnixListener(path: scratch.file("g.sock"), group: "no-such-group-wodclock")
    }
    #expect(error?.operation == "getgrnam_r")
    #expect(!FileSystem.fileExists(scratch.file("g.sock")))
  }

  @Test func secondListenerOnSamePathIsRefused() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let first = try UnixListener(path: scratch.file("busy.sock"))
    defer { try? first.close() }
    let error = #expect(throws: SystemError.self) {
      try UnixListener(path: first.path)
    }
    #expect(error?.errno == .addressInUse)
    #expect(
      error?.description
        == "bind \(first.path): Address already in use (EADDRINUSE); "
        + "hint: another process is already listening on this socket; stop it first")
    // The first listener still works.
    let client = try UnixClient.connect(path: first.path, timeoutMilliseconds: 1000)
    try client.close()
  }

  @Test func staleSocketFileIsReplaced() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let crashed = try UnixListener(path: scratch.file("stale.sock"))
    try crashed.close(removingFile: false)
    #expect(try FileSystem.attributes(crashed.path).kind == .socket)

    let listener = try UnixListener(path: crashed.path)
    defer { try? listener.close() }
    var client = try UnixClient.connect(path: listener.path, timeoutMilliseconds: 1000)
    defer { try? client.close() }
    let connection = try acceptOne(listener)
    defer { try? connection.close() }
    _ = try connection.write(Array("hello\n".utf8))
    #expect(try client.readLine(timeoutMilliseconds: 1000) == "hello")
  }

  @Test func regularFileAtSocketPathIsNotRemoved() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("not-a-socket")
    try FileSystem.writeFileAtomically(path, text: "keep me")
    let error = #expect(throws: SystemError.self) { try UnixListener(path: path) }
    #expect(error?.errno == .addressInUse)
    #expect(try FileSystem.readTextFile(path) == "keep me")
  }

  @Test func peerCredentialsNameThisProcess() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let listener = try UnixListener(path: scratch.file("cred.sock"))
    defer { try? listener.close() }
    let client = try UnixClient.connect(path: listener.path, timeoutMilliseconds: 1000)
    defer { try? client.close() }
    let connection = try acceptOne(listener)
    defer { try? connection.close() }
    let credentials = try connection.peerCredentials()
    #expect(credentials.processID == Environment.processID)
  }

  @Test func connectionWriteReportsPartialAndWouldBlock() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let listener = try UnixListener(path: scratch.file("full.sock"))
    defer { try? listener.close() }
    let client = try UnixClient.connect(path: listener.path, timeoutMilliseconds: 1000)
    defer { try? client.close() }
    let connection = try acceptOne(listener)
    defer { try? connection.close() }
    let chunk = [UInt8](repeating: 0x41, count: 1 << 20)
    var sawWouldBlock = false
    for _ in 0..<64 where !sawWouldBlock {
      if case .wouldBlock = try connection.write(chunk) { sawWouldBlock = true }
    }
    #expect(sawWouldBlock)
  }

  @Test func anEdgeTriggeredConnectionReportsAHangUpOnce() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let listener = try UnixListener(path: scratch.file("edge.sock"))
    defer { try? listener.close() }
    let client = try UnixClient.connect(path: listener.path, timeoutMilliseconds: 1000)
    let connection = try acceptOne(listener)
    defer { try? connection.close() }
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(connection.fileDescriptor, token: 2, interest: [.readable, .edgeTriggered])
    try client.close()
    #expect(try poller.wait(timeoutMilliseconds: 1000).first?.isHangup == true)
    // Level-triggered, the hang-up would be reported again on every wait until the close.
    #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
  }

  @Test func readLineTimesOut() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let listener = try UnixListener(path: scratch.file("quiet.sock"))
    defer { try? listener.close() }
    var client = try UnixClient.connect(path: listener.path, timeoutMilliseconds: 1000)
    defer { try? client.close() }
    let started = MonotonicClock.now()
    let error = #expect(throws: SystemError.self) {
      _ = try client.readLine(timeoutMilliseconds: 30)
    }
    #expect(error?.errno == .timedOut)
    #expect(MonotonicClock.now() - started >= 30_000_000)
  }

  @Test func connectWithoutListenerExplains() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("absent.sock")
    let error = #expect(throws: SystemError.self) {
      try UnixClient.connect(path: path, timeoutMilliseconds: 100)
    }
    #expect(
      error?.description
        == "connect \(path): No such file or directory (ENOENT); hint: is the daemon running?")
  }

  @Test func abstractNamespaceListener() throws {
    let name = "@wodclock-test-\(Environment.processID)-\(MonotonicClock.now())"
    let listener = try UnixListener(path: name)
    defer { try? listener.close() }
    #expect(throws: SystemError.self) { try UnixListener(path: name) }
    var client = try UnixClient.connect(path: name, timeoutMilliseconds: 1000)
    defer { try? client.close() }
    let connection = try acceptOne(listener)
    defer { try? connection.close() }
    _ = try connection.write(Array("abstract\n".utf8))
    #expect(try client.readLine(timeoutMilliseconds: 1000) == "abstract")
  }
}
