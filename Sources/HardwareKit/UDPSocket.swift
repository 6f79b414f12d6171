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

  /// A socket connected to `host`:`port`. A name is resolved here, once (getaddrinfo).
  ///
  /// The corresponding C functions are `getaddrinfo`, `socket` and `connect`.
  public static func connect(host: String, port: Int) throws(SystemError) -> UDPSocket {
    var message = [CChar](repeating: 0, count: 256)
    let fd = clinux_udp_connect(host, Int32(port), &message, message.count)
    guard fd >= 0 else {
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw SystemError(
        operation: "connect", path: "\(host):\(port)", errno: Errno(rawValue: errno),
        hint: text.isEmpty ? nil : text)
    }
    return UDPSocket(fileDescriptor: FileDescriptor(rawValue: fd), port: port)
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
