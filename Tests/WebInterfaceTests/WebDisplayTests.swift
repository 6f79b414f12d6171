// SPDX-License-Identifier: MIT
// The `clock` and `face` members from the real engine on manual time: an EMOM running and
// paused, a count-in, an AMRAP, a For Time, a tempo set in each phase, the idle screen with the
// next class, and the clock mode. The laws are checked against the engine itself: the figure a
// page works out for a later instant is the one the engine's snapshot has then.

import Configuration
import DisplayKit
import JSONKit
import Testing
import WebInterface
import WodclockTestSupport
import WorkoutCore

@Suite("Web face and clock")
struct WebDisplayTests {
  /// A day at 06:05:09.25 UTC (07:05:09 in the gym, an hour east).
  static let wall: Int64 = (20_787 * 86_400 + 6 * 3600 + 5 * 60 + 9) * 1_000_000_000 + 250_000_000

  static func input(
    _ snapshot: WorkoutSnapshot, at seconds: Double, speed: Int64 = 1,
    clock: ClockSettings = ClockSettings(idle: .preset), idleNote: String? = nil,
    message: String? = nil, overlay: DisplayOverlay? = nil, tokens: DesignTokens = .standard
  ) -> WebDisplayInput {
    WebDisplayInput(
      snapshot: snapshot, tokens: tokens, words: .english, clock: clock,
      now: at(seconds).nanoseconds, speed: speed, wallNanoseconds: wall, utcOffsetSeconds: 3600,
      synchronized: true, idleNote: idleNote, message: message, overlay: overlay, muted: false)
  }

  /// Server milliseconds of the instant `seconds` after the tests' origin.
  static func ms(_ seconds: Double) -> Double {
    WebClock.serverMilliseconds(at(seconds).nanoseconds)
  }

  /// What a page shows at server time `later` by the digits' law.
  static func pageFigure(_ clock: WebClock, at later: Double) -> Double? {
    guard let digits = clock.digits else { return nil }
    let until = digits.law.untilMilliseconds.map { min($0, later) } ?? later
    let moved = digits.law.rate * (until - clock.serverMilliseconds) / 1000
    return max(0, digits.law.value + (digits.direction == .down ? -moved : moved))
  }

  /// Expects the figure a page works out for `later` to be the engine's own then, and to show
  /// the same digits (unless it is within a microsecond of a whole second, where the page's
  /// floating point may land on either side).
  static func expectSame(
    _ clock: WebClock, _ workout: inout Workout, at later: Double,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let figure = try #require(pageFigure(clock, at: ms(later)), sourceLocation: sourceLocation)
    let truth = workout.snapshot(later)
    let exact = try #require(truth.displayedSpan?.seconds, sourceLocation: sourceLocation)
    #expect(abs(figure - exact) < 1e-6, "\(later)", sourceLocation: sourceLocation)
    guard abs(figure - figure.rounded()) > 1e-6, let direction = clock.digits?.direction else {
      return
    }
    let shown = direction == .down ? figure.rounded(.up) : figure.rounded(.down)
    #expect(Int64(shown) == truth.display?.seconds, "\(later)", sourceLocation: sourceLocation)
  }

  static let emom = WorkoutMode.emom(EMOMParameters(rounds: 10))

  @Test("an EMOM running: WORK in green, R 3/10, the digits' law to the end of the minute")
  func emomRunning() throws {
    var workout = try Workout(Self.emom)
    try workout.start()
    let snapshot = workout.snapshot(142.58)
    let input = Self.input(snapshot, at: 142.58)
    let face = WebFace(input)
    #expect(face.state == .running && face.mode == .emom)
    #expect(face.role == .work && face.color.hex == "#22e05a")
    #expect(face.background.hex == "#000000" && face.captionColor.hex == "#b8bec6")
    #expect(face.progressColor.hex == "#1ed6b4" && face.warningColor.hex == "#ff7a1a")
    #expect(face.word == "WORK")
    #expect(face.digits == "0:38")
    #expect(face.rounds == "R 3/10")
    #expect(face.tempo == nil && !face.showsTimeOfDay && face.idleNote == nil)

    let clock = WebClock(input)
    let digits = try #require(clock.digits)
    #expect(digits.direction == .down)
    #expect(abs(digits.law.value - 37.42) < 1e-9)
    #expect(digits.law.rate == 1)
    #expect(digits.law.untilMilliseconds == Self.ms(180))
    #expect(clock.serverMilliseconds == Self.ms(142.58))
    let progress = try #require(clock.progress)
    #expect(abs(progress.value - 142.58 / 600) < 1e-12)
    #expect(abs(progress.rate - 1.0 / 600) < 1e-15)
    #expect(progress.untilMilliseconds == Self.ms(600))
    #expect(clock.wallMilliseconds == Double(Self.wall / 1_000_000))
    #expect(clock.utcOffsetSeconds == 3600 && clock.synchronized)

    // A page drawing from the law shows what the engine shows, to the end of the minute.
    for later in stride(from: 142.6, through: 179.99, by: 0.37) {
      try Self.expectSame(clock, &workout, at: later)
    }
  }

