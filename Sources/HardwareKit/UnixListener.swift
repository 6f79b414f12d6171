// SPDX-License-Identifier: MIT
// The daemon's control socket: a non-blocking AF_UNIX stream listener with safe start-up.

import CLinux
import Glibc

/// A listening Unix-domain stream socket for the event loop.
///
/// Starting it is safe against both leftovers and duplicates: a socket file left behind by a
/// crashed daemon is replaced, but if another process still accepts connections on the path the
/// listener refuses to start instead of stealing the path from under it. A path starting with
/// `@` names a socket in the Linux abstract namespace, which has no file (unix(7)).
public struct UnixListener: Hashable, Sendable {
  /// The listening descriptor (non-blocking, close-on-exec); register it for `.readable`.
  public let fileDescriptor: FileDescriptor
  /// The socket path as given.
  public let path: String

  /// Binds and listens on `path`.
  /// - Parameters:
  ///   - mode: permission bits of the socket file; connecting needs write permission (unix(7)).
  ///   - group: a group to own the socket file, so its members may connect.
  ///   - backlog: how many connections may wait to be accepted.
  /// - Throws: `SystemError` with `EADDRINUSE` if another process is listening on `path`.
  ///
  /// The corresponding C functions are `socket`, `bind`, `chmod`, `chown` and `listen`.
  public init(
    path: String, mode: UInt32 = 0o660, group: String? = nil, backlog: Int32 = 16
  ) throws(SystemError) {
    let groupID = try group.map { (name) throws(SystemError) in try Self.groupID(named: name) }
    let fd = FileDescriptor(
      rawValue: try check("socket", path: path) { clinux_unix_socket(0, 1) })
    do {
      try Self.bind(fd, path: path)
      if !path.hasPrefix("@") {
        // Set the mode and group before listen(2): until then a client gets ECONNREFUSED, so
        // there is no moment at which the socket accepts with the wrong permissions.
        try check("chmod", path: path) { chmod(path, mode_t(mode)) }
        if let groupID {
          try check("chown", path: path) { chown(path, uid_t.max, groupID) }
        }
      }
      try check("listen", path: path) { listen(fd.rawValue, backlog) }
    } catch {
      try? fd.close()
      throw error
    }
    fileDescriptor = fd
    self.path = path
  }

  /// Binds, replacing a stale socket file but never a live one.
  private static func bind(_ fd: FileDescriptor, path: String) throws(SystemError) {
    for _ in 0..<3 {
      switch valueOrErrno("bind", { clinux_unix_bind(fd.rawValue, path) }) {
      case .success: return
      case .failure(.addressInUse): break
      case .failure(let error): throw SystemError(operation: "bind", path: path, errno: error)
      }
      let busy = SystemError(
        operation: "bind", path: path, errno: .addressInUse,
        hint: "another process is already listening on this socket; stop it first")
      if path.hasPrefix("@") { throw busy }
      // Probe: a socket file whose owner died refuses connections (ECONNREFUSED); a live
      // listener accepts, or answers EAGAIN when its backlog is full (unix(7)).
      switch probe(path) {
      case .success, .failure(.wouldBlock): throw busy
      case .failure(.connectionRefused):
        guard clinux_is_socket_path(path) == 1 else {
          throw SystemError(
            operation: "bind", path: path, errno: .addressInUse,
            hint: "the path exists and is not a socket; remove it or choose another path")
        }
        try check("unlink", path: path) { unlink(path) }
      case .failure(.noSuchFile): continue
      case .failure(let error): throw SystemError(operation: "connect", path: path, errno: error)
      }
    }
    throw SystemError(operation: "bind", path: path, errno: .addressInUse)
  }

  private static func probe(_ path: String) -> Result<Int32, Errno> {
    let socket = clinux_unix_socket(0, 1)
    guard socket >= 0 else { return .failure(.current) }
    defer { Glibc.close(socket) }
    return valueOrErrno("connect") { clinux_unix_connect(socket, path) }
  }

  /// Looks up the numeric id of the group `name`, as the listener does for its `group`. A group
  /// that does not exist throws ENOENT; any other error is the lookup's own failure.
  ///
  /// The corresponding C function is `getgrnam_r`.
  public static func groupID(named name: String) throws(SystemError) -> gid_t {
    var group = Glibc.group()
    var result: UnsafeMutablePointer<Glibc.group>?
    var capacity = 1024
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let status = getgrnam_r(name, &group, &buffer, capacity, &result)
      if status == ERANGE && capacity < 1 << 20 {
        capacity *= 4
        continue
      }
      if status != 0 {
        throw SystemError(operation: "getgrnam_r", path: name, errno: Errno(rawValue: status))
      }
      guard let result else {
        throw SystemError(
          operation: "getgrnam_r", path: name, errno: .noSuchFile,
          hint: "no group named '\(name)'; create it with groupadd or change the setting")
      }
      return result.pointee.gr_gid
    }
  }

  /// Accepts one pending connection.
  /// - Returns: the connection (non-blocking, close-on-exec), or `nil` when none is pending.
  ///
  /// The corresponding C function is `accept4`.
  public func accept() throws(SystemError) -> UnixConnection? {
    while true {
      switch valueOrErrno("accept4", { clinux_accept(fileDescriptor.rawValue) }) {
      case .success(let fd): return UnixConnection(fileDescriptor: FileDescriptor(rawValue: fd))
      case .failure(.wouldBlock): return nil
      // A client that gave up while queued; accept(2) says to retry.
      case .failure(Errno(rawValue: ECONNABORTED)), .failure(Errno(rawValue: EPROTO)): continue
      case .failure(let error): throw SystemError(operation: "accept4", path: path, errno: error)
      }
    }
  }

  /// Closes the listener and, unless told otherwise, removes its socket file.
  ///
  /// The corresponding C functions are `close` and `unlink`.
  public func close(removingFile: Bool = true) throws(SystemError) {
    try fileDescriptor.close()
    if removingFile && !path.hasPrefix("@") { try FileSystem.removeFile(path) }
  }
}
