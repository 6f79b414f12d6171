// SPDX-License-Identifier: MIT
// Heat sheets as spreadsheets and competition software export them, and the diagnostics of the
// ones that do not load.

import ConfigFormat
import HeatKit
import Testing

/// The sheet `text` describes, or a test failure that shows why it did not load.
func loadedSheet(_ text: String, name: String = "heats.csv") -> HeatSheet? {
  switch HeatSheet.parse(text, name: name) {
  case .success(let sheet): return sheet
  case .failure(let problem):
    Issue.record("the sheet did not load:\n\(problem.rendered)")
    return nil
  }
}

/// The problem `text` has, or a test failure when it loads.
func sheetProblem(_ text: String, name: String = "heats.csv") -> HeatSheetProblem? {
  switch HeatSheet.parse(text, name: name) {
  case .success:
    Issue.record("the sheet loaded")
    return nil
  case .failure(let problem): return problem
  }
}

@Suite struct HeatSheetReadingTests {
  @Test func entriesAreSortedByHeatThenLaneWithTheirDivisions() throws {
    let text = """
      heat,lane,athlete,division
      2,1,Cleo,Scaled
      1,2,Ben,Rx
      1,1,Anna,Rx

      """
    let sheet = try #require(loadedSheet(text))
    #expect(sheet.entries.map(\.athlete) == ["Anna", "Ben", "Cleo"])
    #expect(sheet.heats == [1, 2])
    #expect(sheet.entries(inHeat: 1).map(\.lane) == [1, 2])
    #expect(sheet.entries(inHeat: 3).isEmpty)
    // In the order the sheet first names them, not the order of the heats.
    #expect(sheet.divisions == ["Scaled", "Rx"])
    #expect(sheet.entry(heat: 2, lane: 1)?.line == 2)
  }

  @Test func headerNamesAreCaseInsensitiveTrimmedAndInAnyOrderWithExtrasKept() throws {
    let text = """
      Athlete , Affiliate,LANE,Heat,Division,Bib
      Anna,CF North,3,1,Rx,101
      """
    let sheet = try #require(loadedSheet(text))
    let anna = try #require(sheet.entries.first)
    #expect(anna.heat == 1 && anna.lane == 3 && anna.athlete == "Anna" && anna.division == "Rx")
    #expect(sheet.extraColumns == ["Affiliate", "Bib"])
    #expect(
      anna.extras == [
        HeatEntry.ExtraField(name: "Affiliate", value: "CF North"),
        HeatEntry.ExtraField(name: "Bib", value: "101"),
      ])
  }

  @Test func quotedFieldsHoldSeparatorsQuotesAndLineBreaks() throws {
    let text =
      "heat,lane,athlete,division,note\r\n1,1,\"Smith, Anna\",Rx,\"said \"\"hi\"\"\nthen left\"\r\n"
      + "1,2,\"Ben\",\"Rx\",\r\n"
    let sheet = try #require(loadedSheet(text))
    #expect(sheet.entries.map(\.athlete) == ["Smith, Anna", "Ben"])
    #expect(sheet.entries[0].extras[0].value == "said \"hi\"\nthen left")
    #expect(sheet.entries[1].extras[0].value == "")
    #expect(sheet.entries[1].line == 4)
  }

  @Test func aByteOrderMarkSemicolonsBlankLinesAndTrailingEmptyColumnsAreAccepted() throws {
    let text = "\u{FEFF}Heat;Lane;Athlete;Division;;\n\n1;1;Anna;Rx;;\n;;;;;\n1;2;Ben;Rx\n"
    let sheet = try #require(loadedSheet(text))
    #expect(sheet.entries.map(\.athlete) == ["Anna", "Ben"])
    #expect(sheet.extraColumns.isEmpty)
  }

  @Test func semicolonsAreFieldTextWhenTheHeaderHasCommas() throws {
    let sheet = try #require(loadedSheet("heat,lane,athlete,division\n1,1,Anna;Ben,Rx\n"))
    #expect(sheet.entries[0].athlete == "Anna;Ben")
  }

  @Test func withoutADivisionColumnEveryAthleteIsInOneDivision() throws {
    let sheet = try #require(loadedSheet("heat,lane,athlete\n1,1,Anna\n1,2,Ben\n"))
    #expect(sheet.entries.map(\.division) == ["", ""])
    #expect(sheet.divisions == [""])
  }

  @Test func theHighestHeatAndLaneAreAccepted() throws {
    let sheet = try #require(loadedSheet("heat,lane,athlete,division\n999,64,Anna,Rx\n"))
    #expect(sheet.heats == [999])
  }
}

