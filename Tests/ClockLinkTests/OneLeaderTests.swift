// SPDX-License-Identifier: MIT
// A room has one leader: the claim, the tie-break of two leaders that start at once, a
// follower that follows only the claimant, a workout that ended before a follower joined, and
// what Home Assistant is told of its commands.

import JSONKit
import Testing
import WorkoutCore

@testable import ClockLink

@Suite struct LeaderElectionTests {
  private let impostorID = LinkClientID("gym-pi")!

  private func claim(_ client: LinkClientID, epoch: Int64 = 5) -> LeaderClaim {
    LeaderClaim(client: client, epoch: epoch, sinceWallNanoseconds: sixPM)
  }

  @Test func aClaimReadsBackAndNothingElseDoes() throws {
    let original = claim(leaderID, epoch: 1_767_635_400_000_000_000)
    #expect(try LeaderClaim.decode(original.encoded) == original)
    for bad in [
      "", "[]", "{\"v\": 2, \"client\": \"a\", \"epoch\": 1, \"since_wall_ns\": 1}",
      "{\"v\": 1, \"client\": \"a/b\", \"epoch\": 1, \"since_wall_ns\": 1}",
      "{\"v\": 1, \"client\": \"a\", \"epoch\": -1, \"since_wall_ns\": 1}",
      "{\"v\": 1, \"client\": \"a\", \"epoch\": 1}",
    ] {
      #expect(throws: LinkError.self) { try LeaderClaim.decode(Array(bad.utf8)) }
    }
    #expect(throws: LinkError.self) {
      try LeaderClaim.decode([UInt8](repeating: 0x20, count: LeaderClaim.maximumBytes + 1))
    }
  }

  @Test func aSecondClockThatFindsALiveLeaderDoesNotLead() {
    var newcomer = LeaderElection(own: impostorID)
    // Retained: the leader's claim and its availability, then the echo of its own online.
    #expect(newcomer.claimArrived(claim(leaderID), ownEpoch: -1) == .none)
    newcomer.availability(of: leaderID, Array("online".utf8))
    #expect(newcomer.barrier() == .yield(to: leaderID))
    #expect(newcomer.yieldedTo == leaderID)
    #expect(!newcomer.isLeading)
    // It stays so across a reconnection, and never claims.
    newcomer.connected()
    #expect(newcomer.barrier() == .none)
    #expect(newcomer.yieldedTo == leaderID)
  }

  @Test func aClaimWhoseClockIsOfflineOrUnknownIsTakenOver() {
    for availability in ["offline", nil] {
      var clock = LeaderElection(own: impostorID)
      _ = clock.claimArrived(claim(leaderID), ownEpoch: -1)
      if let availability { clock.availability(of: leaderID, Array(availability.utf8)) }
      #expect(clock.barrier() == .publishClaim)
      #expect(clock.claimArrived(claim(impostorID, epoch: 9), ownEpoch: 9) == .lead)
      #expect(clock.isLeading)
    }
  }

  @Test func aRestartedLeaderFindsItsOwnClaimAndLeadsWithItsNewEpoch() {
    var restarted = LeaderElection(own: leaderID)
    _ = restarted.claimArrived(claim(leaderID, epoch: 5), ownEpoch: -1)
    // Its earlier run's availability, retained as its last will left it, or still online.
    restarted.availability(of: leaderID, Array("online".utf8))
    #expect(restarted.barrier() == .publishClaim)
    // The earlier run's claim is not this run's.
    #expect(restarted.claimArrived(claim(leaderID, epoch: 5), ownEpoch: 8) == .none)
    #expect(restarted.claimArrived(claim(leaderID, epoch: 8), ownEpoch: 8) == .lead)
  }

  @Test func twoLeadersStartingAtOnceAgreeOnTheFirstClaimTheBrokerForwarded() {
    // Both saw no claim; both publish theirs; the broker forwards A's before B's to both.
    var first = LeaderElection(own: leaderID)
    var second = LeaderElection(own: impostorID)
    #expect(first.barrier() == .publishClaim)
    #expect(second.barrier() == .publishClaim)
    let claimA = claim(leaderID, epoch: 1)
    let claimB = claim(impostorID, epoch: 2)
    #expect(first.claimArrived(claimA, ownEpoch: 1) == .lead)
    #expect(second.claimArrived(claimA, ownEpoch: 2) == .yield(to: leaderID))
    // B's claim arrives after: the leader claims again, so the retained claim is its own.
    #expect(first.claimArrived(claimB, ownEpoch: 1) == .reclaim)
    #expect(second.claimArrived(claimB, ownEpoch: 2) == .none)
    #expect(first.claimArrived(claimA, ownEpoch: 1) == .none)
    #expect(second.claimArrived(claimA, ownEpoch: 2) == .none)
    #expect(first.isLeading && second.yieldedTo == leaderID)
  }

  @Test func theRosterIsBoundedAndKeepsTheOnlineClocks() {
    var roster = LinkRoster()
    roster.availability(of: leaderID, Array("online".utf8))
    for index in 0..<(LinkRoster.capacity * 2) {
      roster.availability(of: LinkClientID("c\(index)")!, Array("offline".utf8))
    }
    #expect(roster.isOnline(leaderID) == true)
    roster.availability(of: leaderID, Array("garbage".utf8))
    #expect(roster.isOnline(leaderID) == true)
  }
}

