// SPDX-License-Identifier: MIT

import ConfigFormat
import Testing
import WodclockTestSupport

/// What a file is made of before it is YAML: its line breaks and its encoding. PyYAML is the
/// reference for both: it reads a lone CR as a line break and refuses bytes that are not UTF-8.
@Suite("Parser: line breaks and encoding")
struct SourceTextTests {
  @Test("a lone CR ends a line, as LF and CR LF do (YAML 1.2 §5.4)")
  func loneCarriageReturn() throws {
    let lines = ["presets:", "  fran:", "    cap: 10m", "    list: [a,", "      b]", "# c", "x: 1"]
    let unix = try #require(root(lines.joined(separator: "\n")))
    let mac = try #require(root(lines.joined(separator: "\r")))
    let mixed = try #require(
      root(lines[0] + "\r\n" + lines[1] + "\r" + lines[2...].joined(separator: "\n")))
    #expect(canonicalJSON(mac) == canonicalJSON(unix))
    #expect(canonicalJSON(mixed) == canonicalJSON(unix))
    #expect(mac["x"]?.location == SourceLocation(file: testFile, line: 7, column: 4))
  }

  @Test("a file with CR line endings costs one diagnostic per problem, not one per line")
  func carriageReturnFileDiagnostics() throws {
    // The shape of the shipped file, 20 KB of it, saved by an old Mac editor, one key misspelt.
    var text = "presets:\r"
    var index = 0
    while text.utf8.count < 20_000 {
      text += "  p\(index):\r    mode: intervals\r    work: 40s\r    rest: 20s\r    rounds: 8\r"
      index += 1
    }
    text += "  broken: [unclosed\r"
    let diagnostics = errors(text)
    #expect(diagnostics.map(\.message) == ["unclosed '['"])
    let rendered = DiagnosticRenderer(file: testFile, source: text).render(diagnostics)
    #expect(rendered.utf8.count < 200, "\(rendered.utf8.count) bytes:\n\(rendered)")
    #expect(rendered.contains("\n  broken: [unclosed\n"))
  }

  /// Byte sequences and what the parser says about them; nil means valid UTF-8.
  static let encodings: [(bytes: [UInt8], error: String?)] = [
    (
      Array("label: \"caf".utf8) + [0xE9] + Array("\"\n".utf8), "1:12: byte 0xE9 is not valid UTF-8"
    ),
    (Array("a: ".utf8) + [0x80], "1:4: byte 0x80 is not valid UTF-8"),
    (Array("a: ".utf8) + [0xC0, 0x80], "1:4: byte 0xC0 is not valid UTF-8"),
    (Array("a: ".utf8) + [0xED, 0xA0, 0x80], "1:4: byte 0xED is not valid UTF-8"),
    (Array("a: ".utf8) + [0xF4, 0x90, 0x80, 0x80], "1:4: byte 0xF4 is not valid UTF-8"),
    (Array("a: ".utf8) + [0xF5, 0x80, 0x80, 0x80], "1:4: byte 0xF5 is not valid UTF-8"),
    (Array("a: x\nb: ".utf8) + [0xE2, 0x82], "2:4: byte 0xE2 is not valid UTF-8"),
    (Array("a: é✓💪\u{10FFFF}\n".utf8), nil),
  ]

  @Test("bytes that are not UTF-8 are an error at their line and column, as PyYAML refuses them")
  func invalidUTF8() throws {
    for (bytes, expected) in Self.encodings {
      let result = YAMLSubsetParser.parse(bytes: bytes, file: testFile)
      guard let expected else {
        #expect(result.diagnostics.isEmpty, "\(bytes): \(result.diagnostics)")
        continue
      }
      let found = result.diagnostics.map {
        "\($0.location.line):\($0.location.column): \($0.message)"
      }
      #expect(found == [expected])
      #expect(result.diagnostics.first?.hint?.contains("saved as UTF-8") == true)
    }
    try expectPyYAMLAgrees()
  }

  /// PyYAML, given the same bytes, refuses exactly those the parser refuses.
  private func expectPyYAMLAgrees() throws {
    let scratch = try ScratchDirectory(prefix: "configformat-encoding")
    defer { scratch.remove() }
    var paths: [String] = []
    for (index, encoding) in Self.encodings.enumerated() {
      let path = scratch.file("\(index).yaml")
      try writeFile(path, encoding.bytes)
      paths.append(path)
    }
    let script = """
      import sys, yaml
      for path in sys.argv[1:]:
          try:
              yaml.compose(open(path, "rb"))
              print("accepted")
          except yaml.YAMLError:
              print("refused")
      """
    let (status, output, error) = try run(DifferentialTests.python, ["-c", script] + paths)
    #expect(status == 0, "\(error)")
    let verdicts = output.split(separator: "\n").map(String.init)
    #expect(verdicts == Self.encodings.map { $0.error == nil ? "accepted" : "refused" })
  }

  @Test("a line full of bad characters is one diagnostic that counts the rest")
  func oneDiagnosticPerLine() {
    let nulls = String(repeating: "\u{0}", count: 5000)
    let diagnostics = errors("a: " + nulls + "\r\nb: " + nulls + "\nc: \u{1B}\n")
    #expect(
      diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" } == [
        "1:4: control character U+0000 is not allowed in YAML",
        "2:4: control character U+0000 is not allowed in YAML",
        "3:4: control character U+001B is not allowed in YAML",
      ])
    #expect(diagnostics.first?.hint == "this line holds 4999 more such characters")
    #expect(diagnostics.last?.hint == nil)
  }

  @Test("a run of tabs after a key is reported once")
  func tabRun() {
    let diagnostics = errors("a:" + String(repeating: "\t", count: 3000) + "1\n")
    #expect(diagnostics.map(\.message) == ["tabs are not allowed outside quotes"])
  }

  @Test("columns along one long line that is not ASCII, asked for in any order")
  func columnsAlongALongLine() throws {
    let items = (0..<3000).map { $0 % 2 == 0 ? "é\($0)" : "x\($0)" }
    let node = try #require(root("list: [" + items.joined(separator: ", ") + "]\n"))
    var column = 8
    for (index, item) in items.enumerated() {
      #expect(node["list"]?[index]?.location.column == column)
      column += item.unicodeScalars.count + 2
    }
    // A note points back along the line, before the position the error was found at.
    let diagnostic = try #require(errors("m: {é: 1, a: 2, ü: 3, a: 4}\n").first)
    #expect(diagnostic.location.column == 23)
    #expect(diagnostic.notes.first?.location.column == 11)
  }

  @Test("what could be read of a broken file is kept, marked where content was lost")
  func recoveredTree() throws {
    let text = """
      presets:
        a:
        \tmode: amrap
        b:
          mode: amarp
          list: [x, y
        c:
          mode: tabata
      """
    let recovered = YAMLSubsetParser.parseRecovering(bytes: Array(text.utf8), file: testFile)
    #expect(
      recovered.diagnostics.map(\.message) == [
        "tabs are not allowed in indentation", "unclosed '['",
      ])
    let root = try #require(recovered.document.root)
    let presets = try #require(root["presets"]?.mapping)
    #expect(presets.keys == ["a", "b", "c"])
    #expect(presets.isIncomplete)
    #expect(root.isIncomplete)
    #expect(root["presets"]?["a"]?.isEmptyValue == true)
    #expect(root["presets"]?["b"]?["mode"]?.scalarText == "amarp")
    #expect(root["presets"]?["b"]?.isIncomplete == true)
    #expect(root["presets"]?["c"]?.isIncomplete == false)
    #expect(root["presets"]?["c"]?["mode"]?.scalarText == "tabata")
  }
}
