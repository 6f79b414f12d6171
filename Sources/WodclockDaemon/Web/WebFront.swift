// SPDX-License-Identifier: MIT
// The web interface in the daemon's loop: the HTTP server's descriptor is one more source of the
// loop, its requests are answered with the command vocabulary's own replies (the same code as
// the control socket's), and its event streams get what the socket's subscribers get, with the
// clock and the face a page draws from.

import Configuration
import ControlProtocol
import DeflateCoding
import HardwareKit
import JSONKit
import WebAssets
import WebInterface
import WorkoutCore
import WorkoutNotation

/// What the web interface needs of the daemon, answered now.
protocol WebDaemonAccess: AnyObject {
  /// The reply to a request of the command vocabulary, as the socket gives it.
  func respondOnWeb(to request: CommandRequest) -> JSONValue
  /// The socket's status object and what a page draws, at `now`.
  func webStatus(at now: Int64) -> (status: JSONValue, display: WebDisplayInput)
  /// The count-in a written workout gets (`defaults.count_in`).
  var defaultCountIn: TimeSpan { get }
  /// The workouts known by name (the gym's own and the benchmark ones) and the presets' names,
  /// for `/api/explain`.
  var namedWorkouts: (library: WorkoutLibrary, presets: [String]) { get }
  /// The media directory (`media:`), resolved; nil when the configuration names none.
  var mediaDirectory: String? { get }
}

/// The web server, the remote's PIN and sessions, and the event streams.
final class WebFront: HTTPRequestHandler {
  /// A heartbeat on every stream this often, so a page can tell a live stream from a dead one.
  static let heartbeatInterval: Int64 = 2_000_000_000

  private var server: (any HTTPTransport)?
  private(set) var settings: WebSettings
  private unowned let daemon: any WebDaemonAccess
  private let logger: Logger
  private let clock: DaemonClock
  private var assets: WebAssetTable
  private var sessions = SessionTable()
  private var pinGate: PINGate?
  /// The names a request's `Host` may give.
  private var hostRule: WebHostRule
  /// Where the sessions are kept across restarts (`web-sessions` in the state directory), nil
  /// when there is no state directory.
  private let sessionsPath: String?
  /// The salt of the PIN's hash in the saved sessions; nil when the system gave no random
  /// bytes (the sessions are then not saved).
  private let sessionSalt: [UInt8]?
  /// The open event streams, in the order they opened.
  private var streams: [HTTPServer.StreamID] = []
  private var nextEventID: UInt64 = 1
  private var nextHeartbeat: Int64 = 0
  /// What the streams were last told: a status goes out when it changed as a person sees it.
  private var feed = SubscriberFeed()
  private var lastFace: WebFace?

  /// Starts the server on `settings.listen`. Throws ``HTTPServerError`` (the port is taken, the
  /// library is missing …): the daemon then does not start, since a configured web interface
  /// that is not there is a fault someone must fix.
  init(
    settings: WebSettings, daemon: any WebDaemonAccess, logger: Logger, clock: DaemonClock,
    stateDirectory: String?, transport: HTTPTransportMaker
  ) throws(HTTPServerError) {
    self.settings = settings
    self.daemon = daemon
    self.logger = logger
    self.clock = clock
    assets = WebAssetTable()
    pinGate = settings.pin.map(PINGate.init(pin:))
    hostRule = Self.hostRule(settings)
    sessionsPath = stateDirectory.map { $0 + "/web-sessions" }
    sessionSalt = try? SecureRandom.bytes(SessionFile.saltBytes)
    server = try transport(
      HTTPTransportSettings(
        listen: Self.socketAddress(settings.listen), limits: Self.limits(settings),
        commonHeaders: WebSecurity.headers.map { HTTPServer.Field($0.name, $0.value) },
        // What the library reports is about one client (a malformed request, a peer gone): at
        // debug, so that a hostile client cannot fill the journal; the server's own failures
        // reach the daemon as thrown errors.
        log: { [logger] line in logger.debug("web server", [("library", line)]) }), self)
    restoreSessions()
    let bound = server?.boundAddress.description ?? settings.listen.description
    logger.info(
      "web interface ready",
      [("address", bound), ("remote", settings.pin == nil ? "off (no pin)" : "on")])
  }