  @Test("the same EMOM paused: PAUSED in blue, nothing moves")
  func emomPaused() throws {
    var workout = try Workout(Self.emom)
    try workout.start()
    try workout.apply(.pause, at: 142.58)
    let input = Self.input(workout.snapshot(150), at: 150)
    let face = WebFace(input)
    #expect(face.state == .paused)
    #expect(face.role == .paused && face.color.hex == "#4d94ff")
    #expect(face.word == "PAUSED")
    #expect(face.digits == "0:38")
    #expect(face.rounds == "R 3/10")
    let clock = WebClock(input)
    let digits = try #require(clock.digits)
    #expect(abs(digits.law.value - 37.42) < 1e-9)
    #expect(digits.law.rate == 0 && digits.law.untilMilliseconds == nil)
    #expect(clock.progress?.rate == 0 && clock.progress?.untilMilliseconds == nil)
    #expect(Self.pageFigure(clock, at: Self.ms(170)) == digits.law.value)
  }

  @Test("a count-in: GET READY in amber, counting down to its end; the bar waits for it")
  func countIn() throws {
    var workout = try Workout(Self.emom, countIn: 10)
    try workout.start()
    let input = Self.input(workout.snapshot(3.5), at: 3.5)
    let face = WebFace(input)
    #expect(face.state == .countIn)
    #expect(face.role == .getReady && face.color.hex == "#ffb300")
    #expect(face.word == "GET READY")
    #expect(face.digits == "0:07")
    let clock = WebClock(input)
    let digits = try #require(clock.digits)
    #expect(digits.direction == .down && digits.law.value == 6.5 && digits.law.rate == 1)
    #expect(digits.law.untilMilliseconds == Self.ms(10))
    let progress = try #require(clock.progress)
    #expect(progress.value == 0 && progress.rate == 0 && progress.untilMilliseconds == nil)
    #expect(try JSONValue.parse(face.json.serialized())["state"] == "countin")
  }

  @Test("an AMRAP: the workout's time left counting down, the laps as the score")
  func amrap() throws {
    var workout = try Workout(.amrap(AMRAPParameters(time: .minutes(14))))
    try workout.start()
    try workout.apply(.lap, at: 200)
    try workout.apply(.lap, at: 410)
    let input = Self.input(workout.snapshot(459.7), at: 459.7)
    let face = WebFace(input)
    #expect(face.digits == "6:21")
    #expect(face.rounds == "LAP 2")
    #expect(face.word == "WORK")
    let clock = WebClock(input)
    let digits = try #require(clock.digits)
    #expect(digits.direction == .down)
    #expect(abs(digits.law.value - 380.3) < 1e-9)
    #expect(digits.law.untilMilliseconds == Self.ms(840))
    #expect(clock.progress?.untilMilliseconds == Self.ms(840))
    for later in [460.0, 600.5, 839.2, 839.99, 845] {
      try Self.expectSame(clock, &workout, at: later)
    }
  }

  @Test("a For Time counts up, to its cap; without a cap it runs on and has no bar")
  func forTime() throws {
    var capped = try Workout(.forTime(ForTimeParameters(cap: .minutes(10))))
    try capped.start()
    let input = Self.input(capped.snapshot(75.3), at: 75.3)
    #expect(WebFace(input).digits == "1:15")
    let clock = WebClock(input)
    let digits = try #require(clock.digits)
    #expect(digits.direction == .up && abs(digits.law.value - 75.3) < 1e-9)
    #expect(digits.law.untilMilliseconds == Self.ms(600))
    for later in [75.9, 76.0, 300.01, 599.999] {
      try Self.expectSame(clock, &capped, at: later)
    }

    var open = try Workout(.forTime(ForTimeParameters()))
    try open.start()
    let openClock = WebClock(Self.input(open.snapshot(75.3), at: 75.3))
    #expect(openClock.digits?.law.untilMilliseconds == nil)
    #expect(openClock.digits?.law.rate == 1)
    #expect(openClock.progress == nil)
  }

