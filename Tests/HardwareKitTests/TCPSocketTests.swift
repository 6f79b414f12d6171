// SPDX-License-Identifier: MIT
// Addresses from their text without a lookup, and the non-blocking TCP socket against a real
// listener on loopback: a connect that completes as writability, one refused on a closed port,
// partial writes into a full send buffer, and a peer that closes.

import Glibc
import Testing

@testable import HardwareKit

@Suite struct IPAddressTests {
  @Test func literalsAreParsedAndNamesAreNot() throws {
    let ipv4 = try #require(IPAddress("192.168.1.20"))
    #expect(ipv4.family == .ipv4)
    #expect(ipv4.bytes == [192, 168, 1, 20])
    #expect(ipv4.description == "192.168.1.20")
    let ipv6 = try #require(IPAddress("fd00::20"))
    #expect(ipv6.family == .ipv6)
    #expect(ipv6.bytes == [0xFD] + [UInt8](repeating: 0, count: 14) + [0x20])
    #expect(ipv6.description == "fd00::20")
    #expect(IPAddress("::ffff:10.0.0.1")?.family == .ipv6)
    // A zone by number or by interface name (the loopback interface is always there).
    #expect(IPAddress("fe80::1%7")?.scopeID == 7)
    #expect(IPAddress("fe80::1%7")?.description == "fe80::1%7")
    #expect(try #require(IPAddress("fe80::1%lo")).scopeID > 0)
    // Names, shorthand that inet_aton(3) would take, and broken text are not addresses.
    for text in [
      "wled.local", "localhost", "10.1", "256.1.1.1", "1.2.3.4 ", "", "1.2.3.4%lo", "fe80::1%",
      "fe80::1%no-such-interface", "fe80::1%0", "1.2.3.4\u{0}", "[::1]",
    ] {
      #expect(IPAddress(text) == nil, "\(text)")
    }
    #expect(IPAddress(family: .ipv4, bytes: [1, 2, 3]) == nil)
  }

  @Test func socketAddressesReadAsInAURI() throws {
    #expect(SocketAddress(.loopbackIPv4, port: 4048).description == "127.0.0.1:4048")
    #expect(SocketAddress(.loopbackIPv6, port: 4048).description == "[::1]:4048")
  }
}

@Suite struct TCPSocketTests {
  /// Whether this machine has IPv6 on its loopback interface (a container may not).
  static let hasIPv6Loopback: Bool = {
    guard let listener = try? TCPListener(SocketAddress(.loopbackIPv6, port: 0)) else {
      return false
    }
    try? listener.close()
    return true
  }()

  /// Waits (at most 5 s) for `interest` on `descriptor`; returns what was seen.
  func waitFor(
    _ interest: EventPoller.Interest, on descriptor: FileDescriptor
  ) throws -> EventPoller.Event? {
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(descriptor, token: 1, interest: interest)
    return try poller.wait(timeoutMilliseconds: 5_000).first
  }

  /// A client connected to `listener` through the non-blocking handshake, and the server's end.
  func connectedPair(_ listener: TCPListener) throws -> (client: TCPSocket, server: TCPSocket) {
    let (client, progress) = try TCPSocket.connect(to: listener.address)
    if progress == .inProgress {
      let event = try #require(try waitFor(.writable, on: client.fileDescriptor))
      #expect(event.isWritable)
      #expect(try client.finishConnecting() == .connected)
    }
    _ = try #require(try waitFor(.readable, on: listener.fileDescriptor))
    let server = try #require(try listener.accept())
    return (client, server)
  }

  func roundTrip(on loopback: IPAddress) throws {
    let listener = try TCPListener(SocketAddress(loopback, port: 0))
    defer { try? listener.close() }
    #expect(listener.address.port != 0)
    #expect(try listener.accept() == nil, "nobody waits yet")
    let (client, server) = try connectedPair(listener)
    defer {
      try? client.close()
      try? server.close()
    }
    #expect(server.peer.address == loopback)
    #expect(client.peer == listener.address)
    #expect(try client.write(Array("PINGREQ".utf8)) == .written(7))
    var received: [UInt8] = []
    _ = try waitFor(.readable, on: server.fileDescriptor)
    #expect(try server.read(appendingTo: &received) == .bytes(7))
    #expect(received == Array("PINGREQ".utf8))
    #expect(try server.read(appendingTo: &received) == .wouldBlock)
  }

