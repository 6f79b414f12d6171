// SPDX-License-Identifier: MIT
// The routes of the contract: every one with its method, what is not a route, a wrong method
// with its Allow list, the queries the routes take, and the answers errors give.

import JSONKit
import Testing
import WebInterface

@Suite("Web routes")
struct RouterTests {
  static func route(_ method: String, _ path: String, _ query: String = "")
    -> Result<WebRoute, WebError>
  {
    WebRouter.route(method: method, path: path, query: WebQuery(encoded: query))
  }

  @Test(
    "every route of the contract, with its method and whether it needs a session",
    arguments: [
      ("GET", "/", "", WebRoute.display, false),
      ("GET", "/remote", "", .remote, false),
      ("GET", "/remote/", "", .remote, false),
      ("GET", "/judge", "", .judge, false),
      ("GET", "/judge/", "", .judge, false),
      ("HEAD", "/judge", "", .judge, false),
      ("GET", "/api/results.csv", "", .resultsCSV, true),
      ("GET", "/media/squat.webm", "", .media(name: "squat.webm"), false),
      ("HEAD", "/media/Air Squat 1.JPG", "", .media(name: "Air Squat 1.JPG"), false),
      ("GET", "/api/media", "", .mediaList, true),
      ("GET", "/assets/display.css", "", .asset(name: "display.css"), false),
      ("GET", "/assets/exercises.json", "", .asset(name: "exercises.json"), false),
      (
        "GET", "/assets/licences/free-exercise-db.txt", "",
        .asset(name: "licences/free-exercise-db.txt"), false
      ),
      ("GET", "/api/time", "", .time, false),
      ("GET", "/api/status", "", .status, false),
      ("GET", "/api/events", "", .events, false),
      ("GET", "/api/session", "", .session, false),
      ("POST", "/api/login", "", .login, false),
      ("POST", "/api/logout", "", .logout, true),
      ("POST", "/api/command", "", .command, true),
      ("GET", "/api/presets", "", .presets, true),
      ("GET", "/api/history", "", .history(limit: 20), true),
      ("GET", "/api/history", "limit=100", .history(limit: 100), true),
      ("GET", "/api/history", "limit=1", .history(limit: 1), true),
      ("GET", "/api/recent", "", .recent, true),
      ("GET", "/api/schedule", "", .schedule, true),
      ("GET", "/api/explain", "text=amrap+14", .explain(text: "amrap 14"), true),
      (
        "GET", "/api/explain", "text=21-15-9%20for%20time", .explain(text: "21-15-9 for time"),
        true
      ),
      ("HEAD", "/api/status", "", .status, false),
      ("HEAD", "/", "", .display, false),
    ] as [(String, String, String, WebRoute, Bool)])
  func table(method: String, path: String, query: String, route: WebRoute, session: Bool) throws {
    let routed = try Self.route(method, path, query).get()
    #expect(routed == route)
    #expect(routed.needsSession == session)
  }

  @Test("a path that is no route is 404 not_found")
  func notFound() {
    for path in [
      "/index.html", "/api", "/api/", "/api/statuses", "/remote//", "/assets/", "/assets/../x",
      "/assets/.hidden", "/assets/a//b", "/assets/a b", "", "/API/STATUS", "/api/status/",
      "/media/", "/media/a.txt", "/media/../a.png", "/media/.a.png", "/media/a/b.png",
      "/media", "/api/media/", "/judge//", "/judges", "/api/results", "/api/results.csv/",
      "/api/results.json",
    ] {
      guard case .failure(let error) = Self.route("GET", path) else {
        Issue.record("\(path) was routed")
        continue
      }
      #expect(error.status == 404, "\(path)")
      #expect(error.code == "not_found", "\(path)")
    }
  }

