// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WorkoutCore
import WorkoutNotation

/// The whiteboard in the config: a preset's `whiteboard:` and `media:`, a workout written as a
/// list of its lines, the gym's own named workouts in the file `workouts:` names, and the
/// schedule's classes on dates with workouts written out or named.
@Suite("Whiteboard, named workouts and dated classes in the config")
struct WhiteboardConfigTests {
  /// Loads `text` as `wodclock.yaml` beside `files` (by path under /etc/wodclock).
  static func load(_ text: String, files: [String: String] = [:]) -> ConfigurationLoadResult {
    ConfigurationLoader.load(
      bytes: Array(text.utf8), file: "/etc/wodclock/wodclock.yaml", plugins: TestPlugins.all,
      readFile: { path, _ in
        guard let content = files[path] else {
          return .failed(reason: "no such file or directory", errnoName: "ENOENT")
        }
        return .read(bytes: Array(content.utf8), permissions: 0o644)
      })
  }

  /// The diagnostics as `file:line:col: message`.
  static func lines(_ result: ConfigurationLoadResult) -> [String] {
    result.diagnostics.map { diagnostic in
      let file = diagnostic.location.file.split(separator: "/").last.map(String.init) ?? ""
      return "\(file):\(diagnostic.location.line):\(diagnostic.location.column): "
        + diagnostic.message
    }
  }

