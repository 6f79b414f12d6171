// SPDX-License-Identifier: MIT

/// A position inside a flow collection, which may span lines.
struct FlowCursor {
  var line: Int
  var offset: Int
}

/// Flow collections: `[a, b]` and `{a: 1, b: 2}` (YAML 1.2 §7.4), nested or not.
extension SubsetParser {
  /// Parses the flow collection whose opening bracket is at `cursor`, leaving the cursor just
  /// past its closing bracket. Lines it continues on must be indented at least `minimumIndent`.
  mutating func parseFlowCollection(_ cursor: inout FlowCursor, minimumIndent: Int, depth: Int)
    throws(ParseAbort) -> ConfigNode
  {
    let open = cursor
    let isSequence = bytes[cursor.offset] == Byte.openBracket
    let closer = isSequence ? Byte.closeBracket : Byte.closeBrace
    guard depth <= Self.maximumFlowDepth else {
      error(
        "flow collections are nested too deeply (more than \(Self.maximumFlowDepth) levels)",
        line: cursor.line, offset: cursor.offset)
      throw ParseAbort(resumeLine: cursor.line + 1)
    }
    cursor.offset += 1
    let problemsBefore = problemCount
    var items: [ConfigNode] = []
    var entries: [MappingEntry] = []
    var keys = DuplicateKeyDetector()
    try skipFlowSpace(&cursor, minimumIndent: minimumIndent, open: open)
    while bytes[cursor.offset] != closer {
      let entryLine = cursor.line
      var plainEndedItsLine = false
      if isSequence {
        let (item, endedLine) = try parseFlowNode(
          &cursor, minimumIndent: minimumIndent, depth: depth)
        plainEndedItsLine = endedLine
        try skipFlowSpace(&cursor, minimumIndent: minimumIndent, open: open)
        if bytes[cursor.offset] == Byte.colon {
          error(
            "'key: value' pairs inside '[...]' are not supported", line: cursor.line,
            offset: cursor.offset, hint: "write '{key: value}' for a mapping inside a list")
          throw ParseAbort(resumeLine: cursor.line + 1)
        }
        items.append(item)
      } else {
        let (entry, endedLine) = try parseFlowMappingEntry(
          &cursor, minimumIndent: minimumIndent, depth: depth, open: open)
        plainEndedItsLine = endedLine
        if let earlier = keys.earlierIndex(of: entry.key.text) {
          record(
            .error(
              "duplicate key '\(entry.key.text)' in mapping", at: entry.key.range,
              hint: "remove or rename one of them; keys must be unique",
              notes: [
                .note("'\(entry.key.text)' first defined here", at: entries[earlier].key.range)
              ]
            ))
        }
        entries.append(entry)
        try skipFlowSpace(&cursor, minimumIndent: minimumIndent, open: open)
      }
      let byte = bytes[cursor.offset]
      if byte == Byte.comma {
        cursor.offset += 1
        try skipFlowSpace(&cursor, minimumIndent: minimumIndent, open: open)
        if bytes[cursor.offset] == Byte.comma {
          error(
            "unexpected ','; an entry is missing", line: cursor.line, offset: cursor.offset,
            hint: "remove the extra ','")
          throw ParseAbort(resumeLine: cursor.line + 1)
        }
        // A ',' before the closing bracket is allowed (YAML 1.2 §7.4.1, §7.4.2).
        continue
      }
      if byte == closer { break }
      reportMissingSeparator(
        at: cursor, isSequence: isSequence, open: open,
        plainContinues: plainEndedItsLine && cursor.line > entryLine)
      throw ParseAbort(resumeLine: cursor.line + 1)
    }
    cursor.offset += 1
    let range = range(fromLine: open.line, open.offset, toLine: cursor.line, cursor.offset)
    let isIncomplete = problemCount > problemsBefore
    if isSequence {
      return .sequence(
        ConfigSequence(items: items, style: .flow, range: range, isIncomplete: isIncomplete))
    }
    return .mapping(
      ConfigMapping(entries: entries, style: .flow, range: range, isIncomplete: isIncomplete))
  }

