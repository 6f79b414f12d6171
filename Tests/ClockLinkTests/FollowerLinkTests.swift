// SPDX-License-Identifier: MIT
// The follower's decisions: which state to apply, and the sign it shows about the link.

import Testing
import WorkoutCore

@testable import ClockLink

@Suite struct FollowerLinkTests {
  private func message(_ stamp: LinkStamp, speed: Int64 = 1) throws -> LeaderState {
    var clocks = leaderClocks
    clocks.speed = speed
    var state = try LeaderClock(notationPlan("amrap 14"), clocks: clocks).message(at: 0)
    state.stamp = stamp
    return state
  }

  private func connected(synchronized: Bool = true) -> FollowerLink {
    var link = FollowerLink(speed: 1, synchronized: synchronized)
    link.brokerConnection(true)
    link.claimArrived(LeaderClaim(client: leaderID, epoch: 1, sinceWallNanoseconds: sixPM))
    return link
  }

  @Test func anOldRetainedMessageNeverWinsOverANewerOne() throws {
    var link = connected()
    #expect(link.sign == .waitingForLeader)
    let first = LinkStamp(epoch: 2_000, sequence: 1)
    let second = LinkStamp(epoch: 2_000, sequence: 2)
    #expect(link.receive(try message(second)) == .apply)
    // The first, retained, delivered again after a reconnect; the second once more.
    #expect(link.receive(try message(first)) == .ignoreOlder)
    #expect(link.receive(try message(second)) == .ignoreOlder)
    #expect(link.lastApplied == second)
    // The leader restarted: a new epoch, its sequence from 1 again.
    #expect(link.receive(try message(LinkStamp(epoch: 3_000, sequence: 1))) == .apply)
    #expect(link.sign == nil)
  }

  @Test func theLeadersLastWillShowsLeaderOfflineAndItsReturnClearsIt() throws {
    var link = connected()
    _ = link.receive(try message(LinkStamp(epoch: 1, sequence: 1)))
    link.availability(of: leaderID, Array("offline".utf8))
    #expect(link.sign == .leaderOffline)
    #expect(link.sign?.description == "leader offline")
    link.availability(of: leaderID, Array("garbage".utf8))
    #expect(link.sign == .leaderOffline)
    // Another clock leaving is not the leader leaving.
    link.availability(of: followerID, Array("offline".utf8))
    link.availability(of: leaderID, Array("online".utf8))
    #expect(link.sign == nil)
  }

  @Test func theBrokerGoneIsSaid() throws {
    var link = connected()
    _ = link.receive(try message(LinkStamp(epoch: 1, sequence: 1)))
    link.brokerConnection(false)
    #expect(link.sign == .brokerUnreachable)
  }

  @Test func anUnsynchronizedClockRefusesToFollowThenAppliesTheNewestHeldState() throws {
    var link = connected(synchronized: false)
    #expect(link.sign == .clockNotSynchronized)
    #expect(link.receive(try message(LinkStamp(epoch: 1, sequence: 2))) == .holdUntilSynchronized)
    #expect(link.receive(try message(LinkStamp(epoch: 1, sequence: 1))) == .holdUntilSynchronized)
    #expect(link.lastApplied == nil)
    #expect(link.clockSynchronization(false)?.stamp == nil)
    let applied = link.clockSynchronization(true)
    #expect(applied?.stamp == LinkStamp(epoch: 1, sequence: 2))
    #expect(link.lastApplied == LinkStamp(epoch: 1, sequence: 2))
    #expect(link.clockSynchronization(true)?.stamp == nil)
    #expect(link.sign == nil)
  }

  @Test func aLeaderAtAnotherSpeedIsRefusedAndSaid() throws {
    var link = connected()
    #expect(link.receive(try message(LinkStamp(epoch: 1, sequence: 1), speed: 60)) == .refuseSpeed)
    #expect(link.sign == .speedMismatch(leader: 60, own: 1))
    #expect(link.receive(try message(LinkStamp(epoch: 1, sequence: 2))) == .apply)
    #expect(link.sign == nil)
  }
}
