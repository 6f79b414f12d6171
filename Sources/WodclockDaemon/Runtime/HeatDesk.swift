// SPDX-License-Identifier: MIT
// The event's heats and lanes, and a class's scores, as the daemon keeps them: what the lane
// buttons, the judges' phones and the coach record, each written to the state directory and on
// disk before it is answered, so a kill -9 or a power cut between two presses loses neither.
//
// Files (in the state directory, beside the history):
//   heat-sheet.csv     the sheet as loaded (replaced atomically)
//   heat-sheet.name    the name it was loaded as ("friday.csv"), for its diagnostics and lists
//   lanes.jsonl        one line per lane input (HeatKit's LaneJournal), appended and fsynced
//   heat-number        the heat called up or the numbered lanes' run under way ("2"), so a
//                      heat with nothing recorded yet comes back as itself after a kill
//   class-scores.jsonl one line per class score: {"date": "2026-12-06", "workout": ...}
// Loading a sheet or clearing it starts a new event: the old files are renamed aside with the
// time, never deleted.

import ConfigFormat
import Configuration
import ControlProtocol
import DisplayKit
import HardwareKit
import HeatKit
import JSONKit
import WorkoutCore

/// The heats, the lanes' results and today's class scores; the call-up between heats.
final class HeatDesk {
  /// Where a heat stands.
  enum Phase: Equatable {
    /// The heat is called up; its workout starts at this monotonic instant.
    case callUp(startsAt: Int64)
    /// The heat's workout runs (or is counted in, or paused).
    case running
    /// The heat's workout ended; its results stand.
    case done
  }

  private(set) var results: EventResults
  /// The heat on the wall: the last called up, or the numbered lanes' run; 0 before any.
  private(set) var heat = 0
  /// Nil while no heat is under way or over (no sheet and no lane used yet).
  private(set) var phase: Phase?
  /// The event's leaderboard on the TV, asked for by the coach.
  var boardOn = false
  private(set) var classBoard = ClassBoard()
  /// The day `classBoard` holds ("2026-12-06"); another day starts it empty.
  private var classDay = ""
  /// What the clock said lately, for the speaker (the last few).
  private(set) var announcements: [Announcement] = []
  private var nextSerial = 1
  var settings: HeatsSettings {
    didSet { results.timeFormat = Self.timeFormat(settings) }
  }
  private let directory: String?
  private let logger: Logger
  /// The engine's state at the last look, to see a heat start and end.
  private var lastRunState: RunState = .idle

  static let maximumAnnouncements = 8

  init(settings: HeatsSettings, directory: String?, logger: Logger) {
    self.settings = settings
    self.directory = directory
    self.logger = logger
    results = EventResults(
      sheet: nil, numberedLanes: settings.lanes, timeFormat: Self.timeFormat(settings))
  }

  private static func timeFormat(_ settings: HeatsSettings) -> LaneTimeFormat {
    settings.timeFormat == .tenths ? .tenths : .seconds
  }

  // MARK: - Files

  private func path(_ name: String) -> String? { directory.map { $0 + "/" + name } }
  private var sheetPath: String? { path("heat-sheet.csv") }
  private var sheetNamePath: String? { path("heat-sheet.name") }
  private var heatNumberPath: String? { path("heat-number") }
  /// The name a saved sheet goes by when the name it was loaded as is not kept.
  static let savedSheetName = "heat-sheet.csv"
  /// The longest name a sheet is loaded as (the command protocol's limit).
  static let maximumSheetNameBytes = 255
  private var journalPath: String? { path("lanes.jsonl") }
  private var classScoresPath: String? { path("class-scores.jsonl") }

