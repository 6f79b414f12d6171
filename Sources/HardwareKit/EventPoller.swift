// SPDX-License-Identifier: MIT
// epoll(7): the one place the daemon sleeps, until a descriptor is ready or a timeout passes.

import CLinux
import Glibc

/// An epoll instance: wait for any of many descriptors to become readable or writable.
///
/// Each registered descriptor carries a caller-chosen `token` that comes back in its events, so
/// the event loop can dispatch without a lookup by descriptor. Registrations are level-triggered:
/// a descriptor keeps being reported while it stays ready.
public struct EventPoller: Hashable, Sendable {
  /// The epoll descriptor itself.
  public let fileDescriptor: FileDescriptor

  /// What to wait for on a descriptor.
  public struct Interest: OptionSet, Hashable, Sendable {
    /// The epoll event bits.
    public var rawValue: UInt32
    /// Wraps epoll event bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Data can be read, or the peer hung up (`EPOLLIN`).
    public static var readable: Interest { Interest(rawValue: EPOLLIN.rawValue) }
    /// Data can be written (`EPOLLOUT`).
    public static var writable: Interest { Interest(rawValue: EPOLLOUT.rawValue) }
  }

  /// A readiness report for one registered descriptor.
  public struct Event: Hashable, Sendable {
    /// The token the descriptor was registered with.
    public var token: UInt64
    /// `EPOLLIN`: a read will not block.
    public var isReadable: Bool
    /// `EPOLLOUT`: a write will not block.
    public var isWritable: Bool
    /// `EPOLLHUP` or `EPOLLRDHUP`: the peer closed or the device hung up (an unplugged tty).
    public var isHangup: Bool
    /// `EPOLLERR`: an error is pending on the descriptor; the next read or write reports it.
    public var isError: Bool

    /// Creates an event value.
    public init(token: UInt64, isReadable: Bool, isWritable: Bool, isHangup: Bool, isError: Bool) {
      self.token = token
      self.isReadable = isReadable
      self.isWritable = isWritable
      self.isHangup = isHangup
      self.isError = isError
    }
  }

  /// Creates an epoll instance (close-on-exec).
  ///
  /// The corresponding C function is `epoll_create1`.
  public init() throws(SystemError) {
    let fd = try check("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    fileDescriptor = FileDescriptor(rawValue: fd)
  }

  /// Starts watching `fd` for `interest`, reporting it with `token`.
  ///
  /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_ADD`.
  public func register(
    _ fd: FileDescriptor, token: UInt64, interest: Interest = .readable
  ) throws(SystemError) {
    try control(EPOLL_CTL_ADD, fd, token: token, interest: interest)
  }

  /// Changes the interest or token of an already registered `fd`.
  ///
  /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_MOD`.
  public func modify(
    _ fd: FileDescriptor, token: UInt64, interest: Interest
  ) throws(SystemError) {
    try control(EPOLL_CTL_MOD, fd, token: token, interest: interest)
  }

  /// Stops watching `fd`. Call it before closing `fd`: epoll tracks the open file, not the
  /// number, so a duplicated descriptor would keep reporting (epoll(7), Q6).
  ///
  /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_DEL`.
  public func unregister(_ fd: FileDescriptor) throws(SystemError) {
    try check("epoll_ctl") { epoll_ctl(fileDescriptor.rawValue, EPOLL_CTL_DEL, fd.rawValue, nil) }
  }

  private func control(
    _ operation: Int32, _ fd: FileDescriptor, token: UInt64, interest: Interest
  ) throws(SystemError) {
    // EPOLLRDHUP reports a stream peer's shutdown even while unread data remains.
    var event = epoll_event()
    event.events = interest.rawValue | EPOLLRDHUP.rawValue
    event.data.u64 = token
    try check("epoll_ctl") { epoll_ctl(fileDescriptor.rawValue, operation, fd.rawValue, &event) }
  }

  /// Waits until at least one registered descriptor is ready or the timeout passes.
  ///
  /// - Parameters:
  ///   - timeoutMilliseconds: how long to wait at most; `nil` waits forever, 0 only polls.
  ///   - maximumEvents: the most events returned by one call; the rest come next time.
  /// - Returns: the ready descriptors, or an empty array on timeout. A signal that interrupts
  ///   the wait (`EINTR`) also returns an empty array, so the caller recomputes its deadline
  ///   instead of sleeping on a stale timeout.
  ///
  /// The corresponding C function is `epoll_wait`.
  public func wait(
    timeoutMilliseconds: Int32?, maximumEvents: Int = 32
  ) throws(SystemError) -> [Event] {
    var events: [Event] = []
    try wait(timeoutMilliseconds: timeoutMilliseconds, into: &events, maximumEvents: maximumEvents)
    return events
  }

  /// Waits as ``wait(timeoutMilliseconds:maximumEvents:)`` does, replacing the contents of
  /// `events` with the ready descriptors. A loop that passes the same array every time keeps its
  /// storage: waking up then allocates nothing.
  ///
  /// The corresponding C function is `epoll_wait`.
  public func wait(
    timeoutMilliseconds: Int32?, into events: inout [Event], maximumEvents: Int = 32
  ) throws(SystemError) {
    precondition(maximumEvents > 0, "maximumEvents must be positive")
    events.removeAll(keepingCapacity: true)
    let timeout = timeoutMilliseconds.map { max($0, 0) } ?? -1
    // On the stack: `maximumEvents` small records, filled by the kernel.
    let error = withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: maximumEvents) {
      buffer -> SystemError? in
      let result = valueOrErrno("epoll_wait", retryOnInterrupt: false) {
        epoll_wait(fileDescriptor.rawValue, buffer.baseAddress, Int32(buffer.count), timeout)
      }
      let count: Int32
      switch result {
      case .success(let value): count = value
      case .failure(.interrupted): return nil
      case .failure(let error): return SystemError(operation: "epoll_wait", errno: error)
      }
      for raw in buffer.prefix(Int(count)) {
        let bits = raw.events
        events.append(
          Event(
            token: raw.data.u64,
            isReadable: bits & EPOLLIN.rawValue != 0,
            isWritable: bits & EPOLLOUT.rawValue != 0,
            isHangup: bits & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0,
            isError: bits & EPOLLERR.rawValue != 0))
      }
      return nil
    }
    if let error { throw error }
  }

  /// Waits until a descriptor is ready or the monotonic clock reaches `deadline`.
  ///
  /// epoll counts whole milliseconds, so the timeout is rounded up: the call never returns
  /// before the deadline only because of rounding. For sub-millisecond precision register a
  /// `DeadlineTimer` instead and wait with no timeout.
  /// - Parameter deadline: an absolute `MonotonicClock.now()` value in nanoseconds, or `nil`
  ///   to wait without a deadline.
  ///
  /// The corresponding C function is `epoll_wait`.
  public func wait(until deadline: Int64?, maximumEvents: Int = 32) throws(SystemError) -> [Event] {
    guard let deadline else {
      return try wait(timeoutMilliseconds: nil, maximumEvents: maximumEvents)
    }
    let remaining = max(deadline - MonotonicClock.now(), 0)
    let milliseconds = min((remaining + 999_999) / 1_000_000, Int64(Int32.max))
    return try wait(timeoutMilliseconds: Int32(milliseconds), maximumEvents: maximumEvents)
  }

  /// Closes the epoll descriptor.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }
}
