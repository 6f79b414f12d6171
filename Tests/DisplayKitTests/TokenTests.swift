// SPDX-License-Identifier: MIT
// Colours, roles, brightness schedules and blink phases.

import DisplayKit
import Testing
import WorkoutCore

@Suite struct TokenTests {
  let tokens = DesignTokens.standard

  @Test func parsesAndFormatsHexColours() {
    #expect(RGB(hex: "#22e05a") == RGB(red: 0x22, green: 0xE0, blue: 0x5A))
    #expect(RGB(hex: "#FFB300")?.hex == "#ffb300")
    #expect(RGB(red: 1, green: 2, blue: 3).hex == "#010203")
    for bad in ["", "#fff", "22e05a", "#22e05", "#22e05a0", "#gg0000", "#+10000", " #000000"] {
      #expect(RGB(hex: bad) == nil, "\(bad)")
    }
    #expect(RGB.white.scaled(toPercent: 25) == RGB(red: 64, green: 64, blue: 64))
    #expect(RGB.white.scaled(toPercent: 150) == .white)
  }

  @Test func standardTokensAreDarkFirstWithDistinctPhases() {
    #expect(tokens.color(for: .background) == .black)
    #expect(tokens.color(for: .finished) == .white)
    let work = tokens.color(for: .work)
    let rest = tokens.color(for: .rest)
    #expect(work.green > work.red && work.green > work.blue)
    #expect(rest.red > rest.green && rest.red > rest.blue)
    let ready = tokens.color(for: .getReady)
    #expect(ready.red == 0xFF && ready.green > 0x80 && ready.blue < 0x40)
    let paused = tokens.color(for: .paused)
    #expect(paused.blue > paused.red && paused.blue > paused.green)
    #expect(Set([work, rest, ready, paused]).count == 4)
    for role in Role.allCases where role != .background {
      #expect(tokens.color(for: role) != tokens.color(for: .background), "\(role)")
    }
    #expect(tokens.validationErrors().isEmpty)
    #expect(tokens.palette.names.first == "black")
  }

  @Test func rolesReferToThePaletteOrToLiterals() {
    var custom = tokens
    custom.palette["green"] = RGB(red: 0, green: 128, blue: 0)
    #expect(custom.color(for: .work) == RGB(red: 0, green: 128, blue: 0))
    custom.roles[.rest] = .literal(RGB(red: 200, green: 0, blue: 100))
    #expect(custom.color(for: .rest) == RGB(red: 200, green: 0, blue: 100))
    custom.roles[.paused] = .palette("nope")
    #expect(custom.color(for: .paused) == tokens.color(for: .paused))
    #expect(custom.validationErrors() == ["role 'paused' names unknown colour 'nope'"])
    custom.roles[.warning] = nil
    #expect(custom.color(for: .warning) == tokens.color(for: .warning))
    let names = custom.palette.names
    custom.palette["green"] = nil
    #expect(custom.palette.names == names.filter { $0 != "green" })
    custom.palette["mint"] = RGB(red: 1, green: 2, blue: 3)
    #expect(custom.palette.names.last == "mint")
  }

  @Test func roleOfEachSegmentKindAndRunState() throws {
    #expect(tokens.role(for: try snapshot(tabata, countIn: 10, after: 2)) == .getReady)
    #expect(tokens.role(for: try snapshot(tabata, after: 5)) == .work)
    #expect(tokens.role(for: try snapshot(tabata, after: 25)) == .rest)
    let sets = WorkoutMode.intervals(
      IntervalParameters(
        work: .seconds(30), rest: .seconds(10), rounds: 2, sets: 2, setRest: .seconds(60)))
    #expect(tokens.role(for: try snapshot(sets, after: 75)) == .setRest)
    // Tempo 2-1-1-1 s: eccentric 0–2, bottom 2–3, concentric 3–4, top 4–5, then the next rep.
    let tempo = WorkoutMode.tempo(
      TempoParameters(
        tempo: Tempo(halfSeconds: [4, 2, 2, 2]), reps: 1, sets: 1, unilateral: true,
        switchPause: .seconds(5)))
    #expect(tokens.role(for: try snapshot(tempo, after: 1)) == .eccentric)
    #expect(tokens.role(for: try snapshot(tempo, after: 2.5)) == .bottomPause)
    #expect(tokens.role(for: try snapshot(tempo, after: 3.5)) == .concentric)
    #expect(tokens.role(for: try snapshot(tempo, after: 4.5)) == .topPause)
    #expect(tokens.role(for: try snapshot(tempo, after: 7)) == .sideSwitch)
    #expect(tokens.role(for: try snapshot(tabata, after: 5, pauseAt: 3)) == .paused)
    #expect(tokens.role(for: try snapshot(tabata, after: 500)) == .finished)
    #expect(tokens.role(for: try snapshot(tabata, after: nil)) == .idle)
    #expect(tokens.role(for: try snapshot(.clock(ClockFace()), after: nil)) == .clock)
    #expect(
      tokens.color(for: try snapshot(tabata, after: 5)) == tokens.color(for: Role.work))
  }

  @Test(arguments: [
    (0, 25), (5 * 60 + 59, 25), (6 * 60, 100), (12 * 60, 100), (21 * 60 + 59, 100),
    (22 * 60, 25), (23 * 60 + 59, 25), (24 * 60 + 30, 25), (-30, 25), (24 * 60 + 7 * 60, 100),
  ])
  func nightScheduleAcrossMidnight(_ minute: Int, _ percent: Int) {
    #expect(tokens.brightness(atMinuteOfDay: minute) == percent)
  }

  @Test func daytimeAndEmptySchedules() {
    var levels = BrightnessLevels(
      dayPercent: 80, nightPercent: 10, nightStart: TimeOfDay(hour: 13, minute: 30),
      nightEnd: TimeOfDay(hour: 14, minute: 0))
    #expect(levels.percent(atMinuteOfDay: 13 * 60 + 29) == 80)
    #expect(levels.percent(atMinuteOfDay: 13 * 60 + 30) == 10)
    #expect(levels.percent(atMinuteOfDay: 14 * 60) == 80)
    levels.nightEnd = levels.nightStart
    #expect((0..<1440).allSatisfy { levels.percent(atMinuteOfDay: $0) == 80 })
    levels.dayPercent = 140
    #expect(levels.percent(atMinuteOfDay: 0) == 100)
    var custom = DesignTokens.standard
    custom.brightness = levels
    #expect(custom.validationErrors() == ["day brightness 140 is outside 0–100"])
  }

  @Test func blinkPhases() {
    let period = tokens.blink.colonPeriodMilliseconds
    #expect(period == 1000)
    #expect(BlinkRates.isLit(periodMilliseconds: period, atMilliseconds: 0))
    #expect(BlinkRates.isLit(periodMilliseconds: period, atMilliseconds: 499))
    #expect(!BlinkRates.isLit(periodMilliseconds: period, atMilliseconds: 500))
    #expect(!BlinkRates.isLit(periodMilliseconds: period, atMilliseconds: 999))
    #expect(BlinkRates.isLit(periodMilliseconds: period, atMilliseconds: 12_000))
    #expect(!BlinkRates.isLit(periodMilliseconds: period, atMilliseconds: -1))
    #expect(BlinkRates.isLit(periodMilliseconds: 0, atMilliseconds: 700))
    #expect(tokens.blink.cueFlashMilliseconds > 0)
  }
}
