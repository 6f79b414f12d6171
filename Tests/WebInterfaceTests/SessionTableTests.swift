// SPDX-License-Identifier: MIT
// Sessions: tokens from the random bytes given, sliding expiry after 12 hours without use, at
// most 32, and the Cookie header read whatever a client sends.

import Testing
import WebInterface
import WodclockTestSupport

@Suite("Session table")
struct SessionTableTests {
  static let hour: Int64 = 3_600_000_000_000

  static func bytes(_ seed: UInt8) -> [UInt8] { (0..<16).map { UInt8($0) &* 17 &+ seed } }

  @Test("a token is the 16 random bytes as 32 lowercase hexadecimal digits")
  func token() {
    var table = SessionTable()
    let token = table.open(randomBytes: Array(0..<16).map { UInt8($0 * 16 + 15) }, at: origin)
    #expect(token == "0f1f2f3f4f5f6f7f8f9fafbfcfdfefff")
    #expect(table.validate(cookieHeader: "wodclock_session=\(token)", at: origin) == token)
    #expect(
      SessionTable.setCookie(token).value
        == "wodclock_session=\(token); HttpOnly; SameSite=Strict; Path=/; Max-Age=43200")
    #expect(SessionTable.setCookie(token).name == "Set-Cookie")
    #expect(
      SessionTable.clearCookie.value
        == "wodclock_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
  }

  @Test("valid for 12 hours after the last use: each use keeps it another 12 hours")
  func slidingExpiry() {
    var table = SessionTable()
    let token = table.open(randomBytes: Self.bytes(1), at: origin)
    let cookie = "wodclock_session=" + token
    var now = origin
    for _ in 0..<5 {
      now += 11 * Self.hour
      #expect(table.validate(cookieHeader: cookie, at: now) == token)
    }
    // 55 hours after it was opened, 11 after its last use: still good. 12 after: gone.
    now += 12 * Self.hour
    #expect(table.validate(cookieHeader: cookie, at: now) == nil)
    #expect(table.count == 0)
    #expect(table.validate(cookieHeader: cookie, at: now - 1) == nil)
  }

  @Test("just under 12 hours is in, exactly 12 is out")
  func expiryEdge() {
    var table = SessionTable()
    let token = table.open(randomBytes: Self.bytes(2), at: origin)
    var copy = table
    #expect(
      table.validate(cookieHeader: "wodclock_session=" + token, at: origin + 12 * Self.hour - 1)
        == token)
    #expect(
      copy.validate(cookieHeader: "wodclock_session=" + token, at: origin + 12 * Self.hour) == nil)
  }

  @Test("at most 32 sessions: a new one closes the one used longest ago")
  func bound() {
    var table = SessionTable()
    var tokens: [String] = []
    for index in 0..<32 {
      tokens.append(table.open(randomBytes: Self.bytes(UInt8(index)), at: origin + Int64(index)))
    }
    // Using the first makes the second the one used longest ago.
    #expect(table.validate(cookieHeader: "wodclock_session=" + tokens[0], at: origin + 100) != nil)
    let newest = table.open(randomBytes: Self.bytes(200), at: origin + 101)
    #expect(table.count == 32)
    #expect(table.validate(cookieHeader: "wodclock_session=" + tokens[1], at: origin + 102) == nil)
    for token in [tokens[0], tokens[2], tokens[31], newest] {
      #expect(table.validate(cookieHeader: "wodclock_session=" + token, at: origin + 103) == token)
    }
  }

  @Test("close signs a session out")
  func close() {
    var table = SessionTable()
    let token = table.open(randomBytes: Self.bytes(3), at: origin)
    let other = table.open(randomBytes: Self.bytes(4), at: origin)
    table.close(token)
    table.close("not a token")
    #expect(table.validate(cookieHeader: "wodclock_session=" + token, at: origin) == nil)
    #expect(table.validate(cookieHeader: "wodclock_session=" + other, at: origin) == other)
  }

  @Test("the Cookie header: several cookies, spaces, quotes, repeats; garbage never traps")
  func cookieParsing() {
    var table = SessionTable()
    let token = table.open(randomBytes: Self.bytes(5), at: origin)
    let stale = String(repeating: "0", count: 32)
    for header in [
      "wodclock_session=\(token)",
      "theme=dark; wodclock_session=\(token); lang=en",
      "theme=dark;wodclock_session=\(token)",
      "  wodclock_session = \(token)  ",
      "wodclock_session=\"\(token)\"",
      // An old cookie of the same name first (another path): each is tried.
      "wodclock_session=\(stale); wodclock_session=\(token)",
      ";;wodclock_session=\(token);;",
    ] {
      #expect(table.validate(cookieHeader: header, at: origin) == token, "\(header)")
    }
    for header in [
      "", ";", "=", "wodclock_session", "wodclock_session=", "wodclock_session=\(stale)",
      "Wodclock_Session=\(token)", "wodclock_session=\(token.uppercased())",
      "wodclock_session=\(token)0", "wodclock_session=\(token.dropLast())",
      "xwodclock_session=\(token)", "wodclock_session=\"\(token)", "\u{0}\u{FFFD}\u{1B}[2J",
      String(repeating: "wodclock_session=;", count: 2000),
      "wodclock_session=\(token.prefix(16))\u{0301}\(token.dropFirst(16))",
    ] {
      #expect(table.validate(cookieHeader: header, at: origin) == nil, "\(header.prefix(60))")
    }
    #expect(table.validate(cookieHeader: nil, at: origin) == nil)
  }
}
