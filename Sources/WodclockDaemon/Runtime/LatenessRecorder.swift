// SPDX-License-Identifier: MIT
// How late the loop gets to the engine's deadlines: the figure that says whether the clock
// keeps time on this machine (`wodclockctl stats`, and the wake-up benchmark). Every deadline
// the loop waited for counts once, however the loop came to it (see Daemon.recordLateness).

/// The most recent wake-up latenesses, in nanoseconds, in a fixed-size ring (no growth over
/// weeks of running).
struct LatenessRecorder {
  static let capacity = 8192
  private var samples: [Int64] = []
  private var next = 0
  private(set) var total = 0

  mutating func record(_ lateness: Int64) {
    if samples.count < Self.capacity {
      samples.append(lateness)
    } else {
      samples[next] = lateness
    }
    next = (next + 1) % Self.capacity
    total += 1
  }

  struct Summary: Equatable {
    var count: Int
    var p50: Int64
    var p99: Int64
    var max: Int64
    /// Samples later than a millisecond: on a loaded machine p99 sits on the edge of a tail of
    /// scheduler-slice waits, and the share in that tail compares better than p99 alone.
    var overOneMillisecond: Int
  }

  /// Percentiles of the samples kept (nearest-rank).
  var summary: Summary? { summary(including: nil) }

  /// Percentiles of the samples kept and of `pending`, a lateness not recorded yet.
  func summary(including pending: Int64?) -> Summary? {
    let sorted = (pending.map { samples + [$0] } ?? samples).sorted()
    guard !sorted.isEmpty else { return nil }
    func rank(_ percent: Int) -> Int64 {
      sorted[min(sorted.count - 1, max(0, (sorted.count * percent + 99) / 100 - 1))]
    }
    return Summary(
      count: sorted.count, p50: rank(50), p99: rank(99), max: sorted[sorted.count - 1],
      overOneMillisecond: sorted.count { $0 > 1_000_000 })
  }

  mutating func reset() {
    samples = []
    next = 0
    total = 0
  }
}
