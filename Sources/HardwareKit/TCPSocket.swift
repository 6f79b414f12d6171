// SPDX-License-Identifier: MIT
// TCP over IPv4 and IPv6 for the event loop: a client connection that never waits (an MQTT
// broker, a network controller), and a listener (a web server; the tests' peer).

import CLinux
import Glibc

/// A non-blocking TCP connection.
///
/// Connecting never waits: the handshake goes on in the kernel after ``connect(to:)``
/// returns (connect(2), EINPROGRESS). Watch the descriptor for `.writable`; when it is,
/// ``finishConnecting()`` says how the handshake went (`SO_ERROR`, socket(7)). Reads and writes
/// report `.wouldBlock` instead of waiting; the owner keeps what it could not write and tries
/// again when the loop reports the socket writable.
public struct TCPSocket: Hashable, Sendable {
  /// The connection's descriptor (non-blocking, close-on-exec).
  public let fileDescriptor: FileDescriptor
  /// Where it connects to (a client) or where it came from (accepted by a ``TCPListener``).
  public let peer: SocketAddress

  /// How far a connection has got.
  public enum ConnectProgress: Hashable, Sendable {
    /// The handshake is done: bytes may be written.
    case connected
    /// The handshake is on its way: wait for `.writable`, then ask ``finishConnecting()``.
    case inProgress
  }

  /// Starts connecting to `peer` and returns at once.
  /// - Returns: the socket, and whether it is connected already (rare, but allowed) or the
  ///   handshake is on its way.
  /// - Throws: `SystemError` when the connection cannot even be started (ENETUNREACH: no
  ///   route; on loopback a refusal may come at once as ECONNREFUSED).
  ///
  /// The corresponding C functions are `socket` and `connect`.
  public static func connect(to peer: SocketAddress) throws(SystemError) -> (
    socket: TCPSocket, progress: ConnectProgress
  ) {
    var inProgress: Int32 = 0
    let fd = try check("connect", path: peer.description) {
      clinux_inet_connect(
        peer.address.family.rawValue, 1, peer.address.paddedBytes, peer.address.scopeID,
        Int32(peer.port), &inProgress)
    }
    return (
      TCPSocket(fileDescriptor: FileDescriptor(rawValue: fd), peer: peer),
      inProgress != 0 ? .inProgress : .connected
    )
  }

  /// How the handshake went, asked once the socket is writable (or reports an error or a
  /// hang-up).
  /// - Returns: `.connected`, or `.inProgress` when it is still on its way (asked too early).
  /// - Throws: `SystemError` with the handshake's error: ECONNREFUSED (nobody listens on the
  ///   port), ETIMEDOUT, EHOSTUNREACH, ENETUNREACH.
  ///
  /// The corresponding C functions are `getsockopt` with `SO_ERROR`, then `getpeername`.
  public func finishConnecting() throws(SystemError) -> ConnectProgress {
    // The pending error is the connect's outcome (connect(2), EINPROGRESS); reading it clears
    // it. Zero means done or not done yet: only a connected socket has a peer name.
    let pending = try check("getsockopt", path: peer.description) {
      clinux_socket_error(fileDescriptor.rawValue)
    }
    if pending != 0 {
      throw SystemError(
        operation: "connect", path: peer.description, errno: Errno(rawValue: pending))
    }
    var family: Int32 = 0
    var bytes = [UInt8](repeating: 0, count: 16)
    var scope: UInt32 = 0
    var port: Int32 = 0
    switch valueOrErrno(
      "getpeername",
      {
        clinux_inet_peer(fileDescriptor.rawValue, &family, &bytes, &scope, &port)
      })
    {
    case .success: return .connected
    case .failure(.notConnected): return .inProgress
    case .failure(let error):
      throw SystemError(operation: "getpeername", path: peer.description, errno: error)
    }
  }

  /// Reads what has arrived, up to `maximumCount` bytes, appending it to `bytes`.
  /// - Returns: `.bytes(n)`, `.wouldBlock` when nothing is waiting, or `.endOfFile` when the
  ///   peer closed its end (or shut down its writing side).
  /// - Throws: `SystemError`, ECONNRESET when the peer reset the connection.
  ///
  /// The corresponding C function is `read`.
  public func read(
    appendingTo bytes: inout [UInt8], maximumCount: Int = 4096
  ) throws(SystemError) -> FileDescriptor.ReadResult {
    do {
      return try fileDescriptor.read(appendingTo: &bytes, maximumCount: maximumCount)
    } catch {
      throw SystemError(operation: "read", path: peer.description, errno: error.errno)
    }
  }

