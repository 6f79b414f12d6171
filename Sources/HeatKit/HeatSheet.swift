// SPDX-License-Identifier: MIT
// The heat sheet: which athlete runs in which heat and lane, from the CSV a spreadsheet or
// competition software exports, with every problem reported as the configuration's are.

import ConfigFormat

/// One athlete's line of a heat sheet.
public struct HeatEntry: Sendable, Hashable {
  /// A column of the sheet beyond heat, lane, athlete and division, kept as it was written.
  public struct ExtraField: Sendable, Hashable {
    /// The column's name as the header writes it (trimmed).
    public var name: String
    /// This athlete's value in that column, exactly as written.
    public var value: String

    /// Creates a field from its column name and value.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The heat, 1...999.
  public var heat: Int
  /// The lane, 1...64.
  public var lane: Int
  /// The athlete's name, trimmed, 1 to 80 characters.
  public var athlete: String
  /// The division (`Rx`, `Scaled`, `Masters 40+`), trimmed; "" when the sheet has none.
  public var division: String
  /// The other columns, in the sheet's order.
  public var extras: [ExtraField]
  /// The line of the sheet the athlete is on, for messages.
  public var line: Int

  /// Creates an entry from its parts.
  public init(
    heat: Int, lane: Int, athlete: String, division: String, extras: [ExtraField] = [],
    line: Int = 0
  ) {
    self.heat = heat
    self.lane = lane
    self.athlete = athlete
    self.division = division
    self.extras = extras
    self.line = line
  }
}

/// Why a heat sheet did not load: every problem found (up to ``HeatSheet/maximumDiagnostics``),
/// as diagnostics and rendered the way `--check-config` prints the configuration's.
public struct HeatSheetProblem: Error, Sendable, Equatable {
  /// The problems, sorted by position.
  public var diagnostics: [Diagnostic]
  /// `heats.csv:3:7: error: ...`, the source line, a caret and `hint:` lines.
  public var rendered: String

  /// Creates a problem from its diagnostics and their rendering.
  public init(diagnostics: [Diagnostic], rendered: String) {
    self.diagnostics = diagnostics
    self.rendered = rendered
  }
}

/// A competition's heats: athletes by heat and lane, read from CSV.
///
/// The header line names the columns, in any order and any case: `heat`, `lane` and `athlete`
/// are required; `division` may be left out by an event with one division (every athlete is in
/// the division ""); every other column is kept with each entry, as competition software exports
/// more (an affiliate, a bib number). RFC 4180 quoting, LF or CR LF, a UTF-8 byte order mark,
/// `;` as the separator when the header has semicolons and no commas, blank lines and trailing
/// empty columns are all accepted.
public struct HeatSheet: Sendable, Equatable {
  /// The most text a heat sheet may be: 1 MiB.
  public static let maximumBytes = 1 << 20
  /// The most athletes a heat sheet may list.
  public static let maximumEntries = 2000
  /// The highest heat number.
  public static let maximumHeat = 999
  /// The highest lane number.
  public static let maximumLane = 64
  /// The longest athlete name or division, in characters.
  public static let maximumNameLength = 80
  /// How many problems a sheet's check lists at most; a note counts the rest.
  public static let maximumDiagnostics = 100

  /// The file name diagnostics name (`heats.csv`).
  public let name: String
  /// The extra columns' names, in the sheet's order.
  public let extraColumns: [String]
  /// Every athlete, sorted by heat then lane.
  public let entries: [HeatEntry]
  /// The divisions in the order they first appear in the sheet.
  public let divisions: [String]

  /// The heats that have athletes, in order.
  public var heats: [Int] {
    var heats: [Int] = []
    for entry in entries where heats.last != entry.heat { heats.append(entry.heat) }
    return heats
  }

  /// The athletes of `heat`, by lane; empty for a heat the sheet does not have.
  public func entries(inHeat heat: Int) -> [HeatEntry] {
    entries.filter { $0.heat == heat }
  }

  /// The athlete in `lane` of `heat`, if there is one.
  public func entry(heat: Int, lane: Int) -> HeatEntry? {
    entries.first { $0.heat == heat && $0.lane == lane }
  }

  private init(name: String, extraColumns: [String], entries: [HeatEntry], divisions: [String]) {
    self.name = name
    self.extraColumns = extraColumns
    self.entries = entries
    self.divisions = divisions
  }

  /// Reads a heat sheet, or reports every problem in it. `name` is the file name the
  /// diagnostics carry.
  public static func parse(_ text: String, name: String) -> Result<HeatSheet, HeatSheetProblem> {
    var reader = SheetReader(text: text, file: name)
    let sheet = reader.read()
    if let sheet, !reader.bag.hasErrors { return .success(sheet) }
    let diagnostics = reader.bag.sorted
    let rendered = DiagnosticRenderer(file: name, source: text).render(diagnostics)
    return .failure(HeatSheetProblem(diagnostics: diagnostics, rendered: rendered))
  }

