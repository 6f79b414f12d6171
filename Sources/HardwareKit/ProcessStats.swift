// SPDX-License-Identifier: MIT
// CPU time and memory of a process from /proc, for the benchmark and the RAM budget check.

import Glibc

/// A snapshot of one process's CPU time and memory, read from `/proc/<pid>/stat` and
/// `/proc/<pid>/status` (proc(5)).
public struct ProcessStats: Hashable, Sendable {
  /// CPU time spent in user mode (`utime`), in nanoseconds.
  public var userNanoseconds: Int64
  /// CPU time spent in the kernel on the process's behalf (`stime`), in nanoseconds.
  public var systemNanoseconds: Int64
  /// Current resident set size (`VmRSS`), in bytes.
  public var residentBytes: Int
  /// Peak resident set size (`VmHWM`, the "high water mark"), in bytes.
  public var peakResidentBytes: Int
  /// Time on a CPU as the scheduler counts it, in nanoseconds (`/proc/<pid>/schedstat`'s first
  /// field): the same time as user plus system, but to the nanosecond instead of in 10 ms
  /// ticks, so a daemon that runs for microseconds a second can be measured in seconds.
  /// Zero when the kernel keeps no schedstats.
  public var scheduledNanoseconds: Int64 = 0
  /// Times the process gave up the CPU by itself (`voluntary_ctxt_switches`): for a
  /// single-threaded loop, how often it went to sleep, and so how often it woke up.
  public var voluntarySwitches: Int = 0

  /// User plus system CPU time, in nanoseconds.
  public var cpuNanoseconds: Int64 { userNanoseconds + systemNanoseconds }

  /// Creates a snapshot value.
  public init(
    userNanoseconds: Int64, systemNanoseconds: Int64, residentBytes: Int, peakResidentBytes: Int
  ) {
    self.userNanoseconds = userNanoseconds
    self.systemNanoseconds = systemNanoseconds
    self.residentBytes = residentBytes
    self.peakResidentBytes = peakResidentBytes
  }

  /// Reads the statistics of process `processID` (default: this process).
  ///
  /// `utime` and `stime` are fields 14 and 15 of `/proc/<pid>/stat`, in clock ticks of
  /// `sysconf(_SC_CLK_TCK)`; they are counted after the last `)`, because the command name in
  /// parentheses may itself contain spaces and parentheses (proc(5)).
  ///
  /// The corresponding C functions are `read` on procfs files and `sysconf`.
  public static func sample(processID: Int32 = Environment.processID) throws(SystemError)
    -> ProcessStats
  {
    let stat = try FileSystem.readTextFile("/proc/\(processID)/stat")
    guard let close = stat.lastIndex(of: ")") else {
      throw SystemError(
        operation: "parse", path: "/proc/\(processID)/stat", errno: .invalidArgument)
    }
    // After ")" come field 3 (state) onwards, so utime (14) is at index 11 and stime at 12.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else {
      throw SystemError(
        operation: "parse", path: "/proc/\(processID)/stat", errno: .invalidArgument)
    }
    let ticksPerSecond = Int64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
    let status = try statusFields(processID: processID)
    var stats = ProcessStats(
      userNanoseconds: user * 1_000_000_000 / ticksPerSecond,
      systemNanoseconds: system * 1_000_000_000 / ticksPerSecond,
      residentBytes: status["VmRSS"] ?? 0, peakResidentBytes: status["VmHWM"] ?? 0)
    stats.voluntarySwitches = status["voluntary_ctxt_switches"] ?? 0
    // "time spent on the cpu (in nanoseconds)", then the time waiting to run and the number of
    // timeslices (Documentation/scheduler/sched-stats.rst, /proc/<pid>/schedstat).
    if let schedstat = try? FileSystem.readTextFile("/proc/\(processID)/schedstat"),
      let first = schedstat.split(separator: " ").first, let nanoseconds = Int64(first)
    {
      stats.scheduledNanoseconds = nanoseconds
    }
    return stats
  }

  /// The peak resident set size of this process (`VmHWM`), in bytes.
  ///
  /// The corresponding file is `/proc/self/status`.
  public static func selfPeakRSS() throws(SystemError) -> Int {
    try statusFields(processID: Environment.processID)["VmHWM"] ?? 0
  }

  /// The number lines of `/proc/<pid>/status`: `kB` ones converted to bytes, counts as they are.
  private static func statusFields(processID: Int32) throws(SystemError) -> [String: Int] {
    let text = try FileSystem.readTextFile("/proc/\(processID)/status")
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let words = line[line.index(after: colon)...].split { $0 == " " || $0 == "\t" }
      if words.count == 2, words[1] == "kB", let kilobytes = Int(words[0]) {
        fields[String(line[..<colon])] = kilobytes * 1024
      } else if words.count == 1, let count = Int(words[0]) {
        fields[String(line[..<colon])] = count
      }
    }
    return fields
  }
}
