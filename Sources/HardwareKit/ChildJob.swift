// SPDX-License-Identifier: MIT
// A short-lived child process doing one job for the event loop: what takes time or memory the
// loop cannot give (a name lookup's getaddrinfo, a voice's synthesis) runs in a child of the
// daemon's own binary, and the loop reads its answer without ever waiting for it.
//
// The pattern, once: posix_spawn the child with its standard input given in full before it
// starts (a pipe already written and closed, or /dev/null), its standard output (and, if kept,
// standard error) on non-blocking pipes, and a pidfd (pidfd_open(2), Linux 5.3) that turns
// readable when it has ended; each step reads what is there (at most a budget), reaps the child
// once it has ended, and ends it at its deadline or when what it says is refused. SIGKILL and a
// wait: the child runs no more code of its own, and the wait is only the kernel taking it down.
// The descriptors stay open until `cancel()` or until the job is released, so that a loop still
// watching them can let go of them first (epoll(7) tracks the open file, not the number).

import CLinux

/// One child process doing a job, watched from the event loop: its users (``AddressLookup``,
/// ``VoiceSynthesisJob``) read its answer with ``step(at:take:)`` and say what it means.
final class ChildJob {
  /// Where the child is after a step.
  enum Progress: Equatable {
    /// Still at work.
    case running
    /// It has ended (nil: reaped by someone else, SIGCHLD ignored; its answer is what it
    /// wrote), and its output has ended too when the job waits for that.
    case exited(Subprocess.ExitStatus?)
    /// Its output was refused: the child was ended.
    case refused
    /// Not done by the deadline: the child was ended.
    case timedOut
    /// The job was cancelled.
    case cancelled
  }

  /// The most bytes of the child's output taken in one step, so that one step never holds the
  /// loop for long (two 64 KiB pipe buffers' worth).
  static let readBudget = 128 * 1024
  /// The most of the child's standard error kept, for the message of a failure.
  static let maximumErrorBytes = 1024

  /// When the child is ended if it has not finished (monotonic nanoseconds).
  let deadline: Int64
  /// The read end of the child's standard output (non-blocking).
  let output: FileDescriptor?
  /// A pidfd that turns readable when the child has ended, where the kernel has them.
  let exitNotice: FileDescriptor?
  /// What to watch for readability: the output, the standard error if kept, the pidfd.
  let descriptors: [FileDescriptor]
  /// The start of what the child said on its standard error, when it is kept.
  private(set) var errorText: [UInt8] = []
  /// Whether the child's output has reached its end.
  private(set) var outputEnded = false
  /// Whether the child still runs (neither reaped nor ended).
  private(set) var isRunning = true

  private let child: Subprocess
  private let errors: FileDescriptor?
  /// Whether the job is done only once the child's output has ended too.
  private let waitsForOutputEnd: Bool
  private var errorsEnded = false
  /// Set once the child is reaped: its exit status, or nil when another reaped it.
  private var reaped: Subprocess.ExitStatus??
  private var released = false
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  /// Starts `program` with `arguments`, its standard input `input` (written whole before the
  /// child starts: at most a pipe's 64 KiB) or /dev/null when nil, its standard error kept
  /// when `keepsErrors` (otherwise the daemon's own); to be ended at `deadline`.
  /// `waitsForOutputEnd`: the job is done once its output has ended as well as the child.
  /// - Throws: `SystemError` when the child cannot be started.
  init(
    program: String, arguments: [String], input: [UInt8]?, keepsErrors: Bool,
    waitsForOutputEnd: Bool, deadline: Int64
  ) throws(SystemError) {
    let standardInput: Subprocess.Stream
    var inputEnd: FileDescriptor?
    if let input {
      let pipe = try FileDescriptor.pipe()
      do throws(SystemError) {
        // Written while this process holds the read end: no SIGPIPE, no wait (it fits).
        try pipe.writeEnd.setNonBlocking()
        try pipe.writeEnd.writeAll(input)
        try pipe.writeEnd.close()
      } catch {
        try? pipe.writeEnd.close()
        try? pipe.readEnd.close()
        throw error
      }
      inputEnd = pipe.readEnd
      standardInput = .fileDescriptor(pipe.readEnd)
    } else {
      standardInput = .nullDevice
    }
    defer { try? inputEnd?.close() }
    child = try Subprocess.spawn(
      executable: program, arguments: arguments, standardInput: standardInput,
      standardOutput: .pipe, standardError: keepsErrors ? .pipe : .inherit)
    self.deadline = deadline
    self.waitsForOutputEnd = waitsForOutputEnd
    output = child.standardOutput
    errors = child.standardError
    try? output?.setNonBlocking()
    try? errors?.setNonBlocking()
    let pidfd = clinux_pidfd_open(child.processID)
    exitNotice = pidfd >= 0 ? FileDescriptor(rawValue: pidfd) : nil
    descriptors = [output, errors, exitNotice].compactMap { $0 }
  }

