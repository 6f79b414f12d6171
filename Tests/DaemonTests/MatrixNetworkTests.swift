// SPDX-License-Identifier: MIT
// The DDP matrix output with a controller named by a host name, without the network: the name
// is looked up by `wodclockd --resolve` in a child process while the output carries on, frames
// go out once the address is known (localhost, from /etc/hosts), and a name that has none (under
// `.invalid`, RFC 6761) or a lookup that never answers is reported once and looked up again.

import Configuration
import HardwareKit
import MatrixKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

/// The resolver of the daemon under test: the wodclockd that `swift build` made.
let builtResolver = AddressResolver(command: [binaryDirectory + "/wodclockd", "--resolve"])

/// Waits (at most 30 s: a name server that does not answer) until `descriptor` is readable.
func waitUntilReadable(_ descriptor: FileDescriptor) throws -> Readiness? {
  let poller = try EventPoller()
  defer { try? poller.close() }
  try poller.register(descriptor, token: 1)
  let event = try poller.wait(timeoutMilliseconds: 30_000).first
  try poller.unregister(descriptor)
  return event.map(Readiness.init)
}

/// The DDP datagrams `receiver` has had so far, waiting up to a second for the first.
func datagrams(_ receiver: UDPSocket) throws -> [[UInt8]] {
  var packets: [[UInt8]] = []
  for _ in 0..<1000 {
    while let packet = try receiver.receive() { packets.append(packet) }
    if !packets.isEmpty { break }
    pause(milliseconds: 1)
  }
  return packets
}

@Suite struct MatrixNetworkTests {
  static let second: Int64 = 1_000_000_000

  @Test func aNameIsLookedUpWhileTheTransportWaitsForIt() throws {
    let receiver = try UDPSocket.bindLoopback()
    defer { receiver.close() }
    // The default resolver: the wodclockd beside the running program (the build directory).
    let transport = DDPMatrixTransport(host: "localhost", port: receiver.port)
    #expect(transport.resolver.command.dropFirst() == ["--resolve"])
    let program = try #require(transport.resolver.command.first)
    #expect(InputDevices.resolve(program) == InputDevices.resolve(builtResolver.command[0]))
    try transport.open(at: 10 * Self.second)
    defer { transport.close() }
    // open() did not wait for the answer: the lookup is a descriptor to watch.
    #expect(!transport.isReady)
    let lookup = try #require(transport.watchedDescriptors.first)
    #expect(lookup.interest == .readable)
    #expect(transport.nextWakeUp(after: 10 * Self.second) == 15 * Self.second)
    let readiness = try #require(try waitUntilReadable(lookup.descriptor))
    try transport.handleReady(lookup.descriptor, readiness, at: 10 * Self.second)
    #expect(transport.isReady)
    #expect(transport.address == SocketAddress(.loopbackIPv4, port: UInt16(receiver.port)))
    #expect(transport.watchedDescriptors.isEmpty)
    transport.closeRetired()
    try transport.send([UInt8](repeating: 9, count: 30))
    let packets = try datagrams(receiver)
    #expect(packets.count == 1)
    #expect(packets.first.map { Array($0.suffix(30)) } == [UInt8](repeating: 9, count: 30))
  }

  @Test func anAddressNeedsNoLookup() throws {
    let transport = DDPMatrixTransport(
      host: "::1", port: 4048, resolver: AddressResolver(command: ["/nonexistent"]))
    try transport.open(at: 0)
    defer { transport.close() }
    #expect(transport.isReady)
    #expect(transport.address?.description == "[::1]:4048")
    #expect(transport.watchedDescriptors.isEmpty)
  }

  // MARK: - The output

  final class Rig {
    let time = ManualClock(now: 100 * MatrixNetworkTests.second)
    let lines = LogLines()
    let output: MatrixOutput
    var engine: WorkoutEngine

    init(host: String, port: Int, resolver: AddressResolver = builtResolver) throws {
      let instance = try pluginInstance(
        .output, "{type: ddp-matrix, id: wifi, host: \(host), port: \(port), width: 8, height: 4}")
      output = try MatrixOutput(
        instance: instance,
        transport: { DDPMatrixTransport(host: host, port: port, resolver: resolver) })
      engine = try WorkoutEngine(
        plan: WorkoutPlan(name: "clock", mode: .forTime(ForTimeParameters())))
      let logger = Logger(minimumLevel: .debug)
      logger.sink = { [lines] _, line in lines.values.append(line) }
      let time = self.time
      try output.start(
        PluginContext(
          id: "wifi", logger: logger, speed: 1,
          clock: DaemonClock(
            monotonic: { time.now }, wall: { WallClock.Instant(seconds: 0) }, bootID: { "" }),
          claimTerminal: { _ in }))
    }

    deinit { output.stop() }

    func render() throws {
      try output.render(
        frame(engine.snapshot(at: EngineInstant(nanoseconds: time.now)), at: time.now))
    }