  @Test("speed scales the rate and brings the ends closer")
  func speed() throws {
    var workout = try Workout(Self.emom)
    try workout.start()
    let clock = WebClock(Self.input(workout.snapshot(142.5), at: 142.5, speed: 4))
    #expect(clock.speed == 4)
    #expect(clock.digits?.law.rate == 4)
    // 37.5 s of engine time left in the minute: 9.375 s of real time.
    #expect(clock.digits?.law.untilMilliseconds == Self.ms(142.5 + 9.375))
    #expect(abs((clock.progress?.rate ?? 0) - 4.0 / 600) < 1e-15)
  }

  // MARK: Tempo

  /// Tempo 3-1-2-1 (seconds), 2 reps, 2 sets, 30 s rest: a rep is 7 s.
  static func tempo(reverse: Bool = false, concentricFirst: Bool = false) -> WorkoutMode {
    .tempo(
      TempoParameters(
        tempo: Tempo(eccentric: 6, bottomPause: 2, concentric: 4, topPause: 2), reps: 2, sets: 2,
        setRest: .seconds(30), startPhase: concentricFirst ? .concentric : .eccentric,
        reverseDirection: reverse))
  }

  @Test(
    "a tempo set in each phase: the figure, the arrow, the dot's track and its instants",
    arguments: [
      // seconds into the set, phase index, word, arrow, from, to, phase start, phase end
      (1.5, 0, "DOWN", TempoSnapshot.Arrow.down, 0.0, 1.0, 0.0, 3.0),
      (3.25, 1, "HOLD", nil, 1.0, 1.0, 3.0, 4.0),
      (5.0, 2, "UP", .up, 1.0, 0.0, 4.0, 6.0),
      (6.5, 3, "HOLD", nil, 0.0, 0.0, 6.0, 7.0),
      (8.0, 0, "DOWN", .down, 0.0, 1.0, 7.0, 10.0),
    ] as [(Double, Int, String, TempoSnapshot.Arrow?, Double, Double, Double, Double)])
  func tempoPhases(
    seconds: Double, phase: Int, word: String, arrow: TempoSnapshot.Arrow?, from: Double,
    to: Double, starts: Double, ends: Double
  ) throws {
    var workout = try Workout(Self.tempo())
    try workout.start()
    let face = WebFace(Self.input(workout.snapshot(seconds), at: seconds))
    let track = try #require(face.tempo)
    #expect(track.values == ["3", "1", "2", "1"])
    #expect(track.phaseIndex == phase)
    #expect(face.word == word)
    #expect(track.arrow == arrow)
    #expect(track.from == from && track.to == to)
    #expect(track.startsAtMilliseconds == Self.ms(starts))
    #expect(track.endsAtMilliseconds == Self.ms(ends))
    #expect(!track.explosive && !track.reverse)
    // A page moving the dot between the instants puts it where the engine has it.
    for later in stride(from: seconds, to: ends, by: 0.125) {
      let fraction =
        (Self.ms(later) - track.startsAtMilliseconds)
        / (track.endsAtMilliseconds - track.startsAtMilliseconds)
      let position = track.from + (track.to - track.from) * fraction
      let truth = try #require(workout.snapshot(later).tempo?.trackPosition)
      #expect(abs(position - truth) < 1e-9, "\(later)")
    }
  }

  @Test("reverse direction mirrors the track and swaps the arrows")
  func tempoReversed() throws {
    var workout = try Workout(Self.tempo(reverse: true))
    try workout.start()
    let lowering = try #require(WebFace(Self.input(workout.snapshot(1), at: 1)).tempo)
    #expect(lowering.from == 1 && lowering.to == 0 && lowering.arrow == .up && lowering.reverse)
    let lifting = try #require(WebFace(Self.input(workout.snapshot(5), at: 5)).tempo)
    #expect(lifting.from == 0 && lifting.to == 1 && lifting.arrow == .down)
  }

