// SPDX-License-Identifier: MIT
// RFC 4180 records with the place of every field, so a heat sheet's problems point at the
// character a spreadsheet user can find: lines and columns as DiagnosticRenderer counts them
// (a line ends at LF, CR LF or a lone CR; columns are Unicode scalars; a byte order mark at the
// start is not part of the first line).

import ConfigFormat

/// One field of a record: its text (quotes removed, `""` made `"`) and where it starts.
struct CSVField: Sendable, Hashable {
  var value: String
  /// The first character of the field (its opening quote when quoted).
  var line: Int
  var column: Int
  /// How many columns the field takes on its first line, at least 1.
  var width: Int

  func range(file: String) -> SourceRange {
    let start = SourceLocation(file: file, line: line, column: column)
    return SourceRange(
      start: start, end: SourceLocation(file: file, line: line, column: column + max(1, width)))
  }
}

/// One record: its fields and the line it starts on.
struct CSVRecord: Sendable, Hashable {
  var fields: [CSVField]
  var line: Int

  /// A record whose fields are all empty or spaces: a blank line, or `,,,` from a spreadsheet's
  /// empty row.
  var isBlank: Bool { fields.allSatisfy { TextScan.trimmed($0.value).isEmpty } }
}

/// What went wrong in the structure of the text itself (not in a value).
struct CSVStructureProblem: Sendable, Hashable {
  var message: String
  var hint: String
  var line: Int
  var column: Int
}

/// Splits CSV text into records.
///
/// Lenient where spreadsheets are sloppy and strict where the meaning would be lost: a quote in
/// the middle of an unquoted field is kept as a character; text after a closing quote and a
/// quote never closed are problems. Reading stops after `maximumRecords` records that are not
/// blank, so a huge file costs no more than the limit it breaks.
struct CSVReader {
  let separator: Unicode.Scalar

  /// `;` when the first line that is not blank has semicolons and no commas (spreadsheets in
  /// countries that write decimal commas), otherwise `,`.
  static func separator(of scalars: [Unicode.Scalar]) -> Unicode.Scalar {
    var index = 0
    while index < scalars.count, scalars[index] == "\n" || scalars[index] == "\r" { index += 1 }
    var quoted = false
    var commas = 0
    var semicolons = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\"" {
        quoted.toggle()
      } else if !quoted {
        if scalar == "\n" || scalar == "\r" { break }
        if scalar == "," { commas += 1 }
        if scalar == ";" { semicolons += 1 }
      }
      index += 1
    }
    return semicolons > 0 && commas == 0 ? ";" : ","
  }

  /// The records of `scalars` (a leading byte order mark already removed), blank ones included,
  /// at most `maximumRecords` that are not blank plus one (so the caller sees the limit was
  /// passed), and the structural problems found.
  func records(of scalars: [Unicode.Scalar], maximumRecords: Int) -> (
    records: [CSVRecord], problems: [CSVStructureProblem]
  ) {
    var records: [CSVRecord] = []
    var problems: [CSVStructureProblem] = []
    var nonBlank = 0
    var index = 0
    var line = 1
    var column = 1
    var fields: [CSVField] = []
    var recordLine = 1

    /// Moves past a line break at `index` (LF, CR LF or CR), if there is one; true when it did.
    func skipLineBreak() -> Bool {
      guard index < scalars.count else { return false }
      if scalars[index] == "\r" {
        index += 1
        if index < scalars.count, scalars[index] == "\n" { index += 1 }
      } else if scalars[index] == "\n" {
        index += 1
      } else {
        return false
      }
      line += 1
      column = 1
      return true
    }

    var unclosedQuote = false
    while index < scalars.count {
      let startLine = line
      let startColumn = column
      var value = String.UnicodeScalarView()
      var width = 0
      if index < scalars.count, scalars[index] == "\"" {
        // A quoted field: up to the quote that is not doubled.
        index += 1
        column += 1
        width = 1
        var closed = false
        while index < scalars.count {
          let scalar = scalars[index]
          if scalar == "\"" {
            if index + 1 < scalars.count, scalars[index + 1] == "\"" {
              value.append("\"")
              index += 2
              column += 2
              if line == startLine { width += 2 }
              continue
            }
            index += 1
            column += 1
            if line == startLine { width += 1 }
            closed = true
            break
          }
          if scalar == "\n" || scalar == "\r" {
            value.append(scalar)
            if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" {
              value.append("\n")
              index += 1
            }
            index += 1
            line += 1
            column = 1
            continue
          }
          value.append(scalar)
          index += 1
          column += 1
          if line == startLine { width += 1 }
        }
        if !closed {
          unclosedQuote = true
          problems.append(
            CSVStructureProblem(
              message: "this quoted field is not closed",
              hint:
                "a field that starts with '\"' ends with '\"'; a quote inside it is written '\"\"'",
              line: startLine, column: startColumn))
        } else if index < scalars.count, scalars[index] != separator, scalars[index] != "\n",
          scalars[index] != "\r"
        {
          problems.append(
            CSVStructureProblem(
              message: "unexpected text after the closing quote of a field",
              hint: "quote the whole field, and write a quote inside it as '\"\"'",
              line: line, column: column))
          // Skip to the end of the field, so one mistake is one problem.
          while index < scalars.count, scalars[index] != separator, scalars[index] != "\n",
            scalars[index] != "\r"
          {
            index += 1
            column += 1
          }
        }
      } else {
        while index < scalars.count, scalars[index] != separator, scalars[index] != "\n",
          scalars[index] != "\r"
        {
          value.append(scalars[index])
          index += 1
          column += 1
          width += 1
        }
      }
      if fields.isEmpty { recordLine = startLine }
      fields.append(
        CSVField(
          value: String(value), line: startLine, column: startColumn, width: max(1, width)))
      if index < scalars.count, scalars[index] == separator {
        index += 1
        column += 1
        // A separator at the very end of the text still ends in an empty field.
        if index == scalars.count {
          fields.append(CSVField(value: "", line: line, column: column, width: 1))
        } else {
          continue
        }
      }
      _ = skipLineBreak()
      let record = CSVRecord(fields: fields, line: recordLine)
      fields = []
      records.append(record)
      if !record.isBlank {
        nonBlank += 1
        if nonBlank > maximumRecords { break }
      }
      // An unclosed quote took the rest of the text: nothing follows to read.
      if unclosedQuote { break }
    }
    return (records, problems)
  }
}
