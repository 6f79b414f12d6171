// SPDX-License-Identifier: MIT
// The routes of the web interface: one origin, the display and remote pages, their assets and
// the JSON API over the control protocol's vocabulary.

/// What a request asks for, once its method and path are known to be one of the routes.
public enum WebRoute: Sendable, Hashable {
  /// `GET /`: the display page.
  case display
  /// `GET /remote` (or `/remote/`): the remote page (404 with a page saying how to turn it on
  /// when the configuration has no PIN).
  case remote
  /// `GET /judge` (or `/judge/`): a judge's page, one lane per phone; behind the PIN as the
  /// remote is (404 with the remote's page when the configuration has no PIN).
  case judge
  /// `GET /assets/<name>`: an embedded file (css, js, the exercise catalogue, its licence).
  case asset(name: String)
  /// `GET /api/time`: the ping a page estimates its offset from the server's clock with.
  case time
  /// `GET /api/status`: the socket's status plus `clock` and `face`.
  case status
  /// `GET /api/events`: the Server-Sent Events stream.
  case events
  /// `GET /api/session`: whether the remote is on and this client is signed in.
  case session
  /// `POST /api/login`: a PIN for a session cookie.
  case login
  /// `POST /api/logout`: the session closed, the cookie cleared.
  case logout
  /// `POST /api/command`: a request object exactly as on the control socket.
  case command
  /// `GET /api/presets`.
  case presets
  /// `GET /api/history?limit=N` (1–100, default 20).
  case history(limit: Int)
  /// `GET /api/recent`.
  case recent
  /// `GET /api/results.csv`: the `results` command's CSV, as a file to download.
  case resultsCSV
  /// `GET /api/schedule`.
  case schedule
  /// `GET /api/explain?text=…`: what the clock understands the text to be.
  case explain(text: String)
  /// `GET /media/<name>`: a picture or a video of the media directory, for the display (a
  /// plain name of one of the five types, ``WebMedia/isServable(_:)``).
  case media(name: String)
  /// `GET /api/media`: the media directory's files, for the builder's picker.
  case mediaList

  /// Whether the route needs a signed-in session (a valid `wodclock_session` cookie): what acts
  /// on the clock and what only the coach needs to see. The display and what it draws from do
  /// not.
  public var needsSession: Bool {
    switch self {
    case .logout, .command, .presets, .history, .recent, .resultsCSV, .schedule, .explain,
      .mediaList:
      true
    case .display, .remote, .judge, .asset, .time, .status, .events, .session, .login, .media:
      false
    }
  }

  /// Whether the route belongs to the remote, which is off when the configuration has no PIN
  /// (the judge's page is the remote of one lane).
  public var belongsToRemote: Bool {
    needsSession || self == .remote || self == .judge || self == .login
  }

  /// The method the route takes (`GET` routes answer `HEAD` too).
  public var method: WebMethod {
    switch self {
    case .login, .logout, .command: .post
    default: .get
    }
  }

  /// How its answers may be cached: pages and assets are revalidated by their ETag, the API
  /// and the stream never stored.
  public var caching: WebCaching {
    switch self {
    case .display, .remote, .judge, .asset, .media: .revalidate
    default: .noStore
    }
  }

  /// The most history entries `/api/history` gives, and how many without `limit`.
  public static let historyLimits = 1...100
  public static let defaultHistoryLimit = 20
  /// The longest text `/api/explain` reads, in Unicode scalars (a whiteboard holds far fewer).
  public static let maximumExplainLength = 500
}

/// The methods the routes take.
public enum WebMethod: String, Sendable, Hashable {
  case get = "GET"
  case post = "POST"

  /// What an `Allow` header lists for a route of this method (RFC 9110 §10.2.1): a `GET`
  /// route answers `HEAD` too, as every general-purpose server must (RFC 9110 §9.1).
  public var allowed: String {
    switch self {
    case .get: "GET, HEAD"
    case .post: "POST"
    }
  }
}

/// The `Cache-Control` of an answer.
public enum WebCaching: Sendable, Hashable {
  /// `no-cache`: kept, but revalidated with its ETag every time (pages, assets).
  case revalidate
  /// `no-store`: never kept (the API, the event stream).
  case noStore

  /// The header's value.
  public var headerValue: String {
    switch self {
    case .revalidate: "no-cache"
    case .noStore: "no-store"
    }
  }
}

/// The parameters of a request's query, decoded.
public struct WebQuery: Sendable, Hashable {
  /// Name and value pairs in the order given; a name may repeat.
  public var pairs: [(name: String, value: String)]

  /// Parameters already decoded (by the HTTP server, which hands them out by name).
  public init(pairs: [(name: String, value: String)] = []) {
    self.pairs = pairs
  }

