// SPDX-License-Identifier: MIT

import ConfigFormat
import Testing

/// A rejected value: its text, the expected message and, when given, the expected hint.
struct RejectedValue: CustomTestStringConvertible, Sendable {
  var text: String
  var message: String
  var hint: String?
  var testDescription: String { "'\(text)'" }

  init(_ text: String, _ message: String, hint: String? = nil) {
    self.text = text
    self.message = message
    self.hint = hint
  }
}

/// Checks a failure's message, hint and that it underlines the whole scalar.
private func expectFailure<Value>(
  _ result: Result<Value, Diagnostic>, _ rejected: RejectedValue,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  guard case .failure(let diagnostic) = result else {
    Issue.record("'\(rejected.text)' was accepted", sourceLocation: sourceLocation)
    return
  }
  #expect(diagnostic.message == rejected.message, sourceLocation: sourceLocation)
  if let hint = rejected.hint {
    #expect(diagnostic.hint == hint, sourceLocation: sourceLocation)
  }
  #expect(diagnostic.severity == .error, sourceLocation: sourceLocation)
  #expect(
    diagnostic.location == SourceLocation(file: testFile, line: 3, column: 7),
    sourceLocation: sourceLocation)
  #expect(diagnostic.length == max(1, rejected.text.count), sourceLocation: sourceLocation)
}

@Suite("Value syntax")
struct ValueSyntaxTests {
  // MARK: Durations

  @Test(
    "durations",
    arguments: [
      ("20s", Duration.seconds(20)), ("1m30s", .seconds(90)), ("90s", .seconds(90)),
      ("1m", .seconds(60)), ("2h", .seconds(7200)), ("1h30m", .seconds(5400)),
      ("500ms", .milliseconds(500)), ("1.5s", .milliseconds(1500)), ("1:30", .seconds(90)),
      ("1:02:03", .seconds(3723)), ("0:05", .seconds(5)), ("10:00", .seconds(600)),
      ("0s", .zero), ("1h2m3s4ms", .milliseconds(3_723_004)), ("1.25m", .seconds(75)),
      ("0.001s", .milliseconds(1)),
      // Minutes as the whiteboard writes them, and a space before a unit.
      ("5min", .seconds(300)), ("20 min", .seconds(1200)), ("20 mins", .seconds(1200)),
      ("1h 30min", .seconds(5400)), ("5 s", .seconds(5)), ("1min30s", .seconds(90)),
    ])
  func duration(text: String, expected: Duration) throws {
    #expect(try ValueSyntax.duration(scalar(text)).get() == expected)
  }

  @Test(
    "a bare number for a workout's length hints at minutes",
    arguments: [
      RejectedValue("20", "a duration needs a unit", hint: "write '20m' or '20:00'"),
      RejectedValue("90", "a duration needs a unit", hint: "write '90m' or '1:30:00'"),
      RejectedValue("1.5", "a duration needs a unit", hint: "write '1.5m'"),
      RejectedValue(
        "9999999999", "a duration needs a unit", hint: "write '9999999999m'"),
    ])
  func bareWorkoutLength(_ rejected: RejectedValue) {
    expectFailure(ValueSyntax.duration(scalar(rejected.text), of: .workoutLength), rejected)
  }

