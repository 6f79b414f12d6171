// SPDX-License-Identifier: MIT
// A typed errno value, after swift-system's `Errno`: readable names over the C constants.

import CLinux
import Glibc

/// An error number reported by the C library, such as `ENODEV`.
///
/// The named statics cover the numbers the daemon reacts to; any other value can be built from
/// its raw number.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  /// The C error number.
  public var rawValue: Int32

  /// Wraps a C error number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The errno of the last failed C call on this thread.
  static var current: Errno { Errno(rawValue: errno) }

  /// The symbolic name, such as `"ENODEV"`, or `"E<number>"` when the C library has none.
  ///
  /// The corresponding C function is `strerrorname_np`.
  public var name: String {
    if let name = clinux_errno_name(rawValue) { return String(cString: name) }
    return "E\(rawValue)"
  }

  /// The C library's description, such as `"No such device"`.
  ///
  /// The corresponding C function is `strerrordesc_np` (a thread-safe `strerror`).
  public var message: String { String(cString: clinux_errno_message(rawValue)) }

  /// `"No such device (ENODEV)"`.
  public var description: String { "\(message) (\(name))" }

  /// Resource temporarily unavailable: a non-blocking call would block. The C error is `EAGAIN`.
  public static var wouldBlock: Errno { Errno(rawValue: EAGAIN) }
  /// A signal interrupted the call. The C error is `EINTR`.
  public static var interrupted: Errno { Errno(rawValue: EINTR) }
  /// The device is gone (unplugged). The C error is `ENODEV`.
  public static var noSuchDevice: Errno { Errno(rawValue: ENODEV) }
  /// No such device or address: the device behind the file is gone. The C error is `ENXIO`.
  public static var noSuchDeviceOrAddress: Errno { Errno(rawValue: ENXIO) }
  /// No such file or directory. The C error is `ENOENT`.
  public static var noSuchFile: Errno { Errno(rawValue: ENOENT) }
  /// The device or resource is busy. The C error is `EBUSY`.
  public static var resourceBusy: Errno { Errno(rawValue: EBUSY) }
  /// Permission denied by file modes. The C error is `EACCES`.
  public static var permissionDenied: Errno { Errno(rawValue: EACCES) }
  /// Operation not permitted (privilege). The C error is `EPERM`.
  public static var notPermitted: Errno { Errno(rawValue: EPERM) }
  /// The file already exists. The C error is `EEXIST`.
  public static var fileExists: Errno { Errno(rawValue: EEXIST) }
  /// Input/output error, typically a hung-up tty. The C error is `EIO`.
  public static var ioError: Errno { Errno(rawValue: EIO) }
  /// Invalid argument. The C error is `EINVAL`.
  public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
  /// Bad file descriptor: a bug in the caller. The C error is `EBADF`.
  public static var badFileDescriptor: Errno { Errno(rawValue: EBADF) }
  /// Bad address: a bug in the caller. The C error is `EFAULT`.
  public static var badAddress: Errno { Errno(rawValue: EFAULT) }
  /// The peer closed its end. The C error is `EPIPE`.
  public static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
  /// Nobody listens at the address. The C error is `ECONNREFUSED`.
  public static var connectionRefused: Errno { Errno(rawValue: ECONNREFUSED) }
  /// The peer reset the connection. The C error is `ECONNRESET`.
  public static var connectionReset: Errno { Errno(rawValue: ECONNRESET) }
  /// A connection waiting to be accepted was given up by its client. The C error is
  /// `ECONNABORTED`.
  public static var connectionAborted: Errno { Errno(rawValue: ECONNABORTED) }
  /// The socket is not connected (yet). The C error is `ENOTCONN`.
  public static var notConnected: Errno { Errno(rawValue: ENOTCONN) }
  /// No route to the host. The C error is `EHOSTUNREACH`.
  public static var hostUnreachable: Errno { Errno(rawValue: EHOSTUNREACH) }
  /// The network is unreachable (no interface up, no route). The C error is `ENETUNREACH`.
  public static var networkUnreachable: Errno { Errno(rawValue: ENETUNREACH) }
  /// The address is already in use. The C error is `EADDRINUSE`.
  public static var addressInUse: Errno { Errno(rawValue: EADDRINUSE) }
  /// The operation timed out. The C error is `ETIMEDOUT`.
  public static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }
  /// The file name is too long (for a socket: longer than `sun_path`). The C error is
  /// `ENAMETOOLONG`.
  public static var nameTooLong: Errno { Errno(rawValue: ENAMETOOLONG) }
  /// Not a terminal. The C error is `ENOTTY`.
  public static var notATerminal: Errno { Errno(rawValue: ENOTTY) }
  /// A path component is not a directory. The C error is `ENOTDIR`.
  public static var notADirectory: Errno { Errno(rawValue: ENOTDIR) }
  /// The path is a directory. The C error is `EISDIR`.
  public static var isADirectory: Errno { Errno(rawValue: EISDIR) }
  /// The file is larger than the reader takes. The C error is `EFBIG`.
  public static var fileTooLarge: Errno { Errno(rawValue: EFBIG) }
  /// No space left on the device. The C error is `ENOSPC`.
  public static var noSpace: Errno { Errno(rawValue: ENOSPC) }
  /// The file system is read-only. The C error is `EROFS`.
  public static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
  /// The process has too many open files. The C error is `EMFILE`.
  public static var tooManyOpenFiles: Errno { Errno(rawValue: EMFILE) }
  /// No such process. The C error is `ESRCH`.
  public static var noSuchProcess: Errno { Errno(rawValue: ESRCH) }
  /// No child process to wait for. The C error is `ECHILD`.
  public static var noChildProcess: Errno { Errno(rawValue: ECHILD) }
  /// The system call is not implemented by this kernel. The C error is `ENOSYS`.
  public static var notImplemented: Errno { Errno(rawValue: ENOSYS) }
  /// A symbolic link where none may be (`O_NOFOLLOW`), or a loop of them. The C error is
  /// `ELOOP`.
  public static var tooManySymbolicLinks: Errno { Errno(rawValue: ELOOP) }
}