  /// What the header must name, for hints.
  static let columnsHint =
    "the first line names the columns, in any order and any case: heat,lane,athlete,division"

  fileprivate static func make(
    name: String, extraColumns: [String], entries: [HeatEntry]
  ) -> HeatSheet {
    var divisions: [String] = []
    for entry in entries.sorted(by: { $0.line < $1.line })
    where !divisions.contains(entry.division) {
      divisions.append(entry.division)
    }
    let sorted = entries.sorted { ($0.heat, $0.lane) < ($1.heat, $1.lane) }
    return HeatSheet(
      name: name, extraColumns: extraColumns, entries: sorted, divisions: divisions)
  }
}

/// The reading of one sheet: its records, its columns and the problems found so far.
private struct SheetReader {
  let text: String
  let file: String
  var bag = DiagnosticBag(limit: HeatSheet.maximumDiagnostics)

  init(text: String, file: String) {
    self.text = text
    self.file = file
  }

  private enum Required: String, CaseIterable {
    case heat, lane, athlete, division
  }

  mutating func read() -> HeatSheet? {
    let start = SourceRange(at: SourceLocation(file: file, line: 1, column: 1))
    let bytes = text.utf8.count
    guard bytes <= HeatSheet.maximumBytes else {
      bag.error(
        "the heat sheet is \(bytes / 1024) KiB, more than the 1 MiB a heat sheet may be",
        at: start, hint: "a heat sheet has one line per athlete: heat,lane,athlete,division")
      return nil
    }
    var scalars = Array(text.unicodeScalars)
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    let reader = CSVReader(separator: CSVReader.separator(of: scalars))
    // The header and the most athletes a sheet may have; one more shows the limit was passed.
    let read = reader.records(of: scalars, maximumRecords: HeatSheet.maximumEntries + 1)
    for problem in read.problems {
      let location = SourceLocation(file: file, line: problem.line, column: problem.column)
      bag.error(problem.message, at: SourceRange(at: location), hint: problem.hint)
    }
    var records = read.records.filter { !$0.isBlank }
    guard !records.isEmpty else {
      bag.error(
        "the heat sheet is empty", at: start,
        hint: HeatSheet.columnsHint + ", then one line per athlete")
      return nil
    }
    let header = records.removeFirst()
    guard let columns = columns(of: header) else { return nil }
    var entries: [HeatEntry] = []
    var firstPlaces: [Int: CSVField] = [:]
    for (number, record) in records.enumerated() {
      guard number < HeatSheet.maximumEntries else {
        bag.error(
          "the heat sheet lists more than \(HeatSheet.maximumEntries) athletes",
          at: record.fields[0].range(file: file),
          hint: "a heat sheet may list at most \(HeatSheet.maximumEntries) athletes")
        break
      }
      guard let (entry, laneField) = self.entry(of: record, columns: columns) else { continue }
      let key = entry.heat * (HeatSheet.maximumLane + 1) + entry.lane
      if let first = firstPlaces[key] {
        bag.error(
          "lane \(entry.lane) of heat \(entry.heat) is given twice",
          at: laneField.range(file: file),
          hint: "one athlete per lane in a heat; change the heat or the lane of one of them",
          notes: [
            .note(
              "lane \(entry.lane) of heat \(entry.heat) is first given here",
              at: first.range(file: file))
          ])
        continue
      }
      firstPlaces[key] = laneField
      entries.append(entry)
    }
    return HeatSheet.make(name: file, extraColumns: columns.extraNames, entries: entries)
  }

  private struct Columns {
    var heat: Int
    var lane: Int
    var athlete: Int
    var division: Int?
    var extras: [(name: String, index: Int)]
    /// How many columns the header names, trailing unnamed ones left out.
    var count: Int

    var extraNames: [String] { extras.map(\.name) }
  }

