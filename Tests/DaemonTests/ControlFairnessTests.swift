// SPDX-License-Identifier: MIT
// The control socket is fair: a pipelined batch, a table full of idle clients or a long
// wake-up costs the other clients their answers and `stats` its figures nothing.

import Glibc
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@Suite(.serialized) struct ControlFairnessTests {
  /// How many clients the daemon serves at once.
  private let maximumClients = 64

  /// `count` status requests with the ids 0, 1, 2, ... as one block of bytes.
  private func statusBatch(_ count: Int) -> [UInt8] {
    var batch: [UInt8] = []
    for id in 0..<count { batch += Array("{\"cmd\":\"status\",\"id\":\(id)}\n".utf8) }
    return batch
  }

  /// Connects and has one request answered, so the client is in the daemon's table.
  private func connectedClient(_ daemon: DaemonHarness, _ request: String) throws -> UnixClient {
    var client = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 2_000)
    try client.send(request + "\n", timeoutMilliseconds: 1_000)
    let reply = try client.readLine(timeoutMilliseconds: 5_000).map { try JSONValue.parse($0) }
    guard reply?["ok"] == true else {
      throw HarnessError("\(request) was not answered: \(String(describing: reply))")
    }
    return client
  }

  @Test func aPipelinedBatchGetsEveryReplyInOrderWhileOthersAreServed() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    let count = 10_000
    let batch = statusBatch(count)
    var busy = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 2_000)
    defer { try? busy.close() }
    // The batch goes out as far as the socket takes it, and nothing is read yet: its replies
    // (5 MB) cannot all be answered meanwhile, so the batch is still being served while another
    // client starts the workout and asks how it goes, three wake-ups at least, each answered.
    let sent = try busy.sendWithoutWaiting(batch)
    for command: JSONValue in ["start", "status", "status"] {
      #expect(try daemon.request(["cmd": command])["ok"] == true)
    }

    var lines: [String] = []
    try busy.send(batch[sent...], readingLinesInto: &lines, timeoutMilliseconds: 60_000)
    while lines.count < count, let line = try busy.readLine(timeoutMilliseconds: 10_000) {
      lines.append(line)
    }
    let replies = lines.compactMap { try? JSONValue.parse($0) }
    #expect(replies.count == count)
    #expect(replies.map { $0["id"]?.intValue } == (0..<count).map { Int64($0) })
    #expect(replies.allSatisfy { $0["ok"] == true })
    // The start landed inside the batch: idle before it, running after it to the last reply.
    let states = replies.map { $0["status"]?["state"]?.stringValue ?? "" }
    let firstRunning = states.firstIndex(of: "running") ?? states.endIndex
    #expect(states[..<firstRunning].allSatisfy { $0 == "idle" })
    #expect(states.last == "running")
    #expect(states[firstRunning...].allSatisfy { $0 == "running" })
  }

  @Test func aClientReadingItsRepliesSlowlyIsNotDroppedAsSilent() throws {
    let daemon = try DaemonHarness(config: testConfig + "\ndaemon:\n  client_timeout: 2s\n")
    try daemon.start()
    let count = 1_500
    var client = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 2_000)
    defer { try? client.close() }
    try client.send(statusBatch(count), timeoutMilliseconds: 5_000)
    // Reading takes longer than the timeout in all, with pauses well under it: the client is
    // being served all along.
    var received = 0
    while received < count, try client.readLine(timeoutMilliseconds: 5_000) != nil {
      received += 1
      if received % 150 == 0 { pause(milliseconds: 300) }
    }
    #expect(received == count)
  }

  @Test func aReplyTooLongToQueueIsAnsweredWithAnError() throws {
    let daemon = try DaemonHarness(config: testConfig)
    // Seven hundred workouts of a preset with a long name in the history: 0.9 MB as one reply.
    let preset = String(repeating: "x", count: 1_200)
    let entry =
      "{\"preset\":\"\(preset)\",\"mode\":\"emom\",\"started_at\":1700000000,"
      + "\"ended_at\":1700000600,\"active_s\":600,\"outcome\":\"completed\",\"rounds\":6,"
      + "\"laps\":0}\n"
    try FileSystem.makeDirectories(daemon.stateDirectory)
    try FileSystem.writeFileAtomically(
      daemon.stateDirectory + "/history.jsonl", text: String(repeating: entry, count: 700))
    try daemon.start()
    let reply = try daemon.request(["cmd": "history", "limit": 10_000, "id": 3])
    #expect(reply["error"]?["code"]?.stringValue == "too_large")
    #expect(reply["id"]?.intValue == 3)
    // Asked for less, the daemon answers.
    #expect(
      try daemon.request(["cmd": "history", "limit": 10])["history"]?.arrayValue?.count == 10)
  }

  @Test func aFullTableMakesRoomByClosingTheLongestIdleClient() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    var idle: [UnixClient] = []
    defer { for client in idle { try? client.close() } }
    for _ in 0..<maximumClients {
      idle.append(try connectedClient(daemon, "{\"cmd\":\"version\"}"))
    }
    let status = try daemon.ctl(["status"])
    #expect(status.status == 0, "\(status.error)")
    // The longest idle client, the first, is told why before the daemon closes it.
    let farewell = try idle[0].readLine(timeoutMilliseconds: 5_000).map { try JSONValue.parse($0) }
    #expect(farewell?["error"]?["code"]?.stringValue == "evicted")
    #expect(try idle[0].readLine(timeoutMilliseconds: 5_000) == nil)
    // The others are still served.
    try idle[1].send("{\"cmd\":\"version\"}\n", timeoutMilliseconds: 1_000)
    let reply = try idle[1].readLine(timeoutMilliseconds: 5_000).map { try JSONValue.parse($0) }
    #expect(reply?["ok"] == true)
  }

  @Test func wodclockctlSaysWhyWhenEveryClientIsSubscribed() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    var watchers: [UnixClient] = []
    defer { for client in watchers { try? client.close() } }
    for _ in 0..<maximumClients {
      watchers.append(try connectedClient(daemon, "{\"cmd\":\"subscribe\"}"))
    }
    // Subscribers are never closed to make room: a new client is refused, and told why.
    let refused = try daemon.ctl(["status"])
    #expect(refused.status == 75)
    #expect(refused.error.contains("the daemon closed this connection: too many clients"))
    #expect(refused.error.contains("hint: try again"))
  }

  @Test func wodclockctlSaysWhyWhenTheDaemonDoesNotAnswer() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    try daemon.signal(Signal(rawValue: SIGSTOP))
    defer { try? daemon.signal(Signal(rawValue: SIGCONT)) }
    // A stopped daemon still has its connections queued by the kernel, but answers nothing.
    let silent = try daemon.ctl(["status"])
    #expect(silent.status == 75)
    #expect(silent.error.contains("the daemon did not answer within 5 s"))
    // Once that queue is full, a connection is not even accepted.
    var queued: [UnixClient] = []
    defer { for client in queued { try? client.close() } }
    while let client = try? UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 100),
      queued.count < 1_000
    {
      queued.append(client)
    }
    let unaccepted = try daemon.ctl(["status"])
    #expect(unaccepted.status == 75)
    #expect(unaccepted.error.contains("the daemon did not accept the connection within 2 s"))
  }

  /// Runs wodclockctl against a socket this test serves: `serve` gets the connection once the
  /// request has arrived, and the connection is closed after it.
  private func ctlAgainstStandIn(
    _ arguments: [String], serve: (UnixConnection) throws -> Void
  ) throws -> (status: Int32, error: String) {
    let scratch = try DaemonHarness(config: testConfig)
    let listener = try UnixListener(path: scratch.socketPath)
    defer { try? listener.close() }
    let child = try Subprocess.spawn(
      executable: binaryDirectory + "/wodclockctl",
      arguments: ["--socket", listener.path] + arguments, environment: ["PATH=/usr/bin:/bin"],
      standardInput: .nullDevice, standardOutput: .pipe, standardError: .pipe)
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(listener.fileDescriptor, token: 1)
    _ = try poller.wait(timeoutMilliseconds: 5_000)
    let connection = try #require(try listener.accept())
    try poller.register(connection.fileDescriptor, token: 2)
    var request: [UInt8] = []
    while !request.contains(0x0A) {
      _ = try poller.wait(timeoutMilliseconds: 5_000)
      if case .endOfFile = try connection.read(appendingTo: &request) { break }
    }
    try serve(connection)
    try connection.close()
    let result = try collect(child)
    return (result.status, result.error)
  }

  @Test func wodclockctlSaysWhatHappenedWhenTheDaemonClosesTheConnection() throws {
    let evicted = try ctlAgainstStandIn(["status"]) { connection in
      let line =
        "{\"v\":1,\"ok\":false,\"error\":{\"code\":\"evicted\",\"message\":\"this connection was idle longest\"}}\n"
      _ = try connection.write(Array(line.utf8))
    }
    #expect(evicted.status == 75)
    #expect(
      evicted.error.contains(
        "the daemon closed this connection: too many clients (this connection was idle longest)"))

    let closed = try ctlAgainstStandIn(["status"]) { _ in }
    #expect(closed.status == 69)
    #expect(closed.error.contains("the daemon closed the connection without answering"))
    #expect(closed.error.contains("hint: "))
  }

  @Test func statsCountAWakeUpThatCameLate() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    _ = try daemon.request(["cmd": "start"])
    func stats() throws -> JSONValue { try daemon.request(["cmd": "stats"]) }
    // The running workout wakes the loop every second, and those wake-ups are counted.
    #expect(try eventually { (try stats()["wake_lateness_us"]?["count"]?.intValue ?? 0) >= 1 })
    // Held for two seconds, as a long wake-up in a flood holds the loop, the daemon gets to a
    // deadline a second or more late: that wake-up must be counted, at its lateness.
    try daemon.signal(Signal(rawValue: SIGSTOP))
    pause(milliseconds: 2_000)
    try daemon.signal(Signal(rawValue: SIGCONT))
    let late = try stats()["wake_lateness_us"]
    #expect((late?["max"]?.doubleValue ?? 0) >= 500_000, "\(String(describing: late))")
  }
}
