// SPDX-License-Identifier: MIT

import ConfigFormat
import Testing

@Suite("Diagnostics: rendering, summary, collection")
struct DiagnosticTests {
  static let source =
    (1...13).map { "# line \($0)" }.joined(separator: "\n")
    + "\nfran:\n    rouds: 5\n"

  @Test("a diagnostic renders as file:line:col, the source line, a caret and a hint")
  func rendersCompilerStyle() {
    let source = "presets:\n  fran:\n    rouds: 5\n"
    let location = SourceLocation(file: "wodclock.yaml", line: 3, column: 5)
    let diagnostic = Diagnostic(
      severity: .error, location: location, length: 5,
      message: "unknown key 'rouds' in preset 'fran'", hint: "did you mean 'rounds'?")
    let renderer = DiagnosticRenderer(file: "wodclock.yaml", source: source)
    #expect(
      renderer.render(diagnostic) == """
        wodclock.yaml:3:5: error: unknown key 'rouds' in preset 'fran'
            rouds: 5
            ^~~~~
        hint: did you mean 'rounds'?

        """)
  }

  @Test("a parser diagnostic renders with its note")
  func rendersParserDiagnosticWithNote() {
    let source = "clock:\n  brightness: 80%\n  brightness: 90%\n"
    let diagnostics = YAMLSubsetParser.parse(source, file: "wodclock.yaml").diagnostics
    let rendered = DiagnosticRenderer(file: "wodclock.yaml", source: source).render(diagnostics)
    #expect(
      rendered == """
        wodclock.yaml:3:3: error: duplicate key 'brightness' in mapping
          brightness: 90%
          ^~~~~~~~~~
        hint: remove or rename one of them; keys must be unique
        wodclock.yaml:2:3: note: 'brightness' first defined here
          brightness: 80%
          ^~~~~~~~~~

        """)
  }

  @Test("a tab before the column is copied so the caret lines up")
  func caretAfterTab() {
    let source = "a:\n\tb: 1\n"
    let diagnostics = YAMLSubsetParser.parse(source, file: "f.yaml").diagnostics
    let rendered = DiagnosticRenderer(file: "f.yaml", source: source).render(diagnostics)
    #expect(
      rendered == """
        f.yaml:2:1: error: tabs are not allowed in indentation
        \tb: 1
        ^
        hint: indent with spaces

        """)
    let later = Diagnostic(
      severity: .warning, location: SourceLocation(file: "f.yaml", line: 2, column: 2),
      length: 1, message: "look here")
    #expect(
      DiagnosticRenderer(file: "f.yaml", source: source).render(later)
        == "f.yaml:2:2: warning: look here\n\tb: 1\n\t^\n")
  }

  @Test("the underline stops at the end of the line; a caret past it is still drawn")
  func underlineClamped() {
    let source = "key: value\n"
    let renderer = DiagnosticRenderer(file: "f.yaml", source: source)
    let long = Diagnostic(
      severity: .error, location: SourceLocation(file: "f.yaml", line: 1, column: 6), length: 40,
      message: "too long")
    #expect(renderer.render(long) == "f.yaml:1:6: error: too long\nkey: value\n     ^~~~~\n")
    let atEnd = Diagnostic(
      severity: .error, location: SourceLocation(file: "f.yaml", line: 1, column: 11),
      message: "at the end")
    #expect(renderer.render(atEnd) == "f.yaml:1:11: error: at the end\nkey: value\n          ^\n")
  }

  @Test("CR LF sources are quoted without their carriage returns")
  func crlfSource() {
    let source = "a: 1\r\nb: [1\r\n"
    let diagnostics = YAMLSubsetParser.parse(source, file: "f.yaml").diagnostics
    #expect(
      DiagnosticRenderer(file: "f.yaml", source: source).render(diagnostics)
        == "f.yaml:2:4: error: unclosed '['\nb: [1\n   ^\nhint: add ']' after the last entry\n")
  }

  @Test("control characters of the line, the message and the hint are shown as <U+001B>")
  func controlCharactersEscaped() {
    let source = "a: \u{1B}[31mred\u{7}\n"
    let diagnostics = YAMLSubsetParser.parse(source, file: "f.yaml").diagnostics
    let rendered = DiagnosticRenderer(file: "f.yaml", source: source).render(diagnostics)
    #expect(
      rendered == """
        f.yaml:1:4: error: control character U+001B is not allowed in YAML
        a: <U+001B>[31mred<U+0007>
           ^~~~~~~~
        hint: this line holds 1 more such character

        """)
    let fromText = Diagnostic(
      severity: .error, location: SourceLocation(file: "f.yaml", line: 1, column: 12),
      message: "unknown key '\u{1B}]0;owned\u{7}'", hint: "did you mean\n'\u{9B}x'?")
    let text = DiagnosticRenderer(file: "f.yaml", source: source).render(fromText)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x9B })
    #expect(text.hasPrefix("f.yaml:1:12: error: unknown key '<U+001B>]0;owned<U+0007>'\n"))
    #expect(text.contains("\n" + String(repeating: " ", count: 18) + "^~~~~~~~\n"))
    #expect(text.hasSuffix("hint: did you mean\n'<U+009B>x'?\n"))
  }

  @Test("a long line is cut around the column, so a diagnostic costs what its line shows")
  func longLineCut() {
    let line = String(repeating: "a", count: 10_000) + "XYZ" + String(repeating: "b", count: 10_000)
    let diagnostic = Diagnostic(
      severity: .error, location: SourceLocation(file: "f.yaml", line: 2, column: 10_001),
      length: 3, message: "here")
    let rendered = DiagnosticRenderer(file: "f.yaml", source: "x: 1\n" + line + "\n")
      .render(diagnostic)
    let parts = rendered.split(separator: "\n").map(String.init)
    #expect(parts.count == 3)
    let quoted = parts[1]
    #expect(quoted.hasPrefix("...a") && quoted.hasSuffix("b..."))
    #expect(quoted.count == 3 + DiagnosticRenderer.maximumQuotedLength + 3)
    let caret = parts[2]
    let caretColumn = caret.firstIndex(of: "^").map {
      caret.distance(from: caret.startIndex, to: $0)
    }
    let xyzColumn = quoted.firstRange(of: "XYZ").map {
      quoted.distance(from: quoted.startIndex, to: $0.lowerBound)
    }
    #expect(caretColumn != nil && caretColumn == xyzColumn)
    #expect(caret.hasSuffix("^~~"))
    // Near the start or the end of the line, only the far side is cut.
    let start = Diagnostic(
      severity: .error, location: SourceLocation(file: "f.yaml", line: 2, column: 3),
      message: "start")
    let startQuoted = DiagnosticRenderer(file: "f.yaml", source: "x: 1\n" + line + "\n")
      .render(start).split(separator: "\n")
    #expect(startQuoted[1].hasPrefix("aaa") && startQuoted[1].hasSuffix("a..."))
    #expect(startQuoted[2] == "  ^")
    let end = Diagnostic(
      severity: .error, location: SourceLocation(file: "f.yaml", line: 2, column: 20_004),
      message: "end")
    let endQuoted = DiagnosticRenderer(file: "f.yaml", source: "x: 1\n" + line + "\n")
      .render(end).split(separator: "\n")
    #expect(endQuoted[1].hasPrefix("...b") && endQuoted[1].hasSuffix("bbb"))
    #expect(endQuoted[2] == String(repeating: " ", count: 123) + "^")
  }

  @Test("past the limit, diagnostics are counted instead of printed")
  func limit() {
    let source = (0..<130).map { "k\($0): \u{1}\n" }.joined()
    var diagnostics = YAMLSubsetParser.parse(source, file: "f.yaml").diagnostics
    diagnostics.append(
      Diagnostic(
        severity: .warning, location: SourceLocation(file: "f.yaml", line: 200, column: 1),
        message: "late"))
    #expect(diagnostics.count == 131)
    let rendered = DiagnosticRenderer(file: "f.yaml", source: source).render(diagnostics)
    let headers = rendered.split(separator: "\n").filter {
      $0.hasPrefix("f.yaml:") && !$0.hasPrefix("f.yaml: ")
    }
    #expect(headers.count == DiagnosticRenderer.defaultLimit)
    #expect(rendered.hasSuffix("f.yaml: and 80 more errors, 1 more warning not shown\n"))
    let three = DiagnosticRenderer(file: "f.yaml", source: source, limit: 3).render(diagnostics)
    #expect(three.hasSuffix("\nf.yaml: and 127 more errors, 1 more warning not shown\n"))
  }

  @Test("lines are numbered as the parser numbers them: LF, CR LF or CR ends each")
  func lineSplitting() {
    #expect(DiagnosticRenderer.lines(of: "a\nb\r\nc\rd") == ["a", "b", "c", "d"])
    #expect(DiagnosticRenderer.lines(of: "a\r\r\n\n") == ["a", "", "", ""])
    #expect(DiagnosticRenderer.lines(of: "\u{FEFF}a: 1\n") == ["a: 1", ""])
    let source = "a: 1\rb: [1\r"
    let diagnostics = YAMLSubsetParser.parse(source, file: "f.yaml").diagnostics
    #expect(
      DiagnosticRenderer(file: "f.yaml", source: source).render(diagnostics)
        == "f.yaml:2:4: error: unclosed '['\nb: [1\n   ^\nhint: add ']' after the last entry\n")
  }

  @Test("without the file's source, only the header and hint are printed")
  func unknownSource() {
    let diagnostic = Diagnostic(
      severity: .warning, location: SourceLocation(file: "other.yaml", line: 2, column: 1),
      message: "unused preset 'x'", hint: "remove it")
    #expect(
      DiagnosticRenderer(sources: [:]).render(diagnostic)
        == "other.yaml:2:1: warning: unused preset 'x'\nhint: remove it\n")
  }

  @Test("colour adds ANSI sequences around the same text")
  func colour() {
    let source = "a: 1\n"
    let diagnostic = Diagnostic.error(
      "bad", at: SourceRange(at: SourceLocation(file: "f.yaml", line: 1, column: 4)), hint: "fix")
    let plain = DiagnosticRenderer(file: "f.yaml", source: source).render(diagnostic)
    let coloured = DiagnosticRenderer(file: "f.yaml", source: source, usesColor: true)
      .render(diagnostic)
    #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    #expect(coloured != plain)
    #expect(stripANSI(coloured) == plain)
  }

  @Test("diagnostics print sorted by position")
  func sorted() {
    let source = "a: 1\nb: 2\n"
    func at(_ line: Int, _ column: Int, _ message: String) -> Diagnostic {
      Diagnostic(
        severity: .error, location: SourceLocation(file: "f.yaml", line: line, column: column),
        message: message)
    }
    let rendered = DiagnosticRenderer(file: "f.yaml", source: source)
      .render([at(2, 1, "second"), at(1, 4, "first b"), at(1, 1, "first a")])
    let headers = rendered.split(separator: "\n").filter { $0.hasPrefix("f.yaml") }
    #expect(
      headers == [
        "f.yaml:1:1: error: first a", "f.yaml:1:4: error: first b", "f.yaml:2:1: error: second",
      ])
  }

  @Test("summary lines count errors and warnings")
  func summary() {
    let location = SourceLocation(file: "wodclock.yaml", line: 1, column: 1)
    let error = Diagnostic(severity: .error, location: location, message: "e")
    let warning = Diagnostic(severity: .warning, location: location, message: "w")
    let note = Diagnostic(severity: .note, location: location, message: "n")
    #expect(
      DiagnosticRenderer.summaryLine(
        file: "wodclock.yaml", diagnostics: [error, error, warning, error, note])
        == "wodclock.yaml: 3 errors, 1 warning")
    #expect(
      DiagnosticRenderer.summaryLine(file: "x.yaml", diagnostics: [error]) == "x.yaml: 1 error")
    #expect(
      DiagnosticRenderer.summaryLine(file: "x.yaml", diagnostics: [warning, warning])
        == "x.yaml: 2 warnings")
    #expect(DiagnosticRenderer.summaryLine(file: "x.yaml", diagnostics: []) == "x.yaml: no errors")
  }

  @Test("the bag collects errors and warnings for the schema layer")
  func bag() throws {
    let document = try #require(root("rounds: 0\nwork: 90\nname: x\n"))
    var bag = DiagnosticBag()
    #expect(!bag.hasErrors)
    let rounds = try #require(document["rounds"]?.scalar)
    #expect(bag.take(ValueSyntax.integer(rounds, name: "rounds", in: 1...999)) == nil)
    let work = try #require(document["work"]?.scalar)
    #expect(bag.take(ValueSyntax.duration(work)) == nil)
    bag.warning("preset 'x' is never used", at: try #require(document["name"]))
    #expect(bag.take(Result<Int, Diagnostic>.success(3)) == 3)
    #expect(bag.errorCount == 2)
    #expect(bag.warningCount == 1)
    #expect(bag.hasErrors)
    bag.error("late", at: try #require(document["rounds"]))
    #expect(bag.sorted.map(\.message).first == "'rounds' must be between 1 and 999, got 0")
    #expect(bag.sorted.map(\.location.line) == [1, 1, 2, 3])
    let merged = DiagnosticBag(bag.diagnostics)
    #expect(merged == bag)
  }
}

/// Removes ANSI escape sequences (ESC [ ... m).
func stripANSI(_ text: String) -> String {
  var output = ""
  var inEscape = false
  for scalar in text.unicodeScalars {
    if inEscape {
      if scalar == "m" { inEscape = false }
    } else if scalar == "\u{1B}" {
      inEscape = true
    } else {
      output.unicodeScalars.append(scalar)
    }
  }
  return output
}
