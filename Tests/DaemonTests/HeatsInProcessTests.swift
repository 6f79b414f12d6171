// SPDX-License-Identifier: MIT
// Heats, lanes, results and class scores as the daemon runs them, on manual time: a sheet
// loaded, heats called up and started by themselves, lanes finished at the instant the request
// is handled, the ranking as it comes, the journal surviving a kill, and a class's scores on the
// wall without a sheet.

import HardwareKit
import JSONKit
import Testing

@testable import WodclockDaemon

private let heatsConfig = """
  defaults:
    preset: fran
    count_in: 10s
  presets:
    fran:
      mode: for_time
      cap: 10m
    cindy:
      mode: amrap
      time: 12m
  heats:
    transition: 30s
    speak_finishes: false
  """

/// Two heats, two divisions.
private let fridaySheet = """
  heat,lane,athlete,division
  1,1,Anna,Rx
  1,2,Ben,Rx
  1,3,Cleo,Scaled
  2,1,Dana,Rx
  2,2,Eli,Scaled
  """

/// A sheet whose third line has a lane that is not a number.
private let badSheet = """
  heat,lane,athlete,division
  1,1,Anna,Rx
  1,x,Ben,Rx
  """

/// The whole workout time of `elapsed` seconds, cut to the millisecond as a finish is.
private func millisecondsCut(_ elapsed: Double) -> Double {
  Double(Int64((elapsed * 1_000_000).rounded()) / 1_000) / 1_000
}

extension InProcessDaemon {
  fileprivate func heatsLoad(_ csv: String, name: String = "friday.csv") throws -> JSONValue {
    let line = JSONValue.object(
      JSONObject([
        ("cmd", .string("heats")), ("op", .string("load")), ("csv", .string(csv)),
        ("name", .string(name)),
      ])
    ).serialized()
    return try request(line)
  }

  fileprivate func heats(_ operation: String) throws -> JSONValue {
    try request(#"{"cmd":"heats","op":"\#(operation)"}"#)
  }

  /// `{"cmd":"lane","op":OP,"lane":N}` with `extra` members (`,"reps":12`).
  fileprivate func lane(_ operation: String, _ number: Int, _ extra: String = "") throws
    -> JSONValue
  {
    try request(#"{"cmd":"lane","op":"\#(operation)","lane":\#(number)\#(extra)}"#)
  }

  /// The status's `heat` member.
  fileprivate func heatStatus() throws -> JSONValue? { try status()["heat"] }

  /// The lane's entry of the status's heat.
  fileprivate func laneStatus(_ number: Int) throws -> JSONValue? {
    try heatStatus()?["lanes"]?.arrayValue?.first { $0["lane"]?.intValue == Int64(number) }
  }

  fileprivate var state: String? { (try? status())?["state"]?.stringValue }

  /// Calls up the next heat and runs through its transition and count-in into the workout.
  fileprivate func callUpAndStart() throws {
    #expect(try heats("next")["ok"]?.boolValue == true)
    run(for: 30)
    run(for: 10)
    #expect(state == "running")
  }
}

private func errorCode(_ reply: JSONValue) -> String? { reply["error"]?["code"]?.stringValue }
private func errorMessage(_ reply: JSONValue) -> String {
  reply["error"]?["message"]?.stringValue ?? ""
}

@Suite struct HeatsInProcessTests {
  private func daemon() throws -> InProcessDaemon {
    let clock = try InProcessDaemon(config: heatsConfig, kinds: [])
    clock.start()
    return clock
  }

  // MARK: - The sheet

  @Test func aGoodSheetIsListedHeatByHeat() throws {
    let clock = try daemon()
    let reply = try clock.heatsLoad(fridaySheet)
    #expect(reply["ok"]?.boolValue == true)
    let heats = try #require(reply["heats"]?["heats"]?.arrayValue)
    #expect(heats.map { $0["number"]?.intValue } == [1, 2])
    #expect(
      heats[0]["lanes"]?.arrayValue?.map { $0["athlete"]?.stringValue } == ["Anna", "Ben", "Cleo"])
    #expect(heats[1]["lanes"]?.arrayValue?.map { $0["division"]?.stringValue } == ["Rx", "Scaled"])
    #expect(reply["heats"]?["name"]?.stringValue == "friday.csv")
    #expect(reply["heats"]?["current"]?.isNull == true)
    // Asked again, the same.
    #expect(try clock.heats("show")["heats"] == reply["heats"])
  }

  @Test func aBadSheetSaysWhereAndChangesNothing() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    let before = try clock.heats("show")["heats"]
    let savedPath = clock.directory + "/state/heat-sheet.csv"
    let savedBefore = try FileSystem.readTextFile(savedPath)

    let reply = try clock.heatsLoad(badSheet)
    #expect(reply["ok"]?.boolValue == false)
    #expect(errorCode(reply) == "bad_heat_sheet")
    let message = errorMessage(reply)
    #expect(message.hasPrefix("friday.csv:3:3: error:"))
    #expect(message.contains("'x'"))
    #expect(message.contains("hint:"))

    #expect(try clock.heats("show")["heats"] == before)
    #expect(try FileSystem.readTextFile(savedPath) == savedBefore)
    let stateFiles = try FileSystem.directoryEntries(clock.directory + "/state")
    #expect(!stateFiles.contains { $0.hasPrefix("heat-sheet.csv.") })
  }