@Suite struct HeatSheetDiagnosticTests {
  @Test func aLaneThatIsNotANumberIsShownWhereItIs() throws {
    let text = "heat,lane,athlete,division\n1,1,Anna,Rx\n1,x,Ben,Rx\n"
    let problem = try #require(sheetProblem(text))
    #expect(
      problem.rendered == """
        heats.csv:3:3: error: expected a whole number from 1 to 64 for 'lane', found 'x'
        1,x,Ben,Rx
          ^
        hint: lanes are numbered from 1 to 64, one athlete per lane in a heat

        """)
    #expect(problem.diagnostics.count == 1)
  }

  @Test func everyProblemIsListedNotOnlyTheFirst() throws {
    let text = """
      heat,lane,athlete,division
      0,1,Anna,Rx
      1,65,Ben,Rx
      1000,2,Cleo,Rx
      1,2,,Rx
      1,3.0,Dan,Rx
      """
    let problem = try #require(sheetProblem(text))
    #expect(problem.diagnostics.map(\.location.line) == [2, 3, 4, 5, 6])
    #expect(
      problem.diagnostics.map(\.message) == [
        "expected a whole number from 1 to 999 for 'heat', found '0'",
        "expected a whole number from 1 to 64 for 'lane', found '65'",
        "expected a whole number from 1 to 999 for 'heat', found '1000'",
        "expected the athlete's name, found nothing",
        "expected a whole number from 1 to 64 for 'lane', found '3.0'",
      ])
  }

  @Test func aLaneGivenTwiceInAHeatPointsAtTheFirst() throws {
    let text = "heat,lane,athlete,division\n1,2,Anna,Rx\n2,2,Ben,Rx\n1, 2,Cleo,Rx\n"
    let problem = try #require(sheetProblem(text))
    let diagnostic = try #require(problem.diagnostics.first)
    #expect(diagnostic.message == "lane 2 of heat 1 is given twice")
    #expect(diagnostic.location == SourceLocation(file: "heats.csv", line: 4, column: 3))
    #expect(
      diagnostic.notes.map(\.location) == [SourceLocation(file: "heats.csv", line: 2, column: 3)])
    #expect(problem.rendered.contains("heats.csv:2:3: note: lane 2 of heat 1 is first given here"))
  }

  @Test func aMissingRequiredColumnIsNamed() throws {
    let problem = try #require(sheetProblem("heat,athlete,division\n1,Anna,Rx\n"))
    #expect(problem.diagnostics.map(\.message) == ["the heat sheet has no 'lane' column"])
    #expect(problem.diagnostics[0].location.line == 1)
  }

  @Test func aSheetWithoutAHeaderIsToldSo() throws {
    let problem = try #require(sheetProblem("1,1,Anna,Rx\n"))
    #expect(
      problem.diagnostics[0].message == "the heat sheet has no 'heat', 'lane', 'athlete' columns")
    #expect(problem.diagnostics[0].hint?.contains("looks like an athlete's") == true)
  }

  @Test func aColumnNamedTwiceIsAnError() throws {
    let problem = try #require(sheetProblem("heat,lane,athlete,Lane\n1,1,Anna,2\n"))
    #expect(problem.diagnostics.map(\.message) == ["the column 'lane' is named twice"])
    #expect(problem.diagnostics[0].location.column == 19)
  }

  @Test func anEmptySheetIsAnError() throws {
    for text in ["", "\n\n", "\u{FEFF}"] {
      let problem = try #require(sheetProblem(text))
      #expect(problem.diagnostics.map(\.message) == ["the heat sheet is empty"])
    }
  }

  @Test func aHeaderOnlySheetLoadsWithNoAthletes() throws {
    let sheet = try #require(loadedSheet("heat,lane,athlete,division\n"))
    #expect(sheet.entries.isEmpty && sheet.heats.isEmpty)
  }

  @Test func anUnclosedQuoteAndTextAfterAClosingQuoteAreStructuralErrors() throws {
    let unclosed = try #require(
      sheetProblem("heat,lane,athlete,division\n1,1,\"Anna,Rx\n1,2,Ben,Rx\n"))
    #expect(unclosed.diagnostics[0].message == "this quoted field is not closed")
    #expect(
      unclosed.diagnostics[0].location == SourceLocation(file: "heats.csv", line: 2, column: 5))

    let after = try #require(sheetProblem("heat,lane,athlete,division\n1,1,\"Anna\"x,Rx\n"))
    #expect(
      after.diagnostics.map(\.message) == ["unexpected text after the closing quote of a field"])
  }

  @Test func aLineWithMoreValuesThanColumnsIsAnErrorUnlessTheyAreEmpty() throws {
    let problem = try #require(sheetProblem("heat,lane,athlete,division\n1,1,Smith, Anna,Rx\n"))
    #expect(
      problem.diagnostics.map(\.message) == ["this line has 5 fields, the header names 4 columns"])
    #expect(problem.diagnostics[0].hint?.contains("quoted") == true)
  }

  @Test func namesAreLimitedInLengthAndToOneLine() throws {
    let long = String(repeating: "a", count: 81)
    let problem = try #require(
      sheetProblem(
        "heat,lane,athlete,division\n1,1,\(long),Rx\n1,2,\"Ann\na\",Rx\n1,3,Cleo,\"R\tx\"\n"))
    #expect(
      problem.diagnostics.map(\.message) == [
        "the athlete 'aaaaaaaaaaaaaaaaaaaa...' is 81 characters, more than 80",
        "the athlete holds a line break or another control character",
        "the division holds a line break or another control character",
      ])
    #expect(loadedSheet("heat,lane,athlete\n1,1,\(String(repeating: "b", count: 80))\n") != nil)
  }

  @Test func aSheetOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
    let text = "heat,lane,athlete\n" + String(repeating: "x", count: HeatSheet.maximumBytes)
    let problem = try #require(sheetProblem(text))
    #expect(problem.diagnostics.count == 1)
    #expect(problem.diagnostics[0].message.hasSuffix("more than the 1 MiB a heat sheet may be"))
  }

  @Test func aSheetOverTheAthleteLimitIsRefused() throws {
    var text = "heat,lane,athlete\n"
    for index in 0...HeatSheet.maximumEntries {
      text += "\(index / 8 + 1),\(index % 8 + 1),Athlete \(index)\n"
    }
    let problem = try #require(sheetProblem(text))
    #expect(problem.diagnostics.map(\.message) == ["the heat sheet lists more than 2000 athletes"])
    #expect(problem.diagnostics[0].location.line == HeatSheet.maximumEntries + 2)
  }

  @Test func aSheetOfOnlyMistakesListsABoundedNumberAndCountsTheRest() throws {
    var text = "heat,lane,athlete\n"
    for _ in 0..<500 { text += "x,y,z\n" }
    let problem = try #require(sheetProblem(text))
    #expect(problem.diagnostics.count == HeatSheet.maximumDiagnostics + 1)
    #expect(problem.diagnostics.last?.severity == .note)
  }

  @Test func hostileNumbersNeverTrap() throws {
    let huge = String(repeating: "9", count: 400)
    let problem = try #require(
      sheetProblem("heat,lane,athlete\n\(huge),-1,Anna\n+1,\u{0661},Ben\n"))
    #expect(problem.diagnostics.count == 4)
  }

  @Test func columnsCountUnicodeScalarsAsTheRendererDoes() throws {
    let problem = try #require(sheetProblem("heat,lane,athlete\n1,1,Zoë\n1,ü,Ana\n"))
    #expect(
      problem.diagnostics[0].location == SourceLocation(file: "heats.csv", line: 3, column: 3))
    #expect(problem.rendered.contains("1,ü,Ana\n  ^\n"))
  }
}
