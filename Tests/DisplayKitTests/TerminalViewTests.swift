// SPDX-License-Identifier: MIT
// The terminal preview: geometry, big digits, colours and the state-specific screens.

import DisplayKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct TerminalViewTests {
  static let sizes = [(24, 80), (12, 40), (60, 200), (5, 20), (40, 120), (3, 30), (1, 12), (8, 8)]
  static let evening = TimeOfDay(hour: 21, minute: 5, second: 9)
  static let help = "space start/pause · n next · p previous · l lap · r reset · q quit"

  /// AMRAP 20 with 12:34 left.
  /// Cindy 7:26 in, five rounds done.
  static func cindy() throws -> WorkoutSnapshot {
    var engine = try WorkoutEngine(
      plan: plan(amrap20, name: "cindy", label: "5 pull-ups · 10 push-ups · 15 air squats"))
    _ = try engine.apply(.start, at: at(0))
    for round in 1...5 { _ = try engine.apply(.lap, at: at(Double(round) * 80)) }
    _ = engine.advance(to: at(446))
    return engine.snapshot(at: at(446))
  }

  static func frames() throws -> [TerminalFrame] {
    let snapshots = [
      try cindy(),
      try snapshot(tabata, name: "tabata", countIn: 10, after: 3),
      try snapshot(squats, name: "back squat", label: "back squat", after: 2.5),
      try snapshot(.clock(ClockFace(twentyFourHour: false, showSeconds: true)), after: nil),
      try snapshot(amrap20, after: 100, pauseAt: 50),
      try snapshot(tabata, after: 1000),
      try snapshot(
        .forTime(ForTimeParameters()), name: "a very long preset name that cannot fit anywhere",
        after: 6000),
    ]
    return snapshots.map {
      TerminalFrame(
        snapshot: $0, timeOfDay: evening, status: help, message: "press r again to reset")
    }
  }

  @Test func everySizeGivesExactRowsAndColumns() throws {
    for frame in try Self.frames() {
      for (rows, columns) in Self.sizes {
        for color in [false, true] {
          let lines = TerminalView.render(frame, rows: rows, columns: columns, color: color)
          #expect(lines.count == rows, "\(frame.snapshot.mode) \(rows)×\(columns)")
          for line in lines {
            #expect(TerminalView.visibleWidth(line) == columns, "\(rows)×\(columns) \(line)")
            #expect(stripped(line).count == columns)
            #expect(!line.contains("\n") && !line.contains("\r"))
          }
        }
      }
    }
    #expect(TerminalView.render(try Self.frames()[0], rows: 0, columns: 80, color: true).isEmpty)
    #expect(
      TerminalView.render(try Self.frames()[0], rows: 2, columns: 0, color: true) == ["", ""])
  }

  /// A heat's line shows under the clock, between the label and the message, and is the
  /// first of the lower lines given up when rows run short (before the phase word).
  @Test func aHeatsLanesShowUnderTheClock() throws {
    var frame = TerminalFrame(
      snapshot: try Self.cindy(), timeOfDay: Self.evening, message: "press r again to reset")
    let without = TerminalView.render(frame, rows: 24, columns: 80, color: false)
    frame.lanes = "L3 7:42.3  L4 7:50.9"
    let with = TerminalView.render(frame, rows: 24, columns: 80, color: false)
    #expect(with.count == 24 && with.allSatisfy { $0.count == 80 })
    let line = try #require(with.firstIndex { $0.contains("L3 7:42.3  L4 7:50.9") })
    let label = try #require(with.firstIndex { $0.contains("5 pull-ups") })
    let message = try #require(with.firstIndex { $0.contains("press r again") })
    #expect(label < line && line < message)
    #expect(!without.contains { $0.contains("L3 7:42.3") })
  }

  @Test func bigDigitsOfTheMainTime() throws {
    let frame = TerminalFrame(snapshot: try Self.cindy(), timeOfDay: Self.evening)
    #expect(frame.snapshot.display == DisplayTime(seconds: 754, direction: .down))
    // 30 columns: the seven-row font at one column per pixel.
    let lines = TerminalView.render(frame, rows: 14, columns: 30, color: false)
    let font = [
      "  #   #####   ##### #   #",
      " ##       #       # #   #",
      "  #       # #     # #   #",
      "  #   #####    #### #####",
      "  #   #     #     #     #",
      "  #   #           #     #",
      " ###  #####   #####     #",
    ].map { String($0.map { $0 == "#" ? "█" : $0 }) }
    let start = try #require(lines.firstIndex { $0.contains(font[0]) })
    for (offset, row) in font.enumerated() {
      #expect(lines[start + offset].contains(row), "row \(offset)")
    }
    // 40×12 has rows for the five-row font only, two columns per pixel.
    let small = try #require(BlockFont.small.render("12:34", scaleX: 2))
    let medium = TerminalView.render(frame, rows: 12, columns: 40, color: false)
    #expect(small.allSatisfy { row in medium.contains { $0.contains(row) } })
    #expect(BlockFont.large.render("12:34") == font)
    // 80×24 and 200×60 draw the same glyphs at bigger scales.
    for (rows, columns) in [(24, 80), (60, 200)] {
      let big = TerminalView.render(frame, rows: rows, columns: columns, color: false)
      let scale = showsBlockText(big, "12:34", BlockFont.large)
      #expect((scale?.y ?? 0) >= (rows == 24 ? 2 : 4), "\(rows)×\(columns)")
    }
    // Tiny terminals fall back to plain text.
    #expect(
      TerminalView.render(frame, rows: 5, columns: 20, color: false).contains {
        $0.contains("12:34")
      })
  }

  @Test func smallFontGlyphs() {
    #expect(
      BlockFont.small.render("12:34")
        == pixels([
          ".# ### . ### #.#",
          "## ..# # ..# #.#",
          ".# ### . .## ###",
          ".# #.. # ..# ..#",
          ".# ### . ### ..#",
        ]))
    #expect(BlockFont.small.render("Work")?.first == pixels(["#...# .#. ##. #.#"])[0])
    // The matrix's built-in font is the same pictures.
    #expect(BlockFont.small.supports("R 10/12 +3"))
    #expect(BlockFont.small.supports("get ready"))
    #expect(!BlockFont.small.supports("GØR KLAR"))
    #expect(BlockFont.large.width(of: "00:00", scaleX: 3) == 75)
    #expect(BlockFont.large.render("1:0", colonVisible: false)?[2] == pixels(["..#.. . #...#"])[0])
    #expect(BlockFont.large.render("1:0", scaleX: 2, scaleY: 3)?.count == 21)
    #expect(BlockFont.large.render("1:0", scaleX: 2)?[0].count == 26)
    #expect(BlockFont.large.render("A") == nil)
  }

  /// The scale at which `lines` show `text` in `font`, if they do.
  func showsBlockText(_ lines: [String], _ text: String, _ font: BlockFont) -> (x: Int, y: Int)? {
    for scaleY in 1...10 {
      for scaleX in 1...(2 * scaleY) {
        guard let rows = font.render(text, scaleX: scaleX, scaleY: scaleY) else { return nil }
        if let start = lines.firstIndex(where: { $0.contains(rows[0]) }),
          start + rows.count <= lines.count,
          rows.enumerated().allSatisfy({ lines[start + $0.offset].contains($0.element) })
        {
          return (scaleX, scaleY)
        }
      }
    }
    return nil
  }

  /// Font rows written with `#` for a lit pixel and `.` or a space for a dark one.
  func pixels(_ rows: [String]) -> [String] {
    rows.map { String($0.map { $0 == "#" ? "█" : " " }) }
  }

  @Test func coloursOnlyWhenAsked() throws {
    for frame in try Self.frames() {
      let plain = TerminalView.render(frame, rows: 24, columns: 80, color: false)
      #expect(plain.allSatisfy { !$0.contains("\u{1B}") })
      let colored = TerminalView.render(frame, rows: 24, columns: 80, color: true)
      #expect(colored.allSatisfy { $0.contains("\u{1B}[0;") && $0.hasSuffix("\u{1B}[0m") })
      #expect(colored.map(stripped) == plain)
    }
    let work = try Self.cindy()
    let green = DesignTokens.standard.color(for: .work)
    let lines = TerminalView.render(
      TerminalFrame(snapshot: work, timeOfDay: Self.evening), rows: 24, columns: 80, color: true)
    let greenDigits = "1;38;2;\(green.red);\(green.green);\(green.blue);48;2;0;0;0m"
    #expect(lines.contains { $0.contains(greenDigits) && stripped($0).contains("███") })
    #expect(lines.allSatisfy { $0.contains("48;2;0;0;0") })
    var tokens = DesignTokens.standard
    tokens.roles[.work] = .literal(RGB(red: 1, green: 2, blue: 3))
    let restyled = TerminalView.render(
      TerminalFrame(snapshot: work, tokens: tokens, timeOfDay: Self.evening), rows: 24,
      columns: 80, color: true)
    #expect(
      restyled.contains { $0.contains("38;2;1;2;3;48;2;0;0;0m") && stripped($0).contains("███") })
  }

  @Test func headerAndCaptions() throws {
    let frame = TerminalFrame(
      snapshot: try Self.cindy(), timeOfDay: Self.evening, status: Self.help,
      message: "press r again to reset")
    let lines = TerminalView.render(frame, rows: 24, columns: 80, color: false)
    #expect(lines[0].hasPrefix(" cindy "))
    #expect(lines[0].hasSuffix(" AMRAP "))
    #expect(lines[0].contains("21:05"))
    #expect(lines.contains { $0.contains("W O R K") })
    // The score: five rounds done, not the sixth under way.
    #expect(lines.contains { $0.trimmingSpaces == "LAP 5" })
    #expect(lines.contains { $0.trimmingSpaces == "5 pull-ups · 10 push-ups · 15 air squats" })
    #expect(lines.contains { $0.trimmingSpaces == "press r again to reset" })
    #expect(lines[23].hasPrefix(" space start/pause"))
    let bar = try #require(lines.first { $0.contains("░") }).trimmingSpaces
    // 7:26 of 20:00 is 37 %.
    #expect(bar.count == 76)
    #expect(bar.filter { $0 == "█" }.count == 28)
  }

  @Test func idleClockShowsTheTimeOfDayHuge() throws {
    let clock = try snapshot(.clock(ClockFace()), name: "clock", after: nil)
    let frame = TerminalFrame(snapshot: clock, timeOfDay: Self.evening)
    let lines = TerminalView.render(frame, rows: 12, columns: 40, color: false)
    let digits = try #require(BlockFont.large.render("21:05"))
    #expect(digits.allSatisfy { row in lines.contains { $0.contains(row) } })
    #expect(lines[0].hasSuffix(" CLOCK "))
    #expect(!lines[0].contains("21:05"))
    var blinking = frame
    blinking.colonVisible = false
    let dark = TerminalView.render(blinking, rows: 12, columns: 40, color: false)
    let noColon = try #require(BlockFont.large.render("21:05", colonVisible: false))
    #expect(noColon.allSatisfy { row in dark.contains { $0.contains(row) } })
    #expect(dark != lines)
    let twelve = TerminalFrame(
      snapshot: try snapshot(.clock(ClockFace(twentyFourHour: false)), after: nil),
      timeOfDay: Self.evening)
    let pm = TerminalView.render(twelve, rows: 24, columns: 80, color: false)
    #expect(showsBlockText(pm, "9:05", .large) != nil)
    #expect(showsBlockText(pm, "PM", .small) != nil)
  }

  @Test func pausedDigitsBlink() throws {
    let paused = try snapshot(amrap20, after: 100, pauseAt: 50)
    var frame = TerminalFrame(snapshot: paused, timeOfDay: Self.evening)
    for (rows, columns) in [(24, 80), (12, 40)] {
      frame.pauseBlinkVisible = true
      let lit = TerminalView.render(frame, rows: rows, columns: columns, color: false)
      #expect(
        showsBlockText(lit, "PAUSED", .small) != nil || lit.contains { $0.contains("P A U S E D") })
      let large = showsBlockText(lit, "19:10", .large).map { 7 * $0.y }
      let digitRows = try #require(large ?? showsBlockText(lit, "19:10", .small).map { 5 * $0.y })
      frame.pauseBlinkVisible = false
      let dark = TerminalView.render(frame, rows: rows, columns: columns, color: false)
      // Only the digit rows change, and they go dark; the layout does not move.
      let changed = zip(lit, dark).filter { $0 != $1 }
      #expect(changed.count == digitRows)
      #expect(changed.allSatisfy { $0.1.trimmingSpaces.isEmpty })
    }
    let blue = DesignTokens.standard.color(for: .paused)
    frame.pauseBlinkVisible = true
    #expect(
      TerminalView.render(frame, rows: 24, columns: 80, color: true).contains {
        $0.contains("38;2;\(blue.red);\(blue.green);\(blue.blue);48;2;0;0;0m")
          && stripped($0).contains("███")
      })
  }

  @Test func finishedShowsDoneAndTheFinalTime() throws {
    let finished = try snapshot(
      .forTime(ForTimeParameters()), name: "fran", after: 400, finishAt: 263.4)
    let lines = TerminalView.render(
      TerminalFrame(snapshot: finished, timeOfDay: Self.evening), rows: 12, columns: 40,
      color: false)
    #expect(lines.contains { $0.contains("D O N E") })
    let digits = try #require(BlockFont.large.render("4:23"))
    #expect(digits.allSatisfy { row in lines.contains { $0.contains(row) } })
    let capped = try snapshot(.forTime(ForTimeParameters(cap: .minutes(10))), after: 700)
    let capLines = TerminalView.render(
      TerminalFrame(snapshot: capped, timeOfDay: Self.evening), rows: 12, columns: 40,
      color: false)
    #expect(capLines.contains { $0.contains("C A P") })
  }

  @Test func tempoTrack() throws {
    // 4 s down: 2.5 s in, the dot is 62.5 % of the way to the bottom.
    let squat = try snapshot(squats, name: "back squat", after: 2.5)
    #expect(squat.tempo?.trackPosition == 0.625)
    let frame = TerminalFrame(snapshot: squat, timeOfDay: Self.evening)
    let narrow = TerminalView.render(frame, rows: 8, columns: 60, color: false)
    let line = try #require(narrow.first { $0.contains("[↓4]") }).trimmingSpaces
    #expect(line == "[↓4]· 0 · ↑1 · 0    ├────────●────┤")
    #expect(narrow.contains { $0.trimmingSpaces == "SET 1/3 · REP 1/5 · LEFT" })
    #expect(narrow.contains { $0.contains("D O W N") })
    #expect(narrow.contains { $0.trimmingSpaces == "0:02" })
    // Wide enough: the track stands beside the digits and the dot sits at 62.5 % of its height.
    let wide = TerminalView.render(frame, rows: 24, columns: 80, color: false)
    let track = wide.compactMap { line in line.last { "┬│●┴".contains($0) } }
    #expect(track.first == "┬" && track.last == "┴")
    let dot = try #require(track.firstIndex(of: "●"))
    #expect(dot == Int((0.625 * Double(track.count - 1) + 0.5)))
    #expect(wide.contains { $0.trimmingSpaces == "[↓4]· 0 · ↑1 · 0" })
    // Holding at the bottom: the pause is highlighted, the dot at the bottom.
    let hold = try snapshot(
      .tempo(TempoParameters(tempo: Tempo(halfSeconds: [4, 4, 2, 0]), reps: 3)), after: 3)
    let holdLine = try #require(
      TerminalView.render(
        TerminalFrame(snapshot: hold, timeOfDay: Self.evening), rows: 8, columns: 60,
        color: false
      ).first { $0.contains("├") }
    ).trimmingSpaces
    #expect(holdLine == "↓2 ·[2]· ↑1 · 0    ├────────────●┤")
  }

  @Test func flashingAndUntrustedText() throws {
    var frame = TerminalFrame(snapshot: try Self.cindy(), timeOfDay: Self.evening, flashing: true)
    let green = DesignTokens.standard.color(for: .work)
    let lines = TerminalView.render(frame, rows: 24, columns: 80, color: true)
    #expect(
      lines.contains { $0.contains("48;2;\(green.red);\(green.green);\(green.blue)m W O R K") })
    frame.snapshot.presetName = "evil\u{1B}[2Jname"
    frame.snapshot.label = "スクワット 10"
    frame.message = "bell\u{07}"
    let plain = TerminalView.render(frame, rows: 24, columns: 80, color: false)
    #expect(plain.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } })
    #expect(plain[0].hasPrefix(" evil [2Jname"))
    #expect(plain.contains { $0.contains("スクワット 10") })
    #expect(plain.allSatisfy { TerminalView.visibleWidth($0) == 80 })
  }
}

extension String {
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