  @Test("a known route with another method is 405 with the methods it takes in Allow")
  func wrongMethod() {
    let cases = [
      ("POST", "/", "GET, HEAD"), ("DELETE", "/api/status", "GET, HEAD"),
      ("GET", "/api/login", "POST"), ("GET", "/api/command", "POST"),
      ("HEAD", "/api/logout", "POST"), ("PUT", "/api/command", "POST"),
      ("post", "/api/command", "POST"), ("OPTIONS", "/api/events", "GET, HEAD"),
      ("POST", "/assets/display.css", "GET, HEAD"),
      // The method is wrong whatever the query says.
      ("POST", "/api/history", "GET, HEAD"), ("POST", "/api/explain", "GET, HEAD"),
    ]
    for (method, path, allow) in cases {
      guard case .failure(let error) = Self.route(method, path, "limit=0") else {
        Issue.record("\(method) \(path) was routed")
        continue
      }
      #expect(error.status == 405, "\(method) \(path)")
      #expect(error.code == "method_not_allowed")
      #expect(error.headers == [WebHeader("Allow", allow)], "\(method) \(path)")
    }
  }

  @Test("a history limit out of 1–100, or not a number, is 400 bad_request")
  func historyLimit() {
    for limit in ["0", "101", "-1", "+5", "1e2", "abc", "", "99999999999999999999999", "5 "] {
      guard case .failure(let error) = Self.route("GET", "/api/history", "limit=\(limit)") else {
        Issue.record("limit=\(limit) was taken")
        continue
      }
      #expect(error.status == 400 && error.code == "bad_request", "\(limit)")
    }
  }

  @Test("explain without a text is 400; an empty text is a text")
  func explainText() throws {
    guard case .failure(let error) = Self.route("GET", "/api/explain", "txt=amrap") else {
      Issue.record("explain without text was routed")
      return
    }
    #expect(error.status == 400 && error.code == "bad_request")
    #expect(try Self.route("GET", "/api/explain", "text=").get() == .explain(text: ""))
  }

  @Test("a query is decoded as browsers encode it, and nothing in it traps")
  func queryDecoding() {
    let query = WebQuery(encoded: "a=1&text=e2mom+16%3A+burpees&a=2&flag&%ZZ=%4&empty=&=v")
    #expect(query["a"] == "1")
    #expect(query["text"] == "e2mom 16: burpees")
    #expect(query["flag"] == "")
    #expect(query["%ZZ"] == "%4")
    #expect(query["empty"] == "")
    #expect(query[""] == "v")
    #expect(query["missing"] == nil)
    // UTF-8 in percent escapes, and bytes that are not UTF-8 as U+FFFD.
    #expect(WebQuery(encoded: "t=caf%C3%A9%20%E2%86%93")["t"] == "café ↓")
    #expect(WebQuery(encoded: "t=%FF%C3")["t"] == "\u{FFFD}\u{FFFD}")
    #expect(WebQuery(encoded: "t=%")["t"] == "%")
    #expect(WebQuery(encoded: "t=%4")["t"] == "%4")
    #expect(WebQuery(encoded: "")["t"] == nil)
    // Pairs given decoded by the server are taken as they are.
    #expect(WebQuery(pairs: [("text", "amrap+14")])["text"] == "amrap+14")
  }

  @Test("what each route's answers may be cached as")
  func caching() throws {
    #expect(WebRoute.display.caching == .revalidate)
    #expect(WebRoute.asset(name: "a.js").caching == .revalidate)
    #expect(WebRoute.judge.caching == .revalidate)
    #expect(WebRoute.resultsCSV.caching == .noStore)
    #expect(WebRoute.status.caching == .noStore)
    #expect(WebRoute.events.caching == .noStore)
    #expect(WebCaching.revalidate.headerValue == "no-cache")
    #expect(WebCaching.noStore.headerValue == "no-store")
  }

