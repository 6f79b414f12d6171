// SPDX-License-Identifier: MIT
// The child-process job that name lookups and the voice share, against shell children: its
// input given whole, its output read in bounded steps and refused at will, its standard error
// kept up to a bound, its deadline on manual time, its cancellation, and when it is done.

import Glibc
import Testing
import WodclockTestSupport

@testable import HardwareKit

@Suite struct ChildJobTests {
  static let second: Int64 = 1_000_000_000

  /// A job running `script` in the shell.
  func job(
    _ script: String, input: [UInt8]? = nil, keepsErrors: Bool = true,
    waitsForOutputEnd: Bool = true, deadline: Int64 = .max
  ) throws -> ChildJob {
    try ChildJob(
      program: "/bin/sh", arguments: ["-c", script, "job"], input: input,
      keepsErrors: keepsErrors, waitsForOutputEnd: waitsForOutputEnd, deadline: deadline)
  }

  /// Steps `job` each time one of its descriptors is readable (on the real clock, at most
  /// 10 s), until it is no longer running; returns what it wrote, the last progress and the
  /// number of steps.
  func drive(_ job: ChildJob, take: (ArraySlice<UInt8>) -> Bool = { _ in true }) throws -> (
    output: [UInt8], progress: ChildJob.Progress, steps: Int
  ) {
    let poller = try EventPoller()
    defer { try? poller.close() }
    for (token, descriptor) in job.descriptors.enumerated() {
      try poller.register(descriptor, token: UInt64(token))
    }
    defer { for descriptor in job.descriptors { try? poller.unregister(descriptor) } }
    var output: [UInt8] = []
    var steps = 0
    let giveUp = MonotonicClock.now() + 10 * Self.second
    while true {
      _ = try poller.wait(timeoutMilliseconds: 100)
      steps += 1
      let progress = job.step(at: MonotonicClock.now()) { bytes in
        output += bytes
        return take(bytes)
      }
      if progress != .running || MonotonicClock.now() > giveUp {
        return (output, progress, steps)
      }
    }
  }

  @Test func theInputIsGivenWholeAndTheOutputReadBack() throws {
    let text = Array("three\ntwo\none\n".utf8)
    let job = try job("cat; exit 4", input: text)
    defer { job.cancel() }
    let (output, progress, _) = try drive(job)
    #expect(output == text)
    #expect(progress == .exited(.exited(4)))
    #expect(!job.isRunning && job.outputEnded)
  }

  @Test func withoutInputTheChildReadsNothing() throws {
    let job = try job("wc -c")
    defer { job.cancel() }
    let (output, progress, _) = try drive(job)
    #expect(String(decoding: output, as: UTF8.self).trimmingSpaces == "0")
    #expect(progress == .exited(.exited(0)))
  }

  @Test func theStartOfTheStandardErrorIsKept() throws {
    let job = try job("head -c 5000 /dev/zero | tr '\\0' e >&2; exit 1")
    defer { job.cancel() }
    let (_, progress, _) = try drive(job)
    #expect(progress == .exited(.exited(1)))
    #expect(
      job.errorText == [UInt8](repeating: UInt8(ascii: "e"), count: ChildJob.maximumErrorBytes))
    // Not kept: the child writes to the daemon's own, and only its output and exit are watched.
    let quiet = try self.job("exit 0", keepsErrors: false)
    defer { quiet.cancel() }
    #expect(quiet.descriptors.count <= 2)
    _ = try drive(quiet)
    #expect(quiet.errorText.isEmpty)
  }

  @Test func eachStepReadsAtMostItsBudget() throws {
    // 1 MiB: the child waits on the pipe between the parent's steps.
    let job = try job("head -c 1048576 /dev/zero")
    defer { job.cancel() }
    var largest = 0
    let (output, progress, steps) = try drive(job) { bytes in
      largest = max(largest, bytes.count)
      return true
    }
    #expect(output.count == 1_048_576)
    #expect(progress == .exited(.exited(0)))
    #expect(steps >= 1_048_576 / ChildJob.readBudget)
    #expect(largest <= ChildJob.readBudget)
  }

  @Test func refusedOutputEndsTheChild() throws {
    let job = try job("echo nonsense; exec sleep 30")
    defer { job.cancel() }
    let child = job.processID
    let (_, progress, _) = try drive(job) { _ in false }
    #expect(progress == .refused)
    #expect(!job.isRunning)
    #expect(!FileSystem.fileExists("/proc/\(child)"), "killed and reaped")
  }

  @Test func aChildIsEndedAtItsDeadlineOnManualTime() throws {
    let job = try job("exec sleep 30", deadline: 12 * Self.second)
    defer { job.cancel() }
    let child = job.processID
    #expect(job.step(at: 11 * Self.second) { _ in true } == .running)
    #expect(job.isRunning)
    #expect(job.step(at: 12 * Self.second) { _ in true } == .timedOut)
    #expect(!job.isRunning)
    #expect(!FileSystem.fileExists("/proc/\(child)"))
  }

  @Test func aCancelledJobEndsItsChildAndClosesItsDescriptors() throws {
    let job = try job("exec sleep 30")
    let child = job.processID
    let descriptor = try #require(job.output)
    job.cancel()
    #expect(!job.isRunning)
    #expect(!FileSystem.fileExists("/proc/\(child)"))
    #expect(fcntl(descriptor.rawValue, F_GETFD) == -1, "closed")
    #expect(job.step(at: 0) { _ in true } == .cancelled)
    job.cancel()
  }

  /// A job whose answer is its whole output is done when the output ends, even after the
  /// child: here a background process of the shell holds the pipe a moment longer. One whose
  /// answer is what the child wrote by its exit is done at the exit.
  @Test func aJobIsDoneAtTheChildsExitOrAtTheEndOfItsOutput() throws {
    let script = "(sleep 0.3; echo late) & echo early"
    let whole = try job(script, waitsForOutputEnd: true)
    defer { whole.cancel() }
    let (all, wholeProgress, _) = try drive(whole)
    #expect(wholeProgress == .exited(.exited(0)))
    #expect(String(decoding: all, as: UTF8.self) == "early\nlate\n")

    let byExit = try job(script, waitsForOutputEnd: false, deadline: .max)
    defer { byExit.cancel() }
    let (first, exitProgress, _) = try drive(byExit)
    #expect(exitProgress == .exited(.exited(0)))
    #expect(String(decoding: first, as: UTF8.self) == "early\n")
  }

  @Test func aProgramThatIsNotThereCannotStart() {
    let error = #expect(throws: SystemError.self) {
      try ChildJob(
        program: "/nonexistent/wodclockd", arguments: [], input: [1, 2, 3], keepsErrors: true,
        waitsForOutputEnd: true, deadline: .max)
    }
    #expect(error?.errno == .noSuchFile)
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
  }
}