  /// Sends as much of `bytes` as the send buffer takes now: perhaps fewer than offered (a
  /// partial write), `.wouldBlock` when it is full. A peer that is gone is EPIPE or ECONNRESET,
  /// never a SIGPIPE (send(2), MSG_NOSIGNAL).
  ///
  /// The corresponding C function is `send` with `MSG_NOSIGNAL | MSG_DONTWAIT`.
  public func write(_ bytes: some Collection<UInt8>) throws(SystemError)
    -> FileDescriptor.WriteResult
  {
    do {
      return try sendSome(fileDescriptor, Array(bytes))
    } catch {
      throw SystemError(operation: "send", path: peer.description, errno: error.errno)
    }
  }

  /// Ends the writing side: the peer reads the end of the stream, and can still answer.
  ///
  /// The corresponding C function is `shutdown` with `SHUT_WR`.
  public func shutDownWriting() throws(SystemError) {
    try check("shutdown", path: peer.description) {
      clinux_socket_shutdown_writing(fileDescriptor.rawValue)
    }
  }

  /// Sets the size of the kernel's send buffer (socket(7), SO_SNDBUF: the kernel doubles it
  /// and keeps to its own minimum). Tests fill a small one to see partial writes.
  ///
  /// The corresponding C function is `setsockopt` with `SO_SNDBUF`.
  public func setSendBufferSize(_ bytes: Int32) throws(SystemError) {
    try check("setsockopt") { clinux_socket_buffer(fileDescriptor.rawValue, 1, bytes) }
  }

  /// Sets the size of the kernel's receive buffer (socket(7), SO_RCVBUF).
  ///
  /// The corresponding C function is `setsockopt` with `SO_RCVBUF`.
  public func setReceiveBufferSize(_ bytes: Int32) throws(SystemError) {
    try check("setsockopt") { clinux_socket_buffer(fileDescriptor.rawValue, 0, bytes) }
  }

  /// Closes the connection (an unsent rest of the send buffer still goes out).
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }
}

/// A listening TCP socket for the event loop: readable when a client waits to be accepted.
public struct TCPListener: Hashable, Sendable {
  /// The listening descriptor (non-blocking, close-on-exec).
  public let fileDescriptor: FileDescriptor
  /// The address it listens on, with the port the kernel chose for port 0.
  public let address: SocketAddress

  /// Listens on `address` (port 0: a free port, then in ``address``).
  ///
  /// The corresponding C functions are `socket`, `setsockopt` (`SO_REUSEADDR`), `bind`,
  /// `listen` and `getsockname`.
  public init(_ address: SocketAddress, backlog: Int32 = 16) throws(SystemError) {
    var port = Int32(address.port)
    let fd = try check("bind", path: address.description) {
      clinux_inet_bind(
        address.address.family.rawValue, 1, address.address.paddedBytes, address.address.scopeID,
        &port, backlog)
    }
    fileDescriptor = FileDescriptor(rawValue: fd)
    self.address = SocketAddress(address.address, port: UInt16(truncatingIfNeeded: port))
  }

  /// The next client waiting to be accepted, or nil when none is.
  ///
  /// The corresponding C function is `accept4`.
  public func accept() throws(SystemError) -> TCPSocket? {
    var family: Int32 = 0
    var bytes = [UInt8](repeating: 0, count: 16)
    var scope: UInt32 = 0
    var port: Int32 = 0
    while true {
      switch valueOrErrno(
        "accept",
        {
          clinux_inet_accept(fileDescriptor.rawValue, &family, &bytes, &scope, &port)
        })
      {
      case .success(let fd):
        let connection = FileDescriptor(rawValue: fd)
        guard
          let peer = SocketAddress(cFamily: family, paddedBytes: bytes, scopeID: scope, port: port)
        else {
          try? connection.close()
          throw SystemError(operation: "accept", errno: Errno(rawValue: EAFNOSUPPORT))
        }
        return TCPSocket(fileDescriptor: connection, peer: peer)
      case .failure(.wouldBlock): return nil
      // A client that gave up while it waited (accept(2), "Error handling"): the next one.
      case .failure(.connectionAborted): continue
      case .failure(let error): throw SystemError(operation: "accept", errno: error)
      }
    }
  }

  /// Closes the listener.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }
}
