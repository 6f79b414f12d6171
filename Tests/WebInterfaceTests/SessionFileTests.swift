// SPDX-License-Identifier: MIT
// SHA-256 against FIPS 180-4's examples, and the saved session table on manual time: a round
// trip, expiry across the restart, another PIN, a damaged file, and no token in the text.

import Testing
import WebInterface
import WodclockTestSupport

@Suite("SHA-256 and the saved sessions")
struct SessionFileTests {
  static let second: Int64 = 1_000_000_000
  static let hour: Int64 = 3600 * second
  static let wall: Int64 = 1_767_225_600
  static let salt = [UInt8](repeating: 7, count: SessionFile.saltBytes)

  static func bytes(_ seed: UInt8) -> [UInt8] { (0..<16).map { UInt8($0) &* 13 &+ seed } }

  @Test(
    "the digests of FIPS 180-4's examples (and NIST's long messages)",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
          + "lmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ])
  func digests(message: String, digest: String) {
    #expect(SHA256.hexHash(Array(message.utf8)) == digest)
  }

  @Test("a million 'a's, and messages around the 55/56/64-byte padding edges")
  func longAndEdges() {
    #expect(
      SHA256.hexHash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    #expect(
      SHA256.hexHash([UInt8](repeating: UInt8(ascii: "a"), count: 55))
        == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
    #expect(
      SHA256.hexHash([UInt8](repeating: UInt8(ascii: "a"), count: 56))
        == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    #expect(
      SHA256.hexHash([UInt8](repeating: UInt8(ascii: "a"), count: 64))
        == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
  }

  @Test("sessions come back from the text with their ages, and the text holds no token")
  func roundTrip() throws {
    var table = SessionTable()
    let early = table.open(randomBytes: Self.bytes(1), at: origin)
    let late = table.open(randomBytes: Self.bytes(2), at: origin + 3 * Self.hour)
    let now = origin + 4 * Self.hour
    #expect(table.needsSaving(at: now))
    let text = SessionFile.text(
      of: table, pin: "482193", salt: Self.salt, now: now, wallSeconds: Self.wall)
    table.markSaved()
    #expect(!table.needsSaving(at: now))
    #expect(!text.contains(early) && !text.contains(late), "hashes only")
    #expect(!text.contains("482193"))
    #expect(text.hasPrefix("wodclock web sessions 1\npin 0707"))
    #expect(text.split(separator: "\n").count == 4)

    // A restart 10 minutes later, on a monotonic clock that began again (a reboot).
    let restarted: Int64 = 5 * Self.second
    var back = try SessionFile.table(
      from: text, pin: "482193", now: restarted, wallSeconds: Self.wall + 600
    ).get()
    #expect(back.count == 2)
    #expect(!back.needsSaving(at: restarted))
    #expect(back.validate(cookieHeader: "wodclock_session=\(late)", at: restarted) == late)
    // The early one was last used 4 h 10 min ago: it lasts until 12 h after that use.
    let left = 12 * Self.hour - (4 * Self.hour + 600 * Self.second)
    #expect(
      back.validate(cookieHeader: "wodclock_session=\(early)", at: restarted + left - Self.second)
        == early)
    var expired = try SessionFile.table(
      from: text, pin: "482193", now: restarted, wallSeconds: Self.wall + 9 * 3600
    ).get()
    #expect(expired.count == 1, "the early one's 12 hours ended while the daemon was down")
    #expect(expired.validate(cookieHeader: "wodclock_session=\(early)", at: restarted) == nil)
    // A wall clock that went back counts as no time gone.
    let behind = try SessionFile.table(
      from: text, pin: "482193", now: restarted, wallSeconds: Self.wall - 86400
    ).get()
    #expect(behind.count == 2)
  }

  @Test("a use long after the saved one asks for a save; a signed-out session too")
  func whenToSave() {
    var table = SessionTable()
    let token = table.open(randomBytes: Self.bytes(3), at: origin)
    table.markSaved()
    let cookie = "wodclock_session=\(token)"
    _ = table.validate(cookieHeader: cookie, at: origin + SessionTable.saveInterval - 1)
    #expect(!table.needsSaving(at: origin + SessionTable.saveInterval - 1))
    _ = table.validate(cookieHeader: cookie, at: origin + SessionTable.saveInterval)
    #expect(table.needsSaving(at: origin + SessionTable.saveInterval))
    table.markSaved()
    table.close(token)
    #expect(table.needsSaving(at: origin + SessionTable.saveInterval))
  }

  @Test("another PIN, or a damaged file, restores nothing")
  func refused() {
    var table = SessionTable()
    _ = table.open(randomBytes: Self.bytes(4), at: origin)
    let text = SessionFile.text(
      of: table, pin: "482193", salt: Self.salt, now: origin, wallSeconds: Self.wall)
    #expect(
      SessionFile.table(from: text, pin: "482194", now: origin, wallSeconds: Self.wall)
        == .failure(.otherPIN))
    let lines = text.split(separator: "\n").map(String.init)
    for (damaged, line) in [
      ("", 1), ("wodclock web sessions 2\n", 1), (lines[0] + "\n", 2),
      (lines[0] + "\npin 00 11\n", 2),
      (lines[0] + "\n" + lines[1] + "\nsession zz 1\n", 3),
      (lines[0] + "\n" + lines[1] + "\n" + lines[2] + " 5\n", 3),
      (lines[0] + "\n" + lines[1] + "\n" + lines[2].dropLast(10) + "99999999999999999999\n", 3),
    ] {
      guard
        case .failure(.malformed(let at, _)) = SessionFile.table(
          from: damaged, pin: "482193", now: origin, wallSeconds: Self.wall)
      else {
        Issue.record("\(damaged) was taken")
        continue
      }
      #expect(at == line, "\(damaged)")
    }
  }
}

extension Result where Success == SessionTable, Failure == SessionFile.Problem {
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.failure(let left), .failure(let right)): left == right
    default: false
    }
  }
}
