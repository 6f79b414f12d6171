// SPDX-License-Identifier: MIT
// A file descriptor as a plain value, after swift-system's `FileDescriptor`.

import CLinux
import Glibc

/// An open file descriptor.
///
/// This is a value: copying it does not duplicate the descriptor, and whoever opened it calls
/// `close()` exactly once. Every descriptor HardwareKit opens is close-on-exec, so spawned
/// processes never inherit it by accident.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
  /// The C descriptor number.
  public var rawValue: Int32

  /// Wraps a C descriptor number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Descriptor 0.
  public static var standardInput: FileDescriptor { FileDescriptor(rawValue: 0) }
  /// Descriptor 1.
  public static var standardOutput: FileDescriptor { FileDescriptor(rawValue: 1) }
  /// Descriptor 2.
  public static var standardError: FileDescriptor { FileDescriptor(rawValue: 2) }

  /// How a file is opened.
  public enum AccessMode: Sendable {
    /// `O_RDONLY`.
    case readOnly
    /// `O_WRONLY`.
    case writeOnly
    /// `O_RDWR`.
    case readWrite

    var flags: Int32 {
      switch self {
      case .readOnly: O_RDONLY
      case .writeOnly: O_WRONLY
      case .readWrite: O_RDWR
      }
    }
  }

  /// Extra `open` flags. `O_CLOEXEC` is always added.
  public struct OpenOptions: OptionSet, Sendable {
    /// The C flag bits.
    public var rawValue: Int32
    /// Wraps C flag bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `O_CREAT`: create the file if it does not exist.
    public static var create: OpenOptions { OpenOptions(rawValue: O_CREAT) }
    /// `O_EXCL`: with `create`, fail with `EEXIST` if the file exists.
    public static var exclusiveCreate: OpenOptions { OpenOptions(rawValue: O_EXCL) }
    /// `O_TRUNC`: truncate to zero length.
    public static var truncate: OpenOptions { OpenOptions(rawValue: O_TRUNC) }
    /// `O_APPEND`: every write goes to the end of the file.
    public static var append: OpenOptions { OpenOptions(rawValue: O_APPEND) }
    /// `O_NONBLOCK`: reads and writes return `.wouldBlock` instead of waiting.
    public static var nonBlocking: OpenOptions { OpenOptions(rawValue: O_NONBLOCK) }
    /// `O_NOCTTY`: never become the controlling terminal (serial ports).
    public static var noControllingTerminal: OpenOptions { OpenOptions(rawValue: O_NOCTTY) }
    /// `O_DIRECTORY`: fail unless the path is a directory.
    public static var directory: OpenOptions { OpenOptions(rawValue: O_DIRECTORY) }
    /// `O_NOFOLLOW`: fail with `ELOOP` if the last component of the path is a symbolic link.
    public static var noFollow: OpenOptions { OpenOptions(rawValue: O_NOFOLLOW) }
  }

  /// The outcome of a read.
  public enum ReadResult: Hashable, Sendable {
    /// This many bytes (at least one) were read.
    case bytes(Int)
    /// Nothing to read now on a non-blocking descriptor (`EAGAIN`); wait for readability.
    case wouldBlock
    /// End of file, or the peer closed its end.
    case endOfFile
  }

  /// The outcome of a write.
  public enum WriteResult: Hashable, Sendable {
    /// This many bytes were written; it may be fewer than offered (a partial write).
    case written(Int)
    /// Nothing could be written now on a non-blocking descriptor (`EAGAIN`); wait for
    /// writability.
    case wouldBlock
  }

  /// Opens `path`; the descriptor is close-on-exec.
  /// - Parameters:
  ///   - permissions: the mode for a created file (still filtered by the umask).
  ///
  /// The corresponding C function is `open`.
  public static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0o644
  ) throws(SystemError) -> FileDescriptor {
    let flags = mode.flags | options.rawValue | O_CLOEXEC
    let fd = try check("open", path: path) { Glibc.open(path, flags, mode_t(permissions)) }
    return FileDescriptor(rawValue: fd)
  }

  /// Creates a pipe whose two ends are close-on-exec.
  /// - Parameter nonBlocking: also set `O_NONBLOCK` on both ends.
  ///
  /// The corresponding C function is `pipe2`.
  public static func pipe(nonBlocking: Bool = false) throws(SystemError) -> (
    readEnd: FileDescriptor, writeEnd: FileDescriptor
  ) {
    var fds: (Int32, Int32) = (-1, -1)
    try withUnsafeMutableBytes(of: &fds) { (raw) throws(SystemError) in
      let pointer = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
      try check("pipe2") { clinux_pipe(pointer, nonBlocking ? 1 : 0) }
    }
    return (FileDescriptor(rawValue: fds.0), FileDescriptor(rawValue: fds.1))
  }

  /// Reads up to `buffer.count` bytes, retrying on `EINTR`.
  ///
  /// The corresponding C function is `read`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> ReadResult {
    switch valueOrErrno("read", { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }) {
    case .success(0): return buffer.count == 0 ? .bytes(0) : .endOfFile
    case .success(let count): return .bytes(count)
    case .failure(.wouldBlock): return .wouldBlock
    case .failure(let error): throw SystemError(operation: "read", errno: error)
    }
  }

  /// Reads up to `maximumCount` bytes and appends them to `bytes`.
  ///
  /// The corresponding C function is `read`.
  public func read(
    appendingTo bytes: inout [UInt8], maximumCount: Int = 4096
  ) throws(SystemError) -> ReadResult {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: maximumCount))
    let outcome = bytes.withUnsafeMutableBytes { raw in
      Result { () throws(SystemError) in
        try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
      }
    }
    if case .success(.bytes(let count)) = outcome {
      bytes.removeSubrange((start + count)...)
    } else {
      bytes.removeSubrange(start...)
    }
    return try outcome.get()
  }

  /// Writes up to `bytes.count` bytes once, retrying on `EINTR`; may write fewer.
  ///
  /// The corresponding C function is `write`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> WriteResult {
    switch valueOrErrno("write", { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }) {
    case .success(let count): return .written(count)
    case .failure(.wouldBlock): return .wouldBlock
    case .failure(let error): throw SystemError(operation: "write", errno: error)
    }
  }

  /// Writes as much of `bytes` as the descriptor takes now; see `write(_:)`.
  ///
  /// The corresponding C function is `write`.
  public func write(_ bytes: some Collection<UInt8>) throws(SystemError) -> WriteResult {
    let array = Array(bytes)
    return try array.withUnsafeBytes { raw in
      Result { () throws(SystemError) in try write(raw) }
    }.get()
  }

  /// Writes all of `bytes` on a blocking descriptor, looping over partial writes.
  ///
  /// On a non-blocking descriptor that fills up this throws `EAGAIN`; use `write(_:)` there.
  ///
  /// The corresponding C function is `write`.
  public func writeAll(_ bytes: some Collection<UInt8>) throws(SystemError) {
    let array = Array(bytes)
    try array.withUnsafeBytes { raw in
      Result { () throws(SystemError) in
        var offset = 0
        while offset < raw.count {
          switch try write(UnsafeRawBufferPointer(rebasing: raw[offset...])) {
          case .written(let count): offset += count
          case .wouldBlock: throw SystemError(operation: "write", errno: .wouldBlock)
          }
        }
      }
    }.get()
  }

  /// Closes the descriptor.
  ///
  /// `EINTR` is not retried: on Linux the descriptor is released before the error is reported,
  /// and a retry could close a descriptor another thread just opened (close(2), "Dealing with
  /// error returns from close()").
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) {
    switch valueOrErrno("close", retryOnInterrupt: false, { Glibc.close(rawValue) }) {
    case .success, .failure(.interrupted): return
    case .failure(let error): throw SystemError(operation: "close", errno: error)
    }
  }

  /// Whether `O_NONBLOCK` is set.
  ///
  /// The corresponding C function is `fcntl` with `F_GETFL`.
  public func isNonBlocking() throws(SystemError) -> Bool {
    try check("fcntl") { clinux_get_status_flags(rawValue) } & O_NONBLOCK != 0
  }

  /// Sets or clears `O_NONBLOCK`.
  ///
  /// The corresponding C function is `fcntl` with `F_SETFL`.
  public func setNonBlocking(_ enabled: Bool = true) throws(SystemError) {
    let flags = try check("fcntl") { clinux_get_status_flags(rawValue) }
    let updated = enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
    if updated != flags { try check("fcntl") { clinux_set_status_flags(rawValue, updated) } }
  }

  /// Whether `FD_CLOEXEC` is set.
  ///
  /// The corresponding C function is `fcntl` with `F_GETFD`.
  public func isCloseOnExec() throws(SystemError) -> Bool {
    try check("fcntl") { clinux_get_descriptor_flags(rawValue) } & FD_CLOEXEC != 0
  }

  /// Sets or clears `FD_CLOEXEC`.
  ///
  /// The corresponding C function is `fcntl` with `F_SETFD`.
  public func setCloseOnExec(_ enabled: Bool = true) throws(SystemError) {
    let flags = try check("fcntl") { clinux_get_descriptor_flags(rawValue) }
    let updated = enabled ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC
    if updated != flags { try check("fcntl") { clinux_set_descriptor_flags(rawValue, updated) } }
  }

  /// Whether the descriptor reports a hang-up or an error right now, without waiting: `poll`
  /// sets `POLLHUP`, `POLLERR` or `POLLNVAL` for it (poll(2)): a serial adapter that was
  /// unplugged, a pipe whose other end is closed, a number that is not open.
  ///
  /// The corresponding C function is `poll` with a zero timeout.
  public func isHungUp() -> Bool {
    var entry = pollfd(fd: rawValue, events: Int16(POLLIN | POLLOUT), revents: 0)
    return Glibc.poll(&entry, 1, 0) > 0
      && Int32(entry.revents) & (POLLHUP | POLLERR | POLLNVAL) != 0
  }

  /// Flushes the file's data and metadata to the storage device.
  ///
  /// The corresponding C function is `fsync`.
  public func sync() throws(SystemError) {
    try check("fsync") { fsync(rawValue) }
  }

  /// The device and inode numbers of the open file.
  ///
  /// The corresponding C function is `fstat`.
  public func identity() throws(SystemError) -> (device: UInt64, inode: UInt64) {
    var status = stat()
    try check("fstat") { fstat(rawValue, &status) }
    return (UInt64(status.st_dev), UInt64(status.st_ino))
  }
}