  @Test func aConnectCompletesAsWritabilityOverIPv4() throws {
    try roundTrip(on: .loopbackIPv4)
  }

  @Test(.enabled(if: hasIPv6Loopback, "no IPv6 on the loopback interface"))
  func aConnectCompletesAsWritabilityOverIPv6() throws {
    try roundTrip(on: .loopbackIPv6)
  }

  @Test func aClosedPortRefusesTheConnection() throws {
    // A port that was just free: nothing listens on it now.
    let listener = try TCPListener(SocketAddress(.loopbackIPv4, port: 0))
    let closed = listener.address
    try listener.close()
    let attempt: (socket: TCPSocket, progress: TCPSocket.ConnectProgress)
    do {
      attempt = try TCPSocket.connect(to: closed)
    } catch {
      // Loopback may refuse within connect(2) itself.
      #expect(error.errno == .connectionRefused)
      return
    }
    let client = attempt.socket
    defer { try? client.close() }
    // The refusal comes with the handshake: the socket turns writable with an error pending.
    #expect(attempt.progress == .inProgress)
    _ = try #require(try waitFor(.writable, on: client.fileDescriptor))
    let error = #expect(throws: SystemError.self) { try client.finishConnecting() }
    #expect(error?.errno == .connectionRefused)
    #expect(error?.description.contains("127.0.0.1:\(closed.port)") == true)
  }

  @Test func aFullSendBufferTakesPartOfAWriteAndThenNothingUntilThePeerReads() throws {
    let listener = try TCPListener(SocketAddress(.loopbackIPv4, port: 0))
    defer { try? listener.close() }
    let (client, server) = try connectedPair(listener)
    defer {
      try? client.close()
      try? server.close()
    }
    try client.setSendBufferSize(4096)
    try server.setReceiveBufferSize(4096)
    let chunk = [UInt8](repeating: 0x5A, count: 65_536)
    var offered = 0
    var written = 0
    var sawPartialWrite = false
    filling: while offered < 16 * chunk.count {
      offered += chunk.count
      switch try client.write(chunk) {
      case .written(let count):
        written += count
        if count < chunk.count {
          sawPartialWrite = true
        }
      case .wouldBlock: break filling
      }
    }
    #expect(sawPartialWrite, "\(written) of \(offered) bytes taken")
    #expect(written < offered)
    #expect(try client.write(chunk) == .wouldBlock)
    // The peer reads everything; every byte taken arrives, and the socket is writable again.
    var received: [UInt8] = []
    while received.count < written {
      guard try waitFor(.readable, on: server.fileDescriptor) != nil else { break }
      while case .bytes = try server.read(appendingTo: &received, maximumCount: 65_536) {}
    }
    #expect(received.count == written)
    #expect(received.allSatisfy { $0 == 0x5A })
    #expect(try waitFor(.writable, on: client.fileDescriptor)?.isWritable == true)
  }

  @Test func aPeerThatClosesEndsTheStreamAndLaterWritesFailWithoutASignal() throws {
    let listener = try TCPListener(SocketAddress(.loopbackIPv4, port: 0))
    defer { try? listener.close() }
    let (client, server) = try connectedPair(listener)
    defer { try? client.close() }
    try server.close()
    var received: [UInt8] = []
    _ = try waitFor(.readable, on: client.fileDescriptor)
    #expect(try client.read(appendingTo: &received) == .endOfFile)
    // The first write goes out and the closed peer answers it with a reset; the next ones fail
    // with EPIPE or ECONNRESET instead of a SIGPIPE that would end this process.
    var failure: SystemError?
    for _ in 0..<100 where failure == nil {
      do {
        _ = try client.write(Array("PUBLISH".utf8))
      } catch {
        failure = error
      }
      _ = try waitFor(.readable, on: client.fileDescriptor)
    }
    let errno = try #require(failure?.errno)
    #expect(errno == .brokenPipe || errno == .connectionReset, "\(errno)")
  }
}
