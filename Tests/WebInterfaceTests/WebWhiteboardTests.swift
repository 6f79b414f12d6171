// SPDX-License-Identifier: MIT
// The whiteboard on the face, from the real engine on manual time: the lines beside the digits,
// the line highlighted while its step runs, "next: …" at once through a rest or a count-in and
// from 10 s before a change of movement (never before the start, after the finish, nor before
// the same movement again), the media of the line or the workout, and the laps of an EMOM.

import Configuration
import DisplayKit
import JSONKit
import Testing
import WebInterface
import WodclockTestSupport
import WorkoutCore

@Suite("Web face: the whiteboard")
struct WebWhiteboardTests {
  static let board = [
    WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups", media: "push-up.webm"),
    WhiteboardLine("15 air squats"), WhiteboardLine("Rx: 20 lb vest"),
  ]

  static func workout(_ mode: WorkoutMode, countIn: Int64 = 0, media: String? = nil) throws
    -> Workout
  {
    var workout = try Workout(mode)
    workout.engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "chelsea", mode: mode, countIn: .seconds(countIn), whiteboard: Self.board,
        media: media))
    return workout
  }

  static func face(_ workout: inout Workout, at seconds: Double, speed: Int64 = 1) -> WebFace {
    WebFace(input(&workout, at: seconds, speed: speed))
  }

  static func input(_ workout: inout Workout, at seconds: Double, speed: Int64 = 1)
    -> WebDisplayInput
  {
    WebDisplayInput(
      snapshot: workout.snapshot(seconds), clock: ClockSettings(idle: .preset),
      now: at(seconds).nanoseconds, speed: speed, wallNanoseconds: 0, plan: workout.engine.plan)
  }

  static func ms(_ seconds: Double) -> Double {
    WebClock.serverMilliseconds(at(seconds).nanoseconds)
  }

  static let emom = WorkoutMode.emom(EMOMParameters(interval: .seconds(60), rounds: 6))

  @Test(
    "the lines are on the face from the moment the workout is loaded; none is lit before it starts")
  func linesWhileIdle() throws {
    var workout = try Self.workout(Self.emom)
    let face = Self.face(&workout, at: 0)
    #expect(face.whiteboard == ["5 pull-ups", "10 push-ups", "15 air squats", "Rx: 20 lb vest"])
    #expect(face.whiteboardLine == nil && face.next == nil)
  }

  @Test("an EMOM lights each minute's line in turn")
  func highlight() throws {
    var workout = try Self.workout(Self.emom)
    try workout.start()
    let lines = [10.0, 70, 130, 190].map { Self.face(&workout, at: $0).whiteboardLine }
    #expect(lines == [0, 1, 2, 0])
  }

  @Test(
    "next: shown from 10 s before the minute ends, not before; the instant in the server's time")
  func nextInTheLastTenSeconds() throws {
    var workout = try Self.workout(Self.emom)
    try workout.start()
    let early = Self.face(&workout, at: 20)
    let next = try #require(early.next)
    #expect(next.text == "10 push-ups")
    // Shown from 50 s into the first minute, whenever the status was made.
    #expect(next.fromMilliseconds == Self.ms(50))
    let late = try #require(Self.face(&workout, at: 55).next)
    #expect(late == next)
    // Under --speed 4, 10 s of the workout are 2.5 s of the server's time.
    var fast = try Self.workout(Self.emom)
    try fast.start()
    let sped = try #require(Self.face(&fast, at: 5, speed: 4).next)
    #expect(sped.fromMilliseconds == Self.ms(5 + (60 - 5 - 10) / 4.0))
  }

  @Test("next: never before the start, after the finish, or when the same movement follows")
  func noNext() throws {
    var workout = try Self.workout(Self.emom)
    #expect(Self.face(&workout, at: 0).next == nil)
    try workout.start()
    // The last minute: nothing follows.
    #expect(Self.face(&workout, at: 330).next == nil)
    #expect(Self.face(&workout, at: 400).state == .finished)
    #expect(Self.face(&workout, at: 400).next == nil)
    #expect(Self.face(&workout, at: 400).whiteboardLine == nil)
    // A whiteboard of one movement: the next minute is the same.
    var single = try Workout(Self.emom)
    single.engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "one", mode: Self.emom, countIn: .zero, whiteboard: [WhiteboardLine("3 cleans")]))
    try single.start()
    #expect(Self.face(&single, at: 55).next == nil)
  }

  @Test("next: at once through the count-in and every rest, from the step's start")
  func nextInRests() throws {
    let tabata = WorkoutMode.tabata(
      IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 4))
    var workout = try Self.workout(tabata, countIn: 10)
    try workout.start()
    let countIn = Self.face(&workout, at: 3)
    #expect(countIn.next?.text == "5 pull-ups")
    #expect(countIn.next?.fromMilliseconds == Self.ms(0))
    #expect(countIn.whiteboardLine == nil)
    let rest = Self.face(&workout, at: 33)
    #expect(rest.next?.text == "10 push-ups")
    #expect(rest.next?.fromMilliseconds == Self.ms(30))
    #expect(rest.whiteboardLine == nil)
  }

  @Test("next: while paused, shown only when its time had come")
  func nextWhilePaused() throws {
    var workout = try Self.workout(Self.emom)
    try workout.start()
    try workout.apply(.pause, at: 30)
    #expect(Self.face(&workout, at: 100).next == nil)
    try workout.apply(.resume, at: 100)
    try workout.apply(.pause, at: 125)
    let paused = try #require(Self.face(&workout, at: 200).next)
    #expect(paused.text == "10 push-ups" && paused.fromMilliseconds == Self.ms(200))
  }

  @Test("an AMRAP shows its lines but lights none and says no next: one stretch holds them all")
  func amrap() throws {
    var workout = try Self.workout(.amrap(AMRAPParameters(time: .minutes(20))))
    try workout.start()
    let face = Self.face(&workout, at: 600)
    #expect(face.whiteboard.count == 4 && face.whiteboardLine == nil && face.next == nil)
  }

  @Test("the media: the lit line's own, else the workout's, as an image or a video")
  func media() throws {
    var workout = try Self.workout(Self.emom, media: "chelsea.png")
    #expect(Self.face(&workout, at: 0).media?.name == "chelsea.png")
    try workout.start()
    let first = try #require(Self.face(&workout, at: 10).media)
    #expect(first.name == "chelsea.png" && first.kind == .image)
    #expect(first.path == "/media/chelsea.png")
    let second = try #require(Self.face(&workout, at: 70).media)
    #expect(second.name == "push-up.webm" && second.kind == .video)
    // Without media of its own, a line with none shows nothing.
    var bare = try Self.workout(Self.emom)
    try bare.start()
    #expect(Self.face(&bare, at: 10).media == nil)
    #expect(Self.face(&bare, at: 70).media?.name == "push-up.webm")
  }

  @Test("a name the server would not serve is never put on the face")
  func unservableMedia() throws {
    for name in ["../etc/passwd", ".hidden.png", "notes.txt", "a/b.png", ""] {
      var workout = try Self.workout(Self.emom, media: name)
      #expect(Self.face(&workout, at: 0).media == nil, "\(name)")
    }
    var spaced = try Self.workout(Self.emom, media: "air squat #2.MP4")
    let media = try #require(Self.face(&spaced, at: 0).media)
    #expect(media.kind == .video && media.path == "/media/air%20squat%20%232.MP4")
  }

  @Test("the laps of an EMOM or intervals are on the round line, as an AMRAP's are")
  func laps() throws {
    var workout = try Self.workout(Self.emom)
    try workout.start()
    #expect(Self.face(&workout, at: 10).rounds == "R 1/6")
    try workout.apply(.lap, at: 20)
    try workout.apply(.lap, at: 40)
    #expect(Self.face(&workout, at: 70).rounds == "R 2/6 · LAP 2")
    var amrap = try Workout(.amrap(AMRAPParameters(time: .minutes(20))))
    try amrap.start()
    try amrap.apply(.lap, at: 20)
    let face = WebFace(
      WebDisplayInput(snapshot: amrap.snapshot(30), now: at(30).nanoseconds, wallNanoseconds: 0))
    #expect(face.rounds == "LAP 1")
  }

  @Test("the face's members as the contract writes them, and a status again when the line moves")
  func json() throws {
    var workout = try Self.workout(Self.emom, media: "chelsea.png")
    try workout.start()
    let face = Self.face(&workout, at: 52)
    guard case .object(let members) = face.json else {
      Issue.record("the face is an object")
      return
    }
    #expect(members["whiteboard"]?.arrayValue?.count == 4)
    #expect(members["whiteboard_line"] == .integer(0))
    #expect(members["next"]?.objectValue?["text"] == .string("10 push-ups"))
    #expect(members["next"]?.objectValue?["from_ms"] == .double(Self.ms(50)))
    #expect(members["media"]?.objectValue?["kind"] == .string("image"))
    #expect(members["media"]?.objectValue?["path"] == .string("/media/chelsea.png"))
    // The same step a moment later looks the same; the next minute does not.
    #expect(!Self.face(&workout, at: 53).looksDifferent(from: face))
    #expect(Self.face(&workout, at: 61).looksDifferent(from: face))
    var idle = try Workout(Self.emom)
    guard case .object(let plain) = WebFace(Self.input(&idle, at: 0)).json else { return }
    #expect(plain["whiteboard"] == .array([]) && plain["next"] == .null)
    #expect(plain["media"] == .null && plain["whiteboard_line"] == .null)
  }
}

