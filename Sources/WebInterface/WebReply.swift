// SPDX-License-Identifier: MIT
// What the web interface answers: the status, the headers every response carries, and the error
// bodies, each written in one place.

import JSONKit

/// One response header.
public struct WebHeader: Sendable, Hashable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// A whole answer: status, content type, headers, body.
public struct WebReply: Sendable, Hashable {
  public var status: Int
  public var contentType: String
  /// How it may be cached (its `Cache-Control`).
  public var caching: WebCaching
  /// Headers of this answer beyond those ``headers`` adds to every one: `Allow`,
  /// `Retry-After`, `Set-Cookie`, `ETag`.
  public var extraHeaders: [WebHeader]
  public var body: [UInt8]

  public init(
    status: Int, contentType: String, caching: WebCaching, extraHeaders: [WebHeader] = [],
    body: [UInt8]
  ) {
    self.status = status
    self.contentType = contentType
    self.caching = caching
    self.extraHeaders = extraHeaders
    self.body = body
  }

  /// Every header to send: the content type, the security headers, `Cache-Control`, then this
  /// answer's own.
  public var headers: [WebHeader] {
    [WebHeader("Content-Type", contentType)] + WebSecurity.headers
      + [WebHeader("Cache-Control", caching.headerValue)] + extraHeaders
  }

  /// The content type of every JSON answer (RFC 8259 §11: JSON is UTF-8).
  public static let jsonType = "application/json; charset=utf-8"

  /// A JSON answer of the API (never stored).
  public static func json(_ value: JSONValue, status: Int = 200, headers: [WebHeader] = [])
    -> WebReply
  {
    WebReply(
      status: status, contentType: jsonType, caching: .noStore, extraHeaders: headers,
      body: value.serializedBytes())
  }

  /// The answer of an error for a request of `path`: its JSON body under `/api/`, a small HTML
  /// page saying the same elsewhere (a person typed the address).
  public static func error(_ error: WebError, path: String) -> WebReply {
    if path == "/api" || path.hasPrefix("/api/") {
      return json(error.json, status: error.status, headers: error.headers)
    }
    return WebReply(
      status: error.status, contentType: "text/html; charset=utf-8", caching: .noStore,
      extraHeaders: error.headers, body: Array(error.page.utf8))
  }
}

/// The headers every response carries, pages, API and stream alike. The Content-Security-Policy
/// allows the pages' own files only: no inline script or style (a `style=""` attribute is
/// blocked too; pages set styles through `element.style` or classes), no frames around them.
public enum WebSecurity {
  public static let contentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    + "connect-src 'self'; media-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    + "form-action 'self'"

  public static let headers: [WebHeader] = [
    WebHeader("X-Content-Type-Options", "nosniff"),
    WebHeader("Referrer-Policy", "no-referrer"),
    WebHeader("Content-Security-Policy", contentSecurityPolicy),
    WebHeader("X-Frame-Options", "DENY"),
  ]
}

/// Why a request is not served: the HTTP status, the code and message the body carries (as the
/// socket's failures do), a hint, and the headers that belong with it.
public struct WebError: Error, Sendable, Hashable {
  public var status: Int
  public var code: String
  public var message: String
  public var hint: String?
  /// `Allow` with a 405, `Retry-After` with a 429.
  public var headers: [WebHeader]

  public init(
    status: Int, code: String, message: String, hint: String? = nil, headers: [WebHeader] = []
  ) {
    self.status = status
    self.code = code
    self.message = message
    self.hint = hint
    self.headers = headers
  }

  /// `{"ok":false,"error":{"code":…,"message":…,"hint":…}}`, the hint left out when there is
  /// none.
  public var json: JSONValue {
    var error = JSONObject([("code", .string(code)), ("message", .string(message))])
    if let hint { error["hint"] = .string(hint) }
    return .object(JSONObject([("ok", .bool(false)), ("error", .object(error))]))
  }

  /// A small HTML page saying the same, for a person's browser.
  public var page: String {
    var html =
      "<!doctype html>\n<html lang=\"en\">\n<meta charset=\"utf-8\">\n"
      + "<title>wodclock: \(Self.escaped(message))</title>\n<h1>\(Self.escaped(message))</h1>\n"
    if let hint { html += "<p>\(Self.escaped(hint))</p>\n" }
    return html + "<p><a href=\"/\">the clock</a></p>\n</html>\n"
  }