  /// One `key: value` entry of a flow mapping; the value may be absent (`{a: }`).
  private mutating func parseFlowMappingEntry(
    _ cursor: inout FlowCursor, minimumIndent: Int, depth: Int, open: FlowCursor
  ) throws(ParseAbort) -> (MappingEntry, Bool) {
    cursor.offset = try skipProperties(line: cursor.line, offset: cursor.offset)
    let byte = bytes[cursor.offset]
    let key: Scalar
    var keyCanTouchColon = false
    switch byte {
    case Byte.openBracket, Byte.openBrace:
      error(
        "a flow collection cannot be used as a mapping key", line: cursor.line,
        offset: cursor.offset, hint: "keys must be plain or quoted text")
      throw ParseAbort(resumeLine: cursor.line + 1)
    case Byte.doubleQuote, Byte.singleQuote:
      let quoted = try scanQuotedScalar(
        line: cursor.line, offset: cursor.offset, minimumIndent: minimumIndent,
        allowsLineBreaks: false)
      key = quoted.scalar
      cursor.offset = quoted.endOffset
      // After a quoted key, ':' needs no space (YAML 1.2 §7.4.2, JSON-like keys).
      keyCanTouchColon = true
    default:
      try checkPlainStart(line: cursor.line, offset: cursor.offset, inFlow: true)
      key = try scanFlowPlain(&cursor).scalar
    }
    let colon = skipSpaces(line: cursor.line, from: cursor.offset)
    let lineEnd = lines[cursor.line].end
    let colonIsIndicator =
      colon < lineEnd && bytes[colon] == Byte.colon
      && (keyCanTouchColon || colon + 1 == lineEnd || isBlank(colon + 1, lineEnd: lineEnd)
        || isFlowIndicator(bytes[colon + 1]))
    guard colonIsIndicator else {
      error(
        "expected ':' after the key '\(key.text)' in '{...}'", line: cursor.line,
        offset: min(colon, lineEnd), hint: "write '\(key.text): value' on one line")
      throw ParseAbort(resumeLine: cursor.line + 1)
    }
    cursor.offset = colon + 1
    let colonLine = cursor.line
    try skipFlowSpace(&cursor, minimumIndent: minimumIndent, open: open)
    let next = bytes[cursor.offset]
    if next == Byte.comma || next == Byte.closeBrace {
      let empty = emptyScalar(line: colonLine, offset: colon + 1)
      return (MappingEntry(key: key, value: .scalar(empty)), false)
    }
    let (value, endedLine) = try parseFlowNode(&cursor, minimumIndent: minimumIndent, depth: depth)
    return (MappingEntry(key: key, value: value), endedLine)
  }

  /// One node inside a flow collection. The flag tells whether it was a plain scalar that ran to
  /// the end of its line, which makes a following word a (rejected) multi-line plain scalar.
  private mutating func parseFlowNode(_ cursor: inout FlowCursor, minimumIndent: Int, depth: Int)
    throws(ParseAbort) -> (ConfigNode, Bool)
  {
    cursor.offset = try skipProperties(line: cursor.line, offset: cursor.offset)
    switch bytes[cursor.offset] {
    case Byte.openBracket, Byte.openBrace:
      let node = try parseFlowCollection(&cursor, minimumIndent: minimumIndent, depth: depth + 1)
      return (node, false)
    case Byte.doubleQuote, Byte.singleQuote:
      let quoted = try scanQuotedScalar(
        line: cursor.line, offset: cursor.offset, minimumIndent: minimumIndent,
        allowsLineBreaks: true)
      cursor = FlowCursor(line: quoted.endLine, offset: quoted.endOffset)
      return (.scalar(quoted.scalar), false)
    default:
      try checkPlainStart(line: cursor.line, offset: cursor.offset, inFlow: true)
      let plain = try scanFlowPlain(&cursor)
      return (.scalar(plain.scalar), plain.endedLine)
    }
  }

  /// Scans a plain scalar inside a flow collection (YAML 1.2 §7.3.3, ns-plain-safe-in): it
  /// stops at `,[]{}`, at `:` followed by a blank or one of those, and at a comment.
  private mutating func scanFlowPlain(_ cursor: inout FlowCursor) throws(ParseAbort)
    -> (scalar: Scalar, endedLine: Bool)
  {
    let lineIndex = cursor.line
    let lineEnd = lines[lineIndex].end
    let start = cursor.offset
    var index = start
    var end = start
    var endedLine = false
    scanning: while index < lineEnd {
      let byte = bytes[index]
      switch byte {
      case Byte.comma, Byte.openBracket, Byte.closeBracket, Byte.openBrace, Byte.closeBrace:
        break scanning
      case Byte.colon:
        if index + 1 == lineEnd || isBlank(index + 1, lineEnd: lineEnd)
          || isFlowIndicator(bytes[index + 1])
        {
          break scanning
        }
      case Byte.question:
        // PyYAML ends a plain scalar at '?' inside flow collections; YAML 1.2 does not.
        // Rejecting it keeps both readings the same.
        error(
          "'?' cannot appear in a plain value inside a flow collection", line: lineIndex,
          offset: index, hint: "quote the value")
        throw ParseAbort(resumeLine: lineIndex + 1)
      case Byte.space, Byte.tab:
        let next = skipSpaces(line: lineIndex, from: index)
        if next == lineEnd || bytes[next] == Byte.hash {
          endedLine = true
          break scanning
        }
        index = next
        continue
      default:
        break
      }
      index += 1
      end = index
    }
    if index == lineEnd { endedLine = true }
    cursor.offset = end
    return (plainScalar(line: lineIndex, from: start, to: end), endedLine)
  }

