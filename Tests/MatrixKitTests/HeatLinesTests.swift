// SPDX-License-Identifier: MIT
// A heat on the matrix: the finished lanes under the digits, in turns when they do not fit,
// and a call-up's title, countdown and athletes. Each region of a picture is compared with the
// text drawn alone in the caption font, so a test names what the wall shows.

import DisplayKit
import MatrixKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct HeatLinesTests {
  static let morning = TimeOfDay(hour: 9, minute: 5, second: 30)
  static let background = DesignTokens.standard.color(for: .background)

  /// The pixels of `rect` in `buffer`, row by row.
  static func pixels(_ buffer: Framebuffer, _ rect: PixelRect) -> [[RGB]] {
    (rect.y..<(rect.y + rect.height)).map { y in
      (rect.x..<(rect.x + rect.width)).map { buffer[$0, y] }
    }
  }

  /// `text` in the built-in font, in `role`'s colour, as the renderer places a line in
  /// `rect`: the lanes' line centred when it is as wide as the panel, the word from its left.
  static func line(
    _ text: String, in rect: PixelRect, panelWidth: Int, role: Role = .caption
  ) -> [[RGB]] {
    var buffer = Framebuffer(width: rect.width, height: rect.height, fill: background)
    let font = CaptionFont.small
    let centred = role == .caption && rect.width >= panelWidth
    let x = centred ? (rect.width - font.width(of: text)) / 2 : 0
    font.draw(
      text, x: x, y: 0, color: DesignTokens.standard.color(for: role), into: &buffer)
    return pixels(buffer, PixelRect(x: 0, y: 0, width: rect.width, height: rect.height))
  }

  /// A For Time under way, 5 min in.
  static func running() throws -> WorkoutSnapshot {
    var forTime = try Workout(.forTime(ForTimeParameters(cap: .seconds(900))), name: "Heat WOD")
    try forTime.start()
    return forTime.snapshot(300)
  }

  /// Lanes 1-4, of which 2, 3 and 4 finished (3 first, then 4, then 2).
  static let board = LaneBoard(
    heat: 3, phase: .running,
    lanes: [
      LaneLine(lane: 1, athlete: "Anna"),
      LaneLine(lane: 2, athlete: "Ben", result: "8:01.0", place: 3),
      LaneLine(lane: 3, athlete: "Cleo", result: "7:42.3", place: 1),
      LaneLine(lane: 4, athlete: "Dan", result: "7:50.9", place: 2),
    ])

  @Test func aHeatWithoutAFinishedLaneLeavesThePictureAsItWas() throws {
    let snapshot = try Self.running()
    var board = Self.board
    for index in board.lanes.indices { board.lanes[index].result = nil }
    let renderer = MatrixRenderer(width: 64, height: 32)
    #expect(
      renderer.render(snapshot, timeOfDay: Self.morning, milliseconds: 200, lanes: board)
        == renderer.render(snapshot, timeOfDay: Self.morning, milliseconds: 200))
    #expect(renderer.nextHeatChange(snapshot, lanes: board, after: 200) == nil)
  }

  /// 64×32: the digits make room for a line under them, which shows one lane at a time, by
  /// place, three seconds each, and comes round again. The turns count from the monotonic
  /// clock's zero: 27 s is the start of a first turn of three.
  @Test func theFinishedLanesTakeTurnsUnderTheDigitsByPlace() throws {
    let snapshot = try Self.running()
    let renderer = MatrixRenderer(width: 64, height: 32)
    let lanes = renderer.lanesLayout
    #expect(lanes.caption.y > lanes.time.y + lanes.time.height)
    #expect(lanes.time.height < renderer.layout.time.height)
    #expect(lanes.time.height >= DigitFont.minimumHeight)
    let expected = ["L3 7:42.3", "L4 7:50.9", "L2 8:01.0", "L3 7:42.3"]
    for (turn, text) in expected.enumerated() {
      let milliseconds = 27_000 + Int64(turn) * HeatLines.turnMilliseconds
      let picture = renderer.render(
        snapshot, timeOfDay: Self.morning, milliseconds: milliseconds, lanes: Self.board)
      #expect(
        Self.pixels(picture, lanes.caption)
          == Self.line(text, in: lanes.caption, panelWidth: 64), "turn \(turn): \(text)")
    }
    // The same instant, the same turn; the next turn is asked for at its boundary.
    #expect(renderer.nextHeatChange(snapshot, lanes: Self.board, after: 31_000) == 33_000)
    #expect(renderer.nextHeatChange(snapshot, lanes: Self.board, after: 33_000) == 36_000)
  }

  /// 128×64: the lanes' line is as wide as the panel and holds all three at once: no turns.
  @Test func aWidePanelShowsEveryFinishedLaneAtOnce() throws {
    let snapshot = try Self.running()
    let renderer = MatrixRenderer(width: 128, height: 64)
    let caption = renderer.lanesLayout.caption
    #expect(caption == renderer.layout.caption)
    let picture = renderer.render(
      snapshot, timeOfDay: Self.morning, milliseconds: 30_000, lanes: Self.board)
    #expect(
      Self.pixels(picture, caption)
        == Self.line("L3 7:42.3  L4 7:50.9  L2 8:01.0", in: caption, panelWidth: 128))
    #expect(renderer.nextHeatChange(snapshot, lanes: Self.board, after: 30_000) == nil)
  }

  /// After the heat its results stand under the final time.
  @Test func aHeatThatIsOverKeepsItsLanesUnderTheFinalTime() throws {
    var forTime = try Workout(.forTime(ForTimeParameters(cap: .seconds(600))), name: "Heat WOD")
    try forTime.start()
    let capped = forTime.snapshot(700)
    var board = Self.board
    board.phase = .done
    let renderer = MatrixRenderer(width: 64, height: 32)
    let picture = renderer.render(
      capped, timeOfDay: Self.morning, milliseconds: 27_000, lanes: board)
    #expect(
      Self.pixels(picture, renderer.lanesLayout.caption)
        == Self.line("L3 7:42.3", in: renderer.lanesLayout.caption, panelWidth: 64))
  }

  static func callUp(startsAt seconds: Int64) -> LaneBoard {
    LaneBoard(
      heat: 3, phase: .callUp, startsAt: seconds * 1_000_000_000,
      lanes: [
        LaneLine(lane: 1, athlete: "Anna"), LaneLine(lane: 2, athlete: "Ben"),
        LaneLine(lane: 3, athlete: "Cleo"),
      ])
  }

  /// A call-up: `HEAT 3` on the word's line in the count-in's colour, the whole seconds to
  /// the start where the digits are, the athletes under them.
  @Test func aCallUpShowsTheHeatTheCountdownAndTheAthletes() throws {
    var workout = try Workout(.forTime(ForTimeParameters(cap: .seconds(900))), name: "Heat WOD")
    let snapshot = workout.snapshot(0)
    let board = Self.callUp(startsAt: 200)
    let renderer = MatrixRenderer(width: 64, height: 32)
    let layout = renderer.lanesLayout
    // 100.5 s before the start: 1:41 shows. Two athletes fit the line at once: the turns are
    // `1 ANNA  2 BEN` and `3 CLEO`, and 99 s is in a second one.
    let early = renderer.render(
      snapshot, timeOfDay: Self.morning, milliseconds: 99_500, lanes: board)
    #expect(
      Self.pixels(early, layout.label)
        == Self.line("HEAT 3", in: layout.label, panelWidth: 64, role: .getReady))
    #expect(
      Self.pixels(early, layout.caption)
        == Self.line("3 Cleo", in: layout.caption, panelWidth: 64))
    // The digits: those of a count-in showing 1:41, in its colour.
    var digits = Framebuffer(width: 64, height: 32, fill: Self.background)
    let font = try #require(
      DigitFont.fitting("1:41", maxWidth: layout.time.width, maxHeight: layout.time.height))
    font.draw(
      "1:41", x: layout.time.x + (layout.time.width - font.width(of: "1:41")) / 2,
      y: layout.time.y + (layout.time.height - font.height) / 2,
      color: DesignTokens.standard.color(for: .getReady), into: &digits)
    #expect(Self.pixels(early, layout.time) == Self.pixels(digits, layout.time))
    // Within the same second the digits stand; the next second is asked for at its start.
    let later = renderer.render(
      snapshot, timeOfDay: Self.morning, milliseconds: 99_900, lanes: board)
    #expect(Self.pixels(later, layout.time) == Self.pixels(early, layout.time))
    #expect(renderer.nextHeatChange(snapshot, lanes: board, after: 99_500) == 100_000)
    #expect(
      Self.pixels(
        renderer.render(
          snapshot, timeOfDay: Self.morning, milliseconds: 100_000, lanes: board), layout.time)
        != Self.pixels(early, layout.time))
    // The athletes take turns.
    let next = renderer.render(
      snapshot, timeOfDay: Self.morning, milliseconds: 102_000, lanes: board)
    #expect(
      Self.pixels(next, layout.caption)
        == Self.line("1 Anna  2 Ben", in: layout.caption, panelWidth: 64))
  }

  @Test func theCountdownRoundsUpAndStopsAtTheStart() {
    let board = Self.callUp(startsAt: 200)
    #expect(HeatLines(board, milliseconds: 199_001)?.countdown == "0:01")
    #expect(HeatLines(board, milliseconds: 199_000)?.countdown == "0:01")
    #expect(HeatLines(board, milliseconds: 198_999)?.countdown == "0:02")
    #expect(HeatLines(board, milliseconds: 200_000)?.countdown == "0:00")
    #expect(HeatLines(board, milliseconds: 260_000)?.countdown == "0:00")
    #expect(HeatLines(board, milliseconds: 80_000)?.countdown == "2:00")
    #expect(HeatLines(board, milliseconds: 80_000)?.title == "HEAT 3")
    let numbered = LaneBoard(
      heat: nil, phase: .callUp, lanes: [LaneLine(lane: 1, athlete: "")])
    #expect(HeatLines(numbered, milliseconds: 0)?.items == ["LANE 1"])
    #expect(HeatLines(numbered, milliseconds: 0)?.countdown == nil)
  }

  /// A 16-row panel has one line of text: the lanes take it from the word, and in a call-up
  /// the heat's title is its first turn.
  @Test func aSmallPanelGivesTheWordsLineToTheHeat() throws {
    var workout = try Workout(.forTime(ForTimeParameters(cap: .seconds(900))), name: "Heat WOD")
    let snapshot = workout.snapshot(0)
    let renderer = MatrixRenderer(width: 32, height: 16)
    let layout = renderer.lanesLayout
    #expect(layout.label.isEmpty)
    #expect(layout.caption == renderer.layout.label)
    let board = Self.callUp(startsAt: 200)
    let turns = ["HEAT 3", "1 Anna", "2 Ben", "3 Cleo", "HEAT 3"]
    for (turn, text) in turns.enumerated() {
      let milliseconds = 144_000 + Int64(turn) * HeatLines.turnMilliseconds
      let picture = renderer.render(
        snapshot, timeOfDay: Self.morning, milliseconds: milliseconds, lanes: board)
      #expect(
        Self.pixels(picture, layout.caption)
          == Self.line(text, in: layout.caption, panelWidth: 32), "turn \(turn): \(text)")
    }
  }

  @Test func aLineTooLongForThePanelIsCutAndTheTurnsPackAsManyAsFit() {
    let font = CaptionFont.small
    let turns = HeatLines.turns(
      ["L1 7:42.3", "L2 7:50.9", "L3 8:01.0", "L12 a very long result indeed"], width: 80,
      font: font)
    #expect(turns.count == 3)
    #expect(turns[0] == "L1 7:42.3  L2 7:50.9")
    #expect(turns[1] == "L3 8:01.0")
    #expect(turns.allSatisfy { font.width(of: $0) <= 80 })
    #expect(turns[2].hasPrefix("L12 a very"))
    #expect(HeatLines.turns([], width: 80, font: font).isEmpty)
    #expect(HeatLines.turns(["L1 7:42"], width: 0, font: font).isEmpty)
  }
}
