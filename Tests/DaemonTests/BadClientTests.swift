// SPDX-License-Identifier: MIT
// Every bad client gets an error or is dropped; the clock keeps running on time.

import ControlProtocol
import Glibc
import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct BadClientTests {
  /// Sends raw bytes on a new connection and returns the first reply line, if any.
  private func exchange(_ daemon: DaemonHarness, _ bytes: String) throws -> JSONValue? {
    var client = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 2_000)
    defer { try? client.close() }
    try client.send(bytes, timeoutMilliseconds: 2_000)
    return try client.readLine(timeoutMilliseconds: 3_000).flatMap { try? JSONValue.parse($0) }
  }

  @Test func garbageInvalidJSONAndUnknownCommandsGetErrors() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    #expect(try exchange(daemon, "hello\n")?["error"]?["code"]?.stringValue == "bad_json")
    #expect(try exchange(daemon, "{\"cmd\": \n")?["error"]?["code"]?.stringValue == "bad_json")
    #expect(try exchange(daemon, "[1,2]\n")?["error"]?["code"]?.stringValue == "bad_request")
    #expect(try exchange(daemon, "{\"cmd\":\"fly\",\"id\":9}\n")?["id"]?.intValue == 9)
    #expect(
      try exchange(daemon, "{\"cmd\":\"fly\"}\n")?["error"]?["code"]?.stringValue
        == "unknown_command")
    #expect(
      try exchange(daemon, "{\"v\":2,\"cmd\":\"status\"}\n")?["error"]?["code"]?.stringValue
        == "unsupported_version")
    #expect(try exchange(daemon, "\u{01}\u{02}\u{FF}binary\n")?["ok"] == false)
    let long =
      "{\"cmd\":\"" + String(repeating: "x", count: CommandProtocol.maximumLineBytes + 1)
      + "\"}\n"
    #expect(try exchange(daemon, long)?["error"]?["code"]?.stringValue == "line_too_long")
    #expect(try daemon.status()["state"]?.stringValue == "idle")
  }

  @Test func halfLinesSilentClientsAndCrowdsDoNotStopTheClock() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    _ = try daemon.request(["cmd": "start"])
    let baselineAsked = MonotonicClock.now()
    let baseline = try daemon.status()["elapsed_s"]?.doubleValue ?? 0
    let baselineAnswered = MonotonicClock.now()

    // A client that disconnects mid-line.
    let halfway = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 1_000)
    try halfway.send("{\"cmd\":\"sta", timeoutMilliseconds: 1_000)
    try halfway.close()

    // Clients that connect and never speak, and 50 clients at once that all get answers.
    var silent: [UnixClient] = []
    for _ in 0..<5 {
      silent.append(try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 1_000))
    }
    var crowd: [UnixClient] = []
    for _ in 0..<50 {
      crowd.append(try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 1_000))
    }
    for client in crowd { try client.send("{\"cmd\":\"status\"}\n", timeoutMilliseconds: 1_000) }
    var answered = 0
    for index in crowd.indices {
      if let line = try crowd[index].readLine(timeoutMilliseconds: 3_000),
        try JSONValue.parse(line)["ok"] == true
      {
        answered += 1
      }
      try crowd[index].close()
    }
    #expect(answered == 50)

    // Past the limit of simultaneous clients the longest idle ones (the silent clients, there
    // first) make room for the new ones, and are told so.
    var flood: [UnixClient] = []
    for _ in 0..<70 {
      if let client = try? UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 1_000) {
        flood.append(client)
      }
    }
    var evicted = 0
    for index in silent.indices {
      if let line = try? silent[index].readLine(timeoutMilliseconds: 2_000),
        (try? JSONValue.parse(line))?["error"]?["code"]?.stringValue == "evicted"
      {
        evicted += 1
      }
    }
    #expect(evicted == silent.count)
    for client in flood { try? client.close() }
    for client in silent { try? client.close() }
    // A closed client leaves the daemon when the last copy of its descriptor is gone, and a
    // process that another suite spawns at this moment holds copies until it execs: until then
    // the daemon may still be full and answer too_many_clients.
    #expect(eventually { (try? daemon.request(["cmd": "version"]))?["ok"]?.boolValue == true })

    // The clock kept time through all of it: the time it says passed between the two
    // replies lies between the shortest and the longest span of real time the two exchanges
    // allow, however long they took (the reply's decimal rounding of the elapsed time
    // is the only slack).
    let finalAsked = MonotonicClock.now()
    let elapsed = try daemon.status()["elapsed_s"]?.doubleValue ?? 0
    let finalAnswered = MonotonicClock.now()
    let shortest = Double(finalAsked - baselineAnswered) / 1e9
    let longest = Double(finalAnswered - baselineAsked) / 1e9
    #expect(
      elapsed - baseline >= shortest - 1e-6, "\(elapsed - baseline) s shown, \(shortest) s at least"
    )
    #expect(
      elapsed - baseline <= longest + 1e-6, "\(elapsed - baseline) s shown, \(longest) s at most")
    #expect(try daemon.status()["state"]?.stringValue == "running")
  }

  @Test func aSilentClientIsDroppedAfterTheTimeout() throws {
    let daemon = try DaemonHarness(config: testConfig + "\ndaemon:\n  client_timeout: 1s\n")
    try daemon.start()
    var silent = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 1_000)
    defer { try? silent.close() }
    // The daemon closes the connection: the read sees the end of the stream.
    #expect(try silent.readLine(timeoutMilliseconds: 5_000) == nil)
  }

  @Test func memoryStaysBoundedUnderAFlood() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    guard let pid = daemon.process?.processID else { return }
    let before = try ProcessStats.sample(processID: pid).residentBytes
    for round in 0..<20 {
      var clients: [UnixClient] = []
      for _ in 0..<40 {
        if let client = try? UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 1_000)
        {
          clients.append(client)
        }
      }
      for client in clients {
        // Half a megabyte without a newline: refused as too long, never buffered whole.
        _ = try? client.send(
          String(repeating: "y", count: round % 2 == 0 ? 9_000 : 100), timeoutMilliseconds: 500)
      }
      for client in clients { try? client.close() }
    }
    // Room for one more once the closed clients are gone (see the test above).
    #expect(eventually { (try? daemon.request(["cmd": "version"]))?["ok"]?.boolValue == true })
    #expect(try daemon.status()["state"]?.stringValue == "idle")
    let after = try ProcessStats.sample(processID: pid).residentBytes
    #expect(after < before + 8 * 1024 * 1024, "resident memory grew from \(before) to \(after)")
  }
}
