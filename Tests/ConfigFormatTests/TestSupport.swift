// SPDX-License-Identifier: MIT

import ConfigFormat
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
