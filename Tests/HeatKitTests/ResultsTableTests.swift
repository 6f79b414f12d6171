// SPDX-License-Identifier: MIT
// The results CSV read back by a reader written here from RFC 4180 (not the heat sheet's), the
// formula guard, and the terminal table.

import HeatKit
import Testing

/// RFC 4180 records: fields separated by commas, records by LF or CR LF, a quoted field may hold
/// commas, line breaks and doubled quotes.
func rfc4180Records(_ text: String) -> [[String]] {
  var records: [[String]] = []
  var record: [String] = []
  var field = ""
  var quoted = false
  var afterQuote = false
  let characters = Array(text.unicodeScalars)
  var index = 0
  while index < characters.count {
    let character = characters[index]
    index += 1
    if quoted {
      if character == "\"" {
        if index < characters.count, characters[index] == "\"" {
          field.unicodeScalars.append("\"")
          index += 1
        } else {
          quoted = false
          afterQuote = true
        }
      } else {
        field.unicodeScalars.append(character)
      }
      continue
    }
    switch character {
    case "\"" where field.isEmpty && !afterQuote: quoted = true
    case ",":
      record.append(field)
      field = ""
      afterQuote = false
    case "\r": break
    case "\n":
      record.append(field)
      records.append(record)
      record = []
      field = ""
      afterQuote = false
    default: field.unicodeScalars.append(character)
    }
  }
  if !field.isEmpty || !record.isEmpty {
    record.append(field)
    records.append(record)
  }
  return records
}

@Suite struct ResultsCSVTests {
  let rows = [
    RankedRow(
      division: "Rx", place: 1, athlete: "Anna", heat: 3, lane: 2, score: "7:42.3",
      timeSeconds: 462.3, tiebreakSeconds: 301.2),
    RankedRow(
      division: "Masters 40+, Scaled", place: 2, athlete: "Ben \"The Bull\" Ortiz", heat: 1,
      lane: 8, score: "CAP+12", timeSeconds: nil, tiebreakSeconds: 0.05),
    RankedRow(
      division: "Rx", place: nil, athlete: "=HYPERLINK(\"x\")", heat: 2, lane: 1, score: ""),
    RankedRow(
      division: "Rx", place: 3, athlete: "Line\nbreak", heat: 999, lane: 64, score: "5+12",
      timeSeconds: 600, tiebreakSeconds: nil),
  ]

  @Test func theHeaderIsExactAndEachRowReadsBack() {
    let csv = ResultsTable.csv(rows)
    #expect(csv.hasPrefix("division,place,athlete,heat,lane,score,time_s,tiebreak_s\n"))
    #expect(csv.hasSuffix("\n"))
    let records = rfc4180Records(csv)
    #expect(
      records == [
        ["division", "place", "athlete", "heat", "lane", "score", "time_s", "tiebreak_s"],
        ["Rx", "1", "Anna", "3", "2", "7:42.3", "462.3", "301.2"],
        ["Masters 40+, Scaled", "2", "Ben \"The Bull\" Ortiz", "1", "8", "CAP+12", "", "0.05"],
        ["Rx", "", "'=HYPERLINK(\"x\")", "2", "1", "", "", ""],
        ["Rx", "3", "Line\nbreak", "999", "64", "5+12", "600", ""],
      ])
  }

  @Test func fieldsThatASpreadsheetWouldRunAsFormulasAreNeutralized() {
    for start in ["=", "+", "-", "@", "\t"] {
      let row = RankedRow(
        division: start + "SUM(A1)", place: 1, athlete: start + "x", heat: 1, lane: 1, score: "1")
      let record = rfc4180Records(ResultsTable.csv([row]))[1]
      #expect(record[0] == "'" + start + "SUM(A1)")
      #expect(record[2] == "'" + start + "x")
    }
  }

  @Test func secondsHaveUpToThreeDecimalsAndNothingElse() {
    let times: [(Double?, String)] = [
      (462.3, "462.3"), (462, "462"), (0.001, "0.001"), (59.999, "59.999"), (0.1 + 0.2, "0.3"),
      (nil, ""), (.nan, ""), (.infinity, ""),
    ]
    for (seconds, text) in times {
      let row = RankedRow(
        division: "", place: 1, athlete: "A", heat: 1, lane: 1, score: "", timeSeconds: seconds)
      #expect(rfc4180Records(ResultsTable.csv([row]))[1][6] == text)
    }
  }

  @Test func noRowsIsTheHeaderAlone() {
    #expect(ResultsTable.csv([]) == ResultsTable.csvHeader + "\n")
  }

  @Test func rankedResultsMakeOneRowPerAthlete() throws {
    let results = try event([
      entry(1, 2, .finish(atMilliseconds: 462_300)),
      entry(1, 2, .tiebreak(atMilliseconds: 301_200)),
    ])
    let records = rfc4180Records(ResultsTable.csv(results.ranked(forTime)))
    #expect(records.count == 9)
    #expect(records.contains(["Rx", "1", "Bo", "1", "2", "7:42.3", "462.3", "301.2"]))
  }
}

@Suite struct ResultsTerminalTableTests {
  @Test func columnsAreAlignedWithNumbersToTheRight() {
    let rows = [
      RankedRow(
        division: "Rx", place: 1, athlete: "Anna", heat: 3, lane: 2, score: "7:42.3",
        timeSeconds: 462.3, tiebreakSeconds: 301.2),
      RankedRow(division: "Scaled", place: nil, athlete: "Benjamin", heat: 12, lane: 10, score: ""),
    ]
    #expect(
      ResultsTable.table(rows) == """
        DIVISION  PLACE  ATHLETE   HEAT  LANE  SCORE   TIEBREAK
        Rx            1  Anna         3     2  7:42.3  5:01.2
        Scaled        -  Benjamin    12    10

        """)
  }

  @Test func withoutDivisionsTheColumnIsLeftOutAndControlCharactersAreShownAsQuestionMarks() {
    let rows = [
      RankedRow(division: "", place: 1, athlete: "A\u{1B}[2J", heat: 1, lane: 1, score: "87")
    ]
    #expect(
      ResultsTable.table(rows, format: .seconds) == """
        PLACE  ATHLETE  HEAT  LANE  SCORE  TIEBREAK
            1  A?[2J       1     1  87

        """)
  }
}
