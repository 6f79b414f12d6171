// SPDX-License-Identifier: MIT
// The event stream in the test's process on manual time: its head, the first status at once,
// status and cue events with increasing ids, each cue with the instant it was due, a heartbeat
// every 2 s of the daemon's clock, and a stream whose client does not read closed without
// holding up the others.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

@Suite struct WebEventsInProcessTests {
  @Test func aStreamOpensWithItsHeadTheRetryAndTheStatusAtOnce() throws {
    let clock = try webClock()
    clock.run(for: 1)
    let opened = try clock.get("/api/events", headers: [("Accept", "text/event-stream")])
    let stream = try #require(opened.stream)
    #expect(opened.header("Content-Type") == "text/event-stream")
    #expect(opened.header("Cache-Control") == "no-store")
    #expect(opened.header("X-Accel-Buffering") == "no")
    #expect(opened.header("X-Content-Type-Options") == "nosniff")
    let events = try clock.webTransport().events(stream)
    #expect(events.count == 2)
    #expect(events.first?.retry == 2000)
    #expect(events.first?.event == nil)
    let status = try #require(events.last)
    #expect(status.event == "status")
    #expect(status.id != nil)
    #expect(status.data["event"] == .string("status"))
    #expect(status.data["status"] == .object(try clock.status()))
    #expect(status.data["clock"]?["server_ms"]?.doubleValue == clock.serverMilliseconds())
    #expect(status.data["face"]?["digits"] == .string("1:00"))
    #expect(try clock.webStatistics()["streams"] == .integer(1))
  }

  @Test func aHeartbeatEveryTwoSecondsCarriesTheDaemonsInstantAndNoId() throws {
    let clock = try webClock()
    let web = try clock.webTransport()
    let opened = clock.time.monotonic
    let stream = try clock.openStream()
    _ = try web.events(stream)
    clock.run(for: 7)
    let heartbeats = try web.events(stream).filter { $0.event == "heartbeat" }
    #expect(heartbeats.count == 3)
    #expect(heartbeats.allSatisfy { $0.id == nil })
    #expect(
      heartbeats.map { $0.data["server_ms"]?.doubleValue }
        == [2, 4, 6].map { clock.serverMilliseconds(opened + $0 * 1_000_000_000) })
    // A second stream shares the first one's beat.
    let second = try clock.openStream(from: device(31))
    _ = try web.events(second)
    clock.run(for: 1)
    #expect(
      try web.events(second).map { $0.data["server_ms"]?.doubleValue } == [
        clock.serverMilliseconds(opened + 8_000_000_000)
      ])
  }

  @Test func statusAndCueEventsHaveIncreasingIdsAndEachCueTheInstantItWasDue() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: webAPIConfig, kinds: [.recordingOutput(record)])
    clock.start()
    let web = try clock.webTransport()
    let stream = try clock.openStream()
    var events = try web.events(stream)
    _ = try clock.request(#"{"cmd": "start"}"#)
    let started = clock.time.monotonic
    clock.run(for: 125)
    events += try web.events(stream)

    let numbered = events.filter { $0.event == "status" || $0.event == "cue" }
    let ids = numbered.compactMap(\.id)
    #expect(ids.count == numbered.count, "every status and cue event has an id")
    #expect(ids == ids.sorted() && Set(ids).count == ids.count, "\(ids)")
    // The start is a status at once, and each minute's new round another.
    let statuses = events.filter { $0.event == "status" }.compactMap { $0.data["status"] }
    #expect(statuses.dropFirst().first?["state"] == .string("running"))
    #expect(statuses.contains { $0["round"] == .integer(3) })

    // The web's cues are the outputs' cues, each with the instant it was due.
    let cues = events.filter { $0.event == "cue" }
    #expect(!cues.isEmpty)
    #expect(
      cues.map { $0.data["due_ms"]?.doubleValue }
        == record.cues.map { cue in
          clock.serverMilliseconds(ManualTime.origin + Int64((cue.due * 1e9).rounded()))
        })
    #expect(cues.allSatisfy { $0.data["cue"]?["name"]?.stringValue != nil })
    #expect(
      cues.allSatisfy { $0.data["due_ms"]?.doubleValue ?? 0 >= clock.serverMilliseconds(started) })
    // A loop that is never late sends each cue at its instant.
    #expect(cues.allSatisfy { $0.data["server_ms"] == $0.data["due_ms"] })
  }

  @Test func aCueSentLateCarriesTheInstantItWasDueNotTheOneItWasSent() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: webAPIConfig, kinds: [.recordingOutput(record)])
    clock.start()
    let web = try clock.webTransport()
    let stream = try clock.openStream()
    _ = try clock.request(#"{"cmd": "start"}"#)
    let started = clock.time.monotonic
    // The loop sleeps through the minute's end (a busy machine), and wakes 300 ms late.
    clock.run(for: 59.9)
    _ = try web.events(stream)
    clock.stall(for: 0.4)
    clock.run(for: 0)
    let cues = try web.events(stream).filter { $0.event == "cue" }
    #expect(!cues.isEmpty)
    let minute = clock.serverMilliseconds(started + 60_000_000_000)
    for cue in cues {
      #expect(cue.data["due_ms"]?.doubleValue == minute, "\(cue.data)")
      #expect(cue.data["server_ms"]?.doubleValue == minute + 300)
    }
  }

  @Test func aStreamWhoseClientDoesNotReadIsClosedAndTheOthersGoOn() throws {
    let clock = try webClock()
    let web = try clock.webTransport()
    let stuck = try clock.openStream(from: device(30))
    let reader = try clock.openStream(from: device(31))
    #expect(try clock.webStatistics()["streams"] == .integer(2))
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 3)
    web.overflow(stuck)
    #expect(try clock.webStatistics()["streams"] == .integer(1))
    #expect(
      clock.logLines(containing: "web event stream closed: the client does not read").count == 1)
    _ = try web.events(reader)
    _ = try clock.request(#"{"cmd": "pause"}"#)
    clock.run(for: 0.01)
    let after = try web.events(reader).filter { $0.event == "status" }
    #expect(after.last?.data["status"]?["state"] == .string("paused"))
    #expect(web.take(stuck) == nil)
    // A client that leaves is no news for the log.
    web.close(reader)
    #expect(try clock.webStatistics()["streams"] == .integer(0))
    #expect(clock.logLines(containing: "web event stream closed").count == 1)
  }
}
