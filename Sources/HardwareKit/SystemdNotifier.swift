// SPDX-License-Identifier: MIT
// sd_notify(3) without libsystemd: one AF_UNIX datagram of KEY=VALUE lines to $NOTIFY_SOCKET.

import CLinux
import Glibc

/// Tells systemd about the service's state (`Type=notify`), natively.
///
/// Each notification is one `SOCK_DGRAM` datagram of newline-separated `KEY=VALUE` lines sent to
/// the socket named by `NOTIFY_SOCKET`; a leading `@` names the abstract namespace. The kernel
/// attaches the sender's credentials itself, so no ancillary data is needed (sd_notify(3)).
/// When the service is not supervised (`NOTIFY_SOCKET` unset) every call silently does nothing,
/// as in libsystemd. Sends never block and their errors are ignored: a manager that went away
/// must not stall the daemon.
public struct SystemdNotifier: Hashable, Sendable {
  /// The socket address, or `nil` when not running under systemd's notify protocol.
  public let socketPath: String?

  /// A notifier for an explicit socket address (`nil` or empty disables it).
  public init(socketPath: String?) {
    self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// A notifier for the address in `NOTIFY_SOCKET`.
  ///
  /// The corresponding C function is `getenv`.
  public static func fromEnvironment() -> SystemdNotifier {
    SystemdNotifier(socketPath: Environment.get("NOTIFY_SOCKET"))
  }

  /// Whether notifications go anywhere.
  public var isEnabled: Bool { socketPath != nil }

  /// Sends `assignments` (such as `"READY=1\nSTATUS=running"`) as one datagram.
  /// - Returns: `nil` when sent or disabled, otherwise the send error, for a debug log only.
  ///
  /// The corresponding C functions are `socket` and `sendto` (`MSG_DONTWAIT`).
  @discardableResult
  public func notify(_ assignments: String) -> Errno? {
    guard let socketPath else { return nil }
    let fd = clinux_unix_socket(1, 1)
    guard fd >= 0 else { return .current }
    defer { Glibc.close(fd) }
    let bytes = Array(assignments.utf8)
    let result = bytes.withUnsafeBytes { raw in
      valueOrErrno("sendto") { clinux_unix_sendto(fd, raw.baseAddress, raw.count, socketPath) }
    }
    switch result {
    case .success: return nil
    case .failure(let error): return error
    }
  }

  /// `READY=1`: start-up (or a reload) has finished.
  ///
  /// The corresponding C function is `sendto`.
  @discardableResult
  public func ready() -> Errno? { notify("READY=1") }

  /// `READY=1` together with a status line.
  ///
  /// The corresponding C function is `sendto`.
  @discardableResult
  public func ready(status: String) -> Errno? { notify("READY=1\nSTATUS=\(Self.oneLine(status))") }

  /// `STATUS=…`: the line `systemctl status` shows. Newlines become spaces, since a newline
  /// would end the assignment.
  ///
  /// The corresponding C function is `sendto`.
  @discardableResult
  public func status(_ text: String) -> Errno? { notify("STATUS=\(Self.oneLine(text))") }

  /// `RELOADING=1` with `MONOTONIC_USEC=`: a configuration reload started; send `ready()` when
  /// it is done. systemd 253 and later need the timestamp to match the reload to the request
  /// (`Type=notify-reload`); older versions ignore it.
  /// - Parameter monotonicNanoseconds: the `MonotonicClock.now()` reading to report.
  ///
  /// The corresponding C function is `sendto`.
  @discardableResult
  public func reloading(monotonicNanoseconds: Int64 = MonotonicClock.now()) -> Errno? {
    notify("RELOADING=1\nMONOTONIC_USEC=\(monotonicNanoseconds / 1000)")
  }

  /// `STOPPING=1`: shutdown has begun.
  ///
  /// The corresponding C function is `sendto`.
  @discardableResult
  public func stopping() -> Errno? { notify("STOPPING=1") }

  /// `WATCHDOG=1`: the keep-alive ping; send it every `Watchdog.pingIntervalNanoseconds`.
  ///
  /// The corresponding C function is `sendto`.
  @discardableResult
  public func watchdog() -> Errno? { notify("WATCHDOG=1") }

  private static func oneLine(_ text: String) -> String {
    String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}
