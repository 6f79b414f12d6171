// SPDX-License-Identifier: MIT

import Glibc
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

private let python = "/usr/bin/python3"

/// Reads JSON lines from argv[1], writes each back with sorted keys to argv[2]. Bytes in and out,
/// so Python's text-mode newline handling cannot split or alter a line.
private let script = """
  import json, sys
  with open(sys.argv[1], 'rb') as source, open(sys.argv[2], 'wb') as sink:
      for line in source:
          value = json.loads(line)
          text = json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
          sink.write(text.encode('utf-8') + b'\\n')
  """

/// An independent implementation must read our output as we meant it, and we must read its.
@Suite("Python cross-check")
struct PythonCrossCheckTests {
  @Test(.enabled(if: access(python, X_OK) == 0, "needs \(python)"))
  func pythonReadsAndRewritesOurOutput() throws {
    var random = RandomJSON(seed: 2_026)
    let values = (0..<200).map { _ in random.value() }
    var input: [UInt8] = []
    for value in values {
      input += value.serializedBytes()
      input.append(UInt8(ascii: "\n"))
    }

    let output = try runPython(input: input)
    let lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    try #require(lines.count == values.count + 1 && lines.last?.isEmpty == true)

    for (value, line) in zip(values, lines) {
      let theirs = try JSONValue.parse(line)
      // Same tree, bit for bit, with the same key order as our sortedKeys.
      let ours = try JSONValue.parse(value.serialized(options: .sortedKeys))
      #expect(identical(theirs, ours), "python: \(String(decoding: line, as: UTF8.self))")
      // Double spelling legitimately differs (Swift writes 1e15 as "1e+15", Python as
      // "1000000000000000.0"), so the text itself is compared only for trees without doubles.
      if !containsDouble(value) {
        #expect(Array(line) == value.serializedBytes(options: .sortedKeys).replacingSpacing())
      }
    }
  }
}

private func containsDouble(_ value: JSONValue) -> Bool {
  switch value {
  case .double: return true
  case .array(let elements): return elements.contains(where: containsDouble)
  case .object(let object): return object.values.contains(where: containsDouble)
  default: return false
  }
}

extension [UInt8] {
  /// Python's default separators are `", "` and `": "`; this respells our compact output so.
  /// Only bytes outside strings change.
  fileprivate func replacingSpacing() -> [UInt8] {
    var result: [UInt8] = []
    var inString = false
    var escaped = false
    for byte in self {
      result.append(byte)
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") {
        result.append(UInt8(ascii: " "))
      }
    }
    return result
  }
}

/// Runs the script on `input` through temporary files and returns what it wrote.
private func runPython(input: [UInt8]) throws -> [UInt8] {
  let scratch = try ScratchDirectory(prefix: "jsonkit-")
  defer { scratch.remove() }
  let inputPath = scratch.file("in.jsonl")
  let outputPath = scratch.file("out.jsonl")
  try writeFile(inputPath, input)
  let result = try run(python, ["-c", script, inputPath, outputPath])
  try #require(result.status == 0, "python exited with \(result.status): \(result.error)")
  return try FileSystem.readFile(outputPath)
}