    /// Hands the output its lookup's answer, as the loop would when the descriptor is readable.
    func answerLookup() throws {
      let lookup = try #require(output.watchedDescriptors.first)
      #expect(lookup.interest == .readable)
      let readiness = try #require(try waitUntilReadable(lookup.descriptor))
      try output.handleReady(lookup.descriptor, readiness, at: time.now)
    }

    func lines(containing text: String) -> [String] {
      lines.values.filter { $0.contains(text) }
    }
  }

  @Test func framesStartOnceTheNameIsFound() throws {
    let receiver = try UDPSocket.bindLoopback()
    defer { receiver.close() }
    let rig = try Rig(host: "localhost", port: receiver.port)
    // Started at once; nothing can be sent until the address is known.
    #expect(!rig.output.isConnected)
    #expect(rig.output.nextWakeUp(after: rig.time.now) == rig.time.now + 5 * Self.second)
    try rig.render()
    #expect(try receiver.receive() == nil)
    try rig.answerLookup()
    #expect(rig.output.isConnected)
    #expect(rig.output.watchedDescriptors.isEmpty)
    #expect(
      rig.lines(containing: "LED matrix controller found plugin=wifi host=localhost").first?
        .hasSuffix("address=127.0.0.1:\(receiver.port)") == true, "\(rig.lines.values)")
    try rig.render()
    let packets = try datagrams(receiver)
    #expect(packets.count == 1, "8x4 LEDs: one DDP packet")
    #expect(packets.first?.count == 10 + 8 * 4 * 3)
    #expect(rig.lines(containing: "not available").isEmpty)
  }

  @Test func aNameWithoutAnAddressIsReportedOnceAndLookedUpAgain() throws {
    let rig = try Rig(host: "wled.invalid", port: 4048)
    try rig.answerLookup()
    #expect(!rig.output.isConnected)
    #expect(rig.output.watchedDescriptors.isEmpty)
    let warnings = rig.lines(containing: "LED matrix controller not available; waiting for it")
    #expect(warnings.count == 1, "\(rig.lines.values)")
    #expect(warnings.first?.contains("error=\"cannot look up 'wled.invalid': ") == true)
    #expect(warnings.first?.hasSuffix("retry_in=1s") == true, "\(warnings)")
    #expect(rig.output.nextRetry == rig.time.now + Self.second)

    // Looked up again when the retry is due; still nothing: not said again, and the wait grows.
    rig.time.now += Self.second
    try rig.render()
    #expect(!rig.output.isConnected)
    try rig.answerLookup()
    #expect(rig.lines(containing: "not available").count == 1)
    #expect(rig.output.nextRetry == rig.time.now + 2 * Self.second)
    rig.time.now += 2 * Self.second
    try rig.render()
    try rig.answerLookup()
    #expect(rig.output.nextRetry == rig.time.now + 4 * Self.second)
    #expect(rig.lines(containing: "controller back").isEmpty)
  }

  @Test func aLookupThatNeverAnswersIsGivenUpAtItsDeadline() throws {
    let silent = AddressResolver(
      command: ["/bin/sh", "-c", "exec sleep 30", "resolver"], timeout: 2 * Self.second)
    let rig = try Rig(host: "wled.local", port: 4048, resolver: silent)
    let start = rig.time.now
    #expect(rig.output.nextWakeUp(after: start) == start + 2 * Self.second)
    rig.time.now += Self.second
    try rig.render()
    #expect(rig.lines(containing: "not available").isEmpty, "not before the deadline")
    rig.time.now = start + 2 * Self.second
    try rig.render()
    let warning = try #require(rig.lines(containing: "not available").first)
    #expect(warning.contains("error=\"cannot look up 'wled.local': no answer within 2 s\""))
    #expect(warning.contains("hint=\"is the network up, and does the name server answer?\""))
    #expect(rig.output.nextRetry == rig.time.now + Self.second)
    // The next call closes what the loop was watching; a retry starts a new lookup.
    rig.time.now += Self.second
    try rig.render()
    #expect(rig.output.watchedDescriptors.count == 1)
  }
}

@Suite struct MatrixNetworkDaemonTests {
  @Test(.timeLimit(.minutes(1)))
  func theDaemonLooksTheControllersNameUpAndSendsItFrames() throws {
    let receiver = try UDPSocket.bindLoopback()
    defer { receiver.close() }
    let daemon = try DaemonHarness(
      config: testConfig + """

          - type: ddp-matrix
            id: wifi
            host: localhost
            port: \(receiver.port)
            width: 8
            height: 4
        """)
    try daemon.start()
    var packets: [[UInt8]] = []
    _ = try eventually(timeoutMilliseconds: 10_000) {
      while let packet = try receiver.receive() { packets.append(packet) }
      return packets.count >= 2
    }
    #expect(packets.count >= 2, "log:\n\(daemon.log)")
    #expect(packets.allSatisfy { $0.count == 10 + 8 * 4 * 3 })
    #expect(
      daemon.log.contains(
        "LED matrix controller found plugin=wifi host=localhost address=127.0.0.1:\(receiver.port)"),
      "\(daemon.log)")
    try daemon.signal(.terminate)
    try daemon.waitForExit()
  }
}
