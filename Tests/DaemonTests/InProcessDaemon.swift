// SPDX-License-Identifier: MIT
// The whole daemon in the test's own process, on manual time: its real parts (engine host,
// supervisor, frame composer, command responder, systemd session, command socket), fake plugin
// kinds that record what they are given, and a clock that moves only when the test says so.
// Supervision, backoff, cue replay, reload and the watchdog are tested here exactly, without
// sleeping and without a timing assertion.

import ConfigFormat
import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

/// Time that passes only when a test moves it. The wall clock keeps in step with the monotonic
/// one (a test that wants an NTP step sets `wallOffset`).
final class ManualTime: @unchecked Sendable {
  /// An arbitrary, non-zero monotonic origin: no test relies on time zero.
  static let origin: Int64 = 5_000 * 1_000_000_000
  var monotonic = origin
  /// Wall-clock seconds at `origin`: 2026-01-05 06:00:00 UTC, a Monday morning.
  var wallOffset: Int64 = 1_767_592_800

  var wall: WallClock.Instant {
    let elapsed = monotonic - Self.origin
    return WallClock.Instant(
      seconds: wallOffset + elapsed / 1_000_000_000,
      nanoseconds: Int32(elapsed % 1_000_000_000))
  }

  /// Whether the wall clock counts as synchronized to a time source.
  var synchronized = true
  /// The local time zone: UTC unless a test gives other rules.
  var zone = LocalZone(
    civilTime: { civilTime(at: $0, utcOffset: 0) }, resolve: { _, _ in .unique(utcOffset: 0) })

  var clock: DaemonClock {
    DaemonClock(
      monotonic: { self.monotonic }, wall: { self.wall }, bootID: { "test-boot" },
      synchronized: { self.synchronized },
      zone: LocalZone(
        civilTime: { self.zone.civilTime($0) }, resolve: { self.zone.resolve($0, $1) },
        reload: { self.zone.reload() }))
  }

  /// Seconds since `origin`.
  var seconds: Double { Double(monotonic - Self.origin) / 1e9 }
}

/// The civil time at `instant` `utcOffset` seconds east of UTC, worked out without the C
/// library's zone: what a test's zone gives the daemon.
func civilTime(at instant: WallClock.Instant, utcOffset: Int) -> CivilTime {
  let local = instant.seconds + Int64(utcOffset)
  // Whole days since 1970-01-01 (a Thursday), rounded down for instants before it.
  let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
  let date = LocalDate(daysSinceEpoch: Int(days))
  let second = Int(local - days * 86_400)
  return CivilTime(
    year: date.year, month: date.month, day: date.day, hour: second / 3600,
    minute: second / 60 % 60, second: second % 60, nanosecond: Int(instant.nanoseconds),
    weekday: Int((days % 7 + 11) % 7), utcOffsetSeconds: utcOffset)
}

/// What a test output was given and what it is told to do. Shared by the test and the plugin
/// the daemon makes from the config (a class, so both see one record).
final class OutputRecord: @unchecked Sendable {
  /// How many of the next starts fail.
  var failingStarts = 0
  /// Whether the next render fails (once).
  var failNextRender = false
  /// When each start was attempted, seconds on the manual clock.
  var startAttempts: [Double] = []
  var stops = 0
  /// The context of the last start.
  var context: PluginContext?
  /// Every frame rendered, in order.
  var frames: [OutputFrame] = []
  /// The cues of every frame, in order, with when the frame was rendered (seconds).
  var cues: [(kind: CueKind, due: Double, renderedAt: Double)] = []
}

/// An output of kind `test-output` that records its frames into an ``OutputRecord``.
final class RecordingOutput: OutputPlugin {
  let id: String
  let kind = "test-output"
  private let record: OutputRecord
  private var context: PluginContext?

  init(id: String, record: OutputRecord) {
    self.id = id
    self.record = record
  }

