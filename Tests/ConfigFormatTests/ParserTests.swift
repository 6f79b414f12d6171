// SPDX-License-Identifier: MIT

import ConfigFormat
import Testing

@Suite("Parser: accepted constructs")
struct ParserTests {
  @Test("a block mapping keeps its entries in order with their locations")
  func blockMapping() throws {
    let node = try #require(root("rounds: 5\nwork: 20s\n"))
    let entries = try #require(node.mappingEntries)
    #expect(entries.map(\.key.text) == ["rounds", "work"])
    #expect(node["rounds"]?.scalarText == "5")
    #expect(node["work"]?.scalarText == "20s")
    #expect(node["missing"] == nil)
    let work = try #require(node["work"]?.scalar)
    #expect(work.location == SourceLocation(file: testFile, line: 2, column: 7))
    #expect(work.range.end == SourceLocation(file: testFile, line: 2, column: 10))
    #expect(work.range.underlineLength == 3)
    #expect(entries[1].key.location == SourceLocation(file: testFile, line: 2, column: 1))
    #expect(node.kindName == "mapping")
    #expect(node.mapping?.style == .block)
  }

  @Test("nested block mappings")
  func nestedMappings() throws {
    let node = try #require(root("presets:\n  fran:\n    rounds: 3\n  cindy:\n    cap: 20m\n"))
    #expect(node["presets"]?["fran"]?["rounds"]?.scalarText == "3")
    #expect(node["presets"]?["cindy"]?["cap"]?.scalarText == "20m")
    #expect(node["presets"]?.mapping?.keys == ["fran", "cindy"])
    #expect(node["presets"]?.location == SourceLocation(file: testFile, line: 2, column: 3))
  }

  @Test("a block sequence indented under its key")
  func indentedSequence() throws {
    let node = try #require(root("movements:\n  - thrusters\n  - pull-ups\n"))
    let items = try #require(node["movements"]?.sequenceItems)
    #expect(items.compactMap(\.scalarText) == ["thrusters", "pull-ups"])
    #expect(node["movements"]?.location == SourceLocation(file: testFile, line: 2, column: 3))
    #expect(node["movements"]?[1]?.location == SourceLocation(file: testFile, line: 3, column: 5))
    #expect(node["movements"]?[2] == nil)
  }

  @Test("a block sequence at the same indentation as its key")
  func indentlessSequence() throws {
    let node = try #require(root("a:\n- 1\n- 2\nb: 3\n"))
    #expect(node["a"]?.sequenceItems?.compactMap(\.scalarText) == ["1", "2"])
    #expect(node["b"]?.scalarText == "3")
  }

  @Test("compact mappings and sequences inside sequence items")
  func compactItems() throws {
    let text = """
      inputs:
        - type: gpio
          pins: [17, 27]
        - - nested
          - list
        -   spaced: true
            again: false
      """
    let node = try #require(root(text))
    let inputs = try #require(node["inputs"]?.sequenceItems)
    #expect(inputs.count == 3)
    #expect(inputs[0]["type"]?.scalarText == "gpio")
    #expect(inputs[0]["pins"]?.sequenceItems?.compactMap(\.scalarText) == ["17", "27"])
    #expect(inputs[0].location == SourceLocation(file: testFile, line: 2, column: 5))
    #expect(inputs[1].sequenceItems?.compactMap(\.scalarText) == ["nested", "list"])
    #expect(inputs[2]["again"]?.scalarText == "false")
    #expect(inputs[2].location == SourceLocation(file: testFile, line: 6, column: 7))
  }

  @Test("flow sequences and mappings, nested, with trailing commas")
  func flowCollections() throws {
    let text = "a: [20s, 10s]\nb: {work: 20s, rest: 10s}\nc: [[1, 2], {k: v}, ]\nd: []\ne: {}\n"
    let node = try #require(root(text))
    #expect(node["a"]?.sequenceItems?.compactMap(\.scalarText) == ["20s", "10s"])
    #expect(node["a"]?.sequence?.style == .flow)
    #expect(node["a"]?.range.end == SourceLocation(file: testFile, line: 1, column: 14))
    #expect(node["b"]?["rest"]?.scalarText == "10s")
    #expect(node["b"]?.mapping?.style == .flow)
    #expect(node["c"]?[0]?[1]?.scalarText == "2")
    #expect(node["c"]?[1]?["k"]?.scalarText == "v")
    #expect(node["c"]?.sequenceItems?.count == 2)
    #expect(node["d"]?.sequenceItems?.isEmpty == true)
    #expect(node["e"]?.mappingEntries?.isEmpty == true)
  }

