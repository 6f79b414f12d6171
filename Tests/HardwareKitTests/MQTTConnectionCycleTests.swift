// SPDX-License-Identifier: MIT
// The life of an MQTT connection as a value, on instants the test gives: the waits between
// attempts, a connection held that starts them over, and a client id clash seen by its reason
// code or by connections ended soon after they were accepted, that lasts until a connection is
// held longer than the clash's longest wait.

import HardwareKit
import RetryKit
import Testing

@Suite struct MQTTConnectionCycleTests {
  private let second: Int64 = 1_000_000_000

  private func connected(at now: Int64) -> MQTTConnectionCycle {
    var cycle = MQTTConnectionCycle(
      backoff: RetryBackoff(initial: second, maximum: 4 * second))
    cycle.attemptStarted()
    cycle.accepted(at: now)
    return cycle
  }

  @Test func failedAttemptsWaitLongerEachTimeUpToTheCeiling() {
    var cycle = MQTTConnectionCycle(backoff: RetryBackoff(initial: second, maximum: 4 * second))
    var now: Int64 = 100 * second
    var waits: [Int64] = []
    for _ in 0..<4 {
      cycle.attemptStarted()
      cycle.attemptFailed(at: now)
      waits.append(cycle.retryWait ?? 0)
      #expect(!cycle.attemptDue(at: now + (cycle.retryWait ?? 0) - 1))
      now += cycle.retryWait ?? 0
      #expect(cycle.attemptDue(at: now))
    }
    #expect(waits == [second, 2 * second, 4 * second, 4 * second])
    #expect(cycle.attempts == 4)
    #expect(cycle.connectionsAccepted == 0)
  }

  @Test func aConnectionHeldStartsTheWaitsOverAndOneAskedForIsNoFault() {
    var cycle = connected(at: 0)
    #expect(cycle.isConnected)
    #expect(cycle.retryWait == nil)
    #expect(cycle.ended(.other, at: 20 * second) == .other)
    #expect(cycle.retryWait == second)
    cycle.attemptStarted()
    cycle.accepted(at: 21 * second)
    #expect(cycle.ended(.asked, at: 22 * second) == .asked)
    #expect(!cycle.clientIDClash)
  }

  @Test func sessionTakenOverIsAClashThatWaitsHalfAMinuteDoubling() {
    var cycle = connected(at: 0)
    #expect(cycle.ended(.sessionTakenOver, at: 60 * second) == .clientIDClash)
    #expect(cycle.clientIDClash)
    #expect(cycle.clientIDTakeOvers == 1)
    #expect(cycle.retryWait == 30 * second)
    cycle.attemptStarted()
    cycle.accepted(at: 90 * second)
    // Held for minutes, shorter than the clash's longest wait: the clash goes on, and the
    // next take-over waits twice as long.
    cycle.noteHeld(at: 290 * second)
    #expect(cycle.clientIDClash)
    #expect(cycle.clashEnds == 90 * second + MQTTConnectionCycle.clashOverAfterNanoseconds)
    #expect(cycle.ended(.sessionTakenOver, at: 300 * second) == .clientIDClash)
    #expect(cycle.retryWait == 60 * second)
  }

  @Test func aClashEndsOnceAConnectionIsHeldLongerThanItsLongestWait() {
    var cycle = connected(at: 0)
    _ = cycle.ended(.sessionTakenOver, at: second)
    cycle.attemptStarted()
    cycle.accepted(at: 31 * second)
    let over = 31 * second + MQTTConnectionCycle.clashOverAfterNanoseconds
    cycle.noteHeld(at: over - 1)
    #expect(cycle.clientIDClash)
    cycle.noteHeld(at: over)
    #expect(!cycle.clientIDClash)
    #expect(cycle.clashEnds == nil)
    #expect(cycle.ended(.sessionTakenOver, at: over + second) == .clientIDClash)
    #expect(cycle.retryWait == 30 * second, "the clash's waits started over")
  }

  @Test func twoConnectionsEndedSoonWithoutAReasonAreAClash() {
    var cycle = connected(at: 0)
    #expect(cycle.ended(.lost, at: second) == .endedSoon(after: second))
    #expect(!cycle.clientIDClash)
    cycle.attemptStarted()
    cycle.accepted(at: 3 * second)
    #expect(cycle.ended(.lost, at: 4 * second) == .clientIDClash)
    #expect(cycle.clientIDClash)
    // A connection lost after it was held is the broker going, not a clash.
    var held = connected(at: 0)
    #expect(held.ended(.lost, at: 11 * second) == .other)
    #expect(!held.clientIDClash)
  }
}