  /// Reads the sheet and replays the lanes' journal and today's class scores, as they were
  /// before the daemon stopped. A damaged line is skipped and logged; nothing here stops the
  /// clock.
  func restore(today: String, runState: RunState) {
    lastRunState = runState
    if let sheetPath, FileSystem.fileExists(sheetPath) {
      do {
        let text = try FileSystem.readTextFile(
          sheetPath, maximumCount: HeatSheet.maximumBytes, ownFile: true)
        switch HeatSheet.parse(text, name: savedSheetName()) {
        case .success(let sheet):
          results = EventResults(
            sheet: sheet, numberedLanes: settings.lanes, timeFormat: results.timeFormat)
        case .failure(let problem):
          logger.warning(
            "the saved heat sheet is not readable; lanes are numbered",
            [
              ("path", sheetPath), ("error", problem.diagnostics.first?.message ?? ""),
            ])
        }
      } catch {
        logger.warning("cannot read the saved heat sheet", [("error", "\(error)")])
      }
    }
    if let journalPath, FileSystem.fileExists(journalPath) {
      do {
        let journal = LaneJournal.decode(
          try FileSystem.readTextFile(journalPath, ownFile: true))
        for skipped in journal.skipped {
          logger.warning(
            skipped.isTorn
              ? "a torn last line of the lanes' journal skipped"
              : "a line of the lanes' journal skipped",
            [("path", journalPath), ("line", String(skipped.line)), ("reason", skipped.reason)])
        }
        for refused in results.replay(journal.entries) {
          logger.warning(
            "a lane input of the journal no longer applies",
            [("entry", refused.entry.line), ("reason", refused.refusal.message)])
        }
        heat = journal.entries.last?.heat ?? 0
      } catch {
        logger.warning("cannot read the lanes' journal", [("error", "\(error)")])
      }
    }
    // A heat under way that has nothing recorded yet is the one last called up (or the
    // numbered lanes' last run); a call-up whose start never came is called up again.
    if runState != .idle, let saved = savedHeatNumber(), saved > heat { heat = saved }
    if heat > 0 { phase = runState == .idle || runState == .finished ? .done : .running }
    restoreClassScores(today: today)
  }

  /// The name the saved sheet was loaded as: its lists and diagnostics name the file the coach
  /// gave, not the state directory's copy.
  private func savedSheetName() -> String {
    guard let sheetNamePath, FileSystem.fileExists(sheetNamePath),
      let name = try? FileSystem.readTextFile(
        sheetNamePath, maximumCount: Self.maximumSheetNameBytes, ownFile: true),
      !name.isEmpty, !name.contains("\n")
    else { return Self.savedSheetName }
    return name
  }

  /// The heat number kept at the last call-up or numbered run, if it is one.
  private func savedHeatNumber() -> Int? {
    guard let heatNumberPath, FileSystem.fileExists(heatNumberPath),
      let text = try? FileSystem.readTextFile(heatNumberPath, maximumCount: 16, ownFile: true),
      let number = Int(text), (1...HeatSheet.maximumHeat).contains(number)
    else { return nil }
    if let sheet = results.sheet, !sheet.heats.contains(number) { return nil }
    return number
  }

  /// Keeps the heat on the wall on disk: a kill before its first lane input does not lose it.
  private func keepHeatNumber() throws(SystemError) {
    guard let heatNumberPath else { return }
    try FileSystem.writeFileAtomically(heatNumberPath, text: String(heat), mode: 0o640)
  }

  private func restoreClassScores(today: String) {
    classDay = today
    guard let classScoresPath, FileSystem.fileExists(classScoresPath),
      let text = try? FileSystem.readTextFile(classScoresPath, ownFile: true)
    else { return }
    for line in text.split(separator: "\n") {
      guard let value = try? JSONValue.parse(Array(line.utf8)),
        value["date"]?.stringValue == today,
        let workout = value["workout"]?.stringValue,
        let kind = value["kind"]?.stringValue.flatMap(ClassWorkoutKind.init(rawValue:)),
        let athlete = value["athlete"]?.stringValue,
        let typed = value["score"]?.stringValue,
        case .success(let score) = ClassScore.parse(typed)
      else { continue }
      try? classBoard.record(score, athlete: athlete, workout: workout, kind: kind)
    }
  }

  /// Appends `lines` in one write and waits until they are on disk.
  private func append(_ lines: [String], to path: String?) throws(SystemError) {
    guard let path, !lines.isEmpty else { return }
    try FileSystem.appendLine(
      lines.joined(separator: "\n"), to: path, mode: 0o640, ownFile: true)
  }