  @Test(
    "malformed durations",
    arguments: [
      RejectedValue("90", "a duration needs a unit", hint: "write '90s' or '1:30'"),
      RejectedValue("5", "a duration needs a unit", hint: "write '5s' or '0:05'"),
      RejectedValue("1.5", "a duration needs a unit", hint: "write '1.5s'"),
      RejectedValue("", "expected a duration like '20s' or '1:30', found nothing"),
      RejectedValue("-5s", "a duration cannot be negative, found '-5s'"),
      RejectedValue(
        "5x", "unknown duration unit 'x' in '5x'",
        hint: "use h, m (or min), s or ms, as in '1m30s', '20 min' or '500ms'"),
      RejectedValue("5minutes", "unknown duration unit 'minutes' in '5minutes'"),
      RejectedValue(
        "1m5min", "duration units must go from hours down to milliseconds, each once, in '1m5min'"),
      RejectedValue(
        "30s1m", "duration units must go from hours down to milliseconds, each once, in '30s1m'"),
      RejectedValue(
        "1m1m", "duration units must go from hours down to milliseconds, each once, in '1m1m'"),
      RejectedValue("1m30", "a duration needs a unit after '30' in '1m30'", hint: "write '1m30s'"),
      RejectedValue("1:75", "seconds must be between 00 and 59 in '1:75'"),
      RejectedValue("1:60:00", "minutes must be between 00 and 59 in '1:60:00'"),
      RejectedValue(
        "1:5", "expected a duration like '1:30' (m:ss) or '1:02:03' (h:mm:ss), found '1:5'"),
      RejectedValue(
        "1:2:3:4", "expected a duration like '1:30' (m:ss) or '1:02:03' (h:mm:ss), found '1:2:3:4'"),
      RejectedValue("abc", "expected a duration like '20s', '1m30s' or '1:30', found 'abc'"),
      RejectedValue("1.s", "expected a duration like '20s', '1m30s' or '1:30', found '1.s'"),
      RejectedValue("5 5s", "expected a duration like '20s', '1m30s' or '1:30', found '5 5s'"),
      RejectedValue("1.0005s", "durations are precise to the millisecond, found '1.0005s'"),
    ])
  func malformedDuration(_ rejected: RejectedValue) {
    expectFailure(ValueSyntax.duration(scalar(rejected.text)), rejected)
  }

  // MARK: Colours

  @Test(
    "hexadecimal colours",
    arguments: [
      ("#ff8800", RGBColor(red: 255, green: 136, blue: 0)),
      ("#F80", RGBColor(red: 255, green: 136, blue: 0)),
      ("#000000", RGBColor(red: 0, green: 0, blue: 0)),
      ("#123abc", RGBColor(red: 0x12, green: 0x3A, blue: 0xBC)),
    ])
  func hexColor(text: String, expected: RGBColor) throws {
    #expect(try ValueSyntax.hexColor(scalar(text))?.get() == expected)
  }

  @Test("names are left to the palette", arguments: ["orange", "red", "", "ff8800"])
  func paletteNames(text: String) {
    #expect(ValueSyntax.hexColor(scalar(text)) == nil)
  }

  @Test("malformed hexadecimal colours", arguments: ["#12345", "#ggg", "#", "#ff88001"])
  func malformedHexColor(text: String) throws {
    let result = try #require(ValueSyntax.hexColor(scalar(text)))
    expectFailure(
      result,
      RejectedValue(
        text, "expected a colour like '#ff8800' or '#f80', found '\(text)'",
        hint: "write '#' and six hexadecimal digits (red, green, blue)"))
  }

  // MARK: Percentages

  @Test("percentages", arguments: [("80%", 80), ("0%", 0), ("100%", 100), ("7%", 7)])
  func percentage(text: String, expected: Int) throws {
    #expect(try ValueSyntax.percentage(scalar(text), name: "brightness").get() == expected)
  }

  @Test(
    "malformed percentages",
    arguments: [
      RejectedValue("150%", "'brightness' must be between 0% and 100%, got 150%"),
      RejectedValue("-5%", "'brightness' must be between 0% and 100%, got -5%"),
      RejectedValue("80", "expected a percentage like '80%', found '80'", hint: "write '80%'"),
      RejectedValue("50.5%", "a percentage must be a whole number, found '50.5%'"),
      RejectedValue("abc%", "expected a percentage like '80%', found 'abc%'"),
      RejectedValue("bright", "expected a percentage like '80%', found 'bright'"),
    ])
  func malformedPercentage(_ rejected: RejectedValue) {
    expectFailure(ValueSyntax.percentage(scalar(rejected.text), name: "brightness"), rejected)
  }

  // MARK: Times of day

  @Test(
    "times of day",
    arguments: [
      ("21:00", 21, 0), ("06:30", 6, 30), ("6:30", 6, 30), ("0:00", 0, 0), ("23:59", 23, 59),
    ])
  func timeOfDay(text: String, hour: Int, minute: Int) throws {
    let time = try ValueSyntax.timeOfDay(scalar(text)).get()
    #expect(time == TimeOfDay(hour: hour, minute: minute))
    #expect(time.minutesSinceMidnight == hour * 60 + minute)
  }

