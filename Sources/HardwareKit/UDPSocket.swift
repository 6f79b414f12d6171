// SPDX-License-Identifier: MIT
// UDP sockets: a connected sender for network LED controllers (DDP), and a loopback receiver
// for tests.

import CLinux
import Glibc

/// A non-blocking UDP socket, connected to one peer or bound to a loopback port.
public struct UDPSocket: Sendable {
  public let fileDescriptor: FileDescriptor
  /// The bound port of a receiver, the peer's port of a sender.
  public let port: Int

  /// A socket connected to `peer`: its sends go there, and the kernel drops datagrams from
  /// anyone else. Connecting a datagram socket sends nothing and never waits (udp(7)); a name
  /// is looked up beforehand, off the loop (``AddressResolver``).
  ///
  /// The corresponding C functions are `socket` and `connect`.
  public static func connect(to peer: SocketAddress) throws(SystemError) -> UDPSocket {
    var inProgress: Int32 = 0
    let fd = try check("connect", path: peer.description) {
      clinux_inet_connect(
        peer.address.family.rawValue, 0, peer.address.paddedBytes, peer.address.scopeID,
        Int32(peer.port), &inProgress)
    }
    return UDPSocket(fileDescriptor: FileDescriptor(rawValue: fd), port: Int(peer.port))
  }

  /// A socket bound to 127.0.0.1 on `port` (0: a free port, then in ``port``).
  ///
  /// The corresponding C functions are `socket`, `bind` and `getsockname`.
  public static func bindLoopback(port: Int = 0) throws(SystemError) -> UDPSocket {
    var bound = Int32(port)
    let fd = try check("bind") { clinux_udp_bind_loopback(&bound) }
    return UDPSocket(fileDescriptor: FileDescriptor(rawValue: fd), port: Int(bound))
  }

  /// Sends one datagram; false when the socket buffer is full (the datagram is dropped, as
  /// UDP would drop it anyway).
  ///
  /// The corresponding C function is `send`.
  @discardableResult
  public func send(_ bytes: [UInt8]) throws(SystemError) -> Bool {
    let result = bytes.withUnsafeBytes { raw in
      valueOrErrno("send") { Glibc.send(fileDescriptor.rawValue, raw.baseAddress, raw.count, 0) }
    }
    switch result {
    case .success: return true
    case .failure(.wouldBlock): return false
    // A connected UDP socket reports an earlier ICMP "port unreachable" on the next send: the
    // controller is rebooting or not listening yet. Not a reason to give up.
    case .failure(let error) where error.rawValue == ECONNREFUSED: return false
    case .failure(let error): throw SystemError(operation: "send", errno: error)
    }
  }

  /// Receives one datagram, or nil when none is queued.
  ///
  /// The corresponding C function is `recv`.
  public func receive() throws(SystemError) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let result = buffer.withUnsafeMutableBytes { raw in
      valueOrErrno("recv") { recv(fileDescriptor.rawValue, raw.baseAddress, raw.count, 0) }
    }
    switch result {
    case .success(let count): return Array(buffer.prefix(count))
    case .failure(.wouldBlock): return nil
    case .failure(let error): throw SystemError(operation: "recv", errno: error)
    }
  }

  public func close() { try? fileDescriptor.close() }
}
