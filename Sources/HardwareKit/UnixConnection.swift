// SPDX-License-Identifier: MIT
// One accepted control-socket client, driven by the event loop without ever blocking.

import CLinux
import Glibc

/// An accepted, non-blocking Unix-domain stream connection.
public struct UnixConnection: Hashable, Sendable {
  /// The connection descriptor (non-blocking, close-on-exec).
  public let fileDescriptor: FileDescriptor

  /// Wraps an already connected, non-blocking socket.
  public init(fileDescriptor: FileDescriptor) { self.fileDescriptor = fileDescriptor }

  /// The process on the other end, as the kernel recorded it at `connect` time.
  public struct PeerCredentials: Hashable, Sendable {
    /// The peer's process id.
    public var processID: Int32
    /// The peer's effective user id.
    public var userID: UInt32
    /// The peer's effective group id.
    public var groupID: UInt32

    /// Creates a credentials value.
    public init(processID: Int32, userID: UInt32, groupID: UInt32) {
      self.processID = processID
      self.userID = userID
      self.groupID = groupID
    }
  }

  /// Reads what is available, up to `maximumCount` bytes, appending it to `bytes`.
  ///
  /// The corresponding C function is `read`.
  public func read(
    appendingTo bytes: inout [UInt8], maximumCount: Int = 4096
  ) throws(SystemError) -> FileDescriptor.ReadResult {
    try fileDescriptor.read(appendingTo: &bytes, maximumCount: maximumCount)
  }

  /// Sends as much of `bytes` as the socket buffer takes now.
  ///
  /// `MSG_NOSIGNAL` makes a vanished peer an `EPIPE` error instead of a `SIGPIPE` that would
  /// kill the daemon (send(2)). Keep the unsent rest and retry when the poller reports the
  /// connection writable.
  /// - Returns: `.written(n)`, possibly fewer than offered, or `.wouldBlock`.
  ///
  /// The corresponding C function is `send` with `MSG_NOSIGNAL | MSG_DONTWAIT`.
  public func write(_ bytes: some Collection<UInt8>) throws(SystemError)
    -> FileDescriptor
    .WriteResult
  {
    try sendSome(fileDescriptor, Array(bytes))
  }

  /// The credentials of the connected peer.
  ///
  /// The corresponding C function is `getsockopt` with `SO_PEERCRED`.
  public func peerCredentials() throws(SystemError) -> PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
    try check("getsockopt") { clinux_peer_credentials(fileDescriptor.rawValue, &pid, &uid, &gid) }
    return PeerCredentials(processID: pid, userID: uid, groupID: gid)
  }

  /// Closes the connection.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }

  /// Whether the peer has closed its end, seen without reading and without waiting: a stream
  /// socket whose peer is gone polls as hung up (POLLHUP; unix(7) sockets set it when the peer
  /// releases its socket). A peer that only shut down its writing side is not hung up.
  ///
  /// The corresponding C function is `poll` with a zero timeout.
  public var isHungUp: Bool {
    var entry = pollfd(fd: fileDescriptor.rawValue, events: 0, revents: 0)
    guard poll(&entry, 1, 0) == 1 else { return false }
    return Int32(entry.revents) & (POLLHUP | POLLERR) != 0
  }
}

/// One non-blocking `send` of `bytes`, the shared core of connection and client writes.
func sendSome(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(SystemError)
  -> FileDescriptor.WriteResult
{
  let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
  let result = bytes.withUnsafeBytes { raw in
    valueOrErrno("send") { send(fd.rawValue, raw.baseAddress, raw.count, flags) }
  }
  switch result {
  case .success(let count): return .written(count)
  case .failure(.wouldBlock): return .wouldBlock
  case .failure(let error): throw SystemError(operation: "send", errno: error)
  }
}

extension EventPoller.Interest {
  /// Report each change once instead of for as long as it lasts (`EPOLLET`, epoll(7)): for a
  /// connection whose owner keeps track of what it has not read or written yet. A level-triggered
  /// stream whose peer has shut down its side, or whose owner holds off reading, would wake every
  /// wait at once. Read until `.wouldBlock` (or remember that more may be waiting) and write until
  /// `.wouldBlock` before relying on the next report.
  public static var edgeTriggered: EventPoller.Interest {
    EventPoller.Interest(rawValue: EPOLLET.rawValue)
  }
}