@Suite struct FollowerClaimantTests {
  private func message(from leader: LinkClientID, _ stamp: LinkStamp) throws -> LeaderState {
    var state = try LeaderClock(notationPlan("amrap 14")).message(at: 0)
    state.leader = leader
    state.stamp = stamp
    return state
  }

  @Test func aFollowerTakesStatesOnlyFromTheClaimant() throws {
    let impostor = LinkClientID("gym-pi")!
    var link = FollowerLink(speed: 1, synchronized: true)
    link.brokerConnection(true)
    // No claim seen yet: nobody's state is followed.
    #expect(
      link.receive(try message(from: leaderID, LinkStamp(epoch: 1, sequence: 1)))
        == .ignoreNotClaimant(claimant: nil))
    link.claimArrived(LeaderClaim(client: leaderID, epoch: 1, sinceWallNanoseconds: sixPM))
    link.availability(of: leaderID, Array("online".utf8))
    #expect(link.receive(try message(from: leaderID, LinkStamp(epoch: 1, sequence: 1))) == .apply)
    // A newcomer's idle state, newer by its stamp, is not followed; its leaving is not the
    // leader's.
    #expect(
      link.receive(try message(from: impostor, LinkStamp(epoch: 99, sequence: 1)))
        == .ignoreNotClaimant(claimant: leaderID))
    link.availability(of: impostor, Array("offline".utf8))
    #expect(link.sign == nil)
    // The leader restarted: the same client id with a newer epoch is followed.
    let changed = link.claimArrived(
      LeaderClaim(client: leaderID, epoch: 7, sinceWallNanoseconds: sixPM))
    #expect(!changed)
    #expect(link.receive(try message(from: leaderID, LinkStamp(epoch: 7, sequence: 1))) == .apply)
  }

  @Test func anotherClaimantStartsTheStampsAfresh() throws {
    let other = LinkClientID("lane-9")!
    var link = FollowerLink(speed: 1, synchronized: true)
    link.brokerConnection(true)
    link.claimArrived(LeaderClaim(client: leaderID, epoch: 50, sinceWallNanoseconds: sixPM))
    #expect(link.receive(try message(from: leaderID, LinkStamp(epoch: 50, sequence: 3))) == .apply)
    link.availability(of: other, Array("online".utf8))
    let changed = link.claimArrived(
      LeaderClaim(client: other, epoch: 10, sinceWallNanoseconds: sixPM))
    #expect(changed)
    #expect(link.sign == .waitingForLeader)
    // Its epoch is older than the last leader's: still applied, it is the room's leader now.
    #expect(link.receive(try message(from: other, LinkStamp(epoch: 10, sequence: 1))) == .apply)
    #expect(link.sign == nil)
  }
}

@Suite struct JoiningTests {
  @Test func aWorkoutThatRanOutBeforeTheFollowerJoinedComesEndedAndNotLive() throws {
    var leader = try LeaderClock(notationPlan("amrap 1"))
    try leader.apply(.start, at: 0)
    // The leader's retained state from while it ran; the follower joins ten minutes later.
    let state = try leader.message(at: 1)
    let joinedLate = wall(600)
    let workout = try state.workout(at: followerClocks.reading(atWall: joinedLate))
    let (joined, live) = workout.joined(at: followerClocks.instant(atWall: joinedLate))
    #expect(!live)
    #expect(joined.engine.state.phase == .finished)
    // Nothing is left to sound: the finish is behind it.
    var after = joined
    #expect(after.advance(to: followerClocks.instant(atWall: wall(601))).isEmpty)
  }