  /// What clients may hold, from the `web:` section.
  static func limits(_ settings: WebSettings) -> HTTPServer.Limits {
    HTTPServer.Limits(
      maximumConnections: settings.connections,
      maximumConnectionsPerAddress: settings.connectionsPerAddress,
      requestTimeout: settings.requestTimeout.nanoseconds, maximumStreams: settings.streams,
      maximumStreamsPerAddress: settings.streamsPerAddress)
  }

  /// Whether two settings can be served by the same server: the same address and bounds.
  static func sameServer(_ lhs: WebSettings, _ rhs: WebSettings) -> Bool {
    lhs.listen == rhs.listen && limits(lhs) == limits(rhs)
  }

  /// The configuration's `hosts`, the machine's host name and `<hostname>.local`.
  static func hostRule(_ settings: WebSettings) -> WebHostRule {
    var names = settings.hosts
    if let name = Environment.hostName {
      names += [name, name + ".local"]
    }
    return WebHostRule(names: names)
  }

  /// The socket address of a `listen:` setting.
  static func socketAddress(_ listen: WebListenAddress) -> SocketAddress {
    let address: IPAddress
    switch listen.host {
    case .ipv4(let bytes): address = IPAddress(family: .ipv4, bytes: bytes) ?? .loopbackIPv4
    case .ipv6(let bytes): address = IPAddress(family: .ipv6, bytes: bytes) ?? .loopbackIPv6
    case .localhost: address = .loopbackIPv4
    }
    return SocketAddress(address, port: listen.port)
  }

  var pollDescriptor: FileDescriptor? { server?.readinessDescriptor }

  /// A reload's new settings that keep the same address: a changed PIN signs everyone out.
  func adopt(_ new: WebSettings) {
    guard new != settings else { return }
    let pinChanged = new.pin != settings.pin
    settings = new
    hostRule = Self.hostRule(new)
    if pinChanged {
      sessions.closeAll()
      pinGate = new.pin.map(PINGate.init(pin:))
      logger.info("web remote PIN changed; every session signed out")
      saveSessionsIfNeeded(at: clock.monotonic())
    }
  }

  // MARK: - Sessions across restarts

  /// Reads the sessions a previous run saved. A file that cannot be read, is damaged, or was
  /// written for another PIN signs everyone out, and is removed, so that it is never trusted
  /// later either.
  private func restoreSessions() {
    guard let path = sessionsPath, let pin = settings.pin else { return }
    guard FileSystem.fileExists(path) else { return }
    let text: String
    do {
      text = try FileSystem.readTextFile(path, maximumCount: 64 * 1024, ownFile: true)
    } catch {
      logger.warning(
        "web sessions not restored: the file cannot be read; every phone signs in again",
        [("path", path), ("error", "\(error)")])
      removeSessionsFile(path)
      return
    }
    let now = clock.monotonic()
    switch SessionFile.table(from: text, pin: pin, now: now, wallSeconds: clock.wall().seconds) {
    case .success(let table):
      sessions = table
      logger.info("web sessions restored", [("sessions", String(table.count))])
    case .failure(let problem):
      logger.warning(
        "web sessions not restored; every phone signs in again",
        [("path", path), ("reason", problem.description)])
      removeSessionsFile(path)
    }
  }

  /// Writes the sessions when they changed (atomically: a temporary file renamed over the old
  /// one, mode 0600: the hashes are for the daemon alone). A write that fails removes the old
  /// file: sessions signed out since must not come back at the next start.
  private func saveSessionsIfNeeded(at now: Int64) {
    guard let path = sessionsPath, sessions.needsSaving(at: now) else { return }
    // Marked saved whatever happens: a failing disk is reported once a change, not per request.
    sessions.markSaved()
    guard let pin = settings.pin, let salt = sessionSalt else {
      removeSessionsFile(path)
      return
    }
    let text = SessionFile.text(
      of: sessions, pin: pin, salt: salt, now: now, wallSeconds: clock.wall().seconds)
    do {
      try FileSystem.writeFileAtomically(path, text: text, mode: 0o600)
    } catch {
      logger.error(
        "web sessions not saved: a restart will sign every phone out",
        [("path", path), ("error", "\(error)")])
      removeSessionsFile(path)
    }
  }

  private func removeSessionsFile(_ path: String) {
    do {
      _ = try FileSystem.removeFile(path)
    } catch {
      logger.error(
        "the old web sessions file cannot be removed", [("path", path), ("error", "\(error)")])
    }
  }

  // MARK: - The loop

  /// Lets the library do what is ready or due: accept, read, answer (through ``answer(_:)``),
  /// write, time out.
  func run(at now: Int64) {
    server?.run(at: now)
  }

