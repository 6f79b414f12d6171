// SPDX-License-Identifier: MIT
// The whiteboard lines of a written workout: read, written back, explained, and refused with
// the line and column of the problem.

import ConfigFormat
import JSONKit
import Testing
import WorkoutCore
import WorkoutNotation

/// A written workout with whiteboard lines and what it must become.
struct WhiteboardGolden: CustomTestStringConvertible, Sendable {
  var text: String
  var lines: [WhiteboardLine]
  var media: String?
  var name: String
  var canonical: String
  var testDescription: String { "'\(text.replacing("\n", with: "⏎"))'" }

  init(
    _ text: String, lines: [WhiteboardLine], media: String? = nil, name: String,
    _ canonical: String
  ) {
    self.text = text
    self.lines = lines
    self.media = media
    self.name = name
    self.canonical = canonical
  }
}

/// A text refused, with the line and column (1-based) of the problem.
struct WhiteboardRefused: CustomTestStringConvertible, Sendable {
  var text: String
  var line: Int
  var column: Int
  var message: String
  var testDescription: String { "'\(text.replacing("\n", with: "⏎"))'" }

  init(_ text: String, line: Int, column: Int, _ message: String) {
    self.text = text
    self.line = line
    self.column = column
    self.message = message
  }
}

@Suite("Notation whiteboard lines")
struct WhiteboardNotationTests {
  static let accepted: [WhiteboardGolden] = [
    WhiteboardGolden(
      "amrap 20\n5 pull-ups\n10 push-ups\n15 air squats",
      lines: [
        WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups"),
        WhiteboardLine("15 air squats"),
      ],
      name: "amrap 20", "amrap 20\n5 pull-ups\n10 push-ups\n15 air squats"),
    WhiteboardGolden(
      "AMRAP 20:00\r\n  5 pull-ups  \r\n\r\n10 push-ups\r\n",
      lines: [WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups")],
      name: "amrap 20", "amrap 20\n5 pull-ups\n10 push-ups"),
    WhiteboardGolden(
      "21-15-9 for time cap 10\nThrusters 95/65 lb @thruster.webm\nPull-ups\nRx 95/65 lb\nScaled: ring rows",
      lines: [
        WhiteboardLine("Thrusters 95/65 lb", media: "thruster.webm"), WhiteboardLine("Pull-ups"),
        WhiteboardLine("Rx 95/65 lb"), WhiteboardLine("Scaled: ring rows"),
      ],
      name: "21-15-9 for time cap 10",
      "21-15-9 for time cap 10\nThrusters 95/65 lb @thruster.webm\nPull-ups\nRx 95/65 lb\nScaled: ring rows"
    ),
    WhiteboardGolden(
      "emom 12\n@emom.MP4\nPower cleans @clean.jpg\nBurpees",
      lines: [WhiteboardLine("Power cleans", media: "clean.jpg"), WhiteboardLine("Burpees")],
      media: "emom.MP4", name: "emom 12", "emom 12\n@emom.MP4\nPower cleans @clean.jpg\nBurpees"),
    WhiteboardGolden(
      "amrap 14 @cindy.png\nDeadlift @225\nemail coach@gym.example",
      lines: [WhiteboardLine("Deadlift @225"), WhiteboardLine("email coach@gym.example")],
      media: "cindy.png", name: "amrap 14",
      "amrap 14\n@cindy.png\nDeadlift @225\nemail coach@gym.example"),
    WhiteboardGolden(
      "tabata\n\tAir squats\twith a pause",
      lines: [WhiteboardLine("Air squats with a pause")], name: "tabata",
      "tabata\nAir squats with a pause"),
  ]

  static let refused: [WhiteboardRefused] = [
    WhiteboardRefused(
      "amrap 20\n10 burpees @burpee.mov", line: 2, column: 12,
      "'.mov' is not a kind of media the clock shows"),
    WhiteboardRefused(
      "amrap 20\n10 burpees @videos/burpee.webm", line: 2, column: 12,
      "a media file is named without a directory, found 'videos/burpee.webm'"),
    WhiteboardRefused(
      "amrap 20\n@a.png\n5 pull-ups\n@b.png", line: 4, column: 1,
      "the workout's media is named twice: '@a.png' and '@b.png'"),
    WhiteboardRefused(
      "amrap 20\n" + String(repeating: "x", count: 81), line: 2, column: 81,
      "a whiteboard line may have at most 80 characters, this one has 81"),
    WhiteboardRefused(
      "amrap 20\n" + (1...31).map { "\($0) burpees" }.joined(separator: "\n"), line: 32, column: 1,
      "a workout may have at most 30 whiteboard lines, this is line 31"),
    WhiteboardRefused(
      "amrap 20\n5 pull\u{7}ups", line: 2, column: 7,
      "a whiteboard line has a control character (U+0007)"),
    WhiteboardRefused(
      "\n\namarp 20\n5 pull-ups", line: 3, column: 1, "unknown word 'amarp': expected a workout"),
    WhiteboardRefused(
      "amrap 20 x\n5 pull-ups", line: 1, column: 10, "unexpected word 'x'"),
    WhiteboardRefused(
      "amrap 20\n" + String(repeating: "5 pull-ups\n", count: 200), line: 183, column: 1,
      "a written workout may have at most 2000 characters, this one has 2209"),
  ]

  @Test("whiteboard lines are read and written back", arguments: accepted)
  func reads(_ golden: WhiteboardGolden) throws {
    let plan = try WorkoutNotation.parse(golden.text).get()
    #expect(plan.whiteboard == golden.lines)
    #expect(plan.media == golden.media)
    #expect(plan.name == golden.name)
    #expect(plan.notation == golden.canonical)
    #expect(WorkoutNotation.write(plan) == golden.canonical)
    let again = try WorkoutNotation.parse(golden.canonical).get()
    #expect(again == plan)
  }

  @Test("problems of the whiteboard are reported at their line and column", arguments: refused)
  func refuses(_ refused: WhiteboardRefused) {
    guard case .failure(let error) = WorkoutNotation.parse(refused.text) else {
      Issue.record("accepted")
      return
    }
    let located = error.located(file: "workout", line: 1, column: 1)
    #expect(located.first?.location.line == refused.line)
    #expect(located.first?.location.column == refused.column)
    #expect(located.first?.message == refused.message)
  }

  @Test func theCaretSitsUnderTheProblemOnItsLine() {
    guard case .failure(let error) = WorkoutNotation.parse("amrap 20\n10 burpees @b.mov") else {
      Issue.record("accepted")
      return
    }
    #expect(
      error.rendered()
        == "workout:2:12: error: '.mov' is not a kind of media the clock shows\n10 burpees @b.mov\n"
        + "           ^~~~~~\nhint: use a JPEG, PNG, GIF, WebM or MP4 file: .jpg, .jpeg, .png, .gif,"
        + " .webm or .mp4\n")
    #expect(error.description == "line 2, column 12: '.mov' is not a kind of media the clock shows")
  }