@Suite("Web media names and ranges")
struct WebMediaTests {
  @Test func servableNames() {
    for name in [
      "squat.jpg", "Squat.JPEG", "a.png", "loop.gif", "clip.webm", "clip.mp4", "é b.png",
    ] {
      #expect(WebMedia.isServable(name), "\(name)")
    }
    for name in [
      "", ".png", "..", "../a.png", "a/b.png", ".hidden.webm", "a.txt", "a", "a.png\n",
      "a\u{0}.png",
      String(repeating: "a", count: 252) + ".png",
    ] {
      #expect(!WebMedia.isServable(name), "\(name)")
    }
    #expect(WebMedia.contentType(of: "a.JPG") == "image/jpeg")
    #expect(WebMedia.contentType(of: "a.webm") == "video/webm")
    #expect(WebMedia.contentType(of: "a.mp4") == "video/mp4")
    #expect(
      WebMedia.listing(["b.png", "notes.txt", ".a.png", "a.webm", "Z.gif"]) == [
        "Z.gif", "a.webm", "b.png",
      ])
  }

  @Test func ranges() {
    #expect(WebMedia.range(nil, size: 100) == .whole)
    #expect(WebMedia.range("bytes=0-", size: 100) == .part(offset: 0, length: 100))
    #expect(WebMedia.range("bytes=10-19", size: 100) == .part(offset: 10, length: 10))
    #expect(WebMedia.range("bytes=90-500", size: 100) == .part(offset: 90, length: 10))
    #expect(WebMedia.range("bytes=-30", size: 100) == .part(offset: 70, length: 30))
    #expect(WebMedia.range("bytes=-300", size: 100) == .part(offset: 0, length: 100))
    #expect(WebMedia.range("bytes=100-", size: 100) == .unsatisfiable)
    #expect(WebMedia.range("bytes=-5", size: 0) == .unsatisfiable)
    for header in [
      "bytes=5-2", "bytes=0-1,4-5", "items=0-5", "bytes=a-b", "bytes=-", "bytes=-0",
      "bytes=99999999999999999999-", "bytes=+5-",
    ] {
      #expect(WebMedia.range(header, size: 100) == .whole, "\(header)")
    }
  }
}
