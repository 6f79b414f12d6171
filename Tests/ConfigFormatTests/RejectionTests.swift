// SPDX-License-Identifier: MIT

import ConfigFormat
import Testing

/// A document the parser must refuse, and the diagnostic it must give.
struct Rejection: CustomTestStringConvertible, Sendable {
  var text: String
  /// `line:column: message` of the expected diagnostic.
  var expected: String
  var testDescription: String { expected }

  init(_ text: String, _ expected: String) {
    self.text = text
    self.expected = expected
  }
}

@Suite("Parser: rejected by name")
struct RejectionTests {
  static let rejections: [Rejection] = [
    // Tabs (YAML 1.2 §6.1).
    .init("a:\n\tb: 1\n", "2:1: tabs are not allowed in indentation"),
    .init("a: 1\n \t\nb: 2\n", "2:2: tabs are not allowed in indentation"),
    .init("a: b\t\n", "1:5: tabs are not allowed outside quotes"),
    .init("a:\tb\n", "1:3: tabs are not allowed outside quotes"),
    // Node properties and aliases (§6.9, §7.1).
    .init("a: &x 1\n", "1:4: anchors ('&name') are not supported"),
    .init("a: *x\n", "1:4: aliases ('*name') are not supported"),
    .init("a: !!str 1\n", "1:4: tags ('!tag') are not supported"),
    .init("- !local x\n", "1:3: tags ('!tag') are not supported"),
    // Streams (§9.2).
    .init("a: 1\n---\nb: 2\n", "2:1: several documents in one file are not supported"),
    .init("a: 1\n...\nb: 2\n", "3:1: several documents in one file are not supported"),
    .init("---\n---\n", "2:1: several documents in one file are not supported"),
    .init("# nothing\n...\n", "2:1: '...' ends a document that never started"),
    .init("%YAML 1.2\n---\na: 1\n", "1:1: directives ('%YAML', '%TAG') are not supported"),
    .init("--- a: 1\n", "1:5: content on the '---' line is not supported"),
    // Block scalars (§8.1).
    .init("a: |\n  text\n", "1:4: block scalars ('|' and '>') are not supported"),
    .init("a: >-\n  text\n", "1:4: block scalars ('|' and '>') are not supported"),
    // Keys.
    .init("a: 1\nb: 2\na: 3\n", "3:1: duplicate key 'a' in mapping"),
    .init("{a: 1, 'a': 2}", "1:8: duplicate key 'a' in mapping"),
    .init("? a\n: b\n", "1:1: complex keys ('? ') are not supported"),
    .init(": x\n", "1:1: missing key before ':'"),
    .init("[a]: b\n", "1:4: a flow collection cannot be used as a mapping key"),
    .init("\"a\n b\": 1\n", "1:1: a key must fit on one line"),
    .init("a: 1\nfoo bar\n", "2:1: expected a 'key: value' entry, found 'foo bar'"),
    .init("a: 1\n\"b\" 2\n", "2:5: expected ':' after the key"),
    .init(
      String(repeating: "k", count: 1100) + ": v\n",
      "1:1: a key cannot be longer than 1024 characters"),
    // Indentation.
    .init(
      "a:\n    b: 1\n  c: 2\n", "3:3: inconsistent indentation: found 2 spaces, expected 0 or 4"),
    .init(
      "a:\n  - x\n  b: 1\n", "3:3: this line is indented like the '- ' items above but is not one"),
    .init("a: 1\n- b\n", "2:1: unexpected '- ' list item"),
    .init("  a: 1\nb: 2\n", "2:1: inconsistent indentation: found 0 spaces, expected 2"),
    .init("a: b\n  c\n", "2:3: a plain value cannot continue on the next line"),
    .init("first\nsecond\n", "2:1: a plain value cannot continue on the next line"),
    // Values on the key's or the dash's line.
    .init(
      "a: b: c\n", "1:5: unexpected ':' in a value; a nested mapping must start on its own line"),
    .init(
      "- a: b: c\n", "1:7: unexpected ':' in a value; a nested mapping must start on its own line"),
    .init("a: - b\n", "1:4: a block sequence cannot start on the same line as its key"),
    .init("a: \"x\" y\n", "1:8: unexpected content after the quoted value: 'y'"),
    .init("a: [1] x\n", "1:8: unexpected content after ']': 'x'"),
    .init("a: \"x\"#c\n", "1:7: a comment needs a space before '#'"),
    .init("a: @x\n", "1:4: '@' is reserved in YAML and cannot start a plain value"),
    .init("a: `x\n", "1:4: '`' is reserved in YAML and cannot start a plain value"),
    .init("a: ]\n", "1:4: unexpected ']'"),
    // Quoted scalars.
    .init("a: \"abc\nb: 1\n", "1:4: unterminated double-quoted string"),
    .init("a: 'abc", "1:4: unterminated single-quoted string"),
    .init("a: \"x\n---\n\"\n", "1:4: unterminated double-quoted string"),
    .init("a: \"\\q\"\n", "1:5: unknown escape sequence '\\q' in a double-quoted string"),
    .init("a: \"\\x4\"\n", "1:5: escape '\\x' needs 2 hexadecimal digits"),
    .init("a: \"\\uD800\"\n", "1:5: escape '\\uD800' is not a Unicode character"),
    .init("a: \"\\U00110000\"\n", "1:5: escape '\\U00110000' is not a Unicode character"),
    .init("'a\n: 1\n", "1:1: unterminated single-quoted string"),
    // Flow collections (§7.4).
    .init("a: [1, 2\n", "1:4: unclosed '['"),
    .init("a: {x: 1\nb: 2\n", "1:4: unclosed '{'"),
    .init("a:\n  b: [1,\n  2]\n", "2:6: unclosed '['"),
    .init("[a}", "1:3: mismatched '}': expected ']'"),
    .init("[\"a\" \"b\"]", "1:6: expected ',' or ']' in '[...]', found '\"b\"]'"),
    .init(
      "a: [x\n  y]\n",
      "2:3: a plain value cannot continue on the next line inside a flow collection"),
    .init("[a: 1]", "1:3: 'key: value' pairs inside '[...]' are not supported"),
    .init("[- a]", "1:2: '- ' list items are not allowed inside a flow collection"),
    .init("[a?b]", "1:3: '?' cannot appear in a plain value inside a flow collection"),
    .init("[a,,b]", "1:4: unexpected ','; an entry is missing"),
    .init("{a}", "1:3: expected ':' after the key 'a' in '{...}'"),
    .init("{[a]: b}", "1:2: a flow collection cannot be used as a mapping key"),
    .init("[a,#c\n]", "1:4: a comment needs a space before '#'"),
    .init(
      String(repeating: "[", count: 70),
      "1:65: flow collections are nested too deeply (more than 64 levels)"),
    // Characters (§5.1, §5.4).
    .init("a: \u{1}\n", "1:4: control character U+0001 is not allowed in YAML"),
    .init("a: x\u{7F}\n", "1:5: control character U+007F is not allowed in YAML"),
    .init(
      "a: x\u{85}y\n", "1:5: next-line character U+0085 is not allowed; use a plain line break"),
    .init(
      "a: x\u{2028}y\n",
      "1:5: Unicode line or paragraph separator (U+2028, U+2029) is not allowed; use a plain line break"
    ),
    .init(
      "a: x\u{FEFF}\n", "1:5: byte order mark (U+FEFF) is only allowed at the start of the file"),
  ]