  private static func escaped(_ text: String) -> String {
    var output = ""
    for character in text.unicodeScalars {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.unicodeScalars.append(character)
      }
    }
    return output
  }

  // MARK: The errors of the contract

  /// 404 `not_found`.
  public static func notFound(_ path: String) -> WebError {
    WebError(
      status: 404, code: "not_found", message: "nothing here: \(shown(path))",
      hint: "the display is at /, the remote at /remote")
  }

  /// 405 `method_not_allowed`, with the `Allow` list.
  public static func methodNotAllowed(allow: String) -> WebError {
    WebError(
      status: 405, code: "method_not_allowed", message: "this address takes \(allow) only",
      hint: nil, headers: [WebHeader("Allow", allow)])
  }

  /// 400 `bad_request`.
  public static func badRequest(_ message: String, hint: String? = nil) -> WebError {
    WebError(status: 400, code: "bad_request", message: message, hint: hint)
  }

  /// 401 `sign_in`: no session, or one that expired.
  public static let signIn = WebError(
    status: 401, code: "sign_in", message: "sign in with the clock's PIN first",
    hint: "open /remote, or POST /api/login with {\"pin\": \"…\"}")

  /// 403 `cross_origin`: a POST from a page of another site.
  public static let crossOrigin = WebError(
    status: 403, code: "cross_origin", message: "a request from another site is refused",
    hint: "use the remote at /remote on this clock's own address")

  /// 415 `json_only`.
  public static let jsonOnly = WebError(
    status: 415, code: "json_only", message: "the body must be JSON",
    hint: "send it with 'Content-Type: application/json'")

  /// 401 `wrong_pin`.
  public static let wrongPIN = WebError(
    status: 401, code: "wrong_pin", message: "wrong PIN",
    hint: "the PIN is the 'pin' of the configuration's 'web' section")

  /// 429 `too_many_attempts`, with `Retry-After` (RFC 9110 §10.2.3, in seconds).
  public static func tooManyAttempts(retryAfter seconds: Int) -> WebError {
    WebError(
      status: 429, code: "too_many_attempts",
      message: "too many wrong PINs: try again in \(seconds) s", hint: nil,
      headers: [WebHeader("Retry-After", "\(seconds)")])
  }

  /// 404 `remote_off`: the configuration has no PIN, so the clock takes no commands from the
  /// network.
  public static let remoteOff = WebError(
    status: 404, code: "remote_off", message: "the remote is off on this clock",
    hint: "give the web section a PIN in wodclock.yaml, as in 'web: {pin: \"482193\"}', and "
      + "reload")

  /// 413 `too_large`: a request body over the limit.
  public static func tooLarge(limit bytes: Int) -> WebError {
    WebError(
      status: 413, code: "too_large", message: "the body is larger than \(bytes) bytes",
      hint: nil)
  }

  /// 503 `too_many_streams`.
  public static func tooManyStreams(limit: Int) -> WebError {
    WebError(
      status: 503, code: "too_many_streams",
      message: "\(limit) displays are connected already, the most the clock serves",
      hint: "close a display page that is not needed")
  }

  /// 421 `wrong_host` (RFC 9110 §15.5.20, Misdirected Request): the `Host` is not one of the
  /// clock's names, as a page of another site that rebinds its DNS name to the clock sends.
  public static func wrongHost(_ host: String) -> WebError {
    WebError(
      status: 421, code: "wrong_host",
      message: "this clock does not answer to the name '\(shown(host))'",
      hint: "open the clock by its IP address (such as http://192.168.1.20:8080/), its host "
        + "name, HOSTNAME.local, or a name listed in 'hosts:' of the configuration's 'web' section")
  }

  /// 400 `use_events`: `subscribe` is the socket's; the web has the event stream.
  public static let useEvents = WebError(
    status: 400, code: "use_events", message: "'subscribe' is for the control socket",
    hint: "GET /api/events gives the status and cues as Server-Sent Events")

  /// 400 `too_long`: an `/api/explain` text over the limit.
  public static func tooLong(length: Int, limit: Int) -> WebError {
    WebError(
      status: 400, code: "too_long",
      message: "a workout to explain may have at most \(limit) characters, this one has \(length)",
      hint: "write the workout itself, as on a whiteboard: 'amrap 14'")
  }

  /// A path from a client in a message: at most 80 characters.
  private static func shown(_ path: String) -> String {
    let scalars = Array(path.unicodeScalars)
    guard scalars.count > 80 else { return path }
    var view = String.UnicodeScalarView(scalars.prefix(79))
    view.append("…")
    return String(view)
  }
}
