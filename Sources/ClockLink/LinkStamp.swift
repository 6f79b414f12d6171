// SPDX-License-Identifier: MIT
// Which of two state messages is the newer: the leader's epoch, then its sequence number.

/// Where a state message stands among the leader's: an epoch and a sequence number within it,
/// ordered epoch first.
///
/// The epoch is the wall-clock instant (nanoseconds) at which a leader took authority, and the
/// sequence counts its state messages from 1. A leader that restarts (from its saved state or
/// not) takes a new epoch later than any it has seen on the state topic (see
/// ``LeaderSequence``), so its first message is newer than anything retained: a restarted leader
/// is never ignored. A follower applies a message only when its stamp is newer than the last it
/// applied (``isNewer(than:)``), so an old retained message, delivered again after a reconnect,
/// never wins over a newer one it already has.
public struct LinkStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var epoch: Int64
  public var sequence: Int64

  public init(epoch: Int64, sequence: Int64) {
    self.epoch = epoch
    self.sequence = sequence
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.epoch, lhs.sequence) < (rhs.epoch, rhs.sequence)
  }

  /// Whether a follower that last applied `applied` (nil: nothing yet) applies this one.
  public func isNewer(than applied: LinkStamp?) -> Bool {
    applied.map { self > $0 } ?? true
  }

  public var description: String { "\(epoch).\(sequence)" }
}

/// The stamps a leader gives its state messages.
public struct LeaderSequence: Sendable, Hashable {
  /// The stamp of the last message made (sequence 0 before the first).
  public private(set) var current: LinkStamp

  /// A leader that takes authority at wall-clock instant `wall` (its start, nanoseconds).
  public init(startingAt wall: Int64) {
    current = LinkStamp(epoch: max(wall, 0), sequence: 0)
  }

  /// The stamp of the next message.
  public mutating func next() -> LinkStamp {
    if current.sequence == Int64.max {
      // Never reached (a message a nanosecond for 292 years), but no count may trap.
      current = LinkStamp(epoch: current.epoch &+ 1, sequence: 0)
    }
    current.sequence += 1
    return current
  }

  /// Takes note of a stamp read on the state topic that this leader did not publish in this
  /// run: its own message from before a restart (retained by the broker), which may be newer
  /// than this run's epoch when the wall clock was set back meanwhile. Moves to a fresh epoch
  /// past it, so the followers that applied it do not ignore this leader. Returns whether it
  /// did (the next message must then be published at once, even when nothing changed).
  @discardableResult
  public mutating func sawEarlierRun(_ stamp: LinkStamp) -> Bool {
    guard stamp > current else { return false }
    let (epoch, overflow) = stamp.epoch.addingReportingOverflow(1)
    current = LinkStamp(epoch: overflow ? Int64.max : epoch, sequence: 0)
    return true
  }
}
