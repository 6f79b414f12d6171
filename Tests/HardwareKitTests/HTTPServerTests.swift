// SPDX-License-Identifier: MIT
// The web server for real: libmicrohttpd on 127.0.0.1:0 driven by a small loop of the test's
// own (epoll on its descriptor, its wake-ups), clients over real TCP sockets in the same
// thread. Requests, bodies, the limits, event streams that park while quiet, and the errors
// of a taken port.

import Glibc
import Testing

@testable import HardwareKit

/// Records what the server hands over; answers with `answer`.
final class RecordingHandler: HTTPRequestHandler {
  var requests: [HTTPServer.Request] = []
  var opened: [HTTPServer.StreamID] = []
  /// The library's error log.
  var log: [String] = []
  var ended: [HTTPServer.StreamID: HTTPServer.StreamEnd] = [:]
  var respond: (HTTPServer.Request) -> HTTPServer.Answer = { _ in
    .response(HTTPServer.Response(status: 200, bytes: Array("hello".utf8)))
  }
  /// Sent to each stream as it opens.
  var greeting: [UInt8] = Array("retry: 2000\n\n".utf8)
  weak var server: HTTPServer?

  func answer(_ request: HTTPServer.Request) -> HTTPServer.Answer {
    requests.append(request)
    return respond(request)
  }

  func eventStreamOpened(_ stream: HTTPServer.StreamID, for request: HTTPServer.Request) {
    opened.append(stream)
    server?.send(greeting, to: stream)
  }

  func eventStreamEnded(_ stream: HTTPServer.StreamID, because reason: HTTPServer.StreamEnd) {
    ended[stream] = reason
  }
}

/// A server, its handler, and the loop that drives it.
final class ServerHarness {
  let handler = RecordingHandler()
  let server: HTTPServer
  let poller: EventPoller
  /// How many times the loop woke and called `run()`.
  var runs = 0

  init(
    _ address: SocketAddress = SocketAddress(.loopbackIPv4, port: 0),
    limits: HTTPServer.Limits = HTTPServer.Limits()
  ) throws {
    server = try HTTPServer(
      listeningOn: address, limits: limits, commonHeaders: [HTTPServer.Field("X-Common", "1")],
      handler: handler, log: { [handler] in handler.log.append($0) })
    handler.server = server
    poller = try EventPoller()
    try poller.register(server.pollDescriptor, token: 1)
  }

  deinit {
    stop()
    try? poller.close()
  }

  /// Stops the server (once): its descriptor leaves the loop first, as it closes with it.
  func stop() {
    guard !stopped else { return }
    stopped = true
    try? poller.unregister(server.pollDescriptor)
    server.stop()
  }

  private var stopped = false

  /// One turn of the loop: waits for the server's descriptor or its wake-up (or `slice`, so the
  /// test's clients are looked at), then runs the server if either came.
  func turn(slice: Int64 = 20_000_000) throws {
    let now = MonotonicClock.now()
    let wakeUp = server.nextWakeUp(after: now)
    let events = try poller.wait(until: min(wakeUp ?? Int64.max, now + slice))
    if !events.isEmpty || (wakeUp.map { $0 <= MonotonicClock.now() } ?? false) {
      runs += 1
      server.run(at: MonotonicClock.now())
    }
  }

  /// Turns the loop until `condition` holds (at most 10 s, a bound against a hang, not a
  /// timing assert); returns whether it did.
  @discardableResult
  func pump(until condition: () throws -> Bool) throws -> Bool {
    let deadline = MonotonicClock.now() + 10_000_000_000
    while MonotonicClock.now() < deadline {
      if try condition() { return true }
      try turn()
    }
    return try condition()
  }

  /// Turns the loop for `nanoseconds`, whatever happens.
  func idle(for nanoseconds: Int64) throws {
    let end = MonotonicClock.now() + nanoseconds
    while MonotonicClock.now() < end { try turn(slice: end - MonotonicClock.now()) }
  }
}

/// A test's HTTP client over a non-blocking TCP socket.
final class TestClient {
  let socket: TCPSocket
  var received: [UInt8] = []
  var closed = false
  /// The test closed its end (the descriptor is not closed again).
  private var hungUp = false