  // MARK: - Call-up and start

  @Test func aCalledUpHeatStartsByItselfAfterTheTransition() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    #expect(try clock.heats("next")["ok"]?.boolValue == true)
    var heat = try #require(try clock.heatStatus())
    #expect(heat["number"]?.intValue == 1)
    #expect(heat["of"]?.intValue == 2)
    #expect(heat["phase"]?.stringValue == "call_up")
    #expect(heat["starts_in_s"]?.doubleValue == 30)
    #expect(
      heat["lanes"]?.arrayValue?.map { $0["athlete"]?.stringValue } == ["Anna", "Ben", "Cleo"])
    #expect(heat["lanes"]?.arrayValue?.allSatisfy { $0["state"]?.stringValue == "working" } == true)

    clock.run(for: 29.5)
    heat = try #require(try clock.heatStatus())
    #expect(heat["phase"]?.stringValue == "call_up")
    #expect(heat["starts_in_s"]?.doubleValue == 0.5)
    #expect(clock.state == "idle")

    clock.run(for: 0.5)
    #expect(clock.state == "countin")
    #expect(try clock.heatStatus()?["phase"]?.stringValue == "running")
    #expect(try clock.heatStatus()?["starts_in_s"]?.isNull == true)
    clock.run(for: 10)
    #expect(clock.state == "running")
    #expect(try clock.status()["elapsed_s"]?.doubleValue == 0)

    // Another heat cannot be called while this one runs.
    let busy = try clock.heats("next")
    #expect(errorCode(busy) == "busy")
    #expect(try clock.heatStatus()?["number"]?.intValue == 1)

    // The coach ends it; the second heat is called and starts; after it there is none.
    _ = try clock.request(#"{"cmd":"finish"}"#)
    #expect(try clock.heatStatus()?["phase"]?.stringValue == "done")
    try clock.callUpAndStart()
    #expect(try clock.heatStatus()?["number"]?.intValue == 2)
    #expect(
      try clock.heatStatus()?["lanes"]?.arrayValue?.map { $0["athlete"]?.stringValue } == [
        "Dana", "Eli",
      ])
    _ = try clock.request(#"{"cmd":"finish"}"#)
    let last = try clock.heats("next")
    #expect(errorCode(last) == "refused")
    #expect(errorMessage(last).contains("heat 2 was the last of 2"))
    #expect(try clock.heatStatus()?["phase"]?.stringValue == "done")
  }

  // MARK: - Lanes

  @Test func aFinishIsTheWorkoutsTimeWhenItIsHandledAndIsTakenBackByUndo() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 25.432_1)
    let elapsed = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(try clock.lane("finish", 2)["ok"]?.boolValue == true)
    var ben = try #require(try clock.laneStatus(2))
    #expect(ben["state"]?.stringValue == "finished")
    #expect(ben["finish_s"]?.doubleValue == millisecondsCut(elapsed))
    #expect(ben["finish_s"]?.doubleValue == 25.432)
    #expect(ben["score"]?.stringValue == "0:25.4")
    #expect(ben["athlete"]?.stringValue == "Ben")

    clock.run(for: 3)
    let twice = try clock.lane("finish", 2)
    #expect(errorCode(twice) == "refused")
    #expect(
      errorMessage(twice) == "lane 2 finished at 0:25.4 already; hint: 'lane undo 2' takes it back")
    #expect(try clock.laneStatus(2)?["finish_s"]?.doubleValue == 25.432)

    #expect(try clock.lane("undo", 2)["ok"]?.boolValue == true)
    ben = try #require(try clock.laneStatus(2))
    #expect(ben["state"]?.stringValue == "working")
    #expect(ben["finish_s"]?.isNull == true)
    #expect(ben["place"]?.isNull == true)
    let later = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(try clock.lane("finish", 2)["ok"]?.boolValue == true)
    #expect(try clock.laneStatus(2)?["finish_s"]?.doubleValue == millisecondsCut(later))
    #expect(try clock.laneStatus(2)?["finish_s"]?.doubleValue == 28.432)

    let missing = try clock.lane("finish", 5)
    #expect(errorCode(missing) == "no_such_lane")
    #expect(errorMessage(missing).hasPrefix("heat 1 has no lane 5: its lanes are 1-3; hint: "))
  }

  @Test func tiebreaksAreKeptInOrder() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 61.25)
    let first = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(try clock.lane("tiebreak", 1)["ok"]?.boolValue == true)
    clock.run(for: 42.007_5)
    let second = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(try clock.lane("tiebreak", 1)["ok"]?.boolValue == true)
    let anna = try #require(try clock.laneStatus(1))
    #expect(
      anna["tiebreaks_s"]?.arrayValue?.compactMap(\.doubleValue)
        == [millisecondsCut(first), millisecondsCut(second)])
    #expect(anna["state"]?.stringValue == "working")
  }

  @Test func atTheCapAFinishIsRefusedAndRepsAreTaken() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 400)
    _ = try clock.lane("finish", 1)
    clock.run(for: 200.5)
    #expect(clock.state == "finished")
    #expect(try clock.heatStatus()?["phase"]?.stringValue == "done")
    let late = try clock.lane("finish", 2)
    #expect(errorCode(late) == "refused")
    #expect(errorMessage(late).contains("lane reps 2"))
    #expect(try clock.lane("reps", 2, #","reps":12"#)["ok"]?.boolValue == true)
    #expect(try clock.lane("reps", 3, #","reps":30"#)["ok"]?.boolValue == true)
    let ben = try #require(try clock.laneStatus(2))
    #expect(ben["state"]?.stringValue == "capped")
    #expect(ben["score"]?.stringValue == "CAP+12")
    #expect(ben["finish_s"]?.isNull == true)
    // Anna finished under the cap; Ben is behind her in Rx; Cleo alone in Scaled.
    #expect(try clock.laneStatus(1)?["place"]?.intValue == 1)
    #expect(ben["place"]?.intValue == 2)
    #expect(try clock.laneStatus(3)?["place"]?.intValue == 1)
    #expect(try clock.laneStatus(3)?["score"]?.stringValue == "CAP+30")
  }

  /// A request the loop serves before it got round to a deadline that passed (the cap, the
  /// count-in's end) is timed as the status shows the workout then.
  @Test func aFinishServedBeforeTheLoopTurnedIsTimedByTheWorkoutAsItStands() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    #expect(try clock.heats("next")["ok"]?.boolValue == true)
    clock.run(for: 30)
    #expect(clock.state == "countin")
    clock.run(for: 9.75)
    // The count-in ended 0.5 s ago; the loop has not turned since.
    clock.stall(for: 0.75)
    #expect(clock.state == "running")
    let early = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(early == 0.5)
    #expect(try clock.lane("finish", 1)["ok"]?.boolValue == true)
    #expect(try clock.laneStatus(1)?["finish_s"]?.doubleValue == 0.5)

    clock.run(for: 599)
    // The cap passed 0.25 s ago; the loop has not turned since.
    clock.stall(for: 0.75)
    #expect(clock.state == "finished")
    let late = try clock.lane("finish", 2)
    #expect(errorCode(late) == "refused")
    #expect(try clock.laneStatus(2)?["state"]?.stringValue == "working")
  }

  @Test func anAMRAPLaneIsScoredInRoundsAndReps() throws {
    let clock = try daemon()
    _ = try clock.request(#"{"cmd":"load","preset":"cindy"}"#)
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 12 * 60)
    #expect(clock.state == "finished")
    #expect(try clock.lane("score", 1, #","score":"5+12""#)["ok"]?.boolValue == true)
    #expect(try clock.lane("score", 2, #","score":"6+0""#)["ok"]?.boolValue == true)
    let anna = try #require(try clock.laneStatus(1))
    #expect(anna["state"]?.stringValue == "scored")
    #expect(anna["score"]?.stringValue == "5+12")
    #expect(anna["place"]?.intValue == 2)
    #expect(try clock.laneStatus(2)?["place"]?.intValue == 1)
    let bad = try clock.lane("score", 3, #","score":"five""#)
    #expect(errorCode(bad) == "bad_request")
  }

  // MARK: - Ranking and results

  @Test func placesComeAsFinishesComeAndTheResultsRankEachDivision() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 300)
    _ = try clock.lane("finish", 2)
    #expect(try clock.laneStatus(2)?["place"]?.intValue == 1)
    #expect(try clock.laneStatus(1)?["place"]?.isNull == true)
    clock.run(for: 20)
    _ = try clock.lane("finish", 1)
    #expect(try clock.laneStatus(1)?["place"]?.intValue == 2)
    _ = try clock.lane("finish", 3)
    #expect(try clock.laneStatus(3)?["place"]?.intValue == 1)
    _ = try clock.request(#"{"cmd":"finish"}"#)
    // Heat 2: Dana ties Ben's time to the tenth, Eli is the second in Scaled.
    try clock.callUpAndStart()
    clock.run(for: 300.05)
    _ = try clock.lane("finish", 1)
    clock.run(for: 1)
    _ = try clock.lane("finish", 2)
    _ = try clock.request(#"{"cmd":"finish"}"#)

    let reply = try clock.request(#"{"cmd":"results"}"#)
    let rows = try #require(reply["results"]?.arrayValue)
    let summary = rows.map {
      "\($0["division"]?.stringValue ?? "?") \($0["place"]?.intValue ?? 0)"
        + " \($0["athlete"]?.stringValue ?? "?") \($0["heat"]?.intValue ?? 0)"
        + "/\($0["lane"]?.intValue ?? 0) \($0["score"]?.stringValue ?? "?")"
    }
    #expect(
      summary == [
        "Rx 1 Ben 1/2 5:00.0", "Rx 1 Dana 2/1 5:00.0", "Rx 3 Anna 1/1 5:20.0",
        "Scaled 1 Eli 2/2 5:01.0", "Scaled 2 Cleo 1/3 5:20.0",
      ])
    #expect(rows[0]["time_s"]?.doubleValue == 300)
    #expect(rows[1]["time_s"]?.doubleValue == 300.05)
    #expect(rows[0]["tiebreak_s"]?.isNull == true)
    let csv = try #require(reply["csv"]?.stringValue)
    let lines = csv.split(separator: "\n").map(String.init)
    #expect(lines.first == "division,place,athlete,heat,lane,score,time_s,tiebreak_s")
    #expect(lines.count == 6)
    #expect(lines.dropFirst().first?.hasPrefix("Rx,1,Ben,1,2,5:00.0,300") == true)
    #expect(lines.dropFirst(2).first?.hasPrefix("Rx,1,Dana,2,1,5:00.0,300.05") == true)
  }

  @Test func theBoardShowsAHeatsResultsThenTheLeaderboardOnDemand() throws {
    let clock = try daemon()
    let sheet = """
      heat,lane,athlete,division
      1,1,=SUM(A1),Rx
      1,2,Ben,Rx
      """
    _ = try clock.heatsLoad(sheet)
    try clock.callUpAndStart()
    #expect(try clock.status()["board"]?.isNull == true)
    clock.run(for: 200)
    _ = try clock.lane("finish", 2)
    _ = try clock.request(#"{"cmd":"finish"}"#)
    let board = try #require(try clock.status()["board"])
    #expect(board["title"]?.stringValue == "Heat 1 results")
    let rows = board["divisions"]?[0]?["rows"]?.arrayValue ?? []
    #expect(rows.map { $0["athlete"]?.stringValue } == ["Ben", "=SUM(A1)"])
    #expect(rows.map { $0["place"]?.intValue } == [1, nil])
    #expect(try clock.request(#"{"cmd":"heats","op":"board","on":true}"#)["ok"]?.boolValue == true)
    #expect(try clock.status()["board"]?["title"]?.stringValue == "Leaderboard")
    // A name a spreadsheet would run as a formula is written as text.
    let csv = try #require(try clock.request(#"{"cmd":"results"}"#)["csv"]?.stringValue)
    #expect(csv.split(separator: "\n").last == "Rx,,'=SUM(A1),1,1,,,")

    // Cleared: numbered lanes, nothing on the wall.
    #expect(try clock.heats("clear")["ok"]?.boolValue == true)
    #expect(try clock.status()["heat"]?.isNull == true)
    #expect(try clock.status()["board"]?.isNull == true)
    #expect(try clock.heats("show")["heats"]?["name"]?.isNull == true)
  }

  // MARK: - Durability

  @Test func aKillBetweenTwoFinishesLosesNeither() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 200)
    _ = try clock.lane("finish", 1)
    let annaFinish = try #require(try clock.laneStatus(1)?["finish_s"]?.doubleValue)
    clock.kill()
    clock.stall(for: 2)
    try clock.startAgain()
    let heat = try #require(try clock.heatStatus())
    #expect(heat["number"]?.intValue == 1)
    #expect(heat["phase"]?.stringValue == "running")
    #expect(clock.state == "running")
    #expect(try clock.laneStatus(1)?["finish_s"]?.doubleValue == annaFinish)
    #expect(try clock.laneStatus(1)?["state"]?.stringValue == "finished")
    clock.run(for: 10)
    let elapsed = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(try clock.lane("finish", 2)["ok"]?.boolValue == true)
    #expect(try clock.laneStatus(2)?["finish_s"]?.doubleValue == millisecondsCut(elapsed))
    #expect(try clock.laneStatus(2)?["place"]?.intValue == 2)
  }

  /// The second heat runs and nothing of it is recorded yet when the daemon is killed: it comes
  /// back as the second heat, its lanes are its own, and an interrupted call-up is called again.
  @Test func aKillDuringALaterHeatKeepsItsNumber() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 100)
    _ = try clock.lane("finish", 1)
    _ = try clock.request(#"{"cmd":"finish"}"#)
    try clock.callUpAndStart()
    clock.run(for: 50)
    clock.kill()
    try clock.startAgain()
    #expect(clock.state == "running")
    let heat = try #require(try clock.heatStatus())
    #expect(heat["number"]?.intValue == 2)
    #expect(heat["phase"]?.stringValue == "running")
    #expect(heat["lanes"]?.arrayValue?.map { $0["athlete"]?.stringValue } == ["Dana", "Eli"])
    #expect(try clock.lane("finish", 1)["ok"]?.boolValue == true)
    #expect(try clock.laneStatus(1)?["athlete"]?.stringValue == "Dana")
    // Dana's 0:50 in heat 2 is ahead of Anna's 1:40 in heat 1.
    let rows = try clock.request(#"{"cmd":"results"}"#)["results"]?.arrayValue ?? []
    let timed = rows.filter { $0["time_s"]?.isNull == false }
    #expect(timed.map { $0["athlete"]?.stringValue } == ["Dana", "Anna"])
    #expect(timed.map { $0["heat"]?.intValue } == [2, 1])

    // Killed during the call-up of a heat: the heat was not run, and is called up again.
    let other = try daemon()
    _ = try other.heatsLoad(fridaySheet)
    #expect(try other.heats("next")["ok"]?.boolValue == true)
    other.run(for: 10)
    other.kill()
    try other.startAgain()
    #expect(other.state == "idle")
    #expect(try other.heats("next")["ok"]?.boolValue == true)
    #expect(try other.heatStatus()?["number"]?.intValue == 1)

    // Numbered lanes: the second run, killed before a lane of it was used, is still the second.
    let numbered = try daemon()
    _ = try numbered.request(#"{"cmd":"start"}"#)
    numbered.run(for: 20)
    _ = try numbered.lane("finish", 4)
    _ = try numbered.request(#"{"cmd":"reset"}"#)
    _ = try numbered.request(#"{"cmd":"start"}"#)
    numbered.run(for: 20)
    #expect(try numbered.heatStatus()?["number"]?.intValue == 2)
    numbered.kill()
    try numbered.startAgain()
    #expect(try numbered.heatStatus()?["number"]?.intValue == 2)
    #expect(try numbered.laneStatus(4)?["state"]?.stringValue == "working")
  }

  @Test func theSheetSurvivesARestartAndANewSheetSetsTheOldJournalAside() throws {
    let clock = try daemon()
    _ = try clock.heatsLoad(fridaySheet)
    try clock.callUpAndStart()
    clock.run(for: 100)
    _ = try clock.lane("finish", 3)
    _ = try clock.request(#"{"cmd":"finish"}"#)
    let listed = try clock.heats("show")["heats"]
    try clock.restart()
    let restored = try clock.heats("show")["heats"]
    #expect(restored == listed, "\(restored?.serialized() ?? "nil")")
    #expect(restored?["name"]?.stringValue == "friday.csv")
    #expect(try clock.laneStatus(3)?["state"]?.stringValue == "finished")

    let stateDirectory = clock.directory + "/state"
    let journal = try FileSystem.readTextFile(stateDirectory + "/lanes.jsonl")
    #expect(!journal.isEmpty)
    let nextSheet = """
      heat,lane,athlete
      1,1,Finn
      """
    #expect(try clock.heatsLoad(nextSheet, name: "saturday.csv")["ok"]?.boolValue == true)
    let files = try FileSystem.directoryEntries(stateDirectory)
    let asideJournals = files.filter { $0.hasPrefix("lanes.jsonl.") }
    let asideSheets = files.filter { $0.hasPrefix("heat-sheet.csv.") }
    #expect(asideJournals.count == 1)
    #expect(asideSheets.count == 1)
    #expect(!files.contains("lanes.jsonl"))
    if let aside = asideJournals.first {
      #expect(try FileSystem.readTextFile(stateDirectory + "/" + aside) == journal)
    }
    if let aside = asideSheets.first {
      #expect(try FileSystem.readTextFile(stateDirectory + "/" + aside) == fridaySheet)
    }
    #expect(try FileSystem.readTextFile(stateDirectory + "/heat-sheet.csv") == nextSheet)
    #expect(try clock.request(#"{"cmd":"results"}"#)["results"]?.arrayValue?.count == 1)
  }

  // MARK: - Without a sheet

  @Test func classScoresMakeTodaysBoard() throws {
    let clock = try daemon()
    #expect(try clock.status()["board"]?.isNull == true)
    #expect(
      try clock.request(#"{"cmd":"score","athlete":"Anna","score":"7:42"}"#)["ok"]?.boolValue
        == true)
    #expect(
      try clock.request(#"{"cmd":"score","athlete":"Ben","score":"6:58"}"#)["ok"]?.boolValue == true
    )
    let amrap = try clock.request(#"{"cmd":"score","athlete":"Cleo","score":"5+12"}"#)
    #expect(errorCode(amrap) == "refused")
    let board = try #require(try clock.status()["board"])
    #expect(board["title"]?.stringValue == "Today")
    let divisions = try #require(board["divisions"]?.arrayValue)
    #expect(divisions.count == 1)
    #expect(divisions.first?["division"]?.stringValue == "fran")
    let rows = divisions.first?["rows"]?.arrayValue ?? []
    #expect(rows.map { $0["athlete"]?.stringValue } == ["Ben", "Anna"])
    #expect(rows.map { $0["place"]?.intValue } == [1, 2])
    #expect(rows.map { $0["score"]?.stringValue } == ["6:58", "7:42"])
    #expect(try clock.status()["heat"]?.isNull == true)
    // Kept on disk: a restart shows the same board.
    try clock.restart()
    #expect(try clock.status()["board"] == board)
    // While a workout runs the wall shows the workout, not the board.
    _ = try clock.request(#"{"cmd":"start"}"#)
    #expect(try clock.status()["board"]?.isNull == true)
  }

  @Test func numberedLanesCountARunPerWorkout() throws {
    let clock = try daemon()
    #expect(try clock.heatStatus()?.isNull == true)
    _ = try clock.request(#"{"cmd":"start"}"#)
    clock.run(for: 10)
    #expect(try clock.heatStatus()?.isNull == true)
    clock.run(for: 90.5)
    let elapsed = try #require(try clock.status()["elapsed_s"]?.doubleValue)
    #expect(try clock.lane("finish", 3)["ok"]?.boolValue == true)
    var heat = try #require(try clock.heatStatus())
    #expect(heat["number"]?.intValue == 1)
    #expect(heat["of"]?.isNull == true)
    #expect(heat["phase"]?.stringValue == "running")
    let three = try #require(try clock.laneStatus(3))
    #expect(three["finish_s"]?.doubleValue == millisecondsCut(elapsed))
    #expect(three["athlete"]?.stringValue == "")
    #expect(three["division"]?.stringValue == "")
    #expect(heat["lanes"]?.arrayValue?.count == 8)
    let outside = try clock.lane("finish", 9)
    #expect(errorCode(outside) == "no_such_lane")
    #expect(errorMessage(outside).hasPrefix("there is no lane 9: the lanes are 1-8; hint: "))

    _ = try clock.request(#"{"cmd":"finish"}"#)
    #expect(try clock.heatStatus()?["phase"]?.stringValue == "done")
    _ = try clock.request(#"{"cmd":"reset"}"#)
    _ = try clock.request(#"{"cmd":"start"}"#)
    heat = try #require(try clock.heatStatus())
    #expect(heat["number"]?.intValue == 2)
    #expect(heat["phase"]?.stringValue == "running")
    #expect(try clock.laneStatus(3)?["state"]?.stringValue == "working")
    // A run in which no lane was used does not make another.
    _ = try clock.request(#"{"cmd":"reset"}"#)
    _ = try clock.request(#"{"cmd":"start"}"#)
    #expect(try clock.heatStatus()?["number"]?.intValue == 2)
  }
}
