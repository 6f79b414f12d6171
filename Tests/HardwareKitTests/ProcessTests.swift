// SPDX-License-Identifier: MIT
// Child processes, /proc statistics, clocks and the timer floor, on the real system.

import HardwareKit
import Testing

extension FileDescriptor {
  /// Reads a blocking descriptor to end of file.
  func readAllText() throws -> String {
    var bytes: [UInt8] = []
    while case .bytes = try read(appendingTo: &bytes) {}
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// This suite passes an explicit environment and absolute executable paths (a bare name makes
/// posix_spawnp read PATH), so it never reads the process environment while
/// `ProcessEnvironmentTests` changes it.
private let childEnvironment = ["PATH=/usr/bin:/bin"]

@Suite struct ProcessTests {
  @Test func echoToStdoutPipe() throws {
    let child = try Subprocess.spawn(
      executable: "/bin/echo", arguments: ["hi"], environment: childEnvironment,
      standardOutput: .pipe)
    let output = try #require(child.standardOutput)
    defer { try? output.close() }
    #expect(child.standardInput == nil && child.standardError == nil)
    #expect(try output.readAllText() == "hi\n")
    #expect(try child.wait() == .exited(0))
  }

  @Test func exitCodeIsDecoded() throws {
    let child = try Subprocess.spawn(
      executable: "/bin/sh", arguments: ["-c", "exit 3"], environment: childEnvironment,
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
    let status = try child.wait()
    #expect(status == .exited(3))
    #expect(status.description == "exited with code 3")
  }

  @Test func killWithTerminate() throws {
    let child = try Subprocess.spawn(
      executable: "/bin/sleep", arguments: ["10"], environment: childEnvironment)
    #expect(try child.wait(timeoutMilliseconds: 20) == nil)
    try child.kill(.terminate)
    let status = try child.wait(timeoutMilliseconds: 5000)
    #expect(status == .signaled(.terminate))
    #expect(status?.description == "killed by SIGTERM")
  }

  @Test func stdinAndStderrPipes() throws {
    let child = try Subprocess.spawn(
      executable: "/bin/sh", arguments: ["-c", "cat >&2"], environment: childEnvironment,
      standardInput: .pipe, standardOutput: .nullDevice, standardError: .pipe)
    let input = try #require(child.standardInput)
    let errors = try #require(child.standardError)
    defer { try? errors.close() }
    try input.writeAll(Array("to stderr".utf8))
    try input.close()
    #expect(try errors.readAllText() == "to stderr")
    #expect(try child.wait() == .exited(0))
  }

  @Test func childSignalMaskIsReset() throws {
    // A daemon blocks SIGTERM for signalfd; its children must still die from SIGTERM.
    try Signal.block([.terminate])
    defer { try? Signal.block([.terminate], false) }
    let child = try Subprocess.spawn(
      executable: "/bin/sleep", arguments: ["10"], environment: childEnvironment)
    try child.kill(.terminate)
    #expect(try child.wait(timeoutMilliseconds: 5000) == .signaled(.terminate))
  }

  @Test func missingExecutableThrows() {
    let error = #expect(throws: SystemError.self) {
      try Subprocess.spawn(executable: "/nonexistent/wodclockd", environment: childEnvironment)
    }
    #expect(error?.errno == .noSuchFile)
  }

  @Test func statsOfSelfArePlausible() throws {
    let stats = try ProcessStats.sample()
    #expect(stats.residentBytes > 1 << 20)
    #expect(stats.residentBytes < 4 << 30)
    #expect(stats.peakResidentBytes >= stats.residentBytes)
    #expect(stats.userNanoseconds >= 0 && stats.systemNanoseconds >= 0)
    #expect(stats.cpuNanoseconds == stats.userNanoseconds + stats.systemNanoseconds)
    // A second read is not ordered against the first: the kernel records the high-water mark
    // only on some paths (unmapping, exit), so memory other tests free in between can leave a
    // later VmHWM below an earlier VmRSS (one read gives the maximum of the two, checked
    // above). In bytes, not kB, and plausible.
    let peak = try ProcessStats.selfPeakRSS()
    #expect(peak > 1 << 20 && peak < 4 << 30)
  }

  @Test func statsOfAChild() throws {
    let child = try Subprocess.spawn(
      executable: "/bin/sleep", arguments: ["10"], environment: childEnvironment)
    defer {
      try? child.kill(.kill)
      _ = try? child.wait()
    }
    let stats = try ProcessStats.sample(processID: child.processID)
    #expect(stats.residentBytes > 0)
  }

  @Test func clocksMoveForward() {
    let first = MonotonicClock.now()
    let second = MonotonicClock.now()
    #expect(second >= first)
    let wall = WallClock.now()
    #expect(wall.seconds > 1_600_000_000)
    #expect((0..<1_000_000_000).contains(wall.nanoseconds))
    #expect(WallClock.now() >= wall)
  }

  @Test func timerFloorNeverWakesEarly() throws {
    let lateness = try TimerFloor.measure(count: 5, period: .milliseconds(2))
    #expect(lateness.count == 5)
    #expect(lateness.allSatisfy { $0 >= 0 })
    #expect(try TimerFloor.measure(count: 0, period: .milliseconds(1)).isEmpty)
  }
}
