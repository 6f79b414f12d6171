// SPDX-License-Identifier: MIT
// A bound AF_UNIX datagram socket: the receiving end of sd_notify, for tests and tools.

import CLinux
import Glibc

/// A non-blocking Unix-domain datagram socket bound to a path (or an `@abstract` name), which
/// receives what `SystemdNotifier` sends. The daemon itself never needs one; the tests play the
/// service manager with it.
public struct DatagramSocket: Sendable {
  public let fileDescriptor: FileDescriptor
  public let path: String

  /// Binds a new socket to `path`.
  ///
  /// The corresponding C functions are `socket` and `bind`.
  public init(boundTo path: String) throws(SystemError) {
    let fd = FileDescriptor(rawValue: try check("socket", path: path) { clinux_unix_socket(1, 1) })
    do {
      try check("bind", path: path) { clinux_unix_bind(fd.rawValue, path) }
    } catch {
      try? fd.close()
      throw error
    }
    fileDescriptor = fd
    self.path = path
  }

  /// Receives one datagram, or returns `nil` when none is queued.
  ///
  /// The corresponding C function is `recv`.
  public func receive() throws(SystemError) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let result = buffer.withUnsafeMutableBytes { raw in
      valueOrErrno("recv") { recv(fileDescriptor.rawValue, raw.baseAddress, raw.count, 0) }
    }
    switch result {
    case .success(let count): return Array(buffer.prefix(count))
    case .failure(.wouldBlock): return nil
    case .failure(let error): throw SystemError(operation: "recv", path: path, errno: error)
    }
  }

  /// Closes the socket and removes its file.
  public func close() {
    try? fileDescriptor.close()
    if !path.hasPrefix("@") { _ = try? FileSystem.removeFile(path) }
  }
}
