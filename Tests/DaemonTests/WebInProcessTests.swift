// SPDX-License-Identifier: MIT
// The web front in the test's process on manual time, through an in-memory transport: the
// remote's sign-in and its session across a restart, the PIN throttle under a flood from many
// addresses, the Host rule, and the event streams' first status and heartbeats, as exact
// assertions without a socket, a browser or real time.

import ControlProtocol
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

private let webConfig = """
  defaults:
    preset: amrap
  presets:
    amrap:
      mode: amrap
      time: 14m
  web:
    listen: "127.0.0.1:8080"
    pin: "482193"
  outputs:
    - {type: test-output, id: probe}
  """

@Suite struct WebInProcessTests {
  private func clock() throws -> InProcessDaemon {
    let clock = try InProcessDaemon(
      config: webConfig, kinds: [.recordingOutput(OutputRecord())])
    clock.start()
    return clock
  }

  private func transport(_ clock: InProcessDaemon) throws -> InMemoryHTTP {
    try clock.webTransport()
  }

  private func signIn(_ web: InMemoryHTTP, from peer: SocketAddress) throws -> String {
    let answer = web.request(
      "POST", "/api/login", headers: sameOrigin, body: #"{"pin":"482193"}"#, from: peer)
    #expect(answer.status == 200, "\(answer.text)")
    let cookie = try #require(answer.header("Set-Cookie"))
    return String(cookie.prefix { $0 != ";" })
  }

  private func command(
    _ web: InMemoryHTTP, _ body: String, cookie: String, from peer: SocketAddress
  ) -> InMemoryHTTP.Outcome {
    web.request(
      "POST", "/api/command", headers: sameOrigin + [("Cookie", cookie)], body: body, from: peer)
  }

  @Test func aSignedInPhoneActsAndStaysSignedInAcrossARestart() throws {
    let clock = try clock()
    let phone = device(20)
    var web = try transport(clock)
    let unsigned = command(web, #"{"cmd":"start"}"#, cookie: "wodclock_session=none", from: phone)
    #expect(unsigned.status == 401)
    let cookie = try signIn(web, from: phone)
    #expect(command(web, #"{"cmd":"start"}"#, cookie: cookie, from: phone).status == 200)
    #expect(try clock.status()["state"] == .string("countin"))

    clock.run(for: 5)
    try clock.restart()
    web = try transport(clock)
    // The same cookie works after the restart: the session was kept (hashed) in the state
    // directory, and the coach's press is not lost.
    #expect(command(web, #"{"cmd":"pause"}"#, cookie: cookie, from: phone).status == 200)
    #expect(try clock.status()["state"] == .string("paused"))
    let saved = try FileSystem.readTextFile(clock.directory + "/state/web-sessions")
    let token = String(cookie.drop { $0 != "=" }.dropFirst())
    #expect(!saved.contains(token))
    #expect(try FileSystem.attributes(clock.directory + "/state/web-sessions").permissions == 0o600)
  }

  @Test func theRightPINGetsInAtOnceDuringAFloodOfWrongOnesFromManyAddresses() throws {
    let clock = try clock()
    let web = try transport(clock)
    // 40 devices, 8 wrong PINs each, a tenth of a second apart.
    var answers: [Int: Int] = [:]
    for round in 0..<8 {
      for address in UInt8(2)...41 {
        let answer = web.request(
          "POST", "/api/login", headers: sameOrigin, body: #"{"pin":"000000"}"#,
          from: device(address))
        answers[answer.status, default: 0] += 1
        if round == 7 && address == 41 { #expect(answer.header("Retry-After") != nil) }
      }
      clock.run(for: 0.1)
    }
    // The first guess of each device is checked; the shared budget then answers 429 to the
    // devices that failed already.
    #expect(answers[401, default: 0] >= 40)
    #expect(answers[429, default: 0] > 0)
    #expect(answers[200] == nil)
    // The coach's new phone: checked at once, signed in.
    _ = try signIn(web, from: device(200))
    #expect(clock.logLines(containing: "web remote signed in").count == 1)
  }

  @Test func aNameThatIsNotTheClocksIsRefusedBeforeAnySessionOrCommand() throws {
    let clock = try clock()
    let web = try transport(clock)
    let phone = device(20)
    let cookie = try signIn(web, from: phone)
    let rebound = web.request(
      "POST", "/api/command",
      headers: [
        ("Host", "evil.example:8080"), ("Origin", "http://evil.example:8080"),
        ("Content-Type", "application/json"), ("Cookie", cookie),
      ], body: #"{"cmd":"start"}"#, from: phone)
    #expect(rebound.status == 421)
    #expect(rebound.text.contains("wrong_host"))
    #expect(try clock.status()["state"] == .string("idle"))
    let byAddress = web.request(
      "GET", "/api/status", headers: [("Host", "127.0.0.1:8080")], from: phone)
    #expect(byAddress.status == 200)
  }

  @Test func aStreamGetsTheStatusAtOnceAndAHeartbeatEveryTwoSeconds() throws {
    let clock = try clock()
    let web = try transport(clock)
    let tv = device(30)
    let stream = try #require(
      web.request("GET", "/api/events", headers: [("Host", "127.0.0.1:8080")], from: tv).stream)
    let first = try #require(web.take(stream))
    #expect(first.hasPrefix("retry: "))
    #expect(first.contains("event: status"))
    // Idle, nothing changes: only heartbeats, one every 2 s of the manual clock.
    clock.run(for: 10)
    let idle = try #require(web.take(stream))
    #expect(idle.ranges(of: "event: heartbeat").count == 5)
    // A start is a status at once.
    let cookie = try signIn(web, from: device(20))
    #expect(command(web, #"{"cmd":"start"}"#, cookie: cookie, from: device(20)).status == 200)
    clock.run(for: 0.01)
    #expect(try #require(web.take(stream)).contains("\"state\":\"countin\""))
    web.close(stream)
    #expect(web.connectionCount == 0)
  }
}
