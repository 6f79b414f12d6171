// SPDX-License-Identifier: MIT
// Who may do what: a POST only with a JSON body and only from the clock's own pages, the
// remote's routes only when the configuration has a PIN and only for a signed-in client.

/// The request headers the access rules read (names are case-insensitive in HTTP; the server
/// looks them up by name).
public struct WebRequestHeaders: Sendable, Hashable {
  /// `Host`: the address the client used, with its port.
  public var host: String?
  /// `Origin` (RFC 6454 §7): sent by browsers on a POST.
  public var origin: String?
  /// `Sec-Fetch-Site` (W3C Fetch Metadata): where a browser's request comes from.
  public var secFetchSite: String?
  /// `Content-Type`.
  public var contentType: String?

  public init(
    host: String? = nil, origin: String? = nil, secFetchSite: String? = nil,
    contentType: String? = nil
  ) {
    self.host = host
    self.origin = origin
    self.secFetchSite = secFetchSite
    self.contentType = contentType
  }
}

/// What the access rules decide about a routed request.
public enum WebAccessDecision: Sendable, Hashable {
  case allowed
  case refused(WebError)
}

/// The access rules of the contract, in the order they are checked: for a POST, its origin
/// (403 `cross_origin`), then its body's type (415 `json_only`); then the remote being on (404
/// `remote_off` without a PIN); then the session (401 `sign_in`).
public enum WebAccess {
  /// The decision for `route` asked with `method` and `headers`. `remoteEnabled`: the
  /// configuration has a PIN; `signedIn`: the request carries a valid session cookie (see
  /// ``SessionTable/validate(cookieHeader:at:)``).
  public static func check(
    _ route: WebRoute, method: String, headers: WebRequestHeaders, remoteEnabled: Bool,
    signedIn: Bool
  ) -> WebAccessDecision {
    if method == WebMethod.post.rawValue {
      if !isSameOrigin(headers) { return .refused(.crossOrigin) }
      if !isJSON(contentType: headers.contentType) { return .refused(.jsonOnly) }
    }
    if route.belongsToRemote && !remoteEnabled { return .refused(.remoteOff) }
    if route.needsSession && !signedIn { return .refused(.signIn) }
    return .allowed
  }

  /// Whether a request may come from the clock's own pages. A browser says where a request
  /// comes from: `Origin` (RFC 6454 §7.2), which must then be `http://` and the `Host` the
  /// request was sent to, exactly (scheme and host compared ignoring ASCII case, RFC 6454
  /// §4 and RFC 3986 §6.2.2.1); `Origin: null` (a sandboxed or opaque origin) is refused; and
  /// `Sec-Fetch-Site` (W3C Fetch Metadata Request Headers §2.1), which must be `same-origin`
  /// or `none` (typed into the address bar). A client with neither header is not a browser
  /// (curl, a script), so it cannot be the victim of a forged cross-site request.
  public static func isSameOrigin(_ headers: WebRequestHeaders) -> Bool {
    if let site = headers.secFetchSite {
      let value = trimmed(site).lowercased()
      guard value == "same-origin" || value == "none" else { return false }
    }
    guard let origin = headers.origin else { return true }
    guard let host = headers.host, !trimmed(host).isEmpty else { return false }
    let written = trimmed(origin)
    guard asciiLowercased(written) != "null" else { return false }
    return asciiLowercased(written) == "http://" + asciiLowercased(trimmed(host))
  }

  /// Whether a `Content-Type` says JSON: the media type `application/json`, either case
  /// (RFC 9110 §8.3.1), with or without parameters such as `; charset=utf-8`.
  public static func isJSON(contentType: String?) -> Bool {
    guard let contentType else { return false }
    let mediaType =
      contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      .first.map { trimmed(String($0)) } ?? ""
    return asciiLowercased(mediaType) == "application/json"
  }

  /// Without the optional white space around a field value (RFC 9110 §5.5: spaces and tabs).
  static func trimmed(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var start = 0
    var end = scalars.count
    while start < end, scalars[start] == " " || scalars[start] == "\t" { start += 1 }
    while end > start, scalars[end - 1] == " " || scalars[end - 1] == "\t" { end -= 1 }
    return String(String.UnicodeScalarView(scalars[start..<end]))
  }

