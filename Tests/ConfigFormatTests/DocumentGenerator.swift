// SPDX-License-Identifier: MIT

import ConfigFormat
import WodclockTestSupport

/// A tree the generator means to write, to check what the parser reads back.
indirect enum GeneratedNode {
  case scalar(String, ScalarStyle)
  case mapping([(String, ScalarStyle, GeneratedNode)], flow: Bool)
  case sequence([GeneratedNode], flow: Bool)
}

/// Writes random documents in the supported subset, mixing every style: block and flow
/// collections, compact and indentless sequences, plain, quoted and multi-line quoted scalars,
/// escapes, comments, blank lines, document markers and indentation widths of 1 to 4.
struct DocumentGenerator {
  var random: SeededGenerator
  private var step = 2

  init(seed: UInt64) {
    random = SeededGenerator(seed: seed)
  }

  /// One document and the tree it should parse to.
  mutating func document() -> (text: String, tree: GeneratedNode) {
    step = Int.random(in: 1...4, using: &random)
    var text = ""
    if chance(0.2) { text += "# generated document\n" }
    if chance(0.25) { text += chance(0.5) ? "---\n" : "--- # start\n" }
    let tree: GeneratedNode
    let roll = Int.random(in: 0..<10, using: &random)
    if roll < 6 {
      let entries = mappingEntries(depth: 0, minimumCount: 1)
      tree = .mapping(entries, flow: false)
      text += blockMapping(entries, indent: 0)
    } else if roll < 8 {
      let items = sequenceItems(depth: 0, minimumCount: 1)
      tree = .sequence(items, flow: false)
      text += blockSequence(items, indent: 0)
    } else if roll < 9 {
      let node = flowNode(depth: 1)
      tree = node
      text += flow(node) + "\n"
    } else {
      let (source, node) = scalarSource(inFlow: false, allowsEmpty: false)
      tree = node
      text += source + "\n"
    }
    if chance(0.15) { text += "...\n" }
    if chance(0.2) { text += "# trailing comment\n" }
    return (text, tree)
  }

  // MARK: Trees

