// SPDX-License-Identifier: MIT
// The schedule section: the gym's classes, each on some weekdays at a time of day, with the
// workout the clock loads for it a little before it starts.
//
//   schedule:
//     lead: 5m
//     classes:
//       - {days: mon-fri, at: "06:00", name: "6 AM WOD", workout: fran}
//       - {days: [sat], at: "09:30", name: Open Gym, workout: "amrap 20"}
//       - {on: 2026-12-07, at: "06:00", workout: cindy}      # that Monday's 6 AM class
//       - on: [2026-12-08]
//         at: "06:00"
//         workout: ["21-15-9 for time cap 10", "Thrusters 95/65 lb", "Pull-ups"]

import ConfigFormat
import WorkoutCore
import WorkoutNotation

/// The bounds of the schedule section.
public enum ScheduleLimits {
  /// How long before its start a class may be loaded.
  public static let lead = TimeSpan.zero...TimeSpan.hours(12)
  /// The most classes a schedule holds (a week of a busy gym is well under it).
  public static let classes = 200
}

extension Loader {
  static let scheduleKeys = ["lead", "classes"]
  static let classKeys = ["days", "on", "at", "name", "workout"]
  static let classExample = "{days: mon-fri, at: \"06:00\", name: \"6 AM WOD\", workout: fran}"
  /// The words `days` takes besides single days and ranges.
  static let dayGroups: [String: Set<Weekday>] = [
    "daily": Set(Weekday.allCases), "weekdays": Weekday.weekdays, "weekends": Weekday.weekends,
  ]
  /// Every spelling of a day `days` takes, lower case.
  static let dayNames: [String: Weekday] = {
    var names: [String: Weekday] = [:]
    for day in Weekday.allCases {
      names[day.shortName] = day
      names[String(describing: day)] = day
    }
    names["tues"] = .tuesday
    names["thur"] = .thursday
    names["thurs"] = .thursday
    return names
  }()
  /// What a did-you-mean may suggest for a misspelt day.
  static let daySuggestions =
    Weekday.allCases.map { String(describing: $0) } + Weekday.allCases.map(\.shortName)
    + ["daily", "weekdays", "weekends"]

  mutating func readSchedule(_ node: ConfigNode?) -> ClassSchedule {
    var schedule = ClassSchedule()
    guard let node,
      let mapping = checker.mapping(
        node, what: "'schedule'",
        hint: "write 'lead:' and 'classes:' indented below it, as in 'classes:\n"
          + "  - \(Self.classExample)'")
    else { return schedule }
    for entry in checker.checkKeys(mapping, allowed: Self.scheduleKeys, context: "in 'schedule'") {
      if entry.key.text == "lead" {
        if let span = checker.duration(entry.value, key: "lead", in: ScheduleLimits.lead) {
          schedule.lead = span
        }
      } else {
        schedule.classes = readClasses(entry.value)
      }
    }
    return schedule
  }

  private mutating func readClasses(_ node: ConfigNode) -> [ScheduledClass] {
    guard let items = checker.list(node, key: "classes", example: Self.classExample) else {
      return []
    }
    if items.count > ScheduleLimits.classes {
      checker.error(
        "'classes' lists \(items.count) classes, more than the \(ScheduleLimits.classes) allowed",
        at: node.range, hint: "a class held on several days needs one entry, as in 'days: mon-fri'")
      return []
    }
    var classes: [ScheduledClass] = []
    /// Where each day and time was first given, for duplicates.
    var taken: [Int: (name: String, range: SourceRange)] = [:]
    /// Where each date and time was first given.
    var takenDates: [Int: (name: String, range: SourceRange)] = [:]
    for item in items {
      guard let (scheduled, atRange) = readClass(item) else { continue }
      for date in scheduled.dates.sorted() {
        let slot = date.daysSinceEpoch * 1440 + scheduled.time.minutesSinceMidnight
        if let first = takenDates[slot] {
          checker.error(
            "two classes at \(ScheduleText.time(scheduled.time)) on \(date): "
              + "'\(first.name)' and '\(scheduled.name)'", at: atRange,
            hint: "the clock loads one workout for a start; move one class or remove it",
            notes: [.note("'\(first.name)' is at the same time here", at: first.range)])
          break
        }
        takenDates[slot] = (scheduled.name, atRange)
      }
      for day in scheduled.days.sorted() {
        let slot = day.rawValue * 1440 + scheduled.time.minutesSinceMidnight
        if let first = taken[slot] {
          checker.error(
            "two classes at \(ScheduleText.time(scheduled.time)) on \(day.title): "
              + "'\(first.name)' and '\(scheduled.name)'", at: atRange,
            hint: "the clock loads one workout for a start; move one class or remove it",
            notes: [.note("'\(first.name)' is at the same time here", at: first.range)])
          break
        }
        taken[slot] = (scheduled.name, atRange)
      }
      classes.append(scheduled)
    }
    return classes
  }

