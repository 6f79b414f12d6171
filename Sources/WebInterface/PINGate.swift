// SPDX-License-Identifier: MIT
// The remote's PIN: compared in constant time, wrong guesses slowed down per client address and
// capped across all of them, on time the caller gives.

/// What happened to one PIN attempt, for the shell to answer and log.
public enum PINAttempt: Sendable, Hashable {
  /// The PIN is right: open a session. The address's count is reset.
  case granted
  /// The PIN is wrong: 401, and a warning with the address and `count`, its wrong PINs in a row.
  case wrong(count: Int)
  /// Too early after the last wrong PIN (of this address, or too many of all of them in the
  /// last minute): 429 with `Retry-After: retryAfter`. The PIN was not looked at and the
  /// attempt does not count.
  case throttled(retryAfter: Int)

  /// The answer's error, nil for ``granted``.
  public var error: WebError? {
    switch self {
    case .granted: nil
    case .wrong: .wrongPIN
    case .throttled(let seconds): .tooManyAttempts(retryAfter: seconds)
    }
  }
}

/// Checks PINs and throttles guessing. Pure: every instant is given (monotonic nanoseconds).
///
/// Per address, the first ``freeAttempts`` wrong PINs cost nothing; after them attempt n must
/// come at least 2^(n-3) s after the last wrong one (2, 4, 8 ... s, at most ``longestWait``).
/// Across all addresses at most ``wrongPerMinute`` wrong PINs are taken in any minute. At most
/// ``rememberedAddresses`` addresses are kept: the one whose last wrong PIN is oldest goes.
public struct PINGate: Sendable {
  public static let freeAttempts = 3
  public static let longestWait: Int64 = 60 * second
  public static let wrongPerMinute = 20
  public static let rememberedAddresses = 256
  /// An address's wrong PINs are forgiven this long after the last one: a coach who mistyped in
  /// the morning starts the evening with three free tries, while a guesser at the capped wait
  /// still gets only one try a minute.
  public static let forgiveAfter: Int64 = 3600 * second
  static let second: Int64 = 1_000_000_000
  static let minute: Int64 = 60 * second

  private let pin: [UInt8]
  /// Wrong PINs in a row and the last one's instant, per address.
  private var addresses: [(address: String, count: Int, last: Int64)] = []
  /// The instants of the latest wrong PINs of all addresses, at most ``wrongPerMinute``, oldest
  /// first.
  private var recentWrong: [Int64] = []

  /// A gate for `pin` (the configuration's, already checked to be 4–12 digits).
  public init(pin: String) {
    self.pin = Array(pin.utf8)
  }

  /// How many addresses have wrong PINs on record.
  public var rememberedCount: Int { addresses.count }

  /// Tries `candidate` from `address` at `now`.
  public mutating func attempt(_ candidate: String, from address: String, at now: Int64)
    -> PINAttempt
  {
    var position = addresses.firstIndex { $0.address == address }
    if let found = position, now - addresses[found].last >= Self.forgiveAfter {
      addresses.remove(at: found)
      position = nil
    }
    if let position {
      let entry = addresses[position]
      let wait = Self.wait(afterWrong: entry.count)
      if wait > 0, now < entry.last + wait {
        return .throttled(retryAfter: Self.seconds(until: entry.last + wait, from: now))
      }
    }
    if recentWrong.count >= Self.wrongPerMinute, let oldest = recentWrong.first,
      now < oldest + Self.minute
    {
      return .throttled(retryAfter: Self.seconds(until: oldest + Self.minute, from: now))
    }
    if Self.constantTimeEqual(Array(candidate.utf8), pin) {
      if let position { addresses.remove(at: position) }
      return .granted
    }
    recentWrong.append(now)
    if recentWrong.count > Self.wrongPerMinute { recentWrong.removeFirst() }
    var count = 1
    if let position {
      count = addresses[position].count + 1
      addresses.remove(at: position)
    } else if addresses.count >= Self.rememberedAddresses {
      // Entries are kept in the order of their last wrong PIN: the first is the oldest.
      addresses.removeFirst()
    }
    addresses.append((address, count, now))
    return .wrong(count: count)
  }

  /// How long after the last of `wrong` wrong PINs the next attempt must wait: nothing for the
  /// first ``freeAttempts``, then 2^(n-3) s for attempt n = wrong + 1, at most ``longestWait``.
  static func wait(afterWrong wrong: Int) -> Int64 {
    let exponent = wrong + 1 - freeAttempts
    guard wrong >= freeAttempts, exponent > 0 else { return 0 }
    // 2^6 s is past the cap already; never shift further (no overflow whatever the count).
    guard exponent < 6 else { return longestWait }
    return min(longestWait, (Int64(1) << Int64(exponent)) * second)
  }

  /// Whole seconds from `now` until `instant`, rounded up, at least 1 (a `Retry-After`).
  static func seconds(until instant: Int64, from now: Int64) -> Int {
    let left = max(0, instant - now)
    return max(1, Int((left + second - 1) / second))
  }

  /// Compares in time that depends on the candidate's length only, never on where the first
  /// difference is or on the PIN's own length: every byte of the candidate is looked at, and the
  /// lengths are compared in the same sum.
  static func constantTimeEqual(_ candidate: [UInt8], _ pin: [UInt8]) -> Bool {
    guard !pin.isEmpty else { return false }
    var difference = UInt64(truncatingIfNeeded: candidate.count ^ pin.count)
    for (index, byte) in candidate.enumerated() {
      difference |= UInt64(byte ^ pin[index % pin.count])
    }
    return difference == 0
  }
}
