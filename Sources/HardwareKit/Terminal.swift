// SPDX-License-Identifier: MIT
// Terminal queries: is it a tty, how big is it, which input modes are on.

import CLinux
import Glibc

/// Questions about terminals.
public enum Terminal {
  /// Whether `fd` is a terminal (to decide on colour and on raw keyboard input).
  ///
  /// The corresponding C function is `isatty`.
  public static func isTTY(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

  /// The size of the terminal on `fd`, or `nil` when it is not a terminal or reports no size.
  ///
  /// The corresponding C function is `ioctl` with `TIOCGWINSZ`.
  public static func windowSize(_ fd: FileDescriptor) -> (rows: Int, columns: Int)? {
    var rows: UInt16 = 0
    var columns: UInt16 = 0
    guard clinux_window_size(fd.rawValue, &rows, &columns) == 0, rows > 0, columns > 0 else {
      return nil
    }
    return (Int(rows), Int(columns))
  }

  /// The local-mode bits that matter for keyboard input.
  public struct Modes: Hashable, Sendable {
    /// `ICANON`: input arrives line by line, after Enter.
    public var isCanonical: Bool
    /// `ECHO`: typed characters are printed back.
    public var isEchoing: Bool

    /// Creates a modes value.
    public init(isCanonical: Bool, isEchoing: Bool) {
      self.isCanonical = isCanonical
      self.isEchoing = isEchoing
    }
  }

  /// The current canonical and echo modes of the terminal on `fd`.
  ///
  /// The corresponding C function is `tcgetattr`.
  public static func modes(_ fd: FileDescriptor) throws(SystemError) -> Modes {
    var canonical: Int32 = 0
    var echo: Int32 = 0
    try check("tcgetattr") { clinux_terminal_modes(fd.rawValue, &canonical, &echo) }
    return Modes(isCanonical: canonical != 0, isEchoing: echo != 0)
  }
}