  private mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &random) < probability
  }

  private mutating func pick<T>(_ values: [T]) -> T {
    values[Int.random(in: 0..<values.count, using: &random)]
  }

  private mutating func mappingEntries(depth: Int, minimumCount: Int)
    -> [(String, ScalarStyle, GeneratedNode)]
  {
    let count = Int.random(in: minimumCount...4, using: &random)
    var used = Set<String>()
    var entries: [(String, ScalarStyle, GeneratedNode)] = []
    for index in 0..<count {
      var (key, style) = keyText()
      if !used.insert(key).inserted {
        key += "\(index)"
        used.insert(key)
      }
      entries.append((key, style, blockValue(depth: depth + 1)))
    }
    return entries
  }

  private mutating func sequenceItems(depth: Int, minimumCount: Int) -> [GeneratedNode] {
    (0..<Int.random(in: minimumCount...4, using: &random)).map { _ in blockValue(depth: depth + 1) }
  }

  private mutating func blockValue(depth: Int) -> GeneratedNode {
    let roll = Int.random(in: 0..<10, using: &random)
    if depth < 4 && roll < 2 {
      return .mapping(mappingEntries(depth: depth, minimumCount: 1), flow: false)
    }
    if depth < 4 && roll < 4 {
      return .sequence(sequenceItems(depth: depth, minimumCount: 1), flow: false)
    }
    if depth < 4 && roll < 5 { return flowNode(depth: depth) }
    if roll == 5 { return .scalar("", .plain) }
    return scalarNode(inFlow: false)
  }

  private mutating func flowNode(depth: Int) -> GeneratedNode {
    let count = Int.random(in: 0...3, using: &random)
    let isSequence = chance(0.5)
    if isSequence {
      return .sequence(
        (0..<count).map { _ in
          depth < 3 && chance(0.2) ? flowNode(depth: depth + 1) : scalarNode(inFlow: true)
        }, flow: true)
    }
    var used = Set<String>()
    var entries: [(String, ScalarStyle, GeneratedNode)] = []
    for index in 0..<count {
      var (key, style) = keyText(inFlow: true)
      if !used.insert(key).inserted {
        key += "\(index)"
        used.insert(key)
      }
      let value: GeneratedNode =
        depth < 3 && chance(0.2)
        ? flowNode(depth: depth + 1) : chance(0.1) ? .scalar("", .plain) : scalarNode(inFlow: true)
      entries.append((key, style, value))
    }
    return .mapping(entries, flow: true)
  }

  // MARK: Scalars

  private static let blockWords = [
    "alpha", "20s", "1:30", "-5", "3.14", "http://x.y/z", "a-b", "a_b", "café", "✓", "x#y", "50%",
    "a'b", "a\"b", "~", "null", "true", "yes", "on", "1e3", "0x1F", "2024-01-15", "a.b", "(paren)",
    "a=b", "a;b", "a:b", "a[1]", "b{2}", "c,d", "Ω", "名前", "💪", "-x", "--", "a!", "a&b", "a*b",
  ]
  private static let flowWords = [
    "alpha", "20s", "1:30", "-5", "3.14", "http://x.y/z", "a-b", "café", "✓", "x#y", "50%", "a'b",
    "~", "null", "true", "on", "0x1F", "a:b", "Ω", "💪", "-x", "a!", "a&b",
  ]

  private mutating func keyText(inFlow: Bool = false) -> (String, ScalarStyle) {
    switch Int.random(in: 0..<10, using: &random) {
    case 0:
      return (singleQuotedText(), .singleQuoted)
    case 1:
      return (doubleQuotedPieces().decoded, .doubleQuoted)
    default:
      let words = inFlow ? Self.flowWords : Self.blockWords
      let count = Int.random(in: 1...2, using: &random)
      return ((0..<count).map { _ in pick(words) }.joined(separator: " "), .plain)
    }
  }

  private mutating func scalarNode(inFlow: Bool) -> GeneratedNode {
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1:
      return .scalar(singleQuotedText(), .singleQuoted)
    case 2, 3:
      return .scalar(doubleQuotedPieces().decoded, .doubleQuoted)
    default:
      let words = inFlow ? Self.flowWords : Self.blockWords
      let count = Int.random(in: 1...3, using: &random)
      return .scalar((0..<count).map { _ in pick(words) }.joined(separator: " "), .plain)
    }
  }

  /// A scalar as written, for root scalars.
  private mutating func scalarSource(inFlow: Bool, allowsEmpty: Bool) -> (String, GeneratedNode) {
    let node = scalarNode(inFlow: inFlow)
    return (scalar(node), node)
  }

  private static let singlePieces = [
    "abc", "''", " ", "\\", "\"", "#", ": ", ",", "[", "]", "é", "x y", "{", "}", "-", "?", "&*!|>",
  ]

  private mutating func singleQuotedText() -> String {
    let count = Int.random(in: 0...5, using: &random)
    return (0..<count).map { _ in pick(Self.singlePieces) }.joined()
      .replacing("''", with: "'")
  }

  private static let doublePieces: [(source: String, decoded: String)] = [
    ("abc", "abc"), (" ", " "), ("\\n", "\n"), ("\\t", "\t"), ("\\\"", "\""), ("\\\\", "\\"),
    ("\\/", "/"), ("\\x41", "A"), ("\\u00e9", "é"), ("\\U0001F4AA", "💪"), ("\\e", "\u{1B}"),
    ("\\0", "\0"), ("\\N", "\u{85}"), ("\\_", "\u{A0}"), ("é", "é"), ("✓", "✓"), ("'", "'"),
    ("#", "#"), (": ", ": "), (" #", " #"), ("[", "["), ("}", "}"), (",", ","), ("\\ ", " "),
    ("\\L", "\u{2028}"), ("\\r", "\r"), ("\\a", "\u{7}"),
  ]

  private mutating func doubleQuotedPieces() -> (source: String, decoded: String) {
    let count = Int.random(in: 0...5, using: &random)
    var source = ""
    var decoded = ""
    for _ in 0..<count {
      let piece = pick(Self.doublePieces)
      source += piece.source
      decoded += piece.decoded
    }
    return (source, decoded)
  }

  // MARK: Writing

  private func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }

  private mutating func trailingComment() -> String {
    chance(0.15) ? pick([" # note", "  # two spaces", " #"]) : ""
  }

  private mutating func interludes(indent: Int) -> String {
    var text = ""
    if chance(0.1) { text += "\n" }
    if chance(0.1) { text += spaces(Int.random(in: 0...indent + 2, using: &random)) + "# c\n" }
    return text
  }

  /// The source of a scalar on one line. Double-quoted text is re-escaped from its decoded form
  /// only for the characters that need it, so the generator's pieces stay the single source of
  /// truth for escapes.
  private mutating func scalar(_ node: GeneratedNode) -> String {
    guard case .scalar(let text, let style) = node else { return flow(node) }
    switch style {
    case .plain: return text
    case .singleQuoted: return "'" + text.replacing("'", with: "''") + "'"
    case .doubleQuoted: return "\"" + escapeDouble(text) + "\""
    }
  }

  private mutating func escapeDouble(_ text: String, escapesSpaces: Bool = true) -> String {
    var output = ""
    for character in text.unicodeScalars {
      switch character {
      case "\"": output += "\\\""
      case "\\": output += pick(["\\\\", "\\x5C", "\\u005c"])
      case "\n": output += "\\n"
      case "\t": output += pick(["\\t", "\\x09"])
      case "\r": output += "\\r"
      case "\0": output += "\\0"
      case "\u{7}": output += "\\a"
      case "\u{1B}": output += "\\e"
      case "\u{85}": output += "\\N"
      case "\u{A0}": output += "\\_"
      case "\u{2028}": output += "\\L"
      case "💪": output += pick(["💪", "\\U0001F4AA"])
      case "é": output += pick(["é", "\\u00e9", "\\xe9"])
      case " ": output += escapesSpaces && chance(0.2) ? "\\ " : " "
      default: output.unicodeScalars.append(character)
      }
    }
    return output
  }

  private mutating func key(_ text: String, _ style: ScalarStyle) -> String {
    scalar(.scalar(text, style))
  }

  private mutating func flow(_ node: GeneratedNode) -> String {
    let comma = pick([", ", ",", " , "])
    switch node {
    case .scalar:
      return scalar(node)
    case .sequence(let items, _):
      let body = items.map { flow($0) }.joined(separator: comma)
      let trailing = !items.isEmpty && chance(0.1) ? "," : ""
      return chance(0.5) ? "[" + body + trailing + "]" : "[ " + body + trailing + " ]"
    case .mapping(let entries, _):
      let body = entries.map { entry -> String in
        let (text, style, value) = entry
        if case .scalar("", .plain) = value { return key(text, style) + ":" }
        return key(text, style) + ": " + flow(value)
      }.joined(separator: comma)
      return chance(0.5) ? "{" + body + "}" : "{ " + body + " }"
    }
  }

  private mutating func blockMapping(
    _ entries: [(String, ScalarStyle, GeneratedNode)], indent: Int, firstLinePrefix: String? = nil
  ) -> String {
    var text = ""
    for (index, (keyText, style, value)) in entries.enumerated() {
      if index == 0, let firstLinePrefix {
        text += firstLinePrefix
      } else {
        text += interludes(indent: indent) + spaces(indent)
      }
      text += key(keyText, style) + ":" + valueAfterKey(value, indent: indent)
    }
    return text
  }

  private mutating func blockSequence(
    _ items: [GeneratedNode], indent: Int, firstLinePrefix: String? = nil
  )
    -> String
  {
    var text = ""
    for (index, item) in items.enumerated() {
      if index == 0, let firstLinePrefix {
        text += firstLinePrefix
      } else {
        text += interludes(indent: indent) + spaces(indent)
      }
      text += "-" + valueAfterDash(item, indent: indent)
    }
    return text
  }

  /// What follows `key:` when the key sits at `indent`.
  private mutating func valueAfterKey(_ value: GeneratedNode, indent: Int) -> String {
    switch value {
    case .scalar("", .plain):
      return trailingComment() + "\n"
    case .scalar(let text, let style):
      if style != .plain, chance(0.3) {
        return " " + multiLineQuoted(text, style, continuationIndent: indent + 1 + step) + "\n"
      }
      return " " + scalar(value) + trailingComment() + "\n"
    case .mapping(let entries, flow: false):
      return trailingComment() + "\n" + blockMapping(entries, indent: indent + step)
    case .sequence(let items, flow: false):
      let childIndent = chance(0.4) ? indent : indent + step
      return trailingComment() + "\n" + blockSequence(items, indent: childIndent)
    default:
      return " " + flow(value) + trailingComment() + "\n"
    }
  }

  /// What follows a `-` at `indent`.
  private mutating func valueAfterDash(_ value: GeneratedNode, indent: Int) -> String {
    switch value {
    case .scalar("", .plain):
      return trailingComment() + "\n"
    case .scalar(let text, let style):
      if style != .plain, chance(0.3) {
        return " " + multiLineQuoted(text, style, continuationIndent: indent + 1 + step) + "\n"
      }
      return " " + scalar(value) + trailingComment() + "\n"
    case .mapping(let entries, flow: false):
      if chance(0.6) {
        let gap = Int.random(in: 1...3, using: &random)
        return blockMapping(
          entries, indent: indent + 1 + gap, firstLinePrefix: spaces(gap))
      }
      return trailingComment() + "\n" + blockMapping(entries, indent: indent + step)
    case .sequence(let items, flow: false):
      if chance(0.5) {
        let gap = Int.random(in: 1...2, using: &random)
        return blockSequence(items, indent: indent + 1 + gap, firstLinePrefix: spaces(gap))
      }
      return trailingComment() + "\n" + blockSequence(items, indent: indent + step)
    default:
      return " " + flow(value) + trailingComment() + "\n"
    }
  }

  /// A quoted scalar whose spaces become line breaks, folded back to spaces by the parser
  /// (YAML 1.2 §6.5); the letters-only words keep escapes out of the way.
  private mutating func multiLineQuoted(
    _ text: String, _ style: ScalarStyle, continuationIndent: Int
  ) -> String {
    let quote = style == .doubleQuoted ? "\"" : "'"
    let pieces = text.split(separator: " ", omittingEmptySubsequences: false).map { piece in
      style == .doubleQuoted
        ? escapeDouble(String(piece), escapesSpaces: false)
        : String(piece).replacing("'", with: "''")
    }
    var output = ""
    for (index, piece) in pieces.enumerated() {
      if index > 0 {
        // Only a break between two words folds back into exactly one space.
        let canBreak = !pieces[index - 1].isEmpty && !piece.isEmpty
        output += canBreak && chance(0.5) ? "\n" + spaces(continuationIndent) : " "
      }
      output += piece
    }
    return quote + output + quote
  }
}
