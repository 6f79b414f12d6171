// SPDX-License-Identifier: MIT
// The remote's sessions: random tokens in a cookie, valid for 12 hours after their last use, at
// most 32 of them. Only a token's SHA-256 is kept, in memory and in the saved copy that lets the
// sessions outlive a restart of the daemon (SessionFile).

/// Signed-in clients. Pure: the caller gives the random bytes and every instant (monotonic
/// nanoseconds).
public struct SessionTable: Sendable {
  /// A session lasts this long after its last use.
  public static let lifetime: Int64 = 12 * 3600 * 1_000_000_000
  /// The most sessions kept: opening one more closes the one used longest ago.
  public static let capacity = 32
  /// Random bytes in a token: 128 bits, written as 32 lowercase hexadecimal digits.
  public static let tokenBytes = 16
  public static let cookieName = "wodclock_session"

  /// A saved copy is written again when a session's last use moved on this far since the copy
  /// had it: a restart then costs a session at most this much of its lifetime, while a busy
  /// remote does not write the file at every press.
  public static let saveInterval: Int64 = 10 * 60 * 1_000_000_000

  /// A session: its token's SHA-256, its last use, and the last use the saved copy has.
  struct Session: Sendable {
    var tokenHash: [UInt8]
    var lastUse: Int64
    var savedLastUse: Int64?
  }

  var sessions: [Session] = []
  /// A session was opened or closed since the table was last saved.
  private var changedSinceSave = false

  public init() {}

  /// How many sessions are open (expired ones included until they are next looked at).
  public var count: Int { sessions.count }

  /// Opens a session at `now` for a token made of `randomBytes` (``tokenBytes`` of them, from
  /// the system's random source) and returns the token.
  public mutating func open(randomBytes: [UInt8], at now: Int64) -> String {
    precondition(randomBytes.count == Self.tokenBytes, "a session token takes 16 random bytes")
    let token = Array(Self.hex(randomBytes).utf8)
    removeExpired(at: now)
    if sessions.count >= Self.capacity,
      let oldest = sessions.indices.min(by: { sessions[$0].lastUse < sessions[$1].lastUse })
    {
      sessions.remove(at: oldest)
    }
    sessions.append(Session(tokenHash: SHA256.hash(token), lastUse: now, savedLastUse: nil))
    changedSinceSave = true
    return String(decoding: token, as: UTF8.self)
  }

  /// The session the request's `Cookie` header names, if one is open and has not expired at
  /// `now`; using it keeps it for another ``lifetime``. The header may hold several cookies
  /// (RFC 6265 §5.4: `name=value` pairs separated by `;` and spaces), a cookie of this name more
  /// than once (each is tried), or anything at all: what is not a well-formed token is ignored.
  public mutating func validate(cookieHeader: String?, at now: Int64) -> String? {
    guard let cookieHeader else { return nil }
    removeExpired(at: now)
    for candidate in Self.tokens(inCookieHeader: cookieHeader) {
      // Every open session is compared in full, so the time taken says nothing about how much
      // of a guess was right (and what is compared is a hash, which says nothing either).
      let hash = SHA256.hash(candidate)
      var found: Int?
      for (index, session) in sessions.enumerated() where Self.equal(session.tokenHash, hash) {
        found = index
      }
      if let found {
        sessions[found].lastUse = now
        return String(decoding: candidate, as: UTF8.self)
      }
    }
    return nil
  }

  /// Closes the session of `token` (sign out); an unknown token is ignored.
  public mutating func close(_ token: String) {
    let hash = SHA256.hash(Array(token.utf8))
    let before = sessions.count
    sessions.removeAll { Self.equal($0.tokenHash, hash) }
    if sessions.count != before { changedSinceSave = true }
  }

  /// Closes every session (a new PIN).
  public mutating func closeAll() {
    if !sessions.isEmpty { changedSinceSave = true }
    sessions.removeAll()
  }

  /// Whether the saved copy should be written again at `now`: a session was opened or closed,
  /// or one was used ``saveInterval`` after the use the copy has (expiry alone does not count:
  /// the copy's own instants expire it when read back).
  public func needsSaving(at now: Int64) -> Bool {
    changedSinceSave
      || sessions.contains { session in
        guard let saved = session.savedLastUse else { return true }
        return session.lastUse - saved >= Self.saveInterval
      }
  }

  /// The saved copy has what the table holds now.
  public mutating func markSaved() {
    changedSinceSave = false
    for index in sessions.indices { sessions[index].savedLastUse = sessions[index].lastUse }
  }

  /// `Set-Cookie` for a new session: only for this site's own requests (`SameSite=Strict`), not
  /// readable by scripts (`HttpOnly`), for the whole site, for ``lifetime`` (RFC 6265 §4.1).
  /// Not `Secure`: the clock serves plain HTTP on the gym's network.
  public static func setCookie(_ token: String) -> WebHeader {
    WebHeader(
      "Set-Cookie",
      "\(cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/; Max-Age=\(lifetime / 1_000_000_000)"
    )
  }

  /// `Set-Cookie` that removes the cookie (sign out).
  public static let clearCookie = WebHeader(
    "Set-Cookie", "\(cookieName)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")

  /// The well-formed tokens among the header's cookies of our name, in order.
  static func tokens(inCookieHeader header: String) -> [[UInt8]] {
    var tokens: [[UInt8]] = []
    for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
      let pair = Array(pair)
      guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = trimmed(pair[..<equals])
      guard name.elementsEqual(cookieName.utf8) else { continue }
      var value = trimmed(pair[(equals + 1)...])
      // A cookie value may be written in double quotes (RFC 6265 §4.1.1).
      if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
        value = value.dropFirst().dropLast()
      }
      if isToken(value) { tokens.append(Array(value)) }
    }
    return tokens
  }

  /// 32 lowercase hexadecimal digits.
  static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.count == tokenBytes * 2
      && bytes.allSatisfy {
        ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
          || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
      }
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var slice = bytes
    while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
      slice = slice.dropFirst()
    }
    while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
      slice = slice.dropLast()
    }
    return slice
  }

  private mutating func removeExpired(at now: Int64) {
    sessions.removeAll { now - $0.lastUse >= Self.lifetime }
  }

  /// Equal tokens, in time that does not depend on where they differ.
  static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
