// SPDX-License-Identifier: MIT
// Debouncing on edge timestamps: a level counts once it has held for the debounce period.
//
// The timestamps are the kernel's (CLOCK_MONOTONIC, libgpiod.md §2 "Events"), so this works the
// same whether or not the kernel debounces (uAPI v1 and libgpiod 1.6 cannot, §2) and however
// late the daemon gets round to reading the events. Pure: instants are given, never read.

/// The debounced level of one line.
///
/// A change of level is accepted once the line has shown no edge for `period` after it (a
/// trailing debounce). That rejects the short spikes a horn relay induces in long button wires
/// as well as contact bounce. The accepted change is dated to the first edge of its burst, when
/// the person actually pressed or let go; it is known `period` after the last edge.
public struct Debouncer: Sendable {
  /// A settled change of level.
  public struct Change: Sendable, Equatable {
    /// The new level (true = active, pressed).
    public var level: Bool
    /// The first edge of the burst that led to it.
    public var instant: Int64

    /// Creates a change.
    public init(level: Bool, instant: Int64) {
      self.level = level
      self.instant = instant
    }
  }

  /// How long a level must hold before it counts, in nanoseconds (0 accepts every edge).
  public let period: Int64
  /// The accepted level.
  public private(set) var level: Bool
  /// The level after the last raw edge.
  private var rawLevel: Bool
  /// The first and the last raw edge since the level last settled, if any.
  private var burst: (first: Int64, last: Int64)?

  /// Creates a debouncer for a line that reads `level` now.
  public init(period: Int64, level: Bool) {
    precondition(period >= 0, "the debounce period must not be negative")
    self.period = period
    self.level = level
    self.rawLevel = level
  }

  /// The first edge of a burst that has not settled yet: nothing after it is certain.
  public var unsettledSince: Int64? { burst?.first }

  /// When the current burst settles if no further edge comes, or nil without a burst.
  public var settlesAt: Int64? { burst.map { $0.last + period } }

  /// Feeds a raw edge to `level` at `instant` (edges in timestamp order). Returns the change a
  /// previous burst settled into before this edge, if one did.
  public mutating func edge(to level: Bool, at instant: Int64) -> Change? {
    let settled = settle(at: instant)
    guard level != rawLevel else { return settled }
    rawLevel = level
    if let current = burst {
      burst = (current.first, instant)
    } else {
      burst = (instant, instant)
    }
    if period == 0 { return settled ?? settle(at: instant) }
    return settled
  }

  /// Settles the current burst if it has been quiet for the period by `now`. Returns the
  /// change, or nil when there is none (no burst, still bouncing, or a spike that came back).
  public mutating func settle(at now: Int64) -> Change? {
    guard let current = burst, now - current.last >= period else { return nil }
    burst = nil
    guard rawLevel != level else { return nil }
    level = rawLevel
    return Change(level: rawLevel, instant: current.first)
  }
}