  /// The header's columns, or nil (with the problems recorded) when a required one is missing.
  private mutating func columns(of header: CSVRecord) -> Columns? {
    var fields = header.fields
    // Trailing unnamed columns are what a spreadsheet adds for a stray cell; they say nothing.
    while let last = fields.last, TextScan.trimmed(last.value).isEmpty { fields.removeLast() }
    var found: [Required: CSVField] = [:]
    var indices: [Required: Int] = [:]
    var extras: [(name: String, index: Int)] = []
    for (index, field) in fields.enumerated() {
      let name = TextScan.trimmed(field.value)
      guard let required = Required(rawValue: name.lowercased()) else {
        extras.append((name, index))
        continue
      }
      if let first = found[required] {
        bag.error(
          "the column '\(required.rawValue)' is named twice", at: field.range(file: file),
          hint: "each of heat, lane, athlete and division is one column",
          notes: [.note("'\(required.rawValue)' is first named here", at: first.range(file: file))])
        continue
      }
      found[required] = field
      indices[required] = index
    }
    let missing = Required.allCases.filter { $0 != .division && indices[$0] == nil }
    if !missing.isEmpty {
      let names = missing.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      let width = header.fields.last.map { $0.column + $0.width - 1 } ?? 1
      let looksLikeData = header.fields.first.map {
        TextScan.wholeNumber(TextScan.trimmed($0.value), atMost: Int.max / 10) != nil
      }
      var hint = HeatSheet.columnsHint
      if looksLikeData == true { hint += "; this line looks like an athlete's, not a header" }
      bag.error(
        "the heat sheet has no \(names) column\(missing.count == 1 ? "" : "s")",
        at: SourceRange(
          start: SourceLocation(file: file, line: header.line, column: 1),
          end: SourceLocation(file: file, line: header.line, column: width + 1)),
        hint: hint)
      return nil
    }
    guard let heat = indices[.heat], let lane = indices[.lane], let athlete = indices[.athlete]
    else { return nil }
    return Columns(
      heat: heat, lane: lane, athlete: athlete, division: indices[.division], extras: extras,
      count: fields.count)
  }

  /// The entry of one athlete's record and its lane field (for a duplicate's note), or nil with
  /// the problems recorded.
  private mutating func entry(of record: CSVRecord, columns: Columns) -> (HeatEntry, CSVField)? {
    let fields = record.fields
    // Past the last field: where a missing value would have been.
    let end: CSVField = {
      let last = fields[fields.count - 1]
      return CSVField(value: "", line: last.line, column: last.column + last.width, width: 1)
    }()
    func field(_ index: Int) -> CSVField { index < fields.count ? fields[index] : end }

    var valid = true
    if fields.count > columns.count,
      let extra = fields[columns.count...].first(where: { !TextScan.trimmed($0.value).isEmpty })
    {
      bag.error(
        "this line has \(fields.count) fields, the header names \(columns.count) columns",
        at: extra.range(file: file),
        hint: "a value that holds the separator is quoted: \"Smith, Anna\"")
      valid = false
    }
    let heatField = field(columns.heat)
    let heat = number(heatField, column: "heat", maximum: HeatSheet.maximumHeat)
    let laneField = field(columns.lane)
    let lane = number(laneField, column: "lane", maximum: HeatSheet.maximumLane)
    let athlete = name(field(columns.athlete), column: "athlete", required: true)
    var division: String? = ""
    if let index = columns.division {
      division = name(field(index), column: "division", required: false)
    }
    let extras = columns.extras.map {
      HeatEntry.ExtraField(
        name: $0.name, value: $0.index < fields.count ? fields[$0.index].value : "")
    }
    guard valid, let heat, let lane, let athlete, let division else {
      return nil
    }
    let entry = HeatEntry(
      heat: heat, lane: lane, athlete: athlete, division: division, extras: extras,
      line: record.line)
    return (entry, laneField)
  }

  private mutating func number(_ field: CSVField, column: String, maximum: Int) -> Int? {
    let text = TextScan.trimmed(field.value)
    if let value = TextScan.wholeNumber(text, atMost: maximum), value >= 1 { return value }
    let found = text.isEmpty ? "nothing" : "'\(text)'"
    let hint =
      column == "lane"
      ? "lanes are numbered from 1 to \(maximum), one athlete per lane in a heat"
      : "heats are numbered from 1 to \(maximum)"
    bag.error(
      "expected a whole number from 1 to \(maximum) for '\(column)', found \(found)",
      at: field.range(file: file), hint: hint)
    return nil
  }

  /// A name (the athlete's or the division's), trimmed; nil with a problem recorded when it is
  /// empty though required, too long, or holds a control character.
  private mutating func name(_ field: CSVField, column: String, required: Bool) -> String? {
    let text = TextScan.trimmed(field.value)
    let limit = HeatSheet.maximumNameLength
    if text.isEmpty && required {
      bag.error(
        "expected the \(column)'s name, found nothing", at: field.range(file: file),
        hint: "every line names its athlete; a lane without one is left out of the sheet")
      return nil
    }
    if text.count > limit {
      bag.error(
        "the \(column) '\(text.prefix(20))...' is \(text.count) characters, more than \(limit)",
        at: field.range(file: file), hint: "shorten it to at most \(limit) characters")
      return nil
    }
    if TextScan.hasControlCharacter(text) {
      bag.error(
        "the \(column) holds a line break or another control character",
        at: field.range(file: file), hint: "write the \(column) on one line")
      return nil
    }
    return text
  }
}
