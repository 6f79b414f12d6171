// SPDX-License-Identifier: MIT
// `web`: what the web interface costs the daemon with five displays watching a workout (CPU,
// peak RSS, wake-up lateness beside the timer floor), and how close to the daemon's own second
// boundaries a real browser's display changes its digits.

import Glibc
import HardwareKit
import JSONKit
import WodclockTestSupport

enum WebBenchmark {
  /// The display clients of the figures: a gym's TVs and tablets.
  static let displayClients = 5
  static let preset = "amrap-long"
  /// The Python script that drives Chromium, from the source tree's root.
  static let browserScript = "Tests/web/bench_second_change.py"
  /// At least this many digit changes in the browser, so that a p99 is not just the maximum.
  static let minimumChanges = 50

  static func run(_ options: BenchmarkOptions) throws {
    let seconds = options.window(default: 60)
    let changes = max(minimumChanges, seconds)
    try Interruption.check()
    let scratch = try ScratchDirectory(prefix: "wodclock-bench-")
    defer { scratch.remove() }
    let daemon = try DaemonUnderTest(
      configuration: configuration(minutes: (seconds + changes) / 60 + 10), in: scratch, speed: 1,
      keepsLog: true)
    defer { daemon.stop() }
    let address = try daemon.webAddress()
    try daemon.request(#"{"cmd":"load","preset":"\#(preset)"}"#)
    try daemon.request(#"{"cmd":"start"}"#)

    try measureDisplays(daemon, at: address, seconds: seconds)
    try measureSecondChange(at: address, changes: changes)
  }

  /// An AMRAP at real speed that outlasts both parts, with the web interface on a free
  /// loopback port.
  static func configuration(minutes: Int) -> String {
    """
    # wodclock-bench web: an AMRAP at real speed, watched by display clients.
    ---
    defaults:
      preset: \(preset)
      count_in: 0s
    presets:
      \(preset):
        mode: amrap
        time: \(minutes)m
    outputs:
      - type: log
    web:
      listen: "127.0.0.1:0"
      pin: "482193"
      # The five displays connect from one address here; on a gym's LAN each TV has its own,
      # and an address holds 3 streams by default.
      streams_per_address: \(displayClients)
    """
  }

  // MARK: - Five displays

  /// The daemon's CPU share, peak RSS and wake-up lateness over `seconds` with five event
  /// streams open and read, beside the timer floor in the same seconds.
  static func measureDisplays(
    _ daemon: DaemonUnderTest, at address: SocketAddress, seconds: Int
  ) throws {
    var clients: [EventStreamClient] = []
    defer { for client in clients { client.close() } }
    for _ in 0..<displayClients { clients.append(try EventStreamClient(connectingTo: address)) }
    // Every stream has its head and its first status (sent at once) before the window opens.
    let opened = MonotonicClock.now()
    while clients.contains(where: { $0.counts["status", default: 0] == 0 }) {
      try Interruption.check()
      try readReady(&clients, timeoutMilliseconds: 20)
      if MonotonicClock.now() - opened > 5_000_000_000 {
        throw BenchmarkError("an event stream sent no status within 5 s")
      }
    }
    for index in clients.indices { clients[index].counts = [:] }

    let first = try Figures(daemon.request(#"{"cmd":"stats"}"#))
    let end = MonotonicClock.now() + Int64(seconds) * 1_000_000_000
    // The floor in quarter-second slices (the wakeup benchmark's 10 ms period); between two,
    // the streams' bytes are read, so a slice never waits on a client. A quarter of a second
    // of events is a few kilobytes, far below a socket's buffer.
    var floor: [Int64] = []
    while MonotonicClock.now() < end {
      try Interruption.check()
      try readReady(&clients, timeoutMilliseconds: 0)
      floor += try TimerFloor.measure(count: 25, period: WakeupBenchmark.floorPeriod)
    }
    try readReady(&clients, timeoutMilliseconds: 0)
    let stats = try daemon.request(#"{"cmd":"stats"}"#)
    let last = try Figures(stats)
    let status = try daemon.request(#"{"cmd":"status"}"#)

    let state = status["status"]?["state"]?.stringValue ?? "?"
    guard state == "running" else {
      throw BenchmarkError("the AMRAP is '\(state)' at the end of the window, not running")
    }
    if let closed = clients.first(where: { $0.closed }) {
      throw BenchmarkError("wodclockd closed an event stream during the window: \(closed.head)")
    }
    let streams = stats["web"]?["streams"]?.intValue ?? -1
    guard streams == Int64(displayClients) else {
      throw BenchmarkError("wodclockd counts \(streams) event streams, not \(displayClients)")
    }
    guard let lateness = stats["wake_lateness_us"], let count = lateness["count"]?.intValue,
      let p50 = lateness["p50"]?.doubleValue, let p99 = lateness["p99"]?.doubleValue,
      let max = lateness["max"]?.doubleValue
    else {
      throw BenchmarkError("wodclockd's stats have no wake-up lateness: \(stats)")
    }
    guard let floorFigures = Percentiles(floor.map { Double($0) / 1_000 }) else {
      throw BenchmarkError("the timer floor loop recorded nothing")
    }

    report("web.streams", Double(streams), "streams", decimals: 0)
    // cpu_s comes from /proc in clock ticks (10 ms): over 60 s one tick is 0.017 % of a core.
    let window = Double(last.taken - first.taken) / 1e9
    report("web.cpu_percent", (last.cpuSeconds - first.cpuSeconds) / window * 100, "%", decimals: 3)
    // Decimal megabytes, as in `resources`.
    report("web.peak_rss", Double(last.peakResidentBytes) / 1e6, "MB")
    report("web.wakeup.floor.p50", floorFigures.p50, "us")
    report("web.wakeup.floor.p99", floorFigures.p99, "us")
    report("web.wakeup.floor.max", floorFigures.max, "us")
    // The daemon's figures cover its last 8,192 wake-ups, here all since it started.
    report("web.wakeup.daemon.p50", p50, "us")
    report("web.wakeup.daemon.p99", p99, "us")
    report("web.wakeup.daemon.max", max, "us")
    report("web.wakeup.daemon.count", Double(count), "wakeups", decimals: 0)
    for kind in ["status", "cue", "heartbeat"] {
      let total = clients.reduce(0) { $0 + $1.counts[kind, default: 0] }
      report("web.events.\(kind)", Double(total), "events", decimals: 0)
    }
  }

  /// What `stats` says of the daemon's own process, and when it was asked.
  struct Figures {
    var taken: Int64
    var cpuSeconds: Double
    var peakResidentBytes: Int64

    init(_ stats: JSONValue) throws {
      taken = MonotonicClock.now()
      guard let cpu = stats["cpu_s"]?.doubleValue, let peak = stats["peak_rss_bytes"]?.intValue
      else { throw BenchmarkError("wodclockd's stats have no cpu_s or peak_rss_bytes: \(stats)") }
      cpuSeconds = cpu
      peakResidentBytes = peak
    }
  }

  /// Reads what every readable stream has, waiting at most `timeoutMilliseconds` for one.
  static func readReady(_ clients: inout [EventStreamClient], timeoutMilliseconds: Int32) throws {
    var entries = clients.map {
      pollfd(fd: $0.socket.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
    }
    guard poll(&entries, nfds_t(entries.count), timeoutMilliseconds) > 0 else { return }
    for index in clients.indices where entries[index].revents != 0 {
      try clients[index].readAvailable()
    }
  }

  // MARK: - The browser

  /// Runs the Chromium script on the daemon's display page and reports its figures; says so
  /// and goes on when Python, Chromium or the DevTools client is missing.
  static func measureSecondChange(at address: SocketAddress, changes: Int) throws {
    let python = "/usr/bin/python3"
    guard access(python, X_OK) == 0 else {
      writeError("web: skipping the browser part: \(python) is missing (apt install python3)\n")
      return
    }
    let script = try findSourceFile(browserScript)
    let child = try Subprocess.spawn(
      executable: python,
      arguments: [script, "--url", "http://\(address)", "--changes", String(changes)],
      standardInput: .nullDevice, standardOutput: .pipe, standardError: .inherit)
    defer { DaemonUnderTest.terminate(child) }
    let (bytes, status) = try DaemonUnderTest.output(of: child)
    // 69 (EX_UNAVAILABLE): no Chromium or no DevTools client; the script said which.
    if status == .exited(69) {
      writeError("web: skipping the browser part (see above)\n")
      return
    }
    guard status == .exited(0) else {
      throw BenchmarkError("\(browserScript) \(status)")
    }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 3, let value = Double(fields[1]) else {
        throw BenchmarkError("\(browserScript) printed a line that is no figure: \(line)")
      }
      report(String(fields[0]), value, String(fields[2]), decimals: fields[2] == "ms" ? 1 : 0)
    }
  }

  /// A file of the source tree the bench was built in (`relativePath` from its root): `swift
  /// build` puts the binary under `.build/<triple>/release`, so it is looked for upwards from
  /// there.
  static func findSourceFile(_ relativePath: String) throws -> String {
    guard let resolved = realpath(try DaemonUnderTest.executablePath(), nil) else {
      throw BenchmarkError("cannot resolve the path of wodclockd next to the bench")
    }
    var directory = String(cString: resolved)
    free(resolved)
    for _ in 0..<5 {
      guard let slash = directory.lastIndex(of: "/") else { break }
      directory = String(directory[..<slash])
      let candidate = directory + "/" + relativePath
      if access(candidate, R_OK) == 0 { return candidate }
    }
    throw BenchmarkError(
      "cannot find \(relativePath) above the bench's directory; run the bench from its build")
  }
}

/// One display client: `GET /api/events` on a raw TCP connection, read as a page's EventSource
/// reads it (WHATWG HTML, "Server-sent events": events end at a blank line), counting the events
/// by their `event:` field.
struct EventStreamClient {
  let socket: TCPSocket
  /// Bytes read and not yet taken apart: the response head, then chunk framing.
  private var received: [UInt8] = []
  /// The decoded body not yet split into events.
  private var body: [UInt8] = []
  private var chunked = false
  private(set) var head = ""
  private(set) var closed = false
  /// Events seen, by kind (`status`, `cue`, `heartbeat`).
  var counts: [String: Int] = [:]

  /// Connects and sends the request; loopback connects at once or within milliseconds.
  init(connectingTo address: SocketAddress) throws {
    let (socket, progress) = try TCPSocket.connect(to: address)
    self.socket = socket
    if progress == .inProgress {
      var entry = pollfd(fd: socket.fileDescriptor.rawValue, events: Int16(POLLOUT), revents: 0)
      _ = poll(&entry, 1, 5_000)
      guard try socket.finishConnecting() == .connected else {
        throw BenchmarkError("no connection to the web interface at \(address) within 5 s")
      }
    }
    let request = Array(
      "GET /api/events HTTP/1.1\r\nHost: \(address)\r\nAccept: text/event-stream\r\n\r\n".utf8)
    // A fresh socket's send buffer takes a hundred bytes whole.
    guard case .written(let count) = try socket.write(request), count == request.count else {
      throw BenchmarkError("the event stream request did not go out whole")
    }
  }

  /// Reads everything that has arrived and counts the events it completes.
  mutating func readAvailable() throws {
    while !closed {
      switch try socket.read(appendingTo: &received, maximumCount: 65_536) {
      case .bytes: continue
      case .wouldBlock: return decode()
      case .endOfFile:
        closed = true
        decode()
      }
    }
  }

  private mutating func decode() {
    if head.isEmpty {
      guard let end = Self.find([13, 10, 13, 10], in: received, from: 0) else { return }
      head = String(decoding: received[..<end], as: UTF8.self)
      // "\r\n" is one Character. Chunked is always the last coding (RFC 9112 section 6.1).
      chunked = head.lowercased().split(separator: "\r\n").contains {
        $0.hasPrefix("transfer-encoding:") && $0.hasSuffix("chunked")
      }
      received.removeSubrange(..<(end + 4))
    }
    if chunked {
      // RFC 9112 section 7.1: a hexadecimal size line, the bytes, CRLF; size 0 ends the body.
      var start = 0
      while let lineEnd = Self.find([13, 10], in: received, from: start) {
        let sizeText = String(decoding: received[start..<lineEnd], as: UTF8.self)
        guard let size = Int(sizeText.prefix { $0 != ";" }, radix: 16),
          received.count >= lineEnd + 2 + size + 2
        else { break }
        body += received[(lineEnd + 2)..<(lineEnd + 2 + size)]
        start = lineEnd + 2 + size + 2
      }
      received.removeSubrange(..<start)
    } else {
      body += received
      received = []
    }
    countEvents()
  }

  /// Takes the complete events off the body. The daemon ends lines with LF; a CR is dropped
  /// first, as the spec allows CRLF too.
  private mutating func countEvents() {
    body.removeAll { $0 == 13 }
    var start = 0
    while let end = Self.find([10, 10], in: body, from: start) {
      var kind = "message"
      var hasData = false
      for line in body[start..<end].split(separator: 10) {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("event:") {
          kind = String(text.dropFirst("event:".count).drop { $0 == " " })
        } else if text.hasPrefix("data:") {
          hasData = true
        }
      }
      // A block with no data (`retry: 2000`) dispatches no event.
      if hasData { counts[kind, default: 0] += 1 }
      start = end + 2
    }
    body.removeSubrange(..<start)
  }

  private static func find(_ marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= marker.count, start <= bytes.count - marker.count else { return nil }
    for index in start...(bytes.count - marker.count)
    where bytes[index] == marker[0] && Array(bytes[index..<(index + marker.count)]) == marker {
      return index
    }
    return nil
  }

  func close() { try? socket.close() }
}