  init(_ address: SocketAddress) throws {
    let (socket, progress) = try TCPSocket.connect(to: address)
    self.socket = socket
    if progress == .inProgress {
      let poller = try EventPoller()
      defer { try? poller.close() }
      try poller.register(socket.fileDescriptor, token: 1, interest: .writable)
      _ = try poller.wait(timeoutMilliseconds: 5_000)
      #expect(try socket.finishConnecting() == .connected)
    }
  }

  deinit { if !hungUp { try? socket.close() } }

  /// Leaves, as a client does that closes the page.
  func hangUp() throws {
    hungUp = true
    closed = true
    try socket.close()
  }

  /// Writes all of `bytes` (they fit the loopback's buffers).
  func send(_ bytes: [UInt8]) throws {
    var rest = bytes[...]
    while !rest.isEmpty {
      switch try socket.write(rest) {
      case .written(let count): rest = rest.dropFirst(count)
      case .wouldBlock: usleep(1_000)
      }
    }
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Takes what has arrived; notes the end of the stream or a reset.
  func poll() {
    guard !closed, !hungUp else { return }
    do {
      while true {
        switch try socket.read(appendingTo: &received, maximumCount: 65536) {
        case .bytes: continue
        case .wouldBlock: return
        case .endOfFile:
          closed = true
          return
        }
      }
    } catch {
      closed = true
    }
  }

  /// The response received so far, once complete.
  var response: TestResponse? {
    poll()
    return TestResponse(received)
  }
}

/// A parsed HTTP/1.1 response: status, headers (names lowercased), and the body (a chunked
/// body decoded; complete only at its last chunk).
struct TestResponse {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]
  var complete: Bool

  var text: String { String(decoding: body, as: UTF8.self) }

  /// Parses `bytes`; nil while the head is incomplete.
  init?(_ bytes: [UInt8], partial: Bool = false) {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
      return nil
    }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
    guard let statusLine = lines.first, let code = Int(statusLine.split(separator: " ")[1]) else {
      return nil
    }
    status = code
    headers = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] =
        line[line.index(after: colon)...]
        .trimmingPrefix(" ").description
    }
    let rest = Array(bytes[(end + 4)...])
    if headers["transfer-encoding"] == "chunked" {
      (body, complete) = TestResponse.dechunk(rest)
    } else {
      let length = Int(headers["content-length"] ?? "0") ?? 0
      body = Array(rest.prefix(length))
      complete = rest.count >= length
    }
    if !complete && !partial { return nil }
  }

  /// The chunks' data, and whether the last (empty) chunk has come (RFC 9112 section 7.1).
  static func dechunk(_ bytes: [UInt8]) -> ([UInt8], Bool) {
    var data: [UInt8] = []
    var index = 0
    while true {
      guard
        let lineEnd = (index..<max(index, bytes.count - 1)).first(where: {
          bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A
        })
      else { return (data, false) }
      let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
      guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
        return (data, false)
      }
      if size == 0 { return (data, true) }
      let start = lineEnd + 2
      guard bytes.count >= start + size + 2 else {
        data += bytes[start..<min(bytes.count, start + size)]
        return (data, false)
      }
      data += bytes[start..<(start + size)]
      index = start + size + 2
    }
  }
}

@Suite struct HTTPServerTests {
  func get(_ path: String, headers: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: clock\r\n\(headers)\r\n"
  }

