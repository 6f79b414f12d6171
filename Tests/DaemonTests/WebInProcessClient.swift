// SPDX-License-Identifier: MIT
// What the in-process web tests share: devices on the gym's LAN, the headers a page of the clock
// sends, requests to the web front's current transport (a restart or a reload makes a new one),
// signing in, and the events of a stream taken apart as a browser's EventSource takes them.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

/// A device on the gym's LAN: 127.0.0.x stands for one.
func device(_ last: UInt8) -> SocketAddress {
  SocketAddress(IPAddress(family: .ipv4, bytes: [127, 0, 0, last])!, port: 40_000)
}

/// The `listen:` of the web tests' configurations, and the `Host` a page of the clock sends.
let webHost = "127.0.0.1:8080"
let webPIN = "482193"

/// The headers a page of the clock sends with a POST.
let sameOrigin = [
  ("Host", webHost), ("Origin", "http://" + webHost), ("Content-Type", "application/json"),
]

extension InMemoryHTTP.Outcome {
  /// The body as JSON, `null` when it is not.
  var json: JSONValue { (try? JSONValue.parse(bytes)) ?? .null }

  /// The `code` of an error reply.
  var errorCode: String? { json["error"]?["code"]?.stringValue }
}

extension InProcessDaemon {
  /// The transport the web front serves on now.
  func webTransport() throws -> InMemoryHTTP { try #require(web.current) }

  /// `GET target` from `peer`, with the clock's own `Host` unless `headers` give one.
  func get(
    _ target: String, headers: [(String, String)] = [], cookie: String? = nil,
    from peer: SocketAddress = device(20)
  ) throws -> InMemoryHTTP.Outcome {
    var all =
      headers.contains { $0.0.lowercased() == "host" } ? headers : [("Host", webHost)] + headers
    if let cookie { all.append(("Cookie", cookie)) }
    return try webTransport().request("GET", target, headers: all, from: peer)
  }

  /// `POST target` from `peer` with `body`, as a page of the clock sends it unless `headers`
  /// are given.
  func post(
    _ target: String, _ body: String, headers: [(String, String)] = sameOrigin,
    cookie: String? = nil, from peer: SocketAddress = device(20)
  ) throws -> InMemoryHTTP.Outcome {
    var all = headers
    if let cookie { all.append(("Cookie", cookie)) }
    return try webTransport().request("POST", target, headers: all, body: body, from: peer)
  }

  /// Signs in from `peer` and returns the cookie to send back (`wodclock_session=…`).
  func signIn(pin: String = webPIN, from peer: SocketAddress = device(20)) throws -> String {
    let answer = try post("/api/login", #"{"pin":"\#(pin)"}"#, from: peer)
    #expect(answer.status == 200, "\(answer.text)")
    let cookie = try #require(answer.header("Set-Cookie"))
    return String(cookie.prefix { $0 != ";" })
  }

  /// A request object of the control protocol, posted to `/api/command`.
  func command(
    _ body: String, cookie: String, from peer: SocketAddress = device(20)
  ) throws -> InMemoryHTTP.Outcome {
    try post("/api/command", body, cookie: cookie, from: peer)
  }

  /// Opens `/api/events` from `peer`.
  func openStream(from peer: SocketAddress = device(30)) throws -> HTTPServer.StreamID {
    try #require(try get("/api/events", from: peer).stream)
  }

  /// What the web front's `stats` say (`connections`, `streams`, `sessions`).
  func webStatistics() throws -> JSONValue {
    try #require(try request(#"{"cmd": "stats"}"#)["web"])
  }

  /// Monotonic nanoseconds as the web front writes them: server milliseconds.
  func serverMilliseconds(_ monotonic: Int64? = nil) -> Double {
    Double((monotonic ?? time.monotonic) / 1000) / 1000
  }
}

/// One event of a stream, as EventSource reads it (WHATWG HTML §9.2.6): its fields, and its
/// data as JSON.
struct SentEvent {
  var id: UInt64?
  var event: String?
  var retry: Int?
  var data: JSONValue

  /// The events of `text`, which must end at an event's end.
  static func parse(_ text: String) -> [SentEvent] {
    var events: [SentEvent] = []
    var block: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.isEmpty else {
        block.append(line)
        continue
      }
      guard !block.isEmpty else { continue }
      var event = SentEvent(data: .null)
      var data: [Substring] = []
      for field in block {
        let name = field.prefix { $0 != ":" }
        let value = field.dropFirst(name.count + 1).drop { $0 == " " }
        switch name {
        case "id": event.id = UInt64(value)
        case "event": event.event = String(value)
        case "retry": event.retry = Int(value)
        case "data": data.append(value)
        default: break
        }
      }
      event.data = (try? JSONValue.parse(data.joined(separator: "\n"))) ?? .null
      events.append(event)
      block = []
    }
    return events
  }
}

extension InMemoryHTTP {
  /// The events `stream` was sent since the last look.
  func events(_ stream: HTTPServer.StreamID) throws -> [SentEvent] {
    SentEvent.parse(try #require(take(stream)))
  }
}
