// SPDX-License-Identifier: MIT
// Who gets in, in the test's process on manual time: the PIN throttle's waits to the second,
// the budget of wrong PINs all clients that failed share, a fresh device checked at once during
// a flood, the session cookie, the Host rule against rebinding, the reserve a signed-in remote
// gets when every slot is taken, and the sessions across a reload and a restart.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

@Suite struct WebSignInInProcessTests {
  private func login(
    _ clock: InProcessDaemon, _ pin: String, from peer: SocketAddress = device(20)
  ) throws -> InMemoryHTTP.Outcome {
    try clock.post("/api/login", #"{"pin":"\#(pin)"}"#, from: peer)
  }

  @Test func wrongPINsWait2Then4Then8UpTo60SecondsAndTheRightOneWaitsItsTurn() throws {
    let clock = try webClock()
    // Three free tries.
    for _ in 0..<3 {
      let wrong = try login(clock, "0000")
      #expect(wrong.status == 401)
      #expect(wrong.errorCode == "wrong_pin")
    }
    // Then each wrong PIN doubles the wait, up to a minute; a try before it is over is 429
    // with the seconds left, the PIN not looked at and the try not counted.
    for wait in [2, 4, 8, 16, 32, 60, 60] {
      let early = try login(clock, webPIN)
      #expect(early.status == 429, "even the right PIN waits its turn")
      #expect(early.errorCode == "too_many_attempts")
      #expect(early.header("Retry-After") == String(wait))
      clock.run(for: Double(wait) - 0.5)
      #expect(try login(clock, "0000").header("Retry-After") == "1")
      clock.run(for: 0.5)
      #expect(try login(clock, "0000").status == 401, "after \(wait) s")
    }
    #expect(clock.logLines(containing: "web remote: wrong PIN").count == 10)
    #expect(clock.logLines(containing: "count=10").count == 1)

    clock.run(for: 60)
    let right = try login(clock, webPIN)
    #expect(right.status == 200)
    let cookie = try #require(right.header("Set-Cookie"))
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
      #expect(cookie.contains(attribute))
    }
    let token = cookie.dropFirst("wodclock_session=".count).prefix { $0 != ";" }
    #expect(cookie.hasPrefix("wodclock_session="))
    #expect(token.count == 32 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    #expect(clock.logLines(containing: "web remote signed in").count == 1)
    // The right PIN forgave the address: a slip afterwards is a free wrong PIN again, and so
    // are the next two.
    for _ in 0..<3 { #expect(try login(clock, "1111").status == 401) }
    #expect(try login(clock, "1111").header("Retry-After") == "2")
  }

  @Test func tenWrongPINsAMinuteIsTheBudgetOfAllClientsThatFailedButAFreshOneIsCheckedAtOnce()
    throws
  {
    let clock = try webClock()
    // Ten devices, one wrong PIN each: each is checked, and the minute's budget is spent.
    for address in UInt8(2)...11 {
      #expect(try login(clock, "0000", from: device(address)).status == 401)
    }
    // A device that failed once (no wait of its own yet) now waits for the budget: the oldest
    // wrong PIN leaves it a minute after it came.
    let again = try login(clock, "0000", from: device(2))
    #expect(again.status == 429)
    #expect(again.header("Retry-After") == "60")
    clock.run(for: 20)
    #expect(try login(clock, webPIN, from: device(3)).header("Retry-After") == "40")
    // A device with no wrong PIN on record is checked at once, wrong or right.
    #expect(try login(clock, "0000", from: device(12)).status == 401)
    #expect(try login(clock, webPIN, from: device(13)).status == 200)
    // A minute after the first wrong PINs the budget has room again.
    clock.run(for: 40)
    #expect(try login(clock, webPIN, from: device(3)).status == 200)
    #expect(clock.logLines(containing: "web remote: wrong PIN").count == 11)
  }

  @Test func duringAFloodOfWrongPINsTheSignedInPhoneAndEachNewDeviceGetInAtOnce() throws {
    let clock = try webClock()
    let phone = try clock.signIn(from: device(150))
    // 40 devices guess for two minutes, each as fast as it is let: a 429 is waited out as its
    // Retry-After says, to the tenth of a second.
    var nextTry = [UInt8: Int]()
    var answers: [Int: Int] = [:]
    for tenth in 0..<1200 {
      for address in UInt8(2)...41 where nextTry[address, default: 0] <= tenth {
        let guess = String(100_000 + Int(address) * 1000 + tenth % 1000)
        let answer = try login(clock, guess, from: device(address))
        answers[answer.status, default: 0] += 1
        if answer.status == 429 {
          let wait = try #require(Int(answer.header("Retry-After") ?? ""))
          nextTry[address] = tenth + wait * 10
        }
      }
      if tenth % 100 == 50 {
        // Meanwhile: the display of a new TV, the signed-in phone's press, and a new phone.
        #expect(try clock.get("/api/status", from: device(200)).status == 200)
        let press = try clock.command(#"{"cmd":"status"}"#, cookie: phone, from: device(150))
        #expect(press.status == 200)
        _ = try clock.signIn(from: device(UInt8(200 + tenth / 100)))
      }
      clock.run(for: 0.1)
    }
    // Each device's first guess was checked at once, as a device with no wrong PIN on record
    // always is; after that, only the budget they share: ten more in the second minute.
    #expect(clock.logLines(containing: "web remote: wrong PIN").count == 50)
    #expect(answers[401] == 50)
    #expect(answers[429, default: 0] > 0)
    #expect(answers[200] == nil)
    #expect(clock.logLines(containing: "web remote signed in").count == 1 + 12)
  }

  @Test func onlyTheClocksOwnNamesAreServed() throws {
    let clock = try webClock(
      webAPIConfig.replacingFirst("  pin:", with: "  hosts: [clock.gym.lan]\n  pin:"))
    let stranger = device(9)
    for host in ["evil.example", "evil.example:80", "evil.example:8080", "127.0.0.1.nip.io"] {
      let refused = try clock.get("/api/status", headers: [("Host", host)], from: stranger)
      #expect(refused.status == 421, "\(host)")
      #expect(refused.errorCode == "wrong_host", "\(host)")
      #expect(refused.json["error"]?["hint"]?.stringValue?.contains("hosts:") == true)
    }
    // Before any session: the right PIN through a rebound name opens none.
    let login = try clock.post(
      "/api/login", #"{"pin":"482193"}"#,
      headers: [
        ("Host", "evil.example"), ("Origin", "http://evil.example"),
        ("Content-Type", "application/json"),
      ], from: stranger)
    #expect(login.status == 421)
    #expect(login.header("Set-Cookie") == nil)
    #expect(try clock.webStatistics()["sessions"] == .integer(0))
    let events = try clock.get("/api/events", headers: [("Host", "evil.example")], from: stranger)
    #expect(events.stream == nil)
    #expect(events.status == 421)
    var names = [
      webHost, "127.0.0.1", "localhost:8080", "[::1]:8080", "clock.gym.lan:8080",
      "CLOCK.GYM.LAN",
    ]
    if let name = Environment.hostName { names += [name + ".local:8080", name] }
    for host in names {
      #expect(try clock.get("/api/status", headers: [("Host", host)]).status == 200, "\(host)")
    }
  }

  @Test func whenEverySlotIsTakenOnlyASignedInRemoteOfTheClocksOwnNameIsServed() throws {
    let clock = try webClock()
    let phone = try clock.signIn(from: device(150))
    let web = try clock.webTransport()
    web.full = true
    let handled = web.handled
    #expect(try clock.get("/api/status", from: device(200)).status == 503)
    #expect(
      try clock.command(
        #"{"cmd":"start"}"#, cookie: "wodclock_session=" + String(repeating: "0", count: 32)
      ).status == 503)
    let rebound = try clock.post(
      "/api/command", #"{"cmd":"start"}"#,
      headers: [("Host", "evil.example"), ("Content-Type", "application/json")], cookie: phone,
      from: device(151))
    #expect(rebound.status == 503)
    #expect(web.handled == handled, "none of them reached the web front's answer")
    // The coach's phone, from another address than it signed in from, gets the reserve.
    let pressed = try clock.command(#"{"cmd":"start"}"#, cookie: phone, from: device(151))
    #expect(pressed.status == 200)
    #expect(try clock.status()["state"] == .string("running"))
    web.full = false
    #expect(try clock.get("/api/status", from: device(200)).status == 200)
  }

  @Test func aReloadWithAnotherPINSignsEveryoneOutAndAnotherAddressMovesTheServer() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    let first = try clock.webTransport()
    try clock.writeConfig(webAPIConfig.replacingFirst("482193", with: "13579"))
    clock.signal(.hangup)
    #expect(try clock.webTransport() === first, "the same address keeps the server")
    #expect(try clock.command(#"{"cmd":"status"}"#, cookie: cookie).status == 401)
    #expect(try login(clock, webPIN).status == 401)
    _ = try clock.signIn(pin: "13579")
    #expect(
      clock.logLines(containing: "web remote PIN changed; every session signed out").count == 1)

    try clock.writeConfig(
      webAPIConfig.replacingFirst("482193", with: "13579").replacingFirst(
        "127.0.0.1:8080", with: "127.0.0.1:9090"))
    clock.signal(.hangup)
    let moved = try clock.webTransport()
    #expect(first.stopped)
    #expect(moved !== first)
    #expect(moved.settings.listen.port == 9090)
    #expect(clock.logLines(containing: "web interface ready address=127.0.0.1:9090").count == 1)
    #expect(
      moved.request("GET", "/api/time", headers: [("Host", "127.0.0.1:9090")], from: device(20))
        .status == 200)
  }

  @Test func sessionsOutliveARestartHashedAndPrivateButNotASignOut() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    let token = String(cookie.drop { $0 != "=" }.dropFirst())
    try clock.restart()
    #expect(try clock.command(#"{"cmd":"status"}"#, cookie: cookie).status == 200)
    let path = clock.directory + "/state/web-sessions"
    #expect(try FileSystem.attributes(path).permissions == 0o600)
    let saved = try FileSystem.readTextFile(path)
    #expect(!saved.contains(token))
    #expect(!saved.contains(webPIN))
    #expect(clock.logLines(containing: "web sessions restored sessions=1").count == 1)
    // Signed out: the restart does not bring it back.
    #expect(try clock.post("/api/logout", "{}", cookie: cookie).status == 200)
    try clock.restart()
    #expect(try clock.command(#"{"cmd":"status"}"#, cookie: cookie).status == 401)
  }

  @Test func anotherPINAtTheRestartSignsEveryoneOut() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    try clock.writeConfig(webAPIConfig.replacingFirst("482193", with: "135790"))
    try clock.restart()
    #expect(try clock.command(#"{"cmd":"status"}"#, cookie: cookie).status == 401)
    #expect(clock.logLines(containing: "sessions were opened with another PIN").count == 1)
    #expect(!FileSystem.fileExists(clock.directory + "/state/web-sessions"))
  }
}
