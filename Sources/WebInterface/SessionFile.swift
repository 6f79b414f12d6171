// SPDX-License-Identifier: MIT
// The saved copy of the session table, so that a restart of the daemon does not sign the
// coach's phone out. Pure text in, text out; the daemon writes it (mode 0600, atomically) and
// reads it back.
//
//   wodclock web sessions 1
//   pin 5c1f…(32 hex) 9a7e…(64 hex)      the salt, and SHA-256(salt ‖ PIN)
//   session 3b0c…(64 hex) 1767225600     a token's SHA-256, the wall-clock second of its last use
//
// No token is in it, only hashes: a copy of the file signs no one in. The PIN's salted hash
// tells a restart with another PIN in the configuration (which signs everyone out, as a reload
// with a new PIN does) from one with the same; the PIN is in the configuration file in clear,
// readable by the same user, so the hash gives away nothing the daemon's user cannot read.
// Instants are wall-clock seconds, since the monotonic clock starts again at a reboot.

/// Writing and reading the saved session table.
public enum SessionFile {
  static let header = "wodclock web sessions 1"
  /// Random bytes of the salt of the PIN's hash.
  public static let saltBytes = 16
  /// Wall-clock seconds a saved instant may have: from 1970 to the year 36812. Anything else
  /// is a damaged file, refused before it is computed with.
  static let plausibleWallSeconds: ClosedRange<Int64> = 0...(1 << 40)
  static let nanosecondsPerSecond: Int64 = 1_000_000_000

  /// Why a saved table was not taken.
  public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file was written for another PIN: every session is signed out.
    case otherPIN
    /// Line `line` (from 1) is not what the daemon writes: `what`.
    case malformed(line: Int, what: String)

    public var description: String {
      switch self {
      case .otherPIN: "the sessions were opened with another PIN"
      case .malformed(let line, let what): "line \(line): \(what)"
      }
    }
  }

  /// The text of `table` for `pin`, at monotonic `now` when the wall clock reads `wallSeconds`.
  /// `salt` (``saltBytes`` random bytes) salts the PIN's hash.
  public static func text(
    of table: SessionTable, pin: String, salt: [UInt8], now: Int64, wallSeconds: Int64
  ) -> String {
    var lines = [header, "pin \(SessionTable.hex(salt)) \(pinHash(pin, salt: salt))"]
    for session in table.sessions where now - session.lastUse < SessionTable.lifetime {
      // How long ago it was used, in whole seconds (never negative).
      let age = max(0, now - session.lastUse) / nanosecondsPerSecond
      lines.append("session \(SessionTable.hex(session.tokenHash)) \(wallSeconds - age)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The table `text` saved, at monotonic `now` when the wall clock reads `wallSeconds`, for
  /// the configuration's `pin`. Sessions whose lifetime ended meanwhile are left out. A wall
  /// clock that went back counts as no time gone, and a session seems used no later than now.
  public static func table(
    from text: String, pin: String, now: Int64, wallSeconds: Int64
  ) -> Result<SessionTable, Problem> {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard lines.first == header else {
      return .failure(.malformed(line: 1, what: "expected '\(header)'"))
    }
    guard lines.count >= 2 else { return .failure(.malformed(line: 2, what: "no 'pin' line")) }
    let pinFields = lines[1].split(separator: " ", omittingEmptySubsequences: false)
    guard pinFields.count == 3, pinFields[0] == "pin",
      let salt = bytes(ofHex: pinFields[1], count: saltBytes),
      let savedHash = bytes(ofHex: pinFields[2], count: 32)
    else {
      return .failure(.malformed(line: 2, what: "expected 'pin SALT HASH' in hexadecimal"))
    }
    guard SessionTable.equal(savedHash, SHA256.hash(salt + Array(pin.utf8))) else {
      return .failure(.otherPIN)
    }
    guard lines.count - 2 <= SessionTable.capacity else {
      return .failure(
        .malformed(
          line: 2 + SessionTable.capacity + 1,
          what: "more than \(SessionTable.capacity) sessions"))
    }
    var table = SessionTable()
    for (offset, line) in lines.dropFirst(2).enumerated() {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.count == 3, fields[0] == "session",
        let hash = bytes(ofHex: fields[1], count: 32),
        let lastUse = Int64(fields[2]), plausibleWallSeconds.contains(lastUse)
      else {
        return .failure(
          .malformed(line: offset + 3, what: "expected 'session HASH SECONDS'"))
      }
      let ageSeconds = min(
        max(0, wallSeconds - lastUse), SessionTable.lifetime / nanosecondsPerSecond)
      let age = ageSeconds * nanosecondsPerSecond
      guard age < SessionTable.lifetime else { continue }
      // The instant of the last use, on the monotonic clock (no overflow: `age` is at most a
      // lifetime, and `now` a monotonic reading).
      let instant = now &- age
      table.sessions.append(
        SessionTable.Session(tokenHash: hash, lastUse: instant, savedLastUse: instant))
    }
    return .success(table)
  }

  /// SHA-256(salt ‖ PIN) in hexadecimal.
  static func pinHash(_ pin: String, salt: [UInt8]) -> String {
    SHA256.hexHash(salt + Array(pin.utf8))
  }

  /// The `count` bytes that `text` spells in lowercase hexadecimal, or nil.
  static func bytes(ofHex text: Substring, count: Int) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count == count * 2 else { return nil }
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
      default: nil
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }
}
