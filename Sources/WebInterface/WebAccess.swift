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