  /// Renames the event's files aside (`lanes.jsonl.20261206-201500`), so a new event starts
  /// empty and the old one can still be read.
  private func setAside(stamp: String) throws(SystemError) {
    for path in [sheetPath, sheetNamePath, journalPath, heatNumberPath].compactMap({ $0 })
    where FileSystem.fileExists(path) {
      var target = "\(path).\(stamp)"
      var suffix = 0
      while FileSystem.fileExists(target) {
        suffix += 1
        target = "\(path).\(stamp)-\(suffix)"
      }
      try FileSystem.move(path, to: target)
    }
  }

  // MARK: - The sheet

  /// Loads a heat sheet: a new event, the old one's files set aside.
  func load(csv: String, name: String, stamp: String) -> CommandFailure? {
    let sheet: HeatSheet
    switch HeatSheet.parse(csv, name: name) {
    case .success(let parsed): sheet = parsed
    case .failure(let problem):
      return CommandFailure("bad_heat_sheet", problem.rendered)
    }
    do throws(SystemError) {
      try setAside(stamp: stamp)
      if let sheetPath { try FileSystem.writeFileAtomically(sheetPath, text: csv, mode: 0o640) }
      if let sheetNamePath {
        try FileSystem.writeFileAtomically(sheetNamePath, text: name, mode: 0o640)
      }
    } catch {
      return CommandFailure("failed", "cannot keep the heat sheet: \(error)")
    }
    results = EventResults(
      sheet: sheet, numberedLanes: settings.lanes, timeFormat: results.timeFormat)
    heat = 0
    phase = nil
    boardOn = false
    logger.info(
      "heat sheet loaded",
      [
        ("name", name), ("heats", String(sheet.heats.count)),
        ("athletes", String(sheet.entries.count)),
      ])
    return nil
  }

  /// No sheet: numbered lanes; the event's files set aside.
  func clear(stamp: String) -> CommandFailure? {
    do throws(SystemError) {
      try setAside(stamp: stamp)
    } catch {
      return CommandFailure("failed", "cannot set the event's files aside: \(error)")
    }
    results = EventResults(
      sheet: nil, numberedLanes: settings.lanes, timeFormat: results.timeFormat)
    heat = 0
    phase = nil
    boardOn = false
    logger.info("heat sheet cleared")
    return nil
  }

  /// Calls up the next heat of the sheet: its start comes `settings.transition` after `now`.
  func callUpNext(runState: RunState, at now: Int64) -> CommandFailure? {
    guard let sheet = results.sheet else {
      return CommandFailure(
        "refused", "no heat sheet is loaded; hint: 'wodclockctl heats load FILE' loads one")
    }
    guard runState == .idle || runState == .finished else {
      return CommandFailure(
        "busy",
        "heat \(heat)'s workout is under way; hint: it ends at its cap or with 'finish', or"
          + " 'reset' abandons it")
    }
    guard let next = sheet.heats.first(where: { $0 > heat }) else {
      return CommandFailure(
        "refused", "heat \(heat) was the last of \(sheet.heats.count); hint: 'wodclockctl results'")
    }
    let previous = heat
    heat = next
    do throws(SystemError) {
      try keepHeatNumber()
    } catch {
      heat = previous
      return CommandFailure("failed", "the heat called up could not be written to disk: \(error)")
    }
    phase = .callUp(startsAt: now + settings.transition.nanoseconds)
    boardOn = false
    announce(HeatCallUp.spoken(heat: next, entries: sheet.entries(inHeat: next)))
    logger.info("heat called up", [("heat", String(next))])
    return nil
  }

  /// The instant the called-up heat starts, while it is called up.
  var callUpStart: Int64? {
    if case .callUp(let startsAt) = phase { return startsAt }
    return nil
  }

  /// The called-up heat's start is due: it runs from now (its start is asked for once).
  func calledUpHeatStarts() {
    if callUpStart != nil { phase = .running }
  }

  /// Watches the engine: a start makes the heat run (the numbered lanes' next run, once a lane
  /// was used), an end makes it done; a reset during a call-up or a run leaves it.
  func observe(_ runState: RunState) {
    defer { lastRunState = runState }
    guard runState != lastRunState else { return }
    switch runState {
    case .countIn, .running:
      if lastRunState == .idle || lastRunState == .finished {
        // Numbered lanes: a class that uses none has no heat on the wall; once lanes were used,
        // each workout is a run of its own, the next only when the last one's lanes were used.
        if results.sheet == nil, heat > 0, lanesWereUsed(inHeat: heat) {
          heat += 1
          do throws(SystemError) {
            try keepHeatNumber()
          } catch {
            logger.warning("the lanes' run could not be kept", [("error", "\(error)")])
          }
        }
        if heat > 0 { phase = .running }
      }
    case .finished:
      if phase == .running { phase = .done }
    case .idle:
      // A reset: a heat that ran is over as it stands; a call-up is abandoned.
      if phase != nil { phase = .done }
    case .paused:
      break
    }
  }

