// SPDX-License-Identifier: MIT
// The web interface's HTTP API in the test's process on manual time: every route and its reply,
// the pages and their compression, the status and the ping against the daemon's own instant,
// the remote's commands answered as the socket answers them, the origin and JSON rules of a
// POST, the display alone without a PIN, and no GET that changes anything.

import HardwareKit
import JSONKit
import PNGDecoding
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

let webAPIConfig = """
  defaults:
    preset: emom
    count_in: 0s
  clock:
    idle: preset
  presets:
    emom:
      mode: emom
      rounds: 10
      interval: 1m
    tempo: "tempo 3110 6 x 4 rest 1:30"
    fran: "21-15-9 for time cap 10"
  web:
    listen: "127.0.0.1:8080"
    pin: "482193"
  outputs:
    - {type: test-output, id: probe}
  """

/// An in-process daemon on `config`, started.
func webClock(_ config: String = webAPIConfig) throws -> InProcessDaemon {
  let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(OutputRecord())])
  clock.start()
  return clock
}

@Suite struct WebAPIInProcessTests {
  /// The pages and the assets the web front serves, with the content type of each.
  static let files = [
    ("/", "text/html; charset=utf-8"), ("/remote", "text/html; charset=utf-8"),
    ("/judge", "text/html; charset=utf-8"),
    ("/assets/style.css", "text/css; charset=utf-8"),
    ("/assets/common.js", "text/javascript; charset=utf-8"),
    ("/assets/display.js", "text/javascript; charset=utf-8"),
    ("/assets/remote.js", "text/javascript; charset=utf-8"),
    ("/assets/judge.js", "text/javascript; charset=utf-8"),
    ("/assets/exercises.json", "application/json"),
  ]

  @Test func thePagesCarryTheirTypeAndTheSecurityHeadersAndRevalidate() throws {
    let clock = try webClock()
    for path in ["/", "/remote"] {
      let page = try clock.get(path)
      #expect(page.status == 200, "\(path)")
      #expect(page.header("Content-Type")?.hasPrefix("text/html") == true, "\(path)")
      #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
      #expect(page.header("X-Content-Type-Options") == "nosniff")
      #expect(page.header("X-Frame-Options") == "DENY")
    }
    #expect(!(try clock.get("/").text.contains("<script>")), "the CSP allows no inline script")
    for path in ["/assets/style.css", "/assets/exercises.json"] {
      let asset = try clock.get(path)
      #expect(asset.status == 200, "\(path)")
      let etag = try #require(asset.header("ETag"))
      let again = try clock.get(path, headers: [("If-None-Match", etag)])
      #expect(again.status == 304, "\(path)")
      #expect(again.bytes.isEmpty)
    }
    let catalogue = try clock.get("/assets/exercises.json").json
    #expect(catalogue["exercises"]?.arrayValue?.count == 873)
  }

  /// The bytes a gzip member (RFC 1952) holds, its header and length checked.
  private func gunzip(_ member: [UInt8]) throws -> [UInt8] {
    #expect(Array(member.prefix(3)) == [0x1F, 0x8B, 8])
    let data = try Zlib.inflate(Array(member.dropFirst(10).dropLast(8)))
    let length = member.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(length == UInt32(data.count))
    return data
  }