  @Test func theStepsOfAnEMOMTakeTheMovementsInTurn() throws {
    let plan = try WorkoutNotation.parse(
      "emom 4 no countin\nPower cleans 135/95 lb\nRx 135/95 lb\nBurpees"
    ).get()
    let labels = try plan.compile().segments.map(\.label)
    #expect(labels == ["Power cleans 135/95 lb", "Burpees", "Power cleans 135/95 lb", "Burpees"])
  }

  @Test func explainPrintsTheWhiteboardAndJSONListsIt() throws {
    let explanation = try WorkoutNotation.explain(
      "amrap 20\n@cindy.mp4\n5 pull-ups @pull-up.webm\n10 push-ups\n15 air squats"
    ).get()
    #expect(
      explanation.text.contains(
        "\nwhiteboard:\n  (the whole workout: cindy.mp4)\n  5 pull-ups  [pull-up.webm]\n  10 push-ups\n"
          + "  15 air squats\n"))
    #expect(
      explanation.notation
        == "amrap 20\n@cindy.mp4\n5 pull-ups @pull-up.webm\n10 push-ups\n15 air squats")
    #expect(explanation.parts.first?.written == "amrap 20")
    let value = try JSONValue.parse(explanation.json.serialized())
    #expect(
      value["whiteboard"]
        == .array([.string("5 pull-ups"), .string("10 push-ups"), .string("15 air squats")]))
    #expect(value["whiteboard_media"] == .array([.string("pull-up.webm"), .null, .null]))
    #expect(value["media"] == .string("cindy.mp4"))
    let bare = try JSONValue.parse(try WorkoutNotation.explain("amrap 14").get().json.serialized())
    #expect(bare["whiteboard"] == .array([]))
    #expect(bare["media"] == .null)
    #expect(!(try WorkoutNotation.explain("amrap 14").get().text.contains("whiteboard")))
  }

  @Test func aPlanWhoseWhiteboardCannotBeWrittenHasNoNotation() {
    var plan = WorkoutPlan(name: "x", mode: .amrap(AMRAPParameters(time: .minutes(5))))
    plan.whiteboard = [WhiteboardLine("two\nlines")]
    #expect(WorkoutNotation.write(plan) == nil)
    plan.whiteboard = [WhiteboardLine("ok", media: "a/b.png")]
    #expect(WorkoutNotation.write(plan) == nil)
    plan.whiteboard = [WhiteboardLine("ok", media: "b.png")]
    #expect(WorkoutNotation.write(plan) == "amrap 5\nok @b.png")
  }
}
