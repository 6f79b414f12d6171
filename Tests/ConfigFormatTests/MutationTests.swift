// SPDX-License-Identifier: MIT

import ConfigFormat
import HardwareKit
import Testing
import WodclockTestSupport

/// Random edits of valid documents must never crash or hang the parser, and every diagnostic
/// must point inside the text it was given.
@Suite("Parser robustness under random edits")
struct MutationTests {
  static let insertions: [String] = [
    " ", "  ", "\t", ":", ": ", "'", "\"", "[", "]", "{", "}", ",", "-", "- ", "#", " #", "\n",
    "\r", "\r\n", "&a ", "*a", "!t ", "|", ">", "? ", "%", "@", "`", "\\", "\\u12", "é", "💪",
    "\u{0}", "\u{85}", "\u{FEFF}", "x", "---\n", "...\n", "key: v\n",
  ]

  @Test("3,600 mutated documents give a tree or diagnostics inside the text")
  func mutatedDocuments() throws {
    var accepted: [(name: String, text: String)] = []
    let directory = DifferentialTests.fixtures + "/valid"
    var corpus = try fileNames(in: directory, endingWith: ".yaml").map {
      try FileSystem.readTextFile(directory + "/" + $0)
    }
    var generator = DocumentGenerator(seed: 42)
    for _ in 0..<20 { corpus.append(generator.document().text) }
    var random = SeededGenerator(seed: 0xBAD_5EED)
    var failures = 0
    var successes = 0
    for index in 0..<3600 {
      var text = Array(corpus[index % corpus.count].unicodeScalars)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        mutate(&text, using: &random)
      }
      var source = ""
      source.unicodeScalars.append(contentsOf: text)
      let result = YAMLSubsetParser.parse(source, file: "mutant.yaml")
      switch result {
      case .success(let document):
        successes += 1
        accepted.append((name: "mutant-\(index)", text: source))
        if let root = document.root {
          #expect(nodeIsInside(root, source), "case \(index): a node points outside:\n\(source)")
        }
      case .failure(let diagnostics):
        failures += 1
        #expect(!diagnostics.isEmpty, "case \(index): a failure without diagnostics")
        let all = diagnostics + diagnostics.flatMap(\.notes)
        for diagnostic in all {
          #expect(
            isInside(diagnostic.location, source),
            "case \(index): \(diagnostic.location) \(diagnostic.message) is outside:\n\(source)")
          #expect(!diagnostic.message.isEmpty && diagnostic.message.first?.isUppercase == false)
        }
        // Rendering must cope with whatever the parser pointed at.
        let rendered = DiagnosticRenderer(file: "mutant.yaml", source: source).render(diagnostics)
        #expect(rendered.hasPrefix("mutant.yaml:"))
      }
    }
    // Both outcomes occur, so the edits neither always break nor never break the documents.
    #expect(successes > 100)
    #expect(failures > 1000)
    // What still parses after an edit must still mean the same to PyYAML.
    try compareWithPyYAML(accepted)
  }

  private func mutate(_ text: inout [Unicode.Scalar], using random: inout SeededGenerator) {
    let position = text.isEmpty ? 0 : Int.random(in: 0..<text.count, using: &random)
    switch Int.random(in: 0..<7, using: &random) {
    case 0 where !text.isEmpty:
      text.remove(at: position)
    case 1:
      let insertion = Self.insertions[Int.random(in: 0..<Self.insertions.count, using: &random)]
      text.insert(contentsOf: insertion.unicodeScalars, at: position)
    case 2 where !text.isEmpty:
      let end = min(text.count, position + Int.random(in: 1...8, using: &random))
      text.insert(contentsOf: text[position..<end], at: position)
    case 3:
      var lines = splitLines(text)
      guard lines.count > 1 else { return }
      let first = Int.random(in: 0..<lines.count, using: &random)
      let second = Int.random(in: 0..<lines.count, using: &random)
      lines.swapAt(first, second)
      text = Array(lines.joined(separator: ["\n"]))
    case 4:
      var lines = splitLines(text)
      guard !lines.isEmpty else { return }
      let line = Int.random(in: 0..<lines.count, using: &random)
      lines.insert(lines[line], at: line)
      text = Array(lines.joined(separator: ["\n"]))
    case 5:
      text.removeSubrange(position...)
    default:
      // Indent or dedent a line by one or two spaces.
      var lines = splitLines(text)
      guard !lines.isEmpty else { return }
      let line = Int.random(in: 0..<lines.count, using: &random)
      if lines[line].first == " " {
        lines[line].removeFirst()
      } else {
        lines[line].insert(contentsOf: [" ", " "], at: 0)
      }
      text = Array(lines.joined(separator: ["\n"]))
    }
  }

  private func splitLines(_ text: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
  }
}

/// Line lengths in Unicode scalars, as the renderer sees them (LF, CR LF and CR end lines).
private func lineLengths(_ source: String) -> [Int] {
  DiagnosticRenderer.lines(of: source).map(\.unicodeScalars.count)
}

/// True when `location` is on a line of `source`, at most one column past its end.
private func isInside(_ location: ConfigFormat.SourceLocation, _ source: String) -> Bool {
  let lengths = lineLengths(source)
  guard location.line >= 1, location.line <= lengths.count else { return false }
  return location.column >= 1 && location.column <= lengths[location.line - 1] + 1
}

private func nodeIsInside(_ node: ConfigNode, _ source: String) -> Bool {
  guard isInside(node.range.start, source), isInside(node.range.end, source) else { return false }
  switch node {
  case .scalar:
    return true
  case .mapping(let mapping):
    return mapping.entries.allSatisfy {
      isInside($0.key.range.start, source) && nodeIsInside($0.value, source)
    }
  case .sequence(let sequence):
    return sequence.items.allSatisfy { nodeIsInside($0, source) }
  }
}
