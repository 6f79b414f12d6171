// SPDX-License-Identifier: MIT
// Server-Sent Events framing (WHATWG HTML §9.2), checked against a reader written from the
// standard's "interpreting an event stream" steps (§9.2.6), as a browser's EventSource reads it.

import JSONKit
import Testing
import WebInterface

/// The events a browser dispatches from a stream, by the steps of §9.2.6.
struct EventStreamReader {
  struct Event: Equatable {
    var type: String
    var data: String
    var lastEventID: String
  }
  var events: [Event] = []
  var retry: Int?
  private var data = ""
  private var type = ""
  private var lastEventID = ""

  mutating func read(_ stream: String) {
    var lines: [String] = []
    var current = ""
    var scalars = Array(stream.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      if scalar == "\r" {
        if scalars.first == "\n" { scalars.removeFirst() }
        lines.append(current)
        current = ""
      } else if scalar == "\n" {
        lines.append(current)
        current = ""
      } else {
        current.unicodeScalars.append(scalar)
      }
    }
    for line in lines { process(line) }
  }

  private mutating func process(_ line: String) {
    if line.isEmpty {
      if !data.isEmpty {
        if data.hasSuffix("\n") { data.removeLast() }
        events.append(
          Event(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastEventID))
      }
      data = ""
      type = ""
      return
    }
    if line.hasPrefix(":") { return }
    var field = line
    var value = ""
    if let colon = line.firstIndex(of: ":") {
      field = String(line[..<colon])
      value = String(line[line.index(after: colon)...])
      if value.hasPrefix(" ") { value.removeFirst() }
    }
    switch field {
    case "event": type = value
    case "data": data += value + "\n"
    case "id": if !value.contains("\u{0}") { lastEventID = value }
    case "retry":
      if !value.isEmpty, value.allSatisfy(\.isASCII), let number = Int(value) { retry = number }
    default: break
    }
  }
}

@Suite("Event stream framing")
struct EventStreamTests {
  @Test("id, event and data lines, then the blank line that dispatches")
  func frame() {
    let frame = EventStreamFrame(id: 17, event: "status", data: #"{"event":"status"}"#)
    #expect(frame.text == "id: 17\nevent: status\ndata: {\"event\":\"status\"}\n\n")
    #expect(frame.bytes == Array(frame.text.utf8))
    #expect(EventStreamFrame(data: "x").text == "data: x\n\n")
  }

  @Test("data with line breaks goes out as several data lines and arrives as it was")
  func multiLineData() {
    let data = "first\nsecond\r\nthird\rfourth\n\n  indented\nlast"
    let frame = EventStreamFrame(id: 1, event: "note", data: data)
    #expect(
      frame.text
        == "id: 1\nevent: note\ndata: first\ndata: second\ndata: third\ndata: fourth\ndata: \n"
        + "data:   indented\ndata: last\n\n")
    var reader = EventStreamReader()
    reader.read(frame.text)
    // A browser joins the lines with LF: every break arrives as LF.
    #expect(
      reader.events == [
        .init(
          type: "note", data: "first\nsecond\nthird\nfourth\n\n  indented\nlast", lastEventID: "1")
      ])
  }

  @Test("an event name cannot break the frame")
  func eventName() {
    var reader = EventStreamReader()
    reader.read(EventStreamFrame(id: 2, event: "sta\ntus\r", data: "x").text)
    #expect(reader.events == [.init(type: "status", data: "x", lastEventID: "2")])
  }

  @Test("the retry preamble, then events with increasing ids; a heartbeat carries none")
  func stream() throws {
    #expect(EventStreamFrame.retry(milliseconds: 2000) == "retry: 2000\n\n")
    var reader = EventStreamReader()
    reader.read(EventStreamFrame.retry(milliseconds: EventStreamFrame.retryMilliseconds))
    #expect(reader.retry == 2000)
    #expect(reader.events.isEmpty)
    let cue = JSONValue.object(JSONObject([("name", .string("countdown"))]))
    reader.read(
      EventStreamFrame.cue(id: 18, cue: cue, due: 81_234_000_000_000, now: 81_234_001_200_000).text)
    reader.read(EventStreamFrame.heartbeat(now: 81_236_000_000_000).text)
    #expect(reader.events.map(\.type) == ["cue", "heartbeat"])
    #expect(reader.events.map(\.lastEventID) == ["18", "18"])
    let cueData = try JSONValue.parse(reader.events[0].data)
    #expect(cueData["event"] == "cue")
    #expect(cueData["cue"]?["name"] == "countdown")
    #expect(cueData["due_ms"] == .double(81_234_000))
    #expect(cueData["server_ms"] == .double(81_234_001.2))
    #expect(reader.events[1].data == #"{"server_ms":81236000.0}"#)
    #expect(!EventStreamFrame.heartbeat(now: 0).text.contains("id:"))
    #expect(EventStreamFrame.contentType == "text/event-stream")
    #expect(EventStreamFrame.extraHeaders == [WebHeader("X-Accel-Buffering", "no")])
  }
}
