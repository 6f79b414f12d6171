// SPDX-License-Identifier: MIT
// The scheduling policy the wake-up benchmark gives the daemon, read back from the kernel.

import Glibc
import HardwareKit
import Testing

@Suite struct SchedulingPolicyTests {
  @Test(.enabled(if: geteuid() == 0, "a real-time policy needs CAP_SYS_NICE"))
  func anotherProcessGetsTheRealTimePolicyAndLosesItAgain() throws {
    let child = try Subprocess.spawn(executable: "sleep", arguments: ["30"])
    defer {
      try? child.kill(.terminate)
      _ = try? child.wait()
    }
    #expect(try SchedulingPolicy.current(threadID: child.processID) == .normal)
    try SchedulingPolicy.firstInFirstOut(priority: 10).apply(threadID: child.processID)
    #expect(
      try SchedulingPolicy.current(threadID: child.processID) == .firstInFirstOut(priority: 10))
    try SchedulingPolicy.normal.apply(threadID: child.processID)
    #expect(try SchedulingPolicy.current(threadID: child.processID) == .normal)
  }

  @Test func anOutOfRangePriorityIsRefused() throws {
    #expect(throws: SystemError.self) {
      try SchedulingPolicy.firstInFirstOut(priority: 100).apply(threadID: getpid())
    }
    #expect(try SchedulingPolicy.current() == .normal)
  }
}
