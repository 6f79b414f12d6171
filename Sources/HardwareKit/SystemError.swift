// SPDX-License-Identifier: MIT
// The one error type of HardwareKit: which call failed, on what, with which errno, and a hint.

/// A failed operating-system call.
///
/// Its description names the operation, the path, the C library's message and the errno name,
/// for example `open /dev/ttyUSB0: No such device (ENODEV)`, followed by `; hint: …` when there
/// is a hint.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C call or step that failed, such as `"open"` or `"tcsetattr"`.
  public var operation: String
  /// The file, device, socket or name the call was about, if any.
  public var path: String?
  /// The error number the call reported.
  public var errno: Errno
  /// What the user can do about it, if the library knows.
  public var hint: String?

  /// Creates an error value.
  public init(operation: String, path: String? = nil, errno: Errno, hint: String? = nil) {
    self.operation = operation
    self.path = path
    self.errno = errno
    self.hint = hint
  }

  /// `open /dev/ttyUSB0: No such device (ENODEV)`, plus `; hint: …` when there is a hint.
  public var description: String {
    var text = operation
    if let path { text += " \(path)" }
    text += ": \(errno.description)"
    if let hint { text += "; hint: \(hint)" }
    return text
  }
}
