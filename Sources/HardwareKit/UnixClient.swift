// SPDX-License-Identifier: MIT
// The command-line client's side of the control socket: connect, send, read a line, with timeouts.

import CLinux
import Glibc

/// A Unix-domain stream client whose every step has a timeout, for `wodclockctl`.
///
/// The socket stays non-blocking underneath; each call waits with poll(2) for at most its
/// timeout, so a hung daemon cannot hang the command line.
public struct UnixClient: Sendable {
  /// The connected descriptor (close-on-exec).
  public let fileDescriptor: FileDescriptor
  /// The socket path, for error messages.
  public let path: String
  /// Bytes received after the last returned line.
  private var pending: [UInt8] = []

  private init(fileDescriptor: FileDescriptor, path: String) {
    self.fileDescriptor = fileDescriptor
    self.path = path
  }

  /// Connects to the listener at `path`.
  ///
  /// A listener whose backlog is full answers `EAGAIN` instead of queueing the client
  /// (unix(7)); the connect is retried every 10 ms until the timeout.
  /// - Throws: `SystemError` with `ENOENT` or `ECONNREFUSED` when nothing listens, `ETIMEDOUT`
  ///   when the listener stays busy.
  ///
  /// The corresponding C function is `connect`.
  public static func connect(path: String, timeoutMilliseconds: Int) throws(SystemError)
    -> UnixClient
  {
    let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
    let fd = FileDescriptor(
      rawValue: try check("socket", path: path) { clinux_unix_socket(0, 1) })
    do throws(SystemError) {
      while true {
        switch valueOrErrno("connect", { clinux_unix_connect(fd.rawValue, path) }) {
        case .success:
          return UnixClient(fileDescriptor: fd, path: path)
        case .failure(.wouldBlock):
          guard MonotonicClock.now() < deadline else {
            throw SystemError(operation: "connect", path: path, errno: .timedOut)
          }
          _ = poll(nil, 0, 10)
        case .failure(Errno(rawValue: EINPROGRESS)):
          try waitFor(Int16(POLLOUT), fd, until: deadline, operation: "connect", path: path)
          let pendingError = clinux_socket_error(fd.rawValue)
          if pendingError != 0 {
            throw SystemError(
              operation: "connect", path: path, errno: Errno(rawValue: pendingError))
          }
          return UnixClient(fileDescriptor: fd, path: path)
        case .failure(let error):
          throw SystemError(
            operation: "connect", path: path, errno: error,
            hint: error == .noSuchFile || error == .connectionRefused
              ? "is the daemon running?" : nil)
        }
      }
    } catch {
      try? fd.close()
      throw error
    }
  }

  /// Sends all of `bytes`, waiting for buffer space for at most `timeoutMilliseconds` in total.
  ///
  /// The corresponding C function is `send`.
  public func send(_ bytes: some Collection<UInt8>, timeoutMilliseconds: Int) throws(SystemError) {
    let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
    var rest = Array(bytes)[...]
    while !rest.isEmpty {
      let result: FileDescriptor.WriteResult
      do {
        result = try sendSome(fileDescriptor, Array(rest))
      } catch {
        throw SystemError(operation: "send", path: path, errno: error.errno)
      }
      switch result {
      case .written(let count): rest = rest.dropFirst(count)
      case .wouldBlock:
        try Self.waitFor(
          Int16(POLLOUT), fileDescriptor, until: deadline, operation: "send", path: path)
      }
    }
  }

  /// Sends the UTF-8 bytes of `text`; see `send(_:timeoutMilliseconds:)`.
  ///
  /// The corresponding C function is `send`.
  public func send(_ text: String, timeoutMilliseconds: Int) throws(SystemError) {
    try send(Array(text.utf8), timeoutMilliseconds: timeoutMilliseconds)
  }