  /// Whether the library has work waiting without its descriptor being readable.
  func isDue(at now: Int64) -> Bool {
    guard let due = server?.nextWakeUp(after: now) else { return false }
    return due <= now
  }

  /// The earliest instant the loop must come back for the web interface.
  func nextWakeUp(after now: Int64) -> Int64? {
    let library = server?.nextWakeUp(after: now)
    guard !streams.isEmpty else { return library }
    return min(library ?? Int64.max, nextHeartbeat)
  }

  /// Sends the heartbeat when it is due.
  func keepStreamsAlive(at now: Int64) {
    guard !streams.isEmpty, now >= nextHeartbeat else { return }
    broadcast(EventStreamFrame.heartbeat(now: now).bytes)
    nextHeartbeat = now + Self.heartbeatInterval
  }

  /// The figures of `stats`.
  var statistics: JSONValue {
    .object(
      JSONObject([
        ("connections", .integer(Int64(server?.connectionCount ?? 0))),
        ("streams", .integer(Int64(streams.count))),
        ("sessions", .integer(Int64(sessions.count))),
      ]))
  }

  /// What the daemon publishes, to every stream: a cue event per cue (with the instant it was
  /// due), and a status event when what a page shows changed.
  func publish(cues: [FrameCue], at now: Int64, force: Bool) {
    guard !streams.isEmpty else { return }
    var bytes: [UInt8] = []
    for cue in cues {
      bytes +=
        EventStreamFrame.cue(
          id: takeEventID(), cue: CommandProtocol.cue(cue.kind), due: cue.due, now: now
        ).bytes
    }
    let (status, input) = daemon.webStatus(at: now)
    let face = WebFace(input)
    let faceChanged = lastFace.map { face.looksDifferent(from: $0) } ?? true
    // The feed's rule is the socket's: a status when it changed in more than its running
    // figures. Its own cue events are not used: the web's carry their instants.
    let statusChanged = !feed.events(cues: [], status: status, force: force).isEmpty
    if statusChanged || faceChanged {
      lastFace = face
      bytes +=
        EventStreamFrame.status(
          id: takeEventID(), status: status, clock: WebClock(input), face: face
        ).bytes
    }
    if !bytes.isEmpty { broadcast(bytes) }
  }

  /// Closes every connection and the listening socket.
  func stop() {
    saveSessionsIfNeeded(at: clock.monotonic())
    server?.stop()
    server = nil
    streams = []
  }

  private func takeEventID() -> UInt64 {
    defer { nextEventID += 1 }
    return nextEventID
  }

  private func broadcast(_ bytes: [UInt8]) {
    for stream in streams { server?.send(bytes, to: stream) }
  }

  // MARK: - HTTPRequestHandler

  func answer(_ request: HTTPServer.Request) -> HTTPServer.Answer {
    let now = clock.monotonic()
    defer { saveSessionsIfNeeded(at: now) }
    // Before anything else, a session or a command: a page that rebinds its own name to the
    // clock is refused here (WebHostRule).
    let host = request.header("host")
    guard hostRule.accepts(host) else {
      return reply(.error(.wrongHost(host ?? ""), path: request.path))
    }
    let route: WebRoute
    switch WebRouter.route(
      method: request.method, path: request.path,
      query: WebQuery(pairs: request.query.map { ($0.name, $0.value ?? "") }))
    {
    case .success(let found): route = found
    case .failure(let error): return reply(.error(error, path: request.path))
    }
    let token = sessions.validate(cookieHeader: request.header("cookie"), at: now)
    let headers = WebRequestHeaders(
      host: request.header("host"), origin: request.header("origin"),
      secFetchSite: request.header("sec-fetch-site"),
      contentType: request.header("content-type"))
    if case .refused(let error) = WebAccess.check(
      route, method: request.method, headers: headers, remoteEnabled: settings.pin != nil,
      signedIn: token != nil)
    {
      return reply(.error(error, path: request.path))
    }
    switch route {
    case .display: return asset(at: "/", for: request)
    case .remote: return asset(at: "/remote", for: request)
    case .judge: return asset(at: "/judge", for: request)
    case .asset(let name): return asset(at: "/assets/" + name, for: request)
    case .time: return reply(.json(WebAPI.time(now: now)))
    case .status:
      let (status, input) = daemon.webStatus(at: now)
      let value = JSONValue.object(
        JSONObject([
          ("ok", .bool(true)), ("status", status), ("clock", WebClock(input).json),
          ("face", WebFace(input).json),
        ]))
      return reply(.json(value))
    case .events:
      return .eventStream(
        headers: [
          HTTPServer.Field("Content-Type", EventStreamFrame.contentType),
          HTTPServer.Field("Cache-Control", WebCaching.noStore.headerValue),
        ] + EventStreamFrame.extraHeaders.map { HTTPServer.Field($0.name, $0.value) })
    case .session:
      return reply(
        .json(WebAPI.session(remoteEnabled: settings.pin != nil, signedIn: token != nil)))
    case .login: return reply(login(request, at: now))
    case .logout:
      if let token { sessions.close(token) }
      return reply(.json(WebAPI.done, headers: [SessionTable.clearCookie]))
    case .command: return reply(command(request.body))
    case .presets: return reply(vocabulary(.presets))
    case .history(let limit): return reply(vocabulary(.history(limit: limit)))
    case .recent: return reply(vocabulary(.recent))
    case .resultsCSV: return reply(WebAPI.resultsCSV(fromReply: results()))
    case .schedule: return reply(vocabulary(.schedule))
    case .explain(let text):
      let named = daemon.namedWorkouts
      let (status, body) = WebAPI.explain(
        text, defaultCountIn: daemon.defaultCountIn, library: named.library,
        presets: named.presets)
      return reply(.json(body, status: status))
    case .media(let name): return media(name, for: request)
    case .mediaList: return reply(mediaList())
    }
  }