  @Test func aGetIsAnsweredWithItsPartsDecoded() throws {
    let harness = try ServerHarness()
    #expect(harness.server.boundAddress.port != 0)
    let client = try TestClient(harness.server.boundAddress)
    try client.send(
      get("/api/explain%20it?text=amrap+14&limit=%32&flag", headers: "X-Test: yes\r\n"))
    try harness.pump { client.response != nil }
    let response = try #require(client.response)
    #expect(response.status == 200)
    #expect(response.text == "hello")
    #expect(response.headers["x-common"] == "1")
    let request = try #require(harness.handler.requests.first)
    #expect(request.method == "GET")
    #expect(request.path == "/api/explain it")
    #expect(
      request.query == [
        .init("text", "amrap 14"), .init("limit", "2"), .init("flag", nil),
      ])
    #expect(request.header("X-Test") == "yes")
    #expect(request.headers.contains(.init("host", "clock")))
    #expect(request.peer?.address == .loopbackIPv4)
    #expect(request.body.isEmpty)
  }

  @Test func aPostBodyIsAssembledFromItsPieces() throws {
    let harness = try ServerHarness()
    let body = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
    let client = try TestClient(harness.server.boundAddress)
    try client.send(
      "POST /api/command HTTP/1.1\r\nHost: clock\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.count)\r\n\r\n")
    try client.send(Array(body.prefix(3_000)))
    try harness.idle(for: 50_000_000)
    try client.send(Array(body.dropFirst(3_000)))
    try harness.pump { client.response != nil }
    #expect(client.response?.status == 200)
    #expect(harness.handler.requests.map(\.body) == [body])

    // The same in chunks of the client's (RFC 9112 section 7.1).
    let chunked = try TestClient(harness.server.boundAddress)
    try chunked.send(
      "POST /api/command HTTP/1.1\r\nHost: clock\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
    try harness.pump { chunked.response != nil }
    #expect(harness.handler.requests.last?.body == Array("hello world".utf8))
  }

  @Test func aBodyOverTheLimitIs413WithoutBeingRead() throws {
    let harness = try ServerHarness()
    let client = try TestClient(harness.server.boundAddress)
    // Announced too large: refused before the body is sent (`Expect: 100-continue` gets no
    // 100, RFC 9110 section 10.1.1).
    try client.send(
      "POST /api/command HTTP/1.1\r\nHost: clock\r\nContent-Length: 16385\r\n"
        + "Expect: 100-continue\r\n\r\n")
    try harness.pump { client.response != nil }
    let response = try #require(client.response)
    #expect(response.status == 413)
    #expect(response.headers["content-type"] == "application/json")
    #expect(response.text.hasPrefix(#"{"ok":false,"error":{"code":"too_large","#))
    #expect(harness.handler.requests.isEmpty)

    // Chunked, with no length announced: once past the limit the rest is read and dropped,
    // and the end of the body is answered 413 (0.9.75 takes no response while a body is being
    // read, and a client that sends before it reads would get a reset instead).
    let chunked = try TestClient(harness.server.boundAddress)
    try chunked.send(
      "POST /api/command HTTP/1.1\r\nHost: clock\r\nTransfer-Encoding: chunked\r\n\r\n")
    let piece = "1000\r\n" + String(repeating: "x", count: 4096) + "\r\n"
    for _ in 0..<5 { try chunked.send(piece) }
    try chunked.send("0\r\n\r\n")
    try harness.pump { chunked.response != nil }
    #expect(chunked.response?.status == 413)
    #expect(chunked.response?.headers["connection"] == "close")
    #expect(harness.handler.requests.isEmpty)
    #expect(harness.handler.log.isEmpty)
  }

  @Test func twentyKilobytesOfHeadersAreRefusedAndTheNextClientServed() throws {
    let harness = try ServerHarness()
    let client = try TestClient(harness.server.boundAddress)
    let padding = String(repeating: "a", count: 20 * 1024)
    try client.send(get("/", headers: "X-Padding: \(padding)\r\n"))
    try harness.pump { client.response != nil || client.closed }
    let status = try #require(client.response?.status)
    #expect((400..<500).contains(status), "status \(status)")
    #expect(harness.handler.requests.isEmpty)

    let next = try TestClient(harness.server.boundAddress)
    try next.send(get("/"))
    try harness.pump { next.response != nil }
    #expect(next.response?.status == 200)
  }

  @Test func pastEightConnectionsFromOneAddressTwoAre503AndMoreAreClosed() throws {
    let harness = try ServerHarness()
    let clients = try (0..<10).map { _ in try TestClient(harness.server.boundAddress) }
    // The first ten are accepted before the eleventh comes.
    try harness.pump { harness.server.connectionCount == 10 }
    #expect(harness.server.connectionCount == 10)
    let eleventh = try TestClient(harness.server.boundAddress)
    try harness.pump {
      eleventh.poll()
      return eleventh.closed
    }
    #expect(eleventh.closed)
    #expect(eleventh.received.isEmpty)
    for client in clients { try client.send(get("/")) }
    try harness.pump { clients.allSatisfy { $0.response != nil } }
    #expect(
      clients.map { $0.response?.status }
        == Array(repeating: 200, count: 8) + Array(repeating: 503, count: 2))
    #expect(clients.last?.response?.headers["retry-after"] == "5")
    #expect(clients.last?.response?.text.contains("server_busy") == true)
  }

  @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
    let harness = try ServerHarness(limits: HTTPServer.Limits(idleTimeoutSeconds: 1))
    let client = try TestClient(harness.server.boundAddress)
    try harness.pump { harness.server.connectionCount == 1 }
    // The library says when its timeout is due, so the loop sleeps until then: no busy poll.
    let now = MonotonicClock.now()
    let due = try #require(harness.server.nextWakeUp(after: now))
    #expect(due > now && due <= now + 1_000_000_000, "due \(due - now) ns after now")
    try harness.pump {
      client.poll()
      return client.closed
    }
    #expect(client.closed)
    #expect(client.received.isEmpty)
  }

  func openStream(_ harness: ServerHarness) throws -> (TestClient, HTTPServer.StreamID) {
    harness.handler.respond = { _ in
      .eventStream(headers: [HTTPServer.Field("Content-Type", "text/event-stream")])
    }
    let client = try TestClient(harness.server.boundAddress)
    try client.send(get("/api/events"))
    try harness.pump {
      client.poll()
      return TestResponse(client.received, partial: true)?.text == "retry: 2000\n\n"
    }
    return (client, try #require(harness.handler.opened.last))
  }

  @Test func anEventStreamGetsItsBytesInOrderAndParksWhileQuiet() throws {
    // A 1 s idle timeout: a parked stream outlives it.
    let harness = try ServerHarness(limits: HTTPServer.Limits(idleTimeoutSeconds: 1))
    let (client, stream) = try openStream(harness)
    let head = try #require(TestResponse(client.received, partial: true))
    #expect(head.status == 200)
    #expect(head.headers["content-type"] == "text/event-stream")
    #expect(head.headers["x-common"] == "1")
    #expect(!head.complete)

    var expected = "retry: 2000\n\n"
    for number in 1...20 {
      let event = "id: \(number)\nevent: status\ndata: {\"n\":\(number)}\n\n"
      expected += event
      #expect(harness.server.send(Array(event.utf8), to: stream))
      if number % 7 == 0 { try harness.turn() }
    }
    try harness.pump {
      client.poll()
      return TestResponse(client.received, partial: true)?.text == expected
    }
    #expect(TestResponse(client.received, partial: true)?.text == expected)

    // Nothing to send: the connection is parked, and outlives the idle timeout. The loop
    // sleeps meanwhile: the server asks for no wake-up and its descriptor is quiet.
    try harness.idle(for: 1_500_000_000)
    #expect(harness.server.nextWakeUp(after: MonotonicClock.now()) == nil)
    #expect(try harness.poller.wait(timeoutMilliseconds: 0).isEmpty)
    #expect(harness.server.streams[stream]?.suspended == true)
    #expect(harness.handler.ended.isEmpty)
    #expect(!client.closed)

    // The stream wakes up for the next event.
    #expect(harness.server.send(Array("data: late\n\n".utf8), to: stream))
    try harness.pump {
      client.poll()
      return TestResponse(client.received, partial: true)?.text.hasSuffix("data: late\n\n")
        ?? false
    }

    // Finished by the server: the last chunk, and the handler told.
    harness.server.finish(stream)
    try harness.pump { client.response != nil }
    #expect(client.response?.text == expected + "data: late\n\n")
    #expect(harness.handler.ended[stream] == .finished)
    #expect(!harness.server.send([0x41], to: stream))
  }

  @Test func aStreamWhoseClientLeftEndsAtTheNextSend() throws {
    let harness = try ServerHarness()
    let (client, stream) = try openStream(harness)
    try client.hangUp()
    // A parked connection does not notice; the next bytes (a heartbeat) find it gone.
    try harness.pump {
      harness.server.send(Array("event: heartbeat\ndata: {}\n\n".utf8), to: stream)
      return harness.handler.ended[stream] != nil
    }
    #expect(harness.handler.ended[stream] == .clientLeft)
    #expect(harness.server.openStreams.isEmpty)
  }

  @Test func aStreamThatIsNotReadIsClosedWhenItsBacklogOverflows() throws {
    let harness = try ServerHarness(
      limits: HTTPServer.Limits(maximumStreamBacklogBytes: 64 * 1024))
    let (client, stream) = try openStream(harness)
    // The client reads nothing: the kernel's buffers fill first, then the backlog.
    let event = Array(("data: " + String(repeating: "x", count: 1000) + "\n\n").utf8)
    var sent = 0
    try harness.pump {
      for _ in 0..<16 {
        guard harness.server.send(event, to: stream) else { return true }
        sent += event.count
      }
      return false
    }
    #expect(sent > 64 * 1024)
    try harness.pump { harness.handler.ended[stream] != nil }
    #expect(harness.handler.ended[stream] == .backlogOverflow)
    #expect(harness.server.openStreams.isEmpty)
    #expect(!harness.server.send(event, to: stream))
    // What the kernel held still arrives, then the end of the stream.
    try harness.pump {
      client.poll()
      return client.closed
    }
    #expect(client.closed)
    #expect(client.received.count < sent)
  }

  @Test func streamsPastTheLimitAre503AndStopEndsTheRest() throws {
    let harness = try ServerHarness(limits: HTTPServer.Limits(maximumStreams: 1))
    let (first, stream) = try openStream(harness)
    let second = try TestClient(harness.server.boundAddress)
    try second.send(get("/api/events"))
    try harness.pump { second.response != nil }
    #expect(second.response?.status == 503)
    #expect(second.response?.text.contains(#""code":"too_many_streams""#) == true)
    #expect(harness.server.openStreams == [stream])

    let address = harness.server.boundAddress
    harness.stop()
    #expect(harness.handler.ended[stream] == .serverStopped)
    first.poll()
    #expect(first.closed)
    // The listening socket is closed too.
    #expect(throws: SystemError.self) {
      let (socket, _) = try TCPSocket.connect(to: address)
      defer { try? socket.close() }
      let poller = try EventPoller()
      defer { try? poller.close() }
      try poller.register(socket.fileDescriptor, token: 1, interest: .writable)
      _ = try poller.wait(timeoutMilliseconds: 5_000)
      _ = try socket.finishConnecting()
    }
  }

  @Test func streamsPastTheLimitOfOneAddressAre503UntilOneEnds() throws {
    let harness = try ServerHarness(limits: HTTPServer.Limits(maximumStreamsPerAddress: 3))
    let streams = try (0..<3).map { _ in try openStream(harness) }
    let fourth = try TestClient(harness.server.boundAddress)
    try fourth.send(get("/api/events"))
    try harness.pump { fourth.response != nil }
    #expect(fourth.response?.status == 503)
    #expect(fourth.response?.headers["retry-after"] == "5")
    #expect(fourth.response?.text.contains("this address has 3 event streams open") == true)
    #expect(harness.server.openStreams == streams.map(\.1))
    // A stream that ends makes room for the next one from the address.
    try streams[0].0.hangUp()
    try harness.pump {
      harness.server.send(Array(": ping\n\n".utf8), to: streams[0].1)
      return harness.handler.ended[streams[0].1] != nil
    }
    let (_, next) = try openStream(harness)
    #expect(harness.server.openStreams.count == 3)
    #expect(harness.server.openStreams.contains(next))
  }

  @Test func aTakenPortIsAReadableError() throws {
    let listener = try TCPListener(SocketAddress(.loopbackIPv4, port: 0))
    defer { try? listener.close() }
    let port = listener.address.port
    let error = #expect(throws: HTTPServerError.self) {
      _ = try HTTPServer(listeningOn: listener.address, handler: RecordingHandler())
    }
    #expect(error?.reason == .addressInUse)
    #expect(
      error?.description
        == "cannot listen on 127.0.0.1:\(port): the port is in use (EADDRINUSE); hint: another "
        + "program listens on port \(port) (`ss -ltnp 'sport = :\(port)'` names it); stop it or "
        + "choose another port")
  }

  @Test func anAddressOfAnotherMachineIsAReadableError() throws {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    let address = SocketAddress(try #require(IPAddress("192.0.2.1")), port: 0)
    let error = #expect(throws: HTTPServerError.self) {
      _ = try HTTPServer(listeningOn: address, handler: RecordingHandler())
    }
    #expect(error?.reason == .addressNotAvailable)
    #expect(error?.description.contains("is not an address of this machine") == true)
  }

  @Test(.enabled(if: TCPSocketTests.hasIPv6Loopback))
  func theIPv6WildcardTakesIPv4ClientsToo() throws {
    let harness = try ServerHarness(SocketAddress(try #require(IPAddress("::")), port: 0))
    let client = try TestClient(
      SocketAddress(.loopbackIPv4, port: harness.server.boundAddress.port))
    try client.send(get("/"))
    try harness.pump { client.response != nil }
    #expect(client.response?.status == 200)
    #expect(harness.handler.requests.first?.peer?.address == IPAddress("::ffff:127.0.0.1"))
  }
}