  @Test("concentric first: the set starts with the lift from the bottom")
  func tempoConcentricFirst() throws {
    var workout = try Workout(Self.tempo(concentricFirst: true))
    try workout.start()
    let face = WebFace(Self.input(workout.snapshot(0.5), at: 0.5))
    let track = try #require(face.tempo)
    #expect(track.phaseIndex == 2 && track.from == 1 && track.to == 0 && face.word == "UP")
    #expect(track.endsAtMilliseconds == Self.ms(2))
  }

  @Test("an explosive lift is X; the rest between sets holds the dot at the top")
  func tempoExplosiveAndRest() throws {
    var workout = try Workout(
      .tempo(
        TempoParameters(
          tempo: Tempo(eccentric: 6, bottomPause: 0, concentric: 0, topPause: 0), reps: 1,
          sets: 2, setRest: .seconds(30))))
    try workout.start()
    let lift = try #require(WebFace(Self.input(workout.snapshot(3.5), at: 3.5)).tempo)
    #expect(lift.values == ["3", "0", "X", "0"] && lift.explosive && lift.phaseIndex == 2)
    let rest = WebFace(Self.input(workout.snapshot(10), at: 10))
    let track = try #require(rest.tempo)
    #expect(rest.role == .setRest && rest.word == "SET REST")
    #expect(track.phaseIndex == nil && track.arrow == nil)
    #expect(track.from == 0 && track.to == 0)
    #expect(track.startsAtMilliseconds == Self.ms(4) && track.endsAtMilliseconds == Self.ms(34))
  }

  @Test("a paused tempo set: the dot stands where it is")
  func tempoPaused() throws {
    var workout = try Workout(Self.tempo())
    try workout.start()
    try workout.apply(.pause, at: 1.5)
    let input = Self.input(workout.snapshot(20), at: 20)
    let track = try #require(WebFace(input).tempo)
    #expect(track.phaseIndex == 0)
    #expect(track.from == 0.5 && track.to == 0.5)
    #expect(track.startsAtMilliseconds == Self.ms(20) && track.endsAtMilliseconds == Self.ms(20))
  }

  // MARK: Idle and the time of day

  @Test("idle with the idle clock: the gym's time of day, the next class, no workout")
  func idleClockWithNote() throws {
    let workout = try Workout(Self.emom)
    let input = Self.input(
      workout.engine.snapshot(at: at(5)), at: 5, clock: ClockSettings(idle: .clock),
      idleNote: "06:10 Early WOD")
    let face = WebFace(input)
    #expect(face.showsTimeOfDay)
    #expect(face.state == .idle && face.mode == .clock)
    #expect(face.role == .clock && face.color.hex == "#ffffff")
    #expect(face.digits == "07:05" && face.word == "")
    #expect(face.idleNote == "06:10 Early WOD")
    #expect(face.rounds == nil && face.label == nil && face.tempo == nil)
    #expect(face.clockFace == ClockFace())
    let clock = WebClock(input)
    #expect(clock.digits == nil && clock.progress == nil)
    let json = face.json
    #expect(json["show_time_of_day"] == true)
    #expect(json["idle_note"] == "06:10 Early WOD")
  }