  /// A signed-in remote is served even when every connection slot is taken: the coach's press
  /// is what the reserve is for.
  func mayUseReserve(_ request: HTTPServer.Request) -> Bool {
    guard hostRule.accepts(request.header("host")) else { return false }
    return sessions.validate(cookieHeader: request.header("cookie"), at: clock.monotonic()) != nil
  }

  func eventStreamOpened(_ stream: HTTPServer.StreamID, for request: HTTPServer.Request) {
    let now = clock.monotonic()
    if streams.isEmpty { nextHeartbeat = now + Self.heartbeatInterval }
    streams.append(stream)
    let (status, input) = daemon.webStatus(at: now)
    let first =
      Array(EventStreamFrame.retry(milliseconds: EventStreamFrame.retryMilliseconds).utf8)
      + EventStreamFrame.status(
        id: takeEventID(), status: status, clock: WebClock(input), face: WebFace(input)
      ).bytes
    server?.send(first, to: stream)
  }

  func eventStreamEnded(_ stream: HTTPServer.StreamID, because reason: HTTPServer.StreamEnd) {
    streams.removeAll { $0 == stream }
    if reason == .backlogOverflow || reason == .timedOut {
      logger.info("web event stream closed: the client does not read", [("stream", "\(stream)")])
    }
  }

  // MARK: - Answers

  private func reply(_ reply: WebReply) -> HTTPServer.Answer {
    let headers =
      [
        HTTPServer.Field("Content-Type", reply.contentType),
        HTTPServer.Field("Cache-Control", reply.caching.headerValue),
      ] + reply.extraHeaders.map { HTTPServer.Field($0.name, $0.value) }
    return .response(HTTPServer.Response(status: reply.status, headers: headers, bytes: reply.body))
  }

  /// An embedded file, or 304 when the client has it already (its ETag). A client that takes
  /// gzip (every browser) is sent the file compressed: a third of the bytes over a gym's Wi-Fi.
  private func asset(at path: String, for request: HTTPServer.Request) -> HTTPServer.Answer {
    let gzip = ContentCoding.acceptsGzip(request.header("accept-encoding"))
    guard let (file, etag) = assets.file(at: path, gzip: gzip) else {
      return reply(.error(.notFound(request.path), path: request.path))
    }
    var headers = [
      HTTPServer.Field("Cache-Control", WebCaching.revalidate.headerValue),
      HTTPServer.Field("ETag", etag),
      // RFC 9110 §12.5.5: the bytes depend on Accept-Encoding, so a cache keys on it.
      HTTPServer.Field("Vary", "Accept-Encoding"),
    ]
    if let wanted = request.header("if-none-match"), Self.matches(wanted, etag: etag) {
      return .response(HTTPServer.Response(status: 304, headers: headers))
    }
    headers.insert(HTTPServer.Field("Content-Type", file.contentType), at: 0)
    guard gzip, let compressed = file.gzip else {
      return .response(
        HTTPServer.Response(status: 200, headers: headers, body: .permanent(file.bytes)))
    }
    headers.append(HTTPServer.Field("Content-Encoding", "gzip"))
    return .response(HTTPServer.Response(status: 200, headers: headers, body: .bytes(compressed)))
  }

