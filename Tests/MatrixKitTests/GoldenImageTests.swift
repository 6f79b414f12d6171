// SPDX-License-Identifier: MIT
// Every mode on every standard panel size, compared with reviewed golden PNGs, in the built-in
// font and, for the scenes with words and counters, in a BDF font. Regenerate with
// `WODCLOCK_UPDATE_GOLDEN=1 swift test --filter GoldenImageTests`, look at every changed image,
// and commit them with the change that moved them.

import DisplayKit
import MatrixKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct GoldenImageTests {
  static let sizes = [(32, 16), (64, 32), (128, 32), (128, 64)]
  static let morning = TimeOfDay(hour: 9, minute: 5, second: 30)

  /// The scenes: a name and a snapshot from the real engine at a chosen instant.
  static func scenes() throws -> [(String, WorkoutSnapshot)] {
    var scenes: [(String, WorkoutSnapshot)] = []
    var clock = try Workout(.clock(ClockFace(twentyFourHour: true)), name: "clock")
    scenes.append(("clock", clock.snapshot(1)))

    var emom = try Workout(
      .emom(EMOMParameters(interval: .seconds(60), rounds: 10)), countIn: 10, name: "EMOM 10")
    try emom.start()
    scenes.append(("emom-countin", emom.snapshot(3)))
    scenes.append(("emom-running", emom.snapshot(85)))

    var tabata = try Workout(
      .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 8)),
      name: "Tabata")
    try tabata.start()
    scenes.append(("tabata-rest", tabata.snapshot(25)))

    var amrap = try Workout(.amrap(AMRAPParameters(time: .seconds(720))), name: "AMRAP 12")
    try amrap.start()
    try amrap.apply(.lap, at: 100)
    try amrap.apply(.lap, at: 200)
    scenes.append(("amrap-running", amrap.snapshot(250)))
    try amrap.apply(.pause, at: 300)
    scenes.append(("amrap-paused", amrap.snapshot(300.2)))

    var forTime = try Workout(.forTime(ForTimeParameters(cap: .seconds(600))), name: "Fran")
    try forTime.start()
    scenes.append(("fortime-running", forTime.snapshot(300)))
    scenes.append(("fortime-capped", forTime.snapshot(700)))

    var tempo = try Workout(
      .tempo(
        TempoParameters(tempo: Tempo(halfSeconds: [6, 2, 2, 0]), reps: 6, sets: 3)),
      name: "Squat 3-1-1-0")
    try tempo.start()
    scenes.append(("tempo-eccentric", tempo.snapshot(1.5)))
    scenes.append(("tempo-concentric", tempo.snapshot(4.5)))
    return scenes
  }

  @Test(arguments: sizes.map { "\($0.0)x\($0.1)" })
  func everyModeMatchesItsGoldenImage(size: String) throws {
    let parts = size.split(separator: "x").compactMap { Int($0) }
    let renderer = MatrixRenderer(width: parts[0], height: parts[1])
    for (name, snapshot) in try Self.scenes() {
      // The paused scene at 700 ms shows the dark half of the blink; others the lit half.
      let milliseconds: Int64 = name.hasSuffix("paused") ? 700 : 200
      let frame = renderer.render(snapshot, timeOfDay: Self.morning, milliseconds: milliseconds)
      #expect(matchesGolden(frame, "\(name)-\(size)"), "\(name) on \(size)")
    }
  }

  /// The scenes whose words, counters and captions show a font.
  static let textScenes: Set = [
    "emom-countin", "emom-running", "tabata-rest", "amrap-running", "fortime-capped",
    "tempo-eccentric",
  ]

  /// Fixtures/caps-8.bdf: proportional capitals 7 rows tall with a one-row descent, so a line
  /// is 8 rows (drawn at its own size on 64-row panels). Lower-case preset names show in
  /// capitals. It does not fit a 16-row panel (see `aTallFontLeavesTheDigitsTheirRoom`).
  @Test(arguments: ["64x32", "128x32", "128x64"])
  func aBDFFontMatchesItsGoldenImages(size: String) throws {
    let parts = size.split(separator: "x").compactMap { Int($0) }
    let font = try CaptionFont(bdf: fixture("caps-8.bdf"))
    let renderer = MatrixRenderer(width: parts[0], height: parts[1], font: font)
    #expect(renderer.font == font)
    #expect(renderer.layout.label.height == 8)
    for (name, snapshot) in try Self.scenes() where Self.textScenes.contains(name) {
      let frame = renderer.render(snapshot, timeOfDay: Self.morning, milliseconds: 200)
      #expect(matchesGolden(frame, "caps8-\(name)-\(size)"), "\(name) on \(size)")
    }
  }
}

