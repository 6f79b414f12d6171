// SPDX-License-Identifier: MIT

import ConfigFormat
import Glibc
import HardwareKit
import Testing
import WodclockTestSupport

/// Every document the parser accepts must mean the same to PyYAML (Debian's python3-yaml), the
/// reference YAML implementation at hand. The comparison uses PyYAML's composed node graph, not
/// `safe_load`: PyYAML resolves YAML 1.1 types, which wodclock deliberately does not.
@Suite("Differential tests against PyYAML")
struct DifferentialTests {
  static let python = "/usr/bin/python3"
  static let script = sourceDirectory() + "/yaml_compose_compare.py"
  static let fixtures = sourceDirectory() + "/Fixtures"

  @Test("valid fixtures parse to the same trees as PyYAML's")
  func validFixturesMatchPyYAML() throws {
    let names = try fileNames(in: Self.fixtures + "/valid", endingWith: ".yaml")
    #expect(names.count >= 25)
    let documents = try names.map { name in
      (
        name: String(name.dropLast(5)),
        text: try FileSystem.readTextFile(Self.fixtures + "/valid/" + name)
      )
    }
    try compareWithPyYAML(documents)
  }

  @Test("600 generated documents parse as generated and as PyYAML reads them")
  func generatedDocumentsMatchPyYAML() throws {
    var generator = DocumentGenerator(seed: 0x5EED_C10C)
    var documents: [(name: String, text: String)] = []
    for index in 0..<600 {
      let (text, tree) = generator.document()
      documents.append((name: "generated-\(index)", text: text))
      guard let parsed = parse(text).document else { continue }  // reported by the comparison
      #expect(
        sameTree(parsed.root, tree), "generated document \(index) parsed differently:\n\(text)")
    }
    try compareWithPyYAML(documents)
  }

  @Test("documents rejected on purpose are rejected with the named diagnostic")
  func rejectedFixturesAreRejectedByName() throws {
    let names = try fileNames(in: Self.fixtures + "/rejected", endingWith: ".yaml")
    #expect(names.count >= 15)
    for name in names {
      let text = try FileSystem.readTextFile(Self.fixtures + "/rejected/" + name)
      // The first line says what to expect: "# expect: LINE:COLUMN: message".
      let firstLine = text.split(separator: "\n", maxSplits: 1).first ?? ""
      guard firstLine.hasPrefix("# expect: ") else {
        Issue.record("\(name) has no '# expect: ' line")
        continue
      }
      let expected = testFile + ":" + firstLine.dropFirst("# expect: ".count)
      let rendered = parse(text).diagnostics.map { "\($0.location): \($0.message)" }
      #expect(rendered.contains(expected), "\(name): expected \(expected), got \(rendered)")
    }
  }
}

/// Writes each document and the parser's canonical JSON of it to a temporary directory and runs
/// the comparison script over it. Fails, rather than skips, when PyYAML is missing.
func compareWithPyYAML(
  _ documents: [(name: String, text: String)],
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
  let scratch = try ScratchDirectory(prefix: "configformat-differential-")
  defer { scratch.remove() }
  for (name, text) in documents {
    switch parse(text) {
    case .success(let document):
      try writeFile(scratch.file("\(name).yaml"), text: text)
      try writeFile(scratch.file("\(name).json"), text: canonicalJSON(document.root))
    case .failure(let diagnostics):
      let rendered = DiagnosticRenderer(file: testFile, source: text).render(diagnostics)
      Issue.record(
        "\(name) is valid but rejected:\n\(text)\n\(rendered)", sourceLocation: sourceLocation)
    }
  }
  guard access(DifferentialTests.python, X_OK) == 0 else {
    Issue.record(
      "\(DifferentialTests.python) is missing; install python3 and python3-yaml",
      sourceLocation: sourceLocation)
    return
  }
  let (status, output, error) = try run(
    DifferentialTests.python, [DifferentialTests.script, scratch.path])
  #expect(
    status == 0, "comparison with PyYAML failed (exit status \(status)):\n\(output)\(error)",
    sourceLocation: sourceLocation)
  #expect(output.contains("compared \(documents.count) documents"), sourceLocation: sourceLocation)
}

/// True when the parsed tree has the generated tree's kinds, styles, keys and texts.
private func sameTree(_ parsed: ConfigNode?, _ generated: GeneratedNode) -> Bool {
  guard let parsed else { return false }
  switch (parsed, generated) {
  case (.scalar(let scalar), .scalar(let text, let style)):
    return scalar.text == text && scalar.style == style
  case (.sequence(let sequence), .sequence(let items, let flow)):
    return (sequence.style == .flow) == flow && sequence.items.count == items.count
      && zip(sequence.items, items).allSatisfy { sameTree($0, $1) }
  case (.mapping(let mapping), .mapping(let entries, let flow)):
    return (mapping.style == .flow) == flow && mapping.entries.count == entries.count
      && zip(mapping.entries, entries).allSatisfy { parsed, generated in
        parsed.key.text == generated.0 && parsed.key.style == generated.1
          && sameTree(parsed.value, generated.2)
      }
  default:
    return false
  }
}