  /// Sends as much of `bytes` as the socket buffer takes now, without waiting.
  /// - Returns: how many bytes went out; 0 when the buffer is full.
  ///
  /// The corresponding C function is `send`.
  public func sendWithoutWaiting(_ bytes: some Collection<UInt8>) throws(SystemError) -> Int {
    let result: FileDescriptor.WriteResult
    do {
      result = try sendSome(fileDescriptor, Array(bytes))
    } catch {
      throw SystemError(operation: "send", path: path, errno: error.errno)
    }
    switch result {
    case .written(let count): return count
    case .wouldBlock: return 0
    }
  }

  /// Sends all of `bytes` and, while the socket buffer is full, reads the lines that arrive,
  /// appending them to `lines`: how a client pipelines many requests. A server that stops
  /// reading a client which does not read its replies (wodclockd does) would otherwise leave
  /// both sides waiting for each other. Lines still arriving afterwards are for `readLine`.
  /// - Throws: `SystemError` with `ETIMEDOUT` when it is not all sent in time.
  ///
  /// The corresponding C functions are `send`, `poll` and `read`.
  public mutating func send(
    _ bytes: some Collection<UInt8>, readingLinesInto lines: inout [String],
    timeoutMilliseconds: Int
  ) throws(SystemError) {
    let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
    var rest = Array(bytes)[...]
    while !rest.isEmpty {
      let count = try sendWithoutWaiting(rest)
      rest = rest.dropFirst(count)
      if count > 0 { continue }
      try Self.waitFor(
        Int16(POLLOUT | POLLIN), fileDescriptor, until: deadline, operation: "send", path: path)
      // A reply, room to send, or the end of the stream (which the next send reports).
      do {
        _ = try fileDescriptor.read(appendingTo: &pending)
      } catch {
        throw SystemError(operation: "read", path: path, errno: error.errno)
      }
      while let line = takeLine() { lines.append(line) }
    }
  }

  /// Reads the next line, without its `\n` (and without a `\r` before it).
  /// - Returns: the line; at end of stream the unterminated rest, or `nil` if there is none.
  /// - Throws: `SystemError` with `ETIMEDOUT` when no full line arrives in time.
  ///
  /// The corresponding C functions are `poll` and `read`.
  public mutating func readLine(timeoutMilliseconds: Int) throws(SystemError) -> String? {
    let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
    while true {
      if let line = takeLine() { return line }
      let result: FileDescriptor.ReadResult
      do {
        result = try fileDescriptor.read(appendingTo: &pending)
      } catch {
        throw SystemError(operation: "read", path: path, errno: error.errno)
      }
      switch result {
      case .bytes: continue
      case .endOfFile:
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
      case .wouldBlock:
        try Self.waitFor(
          Int16(POLLIN), fileDescriptor, until: deadline, operation: "read", path: path)
      }
    }
  }

  /// Removes and returns the first complete line received, if there is one.
  private mutating func takeLine() -> String? {
    guard let newline = pending.firstIndex(of: 0x0A) else { return nil }
    var line = pending[..<newline]
    if line.last == 0x0D { line = line.dropLast() }
    let text = String(decoding: line, as: UTF8.self)
    pending.removeSubrange(...newline)
    return text
  }

  /// Closes the connection.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }

  /// Waits with poll(2) until `fd` has `events` or the monotonic clock passes `deadline`.
  private static func waitFor(
    _ events: Int16, _ fd: FileDescriptor, until deadline: Int64, operation: String, path: String
  ) throws(SystemError) {
    while true {
      let remaining = deadline - MonotonicClock.now()
      guard remaining > 0 else {
        throw SystemError(operation: operation, path: path, errno: .timedOut)
      }
      var entry = pollfd(fd: fd.rawValue, events: events, revents: 0)
      let milliseconds = Int32(min((remaining + 999_999) / 1_000_000, Int64(Int32.max)))
      switch valueOrErrno("poll", { poll(&entry, 1, milliseconds) }) {
      // Readiness, hang-up or error: the next read or send reports which.
      case .success(let count) where count > 0: return
      case .success: continue
      case .failure(let error): throw SystemError(operation: "poll", path: path, errno: error)
      }
    }
  }
}
