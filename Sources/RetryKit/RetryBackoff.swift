// SPDX-License-Identifier: MIT
// How long to wait before trying again after a failure: a first wait, doubled on every failure
// in a row up to a ceiling, and back to the first after a success. The one policy of every part
// that retries (the MQTT client, the plugin slots, the outputs and inputs that reopen their
// devices), each with its own first wait and ceiling; a value given no clock, so the waits of
// each are tested exactly.

/// The waits between attempts at something that fails until it does not (a connection, a
/// device). A value: the caller keeps it with what it retries.
public struct RetryBackoff: Hashable, Sendable {
  /// The wait after the first failure, in nanoseconds.
  public let initial: Int64
  /// The longest wait, in nanoseconds.
  public let maximum: Int64
  /// The wait the next failure gets.
  public private(set) var upcoming: Int64

  /// 1 s doubling to 30 s: soon enough that a broker or a device back after a blip is found at
  /// once, rare enough that one gone for hours costs nothing and fills no log.
  public init(initial: Int64 = 1_000_000_000, maximum: Int64 = 30_000_000_000) {
    self.initial = max(1, initial)
    self.maximum = max(self.initial, maximum)
    upcoming = self.initial
  }

  /// A failure: the wait before the next attempt; the one after it is twice as long, up to
  /// ``maximum``.
  public mutating func failed() -> Int64 {
    let wait = upcoming
    upcoming = upcoming > maximum / 2 ? maximum : upcoming * 2
    return wait
  }

  /// A success: the next failure waits ``initial`` again.
  public mutating func reset() { upcoming = initial }
}
