// SPDX-License-Identifier: MIT

/// Remembers the keys of one mapping so a repeated key is reported with its first definition.
///
/// Most mappings hold a handful of keys, for which a linear scan beats hashing; a dictionary
/// takes over past `linearLimit` keys so a 1,000-preset mapping stays linear overall.
struct DuplicateKeyDetector {
  private static let linearLimit = 12
  private var keys: [String] = []
  private var firstIndexByKey: [String: Int]?

  /// Returns the index of an earlier key equal to `key`, or records `key` as the next one.
  mutating func earlierIndex(of key: String) -> Int? {
    if var index = firstIndexByKey {
      if let earlier = index[key] { return earlier }
      firstIndexByKey = nil  // keep the dictionary uniquely referenced while it grows
      index[key] = keys.count
      keys.append(key)
      firstIndexByKey = index
      return nil
    }
    if let earlier = keys.firstIndex(of: key) { return earlier }
    keys.append(key)
    if keys.count > Self.linearLimit {
      firstIndexByKey = Dictionary(
        keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
    return nil
  }
}

/// Block structure: the document, block mappings and block sequences (YAML 1.2 §8.2, §9).
extension SubsetParser {
  /// Parses the single document of the stream and checks that nothing follows it.
  mutating func parseDocument() -> ConfigNode? {
    var lineIndex = 0
    var explicitStart: Int?
    // The prologue: comments, directives (rejected) and one optional '---' (YAML 1.2 §9.1).
    while let index = nextContentLine(from: lineIndex) {
      let line = lines[index]
      if line.kind == .documentStart {
        if explicitStart != nil { break }
        explicitStart = index
        checkRestOfMarkerLine(index)
        lineIndex = index + 1
        continue
      }
      if line.kind == .content, line.indent == 0, bytes[line.contentStart] == Byte.percent {
        error(
          "directives ('%YAML', '%TAG') are not supported", line: index, offset: line.start,
          length: scalarCount(from: line.start, to: line.end),
          hint: "remove this line; the file is always read as YAML 1.2")
        lineIndex = index + 1
        continue
      }
      break
    }
    // YAML 1.2 §9.1.4: an explicit document with no content holds an empty (null) scalar.
    var root: ConfigNode? = explicitStart.map {
      .scalar(emptyScalar(line: $0, offset: lines[$0].start + 3))
    }
    nextLine = lineIndex
    var rootFailed = false
    if let first = nextContentLine(from: lineIndex), lines[first].kind == .content {
      do {
        root = try parseBlockNode(
          line: first, offset: lines[first].contentStart, parentIndent: -1,
          allowsBlockCollection: true)
      } catch {
        nextLine = max(error.resumeLine, first + 1)
        rootFailed = true
      }
    }
    // After the root: only an end marker, comments and blank lines may follow.
    var reportedLeftover = rootFailed
    while let index = nextContentLine(from: nextLine) {
      switch lines[index].kind {
      case .documentStart:
        reportSecondDocument(at: index)
        return root
      case .documentEnd:
        if root == nil && !rootFailed {
          // YAML 1.2 reads this as an empty stream, but PyYAML and others reject it; refusing
          // it keeps every accepted file readable by every tool.
          error(
            "'...' ends a document that never started", line: index,
            offset: lines[index].start, length: 3, hint: "remove this line")
          return root
        }
        checkRestOfMarkerLine(index)
        if let extra = nextContentLine(from: index + 1) {
          reportSecondDocument(at: extra)
        }
        return root
      default:
        if !reportedLeftover {
          reportLeftover(line: index, root: root)
          reportedLeftover = true
        }
        // Keep parsing what is left, only to report the errors it holds.
        do {
          _ = try parseBlockNode(
            line: index, offset: lines[index].contentStart, parentIndent: -1,
            allowsBlockCollection: true)
        } catch {
          nextLine = error.resumeLine
        }
        nextLine = max(nextLine, index + 1)
      }
    }
    return root
  }

  private mutating func checkRestOfMarkerLine(_ index: Int) {
    let line = lines[index]
    let rest = skipSpaces(line: index, from: line.start + 3)
    if rest < line.end, bytes[rest] != Byte.hash {
      let marker = line.kind == .documentStart ? "---" : "..."
      error(
        "content on the '\(marker)' line is not supported", line: index, offset: rest,
        length: scalarCount(from: rest, to: line.end),
        hint: "put the content on the next line")
    }
  }

  private mutating func reportSecondDocument(at index: Int) {
    let line = lines[index]
    error(
      "several documents in one file are not supported", line: index, offset: line.contentStart,
      length: line.kind == .content ? 1 : 3,
      hint: "keep one configuration per file; remove the extra '---' or '...' and what follows")
  }

  private mutating func reportLeftover(line index: Int, root: ConfigNode?) {
    let line = lines[index]
    switch root {
    case .mapping(let mapping) where mapping.style == .block:
      reportIndentation(line: index, expected: [mapping.range.start.column - 1])
    case .sequence(let sequence) where sequence.style == .block:
      let indent = sequence.range.start.column - 1
      if line.indent == indent {
        error(
          "expected a '- ' item: the document is a list", line: index, offset: line.contentStart,
          hint: "start the line with '- '")
      } else {
        reportIndentation(line: index, expected: [indent])
      }
    case .scalar(let scalar) where scalar.style == .plain && !scalar.text.isEmpty:
      reportPlainContinuation(line: index)
    default:
      error(
        "unexpected content after the document's value", line: index, offset: line.contentStart,
        hint: "a file holds one value; put this line under a key")
    }
  }

  // MARK: Nodes

  /// Parses the block node whose first character is at `start` on line `lineIndex`.
  ///
  /// `parentIndent` is the indentation of the collection holding the node (-1 at the top): the
  /// node's continuation lines must be indented deeper. A node on the same line as its key may
  /// not open a block collection (`key: - a` or `a: b: c` are errors), one after `- ` may.
  mutating func parseBlockNode(
    line lineIndex: Int, offset start: Int, parentIndent: Int, allowsBlockCollection: Bool
  ) throws(ParseAbort) -> ConfigNode {
    let line = lines[lineIndex]
    let offset = try skipProperties(line: lineIndex, offset: start)
    let byte = bytes[offset]
    // Only spaces and '- ' precede a block node, so byte and character columns agree here.
    let column = offset - line.start
    switch byte {
    case Byte.dash where isBlank(offset + 1, lineEnd: line.end):
      guard allowsBlockCollection else {
        error(
          "a block sequence cannot start on the same line as its key", line: lineIndex,
          offset: offset, hint: "start the '- ' items on the next line, indented under the key")
        throw ParseAbort(resumeLine: lineIndex + 1)
      }
      return .sequence(try parseBlockSequence(line: lineIndex, indent: column))

    case Byte.openBracket, Byte.openBrace:
      var cursor = FlowCursor(line: lineIndex, offset: offset)
      let node = try parseFlowCollection(&cursor, minimumIndent: parentIndent + 1, depth: 1)
      try expectEndOfLine(
        cursor.line, from: cursor.offset,
        after: byte == Byte.openBracket ? "']'" : "'}'",
        colonMessage: "a flow collection cannot be used as a mapping key")
      nextLine = cursor.line + 1
      return node

    case Byte.doubleQuote, Byte.singleQuote:
      let quoted = try scanQuotedScalar(
        line: lineIndex, offset: offset, minimumIndent: parentIndent + 1, allowsLineBreaks: true)
      let after = skipSpaces(line: quoted.endLine, from: quoted.endOffset)
      if isMappingColon(line: quoted.endLine, offset: after) {
        if quoted.endLine != lineIndex {
          error(
            "a key must fit on one line", line: lineIndex, offset: offset,
            hint: "join the key's lines")
          throw ParseAbort(resumeLine: quoted.endLine + 1)
        }
        guard allowsBlockCollection else {
          reportColonInValue(line: lineIndex, offset: after)
          throw ParseAbort(resumeLine: lineIndex + 1)
        }
        return .mapping(try parseBlockMapping(line: lineIndex, firstKey: offset, indent: column))
      }
      try expectEndOfLine(
        quoted.endLine, from: quoted.endOffset, after: "the quoted value",
        colonMessage: "unexpected ':' after the quoted value")
      nextLine = quoted.endLine + 1
      return .scalar(quoted.scalar)

    default:
      try checkPlainStart(line: lineIndex, offset: offset, inFlow: false)
      let plain = scanBlockPlain(line: lineIndex, from: offset)
      if let colon = plain.colon {
        guard allowsBlockCollection else {
          reportColonInValue(line: lineIndex, offset: colon)
          throw ParseAbort(resumeLine: lineIndex + 1)
        }
        return .mapping(try parseBlockMapping(line: lineIndex, firstKey: offset, indent: column))
      }
      nextLine = lineIndex + 1
      return .scalar(plainScalar(line: lineIndex, from: offset, to: plain.end))
    }
  }

  /// Parses a block mapping whose entries start at column `indent` (YAML 1.2 §8.2.2); the first
  /// key is at `firstKey` on line `firstLine`.
  mutating func parseBlockMapping(line firstLine: Int, firstKey: Int, indent: Int)
    throws(ParseAbort) -> ConfigMapping
  {
    try enterBlock(line: firstLine, offset: firstKey)
    defer { blockDepth -= 1 }
    let problemsBefore = problemCount
    var entries: [MappingEntry] = []
    var keys = DuplicateKeyDetector()
    var lineIndex = firstLine
    var keyOffset = firstKey
    while true {
      var lastValue: ConfigNode?
      do {
        let (key, afterColon) = try scanBlockKey(line: lineIndex, offset: keyOffset)
        let value = try parseMappingValue(line: lineIndex, offset: afterColon, indent: indent)
        if let earlier = keys.earlierIndex(of: key.text) {
          reportDuplicate(key, first: entries[earlier].key)
        }
        entries.append(MappingEntry(key: key, value: value))
        lastValue = value
      } catch {
        skipLines(deeperThan: indent, from: max(error.resumeLine, lineIndex + 1))
      }
      guard let next = nextEntryLine(indent: indent, after: lastValue, isSequence: false) else {
        break
      }
      lineIndex = next
      keyOffset = lines[next].contentStart
    }
    let start = entries.first?.key.range.start ?? location(line: firstLine, offset: firstKey)
    let end = entries.last?.value.range.end ?? start
    return ConfigMapping(
      entries: entries, style: .block, range: SourceRange(start: start, end: end),
      isIncomplete: problemCount > problemsBefore)
  }

  /// Parses a block sequence whose `-` indicators sit at column `indent` (YAML 1.2 §8.2.1).
  mutating func parseBlockSequence(line firstLine: Int, indent: Int) throws(ParseAbort)
    -> ConfigSequence
  {
    let firstDash = lines[firstLine].start + indent
    try enterBlock(line: firstLine, offset: firstDash)
    defer { blockDepth -= 1 }
    let problemsBefore = problemCount
    var items: [ConfigNode] = []
    var lineIndex = firstLine
    while true {
      var lastValue: ConfigNode?
      do {
        let line = lines[lineIndex]
        let dash = line.start + indent
        let afterDash = skipSpaces(line: lineIndex, from: dash + 1)
        let item: ConfigNode
        if afterDash == line.end || bytes[afterDash] == Byte.hash {
          item = try parseValueOnNextLines(
            after: lineIndex, indent: indent, emptyAt: dash + 1, allowsIndentlessSequence: false)
        } else {
          item = try parseBlockNode(
            line: lineIndex, offset: afterDash, parentIndent: indent, allowsBlockCollection: true)
        }
        items.append(item)
        lastValue = item
      } catch {
        skipLines(deeperThan: indent, from: max(error.resumeLine, lineIndex + 1))
      }
      guard let next = nextEntryLine(indent: indent, after: lastValue, isSequence: true) else {
        break
      }
      lineIndex = next
    }
    let start = location(line: firstLine, offset: firstDash)
    let end = items.last?.range.end ?? start
    return ConfigSequence(
      items: items, style: .block, range: SourceRange(start: start, end: end),
      isIncomplete: problemCount > problemsBefore)
  }

  /// The value of `key:` (after the colon at `offset`): on the same line, or on the next lines.
  private mutating func parseMappingValue(line lineIndex: Int, offset: Int, indent: Int)
    throws(ParseAbort) -> ConfigNode
  {
    let valueStart = skipSpaces(line: lineIndex, from: offset)
    if valueStart == lines[lineIndex].end || bytes[valueStart] == Byte.hash {
      return try parseValueOnNextLines(
        after: lineIndex, indent: indent, emptyAt: offset, allowsIndentlessSequence: true)
    }
    return try parseBlockNode(
      line: lineIndex, offset: valueStart, parentIndent: indent, allowsBlockCollection: false)
  }

  /// A value that starts below its key or `-`: a node indented deeper than `indent`, a sequence
  /// at the key's own indentation (YAML 1.2 §8.2.1 lets `key:` be followed by `- ` items at the
  /// same column), or nothing, which is an empty scalar placed at `emptyAt`.
  private mutating func parseValueOnNextLines(
    after lineIndex: Int, indent: Int, emptyAt offset: Int, allowsIndentlessSequence: Bool
  ) throws(ParseAbort) -> ConfigNode {
    nextLine = lineIndex + 1
    if let next = nextContentLine(from: lineIndex + 1), lines[next].kind == .content {
      let line = lines[next]
      if line.indent > indent {
        return try parseBlockNode(
          line: next, offset: line.contentStart, parentIndent: indent,
          allowsBlockCollection: true)
      }
      if allowsIndentlessSequence, line.indent == indent, isSequenceEntry(next) {
        return .sequence(try parseBlockSequence(line: next, indent: indent))
      }
    }
    return .scalar(emptyScalar(line: lineIndex, offset: offset))
  }

  /// Finds the line holding the next entry of a collection at `indent`, reporting and skipping
  /// lines indented deeper that belong to nothing. Returns nil when the collection ends.
  private mutating func nextEntryLine(indent: Int, after lastValue: ConfigNode?, isSequence: Bool)
    -> Int?
  {
    while let index = nextContentLine(from: nextLine) {
      let line = lines[index]
      if line.kind != .content || line.indent < indent { return nil }
      if line.indent == indent {
        return !isSequence || isSequenceEntry(index) ? index : nil
      }
      if let lastValue {
        reportUnexpectedIndentation(line: index, indent: indent, lastValue: lastValue)
      }
      skipLines(deeperThan: indent, from: index)
    }
    return nil
  }

  private mutating func enterBlock(line lineIndex: Int, offset: Int) throws(ParseAbort) {
    guard blockDepth < Self.maximumBlockDepth else {
      error(
        "collections are nested too deeply (more than \(Self.maximumBlockDepth) levels)",
        line: lineIndex, offset: offset)
      throw ParseAbort(resumeLine: lineIndex + 1)
    }
    blockDepth += 1
  }

  // MARK: Keys and scalars

  /// Scans `key:` at `start`; returns the key and the offset just past the colon. Implicit keys
  /// are single-line plain or quoted scalars of at most 1024 characters (YAML 1.2 §7.4.3).
  private mutating func scanBlockKey(line lineIndex: Int, offset start: Int) throws(ParseAbort)
    -> (Scalar, Int)
  {
    let line = lines[lineIndex]
    let offset = try skipProperties(line: lineIndex, offset: start)
    let byte = bytes[offset]
    let key: Scalar
    let colon: Int
    if byte == Byte.doubleQuote || byte == Byte.singleQuote {
      let quoted = try scanQuotedScalar(
        line: lineIndex, offset: offset, minimumIndent: 0, allowsLineBreaks: false)
      let after = skipSpaces(line: lineIndex, from: quoted.endOffset)
      guard isMappingColon(line: lineIndex, offset: after) else {
        error(
          "expected ':' after the key", line: lineIndex, offset: min(after, line.end),
          hint: "write 'key: value'")
        throw ParseAbort(resumeLine: lineIndex + 1)
      }
      key = quoted.scalar
      colon = after
    } else {
      if byte == Byte.openBracket || byte == Byte.openBrace {
        error(
          "expected a 'key: value' entry, found a flow collection", line: lineIndex,
          offset: offset, hint: "keys must be plain or quoted text")
        throw ParseAbort(resumeLine: lineIndex + 1)
      }
      try checkPlainStart(line: lineIndex, offset: offset, inFlow: false)
      let plain = scanBlockPlain(line: lineIndex, from: offset)
      guard let plainColon = plain.colon else {
        error(
          "expected a 'key: value' entry, found '\(excerpt(line: lineIndex, from: offset))'",
          line: lineIndex, offset: offset, length: scalarCount(from: offset, to: plain.end),
          hint: "add ': ' after the key, or align this line with the lines it belongs to")
        throw ParseAbort(resumeLine: lineIndex + 1)
      }
      key = plainScalar(line: lineIndex, from: offset, to: plain.end)
      colon = plainColon
    }
    if scalarCount(from: offset, to: colon) > Self.maximumKeyLength {
      error(
        "a key cannot be longer than \(Self.maximumKeyLength) characters", line: lineIndex,
        offset: offset)
      throw ParseAbort(resumeLine: lineIndex + 1)
    }
    return (key, colon + 1)
  }

  /// Scans a plain scalar in block context (YAML 1.2 §7.3.3) up to the end of the line, a
  /// comment (` #`) or a `: ` value indicator. Returns the end of its text (trailing spaces
  /// excluded) and the colon's offset when one stopped it.
  mutating func scanBlockPlain(line lineIndex: Int, from offset: Int) -> (end: Int, colon: Int?) {
    let lineEnd = lines[lineIndex].end
    var index = offset
    var end = offset
    while index < lineEnd {
      let byte = bytes[index]
      if byte == Byte.colon {
        if isBlank(index + 1, lineEnd: lineEnd) { return (end, index) }
      } else if byte == Byte.space || byte == Byte.tab {
        let next = skipSpaces(line: lineIndex, from: index)
        if next == lineEnd || bytes[next] == Byte.hash { return (end, nil) }
        index = next
        continue
      }
      index += 1
      end = index
    }
    return (end, nil)
  }

  /// Rejects, by name, the characters that cannot start a plain scalar (YAML 1.2 §7.3.3: the
  /// indicators), which in YAML would mean a feature this subset does not support.
  mutating func checkPlainStart(line lineIndex: Int, offset: Int, inFlow: Bool) throws(ParseAbort) {
    let line = lines[lineIndex]
    let byte = bytes[offset]
    let followedByBlank = isBlank(offset + 1, lineEnd: line.end)
    let character = String(UnicodeScalar(byte))
    var length = 1
    let message: String
    var hint: String?
    switch byte {
    case Byte.dash where followedByBlank:
      message =
        inFlow
        ? "'- ' list items are not allowed inside a flow collection" : "unexpected '- ' list item"
      hint =
        inFlow ? "separate items with ','" : "a list must be the value of a key, indented under it"
    case Byte.question:
      message =
        followedByBlank
        ? "complex keys ('? ') are not supported" : "a plain value cannot start with '?'"
      hint = followedByBlank ? "write the key as 'key: value'" : "quote the value"
    case Byte.colon:
      message = followedByBlank ? "missing key before ':'" : "a plain value cannot start with ':'"
      hint = followedByBlank ? "write 'key: value'" : "quote the value"
    case Byte.comma, Byte.closeBracket, Byte.closeBrace:
      message = "unexpected '\(character)'"
      hint = inFlow ? nil : "quote the value if the '\(character)' is part of the text"
    case Byte.asterisk:
      message = "aliases ('*name') are not supported"
      hint = "repeat the value instead"
      length = tokenLength(line: lineIndex, from: offset)
    case Byte.ampersand:
      message = "anchors ('&name') are not supported"
      hint = "repeat the value instead of anchoring it"
      length = tokenLength(line: lineIndex, from: offset)
    case Byte.exclamation:
      message = "tags ('!tag') are not supported"
      hint = "remove the tag; the configuration schema decides each value's type"
      length = tokenLength(line: lineIndex, from: offset)
    case Byte.pipe, Byte.greaterThan:
      message = "block scalars ('|' and '>') are not supported"
      hint = "write the text as a double-quoted string, with '\\n' for line breaks"
    case Byte.percent:
      message =
        offset == line.start
        ? "directives ('%YAML', '%TAG') are not supported" : "a plain value cannot start with '%'"
      hint = offset == line.start ? "remove this line" : "quote the value"
    case Byte.at, Byte.backtick:
      message = "'\(character)' is reserved in YAML and cannot start a plain value"
      hint = "quote the value"
    case Byte.hash:
      message = "a comment needs a space before '#'"
      hint = "add a space before '#', or quote the value"
    case Byte.tab:
      message = "tabs are not allowed outside quotes"
      hint = "use spaces"
    default:
      return
    }
    error(message, line: lineIndex, offset: offset, length: length, hint: hint)
    throw ParseAbort(resumeLine: lineIndex + 1)
  }

  /// Reports anchors (`&a`) and tags (`!t`) in front of a node and skips them, so the node itself
  /// is still checked (YAML 1.2 §6.9 node properties; not supported here).
  mutating func skipProperties(line lineIndex: Int, offset start: Int) throws(ParseAbort) -> Int {
    let lineEnd = lines[lineIndex].end
    var offset = start
    while offset < lineEnd, bytes[offset] == Byte.ampersand || bytes[offset] == Byte.exclamation {
      try? checkPlainStart(line: lineIndex, offset: offset, inFlow: false)
      offset = skipSpaces(line: lineIndex, from: offset + tokenBytes(line: lineIndex, from: offset))
    }
    if offset == lineEnd || bytes[offset] == Byte.hash {
      throw ParseAbort(resumeLine: lineIndex + 1)
    }
    return offset
  }

  // MARK: Helpers

  /// Skips spaces from `offset`; a tab there is reported (YAML 1.2 allows some, PyYAML and most
  /// editors' YAML modes do not, and they are invisible) and skipped too.
  mutating func skipSpaces(line lineIndex: Int, from offset: Int) -> Int {
    let lineEnd = lines[lineIndex].end
    var index = offset
    var reportedTab = false
    while index < lineEnd {
      let byte = bytes[index]
      if byte == Byte.tab {
        // One report for a run of them: each costs a column count along the line.
        if !reportedTab {
          error(
            "tabs are not allowed outside quotes", line: lineIndex, offset: index,
            hint: "use spaces")
        }
        reportedTab = true
      } else if byte != Byte.space {
        break
      }
      index += 1
    }
    return index
  }

  /// True when a `:` followed by a blank sits at `offset`: a block mapping value indicator.
  func isMappingColon(line lineIndex: Int, offset: Int) -> Bool {
    let lineEnd = lines[lineIndex].end
    return offset < lineEnd && bytes[offset] == Byte.colon && isBlank(offset + 1, lineEnd: lineEnd)
  }

  /// Checks that only spaces and a comment follow `offset` on line `lineIndex`.
  mutating func expectEndOfLine(
    _ lineIndex: Int, from offset: Int, after what: String, colonMessage: String
  ) throws(ParseAbort) {
    let line = lines[lineIndex]
    let rest = skipSpaces(line: lineIndex, from: offset)
    if rest == line.end { return }
    if bytes[rest] == Byte.hash {
      if rest > offset { return }
      error(
        "a comment needs a space before '#'", line: lineIndex, offset: rest,
        hint: "add a space before '#'")
    } else if isMappingColon(line: lineIndex, offset: rest) {
      error(colonMessage, line: lineIndex, offset: rest, hint: "keys must be plain or quoted text")
    } else {
      error(
        "unexpected content after \(what): '\(excerpt(line: lineIndex, from: rest))'",
        line: lineIndex, offset: rest, length: scalarCount(from: rest, to: line.end),
        hint: "quote the whole value, or put a ',' or a line break between values")
    }
    throw ParseAbort(resumeLine: lineIndex + 1)
  }

  /// The bytes of a token (an anchor, tag or alias name) up to the next blank.
  private func tokenBytes(line lineIndex: Int, from offset: Int) -> Int {
    let lineEnd = lines[lineIndex].end
    var end = offset + 1
    while end < lineEnd, !isBlank(end, lineEnd: lineEnd) { end += 1 }
    return end - offset
  }

  private func tokenLength(line lineIndex: Int, from offset: Int) -> Int {
    scalarCount(from: offset, to: offset + tokenBytes(line: lineIndex, from: offset))
  }

  func plainScalar(line lineIndex: Int, from start: Int, to end: Int) -> Scalar {
    Scalar(
      text: String(decoding: bytes[start..<end], as: UTF8.self), style: .plain,
      range: range(fromLine: lineIndex, start, toLine: lineIndex, end))
  }

  func emptyScalar(line lineIndex: Int, offset: Int) -> Scalar {
    Scalar(
      text: "", style: .plain, range: SourceRange(at: location(line: lineIndex, offset: offset)))
  }

  // MARK: Reports

  private mutating func reportDuplicate(_ key: Scalar, first: Scalar) {
    record(
      .error(
        "duplicate key '\(key.text)' in mapping", at: key.range,
        hint: "remove or rename one of them; keys must be unique",
        notes: [.note("'\(key.text)' first defined here", at: first.range)]))
  }

  private mutating func reportColonInValue(line lineIndex: Int, offset: Int) {
    error(
      "unexpected ':' in a value; a nested mapping must start on its own line", line: lineIndex,
      offset: offset, hint: "quote the value if the ':' is part of the text")
  }

  private mutating func reportPlainContinuation(line lineIndex: Int) {
    let line = lines[lineIndex]
    error(
      "a plain value cannot continue on the next line", line: lineIndex, offset: line.contentStart,
      length: scalarCount(from: line.contentStart, to: line.end),
      hint: "put the whole value on one line, or quote it")
  }

  private mutating func reportIndentation(line lineIndex: Int, expected: [Int]) {
    let line = lines[lineIndex]
    let expectedText = expected.map(String.init).joined(separator: " or ")
    error(
      "inconsistent indentation: found \(spaces(line.indent)), expected \(expectedText)",
      line: lineIndex, offset: line.contentStart,
      hint: "align this line with the lines it belongs to")
  }

  /// Explains a line indented deeper than the entries of its collection, using what the last
  /// entry's value was to guess what the author meant.
  private mutating func reportUnexpectedIndentation(
    line lineIndex: Int, indent: Int, lastValue: ConfigNode
  ) {
    let line = lines[lineIndex]
    switch lastValue {
    case .scalar(let scalar)
    where scalar.style == .plain && !scalar.text.isEmpty
      && scalar.range.start.line == scalar.range.end.line:
      reportPlainContinuation(line: lineIndex)
    case .mapping(let mapping) where mapping.style == .block:
      reportIndentation(line: lineIndex, expected: [indent, mapping.range.start.column - 1])
    case .sequence(let sequence) where sequence.style == .block:
      let itemIndent = sequence.range.start.column - 1
      if line.indent == itemIndent {
        error(
          "this line is indented like the '- ' items above but is not one", line: lineIndex,
          offset: line.contentStart,
          hint: "start it with '- ', or align it with the keys it belongs to")
      } else {
        reportIndentation(line: lineIndex, expected: [indent, itemIndent])
      }
    default:
      reportIndentation(line: lineIndex, expected: [indent])
    }
  }

  private func spaces(_ count: Int) -> String {
    count == 1 ? "1 space" : "\(count) spaces"
  }
}