  func start(_ context: PluginContext) throws {
    self.context = context
    record.context = context
    record.startAttempts.append(Self.seconds(context.clock.monotonic()))
    if record.failingStarts > 0 {
      record.failingStarts -= 1
      throw PluginError("the test device is not there")
    }
  }

  func render(_ frame: OutputFrame) throws {
    if record.failNextRender {
      record.failNextRender = false
      throw PluginError("the test device went away")
    }
    record.frames.append(frame)
    let at = Self.seconds(frame.monotonicNow)
    record.cues += frame.cues.map { ($0.kind, Self.seconds($0.due), at) }
  }

  func stop() { record.stops += 1 }

  func driveSafe() throws -> SafeState { .nothingToSecure }

  private static func seconds(_ monotonic: Int64) -> Double {
    Double(monotonic - ManualTime.origin) / 1e9
  }
}

extension PluginKind {
  /// `test-output`, whose instances record into `record`.
  static func recordingOutput(_ record: OutputRecord) -> PluginKind {
    PluginKind(
      schema: PluginSchema(
        kind: "test-output", direction: .output, summary: "records its frames", settings: []),
      factory: .output { instance in RecordingOutput(id: instance.id, record: record) })
  }
}

/// One daemon on manual time, with its config, state and socket in a temporary directory.
final class InProcessDaemon {
  /// Its clock: its own, or one several daemons share (``InProcessRoom``).
  let time: ManualTime
  private let scratch: ScratchDirectory
  var directory: String { scratch.path }
  var configPath: String { directory + "/wodclock.yaml" }
  private(set) var log: [String] = []
  private let notifications: DatagramSocket
  private(set) var notified: [String] = []
  private(set) var daemon: Daemon!
  private let logger = Logger(minimumLevel: .debug)

  /// The web interface's transports: in memory, the current one where the test makes requests.
  let web = InMemoryHTTP.Maker()
  /// The link's MQTT clients: of an in-memory broker, when the test gives one.
  let link: InMemoryMQTTClient.Maker?
  private let watchdogInterval: Int64?
  private let catalog: [PluginKind]

  init(
    config: String, kinds: [PluginKind], watchdogInterval: Int64? = nil,
    time: ManualTime = ManualTime(), link: InMemoryMQTTClient.Maker? = nil
  ) throws {
    self.time = time
    self.link = link
    self.watchdogInterval = watchdogInterval
    catalog = PluginCatalog.kinds + kinds
    scratch = try ScratchDirectory(prefix: "wodclock-inprocess-")
    notifications = try DatagramSocket(boundTo: scratch.file("notify.sock"))
    try FileSystem.writeFileAtomically(configPath, text: config)
    captureLog()
    daemon = try makeDaemon()
  }

  /// The log's lines go to ``log``.
  private func captureLog() {
    logger.sink = { [unowned self] _, line in log.append(line) }
  }

  /// A daemon on this directory, its config, its state directory and the test's clock.
  private func makeDaemon() throws -> Daemon {
    guard
      case .success(let loaded) = ConfigurationFile.load(
        path: configPath, plugins: catalog.map(\.schema))
    else { throw HarnessError("the test config does not load") }
    var options = DaemonOptions()
    options.configPath = configPath
    options.socketPath = directory + "/wodclockd.sock"
    options.stateDirectory = directory + "/state"
    var linkTransport: MQTTTransportMaker = Self.noBroker
    if let link { linkTransport = link.make }
    return try Daemon(
      options: options, configuration: loaded.configuration, logger: logger,
      environment: DaemonEnvironment(
        clock: time.clock, notifier: SystemdNotifier(socketPath: notifications.path),
        watchdogInterval: watchdogInterval, catalog: catalog, webTransport: web.make,
        linkTransport: linkTransport))
  }

  /// The link's transport when the test gives no broker: a config with `mqtt:` fails to start.
  private static func noBroker(_ options: MQTTClient.Options) throws(MQTTError)
    -> any MQTTTransport
  {
    throw MQTTError(reason: .libraryMissing, message: "this test gives no MQTT broker")
  }

