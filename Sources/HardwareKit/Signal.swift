// SPDX-License-Identifier: MIT
// Signal numbers by name, and the process-wide signal calls the daemon needs.

import CLinux
import Glibc

/// A POSIX signal number with readable names, so that no module above HardwareKit needs Glibc.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The C signal number.
  public var rawValue: Int32
  /// Wraps a C signal number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `SIGHUP`: systemd's reload request (`ExecReload=/bin/kill -HUP $MAINPID`).
  public static var hangup: Signal { Signal(rawValue: SIGHUP) }
  /// `SIGINT`: Ctrl-C.
  public static var interrupt: Signal { Signal(rawValue: SIGINT) }
  /// `SIGTERM`: systemd's stop request.
  public static var terminate: Signal { Signal(rawValue: SIGTERM) }
  /// `SIGKILL`: cannot be caught or blocked.
  public static var kill: Signal { Signal(rawValue: SIGKILL) }
  /// `SIGQUIT`.
  public static var quit: Signal { Signal(rawValue: SIGQUIT) }
  /// `SIGUSR1`.
  public static var user1: Signal { Signal(rawValue: SIGUSR1) }
  /// `SIGUSR2`.
  public static var user2: Signal { Signal(rawValue: SIGUSR2) }
  /// `SIGCHLD`: a child process changed state.
  public static var child: Signal { Signal(rawValue: SIGCHLD) }
  /// `SIGPIPE`: a write to a pipe or socket without a reader.
  public static var pipe: Signal { Signal(rawValue: SIGPIPE) }
  /// `SIGABRT`: systemd's watchdog signal by default.
  public static var abort: Signal { Signal(rawValue: SIGABRT) }
  /// `SIGALRM`.
  public static var alarm: Signal { Signal(rawValue: SIGALRM) }
  /// `SIGWINCH`: the terminal was resized.
  public static var windowChanged: Signal { Signal(rawValue: SIGWINCH) }

  /// `"SIGHUP"`, or `"signal <n>"` for numbers without a name here.
  public var description: String {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGKILL: "SIGKILL",
      SIGQUIT: "SIGQUIT", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", SIGCHLD: "SIGCHLD",
      SIGPIPE: "SIGPIPE", SIGABRT: "SIGABRT", SIGALRM: "SIGALRM", SIGWINCH: "SIGWINCH",
      SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
    ]
    return names[rawValue] ?? "signal \(rawValue)"
  }

  /// Makes the process ignore `signal` (or restores its default action).
  ///
  /// The daemon ignores `.pipe` so that writing to a client that went away returns `EPIPE`
  /// instead of killing the process (signal(7)).
  ///
  /// The corresponding C function is `sigaction` with `SIG_IGN` or `SIG_DFL`.
  public static func ignore(_ signal: Signal, _ ignored: Bool = true) throws(SystemError) {
    try check("sigaction") { clinux_signal_ignore(signal.rawValue, ignored ? 1 : 0) }
  }

  /// Blocks (or unblocks) `signals` in the calling thread.
  ///
  /// The corresponding C function is `pthread_sigmask`.
  public static func block(_ signals: [Signal], _ blocked: Bool = true) throws(SystemError) {
    let numbers = signals.map(\.rawValue)
    try checkReturnedError(
      "pthread_sigmask",
      numbers.withUnsafeBufferPointer {
        clinux_signal_mask(blocked ? 1 : 0, $0.baseAddress, Int32($0.count))
      })
  }

  /// Sends `signal` to the calling thread only.
  ///
  /// Unlike `kill(getpid(), …)`, the signal cannot be delivered to another thread of the
  /// process, which matters in multi-threaded programs such as test runners (signal(7), "Signal
  /// mask and pending signals").
  ///
  /// The corresponding C function is `pthread_kill` with `pthread_self()`.
  public static func raiseInCurrentThread(_ signal: Signal) throws(SystemError) {
    try checkReturnedError("pthread_kill", clinux_signal_raise_in_thread(signal.rawValue))
  }

  /// Sends `signal` to the process `pid` (or a process group when negative).
  ///
  /// The corresponding C function is `kill`.
  public static func send(_ signal: Signal, to pid: Int32) throws(SystemError) {
    try check("kill", path: "\(pid)") { Glibc.kill(pid, signal.rawValue) }
  }
}