  // MARK: - Lanes

  /// Whether anything was recorded for a lane of `heat`.
  private func lanesWereUsed(inHeat heat: Int) -> Bool {
    results.lanes(inHeat: heat).contains {
      $0.state != .working || !$0.tiebreakMilliseconds.isEmpty
    }
  }

  /// Records a lane input. `elapsed` is the workout's time at the input's instant (a finish,
  /// a tiebreak). Written to disk before it returns.
  func record(_ request: LaneRequest, elapsed: TimeSpan?, runState: RunState) -> CommandFailure? {
    // Without a sheet the first lane used makes the workout under way the first run.
    let heat = results.sheet == nil && self.heat == 0 ? 1 : self.heat
    guard heat > 0 else {
      return CommandFailure(
        "refused", "no heat is called up yet; hint: 'wodclockctl heats next' calls up the first")
    }
    let operation: LaneOperation
    switch request.operation {
    case .finish, .tiebreak:
      // The workout's time at the press: none before the start, during the count-in or a
      // pause, or after the end.
      guard let elapsed else {
        return CommandFailure(
          "refused",
          runState == .finished
            ? "the workout had ended; hint: 'lane reps \(request.lane) COUNT' records the reps"
              + " at the cap"
            : runState == .paused
              ? "the workout is paused" : "the heat's workout has not started")
      }
      let milliseconds = elapsed.nanoseconds / 1_000_000
      operation =
        request.operation == .finish
        ? .finish(atMilliseconds: milliseconds) : .tiebreak(atMilliseconds: milliseconds)
    case .undo:
      operation = .undo
    case .reps(let reps):
      operation = .reps(reps)
    case .score(let text):
      switch AMRAPScore.parse(text) {
      case .success(let score): operation = .score(score)
      case .failure(let problem): return CommandFailure("bad_request", problem.description)
      }
    }
    let entry = LaneJournalEntry(heat: heat, lane: request.lane, operation: operation)
    var next = results
    do throws(LaneRefusal) {
      try next.apply(entry)
    } catch {
      return CommandFailure(
        error.code == .noSuchLane ? "no_such_lane" : "refused", error.description)
    }
    do throws(SystemError) {
      try append([entry.line], to: journalPath)
    } catch {
      logger.error(
        "a lane input could not be kept", [("entry", entry.line), ("error", "\(error)")])
      return CommandFailure("failed", "the lane input could not be written to disk: \(error)")
    }
    results = next
    self.heat = heat
    if phase == nil {
      phase = runState == .idle || runState == .finished ? .done : .running
    }
    logger.info("lane", [("heat", String(heat)), ("entry", entry.line)])
    if case .finish(let milliseconds) = operation, settings.speakFinishes {
      announce(HeatCallUp.spokenFinish(lane: request.lane, milliseconds: milliseconds))
    }
    return nil
  }

  /// A class's score for today's workout `workout` (the last For Time or AMRAP).
  func recordClassScore(
    athlete: String, score text: String, workout: String, kind: ClassWorkoutKind, today: String
  ) -> CommandFailure? {
    if today != classDay {
      classBoard = ClassBoard()
      classDay = today
    }
    let score: ClassScore
    switch ClassScore.parse(text) {
    case .success(let parsed): score = parsed
    case .failure(let problem): return CommandFailure("bad_request", problem.description)
    }
    var board = classBoard
    do throws(ScoreProblem) {
      try board.record(score, athlete: athlete, workout: workout, kind: kind)
    } catch {
      return CommandFailure("refused", error.description)
    }
    let line = JSONValue.object(
      JSONObject([
        ("date", .string(today)), ("workout", .string(workout)), ("kind", .string(kind.rawValue)),
        ("athlete", .string(athlete)), ("score", .string(score.description)),
      ])
    ).serialized()
    do throws(SystemError) {
      try append([line], to: classScoresPath)
    } catch {
      return CommandFailure("failed", "the score could not be written to disk: \(error)")
    }
    classBoard = board
    return nil
  }