  /// One class and where its `at` stands; nil after reporting what is wrong with it.
  private mutating func readClass(_ node: ConfigNode) -> (ScheduledClass, SourceRange)? {
    guard case .mapping(let mapping) = node else {
      checker.error(
        "expected a class such as '\(Self.classExample)', found \(SchemaChecker.found(node))",
        at: node.range, hint: "a class is a mapping with 'days', 'at' and 'workout'")
      return nil
    }
    let errorsBefore = checker.bag.errorCount
    checker.checkKeys(mapping, allowed: Self.classKeys, context: "in a class of 'schedule'")
    for key in ["days", "at", "workout"] where mapping[key] == nil && !mapping.isIncomplete {
      if key == "days" && mapping["on"] != nil { continue }
      checker.error(
        "missing key '\(key)' in a class of 'schedule'", at: node.range,
        hint: key == "days"
          ? "a class needs 'days' (mon-fri) or 'on' (a date, 2026-12-07), as in "
            + "'\(Self.classExample)'"
          : "a class needs 'days' or 'on', 'at' and 'workout', as in '\(Self.classExample)'")
    }
    let days: Set<Weekday>? = mapping["days"].map { readDays($0) } ?? []
    let dates: Set<LocalDate>? = mapping["on"].map { readDates($0) } ?? []
    var time: ConfigFormat.TimeOfDay?
    if let atNode = mapping["at"],
      let scalar = checker.scalar(atNode, key: "at", expected: "a time of day such as '06:00'")
    {
      time = checker.bag.take(ValueSyntax.timeOfDay(scalar))
    }
    let workout = mapping["workout"].flatMap { node -> ScheduledWorkout? in
      // `[amrap 20, 5 pull-ups, ...]`: a workout with its whiteboard.
      if case .sequence = node {
        return readWrittenWorkout(node, key: "workout", defaultCountIn: .zero).map {
          .notation($0.text)
        }
      }
      return checker.text(node, key: "workout", maximumLength: WorkoutNotation.maximumLength)
        .flatMap { resolveScheduledWorkout($0, at: node) }
    }
    var name = workout.map(defaultClassName)
    if let node = mapping["name"] {
      name = checker.text(node, key: "name", maximumLength: TextLimits.label)
    }
    guard let days, let dates, let time, let workout, let name, let atNode = mapping["at"],
      checker.bag.errorCount == errorsBefore
    else { return nil }
    return (
      ScheduledClass(days: days, dates: dates, time: time, name: name, workout: workout),
      atNode.range
    )
  }

  /// What a class without a `name` is called: its preset, its named workout (`Cindy`), or the
  /// first line of its workout, shortened as a workout's name is.
  func defaultClassName(_ workout: ScheduledWorkout) -> String {
    switch workout {
    case .preset(let name): return name
    case .notation(let text):
      if let named = library.workout(named: text) { return named.name }
      let line = text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
      return WorkoutNotation.shortName(String(line))
    }
  }

  /// The dates of `on:`: one date (`2026-12-07`) or a list of them.
  private mutating func readDates(_ node: ConfigNode) -> Set<LocalDate>? {
    let items: [ConfigNode]
    if case .sequence(let sequence) = node { items = sequence.items } else { items = [node] }
    if items.isEmpty {
      checker.error(
        "'on' is empty", at: node.range,
        hint: "name at least one date, as in 'on: 2026-12-07' or 'on: [2026-12-07, 2026-12-14]'")
      return nil
    }
    var dates: Set<LocalDate> = []
    var failed = false
    for item in items {
      guard
        let scalar = checker.scalar(item, key: "on", expected: "a date such as '2026-12-07'")
      else {
        failed = true
        continue
      }
      guard let date = Self.date(scalar.text) else {
        checker.error(
          "'\(scalar.text)' is not a date", at: scalar.range,
          hint: "write the date as year-month-day, as in '2026-12-07'")
        failed = true
        continue
      }
      if !dates.insert(date).inserted {
        checker.warning(
          "'on' names \(date) more than once", at: scalar.range,
          hint: "each date holds the class once; remove the repeat")
      }
    }
    return failed ? nil : dates
  }

