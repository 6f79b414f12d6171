// SPDX-License-Identifier: MIT
// Server-Sent Events framing, as the WHATWG HTML standard §9.2 "Server-sent events" defines the
// `text/event-stream` format (§9.2.5) and how a browser's EventSource reads it (§9.2.6).

import JSONKit

/// One event of the stream: an optional id, an optional type, and data.
///
/// Written as `id:`, `event:` and `data:` lines and a blank line that dispatches it (§9.2.6).
/// A browser splits the stream into lines at CR LF, LF or CR alone and joins the `data:` lines
/// of one event with LF, so data containing line breaks goes out as one `data:` line per line
/// and arrives as it was. An id or a type cannot hold a line break (it would end the field):
/// theirs are dropped. An id holding U+0000 is ignored by browsers (§9.2.6 "id"), and never
/// happens here: ids are numbers.
public struct EventStreamFrame: Sendable, Hashable {
  /// `id:`: what EventSource sends back as `Last-Event-ID` when it reconnects.
  public var id: UInt64?
  /// `event:`: the type a page listens for; a message without one is a `message` (§9.2.6).
  public var event: String?
  public var data: String

  public init(id: UInt64? = nil, event: String? = nil, data: String) {
    self.id = id
    self.event = event
    self.data = data
  }

  /// The frame as the stream carries it.
  public var text: String {
    var text = ""
    if let id { text += "id: \(id)\n" }
    if let event { text += "event: " + Self.oneLine(event) + "\n" }
    for line in Self.lines(of: data) { text += "data: " + line + "\n" }
    return text + "\n"
  }

  /// ``text`` in UTF-8, the stream's only encoding (§9.2.5).
  public var bytes: [UInt8] { Array(text.utf8) }

  /// The first bytes of a stream: how long EventSource waits before it reconnects, in
  /// milliseconds (§9.2.6 "retry"), as a block of its own.
  public static func retry(milliseconds: Int) -> String { "retry: \(max(0, milliseconds))\n\n" }

  /// The reconnection delay of the contract.
  public static let retryMilliseconds = 2000

  /// The headers of an event stream's answer besides the usual ones: `X-Accel-Buffering: no`
  /// keeps a reverse proxy from holding events back. The content type is `text/event-stream`
  /// (§9.2.5) and the stream is never stored.
  public static let contentType = "text/event-stream"
  public static let extraHeaders = [WebHeader("X-Accel-Buffering", "no")]

  /// The lines of `data`, split where a browser splits them: at CR LF, LF or CR.
  static func lines(of data: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var afterCR = false
    for scalar in data.unicodeScalars {
      if afterCR {
        afterCR = false
        if scalar == "\n" { continue }
      }
      switch scalar {
      case "\r":
        lines.append(String(current))
        current = String.UnicodeScalarView()
        afterCR = true
      case "\n":
        lines.append(String(current))
        current = String.UnicodeScalarView()
      default:
        current.append(scalar)
      }
    }
    lines.append(String(current))
    return lines
  }

  private static func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
  }
}

extension EventStreamFrame {
  /// `event: status` with `{"event":"status","status":…,"clock":…,"face":…}`.
  public static func status(id: UInt64, status: JSONValue, clock: WebClock, face: WebFace)
    -> EventStreamFrame
  {
    let data = JSONValue.object(
      JSONObject([
        ("event", .string("status")), ("status", status), ("clock", clock.json),
        ("face", face.json),
      ]))
    return EventStreamFrame(id: id, event: "status", data: data.serialized())
  }

  /// `event: cue` with `{"event":"cue","cue":…,"due_ms":…,"server_ms":…}`: the socket's cue, the
  /// monotonic instant it was due and the instant it is sent, in server milliseconds.
  public static func cue(id: UInt64, cue: JSONValue, due: Int64, now: Int64) -> EventStreamFrame {
    let data = JSONValue.object(
      JSONObject([
        ("event", .string("cue")), ("cue", cue),
        ("due_ms", .double(WebClock.serverMilliseconds(due))),
        ("server_ms", .double(WebClock.serverMilliseconds(now))),
      ]))
    return EventStreamFrame(id: id, event: "cue", data: data.serialized())
  }

  /// `event: heartbeat` with `{"server_ms":…}`, without an id (heartbeats are not events a
  /// page resumes from).
  public static func heartbeat(now: Int64) -> EventStreamFrame {
    let data = JSONValue.object(
      JSONObject([("server_ms", .double(WebClock.serverMilliseconds(now)))]))
    return EventStreamFrame(event: "heartbeat", data: data.serialized())
  }
}