  private func announce(_ text: String) {
    announcements.append(Announcement(serial: nextSerial, text: text))
    nextSerial += 1
    if announcements.count > Self.maximumAnnouncements { announcements.removeFirst() }
  }

  // MARK: - What is shown

  /// The rule the heat's workout is scored by.
  static func scoring(_ plan: WorkoutPlan, settings: HeatsSettings) -> ScoringRule {
    switch plan.mode {
    case .amrap: return .amrap
    case .forTime(let parameters):
      return .forTime(
        capMilliseconds: parameters.cap.map { $0.nanoseconds / 1_000_000 },
        capRepSeconds: settings.capRepSeconds, totalReps: settings.totalReps)
    default:
      return .forTime(capMilliseconds: nil, capRepSeconds: false, totalReps: nil)
    }
  }

  /// The heat's lanes with their places so far.
  func laneLines(rule: ScoringRule) -> [(result: LaneResult, place: Int?, score: String?)] {
    guard heat > 0 else { return [] }
    let places = Dictionary(
      results.ranked(rule, heat: heat).map { ($0.lane, $0.place) }, uniquingKeysWith: { a, _ in a })
    return results.lanes(inHeat: heat).map { lane in
      (lane, places[lane.lane] ?? nil, lane.scoreText(format: results.timeFormat))
    }
  }

  /// The lanes for the displays, nil while no heat is under way.
  func board(rule: ScoringRule) -> LaneBoard? {
    guard let phase else { return nil }
    let lines = laneLines(rule: rule).map { line in
      LaneLine(
        lane: line.result.lane, athlete: line.result.athlete, result: line.score,
        place: line.score == nil ? nil : line.place)
    }
    switch phase {
    case .callUp(let startsAt):
      return LaneBoard(
        heat: results.sheet == nil ? nil : heat, phase: .callUp, startsAt: startsAt, lanes: lines)
    case .running:
      return LaneBoard(heat: results.sheet == nil ? nil : heat, phase: .running, lanes: lines)
    case .done:
      return LaneBoard(heat: results.sheet == nil ? nil : heat, phase: .done, lanes: lines)
    }
  }

  /// The status's `heat` member; null while no heat is under way.
  func statusJSON(rule: ScoringRule, at now: Int64) -> JSONValue {
    guard let phase else { return .null }
    let lanes = laneLines(rule: rule).map { line -> JSONValue in
      .object(
        JSONObject([
          ("lane", .integer(Int64(line.result.lane))),
          ("athlete", .string(line.result.athlete)),
          ("division", .string(line.result.division)),
          ("state", .string(line.result.state.rawValue)),
          ("finish_s", Self.seconds(line.result.finishMilliseconds)),
          ("score", line.score.map { JSONValue.string($0) } ?? .null),
          ("place", line.score == nil ? .null : Self.integer(line.place)),
          ("tiebreaks_s", .array(line.result.tiebreakMilliseconds.map { Self.seconds($0) })),
        ]))
    }
    let phaseName: String
    var startsIn: JSONValue = .null
    switch phase {
    case .callUp(let startsAt):
      phaseName = "call_up"
      startsIn = .double(Double(max(startsAt - now, 0) / 1_000_000) / 1_000)
    case .running: phaseName = "running"
    case .done: phaseName = "done"
    }
    let of: JSONValue = results.sheet.map { .integer(Int64($0.heats.count)) } ?? .null
    return .object(
      JSONObject([
        ("number", .integer(Int64(heat))), ("of", of), ("phase", .string(phaseName)),
        ("starts_in_s", startsIn), ("lanes", .array(lanes)),
      ]))
  }