  /// ASCII letters lowered, nothing else touched (a Unicode case mapping could make two
  /// different hosts equal).
  static func asciiLowercased(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
  }
}

/// The names the clock answers to (RFC 9110 §7.2, `Host`): a request for any other is refused
/// with 421 before a session is looked at or a command run.
///
/// Why: a page of another site can rebind its own DNS name to the clock's address (DNS
/// rebinding); the browser then sends it the clock's answers as same-origin, `Origin` and
/// `Sec-Fetch-Site` included, and only the `Host`, the attacker's name, tells it apart.
///
/// Any IP literal is taken, the clock's or not: rebinding needs a name that resolves to
/// another address than the page came from, and an IP literal resolves to nothing, so a page
/// whose origin is an IP literal was served by that address — this clock, if the request is
/// here (or a proxy that forwards as it is told). The names are those of the configuration
/// (`hosts:`), the machine's host name and `<hostname>.local` (mDNS), and `localhost`.
public struct WebHostRule: Sendable, Hashable {
  /// The names taken, lowercase, without a trailing dot.
  public let names: Set<String>

  public init(names: [String]) {
    var set: Set<String> = ["localhost"]
    for name in names {
      let normalized = Self.normalized(name)
      if !normalized.isEmpty { set.insert(normalized) }
    }
    self.names = set
  }

  /// Whether a request with this `Host` is for the clock. No `Host` at all is an HTTP/1.0
  /// client that is not a browser (every browser sends it; libmicrohttpd refuses an HTTP/1.1
  /// request without it, RFC 9112 §3.2), so it cannot be a rebinding page.
  public func accepts(_ host: String?) -> Bool {
    guard let host else { return true }
    let text = Array(WebAccess.trimmed(host).utf8)
    guard !text.isEmpty, text.count <= 300 else { return false }
    if text[0] == UInt8(ascii: "[") {
      // An IP literal (RFC 3986 §3.2.2): an IPv6 address, then nothing or a port. (Browsers
      // take no zone in a URL, so none is looked for.)
      guard let close = text.firstIndex(of: UInt8(ascii: "]")), close > 1,
        text[1..<close].allSatisfy(Self.isIPv6LiteralByte),
        text[1..<close].contains(UInt8(ascii: ":")),
        Self.isPortSuffix(text[(close + 1)...])
      else { return false }
      return true
    }
    var name = text[...]
    if let colon = text.lastIndex(of: UInt8(ascii: ":")) {
      guard Self.isPortSuffix(text[colon...]) else { return false }
      name = text[..<colon]
    }
    if Self.isIPv4Literal(name) { return true }
    return names.contains(Self.normalized(String(decoding: name, as: UTF8.self)))
  }

  /// ASCII-lowercased (RFC 4343: names compare without case), without a final dot (`gym-pi.`
  /// is the same name written absolute).
  static func normalized(_ name: String) -> String {
    var text = WebAccess.asciiLowercased(WebAccess.trimmed(name))
    while text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// Nothing, or `:` and 1 to 5 digits.
  static func isPortSuffix(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let first = bytes.first else { return true }
    let digits = bytes.dropFirst()
    return first == UInt8(ascii: ":") && (1...5).contains(digits.count)
      && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// Four decimal numbers 0–255 joined by dots, as a browser writes an IPv4 host (the WHATWG
  /// URL parser turns every other spelling of one into this).
  static func isIPv4Literal(_ bytes: ArraySlice<UInt8>) -> Bool {
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        (1...3).contains(part.count)
          && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
          && (Int(String(decoding: part, as: UTF8.self)) ?? 256) <= 255
      }
  }

  /// What an IPv6 literal is made of: hexadecimal digits, `:` and `.` (an embedded IPv4).
  static func isIPv6LiteralByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
      UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: ":"), UInt8(ascii: "."):
      true
    default: false
    }
  }
}
