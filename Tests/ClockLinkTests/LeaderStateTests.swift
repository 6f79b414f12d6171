// SPDX-License-Identifier: MIT
// The leader's state message: a follower with its own clocks computes the same snapshot at the
// same wall-clock instant, and nothing a message holds makes it trap.

import JSONKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import ClockLink

@Suite struct LeaderStateTests {
  /// The message through its bytes, as the follower receives it.
  private func received(_ message: LeaderState) throws -> LeaderState {
    try LeaderState.decode(message.encoded())
  }

  /// The leader and a follower computed from `message` show the same at every instant of
  /// `instants` (seconds after six), the follower's engine driven as the daemon drives one.
  private func expectSameWall(
    _ leader: LeaderClock, _ message: LeaderState, receivedAt: Double, instants: [Double],
    follower clocks: ManualClocks = followerClocks,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var follower = try received(message).workout(at: clocks.reading(atWall: wall(receivedAt)))
    var leader = leader
    for seconds in instants {
      leader.advance(to: seconds)
      _ = follower.advance(to: clocks.instant(atWall: wall(seconds)))
      let shown = Shown(follower.snapshot(at: clocks.instant(atWall: wall(seconds))))
      #expect(
        shown == Shown(leader.snapshot(at: seconds)), "at \(seconds) s",
        sourceLocation: sourceLocation)
      if clocks.speed == 1 {
        #expect(
          follower.engine.snapshot(at: clocks.instant(atWall: wall(seconds)))
            == leader.snapshot(at: seconds), "at \(seconds) s", sourceLocation: sourceLocation)
      }
    }
  }

  private let later = stride(from: 0.0, through: 90, by: 0.37).map { $0 }

  @Test(arguments: ["amrap 14", "21-15-9 for time cap 10", "tabata", "emom 10", "5 x 40/20"])
  func aRunningWorkoutInItsCountInShowsTheSameSecond(_ text: String) throws {
    var leader = try LeaderClock(notationPlan(text))
    try leader.apply(.start, at: 0)
    let message = try leader.message(at: 0.2)
    #expect(message.zeroWallNanoseconds == wall(0))
    try expectSameWall(leader, message, receivedAt: 0.21, instants: later.map { $0 + 0.21 })
  }

  @Test func aPausedWorkoutWithLapsShowsTheSameAndResumesTogether() throws {
    var leader = try LeaderClock(notationPlan("amrap 14"))
    try leader.apply(.start, at: 0)
    try leader.apply(.lap, at: 73.4)
    try leader.apply(.lap, at: 140.9)
    try leader.apply(.pause, at: 150.25)
    let paused = try leader.message(at: 150.25, sequence: 4)
    #expect(paused.zeroWallNanoseconds == nil)
    try expectSameWall(leader, paused, receivedAt: 150.3, instants: [150.3, 160, 400.7])
    // The resume at 401 is a new message; the follower computes from it alone.
    try leader.apply(.resume, at: 401)
    let resumed = try leader.message(at: 401.004, sequence: 5)
    #expect(resumed.zeroWallNanoseconds == wall(401 - 150.25))
    try expectSameWall(leader, resumed, receivedAt: 401.01, instants: later.map { $0 + 401.01 })
  }

  @Test func aFinishedWorkoutKeepsItsFinalTime() throws {
    var leader = try LeaderClock(notationPlan("21-15-9 for time"))
    try leader.apply(.start, at: 0)
    try leader.apply(.lap, at: 100)
    try leader.apply(.finish, at: 312.6)
    let message = try leader.message(at: 330)
    try expectSameWall(leader, message, receivedAt: 330, instants: [330, 331, 4000])
    let follower = try received(message).workout(at: followerClocks.reading(atWall: wall(330)))
    let final = follower.snapshot(at: followerClocks.instant(atWall: wall(999))).display
    #expect(final == leader.snapshot(at: 999).display && final != nil)
  }

  @Test func aFollowerStartedMidWorkoutShowsTheRightPlaceAtOnce() throws {
    // The retained message was published at the start; the follower boots 5 minutes later.
    var leader = try LeaderClock(notationPlan("tabata"))
    try leader.apply(.start, at: 0)
    let message = try leader.message(at: 0)
    let late = ManualClocks(engineBase: 3_000_000_000, wallBase: wall(300))
    try expectSameWall(
      leader, message, receivedAt: 300, instants: [300, 300.5, 301, 360], follower: late)
  }

  @Test func aCompiledPlanTravelsWhole() throws {
    var plan = notationPlan("emom 12", name: "class")
    plan.notation = nil
    plan.label = "Snatch EMOM"
    plan.cues.roundsRemaining = [3]
    var leader = try LeaderClock(plan)
    try leader.apply(.start, at: 0)
    let message = try leader.message(at: 20)
    let text = String(decoding: try message.encoded(), as: UTF8.self)
    #expect(text.contains("\"compiled\""))
    let back = try received(message)
    #expect(back.engine.plan == leader.engine.plan)
    #expect(back.preset == "class" && back.label == "Snatch EMOM")
    try expectSameWall(leader, message, receivedAt: 20, instants: later.map { $0 + 20 })
  }

  @Test func aNotationPlanTravelsAsItsNotationWithTheLeadersCountInAndCues() throws {
    var plan = notationPlan("amrap 14", name: "evening")
    plan.countIn = .seconds(5)
    plan.cues.halfway = false
    let message = try LeaderClock(plan).message(at: 0)
    let object = try JSONValue.parse(message.encoded()).objectValue!
    #expect(object["plan"]?["notation"]?.stringValue == "amrap 14")
    #expect(object["plan"]?["count_in_ns"]?.intValue == 5_000_000_000)
    let back = try received(message)
    #expect(back.engine.plan == plan)
    #expect(back.engine.timeline == message.engine.timeline)
  }

  @Test(arguments: [1, 60] as [Int64])
  func aPendingStartIsIdleBeforeItsInstantAndTheFirstSecondAfterOnBoth(_ speed: Int64) throws {
    var leaderClocks = leaderClocks
    leaderClocks.speed = speed
    var followerClocks = followerClocks
    followerClocks.speed = speed
    let startsAt = 10.0 / Double(speed)
    let leaderState = try LeaderClock(notationPlan("amrap 14"), clocks: leaderClocks)
    let message = try leaderState.message(at: 0, startsAt: startsAt)
    #expect(message.startsAtWallNanoseconds == wall(startsAt))
    // The leader runs its pending start as the follower does: both from the message's instant.
    var leader = try message.workout(at: leaderClocks.reading(atWall: wall(0)))
    var follower = try received(message).workout(
      at: followerClocks.reading(atWall: wall(0.003)))
    let justBefore = startsAt - 0.000_001
    for (clock, clocks) in [(leader, leaderClocks), (follower, followerClocks)] {
      #expect(clock.snapshot(at: clocks.instant(atWall: wall(justBefore))).runState == .idle)
      let after = clock.snapshot(at: clocks.instant(atWall: wall(startsAt)))
      #expect(after.runState == .countIn)
      #expect(after.display == DisplayTime(seconds: 10, direction: .down))
    }
    // Driven as the daemon drives it: the start's own cue sounds, once, at its instant.
    let cues =
      follower.advance(to: followerClocks.instant(atWall: wall(justBefore)))
      + follower.advance(to: followerClocks.instant(atWall: wall(startsAt + 0.5 / Double(speed))))
    #expect(cues.first?.instant == followerClocks.instant(atWall: wall(startsAt)))
    #expect(follower.pendingStart == nil)
    _ = leader.advance(to: leaderClocks.instant(atWall: wall(startsAt)))
    for seconds in stride(from: startsAt, through: startsAt + 30, by: 0.61) {
      #expect(
        Shown(leader.snapshot(at: leaderClocks.instant(atWall: wall(seconds))))
          == Shown(follower.snapshot(at: followerClocks.instant(atWall: wall(seconds)))))
    }
  }

  @Test func aPendingStartThatArrivesLateStartsAtItsInstant() throws {
    let leader = try LeaderClock(notationPlan("amrap 14"))
    let message = try leader.message(at: 0, startsAt: 1)
    // Delivered 2.5 s late (a follower that was reconnecting).
    var follower = try received(message).workout(at: followerClocks.reading(atWall: wall(3.5)))
    let now = followerClocks.instant(atWall: wall(3.5))
    _ = follower.advance(to: now)
    #expect(follower.engine.snapshot(at: now).display == DisplayTime(seconds: 8, direction: .down))
  }

  @Test func atSixtyTimesTheSpeedTheSecondsStillMatch() throws {
    var fast = leaderClocks
    fast.speed = 60
    var followerFast = followerClocks
    followerFast.speed = 60
    var leader = try LeaderClock(notationPlan("amrap 14"), clocks: fast)
    try leader.apply(.start, at: 0)
    try leader.apply(.lap, at: 3.3)
    let message = try leader.message(at: 3.3001)
    try expectSameWall(
      leader, message, receivedAt: 3.31,
      instants: stride(from: 3.31, through: 14, by: 0.0173).map { $0 },
      follower: followerFast)
  }

  // MARK: - Hostile input

  private func sample() throws -> [UInt8] {
    var leader = try LeaderClock(notationPlan("21-15-9 for time cap 10"))
    try leader.apply(.start, at: 0)
    try leader.apply(.lap, at: 40)
    return try leader.message(at: 41).encoded()
  }

  private func replacing(_ key: String, with value: JSONValue, in bytes: [UInt8]) throws -> [UInt8]
  {
    var object = try JSONValue.parse(bytes).objectValue!
    object[key] = value
    return JSONValue.object(object).serializedBytes()
  }

  private func refusal(_ bytes: [UInt8]) -> String? {
    do {
      _ = try LeaderState.decode(bytes)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func anotherVersionIsRefusedWithAMessage() throws {
    let message = refusal(try replacing("v", with: 2, in: sample()))
    #expect(message?.contains("version 2; this clock reads version 1") == true)
    #expect(refusal(try replacing("v", with: .null, in: sample())) != nil)
  }

  @Test func aMessageLargerThanTheBoundIsRefusedUnread() throws {
    let huge = [UInt8](repeating: UInt8(ascii: " "), count: LeaderState.maximumBytes + 1)
    #expect(refusal(huge)?.contains("more than") == true)
  }

  @Test(arguments: [
    ("zero_wall_ns", JSONValue.integer(-1)),
    ("zero_wall_ns", .null), ("zero_wall_ns", .double(1e300)), ("speed", .integer(0)),
    ("speed", .integer(1001)), ("seq", .integer(0)), ("epoch", .integer(-5)),
    ("preset", .string("")), ("leader", .string("a/b")), ("label", .integer(3)),
    ("label", .string("not the plan's")), ("starts_at_wall_ns", .integer(sixPM)),
    ("plan", .object(JSONObject([("notation", "amrap 14")]))),
    (
      "plan",
      .object(
        JSONObject([("notation", "amrap 0"), ("count_in_ns", 0), ("cues", .object(JSONObject()))]))
    ),
    (
      "plan",
      .object(
        JSONObject([
          ("notation", "amrap 14"), ("count_in_ns", .integer(.min)),
          ("cues", .object(JSONObject())),
        ]))
    ),
    ("engine", .object(JSONObject([("phase", "running")]))),
  ])
  func aNumberOutOfRangeOrAFieldThatDoesNotFitIsRefused(_ key: String, _ value: JSONValue) throws {
    #expect(refusal(try replacing(key, with: value, in: sample())) != nil)
  }

  @Test func aWallInstantThisClockCannotReachIsAnErrorNotATrap() throws {
    let message = try LeaderState.decode(
      replacing("zero_wall_ns", with: .integer(.max), in: sample()))
    #expect(throws: LinkError.self) {
      try message.workout(at: followerClocks.reading(atWall: wall(41)))
    }
  }

  @Test func anEngineStateWithInstantsAtTheEdgesIsRefusedOrRunsWithoutTrapping() throws {
    let edges: [Int64] = [.min, .min + 1, -1, 0, 1, 1 << 61, (1 << 61) + 1, .max - 1, .max]
    let fields = [
      "origin", "frozenTime", "segmentStart", "lastInstant", "workoutStart", "cueCursor",
      "segmentIndex", "pass",
    ]
    let base = try JSONValue.parse(sample()).objectValue!
    for field in fields {
      for edge in edges {
        var engine = base["engine"]!.objectValue!
        engine[field] = .integer(edge)
        var object = base
        object["engine"] = .object(engine)
        for zero in [sixPM, 0, Int64.max] {
          object["zero_wall_ns"] = .integer(zero)
          guard let message = try? LeaderState.decode(JSONValue.object(object).serializedBytes())
          else {
            continue
          }
          // The follower's own readings are its clocks': only the message is hostile.
          var fast = followerClocks
          fast.speed = 1000
          for reading in [followerClocks.reading(atWall: wall(50)), fast.reading(atWall: wall(50))]
          {
            guard var workout = try? message.workout(at: reading) else { continue }
            _ = workout.advance(to: reading.engineInstant)
            _ = workout.snapshot(at: reading.engineInstant)
            _ = workout.nextDeadline
          }
        }
      }
    }
  }

  @Test func damagedMessagesAreRefusedWithoutTrapping() throws {
    let bytes = try sample()
    var random = SeededGenerator(seed: 17)
    var refused = 0
    for _ in 0..<400 {
      var damaged = bytes
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let index = Int.random(in: 0..<damaged.count, using: &random)
        damaged[index] = "0123456789-e.,:{}[]\"x".utf8.randomElement(using: &random)!
      }
      if let message = try? LeaderState.decode(damaged),
        var workout = try? message.workout(at: followerClocks.reading(atWall: wall(42)))
      {
        _ = workout.advance(to: followerClocks.instant(atWall: wall(4242)))
      } else {
        refused += 1
      }
    }
    #expect(refused > 0)
  }
}
