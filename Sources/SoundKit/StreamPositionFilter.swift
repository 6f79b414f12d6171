// SPDX-License-Identifier: MIT
// Where a playback stream really is, from reads of its position that are each late by an
// unknown amount.
//
// A card's position (ALSA's hw_ptr) moves in steps: a period, a USB packet, or for snd-aloop a
// timer tick (4 ms at HZ=250). The kernel stamps a read with the time of the read, not of the
// step (snd_pcm_update_hw_ptr0 takes the time after the driver's pointer callback), so a read
// made between two steps sees a position that is old by up to a step: every read says the
// next frame is heard later than it really is, never earlier. Averaging such reads puts every
// sound early by half a step; the earliest of recent reads is the truest, provided some read
// fell just after a step: reads made at the same moment of every step (when the card's own
// interrupt wakes the writer) are all old by the same amount, so the writer spreads its reads
// over the step. This keeps the recent reads' errors and follows their smallest.

/// The correction a stream's frame count needs, from the errors of its recent position reads.
public struct StreamPositionFilter: Sendable {
  /// The reads remembered: a few periods' worth, so that one of them fell just after a step,
  /// and short enough that a card's clock running against the system's (parts per million)
  /// does not move within them.
  public static let capacity = 32

  /// A correction this large is made at once, even while a sound plays (a jump: frames lost).
  public let immediate: Int64
  /// A smaller one larger than this is made while silence is written, so that a sound that
  /// is playing never moves.
  public let followed: Int64

  private var errors: [Int64]
  private var count = 0
  private var next = 0

  public init(immediate: Int64, followed: Int64) {
    self.immediate = immediate
    self.followed = followed
    errors = [Int64](repeating: 0, count: Self.capacity)
  }

  /// Forgets every read: the stream started again, or ran dry and restarted.
  public mutating func reset() {
    count = 0
    next = 0
  }

  /// Takes a read's error (nanoseconds: when the read says the next frame is heard, minus
  /// when the count says it is) and returns the correction to add to the count now: 0, or the
  /// smallest recent error. The first read after a reset is taken whole.
  public mutating func correction(adding error: Int64, whileSilent silent: Bool) -> Int64 {
    if count == 0 {
      record(0)
      return error
    }
    record(error)
    var smallest = Int64.max
    for index in 0..<count { smallest = min(smallest, errors[index]) }
    guard smallest.magnitude > (silent ? followed : immediate).magnitude else { return 0 }
    for index in 0..<count { errors[index] -= smallest }
    return smallest
  }

  private mutating func record(_ error: Int64) {
    errors[next] = error
    next = (next + 1) % Self.capacity
    count = min(count + 1, Self.capacity)
  }
}
