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
    return ProcessStats(
      userNanoseconds: user * 1_000_000_000 / ticksPerSecond,
      systemNanoseconds: system * 1_000_000_000 / ticksPerSecond,
      residentBytes: status["VmRSS"] ?? 0, peakResidentBytes: status["VmHWM"] ?? 0)
  }

  /// The peak resident set size of this process (`VmHWM`), in bytes.
  ///
  /// The corresponding file is `/proc/self/status`.
  public static func selfPeakRSS() throws(SystemError) -> Int {
    try statusFields(processID: Environment.processID)["VmHWM"] ?? 0
  }

  /// The `kB` lines of `/proc/<pid>/status`, converted to bytes.
  private static func statusFields(processID: Int32) throws(SystemError) -> [String: Int] {
    let text = try FileSystem.readTextFile("/proc/\(processID)/status")
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let words = line[line.index(after: colon)...].split { $0 == " " || $0 == "\t" }
      guard words.count == 2, words[1] == "kB", let kilobytes = Int(words[0]) else { continue }
      fields[String(line[..<colon])] = kilobytes * 1024
    }
    return fields
  }
}