  deinit { cancel() }

  /// The child's process id.
  var processID: Int32 { child.processID }

  /// Reads what the child has written, never waiting: its output (at most ``readBudget``
  /// bytes) handed to `take`, which returns false to refuse it, and the start of its standard
  /// error. Reaps the child once it has ended; at or after ``deadline`` ends it.
  func step(at now: Int64, take: (ArraySlice<UInt8>) -> Bool) -> Progress {
    guard !released else { return .cancelled }
    guard readOutput(take) else {
      end()
      return .refused
    }
    readErrors()
    if reaped == nil {
      do {
        var status = try child.exitStatusIfEnded()
        if status == nil && outputEnded && (errors == nil || errorsEnded) && exitNotice == nil {
          // The pipes end when the child closes them in exiting: what is left of the exit is
          // the kernel's (this is the path without a pidfd only).
          status = try child.wait()
        }
        if let status { reaped = .some(status) }
      } catch {
        // ECHILD: reaped elsewhere (SIGCHLD ignored).
        reaped = .some(nil)
      }
      if reaped != nil {
        isRunning = false
        // What the child wrote before it ended is in the pipe now.
        guard readOutput(take) else { return .refused }
      }
    }
    if let reaped, outputEnded || !waitsForOutputEnd {
      readErrors()
      return .exited(reaped)
    }
    if now >= deadline {
      end()
      return .timedOut
    }
    return .running
  }

  /// Ends the child if it still runs, and closes the job's descriptors.
  func cancel() {
    end()
    guard !released else { return }
    released = true
    for descriptor in descriptors { try? descriptor.close() }
  }

  /// Kills and reaps a child that still runs.
  private func end() {
    guard isRunning else { return }
    isRunning = false
    try? child.kill(.kill)
    _ = try? child.wait()
  }

  /// Hands `take` what the child wrote so far, up to the budget; false when it refused it.
  private func readOutput(_ take: (ArraySlice<UInt8>) -> Bool) -> Bool {
    guard let output, !outputEnded else { return true }
    var taken = 0
    while taken < Self.readBudget {
      let result = chunk.withUnsafeMutableBytes { try? output.read(into: $0) }
      switch result {
      case .bytes(let count)?:
        taken += count
        guard take(chunk[..<count]) else { return false }
      case .wouldBlock?:
        return true
      case .endOfFile?, nil:
        outputEnded = true
        return true
      }
    }
    return true
  }

  /// Keeps the start of what the child says on its standard error.
  private func readErrors() {
    guard let errors, !errorsEnded else { return }
    var bytes: [UInt8] = []
    // A child that writes without end to its standard error is ended at the deadline; until
    // then each step reads at most a pipe's worth of it.
    for _ in 0..<64 {
      bytes.removeAll(keepingCapacity: true)
      guard let result = try? errors.read(appendingTo: &bytes, maximumCount: 1024) else {
        errorsEnded = true
        return
      }
      switch result {
      case .bytes:
        errorText += bytes.prefix(Self.maximumErrorBytes - errorText.count)
      case .wouldBlock: return
      case .endOfFile:
        errorsEnded = true
        return
      }
    }
  }
}