  @Test(
    "malformed times of day",
    arguments: [
      RejectedValue("24:00", "hour must be between 0 and 23 in '24:00'"),
      RejectedValue("6:75", "minutes must be between 00 and 59 in '6:75'"),
      RejectedValue(
        "6:5", "expected a time of day like '06:30' or '21:00', found '6:5'",
        hint: "write hours (0–23), ':' and two digits of minutes"),
      RejectedValue("630", "expected a time of day like '06:30' or '21:00', found '630'"),
      RejectedValue("06:30:00", "expected a time of day like '06:30' or '21:00', found '06:30:00'"),
      RejectedValue("", "expected a time of day like '06:30' or '21:00', found ''"),
      RejectedValue("noon", "expected a time of day like '06:30' or '21:00', found 'noon'"),
    ])
  func malformedTimeOfDay(_ rejected: RejectedValue) {
    expectFailure(ValueSyntax.timeOfDay(scalar(rejected.text)), rejected)
  }

  @Test("times of day order by the clock")
  func timeOrdering() {
    #expect(TimeOfDay(hour: 6, minute: 30) < TimeOfDay(hour: 21, minute: 0))
    #expect(!(TimeOfDay(hour: 21, minute: 0) < TimeOfDay(hour: 6, minute: 30)))
  }

  // MARK: Booleans

  @Test(
    "YAML 1.2 core booleans",
    arguments: [
      ("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false),
      ("FALSE", false),
    ])
  func boolean(text: String, expected: Bool) throws {
    #expect(try ValueSyntax.boolean(scalar(text)).get() == expected)
  }

  @Test(
    "YAML 1.1 words and other text are not booleans",
    arguments: [
      RejectedValue(
        "yes", "expected true or false, found 'yes'",
        hint: "write 'true'; only YAML 1.1 tools read 'yes' as a boolean"),
      RejectedValue(
        "on", "expected true or false, found 'on'",
        hint: "write 'true'; only YAML 1.1 tools read 'on' as a boolean"),
      RejectedValue(
        "No", "expected true or false, found 'No'",
        hint: "write 'false'; only YAML 1.1 tools read 'No' as a boolean"),
      RejectedValue(
        "off", "expected true or false, found 'off'",
        hint: "write 'false'; only YAML 1.1 tools read 'off' as a boolean"),
      RejectedValue("1", "expected true or false, found '1'"),
      RejectedValue("maybe", "expected true or false, found 'maybe'"),
    ])
  func notBoolean(_ rejected: RejectedValue) {
    expectFailure(ValueSyntax.boolean(scalar(rejected.text)), rejected)
    if rejected.text == "maybe" {
      #expect((try? ValueSyntax.boolean(scalar("maybe")).get()) == nil)
    }
  }

  // MARK: Integers

  @Test("integers within range", arguments: [("5", 5), ("1", 1), ("999", 999), ("+7", 7)])
  func integer(text: String, expected: Int) throws {
    #expect(try ValueSyntax.integer(scalar(text), name: "rounds", in: 1...999).get() == expected)
  }

  @Test("negative integers when the range allows them")
  func negativeInteger() throws {
    #expect(try ValueSyntax.integer(scalar("-3"), name: "offset", in: -10...10).get() == -3)
  }

  @Test(
    "integers out of range or malformed",
    arguments: [
      RejectedValue("0", "'rounds' must be between 1 and 999, got 0"),
      RejectedValue("1000", "'rounds' must be between 1 and 999, got 1000"),
      RejectedValue("-1", "'rounds' must be between 1 and 999, got -1"),
      RejectedValue(
        "99999999999999999999999", "'rounds' must be between 1 and 999, got 99999999999999999999999"
      ),
      RejectedValue("abc", "'rounds' must be a whole number, got 'abc'"),
      RejectedValue("5.0", "'rounds' must be a whole number, got '5.0'"),
      RejectedValue("", "'rounds' must be a whole number, got ''"),
      RejectedValue("-", "'rounds' must be a whole number, got '-'"),
    ])
  func malformedInteger(_ rejected: RejectedValue) {
    expectFailure(ValueSyntax.integer(scalar(rejected.text), name: "rounds", in: 1...999), rejected)
  }
}
