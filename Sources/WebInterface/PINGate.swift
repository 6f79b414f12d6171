// SPDX-License-Identifier: MIT
// The remote's PIN: compared in constant time, wrong guesses slowed down per client (an IPv4
// address, an IPv6 /64) and, for clients that have failed already, by a budget shared by all of
// them; on time the caller gives. A client with no wrong PIN on record is always checked at
// once, so a flood of wrong PINs from other addresses never keeps the coach out.

/// What happened to one PIN attempt, for the shell to answer and log.
public enum PINAttempt: Sendable, Hashable {
  /// The PIN is right: open a session. The client's count is reset.
  case granted
  /// The PIN is wrong: 401, and a warning with the address and `count`, its wrong PINs in a row.
  case wrong(count: Int)
  /// Too early after the client's last wrong PIN, or the budget of wrong PINs all clients that
  /// failed share is spent: 429 with `Retry-After: retryAfter`. The PIN was not looked at and
  /// the attempt does not count.
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

/// Who a PIN attempt is counted against: an IPv4 address, or the /64 network of an IPv6 address.
///
/// An IPv6 host chooses the interface identifier of its addresses itself (RFC 8981 temporary
/// addresses, or any it likes), so counting per IPv6 address would give a guesser 2^64 fresh
/// starts; a /64 is what one network segment is given (RFC 4291 §2.5.1), so it is counted as
/// one client. An IPv4 client of a dual-stack listener (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2)
/// counts as its IPv4 address.
public struct PINClient: Sendable, Hashable, CustomStringConvertible {
  /// 4 bytes (IPv4), 8 (an IPv6 /64 prefix), or none (the server did not say who it was).
  let key: [UInt8]

  /// The client of the address `bytes` (4 of them for IPv4, 16 for IPv6); any other count is
  /// the one "unknown" client.
  public init(addressBytes bytes: [UInt8]) {
    switch bytes.count {
    case 4: key = bytes
    case 16 where bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF:
      key = Array(bytes[12..<16])
    case 16: key = Array(bytes[0..<8])
    default: key = []
    }
  }

  /// `192.168.1.20`, `fd00:0:0:1::/64`, `unknown`.
  public var description: String {
    switch key.count {
    case 4: return key.map { String($0) }.joined(separator: ".")
    case 8:
      let groups = stride(from: 0, to: 8, by: 2).map {
        String(UInt16(key[$0]) << 8 | UInt16(key[$0 + 1]), radix: 16)
      }
      return groups.joined(separator: ":") + "::/64"
    default: return "unknown"
    }
  }
}

/// Checks PINs and throttles guessing. Pure: every instant is given (monotonic nanoseconds).
///
/// Per client, the first ``freeAttempts`` wrong PINs wait for nothing of their own; after them
/// attempt n must come at least 2^(n-3) s after the last wrong one (2, 4, 8 ... s, at most
/// ``longestWait``). Across all clients, a client that has a wrong PIN on record is checked only
/// while fewer than ``wrongPerMinute`` wrong PINs came in the last minute; a client with none
/// is checked at once, always, so the right PIN from the coach's phone gets in during a flood.
///
/// What that leaves a guesser: the shared budget, 60 × ``wrongPerMinute`` = 600 guesses an
/// hour, plus one unthrottled guess per client the gate has not seen. A client becomes unseen
/// again only an hour (``forgiveAfter``) after its last wrong PIN, or by being dropped from a
/// full table — and while the table is full (``rememberedClients``) a client it does not know
/// is treated as one that failed. So at most 600 + 1024 guesses an hour, even from a thousand
/// addresses: half the million 6-digit PINs take over 300 hours of an attack whose every guess
/// is logged; from one /24 of IPv4 addresses (254 clients), over 580 hours.
public struct PINGate: Sendable {
  public static let freeAttempts = 3
  public static let longestWait: Int64 = 60 * second
  public static let wrongPerMinute = 10
  public static let rememberedClients = 1024
  /// A client's wrong PINs are forgiven this long after the last one: a coach who mistyped in
  /// the morning starts the evening with three free tries, while a guesser at the capped wait
  /// still gets only one try a minute.
  public static let forgiveAfter: Int64 = 3600 * second
  static let second: Int64 = 1_000_000_000
  static let minute: Int64 = 60 * second

  private let pin: [UInt8]
  /// Wrong PINs in a row and the last one's instant, per client.
  private var clients: [PINClient: (count: Int, last: Int64)] = [:]
  /// The instants of the latest wrong PINs of all clients, at most ``wrongPerMinute``, oldest
  /// first.
  private var recentWrong: [Int64] = []

  /// A gate for `pin` (the configuration's, already checked to be digits).
  public init(pin: String) {
    self.pin = Array(pin.utf8)
  }

  /// How many clients have wrong PINs on record.
  public var rememberedCount: Int { clients.count }

  /// Tries `candidate` from `client` at `now`.
  public mutating func attempt(_ candidate: String, from client: PINClient, at now: Int64)
    -> PINAttempt
  {
    var entry = clients[client]
    if let found = entry, now - found.last >= Self.forgiveAfter {
      clients[client] = nil
      entry = nil
    }
    if let entry {
      let wait = Self.wait(afterWrong: entry.count)
      if wait > 0, now < entry.last + wait {
        return .throttled(retryAfter: Self.seconds(until: entry.last + wait, from: now))
      }
    }
    // A client that failed (or one the full table cannot tell from one that did) takes its turn
    // in the shared budget; a new one does not.
    let sharesBudget = entry != nil || clients.count >= Self.rememberedClients
    if sharesBudget, recentWrong.count >= Self.wrongPerMinute, let oldest = recentWrong.first,
      now < oldest + Self.minute
    {
      return .throttled(retryAfter: Self.seconds(until: oldest + Self.minute, from: now))
    }
    if Self.constantTimeEqual(Array(candidate.utf8), pin) {
      clients[client] = nil
      return .granted
    }
    recentWrong.append(now)
    if recentWrong.count > Self.wrongPerMinute { recentWrong.removeFirst() }
    let count = (entry?.count ?? 0) + 1
    if entry == nil, clients.count >= Self.rememberedClients,
      let oldest = clients.min(by: { $0.value.last < $1.value.last })?.key
    {
      clients[oldest] = nil
    }
    clients[client] = (count, now)
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