  @Test("each unsupported or malformed construct gets its own diagnostic", arguments: rejections)
  func rejected(_ rejection: Rejection) {
    let diagnostics = errors(rejection.text)
    let rendered = diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    #expect(rendered.contains(rejection.expected), "got \(rendered)")
    #expect(diagnostics.allSatisfy { $0.severity == .error && $0.location.file == testFile })
  }

  @Test("a duplicate key points back at the first definition")
  func duplicateKeyNote() throws {
    let diagnostic = try #require(errors("fran:\n  rounds: 3\n  rounds: 5\n").first)
    #expect(diagnostic.message == "duplicate key 'rounds' in mapping")
    #expect(diagnostic.length == 6)
    #expect(diagnostic.notes.count == 1)
    #expect(diagnostic.notes.first?.severity == .note)
    #expect(diagnostic.notes.first?.message == "'rounds' first defined here")
    #expect(diagnostic.notes.first?.location == SourceLocation(file: testFile, line: 2, column: 3))
  }

  @Test("hints say how to fix the problem")
  func hints() {
    #expect(errors("a:\n\tb: 1\n").first?.hint == "indent with spaces")
    #expect(errors("a: \"abc\nb: 1\n").first?.hint == "add the closing '\"'")
    #expect(errors("a: [1\n").first?.hint == "add ']' after the last entry")
    #expect(errors("a: *x\n").first?.hint == "repeat the value instead")
  }

  @Test("every error of a file is reported in one run, sorted by position")
  func reportsAllErrors() {
    let text = """
      clock:
        brightness: 80%
        brightness: 90%
      presets:
        fran:
      \trounds: 3
        cindy: &c
          cap: 20m
        grace:
          label: "unterminated
        helen: [1, 2
      tokens:
        - a: b: c
        - ok
      """
    let diagnostics = errors(text)
    let rendered = diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    #expect(
      rendered == [
        "3:3: duplicate key 'brightness' in mapping",
        "6:1: tabs are not allowed in indentation",
        "7:10: anchors ('&name') are not supported",
        "10:12: unterminated double-quoted string",
        "11:10: unclosed '['",
        "13:9: unexpected ':' in a value; a nested mapping must start on its own line",
      ])
  }
}
