// SPDX-License-Identifier: MIT
// eventfd(2): a counter descriptor that lets another thread wake the event loop.

import CLinux
import Glibc

/// An eventfd used to wake the event loop from another thread.
///
/// Writes add to a counter and make the descriptor readable; `consume()` resets it. Several
/// notifications before the loop wakes up collapse into one wake-up (eventfd(2)).
public struct EventNotifier: Hashable, Sendable {
  /// The event descriptor (non-blocking, close-on-exec).
  public let fileDescriptor: FileDescriptor

  /// Creates a notifier with a zero counter.
  ///
  /// The corresponding C function is `eventfd`.
  public init() throws(SystemError) {
    let flags = Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)
    let fd = try check("eventfd") { eventfd(0, flags) }
    fileDescriptor = FileDescriptor(rawValue: fd)
  }

  /// Wakes whoever polls the descriptor. Safe to call from any thread.
  ///
  /// If the counter is already at its maximum the write would block; a wake-up is pending then
  /// anyway, so that case is not an error.
  ///
  /// The corresponding C function is `write` on the event descriptor.
  public func notify() throws(SystemError) {
    var one: UInt64 = 1
    _ = try withUnsafeBytes(of: &one) { (raw) throws(SystemError) in
      try fileDescriptor.write(raw)
    }
  }

  /// Reads and resets the counter.
  /// - Returns: the number of notifications since the last call, 0 if none.
  ///
  /// The corresponding C function is `read` on the event descriptor.
  @discardableResult
  public func consume() throws(SystemError) -> UInt64 {
    var count: UInt64 = 0
    let result = try withUnsafeMutableBytes(of: &count) { (raw) throws(SystemError) in
      try fileDescriptor.read(into: raw)
    }
    guard case .bytes = result else { return 0 }
    return count
  }

  /// Closes the descriptor.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) { try fileDescriptor.close() }
}