  /// The daemon stops and a new one starts on the same files, as after `systemctl restart`.
  func restart() throws {
    daemon.shutDown()
    // The daemon that stopped gave its log back to standard error; the next one's is kept.
    captureLog()
    daemon = try makeDaemon()
    start()
  }

  /// The process is killed (SIGKILL, a power cut): nothing is saved or said on the way out, its
  /// connection to the broker goes silent, and the socket goes with the process.
  func kill() {
    link?.current?.goSilent()
    daemon.server.close()
    killed = true
  }

  /// A killed daemon is started again on the same files, as systemd's `Restart=` does.
  func startAgain() throws {
    daemon = try makeDaemon()
    killed = false
    start()
  }

  /// Whether the daemon was killed and not started again: it takes no turns.
  private(set) var killed = false

  /// Whether the loop has something to do now.
  var isDue: Bool { nextWakeUp <= time.monotonic }

  /// When the loop asks to be woken next; never while killed.
  var nextWakeUp: Int64 { killed ? .max : daemon.nextWakeUp(after: time.monotonic) }

  /// One turn of the loop at the clock's now, and what the link's transport has for it: as
  /// the loop's turn and its service of what was ready.
  func takeTurn() {
    guard !killed else { return }
    daemon.turn()
    daemon.serveLink()
    drainNotifications()
  }

  /// Whether ``stop()`` ended the daemon.
  private var stopped = false

  /// The daemon stops, as at `systemctl stop`.
  func stop() {
    guard !stopped else { return }
    stopped = true
    daemon.shutDown()
    drainNotifications()
  }

  deinit {
    if !stopped && !killed { daemon.shutDown() }
    notifications.close()
    scratch.remove()
  }

  func start() {
    daemon.start()
    drainNotifications()
  }

  /// Lets `seconds` pass, taking every turn of the loop on the way at the instant it asked to
  /// be woken at, as a loop that is never late would.
  func run(for seconds: Double) {
    let target = time.monotonic + Int64((seconds * 1e9).rounded())
    var turns = 0
    while turns < 1_000_000 {
      let next = daemon.nextWakeUp(after: time.monotonic)
      guard next <= target else { break }
      time.monotonic = max(time.monotonic, next)
      takeTurn()
      turns += 1
    }
    time.monotonic = target
    takeTurn()
  }

  /// The process is stopped for `seconds` (SIGSTOP, a suspended machine): time passes and the
  /// loop takes no turn.
  func stall(for seconds: Double) {
    time.monotonic += Int64((seconds * 1e9).rounded())
  }

  /// The reply to a request line of the command protocol, as the socket would answer it.
  func request(_ line: String) throws -> JSONValue {
    guard case .success(let request) = CommandProtocol.parse(Array(line.utf8)) else {
      throw HarnessError("not a request: \(line)")
    }
    defer { drainNotifications() }
    return daemon.respond(to: request).reply
  }

  /// The status object, as `status` answers it.
  func status() throws -> JSONObject {
    try request(#"{"cmd": "status"}"#)["status"]?.objectValue ?? JSONObject()
  }

  /// What an input reports now, handled as the loop handles a plugin's events.
  func input(_ events: InputEvent...) {
    daemon.handle(events, at: time.monotonic)
    drainNotifications()
  }

  func writeConfig(_ text: String) throws {
    try FileSystem.writeFileAtomically(configPath, text: text)
  }

  func signal(_ signal: Signal) {
    daemon.handle(signal)
    drainNotifications()
  }

  /// Log lines that contain `text`.
  func logLines(containing text: String) -> [String] { log.filter { $0.contains(text) } }

  private func drainNotifications() {
    while let datagram = try? notifications.receive() {
      notified.append(String(decoding: datagram, as: UTF8.self))
    }
  }
}