  @Test("idle with the loaded workout shown: READY, its digits, the next class beside them")
  func idlePreset() throws {
    let workout = try Workout(Self.emom)
    let input = Self.input(
      workout.engine.snapshot(at: at(5)), at: 5, clock: ClockSettings(idle: .preset),
      idleNote: "06:10 Early WOD")
    let face = WebFace(input)
    #expect(!face.showsTimeOfDay)
    #expect(face.state == .idle && face.mode == .emom && face.role == .idle)
    #expect(face.word == "READY" && face.digits == "1:00" && face.rounds == "R 1/10")
    #expect(face.idleNote == "06:10 Early WOD")
    #expect(WebClock(input).digits?.law.rate == 0)
    // Once it runs, the note is gone.
    var running = workout
    try running.start(at: 6)
    #expect(
      WebFace(Self.input(running.snapshot(7), at: 7, idleNote: "06:10 Early WOD")).idleNote == nil)
  }

  @Test("the clock mode: the preset's own face, 12 hours with seconds")
  func clockMode() throws {
    let face = ClockFace(twentyFourHour: false, showSeconds: true)
    let workout = try Workout(.clock(face))
    let input = Self.input(workout.engine.snapshot(at: at(1)), at: 1)
    let web = WebFace(input)
    #expect(web.showsTimeOfDay && web.mode == .clock)
    #expect(web.clockFace == face)
    #expect(web.digits == "7:05:09" && web.word == "AM")
    #expect(WebClock(input).digits == nil)
    #expect(web.json["clock_face"] == ["twenty_four_hour": false, "show_seconds": true])
  }

  // MARK: Message, colours, the JSON

  @Test("the keypad's overlay takes the message's place")
  func messageAndOverlay() throws {
    var workout = try Workout(Self.emom)
    try workout.start()
    let snapshot = workout.snapshot(10)
    #expect(
      WebFace(Self.input(snapshot, at: 10, message: "press again to replace")).message
        == "press again to replace")
    let overlay = DisplayOverlay(text: "A 14", narrow: "A 14", caption: "ENTER loads")
    #expect(
      WebFace(Self.input(snapshot, at: 10, message: "x", overlay: overlay)).message
        == "A 14  ·  ENTER loads")
    #expect(WebFace(Self.input(snapshot, at: 10)).message == nil)
  }

  @Test("the colours come from the configuration's tokens")
  func tokens() throws {
    var tokens = DesignTokens.standard
    tokens.roles[.work] = .literal(RGB(red: 0x12, green: 0x34, blue: 0x56))
    tokens.roles[.background] = .palette("white")
    var workout = try Workout(Self.emom)
    try workout.start()
    let face = WebFace(Self.input(workout.snapshot(10), at: 10, tokens: tokens))
    #expect(face.json["color"] == "#123456")
    #expect(face.json["background"] == "#ffffff")
  }

  @Test("the members carry exactly the contract's keys")
  func jsonShape() throws {
    var workout = try Workout(Self.tempo())
    try workout.start()
    let input = Self.input(workout.snapshot(1.5), at: 1.5)
    let face = try #require(WebFace(input).json.objectValue)
    #expect(
      face.keys == [
        "state", "mode", "role", "color", "background", "caption_color", "progress_color",
        "warning_color", "word", "digits", "rounds", "label", "tempo", "clock_face",
        "show_time_of_day", "idle_note", "message", "muted", "whiteboard", "whiteboard_line",
        "next", "media",
      ])
    #expect(
      face["tempo"]?.objectValue?.keys == [
        "values", "phase_index", "arrow", "from", "to", "starts_at_ms", "ends_at_ms",
        "explosive", "reverse",
      ])
    let clock = try #require(WebClock(input).json.objectValue)
    #expect(
      clock.keys == [
        "server_ms", "speed", "digits", "progress", "wall_ms", "utc_offset_s", "synchronized",
      ])
    #expect(clock["digits"]?.objectValue?.keys == ["value_s", "direction", "rate", "until_ms"])
    #expect(clock["progress"]?.objectValue?.keys == ["value", "rate", "until_ms"])
    #expect(clock["digits"]?["rate"] == 1)
    #expect(clock["digits"]?["direction"] == "down")
  }

  @Test("a face looks different when what it shows changes, not when the digits run")
  func looksDifferent() throws {
    var workout = try Workout(Self.emom)
    try workout.start()
    let earlier = WebFace(Self.input(workout.snapshot(10.2), at: 10.2))
    let later = WebFace(Self.input(workout.snapshot(15.7), at: 15.7))
    #expect(earlier != later)
    #expect(!earlier.looksDifferent(from: later))
    #expect(
      WebFace(Self.input(workout.snapshot(15.7), at: 15.7, message: "reload failed"))
        .looksDifferent(from: later))
    #expect(WebFace(Self.input(workout.snapshot(61), at: 61)).looksDifferent(from: later))
  }

  @Test("the status event carries the socket's status with the clock and the face")
  func statusEvent() throws {
    var workout = try Workout(Self.emom)
    try workout.start()
    let input = Self.input(workout.snapshot(10), at: 10)
    let frame = EventStreamFrame.status(
      id: 5, status: ["state": "running"], clock: WebClock(input), face: WebFace(input))
    #expect(frame.id == 5 && frame.event == "status")
    #expect(!frame.data.contains("\n"))
    let data = try JSONValue.parse(frame.data)
    #expect(data["event"] == "status")
    #expect(data["status"]?["state"] == "running")
    #expect(data["clock"] == WebClock(input).json)
    #expect(data["face"] == WebFace(input).json)
  }
}