  @Test("flow collections may span lines and hold comments")
  func multiLineFlow() throws {
    let node = try #require(root("a: [one,\n  # note\n  two,\n  three]\nb: {\n  x: 1\n}\n"))
    #expect(node["a"]?.sequenceItems?.compactMap(\.scalarText) == ["one", "two", "three"])
    #expect(node["b"]?["x"]?.scalarText == "1")
  }

  @Test("flow mappings: empty values, JSON-style keys, colons inside plain scalars")
  func flowMappingDetails() throws {
    let node = try #require(root(#"{a: , "b":2, c: 1:30, url: http://x/y}"#))
    #expect(node["a"]?.isEmptyValue == true)
    #expect(node["b"]?.scalarText == "2")
    #expect(node["c"]?.scalarText == "1:30")
    #expect(node["url"]?.scalarText == "http://x/y")
  }

  @Test("plain scalars keep inner punctuation and drop trailing spaces and comments")
  func plainScalars() throws {
    let text =
      "a: 1:30   \nb: a#b # comment\nc: -5\nd: http://x.org:80/p\ne: it's \"ok\"\nf: several words\n"
    let node = try #require(root(text))
    #expect(node["a"]?.scalarText == "1:30")
    #expect(node["a"]?.range.underlineLength == 4)
    #expect(node["b"]?.scalarText == "a#b")
    #expect(node["c"]?.scalarText == "-5")
    #expect(node["d"]?.scalarText == "http://x.org:80/p")
    #expect(node["e"]?.scalarText == "it's \"ok\"")
    #expect(node["f"]?.scalarText == "several words")
    #expect(node["f"]?.scalar?.style == .plain)
  }

  @Test("single-quoted scalars: '' is one quote, backslashes are literal")
  func singleQuoted() throws {
    let node = try #require(root("a: 'it''s'\nb: 'C:\\dir # not a comment'\n"))
    #expect(node["a"]?.scalarText == "it's")
    #expect(node["a"]?.scalar?.style == .singleQuoted)
    #expect(node["a"]?.range.underlineLength == 7)
    #expect(node["b"]?.scalarText == "C:\\dir # not a comment")
  }