  @Test("an error under /api/ is its JSON body; elsewhere a small HTML page, escaped")
  func errorReplies() throws {
    let api = WebReply.error(.methodNotAllowed(allow: "POST"), path: "/api/command")
    #expect(api.status == 405)
    #expect(api.contentType == "application/json; charset=utf-8")
    let body = try JSONValue.parse(api.body)
    #expect(body["ok"] == false)
    #expect(body["error"]?["code"] == "method_not_allowed")
    #expect(body["error"]?["message"]?.stringValue?.isEmpty == false)
    #expect(body["error"]?["hint"] == nil)
    #expect(api.headers.contains(WebHeader("Allow", "POST")))
    #expect(api.headers.contains(WebHeader("Cache-Control", "no-store")))

    let page = WebReply.error(.notFound("/<script>"), path: "/<script>")
    #expect(page.status == 404)
    #expect(page.contentType == "text/html; charset=utf-8")
    let html = String(decoding: page.body, as: UTF8.self)
    #expect(html.contains("&lt;script&gt;") && !html.contains("<script>"))
    #expect(html.hasPrefix("<!doctype html>"))
    // No inline style or script: the CSP would block them.
    #expect(!html.contains("style") && !html.contains("<script"))

    let off = WebReply.error(.remoteOff, path: "/remote")
    #expect(off.status == 404)
    #expect(String(decoding: off.body, as: UTF8.self).contains("web: {pin: &quot;482193&quot;}"))
    let hinted = try JSONValue.parse(WebReply.error(.remoteOff, path: "/api/login").body)
    #expect(hinted["error"]?["code"] == "remote_off")
    #expect(hinted["error"]?["hint"]?.stringValue?.contains("pin") == true)
  }

  @Test("every answer carries the security headers of the contract")
  func securityHeaders() {
    let reply = WebReply.json(WebAPI.done)
    let names = reply.headers.map(\.name)
    for name in [
      "Content-Type", "X-Content-Type-Options", "Referrer-Policy", "Content-Security-Policy",
      "X-Frame-Options", "Cache-Control",
    ] {
      #expect(names.contains(name), "\(name)")
    }
    #expect(
      WebSecurity.contentSecurityPolicy
        == "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; media-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        + "form-action 'self'")
    #expect(reply.headers.contains(WebHeader("X-Frame-Options", "DENY")))
    #expect(reply.headers.contains(WebHeader("Referrer-Policy", "no-referrer")))
    #expect(reply.headers.contains(WebHeader("X-Content-Type-Options", "nosniff")))
  }

  @Test("a command reply's HTTP status: 200 ok, 409 busy, 400 any other error")
  func commandStatus() throws {
    #expect(WebAPI.status(ofCommandReply: try JSONValue.parse(#"{"v":1,"ok":true}"#)) == 200)
    #expect(
      WebAPI.status(
        ofCommandReply: try JSONValue.parse(#"{"ok":false,"error":{"code":"busy"}}"#)) == 409)
    #expect(
      WebAPI.status(
        ofCommandReply: try JSONValue.parse(#"{"ok":false,"error":{"code":"bad_request"}}"#))
        == 400)
    #expect(WebError.useEvents.status == 400 && WebError.useEvents.code == "use_events")
  }

  @Test("the ping, the session and the login body")
  func smallAnswers() throws {
    #expect(
      WebAPI.time(now: 81_234_567_891_234).serialized() == #"{"ok":true,"server_ms":81234567.891}"#)
    #expect(
      WebAPI.session(remoteEnabled: true, signedIn: false).serialized()
        == #"{"ok":true,"remote":true,"signed_in":false}"#)
    #expect(try WebAPI.pin(fromLoginBody: Array(#"{"pin":"0042"}"#.utf8)).get() == "0042")
    for body in [#"{"pin":42}"#, "[]", "", "{", #"{"PIN":"1234"}"#, "\u{FF}"] {
      guard case .failure(let error) = WebAPI.pin(fromLoginBody: Array(body.utf8)) else {
        Issue.record("\(body) gave a PIN")
        continue
      }
      #expect(error.status == 400)
    }
  }
}
