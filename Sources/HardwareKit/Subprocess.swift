// SPDX-License-Identifier: MIT
// Spawning and reaping child processes with posix_spawn, for tests and the benchmark.

import CLinux
import Glibc

/// A spawned child process and the parent's ends of its pipes.
public struct Subprocess: Hashable, Sendable {
  /// The child's process id.
  public let processID: Int32
  /// The write end of the child's standard input, when spawned with `.pipe`.
  public let standardInput: FileDescriptor?
  /// The read end of the child's standard output, when spawned with `.pipe`.
  public let standardOutput: FileDescriptor?
  /// The read end of the child's standard error, when spawned with `.pipe`.
  public let standardError: FileDescriptor?

  /// Where one of the child's standard streams goes.
  public enum Stream: Hashable, Sendable {
    /// The parent's own descriptor.
    case inherit
    /// `/dev/null`.
    case nullDevice
    /// A new pipe; the parent gets the other end (close-on-exec, blocking).
    case pipe
    /// An existing descriptor of the parent.
    case fileDescriptor(FileDescriptor)
  }

  /// How a child process ended.
  public enum ExitStatus: Hashable, Sendable, CustomStringConvertible {
    /// It called `exit` with this code.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Signal)

    /// `"exited with code 3"` or `"killed by SIGTERM"`.
    public var description: String {
      switch self {
      case .exited(let code): "exited with code \(code)"
      case .signaled(let signal): "killed by \(signal)"
      }
    }

    /// Decodes a `wait` status word (WIFEXITED, WEXITSTATUS, WIFSIGNALED, WTERMSIG in wait(2)).
    init?(waitStatus status: Int32) {
      if clinux_wait_exited(status) != 0 {
        self = .exited(clinux_wait_exit_code(status))
      } else if clinux_wait_signaled(status) != 0 {
        self = .signaled(Signal(rawValue: clinux_wait_term_signal(status)))
      } else {
        return nil
      }
    }
  }

  /// Starts `executable` with `arguments`.
  ///
  /// The child starts with an empty signal mask and default signal actions: a daemon blocks
  /// its signals for signalfd, and a blocked mask would otherwise be inherited across exec
  /// (signal(7), "Signal mask and pending signals").
  /// - Parameters:
  ///   - executable: a path, or a bare name looked up in `PATH`.
  ///   - arguments: the arguments after `argv[0]` (which is `executable`).
  ///   - environment: `NAME=value` entries; `nil` passes the parent's environment on.
  ///
  /// The corresponding C function is `posix_spawn` (or `posix_spawnp` for a bare name).
  public static func spawn(
    executable: String, arguments: [String] = [], environment: [String]? = nil,
    standardInput: Stream = .inherit, standardOutput: Stream = .inherit,
    standardError: Stream = .inherit
  ) throws(SystemError) -> Subprocess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    var parentEnds: [FileDescriptor?] = []
    var childEnds: [FileDescriptor] = []
    func closeAll() {
      for fd in childEnds { try? fd.close() }
      for fd in parentEnds.compactMap({ $0 }) { try? fd.close() }
    }
    do throws(SystemError) {
      for (target, stream) in [standardInput, standardOutput, standardError].enumerated() {
        let target = Int32(target)
        switch stream {
        case .inherit:
          parentEnds.append(nil)
        case .nullDevice:
          posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
          parentEnds.append(nil)
        case .fileDescriptor(let fd):
          posix_spawn_file_actions_adddup2(&actions, fd.rawValue, target)
          parentEnds.append(nil)
        case .pipe:
          let (readEnd, writeEnd) = try FileDescriptor.pipe()
          let (childEnd, parentEnd) = target == 0 ? (readEnd, writeEnd) : (writeEnd, readEnd)
          childEnds.append(childEnd)
          parentEnds.append(parentEnd)
          // dup2 onto 0, 1 or 2 clears close-on-exec for the copy only; the originals close.
          posix_spawn_file_actions_adddup2(&actions, childEnd.rawValue, target)
        }
      }
    } catch {
      closeAll()
      throw error
    }

    var emptySet = sigset_t()
    sigemptyset(&emptySet)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &emptySet)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let status: Int32
    let searchPath = !executable.contains("/")
    if let envp {
      status =
        searchPath
        ? posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        : posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    } else {
      let inherited = clinux_environment()
      status =
        searchPath
        ? posix_spawnp(&pid, executable, &actions, &attributes, argv, inherited)
        : posix_spawn(&pid, executable, &actions, &attributes, argv, inherited)
    }
    for fd in childEnds { try? fd.close() }
    childEnds = []
    guard status == 0 else {
      closeAll()
      throw SystemError(
        operation: "posix_spawn", path: executable, errno: Errno(rawValue: status))
    }
    return Subprocess(
      processID: pid, standardInput: parentEnds[0], standardOutput: parentEnds[1],
      standardError: parentEnds[2])
  }

  /// Waits until the child ends and reaps it.
  ///
  /// The corresponding C function is `waitpid`.
  public func wait() throws(SystemError) -> ExitStatus {
    try Self.wait(processID: processID)
  }

  /// Waits until the process `processID` (a child of this process) ends and reaps it.
  ///
  /// The corresponding C function is `waitpid`.
  public static func wait(processID: Int32) throws(SystemError) -> ExitStatus {
    while true {
      var status: Int32 = 0
      try check("waitpid", path: "\(processID)") { waitpid(processID, &status, 0) }
      // Stopped or continued children are not reported without WUNTRACED; loop to be sure.
      if let exit = ExitStatus(waitStatus: status) { return exit }
    }
  }

  /// The child's exit status when it has ended, reaping it; nil while it still runs. Never
  /// waits.
  ///
  /// The corresponding C function is `waitpid` with `WNOHANG`.
  public func exitStatusIfEnded() throws(SystemError) -> ExitStatus? {
    var status: Int32 = 0
    let reaped = try check("waitpid", path: "\(processID)") {
      waitpid(processID, &status, WNOHANG)
    }
    guard reaped == processID else { return nil }
    return ExitStatus(waitStatus: status)
  }

  /// Waits at most `timeoutMilliseconds` for the child to end.
  ///
  /// The wait sleeps on a pidfd (pidfd_open(2), Linux 5.3), which becomes readable when the
  /// child exits; on older kernels it checks every 5 ms instead.
  /// - Returns: the exit status, or `nil` if the child is still running at the timeout.
  ///
  /// The corresponding C functions are `pidfd_open`, `poll` and `waitpid` with `WNOHANG`.
  public func wait(timeoutMilliseconds: Int) throws(SystemError) -> ExitStatus? {
    let deadline = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
    let pidfd = clinux_pidfd_open(processID)
    defer { if pidfd >= 0 { Glibc.close(pidfd) } }
    while true {
      var status: Int32 = 0
      let reaped = try check("waitpid", path: "\(processID)") {
        waitpid(processID, &status, WNOHANG)
      }
      if reaped == processID, let exit = ExitStatus(waitStatus: status) { return exit }
      let remaining = deadline - MonotonicClock.now()
      if remaining <= 0 { return nil }
      let milliseconds = Int32(min((remaining + 999_999) / 1_000_000, 1000))
      if pidfd >= 0 {
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, milliseconds)
      } else {
        _ = poll(nil, 0, min(milliseconds, 5))
      }
    }
  }

  /// Sends `signal` to the child.
  ///
  /// The corresponding C function is `kill`.
  public func kill(_ signal: Signal) throws(SystemError) {
    try Signal.send(signal, to: processID)
  }
}
