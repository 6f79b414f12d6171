// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WorkoutCore

/// The `schedule:` section: how a gym owner writes classes, what is refused, and the calendar
/// that says which class is next and when it loads, across DST changes.
@Suite("Class schedule")
struct ScheduleTests {
  static let presets = """
    presets:
      fran:
        mode: for_time
        cap: 10m
      tabata:
        mode: tabata

    """

  static func rendered(_ schedule: String) -> String {
    LoaderTests.rendered(presets + schedule)
  }

  @Test("the classes as a gym owner writes them")
  func loads() throws {
    let config = try #require(
      configuration(
        Self.presets + """
          schedule:
            lead: 10m
            classes:
              - {days: mon-fri, at: "06:00", name: "6 AM WOD", workout: fran}
              - {days: [sat], at: "9:30", name: Open Gym, workout: tabata}
              - days: weekends
                at: 17:15
                workout: tabata
          """))
    let schedule = config.schedule
    #expect(schedule.lead == .minutes(10))
    #expect(schedule.classes.count == 3)
    #expect(schedule.classes[0].days == Weekday.weekdays)
    #expect(schedule.classes[0].time == TimeOfDay(hour: 6, minute: 0))
    #expect(schedule.classes[0].name == "6 AM WOD")
    #expect(schedule.classes[0].workout == .preset("fran"))
    #expect(schedule.classes[1].days == [.saturday])
    #expect(schedule.classes[1].time == TimeOfDay(hour: 9, minute: 30))
    // Without a name the class is called by its workout.
    #expect(schedule.classes[2].name == "tabata")
    #expect(schedule.classes[2].days == Weekday.weekends)
  }

  @Test("no schedule section: no classes, a lead of 5 minutes")
  func absent() throws {
    let config = try #require(configuration(Self.presets))
    #expect(config.schedule == ClassSchedule(lead: .minutes(5), classes: []))
  }

  @Test(
    "every way of writing days",
    arguments: [
      ("daily", Set(Weekday.allCases)),
      ("weekdays", Weekday.weekdays),
      ("Weekends", Weekday.weekends),
      ("Monday", [.monday]),
      ("\"mon, wed, fri\"", [.monday, .wednesday, .friday]),
      ("[tue, thurs]", [.tuesday, .thursday]),
      ("fri-mon", [.friday, .saturday, .sunday, .monday]),
      ("[mon-wed, sat]", [.monday, .tuesday, .wednesday, .saturday]),
    ] as [(String, Set<Weekday>)])
  func days(written: String, days: Set<Weekday>) throws {
    let config = try #require(
      configuration(
        Self.presets
          + "schedule:\n  classes:\n    - {days: \(written), at: \"06:00\", workout: fran}\n"))
    #expect(config.schedule.classes.first?.days == days)
  }

  @Test("a misspelt day points at it with a did-you-mean")
  func misspeltDay() {
    #expect(
      Self.rendered(
        "schedule:\n  classes:\n    - {days: [mon, thrusday], at: \"06:00\", workout: fran}\n")
          == """
          wodclock.yaml:9:20: error: unknown day 'thrusday' in 'days'
              - {days: [mon, thrusday], at: "06:00", workout: fran}
                             ^~~~~~~~
          hint: did you mean 'thursday'? write a day ('mon' or 'monday'), a range ('mon-fri'), 'daily', 'weekdays' or 'weekends'

          """)
  }

  @Test("a bad end of a range is named")
  func badRange() {
    let output = Self.rendered(
      "schedule:\n  classes:\n    - {days: mon-fry, at: \"06:00\", workout: fran}\n")
    #expect(output.contains("error: unknown day 'fry' in 'days'"))
    #expect(output.contains("hint: did you mean 'fri'?"))
  }

  @Test("a workout that is neither a preset nor notation is refused, with a did-you-mean")
  func notPreset() {
    #expect(
      Self.rendered("schedule:\n  classes:\n    - {days: daily, at: \"06:00\", workout: frna}\n")
        == """
        wodclock.yaml:9:43: error: 'frna' is not a preset name or a workout
            - {days: daily, at: "06:00", workout: frna}
                                                  ^~~~
        hint: did you mean 'fran'? or write a workout as on the whiteboard: 'amrap 20'

        """)
    // The notation is read, and its own diagnostics point into the string.
    #expect(
      Self.rendered(
        "schedule:\n  classes:\n    - {days: daily, at: \"06:00\", workout: \"amrap 20\"}\n"
      )
      .isEmpty)
    let misspelt = Self.rendered(
      "schedule:\n  classes:\n    - {days: daily, at: \"06:00\", workout: \"amarp 20\"}\n")
    #expect(misspelt.contains("wodclock.yaml:9:44: error:"), "\(misspelt)")
    #expect(misspelt.contains("amrap"), "\(misspelt)")
  }

  @Test("two classes at the same time on the same day are refused, the first one noted")
  func duplicate() {
    let output = Self.rendered(
      """
      schedule:
        classes:
          - {days: mon-fri, at: "06:00", name: Early, workout: fran}
          - {days: [sat, wed], at: "6:00", name: Hero, workout: tabata}

      """)
    #expect(
      output == """
        wodclock.yaml:10:30: error: two classes at 06:00 on Wed: 'Early' and 'Hero'
            - {days: [sat, wed], at: "6:00", name: Hero, workout: tabata}
                                     ^~~~~~
        hint: the clock loads one workout for a start; move one class or remove it
        wodclock.yaml:9:27: note: 'Early' is at the same time here
            - {days: mon-fri, at: "06:00", name: Early, workout: fran}
                                  ^~~~~~~

        """)
  }

  @Test("a day named twice in one class is a warning")
  func repeatedDay() {
    let result = load(
      Self.presets
        + "schedule:\n  classes:\n    - {days: [weekdays, mon], at: \"06:00\", workout: fran}\n")
    #expect(result.configuration != nil)
    #expect(result.warnings.map(\.message) == ["'days' names Mon more than once"])
  }

  @Test("missing keys, a bad time and a lead out of range")
  func refusals() {
    let output = Self.rendered(
      """
      schedule:
        lead: 13h
        clases: []
        classes:
          - {days: daily, workout: fran}
          - {days: daily, at: "25:00", workout: fran}

      """)
    #expect(output.contains("error: 'lead' must be between 0s and 12h, got 13h"))
    #expect(output.contains("error: unknown key 'clases' in 'schedule'"))
    #expect(output.contains("hint: did you mean 'classes'?"))
    #expect(output.contains("error: missing key 'at' in a class of 'schedule'"))
    #expect(output.contains("error: hour must be between 0 and 23 in '25:00'"))
  }

  @Test("print-config writes the schedule back")
  func printed() throws {
    let config = try #require(
      configuration(
        Self.presets + """
          schedule:
            lead: 90s
            classes:
              - {days: "mon, wed, fri", at: "06:00", name: "6 AM: WOD", workout: fran}
              - {days: daily, at: "18:30", workout: tabata}
              - {days: sun-sat, at: "12:00", name: Noon, workout: tabata}
          """))
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    #expect(
      printed.contains(
        """
        schedule:
          lead: 90s
          classes:
            - {days: [mon, wed, fri], at: "06:00", name: "6 AM: WOD", workout: fran}
            - {days: daily, at: "18:30", name: tabata, workout: tabata}
            - {days: daily, at: "12:00", name: Noon, workout: tabata}

        """))
    PrinterTests.checkRoundTrip(config)
    let empty = try #require(configuration(Self.presets))
    #expect(
      ConfigurationPrinter.render(empty, plugins: TestPlugins.all).contains(
        "schedule:\n  lead: 5m\n  classes: []\n"))
    PrinterTests.checkRoundTrip(empty)
  }
}