/// The movement line of a workout with a whiteboard: the minute's movement under the digits,
/// the next one during a rest, and a line too wide for the panel scrolling with the step's time.
@Suite struct MovementLineGoldenTests {
  static let lines = [
    WhiteboardLine("10 burpees"), WhiteboardLine("15 kettlebell swings 24/16 kg"),
    WhiteboardLine("Rx: chest to floor"),
  ]

  static func scenes() throws -> [(String, WorkoutSnapshot)] {
    let mode = WorkoutMode.intervals(
      IntervalParameters(work: .seconds(40), rest: .seconds(20), rounds: 4))
    var intervals = try Workout(mode, name: "40/20")
    intervals.engine = try WorkoutEngine(
      plan: WorkoutPlan(name: "40/20", mode: mode, countIn: .zero, whiteboard: lines))
    try intervals.start()
    return [
      ("whiteboard-work", intervals.snapshot(12)),
      ("whiteboard-rest", intervals.snapshot(45)),
      // The same rest four seconds on: a line wider than the panel has moved.
      ("whiteboard-rest-later", intervals.snapshot(49)),
    ]
  }

  @Test(arguments: GoldenImageTests.sizes.map { "\($0.0)x\($0.1)" })
  func theMovementLineMatchesItsGoldenImages(size: String) throws {
    let parts = size.split(separator: "x").compactMap { Int($0) }
    let renderer = MatrixRenderer(width: parts[0], height: parts[1])
    for (name, snapshot) in try Self.scenes() {
      let frame = renderer.render(
        snapshot, timeOfDay: GoldenImageTests.morning, milliseconds: 200)
      #expect(matchesGolden(frame, "\(name)-\(size)"), "\(name) on \(size)")
    }
  }

  @Test func aLineWiderThanThePanelAsksForAFrameEachPixelAndOneThatFitsDoesNot() throws {
    let scenes = Dictionary(uniqueKeysWithValues: try Self.scenes())
    let wide = MatrixRenderer(width: 128, height: 64)
    let narrow = MatrixRenderer(width: 128, height: 32)
    // A 64×32 panel has no line for it: the digits take the room.
    let small = MatrixRenderer(width: 64, height: 32)
    #expect(wide.scrollPeriodMilliseconds(scenes["whiteboard-work"]!) == nil)
    #expect(narrow.scrollPeriodMilliseconds(scenes["whiteboard-work"]!) == nil)
    #expect(narrow.scrollPeriodMilliseconds(scenes["whiteboard-rest"]!) == 100)
    #expect(wide.scrollPeriodMilliseconds(scenes["whiteboard-rest"]!) == 100)
    #expect(small.scrollPeriodMilliseconds(scenes["whiteboard-rest"]!) == nil)
    let before = narrow.render(
      scenes["whiteboard-rest"]!, timeOfDay: GoldenImageTests.morning, milliseconds: 200)
    let after = narrow.render(
      scenes["whiteboard-rest-later"]!, timeOfDay: GoldenImageTests.morning, milliseconds: 200)
    #expect(before != after)
  }
}
