// SPDX-License-Identifier: MIT
// Rooms keep to themselves, and the newest state message wins however the leader restarts.

import Testing

@testable import ClockLink

@Suite struct LinkTopicsTests {
  private func topics(_ room: LinkRoom) -> Set<String> {
    [
      room.stateTopic, room.claimTopic, room.commandTopic,
      room.availabilityTopic(of: leaderID), room.availabilityTopic(of: followerID),
      room.homeAssistantStateTopic(of: leaderID),
      room.homeAssistantCommandTopic(of: leaderID, entity: "lap"),
    ]
  }

  @Test func twoRoomsOnOneBrokerShareNoTopic() throws {
    let hall = try #require(LinkRoom("hall"))
    let annex = try #require(LinkRoom("hall-2"))
    #expect(topics(hall).isDisjoint(with: topics(annex)))
    // No topic of one room is inside the other's namespace, not even with a common prefix.
    #expect(!topics(annex).contains(where: hall.contains(topic:)))
    #expect(topics(hall).allSatisfy(hall.contains(topic:)))
    #expect(hall.stateTopic == "wodclock/hall/state")
    #expect(hall.availabilityTopic(of: followerID) == "wodclock/hall/clock/lane-2/available")
    #expect(LinkRoom.standard.name == "main")
  }

  @Test(arguments: [
    "", "a/b", "+", "#", "hall/#", "two words", "é", String(repeating: "r", count: 65),
  ])
  func aRoomCannotReachIntoAnotherRoomsTopics(_ name: String) {
    #expect(LinkRoom(name) == nil)
    #expect(LinkRoom.problem(with: name) != nil)
  }

  @Test func roomNamesOfTheAllowedCharactersAreRooms() {
    #expect(LinkRoom("Main_floor-2") != nil)
    #expect(LinkRoom(String(repeating: "r", count: 64)) != nil)
  }

  @Test func aClientIDHoldsNoSeparatorAndItsNodeIDOnlyHomeAssistantsCharacters() throws {
    #expect(LinkClientID("a/b") == nil && LinkClientID("+") == nil && LinkClientID("") == nil)
    let client = try #require(LinkClientID("gym-pi.local"))
    #expect(client.nodeID == "gym-pi_local")
  }
}

@Suite struct LinkStampTests {
  @Test func aFollowerAppliesOnlyANewerStamp() {
    let applied = LinkStamp(epoch: 100, sequence: 7)
    #expect(LinkStamp(epoch: 100, sequence: 8).isNewer(than: applied))
    #expect(!LinkStamp(epoch: 100, sequence: 7).isNewer(than: applied))
    #expect(!LinkStamp(epoch: 99, sequence: 900).isNewer(than: applied))
    #expect(LinkStamp(epoch: 101, sequence: 1).isNewer(than: applied))
    #expect(LinkStamp(epoch: 0, sequence: 1).isNewer(than: nil))
  }

  @Test func aRestartedLeaderIsNeverIgnored() {
    // The first run published up to sequence 40; the follower applied it.
    var first = LeaderSequence(startingAt: 1_000)
    var last = first.next()
    for _ in 1..<40 { last = first.next() }
    let applied = last
    // Restarted later: its epoch alone puts it ahead.
    var second = LeaderSequence(startingAt: 5_000)
    let secondMoved = second.sawEarlierRun(applied)
    #expect(!secondMoved)
    #expect(second.next().isNewer(than: applied))
    // Restarted with the wall clock set back: the retained message it reads on the state topic
    // moves it past, and its next message is newer than what the followers applied.
    var setBack = LeaderSequence(startingAt: 500)
    #expect(!LinkStamp(epoch: 500, sequence: 1).isNewer(than: applied))
    let setBackMoved = setBack.sawEarlierRun(applied)
    #expect(setBackMoved)
    let next = setBack.next()
    #expect(next.isNewer(than: applied))
    #expect(next == LinkStamp(epoch: 1_001, sequence: 1))
    // Its own messages of this run, read back, move nothing.
    let movedByItsOwn = setBack.sawEarlierRun(next)
    #expect(!movedByItsOwn)
  }

  @Test func theSequenceNeverTraps() {
    var sequence = LeaderSequence(startingAt: .max)
    let moved = sequence.sawEarlierRun(LinkStamp(epoch: .max, sequence: .max))
    #expect(moved)
    _ = sequence.next()
    #expect(sequence.current.epoch == .max)
  }
}