  /// Whether an `If-None-Match` list names `etag` (RFC 9110 §13.1.2: a weak comparison).
  static func matches(_ header: String, etag: String) -> Bool {
    header.split(separator: ",").contains { candidate in
      var value = candidate.drop { $0 == " " || $0 == "\t" }
      while value.last == " " || value.last == "\t" { value = value.dropLast() }
      if value.hasPrefix("W/") { value = value.dropFirst(2) }
      return value == "*" || value == etag
    }
  }

  /// A file of the media directory, sent from its descriptor (the library streams it, so a
  /// clip costs no memory and the loop only a bounded piece a turn), with its part when the
  /// request asks for one (a video being sought), or 304 when the client has it already.
  private func media(_ name: String, for request: HTTPServer.Request) -> HTTPServer.Answer {
    guard let directory = daemon.mediaDirectory, let type = WebMedia.contentType(of: name) else {
      return reply(.error(.notFound(request.path), path: request.path))
    }
    let opened: (descriptor: FileDescriptor, size: Int64, modified: Int64)
    do {
      opened = try FileSystem.openForSending(
        directory + "/" + name, maximumSize: WebMedia.maximumBytes)
    } catch {
      if error.errno == .fileTooLarge {
        logger.warning(
          "web media not served: larger than the bound",
          [("name", name), ("bound_mib", String(WebMedia.maximumBytes >> 20))])
      }
      return reply(.error(.notFound(request.path), path: request.path))
    }
    // A new version of the file (another size or time) is another tag.
    let etag =
      "\"m" + String(UInt64(bitPattern: opened.size), radix: 16) + "-"
      + String(UInt64(bitPattern: opened.modified), radix: 16) + "\""
    var headers = [
      HTTPServer.Field("Content-Type", type),
      HTTPServer.Field("Cache-Control", WebCaching.revalidate.headerValue),
      HTTPServer.Field("ETag", etag), HTTPServer.Field("Accept-Ranges", "bytes"),
    ]
    if let wanted = request.header("if-none-match"), Self.matches(wanted, etag: etag) {
      try? opened.descriptor.close()
      return .response(HTTPServer.Response(status: 304, headers: headers))
    }
    switch WebMedia.range(request.header("range"), size: opened.size) {
    case .whole:
      return .response(
        HTTPServer.Response(
          status: 200, headers: headers,
          body: .file(opened.descriptor, offset: 0, length: opened.size)))
    case .part(let offset, let length):
      headers.append(
        HTTPServer.Field(
          "Content-Range", "bytes \(offset)-\(offset + length - 1)/\(opened.size)"))
      return .response(
        HTTPServer.Response(
          status: 206, headers: headers,
          body: .file(opened.descriptor, offset: offset, length: length)))
    case .unsatisfiable:
      try? opened.descriptor.close()
      headers.append(HTTPServer.Field("Content-Range", "bytes */\(opened.size)"))
      return .response(HTTPServer.Response(status: 416, headers: headers))
    }
  }

  /// `GET /api/media`: the files of the media directory a page can show, by name, for the
  /// builder's picker (at most ``mediaListLimit``); an empty list without a directory.
  private func mediaList() -> WebReply {
    var names: [String] = []
    if let directory = daemon.mediaDirectory {
      do {
        names = WebMedia.listing(try FileSystem.directoryEntries(directory))
      } catch {
        logger.warning(
          "web media directory cannot be listed", [("path", directory), ("error", "\(error)")])
        return .error(
          WebError(
            status: 503, code: "media_unavailable",
            message: "the media directory cannot be read",
            hint: "wodclockd --check-config says why"), path: "/api/media")
      }
    }
    let files = names.prefix(Self.mediaListLimit).map { name -> JSONValue in
      .object(
        JSONObject([
          ("name", .string(name)), ("kind", .string(WebMedia.kind(of: name)?.rawValue ?? "")),
        ]))
    }
    return .json(.object(JSONObject([("ok", .bool(true)), ("media", .array(Array(files)))])))
  }

  /// The most files `/api/media` lists: a picker's worth, and a bounded reply.
  static let mediaListLimit = 1000