  /// Skips spaces, comments and line breaks inside a flow collection, stopping at the next
  /// token. Fails when the file or the collection's indentation ends before the closing bracket.
  private mutating func skipFlowSpace(
    _ cursor: inout FlowCursor, minimumIndent: Int, open: FlowCursor
  ) throws(ParseAbort) {
    while true {
      let line = lines[cursor.line]
      cursor.offset = skipSpaces(line: cursor.line, from: cursor.offset)
      if cursor.offset < line.end {
        guard bytes[cursor.offset] == Byte.hash else { return }
        let previous = cursor.offset > line.start ? bytes[cursor.offset - 1] : Byte.space
        guard previous == Byte.space || previous == Byte.tab else {
          error(
            "a comment needs a space before '#'", line: cursor.line, offset: cursor.offset,
            hint: "add a space before '#', or quote the value")
          throw ParseAbort(resumeLine: cursor.line + 1)
        }
      }
      // The line ends inside the collection: carry on with the next one.
      let nextIndex = cursor.line + 1
      guard nextIndex < lines.count else {
        reportUnclosed(open, hint: nil)
        throw ParseAbort(resumeLine: lines.count)
      }
      let next = lines[nextIndex]
      if next.kind == .documentStart || next.kind == .documentEnd {
        reportUnclosed(open, hint: nil)
        throw ParseAbort(resumeLine: nextIndex)
      }
      if let tab = next.leadingTab {
        error(
          "tabs are not allowed in indentation", line: nextIndex, offset: tab,
          hint: "indent with spaces")
      } else if next.kind == .content, next.indent < minimumIndent,
        !(next.indent + 1 == minimumIndent && isClosingBracket(bytes[next.contentStart]))
      {
        // YAML 1.2 §7.4: a flow collection's lines are indented deeper than its parent; only
        // the closing bracket may line up with the key, as JSON-style files often do.
        reportUnclosed(open, hint: "its lines must be indented deeper than the enclosing key")
        throw ParseAbort(resumeLine: nextIndex)
      }
      cursor = FlowCursor(line: nextIndex, offset: next.contentStart)
    }
  }

  private mutating func reportUnclosed(_ open: FlowCursor, hint extra: String?) {
    let isSequence = bytes[open.offset] == Byte.openBracket
    let opener = isSequence ? "[" : "{"
    let closer = isSequence ? "]" : "}"
    var hint = "add '\(closer)' after the last entry"
    if let extra { hint += "; " + extra }
    error("unclosed '\(opener)'", line: open.line, offset: open.offset, hint: hint)
  }

  private mutating func reportMissingSeparator(
    at cursor: FlowCursor, isSequence: Bool, open: FlowCursor, plainContinues: Bool
  ) {
    let byte = bytes[cursor.offset]
    let name = isSequence ? "'[...]'" : "'{...}'"
    let closer = isSequence ? "]" : "}"
    if isClosingBracket(byte) {
      let opened = location(line: open.line, offset: open.offset)
      error(
        "mismatched '\(String(UnicodeScalar(byte)))': expected '\(closer)'", line: cursor.line,
        offset: cursor.offset,
        hint: "the \(name) opened at line \(opened.line), column "
          + "\(opened.column) must end with '\(closer)'")
    } else if plainContinues {
      error(
        "a plain value cannot continue on the next line inside a flow collection",
        line: cursor.line, offset: cursor.offset, hint: "quote it, or put it on one line")
    } else {
      error(
        "expected ',' or '\(closer)' in \(name), found '\(excerpt(line: cursor.line, from: cursor.offset))'",
        line: cursor.line, offset: cursor.offset, hint: "separate entries with ', '")
    }
  }

  private func isFlowIndicator(_ byte: UInt8) -> Bool {
    byte == Byte.comma || byte == Byte.openBracket || byte == Byte.closeBracket
      || byte == Byte.openBrace || byte == Byte.closeBrace
  }

  private func isClosingBracket(_ byte: UInt8) -> Bool {
    byte == Byte.closeBracket || byte == Byte.closeBrace
  }
}