  @Test func aWorkoutUnderWayOrAboutToStartIsLiveAndUnchanged() throws {
    var leader = try LeaderClock(notationPlan("amrap 14"))
    try leader.apply(.start, at: 0)
    let running = try leader.message(at: 30)
    let now = followerClocks.instant(atWall: wall(31))
    let workout = try running.workout(at: followerClocks.reading(atWall: wall(31)))
    let (joined, live) = workout.joined(at: now)
    #expect(live)
    #expect(joined.engine.state == workout.engine.state)
    let idle = try LeaderClock(notationPlan("amrap 14")).message(at: 0, startsAt: 5)
    let pending = try idle.workout(at: followerClocks.reading(atWall: wall(1)))
    #expect(pending.joined(at: followerClocks.instant(atWall: wall(1))).live)
    let nothing = try LeaderClock(notationPlan("amrap 14")).message(at: 0)
    let quiet = try nothing.workout(at: followerClocks.reading(atWall: wall(1)))
    #expect(!quiet.joined(at: followerClocks.instant(atWall: wall(1))).live)
  }
}

@Suite struct HomeAssistantOutcomeTests {
  @Test func aRefusalCarriesTheClocksWordsToTheSensorAndTheEvent() throws {
    let result = HomeAssistantCommandResult(
      outcome: .refused, entity: "workout",
      message: "a workout is running (amrap 14, 3:12 in): reset it first")
    let sensor = try JSONValue.parse(result.sensorPayload)
    #expect(sensor["result"]?.stringValue == "refused")
    #expect(sensor["entity"]?.stringValue == "workout")
    #expect(
      sensor["text"]?.stringValue
        == "refused: a workout is running (amrap 14, 3:12 in): reset it first")
    let event = try JSONValue.parse(result.eventPayload)
    #expect(event["event_type"]?.stringValue == "refused")
    #expect(event["message"] == sensor["message"])
    let long = HomeAssistantCommandResult(
      outcome: .refused, entity: "workout", message: String(repeating: "é", count: 400))
    #expect(long.text.unicodeScalars.count == HomeAssistantCommandResult.maximumTextLength)
    #expect(
      HomeAssistantCommandResult(outcome: .accepted, entity: "lap", message: "").text == "accepted")
  }

  @Test func theTextShowsTheLoadedWorkoutAndTheSelectAnOptionOrNone() throws {
    let engine = try WorkoutEngine(plan: notationPlan("amrap 7", name: "amrap 7"))
    let snapshot = engine.snapshot(at: EngineInstant(nanoseconds: 0))
    let reading = followerClocks.reading(atWall: sixPM)
    let typed = HomeAssistantState(
      snapshot: snapshot, reading: reading, workout: "amrap 7", isPreset: false)
    let payload = try JSONValue.parse(typed.payload)
    #expect(payload["workout"]?.stringValue == "amrap 7")
    #expect(payload["option"]?.stringValue == "None")
    let preset = HomeAssistantState(
      snapshot: snapshot, reading: reading, workout: nil, isPreset: true)
    #expect(try JSONValue.parse(preset.payload)["option"]?.stringValue == "amrap 7")
    #expect(try JSONValue.parse(preset.payload)["workout"]?.stringValue == "amrap 7")
    // The discovery reads them so.
    let discovery = HomeAssistantDiscovery(
      room: LinkRoom("hall")!, client: leaderID,
      device: HomeAssistantDevice(name: "Hall", softwareVersion: "1"), presets: ["fran"])
    let select = discovery.config(of: .presetSelect)
    #expect(select["value_template"]?.stringValue == "{{ value_json.option }}")
    let text = discovery.config(of: .workoutText)
    #expect(text["state_topic"]?.stringValue == "wodclock/hall/clock/lane-1/ha")
    #expect(text["value_template"]?.stringValue == "{{ value_json.workout }}")
    let result = discovery.config(of: .resultSensor)
    #expect(result["state_topic"]?.stringValue == "wodclock/hall/clock/lane-1/ha_result")
    let event = discovery.config(of: .resultEvent)
    #expect(event["event_types"] == ["accepted", "refused", "sent"])
  }
}