  static func loaded(
    _ text: String, files: [String: String] = [:],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> WodclockConfiguration {
    let result = load(text, files: files)
    #expect(result.diagnostics.isEmpty, "\(lines(result))", sourceLocation: sourceLocation)
    return try #require(result.configuration, sourceLocation: sourceLocation)
  }

  @Test func aPresetHasItsWhiteboardAndMedia() throws {
    let config = try Self.loaded(
      """
      presets:
        cindy:
          mode: amrap
          time: 20m
          media: cindy.mp4
          whiteboard:
            - 5 pull-ups
            - {line: 10 push-ups, media: push-up.webm}
            - "15 air squats @squat.gif"
            - "Scaled: ring rows"
        fran:
          - "21-15-9 for time cap 10"
          - "@fran.jpg"
          - Thrusters 95/65 lb
          - {line: Pull-ups, media: pull-up.webm}
      """)
    let cindy = try #require(config.preset(named: "cindy")?.plan)
    #expect(cindy.media == "cindy.mp4")
    #expect(
      cindy.whiteboard == [
        WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups", media: "push-up.webm"),
        WhiteboardLine("15 air squats", media: "squat.gif"), WhiteboardLine("Scaled: ring rows"),
      ])
    let fran = try #require(config.preset(named: "fran")?.plan)
    #expect(fran.name == "fran")
    #expect(fran.media == "fran.jpg")
    #expect(fran.whiteboard.map(\.text) == ["Thrusters 95/65 lb", "Pull-ups"])
    #expect(
      fran.notation
        == "21-15-9 for time cap 10\n@fran.jpg\nThrusters 95/65 lb\nPull-ups @pull-up.webm")
    PrinterTests.checkRoundTrip(config)
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    #expect(
      printed.contains(
        """
          fran:
            - "21-15-9 for time cap 10"
            - "@fran.jpg"
            - "Thrusters 95/65 lb"
            - "Pull-ups @pull-up.webm"

        """))
    #expect(printed.contains("    media: cindy.mp4\n    whiteboard:\n      - \"5 pull-ups\"\n"))
  }

  @Test func aPresetWithoutAWhiteboardPrintsAsBefore() throws {
    let config = try Self.loaded("presets:\n  cindy:\n    mode: amrap\n    time: 20m\n")
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    #expect(!printed.contains("whiteboard") && !printed.contains("media:"))
    #expect(!printed.contains("workouts:"))
  }

  @Test func aNotationPresetMayBeALibraryName() throws {
    let config = try Self.loaded("presets:\n  girl: Cindy\n")
    let plan = try #require(config.preset(named: "girl")?.plan)
    #expect(plan.name == "girl")
    #expect(plan.mode == .amrap(AMRAPParameters(time: .minutes(20))))
    #expect(plan.whiteboard.count == 4)
    PrinterTests.checkRoundTrip(config)
  }

  @Test func whiteboardProblemsAreReportedInTheirItem() {
    let result = Self.load(
      """
      presets:
        cindy:
          mode: amrap
          time: 20m
          media: videos/cindy.mp4
          whiteboard:
            - 5 pull-ups @pull-up.mov
            - {line: 10 push-ups, video: push-up.webm}
            - {media: a.png}
            - "@whole.png"
        fran:
          - "21-15-9 for tme"
          - Thrusters 95/65 lb
      """)
    #expect(
      Self.lines(result) == [
        "wodclock.yaml:5:12: a media file is named without a directory, found 'videos/cindy.mp4'",
        "wodclock.yaml:7:20: '.mov' is not a kind of media the clock shows",
        "wodclock.yaml:8:29: unknown key 'video' in a whiteboard line",
        "wodclock.yaml:9:9: missing key 'line' in a whiteboard line",
        "wodclock.yaml:10:9: '@whole.png' alone is the whole workout's media, not a whiteboard line",
        "wodclock.yaml:12:20: expected 'time' after 'for', found 'tme'",
      ])
  }

  @Test func theGymsOwnWorkoutsJoinTheLibrary() throws {
    let workouts = """
      # The gym's named workouts.
      Filthy Fifty:
        - "for time cap 30"
        - "50 box jumps 24/20 in"
        - "50 jumping pull-ups"
      cindy: ["amrap 15", 5 pull-ups, 10 push-ups, 15 air squats]
      open gym: "amrap 60"
      """
    let config = try Self.loaded(
      """
      workouts: workouts.yaml
      presets:
        fran: "21-15-9 for time cap 10"
        ours: filthy-fifty
      schedule:
        classes:
          - {days: mon, at: "06:00", workout: open gym}
      """, files: ["/etc/wodclock/workouts.yaml": workouts])
    #expect(config.workoutsFile?.path == "/etc/wodclock/workouts.yaml")
    let library = config.workouts
    #expect(library.workout(named: "filthy fifty")?.kind == .gym)
    #expect(library.workout(named: "Cindy")?.text.hasPrefix("amrap 15\n") == true)
    #expect(library.workout(named: "murph")?.kind == .hero)
    #expect(config.preset(named: "ours")?.plan.whiteboard.count == 2)
    #expect(config.schedule.classes.first?.name == "open gym")
    // A preset wins over the library's workout of its name, whatever its case.
    #expect(config.preset(loadedBy: "FRAN")?.name == "fran")
    #expect(config.preset(loadedBy: "cindy") == nil)
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    #expect(printed.contains("\nworkouts: workouts.yaml\n"))
  }

  @Test func theWorkoutsFileIsCheckedWithItsLinesAndColumns() {
    let workouts = """
      filthy fifty:
        - "for time cap 30"
        - "50 box jumps @box.mov"
      tabata: "amrap 10"
      Filthy-Fifty: "amrap 5"
      bad: "amrap 10 x"
      list: [{line: x}]
      """
    let result = Self.load(
      "workouts: workouts.yaml\npresets:\n  a: amrap 5\n",
      files: ["/etc/wodclock/workouts.yaml": workouts])
    #expect(
      Self.lines(result) == [
        "workouts.yaml:3:19: '.mov' is not a kind of media the clock shows",
        "workouts.yaml:4:1: 'tabata' is a workout in the notation already, so it cannot be a name",
        "workouts.yaml:5:1: two workouts named 'Filthy-Fifty'",
        "workouts.yaml:6:16: unexpected word 'x'",
        "workouts.yaml:7:8: expected the workout as its first item, as in '[\"amrap 20\", 5 pull-ups]'",
      ])
    #expect(result.includedSources["/etc/wodclock/workouts.yaml"] == workouts)
    let missing = Self.load("workouts: gone.yaml\npresets:\n  a: amrap 5\n")
    #expect(
      Self.lines(missing) == [
        "wodclock.yaml:1:11: cannot read the workouts file '/etc/wodclock/gone.yaml': no such file or directory (ENOENT)"
      ])
  }

  @Test func aClassOnADateWithItsWhiteboardReplacesTheWeeksClassThatDay() throws {
    let config = try Self.loaded(
      """
      presets:
        fran: "21-15-9 for time cap 10"
      schedule:
        classes:
          - {days: mon-fri, at: "06:00", name: 6 AM WOD, workout: fran}
          - {on: 2026-12-07, at: "06:00", workout: cindy}
          - on: [2026-12-08, 2026-12-10]
            at: "06:00"
            workout: ["emom 12", "Power cleans 135/95 lb", "Burpees"]
          - {on: 2026-12-12, days: sun, at: "09:00", workout: Fight Gone Bad}
      """)
    let classes = config.schedule.classes
    #expect(classes[1].dates == [LocalDate(year: 2026, month: 12, day: 7)])
    #expect(classes[1].days.isEmpty)
    #expect(classes[1].workout == .notation("cindy"))
    #expect(classes[1].name == "Cindy")
    #expect(classes[2].workout == .notation("emom 12\nPower cleans 135/95 lb\nBurpees"))
    #expect(classes[2].name == "emom 12")
    #expect(classes[3].days == [.sunday])
    let calendar = ScheduleCalendar(schedule: config.schedule) { _, _ in .unique(utcOffset: 0) }
    let monday = LocalDate(year: 2026, month: 12, day: 7)
    #expect(calendar.classes(on: monday).map(\.scheduled.name) == ["Cindy"])
    #expect(calendar.classes(on: monday.adding(days: 1)).map(\.scheduled.name) == ["emom 12"])
    #expect(calendar.classes(on: monday.adding(days: 2)).map(\.scheduled.name) == ["6 AM WOD"])
    #expect(
      calendar.classes(on: monday.adding(days: 5)).map(\.scheduled.name) == ["Fight Gone Bad"])
    PrinterTests.checkRoundTrip(config)
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    #expect(
      printed.contains(
        "- {on: [2026-12-08, 2026-12-10], at: \"06:00\", name: emom 12, workout: [\"emom 12\","
          + " \"Power cleans 135/95 lb\", \"Burpees\"]}"))
  }

  @Test func aClassOnDatesOnlyIsNextEvenWeeksAhead() throws {
    let config = try Self.loaded(
      """
      presets:
        fran: "21-15-9 for time cap 10"
      schedule:
        classes:
          - {on: 2027-01-15, at: "18:00", workout: murph}
      """)
    let calendar = ScheduleCalendar(schedule: config.schedule) { _, _ in .unique(utcOffset: 0) }
    let today = LocalDate(year: 2026, month: 12, day: 1)
    let now = Int64(today.daysSinceEpoch) * 86_400
    #expect(
      calendar.next(after: now, today: today)?.date == LocalDate(year: 2027, month: 1, day: 15))
    #expect(calendar.next(after: now + 60 * 86_400, today: today.adding(days: 60)) == nil)
  }

  @Test func datesAndDatedClassesAreChecked() {
    let result = Self.load(
      """
      presets:
        fran: "21-15-9 for time cap 10"
      schedule:
        classes:
          - {on: 2026-02-30, at: "06:00", workout: fran}
          - {on: 7 dec, at: "06:00", workout: fran}
          - {on: 2026-12-07, at: "06:00", workout: fran}
          - {on: [2026-12-07], at: "06:00", workout: cindy}
          - {at: "07:00", workout: fran}
          - {on: 2026-12-09, at: "06:00", workout: [amrap 20, "5 pull-ups @p.bmp"]}
      """)
    #expect(
      Self.lines(result) == [
        "wodclock.yaml:5:12: '2026-02-30' is not a date",
        "wodclock.yaml:6:12: '7 dec' is not a date",
        "wodclock.yaml:8:30: two classes at 06:00 on 2026-12-07: 'fran' and 'Cindy'",
        "wodclock.yaml:9:7: missing key 'days' in a class of 'schedule'",
        "wodclock.yaml:10:69: '.bmp' is not a kind of media the clock shows",
      ])
  }
}