  /// `2026-12-07` (ISO 8601's calendar date, years 2000 to 2999), nil for anything else or a
  /// day the month does not have.
  static func date(_ text: String) -> LocalDate? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (2000...2999).contains(year), (1...12).contains(month), day >= 1
    else { return nil }
    let date = LocalDate(year: year, month: month, day: day)
    // A day past the month's end comes back as another date.
    guard LocalDate(daysSinceEpoch: date.daysSinceEpoch) == date else { return nil }
    return date
  }

  /// The days of `days:`: a day (`mon`, `monday`), a range (`mon-fri`, which may wrap round the
  /// weekend: `fri-mon`), `daily`, `weekdays` or `weekends`, alone, separated by commas or as a
  /// list.
  private mutating func readDays(_ node: ConfigNode) -> Set<Weekday>? {
    var words: [(text: Substring, range: SourceRange)] = []
    switch node {
    case .sequence(let sequence):
      for item in sequence.items {
        guard
          let scalar = checker.scalar(item, key: "days", expected: "a day such as 'mon'")
        else { return nil }
        words.append((Substring(scalar.text), scalar.range))
      }
    default:
      guard
        let scalar = checker.scalar(
          node, key: "days", expected: "days such as 'mon-fri', 'daily' or '[mon, wed, fri]'")
      else { return nil }
      for word in scalar.text.split(separator: ",", omittingEmptySubsequences: false) {
        words.append((word, scalar.range))
      }
    }
    if words.isEmpty {
      checker.error(
        "'days' is empty", at: node.range,
        hint: "name at least one day, as in 'mon-fri', 'daily' or '[mon, wed, fri]'")
      return nil
    }
    var days: Set<Weekday> = []
    var failed = false
    for word in words {
      guard let named = readDayWord(String(word.text), at: word.range) else {
        failed = true
        continue
      }
      if let repeated = named.intersection(days).min() {
        checker.warning(
          "'days' names \(repeated.title) more than once", at: word.range,
          hint: "each day holds the class once; remove the repeat")
      }
      days.formUnion(named)
    }
    return failed ? nil : days
  }

  private mutating func readDayWord(_ written: String, at range: SourceRange) -> Set<Weekday>? {
    var word = String(written.lowercased().drop { $0 == " " })
    while word.last == " " { word.removeLast() }
    if let group = Self.dayGroups[word] { return group }
    if let day = Self.dayNames[word] { return [day] }
    let ends = word.split(separator: "-", omittingEmptySubsequences: false)
    if ends.count == 2, let first = Self.dayNames[String(ends[0])],
      let last = Self.dayNames[String(ends[1])]
    {
      var days: Set<Weekday> = [first]
      var day = first
      while day != last {
        day = Weekday(rawValue: (day.rawValue + 1) % 7)!
        days.insert(day)
      }
      return days
    }
    let unknown = ends.count == 2 ? ends.first { Self.dayNames[String($0)] == nil } : nil
    let shown = unknown.map(String.init) ?? word
    let listing =
      "write a day ('mon' or 'monday'), a range ('mon-fri'), 'daily', 'weekdays' or 'weekends'"
    checker.error(
      "unknown day '\(shown)' in 'days'", at: range,
      hint: SchemaChecker.didYouMean(shown, among: Self.daySuggestions).map { "\($0) \(listing)" }
        ?? listing)
    return nil
  }

  /// What the schedule's `workout` text names: the one place a class's workout is resolved.
  /// A preset's name is taken as it is; any other text is read as the whiteboard notation
  /// (`amrap 20`). A text that is neither is reported: as a misspelt preset when it is one word
  /// close to a preset's name, else with the notation's own diagnostics inside the string.
  mutating func resolveScheduledWorkout(_ text: String, at node: ConfigNode) -> ScheduledWorkout? {
    if presetNameSet.contains(text) { return .preset(text) }
    // A name of the library that is also a preset's (`Fran`, `fran`): the preset wins.
    if library.workout(named: text) != nil,
      let preset = presetNames.first(where: { WorkoutLibrary.sameName($0, text) })
    {
      return .preset(preset)
    }
    let parsed = WorkoutNotation.parse(text, library: library)
    if case .success = parsed { return .notation(text) }
    if presetNamesMayBeIncomplete { return nil }
    if !text.contains(" "), let match = closestMatch(to: text, among: presetNames) {
      checker.error(
        "'\(text)' is not a preset name or a workout", at: node.range,
        hint: "did you mean '\(match)'? or write a workout as on the whiteboard: 'amrap 20'")
      return nil
    }
    if case .failure(let error) = parsed, case .scalar(let scalar) = node {
      for diagnostic in Self.diagnostics(of: error, in: scalar) { checker.bag.append(diagnostic) }
    } else {
      checker.error("'\(text)' is not a preset name or a workout", at: node.range)
    }
    return nil
  }
}

/// The schedule's values written the way the file and people write them.
public enum ScheduleText {
  /// `06:00`: two digits each, 24-hour, as `at:` takes it.
  public static func time(_ time: ConfigFormat.TimeOfDay) -> String {
    (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "")
      + "\(time.minute)"
  }

  /// `2026-12-07`, or `[2026-12-07, 2026-12-14]` in order.
  public static func dates(_ dates: Set<LocalDate>) -> String {
    let sorted = dates.sorted().map(\.description)
    return sorted.count == 1 ? sorted[0] : "[" + sorted.joined(separator: ", ") + "]"
  }

  /// `daily`, `weekdays`, `weekends`, or the days from Monday: `[mon, wed, fri]`, `[sun]`.
  public static func days(_ days: Set<Weekday>) -> String {
    if days == Set(Weekday.allCases) { return "daily" }
    if days == Weekday.weekdays { return "weekdays" }
    if days == Weekday.weekends { return "weekends" }
    let fromMonday = days.sorted { ($0.rawValue + 6) % 7 < ($1.rawValue + 6) % 7 }
    return "[" + fromMonday.map(\.shortName).joined(separator: ", ") + "]"
  }
}
