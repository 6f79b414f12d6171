// SPDX-License-Identifier: MIT
// Keyboard input without line buffering or echo for the interactive run, always restored.

import CLinux

/// Single keypresses without echo on a terminal, restored when done.
///
/// Entering the mode saves the terminal's settings and clears `ICANON` and `ECHO` (termios(3));
/// `ISIG` stays, so Ctrl-C still raises `SIGINT`. `restore()` or deinitialization puts the saved
/// settings back. Only one terminal can be in this mode at a time: the daemon uses it for its
/// own standard input.
public final class RawTerminalMode: Sendable {
  /// The terminal in raw mode.
  public let fileDescriptor: FileDescriptor

  /// Saves the settings of the terminal on `fd` and switches it to non-canonical, no-echo input.
  /// - Throws: `SystemError` with `ENOTTY` if `fd` is not a terminal.
  ///
  /// The corresponding C functions are `tcgetattr` and `tcsetattr`.
  public init(_ fd: FileDescriptor = .standardInput) throws(SystemError) {
    try check("tcsetattr") { clinux_terminal_enter_raw(fd.rawValue) }
    fileDescriptor = fd
  }

  /// Restores the saved settings. Only the first restore acts, so calling it more than once
  /// (or letting deinitialization call it again) is harmless.
  ///
  /// The corresponding C function is `tcsetattr`.
  public func restore() { Self.restoreSavedMode() }

  deinit { Self.restoreSavedMode() }

  /// Restores the settings saved by the last `RawTerminalMode`, if not restored yet.
  ///
  /// The saved settings live in static C storage and `tcsetattr` is async-signal-safe
  /// (signal-safety(7)), so this may be called from a signal handler or a fatal-error path,
  /// where no Swift object can be reached.
  ///
  /// The corresponding C function is `tcsetattr`.
  public static func restoreSavedMode() {
    _ = clinux_terminal_restore()
  }
}
