// SPDX-License-Identifier: MIT
// The web interface's place in the daemon: started with the configuration, served from the
// loop, answered with the command vocabulary, moved or stopped by a reload.

import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import WebInterface
import WorkoutCore
import WorkoutNotation

extension Daemon: WebDaemonAccess {
  func respondOnWeb(to request: CommandRequest) -> JSONValue { respond(to: request).reply }

  func webStatus(at now: Int64) -> (status: JSONValue, display: WebDisplayInput) {
    let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
    let status = responder.status(at: now)
    let frame = frames.stillFrame(at: now)
    let wall = clock.wall()
    let input = WebDisplayInput(
      snapshot: snapshot, tokens: frame.tokens, words: frame.words, clock: frame.clock, now: now,
      speed: timeBase.speed,
      wallNanoseconds: wall.seconds &* 1_000_000_000 &+ Int64(wall.nanoseconds),
      utcOffsetSeconds: frame.civilTime.utcOffsetSeconds, synchronized: clock.synchronized(),
      idleNote: frames.idleNote, message: frame.message, overlay: frame.overlay,
      muted: frame.muted, plan: host.engine.plan)
    return (status, input)
  }

  var defaultCountIn: TimeSpan { configuration.defaults.countIn }

  var namedWorkouts: (library: WorkoutLibrary, presets: [String]) {
    (configuration.workouts, configuration.presets.map(\.name))
  }

  var mediaDirectory: String? { configuration.mediaDirectory?.path }

  /// Starts the web interface; a port that is taken, or a library that is missing, keeps the
  /// daemon from starting (69): the owner asked for a web interface, and it is not there.
  func startWeb(_ settings: WebSettings) throws(DaemonFailure) {
    do {
      let front = try WebFront(
        settings: settings, daemon: self, logger: logger, clock: clock,
        stateDirectory: host.stateDirectory, transport: environment.webTransport)
      if let descriptor = front.pollDescriptor {
        try sources.watch(descriptor, for: .readable, as: .web)
      }
      web = front
    } catch let error as HTTPServerError {
      throw DaemonFailure(exitCode: 69, message: "\(configPath): web: \(error)")
    } catch {
      throw DaemonFailure(exitCode: 69, message: "\(configPath): web: \(error)")
    }
  }

  func stopWeb() {
    sources.unwatch(.web)
    web?.stop()
    web = nil
  }

  /// Lets the web server work when its descriptor was ready or its library has work due.
  func serveWeb() {
    guard let web else { return }
    let now = clock.monotonic()
    let ready = webReady
    webReady = false
    if ready || web.isDue(at: now) { web.run(at: now) }
  }

  /// A reload's `web:` section: the same address and bounds keep the server (a new PIN signs
  /// everyone out); another address or bounds, or none, restarts or stops it (the sessions
  /// live on in the state directory). A new address that cannot be listened on is logged and
  /// the web interface stays off until the next reload.
  func applyWeb(from previous: WebSettings?, to next: WebSettings?) {
    guard previous != next else { return }
    if let next, let web, let previous, WebFront.sameServer(previous, next) {
      web.adopt(next)
      return
    }
    stopWeb()
    guard let next else {
      logger.info("web interface stopped")
      return
    }
    do {
      try startWeb(next)
    } catch {
      logger.error("web interface not started", [("error", error.message)])
    }
  }
}