  @Test(
    "double-quoted escapes decode as YAML 1.2 §5.7 says",
    arguments: [
      (#"\n"#, "\n"), (#"\t"#, "\t"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"),
      (#"\0"#, "\0"), (#"\a"#, "\u{7}"), (#"\b"#, "\u{8}"), (#"\e"#, "\u{1B}"), (#"\f"#, "\u{C}"),
      (#"\r"#, "\r"), (#"\v"#, "\u{B}"), (#"\ "#, " "), (#"\N"#, "\u{85}"), (#"\_"#, "\u{A0}"),
      (#"\L"#, "\u{2028}"), (#"\P"#, "\u{2029}"), (#"\x41"#, "A"), (#"\xe9"#, "é"),
      (#"\u00E9"#, "é"), (#"\u2713"#, "✓"), (#"\U0001F4AA"#, "💪"), ("\\\t", "\t"),
    ])
  func doubleQuotedEscapes(escape: String, decoded: String) throws {
    let node = try #require(root("a: \"<\(escape)>\"\n"))
    #expect(node["a"]?.scalarText == "<\(decoded)>")
    #expect(node["a"]?.scalar?.style == .doubleQuoted)
  }

  @Test("multi-line quoted scalars fold line breaks (YAML 1.2 §6.5)")
  func multiLineQuoted() throws {
    let text = "a: \"one\n  two  \n\n  three\"\nb: 'x\n   y'\nc: \"joined\\\n   here\"\nd: 1\n"
    let node = try #require(root(text))
    #expect(node["a"]?.scalarText == "one two\nthree")
    #expect(node["a"]?.range.end == SourceLocation(file: testFile, line: 4, column: 9))
    #expect(node["a"]?.range.underlineLength == 1)
    #expect(node["b"]?.scalarText == "x y")
    #expect(node["c"]?.scalarText == "joinedhere")
    #expect(node["d"]?.scalarText == "1")
  }

  @Test("empty values are empty plain scalars the schema can recognise")
  func emptyValues() throws {
    let node = try #require(root("a:\nb: # nothing\nc: ''\nd: ~\nlist:\n  -\n  - x\n"))
    let a = try #require(node["a"]?.scalar)
    #expect(a.isEmptyValue && a.isNull && a.text.isEmpty)
    #expect(a.location == SourceLocation(file: testFile, line: 1, column: 3))
    #expect(node["b"]?.isEmptyValue == true)
    #expect(node["c"]?.isEmptyValue == false)
    #expect(node["c"]?.scalar?.isNull == false)
    #expect(node["d"]?.scalar?.isNull == true)
    #expect(node["d"]?.isEmptyValue == false)
    #expect(node["list"]?[0]?.isEmptyValue == true)
    #expect(node["list"]?[1]?.scalarText == "x")
  }

  @Test("quoted and unicode keys")
  func keys() throws {
    let node = try #require(root("\"a b\": 1\n'c: d': 2\nключ: 3\n\"\": 4\n"))
    #expect(node.mapping?.keys == ["a b", "c: d", "ключ", ""])
    #expect(node.mappingEntries?[0].key.style == .doubleQuoted)
    #expect(node["ключ"]?.location == SourceLocation(file: testFile, line: 3, column: 7))
  }

  @Test("comments anywhere, blank lines, document markers")
  func commentsAndMarkers() throws {
    let text =
      "# head\n--- # start\n\na: 1 # one\n  # indented\n# col 0\nb:\n  # before\n  - x # after\n... # end\n# tail\n"
    let node = try #require(root(text))
    #expect(node["a"]?.scalarText == "1")
    #expect(node["b"]?[0]?.scalarText == "x")
  }

  @Test("documents without content")
  func emptyDocuments() throws {
    #expect(parse("").document == ConfigDocument(file: testFile, root: nil))
    #expect(parse("# only\n\n").document?.root == nil)
    let explicit = try #require(parse("---\n").document?.root)
    #expect(explicit.isEmptyValue)
  }

  @Test("root scalars, root sequences and root flow collections")
  func roots() throws {
    #expect(root("hello world\n")?.scalarText == "hello world")
    #expect(root("- a\n- b\n")?.sequenceItems?.count == 2)
    #expect(root("[a, {b: c}]")?[1]?["b"]?.scalarText == "c")
    #expect(root("\"quoted\" # c")?.scalarText == "quoted")
  }

  @Test("CR LF line endings and a leading byte order mark")
  func lineEndingsAndBOM() throws {
    let node = try #require(root("\u{FEFF}a: 1\r\nb:\r\n  - \"x\r\n    y\"\r\n"))
    #expect(node["a"]?.scalarText == "1")
    #expect(node["a"]?.location == SourceLocation(file: testFile, line: 1, column: 4))
    #expect(node["b"]?[0]?.scalarText == "x y")
  }

  @Test("columns count characters, not bytes")
  func unicodeColumns() throws {
    let node = try #require(root("émoji: ✓ 💪\nnext: [é, x]\n"))
    let value = try #require(node["émoji"]?.scalar)
    #expect(value.location == SourceLocation(file: testFile, line: 1, column: 8))
    #expect(value.range.underlineLength == 3)
    #expect(node["next"]?[1]?.location == SourceLocation(file: testFile, line: 2, column: 11))
  }

  @Test("indentation widths may differ between levels")
  func indentationWidths() throws {
    let node = try #require(root("a:\n b:\n     c: 1\n d: 2\ne: 3\n"))
    #expect(node["a"]?["b"]?["c"]?.scalarText == "1")
    #expect(node["a"]?["d"]?.scalarText == "2")
    #expect(node["e"]?.scalarText == "3")
  }

  @Test("a 1,000-preset configuration parses completely")
  func largeConfiguration() throws {
    var text = "presets:\n"
    for index in 0..<1000 {
      text +=
        "  p\(index):\n    work: 20s\n    rest: 10s\n    list: [a, b]\n    label: \"n\\u00b0\(index)\"\n"
    }
    let node = try #require(root(text))
    let presets = try #require(node["presets"]?.mappingEntries)
    #expect(presets.count == 1000)
    #expect(node["presets"]?["p999"]?["label"]?.scalarText == "n°999")
    #expect(node["presets"]?["p999"]?.location.line == 4998)
  }
}
