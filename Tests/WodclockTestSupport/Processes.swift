// SPDX-License-Identifier: MIT
// Running a program to completion and collecting what it wrote: the daemon's binaries, and the
// independent tools the tests compare against (Python's json and PyYAML).

public import HardwareKit

/// Runs a program to completion and collects its output as text.
public func run(
  _ executable: String, _ arguments: [String], environment: [String] = ["PATH=/usr/bin:/bin"]
)
  throws -> (status: Int32, output: String, error: String)
{
  let result = try runCapturingBytes(executable, arguments, environment: environment)
  return (result.status, String(decoding: result.output, as: UTF8.self), result.error)
}

/// Runs a program to completion; its standard output as bytes (a PNG, say).
public func runCapturingBytes(
  _ executable: String, _ arguments: [String], environment: [String] = ["PATH=/usr/bin:/bin"]
)
  throws -> (status: Int32, output: [UInt8], error: String)
{
  let child = try Subprocess.spawn(
    executable: executable, arguments: arguments, environment: environment,
    standardInput: .nullDevice, standardOutput: .pipe, standardError: .pipe)
  return try collect(child)
}

/// Reads a child's standard output and error (spawned with `.pipe`) to the end and waits for
/// it; the status is the exit code, or -1 when a signal ended it.
///
/// Both pipes are read as they fill: a child that writes more than a pipe holds (64 KiB) to the
/// one not being read would otherwise block on it and never exit.
public func collect(_ child: Subprocess) throws -> (status: Int32, output: [UInt8], error: String) {
  var captured: [[UInt8]] = [[], []]
  var open: [Int: FileDescriptor] = [:]
  for (index, pipe) in [child.standardOutput, child.standardError].enumerated() {
    if let pipe { open[index] = pipe }
  }
  let poller = try EventPoller()
  defer { try? poller.close() }
  defer { for pipe in open.values { try? pipe.close() } }
  for (index, pipe) in open {
    try pipe.setNonBlocking()
    try poller.register(pipe, token: UInt64(index))
  }
  while !open.isEmpty {
    for event in try poller.wait(timeoutMilliseconds: nil) {
      let index = Int(event.token)
      guard let pipe = open[index] else { continue }
      var ended = false
      reading: while true {
        switch try pipe.read(appendingTo: &captured[index], maximumCount: 65_536) {
        case .bytes: continue
        case .wouldBlock: break reading
        case .endOfFile:
          ended = true
          break reading
        }
      }
      if ended {
        try poller.unregister(pipe)
        try pipe.close()
        open[index] = nil
      }
    }
  }
  let code: Int32
  switch try child.wait() {
  case .exited(let value): code = value
  case .signaled: code = -1
  }
  return (code, captured[0], String(decoding: captured[1], as: UTF8.self))
}
