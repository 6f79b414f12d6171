// SPDX-License-Identifier: MIT
// Who may do what: JSON-only POSTs, the origin rule in its variants, the remote off without a
// PIN, and the routes that need a session.

import Testing
import WebInterface

@Suite("Web access rules")
struct AccessTests {
  static let host = "192.168.1.20:8080"

  static func decision(
    _ route: WebRoute = .command, method: String = "POST", host: String? = host,
    origin: String? = nil, site: String? = nil, type: String? = "application/json",
    remote: Bool = true, signedIn: Bool = true
  ) -> WebAccessDecision {
    WebAccess.check(
      route, method: method,
      headers: WebRequestHeaders(host: host, origin: origin, secFetchSite: site, contentType: type),
      remoteEnabled: remote, signedIn: signedIn)
  }

  static func code(_ decision: WebAccessDecision) -> String? {
    if case .refused(let error) = decision { return error.code }
    return nil
  }

  @Test(
    "a POST's body must be JSON: application/json, any case, with parameters",
    arguments: [
      ("application/json", true), ("application/json; charset=utf-8", true),
      ("Application/JSON;charset=UTF-8", true), ("  application/json  ", true),
      ("application/json\t; charset=utf-8", true), ("text/plain", false),
      ("application/x-www-form-urlencoded", false), ("multipart/form-data; boundary=x", false),
      ("application/jsonp", false), ("application/json-seq", false), ("", false),
      ("application/ json", false),
    ])
  func jsonOnly(type: String, allowed: Bool) {
    let decision = Self.decision(type: type)
    #expect((decision == .allowed) == allowed, "\(type)")
    if !allowed {
      #expect(Self.code(decision) == "json_only")
      if case .refused(let error) = decision { #expect(error.status == 415) }
    }
  }

  @Test("a POST without a Content-Type is refused; a GET needs none")
  func noContentType() {
    #expect(Self.code(Self.decision(type: nil)) == "json_only")
    #expect(Self.decision(.status, method: "GET", type: nil) == .allowed)
  }

  @Test(
    "the origin rule: Origin must be http:// and the Host; null and other sites are refused",
    arguments: [
      // The same origin, as a browser on the clock's page sends it.
      ("http://192.168.1.20:8080", nil as String?, true),
      ("HTTP://192.168.1.20:8080", nil, true),
      ("http://192.168.1.20:8080", "same-origin", true),
      // Another host, another port, another scheme, a path, null.
      ("http://192.168.1.21:8080", nil, false),
      ("http://192.168.1.20:8081", nil, false),
      ("http://192.168.1.20", nil, false),
      ("https://192.168.1.20:8080", nil, false),
      ("http://192.168.1.20:8080/", nil, false),
      ("http://evil.example", nil, false),
      ("null", nil, false),
      ("", nil, false),
      // Fetch metadata: only same-origin and none (typed in) pass.
      (nil, "cross-site", false),
      (nil, "same-site", false),
      (nil, "same-origin", true),
      (nil, "none", true),
      (nil, "Same-Origin", true),
      ("http://192.168.1.20:8080", "cross-site", false),
      // Neither header: curl, a script. Not a browser, so not a forged request.
      (nil, nil, true),
    ] as [(String?, String?, Bool)])
  func origin(origin: String?, site: String?, allowed: Bool) {
    let decision = Self.decision(origin: origin, site: site)
    #expect(
      (decision == .allowed) == allowed, "Origin \(origin ?? "-"), Sec-Fetch-Site \(site ?? "-")")
    if !allowed {
      #expect(Self.code(decision) == "cross_origin")
      if case .refused(let error) = decision { #expect(error.status == 403) }
    }
  }

  @Test("the host is compared ignoring ASCII case, and an Origin without a Host is refused")
  func hostCase() {
    #expect(Self.decision(host: "Clock.Local:8080", origin: "http://clock.local:8080") == .allowed)
    #expect(
      Self.code(Self.decision(host: nil, origin: "http://clock.local:8080")) == "cross_origin")
    // A non-ASCII lookalike is a different host.
    #expect(
      Self.code(Self.decision(host: "clock.local", origin: "http://clock.locaL\u{0301}"))
        == "cross_origin")
  }

  @Test("the origin is checked before the body's type, and both before the session")
  func order() {
    #expect(
      Self.code(Self.decision(origin: "http://evil.example", type: "text/plain", signedIn: false))
        == "cross_origin")
    #expect(Self.code(Self.decision(type: "text/plain", signedIn: false)) == "json_only")
    #expect(Self.code(Self.decision(signedIn: false)) == "sign_in")
  }

  @Test("the routes that need a session are 401 sign_in without one; the others are open")
  func session() {
    let needing: [WebRoute] = [
      .command, .logout, .presets, .history(limit: 20), .recent, .resultsCSV, .schedule,
      .explain(text: "amrap 14"),
    ]
    for route in needing {
      let method = route.method.rawValue
      let decision = Self.decision(route, method: method, signedIn: false)
      #expect(Self.code(decision) == "sign_in", "\(route)")
      if case .refused(let error) = decision { #expect(error.status == 401) }
      #expect(Self.decision(route, method: method, signedIn: true) == .allowed, "\(route)")
    }
    let open: [WebRoute] = [
      .display, .remote, .judge, .asset(name: "a.css"), .time, .status, .events, .session,
      .login,
    ]
    for route in open {
      #expect(
        Self.decision(route, method: route.method.rawValue, signedIn: false) == .allowed,
        "\(route)")
    }
  }

  @Test("without a PIN the remote is off: its routes are 404 remote_off, the display stays")
  func remoteOff() {
    for route in [
      WebRoute.remote, .judge, .login, .logout, .command, .presets, .resultsCSV,
      .explain(text: ""),
    ] {
      let decision = Self.decision(route, method: route.method.rawValue, remote: false)
      #expect(Self.code(decision) == "remote_off", "\(route)")
      if case .refused(let error) = decision { #expect(error.status == 404) }
    }
    for route in [WebRoute.display, .status, .events, .time, .session, .asset(name: "x.js")] {
      #expect(
        Self.decision(route, method: "GET", remote: false, signedIn: false) == .allowed,
        "\(route)")
    }
  }
}