  /// The parameters of a query string as a browser encodes them (the part after `?`, without
  /// it), decoded as the WHATWG URL standard's application/x-www-form-urlencoded parser does
  /// (§5.1): `&`-separated, the first `=` splits name from value, `+` is a space, `%XX` a byte;
  /// a `%` not followed by two hexadecimal digits stays as it is, and bytes that are not UTF-8
  /// become U+FFFD. Nothing a client sends makes it fail.
  public init(encoded query: String) {
    var pairs: [(name: String, value: String)] = []
    for piece in query.utf8.split(separator: UInt8(ascii: "&")) {
      let bytes = Array(piece)
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
        pairs.append(
          (Self.decode(bytes[..<equals]), Self.decode(bytes[(equals + 1)...])))
      } else {
        pairs.append((Self.decode(bytes[...]), ""))
      }
    }
    self.pairs = pairs
  }

  /// The value of the first parameter called `name`.
  public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

  public static func == (lhs: WebQuery, rhs: WebQuery) -> Bool {
    lhs.pairs.count == rhs.pairs.count
      && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    for pair in pairs {
      hasher.combine(pair.name)
      hasher.combine(pair.value)
    }
  }

  private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "+") {
        output.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), bytes.endIndex - index >= 3,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
        continue
      } else {
        output.append(byte)
      }
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// A request's method and path matched against the routes.
public enum WebRouter {
  /// The route of `method` and `path` (the request target's path, percent-decoded, without the
  /// query), or why there is none: 404 `not_found` for a path that is no route, 405
  /// `method_not_allowed` with `Allow` for a route asked with another method, 400 `bad_request`
  /// for a query the route cannot take (`limit` out of 1–100, `explain` without `text`).
  /// Methods are case-sensitive (RFC 9110 §9.1); paths match exactly.
  public static func route(method: String, path: String, query: WebQuery = WebQuery())
    -> Result<WebRoute, WebError>
  {
    guard let expected = self.method(ofPath: path) else { return .failure(.notFound(path)) }
    // The method comes before the query: a POST to /api/history is a wrong method whatever
    // its query says.
    guard method == expected.rawValue || (expected == .get && method == "HEAD") else {
      return .failure(.methodNotAllowed(allow: expected.allowed))
    }
    return match(path: path, query: query)
  }

  /// The method of the route at `path`, nil when no route is there.
  private static func method(ofPath path: String) -> WebMethod? {
    switch path {
    case "/api/login", "/api/logout", "/api/command": return .post
    case "/", "/remote", "/remote/", "/judge", "/judge/", "/api/time", "/api/status",
      "/api/events", "/api/session", "/api/presets", "/api/recent", "/api/results.csv",
      "/api/schedule", "/api/history", "/api/explain", "/api/media":
      return .get
    default:
      if path.hasPrefix(mediaPrefix) {
        return WebMedia.isServable(String(path.dropFirst(mediaPrefix.count))) ? .get : nil
      }
      let prefix = "/assets/"
      return path.hasPrefix(prefix) && isAssetName(String(path.dropFirst(prefix.count)))
        ? .get : nil
    }
  }

  /// The route at `path` (one `method(ofPath:)` knows), or why its query is wrong.
  private static func match(path: String, query: WebQuery) -> Result<WebRoute, WebError> {
    switch path {
    case "/": return .success(.display)
    case "/remote", "/remote/": return .success(.remote)
    case "/judge", "/judge/": return .success(.judge)
    case "/api/media": return .success(.mediaList)
    case "/api/time": return .success(.time)
    case "/api/status": return .success(.status)
    case "/api/events": return .success(.events)
    case "/api/session": return .success(.session)
    case "/api/login": return .success(.login)
    case "/api/logout": return .success(.logout)
    case "/api/command": return .success(.command)
    case "/api/presets": return .success(.presets)
    case "/api/recent": return .success(.recent)
    case "/api/results.csv": return .success(.resultsCSV)
    case "/api/schedule": return .success(.schedule)
    case "/api/history": return historyLimit(query["limit"]).map { .history(limit: $0) }
    case "/api/explain":
      guard let text = query["text"] else {
        return .failure(
          .badRequest(
            "/api/explain needs the text to explain", hint: "ask /api/explain?text=amrap%2014"))
      }
      return .success(.explain(text: text))
    default:
      if path.hasPrefix(mediaPrefix) {
        return .success(.media(name: String(path.dropFirst(mediaPrefix.count))))
      }
      return .success(.asset(name: String(path.dropFirst("/assets/".count))))
    }
  }

  /// Where the media directory's files are served.
  static let mediaPrefix = "/media/"

  private static func historyLimit(_ text: String?) -> Result<Int, WebError> {
    guard let text else { return .success(WebRoute.defaultHistoryLimit) }
    let limits = WebRoute.historyLimits
    // Digits only, and few of them: Int(_:) takes a sign, and a long number is out of range
    // whatever it says.
    if !text.isEmpty, text.utf8.count <= 3,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let limit = Int(text), limits.contains(limit)
    {
      return .success(limit)
    }
    return .failure(
      .badRequest(
        "limit must be a whole number from \(limits.lowerBound) to \(limits.upperBound)",
        hint: "ask /api/history?limit=\(WebRoute.defaultHistoryLimit)"))
  }

  /// A name an embedded file may have: segments of letters, digits, `.`, `_` and `-`, none
  /// starting with a dot (so no `..`), separated by single slashes, at most 128 bytes.
  static func isAssetName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 128 else { return false }
    return name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      .allSatisfy { segment in
        guard let first = segment.first, first != UInt8(ascii: ".") else { return false }
        return segment.allSatisfy { byte in
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "-"):
            true
          default: false
          }
        }
      }
  }
}

/// The content codings a client takes (RFC 9110 §12.5.3 `Accept-Encoding`).
public enum ContentCoding {
  /// Whether a request's `Accept-Encoding` lets a gzip body be sent: `gzip` (or `x-gzip`, or
  /// `*`) listed with a weight above zero. No header means the identity only, as browsers
  /// always send one.
  public static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    var wildcard = false
    for item in header.split(separator: ",") {
      let parts = item.split(separator: ";")
      guard let first = parts.first else { continue }
      let coding = first.trimmingSpaces.lowercased()
      var weighted = true
      for parameter in parts.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
          // "q=0", "q=0.0", "q=0.000": refused; anything else above zero is taken.
          weighted = pair[1].trimmingSpaces.contains { $0 != "0" && $0 != "." }
        }
      }
      if coding == "gzip" || coding == "x-gzip" { return weighted }
      if coding == "*" { wildcard = weighted }
    }
    return wildcard
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var value = drop { $0 == " " || $0 == "\t" }
    while value.last == " " || value.last == "\t" { value = value.dropLast() }
    return value
  }
}
