// SPDX-License-Identifier: MIT

import ConfigFormat
import Glibc
import Testing

/// The file name every parser test uses.
let testFile = "test.yaml"

/// Parses `text` as `test.yaml`.
func parse(_ text: String) -> ParseResult {
  YAMLSubsetParser.parse(text, file: testFile)
}

/// The root of `text`, recording an issue (with the rendered diagnostics) when parsing fails.
func root(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ConfigNode? {
  switch parse(text) {
  case .success(let document):
    return document.root
  case .failure(let diagnostics):
    let rendered = DiagnosticRenderer(file: testFile, source: text).render(diagnostics)
    Issue.record("unexpected parse failure:\n\(rendered)", sourceLocation: sourceLocation)
    return nil
  }
}

/// The diagnostics of `text`, recording an issue when it parses.
func errors(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [Diagnostic] {
  let result = parse(text)
  if result.document != nil {
    Issue.record("expected a parse failure", sourceLocation: sourceLocation)
  }
  return result.diagnostics
}

/// A scalar for the value-syntax tests, placed at line 3, column 7 of `test.yaml`.
func scalar(_ text: String, style: ScalarStyle = .plain) -> Scalar {
  let start = ConfigFormat.SourceLocation(file: testFile, line: 3, column: 7)
  let end = ConfigFormat.SourceLocation(file: testFile, line: 3, column: 7 + text.count)
  return Scalar(text: text, style: style, range: SourceRange(start: start, end: end))
}

// MARK: Canonical JSON of a tree

/// A canonical JSON form of a tree, compared against PyYAML's composed node graph by
/// `yaml_compose_compare.py`. Marks are 1-based `[line, column]`; empty values have none,
/// because PyYAML places them wherever its next token happens to be.
func canonicalJSON(_ node: ConfigNode?) -> String {
  var output = ""
  appendJSON(node, to: &output)
  return output
}

private func appendJSON(_ node: ConfigNode?, to output: inout String) {
  guard let node else {
    output += "null"
    return
  }
  switch node {
  case .scalar(let scalar):
    let style: String
    switch scalar.style {
    case .plain: style = "plain"
    case .singleQuoted: style = "single"
    case .doubleQuoted: style = "double"
    }
    output += "{\"kind\":\"scalar\",\"style\":\"\(style)\",\"text\":"
    appendJSONString(scalar.text, to: &output)
    if !scalar.isEmptyValue {
      output += ",\"start\":\(mark(scalar.range.start)),\"end\":\(mark(scalar.range.end))"
    }
    output += "}"
  case .mapping(let mapping):
    output += "{\"kind\":\"mapping\",\"flow\":\(mapping.style == .flow)"
    output += ",\"start\":\(mark(mapping.range.start))"
    if mapping.style == .flow { output += ",\"end\":\(mark(mapping.range.end))" }
    output += ",\"entries\":["
    for (index, entry) in mapping.entries.enumerated() {
      if index > 0 { output += "," }
      output += "["
      appendJSON(.scalar(entry.key), to: &output)
      output += ","
      appendJSON(entry.value, to: &output)
      output += "]"
    }
    output += "]}"
  case .sequence(let sequence):
    output += "{\"kind\":\"sequence\",\"flow\":\(sequence.style == .flow)"
    output += ",\"start\":\(mark(sequence.range.start))"
    if sequence.style == .flow { output += ",\"end\":\(mark(sequence.range.end))" }
    output += ",\"items\":["
    for (index, item) in sequence.items.enumerated() {
      if index > 0 { output += "," }
      appendJSON(item, to: &output)
    }
    output += "]}"
  }
}

private func mark(_ location: ConfigFormat.SourceLocation) -> String {
  "[\(location.line),\(location.column)]"
}

private func appendJSONString(_ text: String, to output: inout String) {
  output += "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": output += "\\\""
    case "\\": output += "\\\\"
    case "\n": output += "\\n"
    default:
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        output += "\\u" + hex4(scalar.value)
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
  }
  output += "\""
}

private func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 4 - digits.count) + digits
}

// MARK: Files and processes (Glibc; the library itself stays free of them)

/// Errors from the small file and process helpers below.
struct SystemError: Error, CustomStringConvertible {
  var description: String
}

/// The directory holding this test target's sources, found from this file's path so the tests
/// work from any clone.
func testSourcesDirectory(filePath: String = #filePath) -> String {
  guard let slash = filePath.lastIndex(of: "/") else { return "." }
  return String(filePath[..<slash])
}

func readFile(_ path: String) throws -> String {
  guard let file = fopen(path, "rb") else { throw SystemError(description: "cannot open \(path)") }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes.append(contentsOf: buffer[0..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ contents: String) throws {
  try writeFile(path, bytes: Array(contents.utf8))
}

/// Writes bytes that need not be UTF-8.
func writeFile(_ path: String, bytes: [UInt8]) throws {
  guard let file = fopen(path, "wb") else {
    throw SystemError(description: "cannot create \(path)")
  }
  defer { fclose(file) }
  guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
    throw SystemError(description: "cannot write \(path)")
  }
}

/// The names in a directory ending in `suffix`, sorted.
func directoryEntries(_ path: String, suffix: String) throws -> [String] {
  guard let directory = opendir(path) else {
    throw SystemError(description: "cannot list \(path)")
  }
  defer { closedir(directory) }
  var names: [String] = []
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name.hasSuffix(suffix) { names.append(name) }
  }
  return names.sorted()
}

func makeTemporaryDirectory(prefix: String) throws -> String {
  let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
  var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
  guard let result = mkdtemp(&template) else {
    throw SystemError(description: "mkdtemp failed")
  }
  return String(cString: result)
}

/// Removes a directory made by `makeTemporaryDirectory` and the flat files in it.
func removeDirectory(_ path: String) {
  if let names = try? directoryEntries(path, suffix: "") {
    for name in names where name != "." && name != ".." {
      unlink("\(path)/\(name)")
    }
  }
  rmdir(path)
}

/// Runs a program, waits for it and returns its exit status and combined output.
func runProcess(_ executable: String, _ arguments: [String], outputDirectory: String) throws
  -> (status: Int32, output: String)
{
  let outputPath = "\(outputDirectory)/process-output.txt"
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  defer {
    for argument in argv { free(argument) }
  }
  var pid = pid_t()
  let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
  guard spawned == 0 else {
    throw SystemError(
      description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  let output = (try? readFile(outputPath)) ?? ""
  unlink(outputPath)
  // WIFEXITED / WEXITSTATUS, spelled out because the C macros are not imported.
  let exitStatus: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  return (exitStatus, output)
}

// MARK: Deterministic randomness

/// SplitMix64: a tiny, fixed-seed generator so generated tests are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