  /// The status's `board` member: the event's leaderboard on demand, a heat's results after
  /// it, today's class scores while idle without heats; null otherwise.
  func boardJSON(rule: ScoringRule, runState: RunState) -> JSONValue {
    if boardOn {
      return Self.boardJSON(title: "Leaderboard", rows: results.ranked(rule))
    }
    if phase == .done, heat > 0, results.sheet != nil {
      return Self.boardJSON(title: "Heat \(heat) results", rows: results.ranked(rule, heat: heat))
    }
    if results.sheet == nil, runState == .idle, !classBoard.entries.isEmpty {
      var divisions: [(String, [JSONValue])] = []
      for row in classBoard.ranked() {
        let member = JSONValue.object(
          JSONObject([
            ("place", .integer(Int64(row.place))), ("athlete", .string(row.athlete)),
            ("score", .string(row.score.description)), ("heat", .null), ("lane", .null),
          ]))
        if let index = divisions.firstIndex(where: { $0.0 == row.workout }) {
          divisions[index].1.append(member)
        } else {
          divisions.append((row.workout, [member]))
        }
      }
      return .object(
        JSONObject([
          ("title", .string("Today")),
          (
            "divisions",
            .array(
              divisions.map {
                .object(JSONObject([("division", .string($0.0)), ("rows", .array($0.1))]))
              })
          ),
        ]))
    }
    return .null
  }

  private static func seconds(_ milliseconds: Int64?) -> JSONValue {
    milliseconds.map { JSONValue.double(Double($0) / 1_000) } ?? .null
  }

  private static func integer(_ value: Int?) -> JSONValue {
    value.map { JSONValue.integer(Int64($0)) } ?? .null
  }

  private static func boardJSON(title: String, rows: [RankedRow]) -> JSONValue {
    var divisions: [(String, [JSONValue])] = []
    for row in rows {
      let member = JSONValue.object(
        JSONObject([
          ("place", row.place.map { .integer(Int64($0)) } ?? .null),
          ("athlete", .string(row.athlete)), ("score", .string(row.score)),
          ("heat", .integer(Int64(row.heat))), ("lane", .integer(Int64(row.lane))),
        ]))
      if let index = divisions.firstIndex(where: { $0.0 == row.division }) {
        divisions[index].1.append(member)
      } else {
        divisions.append((row.division, [member]))
      }
    }
    return .object(
      JSONObject([
        ("title", .string(title)),
        (
          "divisions",
          .array(
            divisions.map {
              .object(JSONObject([("division", .string($0.0)), ("rows", .array($0.1))]))
            })
        ),
      ]))
  }

  /// The `heats` reply's member: the sheet's heats and lanes, and where the event stands.
  func heatsJSON() -> JSONValue {
    guard let sheet = results.sheet else {
      return .object(
        JSONObject([
          ("name", .null), ("heats", .array([])),
          ("current", heat > 0 ? .integer(Int64(heat)) : .null),
          ("lanes", .integer(Int64(results.numberedLanes))),
        ]))
    }
    let heats = sheet.heats.map { number -> JSONValue in
      .object(
        JSONObject([
          ("number", .integer(Int64(number))),
          (
            "lanes",
            .array(
              sheet.entries(inHeat: number).map { entry in
                .object(
                  JSONObject([
                    ("lane", .integer(Int64(entry.lane))), ("athlete", .string(entry.athlete)),
                    ("division", .string(entry.division)),
                  ]))
              })
          ),
        ]))
    }
    return .object(
      JSONObject([
        ("name", .string(sheet.name)), ("heats", .array(heats)),
        ("current", heat > 0 ? .integer(Int64(heat)) : .null),
        ("lanes", .integer(Int64(results.numberedLanes))),
      ]))
  }

  /// The `results` reply's members: rows, CSV and a table.
  func resultsMembers(rule: ScoringRule) -> [(String, JSONValue)] {
    let rows = results.ranked(rule)
    let list = rows.map { row -> JSONValue in
      .object(
        JSONObject([
          ("division", .string(row.division)),
          ("place", row.place.map { .integer(Int64($0)) } ?? .null),
          ("athlete", .string(row.athlete)), ("heat", .integer(Int64(row.heat))),
          ("lane", .integer(Int64(row.lane))), ("score", .string(row.score)),
          ("time_s", row.timeSeconds.map { .double($0) } ?? .null),
          ("tiebreak_s", row.tiebreakSeconds.map { .double($0) } ?? .null),
        ]))
    }
    return [
      ("results", .array(list)), ("csv", .string(ResultsTable.csv(rows))),
      ("table", .string(ResultsTable.table(rows, format: results.timeFormat))),
    ]
  }
}