  private func login(_ request: HTTPServer.Request, at now: Int64) -> WebReply {
    guard var gate = pinGate else { return .error(.remoteOff, path: request.path) }
    let pin: String
    switch WebAPI.pin(fromLoginBody: request.body) {
    case .success(let value): pin = value
    case .failure(let error): return .error(error, path: request.path)
    }
    let address = request.peer.map { $0.address.description } ?? "unknown"
    let client = PINClient(addressBytes: request.peer?.address.bytes ?? [])
    let attempt = gate.attempt(pin, from: client, at: now)
    pinGate = gate
    switch attempt {
    case .granted:
      let random: [UInt8]
      do {
        random = try SecureRandom.bytes(SessionTable.tokenBytes)
      } catch {
        logger.error("web sign-in: no random bytes for a session", [("error", "\(error)")])
        return .error(
          WebError(
            status: 503, code: "unavailable", message: "the clock cannot make a session now"),
          path: request.path)
      }
      let token = sessions.open(randomBytes: random, at: now)
      logger.info("web remote signed in", [("address", address)])
      return .json(WebAPI.done, headers: [SessionTable.setCookie(token)])
    case .wrong(let count):
      logger.warning(
        "web remote: wrong PIN",
        [("address", address), ("client", client.description), ("count", String(count))])
      return .error(attempt.error ?? .wrongPIN, path: request.path)
    case .throttled:
      return .error(attempt.error ?? .wrongPIN, path: request.path)
    }
  }

  /// `POST /api/command`: the request object of the socket, the socket's reply.
  private func command(_ body: [UInt8]) -> WebReply {
    switch CommandProtocol.parse(body) {
    case .success(let request):
      if case .subscribe = request.command { return .error(.useEvents, path: "/api/command") }
      let reply = daemon.respondOnWeb(to: request)
      return .json(reply, status: WebAPI.status(ofCommandReply: reply))
    case .failure(let rejection):
      return .json(
        CommandProtocol.failure(id: rejection.id, rejection.failure), status: 400)
    }
  }

  /// The reply of the `results` command, asked as a client would ask it (the request goes
  /// through the protocol's parser, so a daemon that does not know it answers as for any
  /// unknown command).
  private func results() -> JSONValue {
    switch CommandProtocol.parse(WebAPI.resultsRequest) {
    case .success(let request): return daemon.respondOnWeb(to: request)
    case .failure(let rejection): return CommandProtocol.failure(id: nil, rejection.failure)
    }
  }

  /// A read of the vocabulary (presets, history, recent, schedule), as the socket answers it.
  private func vocabulary(_ command: Command) -> WebReply {
    .json(daemon.respondOnWeb(to: CommandRequest(id: nil, command: command)))
  }
}

/// The files compiled into the binary (`Sources/WebAssets/files`), by URL path. A file's ETag
/// and its gzip form are worked out when it is first asked for: doing it for every file at start
/// would bring all of them into memory, and a display never asks for the remote's. Compressing
/// the largest file (the remote's script, 39 KB) takes about 2 ms, once.
struct WebAssetTable {
  struct File {
    let bytes: UnsafeRawBufferPointer
    let contentType: String
    var etag: String?
    /// The gzip member of the bytes, once a client that takes gzip asked for the file.
    var gzip: [UInt8]?
  }

  private var files: [String: File] = [:]

  init() {
    for index in 0..<web_asset_count() {
      let asset = web_asset(index)
      guard let path = asset.path, let type = asset.content_type, let start = asset.bytes else {
        continue
      }
      files[String(cString: path)] = File(
        bytes: UnsafeRawBufferPointer(start: start, count: Int(asset.length)),
        contentType: String(cString: type), etag: nil)
    }
  }

  /// The file at `path` with the ETag of the form sent: compressed when `gzip`, whose tag is
  /// the identity's with `-gzip` (RFC 9110 §8.8.3: each content coding has its own validator).
  mutating func file(at path: String, gzip: Bool = false) -> (file: File, etag: String)? {
    guard var file = files[path] else { return nil }
    let etag = file.etag ?? Self.etag(of: file.bytes)
    file.etag = etag
    if gzip && file.gzip == nil { file.gzip = Gzip.compress(Array(file.bytes)) }
    files[path] = file
    return (file, gzip ? String(etag.dropLast()) + "-gzip\"" : etag)
  }

  /// A strong validator for bytes that never change while the program runs: their FNV-1a
  /// hash (64 bits), quoted as RFC 9110 §8.8.3 writes an entity tag.
  static func etag(of bytes: UnsafeRawBufferPointer) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
  }
}
