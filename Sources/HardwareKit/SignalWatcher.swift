// SPDX-License-Identifier: MIT
// signalfd(2): signals arrive as readable data in the event loop instead of in a handler.

import CLinux
import Glibc

/// A signalfd that turns the given signals into readable records.
///
/// Creating it blocks the signals in the calling thread, so that they stay pending and signalfd
/// can read them instead of their default action running (signalfd(2)). The daemon is
/// single-threaded, so its one thread is the whole process; in a multi-threaded process a
/// signal sent to the process may still reach another thread that does not block it.
public struct SignalWatcher: Hashable, Sendable {
  /// The signal descriptor (non-blocking, close-on-exec).
  public let fileDescriptor: FileDescriptor
  /// The signals this watcher reports.
  public let signals: [Signal]

  /// One received signal.
  public struct Delivery: Hashable, Sendable {
    /// Which signal arrived.
    public var signal: Signal
    /// The process that sent it (`ssi_pid`); 0 when the kernel sent it.
    public var senderPID: Int32
    /// The real user id of the sender (`ssi_uid`).
    public var senderUID: UInt32

    /// Creates a delivery value.
    public init(signal: Signal, senderPID: Int32, senderUID: UInt32) {
      self.signal = signal
      self.senderPID = senderPID
      self.senderUID = senderUID
    }
  }

  /// Blocks `signals` in the calling thread and opens a signalfd for them.
  ///
  /// The corresponding C functions are `pthread_sigmask` and `signalfd`.
  public init(signals: [Signal]) throws(SystemError) {
    try Signal.block(signals)
    var set = sigset_t()
    signals.map(\.rawValue).withUnsafeBufferPointer {
      clinux_signal_set(&set, $0.baseAddress, Int32($0.count))
    }
    let flags = Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC)
    let fd: Int32
    do {
      fd = try check("signalfd") { signalfd(-1, &set, flags) }
    } catch {
      // Without the descriptor nobody would ever read the blocked signals: undo the block.
      try? Signal.block(signals, false)
      throw error
    }
    fileDescriptor = FileDescriptor(rawValue: fd)
    self.signals = signals
  }

  /// Reads the next pending signal.
  /// - Returns: the signal and its sender, or `nil` when none is pending.
  ///
  /// The corresponding C function is `read` on the signal descriptor.
  public func next() throws(SystemError) -> Delivery? {
    var info = signalfd_siginfo()
    let result = try withUnsafeMutableBytes(of: &info) { (raw) throws(SystemError) in
      try fileDescriptor.read(into: raw)
    }
    guard case .bytes = result else { return nil }
    return Delivery(
      signal: Signal(rawValue: Int32(info.ssi_signo)), senderPID: Int32(bitPattern: info.ssi_pid),
      senderUID: info.ssi_uid)
  }

  /// Closes the descriptor and, if asked, unblocks the signals in the calling thread again.
  ///
  /// The corresponding C functions are `close` and `pthread_sigmask`.
  public func close(unblockingSignals: Bool = false) throws(SystemError) {
    try fileDescriptor.close()
    if unblockingSignals { try Signal.block(signals, false) }
  }
}