  @Test func thePagesGoGzipCompressedToClientsThatTakeItEachWithItsOwnValidator() throws {
    let clock = try webClock()
    for (path, type) in Self.files {
      let plain = try clock.get(path)
      #expect(plain.status == 200, "\(path)")
      #expect(plain.header("Content-Type") == type, "\(path)")
      #expect(plain.header("Content-Encoding") == nil, "\(path)")
      #expect(plain.header("Vary") == "Accept-Encoding", "\(path)")
      let packed = try clock.get(path, headers: [("Accept-Encoding", "gzip, deflate, br")])
      #expect(packed.status == 200, "\(path)")
      #expect(packed.header("Content-Encoding") == "gzip", "\(path)")
      #expect(packed.header("Vary") == "Accept-Encoding", "\(path)")
      #expect(packed.header("Content-Type") == type, "\(path)")
      #expect(try gunzip(packed.bytes) == plain.bytes, "\(path)")
      #expect(packed.bytes.count < plain.bytes.count / 2, "\(path)")
      let plainTag = try #require(plain.header("ETag"))
      let packedTag = try #require(packed.header("ETag"))
      #expect(plainTag != packedTag, "\(path)")
      let again = try clock.get(
        path, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", packedTag)])
      #expect(again.status == 304, "\(path)")
    }
    let refused = try clock.get(
      "/assets/style.css", headers: [("Accept-Encoding", "gzip;q=0, identity")])
    #expect(refused.header("Content-Encoding") == nil)
    #expect(refused.bytes == (try clock.get("/assets/style.css").bytes))
  }

  @Test func anUnknownRouteIs404AndAWrongMethod405() throws {
    let clock = try webClock()
    #expect(try clock.get("/nothing").status == 404)
    let missing = try clock.get("/api/nothing")
    #expect(missing.status == 404)
    #expect(missing.errorCode == "not_found")
    let cookie = try clock.signIn()
    let wrong = try clock.get("/api/command", cookie: cookie)
    #expect(wrong.status == 405)
    #expect(wrong.header("Allow")?.contains("POST") == true)
    let post = try clock.post(
      "/", #"{"x":1}"#, headers: [("Host", webHost), ("Content-Type", "application/json")])
    #expect(post.status == 405)
  }

  @Test func timeAndStatusAreTheDaemonsAtTheInstantTheyAreAsked() throws {
    let clock = try webClock()
    clock.run(for: 3.25)
    let ping = try clock.get("/api/time").json
    #expect(ping["ok"] == .bool(true))
    #expect(ping["server_ms"]?.doubleValue == clock.serverMilliseconds())

    let reply = try clock.get("/api/status").json
    #expect(reply["ok"] == .bool(true))
    let socketStatus = try clock.status()
    #expect(reply["status"] == .object(socketStatus))
    let face = try #require(reply["face"])
    #expect(face["digits"] == socketStatus["display"])
    let color = try #require(face["color"]?.stringValue)
    #expect(color.count == 7 && color.first == "#")
    #expect(color.dropFirst().allSatisfy { $0.isHexDigit && !$0.isUppercase })
    let instant = try #require(reply["clock"])
    #expect(instant["server_ms"]?.doubleValue == clock.serverMilliseconds())
    let wall = clock.time.wall
    #expect(
      instant["wall_ms"]?.doubleValue
        == Double(wall.seconds) * 1000 + Double(wall.nanoseconds / 1_000_000))
    #expect(instant["utc_offset_s"] == .integer(0))

    // The ping moves with the daemon's clock, to the millisecond, and the status with it.
    _ = try clock.request(#"{"cmd": "start"}"#)
    let before = try #require(try clock.get("/api/time").json["server_ms"]?.doubleValue)
    clock.run(for: 1.5)
    #expect(try clock.get("/api/time").json["server_ms"]?.doubleValue == before + 1500)
    let running = try clock.get("/api/status").json
    #expect(running["status"] == .object(try clock.status()))
    #expect(running["status"]?["state"] == .string("running"))
    #expect(running["clock"]?["server_ms"]?.doubleValue == before + 1500)
    #expect(running["face"]?["digits"] == running["status"]?["display"])
  }

  @Test func theSessionRouteSaysWhetherTheRemoteIsOnAndTheClientSignedIn() throws {
    let clock = try webClock()
    let anonymous = try clock.get("/api/session").json
    #expect(anonymous["remote"] == .bool(true))
    #expect(anonymous["signed_in"] == .bool(false))
    let cookie = try clock.signIn()
    #expect(try clock.get("/api/session", cookie: cookie).json["signed_in"] == .bool(true))
  }

  @Test func theCoachsReadsNeedASession() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    for path in [
      "/api/presets", "/api/history", "/api/history?limit=5", "/api/recent", "/api/schedule",
      "/api/explain?text=amrap%2014",
    ] {
      let refused = try clock.get(path)
      #expect(refused.status == 401, "\(path)")
      #expect(refused.errorCode == "sign_in", "\(path)")
      let allowed = try clock.get(path, cookie: cookie)
      #expect(allowed.status == 200, "\(path)")
      #expect(allowed.json["ok"] == .bool(true), "\(path)")
    }
    // The socket's own replies.
    let presets = try clock.get("/api/presets", cookie: cookie).json
    #expect(presets == (try clock.request(#"{"cmd": "presets"}"#)))
    let names = presets["presets"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
    #expect(names == ["emom", "tempo", "fran"])
    #expect(
      try clock.get("/api/schedule", cookie: cookie).json
        == (try clock.request(#"{"cmd": "schedule"}"#)))
  }

  @Test func explainSaysWhatATextIsOrWhereItIsWrong() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    let good = try clock.get("/api/explain?text=21-15-9+for%20time%20cap%2010", cookie: cookie)
    #expect(good.json["ok"] == .bool(true))
    #expect(good.json["explanation"] != nil)
    let bad = try clock.get("/api/explain?text=amarp%2012", cookie: cookie)
    #expect(bad.status == 200)
    #expect(bad.json["ok"] == .bool(false))
    #expect(bad.errorCode == "not_a_workout")
    #expect(bad.json["error"]?["column"] == .integer(1))
    #expect(bad.json["error"]?["length"] == .integer(5))
    #expect(bad.json["error"]?["hint"]?.stringValue?.contains("amrap") == true)
    let long = try clock.get(
      "/api/explain?text=" + String(repeating: "a", count: 600), cookie: cookie)
    #expect(long.status == 400)
    // A benchmark workout by name, with its whiteboard; one that is also a preset of this
    // config says the preset is what loads, as `wodclockctl explain` does.
    let cindy = try clock.get("/api/explain?text=cindy", cookie: cookie).json["explanation"]
    #expect(cindy?["name"] == "Cindy")
    #expect(cindy?["whiteboard"]?.arrayValue?.first == "5 pull-ups")
    let fran = try clock.get("/api/explain?text=fran", cookie: cookie).json["explanation"]
    let notes = fran?["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(notes.contains { $0.contains("preset") }, "\(notes)")
  }

  @Test func commandsNeedASessionAndAreAnsweredAsTheSocketAnswers() throws {
    let clock = try webClock()
    let unsigned = try clock.post("/api/command", #"{"cmd":"start"}"#)
    #expect(unsigned.status == 401)
    let bogus = try clock.command(
      #"{"cmd":"start"}"#, cookie: "wodclock_session=" + String(repeating: "0", count: 32))
    #expect(bogus.status == 401)
    #expect(try clock.status()["state"] == .string("idle"))

    let cookie = try clock.signIn()
    let started = try clock.command(#"{"cmd":"start","id":7}"#, cookie: cookie)
    #expect(started.status == 200)
    #expect(started.json["id"] == .integer(7))
    #expect(started.json["ok"] == .bool(true))
    #expect(try clock.status()["state"] == .string("running"))
    // A load over a running workout is 409 busy; with `replace`, it goes through.
    let busy = try clock.command(#"{"cmd":"load","workout":"amrap 14"}"#, cookie: cookie)
    #expect(busy.status == 409)
    #expect(busy.errorCode == "busy")
    let replaced = try clock.command(
      #"{"cmd":"load","workout":"amrap 14","replace":true}"#, cookie: cookie)
    #expect(replaced.status == 200)
    #expect(try clock.status()["workout"] == .string("amrap 14"))
    // Any other error is 400, with the socket's reply.
    let unknown = try clock.command(#"{"cmd":"fly"}"#, cookie: cookie)
    #expect(unknown.status == 400)
    #expect(unknown.json["ok"] == .bool(false))
    let subscribe = try clock.command(#"{"cmd":"subscribe"}"#, cookie: cookie)
    #expect(subscribe.status == 400)
    #expect(subscribe.errorCode == "use_events")
    #expect(try clock.command("{not json", cookie: cookie).status == 400)
    // A read of the vocabulary through the command route is the socket's reply too.
    clock.run(for: 2)
    let status = try clock.command(#"{"cmd":"status"}"#, cookie: cookie)
    #expect(status.json == (try clock.request(#"{"cmd": "status"}"#)))

    let before = try clock.status()
    let out = try clock.post("/api/logout", "{}", cookie: cookie)
    #expect(out.status == 200)
    #expect(out.header("Set-Cookie")?.hasPrefix("wodclock_session=;") == true)
    #expect(try clock.command(#"{"cmd":"pause"}"#, cookie: cookie).status == 401)
    #expect(try clock.status() == before)
  }

  @Test func aPostFromAnotherOriginOrWithoutAJSONBodyChangesNothing() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    let json = ("Content-Type", "application/json")
    for extra in [
      [("Origin", "http://evil.example")], [("Origin", "null")],
      [("Origin", "http://127.0.0.1:8081")], [("Sec-Fetch-Site", "cross-site")],
      [("Sec-Fetch-Site", "same-site")],
    ] {
      let refused = try clock.post(
        "/api/command", #"{"cmd":"start"}"#, headers: [("Host", webHost), json] + extra,
        cookie: cookie)
      #expect(refused.status == 403, "\(extra)")
      #expect(refused.errorCode == "cross_origin", "\(extra)")
    }
    let form = try clock.post(
      "/api/command", "command=start",
      headers: [("Host", webHost), ("Content-Type", "application/x-www-form-urlencoded")],
      cookie: cookie)
    #expect(form.status == 415)
    // Neither is a sign-in either.
    let login = try clock.post(
      "/api/login", #"{"pin":"482193"}"#,
      headers: [("Host", webHost), json, ("Origin", "http://evil.example")])
    #expect(login.status == 403)
    #expect(login.header("Set-Cookie") == nil)
    #expect(try clock.status()["state"] == .string("idle"), "nothing started")
    #expect(try clock.webStatistics()["sessions"] == .integer(1))

    let same = try clock.post(
      "/api/command", #"{"cmd":"start"}"#,
      headers: sameOrigin + [("Sec-Fetch-Site", "same-origin")], cookie: cookie)
    #expect(same.status == 200)
    #expect(try clock.status()["state"] == .string("running"))
  }

  @Test func withoutAPINOnlyTheDisplayIsServed() throws {
    let clock = try webClock(webAPIConfig.replacingFirst("  pin: \"482193\"\n", with: ""))
    #expect(try clock.get("/").status == 200)
    #expect(try clock.get("/api/status").status == 200)
    #expect(try clock.get("/api/time").status == 200)
    #expect(try clock.get("/remote").status == 404)
    let login = try clock.post("/api/login", #"{"pin":"1234"}"#)
    #expect(login.status == 404)
    #expect(login.errorCode == "remote_off")
    let command = try clock.post("/api/command", #"{"cmd":"start"}"#)
    #expect(command.status == 404)
    #expect(command.errorCode == "remote_off")
    #expect(try clock.status()["state"] == .string("idle"))
    #expect(try clock.get("/api/session").json["remote"] == .bool(false))
  }

  @Test func noGETChangesAnything() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    let statusBefore = try clock.status()
    let logBefore = clock.log.count
    let paths =
      Self.files.map(\.0) + [
        "/api/time", "/api/status", "/api/session", "/api/presets", "/api/history",
        "/api/recent", "/api/schedule", "/api/explain?text=amrap%2014", "/api/results.csv",
        // The POST routes asked with GET, their arguments in the query.
        "/api/command?cmd=start", "/api/login?pin=482193", "/api/logout",
      ]
    for path in paths {
      for signedIn in [false, true] {
        let answer = try clock.get(path, cookie: signedIn ? cookie : nil)
        #expect(answer.header("Set-Cookie") == nil, "\(path)")
      }
    }
    let stream = try clock.openStream()
    try clock.webTransport().close(stream)
    #expect(try clock.status() == statusBefore)
    #expect(clock.log.count == logBefore, "\(clock.log.suffix(clock.log.count - logBefore))")
    #expect(try clock.webStatistics()["sessions"] == .integer(1))
    #expect(try clock.command(#"{"cmd":"status"}"#, cookie: cookie).status == 200)
  }
}
