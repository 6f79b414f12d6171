// SPDX-License-Identifier: MIT
// The web section: where the HTTP server listens, the remote's PIN, the names the clock
// answers to, and what clients may hold.
//
//   web:
//     listen: "0.0.0.0:8080"   # or "[::]:8080", "localhost:8080"
//     pin: "482193"            # quoted; without it, the display only
//     hosts: [clock.gym.lan]   # names besides the addresses, the host name, NAME.local
//     connections: 128         # and connections_per_address, streams, streams_per_address,
//     request_timeout: 10s     # the bounds of what clients may hold

import ConfigFormat
import WorkoutCore

/// The bounds of the web section.
public enum WebLimits {
  /// How many digits a PIN has.
  public static let pinLength = 4...12
  /// Fewer digits than this are a warning: 10,000 four-digit PINs fall to a patient guesser in
  /// days, a million six-digit ones take months (PINGate's bound).
  public static let advisedPINLength = 6
  public static let connections = 8...1024
  public static let connectionsPerAddress = 2...256
  public static let streams = 1...1000
  public static let streamsPerAddress = 1...256
  public static let requestTimeout = TimeSpan.seconds(1)...TimeSpan.minutes(5)
  /// A DNS name's length (RFC 1035 §2.3.4).
  public static let hostNameLength = 253
}

extension Loader {
  static let webKeys = [
    "listen", "pin", "hosts", "connections", "connections_per_address", "streams",
    "streams_per_address", "request_timeout",
  ]
  static let listenExample = "\"0.0.0.0:8080\""

  /// The `web:` keys that are counts: the setting each fills and its range.
  static func webCount(_ key: String) -> (WritableKeyPath<WebSettings, Int>, ClosedRange<Int>)? {
    switch key {
    case "connections": (\.connections, WebLimits.connections)
    case "connections_per_address": (\.connectionsPerAddress, WebLimits.connectionsPerAddress)
    case "streams": (\.streams, WebLimits.streams)
    case "streams_per_address": (\.streamsPerAddress, WebLimits.streamsPerAddress)
    default: nil
    }
  }

  mutating func readWeb(_ node: ConfigNode?) -> WebSettings? {
    guard let node,
      let mapping = checker.mapping(
        node, what: "'web'",
        hint: "write 'listen:' and 'pin:' indented below it, or "
          + "'web: {listen: \(Self.listenExample), pin: \"482193\"}'")
    else { return nil }
    var settings = WebSettings()
    var ranges: [String: SourceRange] = [:]
    for entry in checker.checkKeys(mapping, allowed: Self.webKeys, context: "in 'web'") {
      let key = entry.key.text
      ranges[key] = entry.value.range
      switch key {
      case "listen":
        if let address = readListen(entry.value) { settings.listen = address }
      case "pin": settings.pin = readPIN(entry.value)
      case "hosts": if let hosts = readHosts(entry.value) { settings.hosts = hosts }
      case "request_timeout":
        if let value = checker.duration(entry.value, key: key, in: WebLimits.requestTimeout) {
          settings.requestTimeout = value
        }
      default:
        if let (setting, range) = Self.webCount(key),
          let value = checker.integer(entry.value, key: key, in: range)
        {
          settings[keyPath: setting] = value
        }
      }
    }
    checkWebBounds(settings, ranges: ranges, section: node.range)
    return settings
  }

  /// The bounds must fit inside each other: a stream is a connection, and one address may not
  /// be given more than all of them.
  private mutating func checkWebBounds(
    _ settings: WebSettings, ranges: [String: SourceRange], section: SourceRange
  ) {
    if settings.streams >= settings.connections {
      checker.error(
        "'streams' (\(settings.streams)) must be fewer than 'connections' "
          + "(\(settings.connections))",
        at: ranges["streams"] ?? ranges["connections"] ?? section,
        hint: "keep connections free for pages to load while every stream is open: such as "
          + "streams: \(max(1, settings.connections / 2))")
    }
    if settings.connectionsPerAddress > settings.connections {
      checker.error(
        "'connections_per_address' (\(settings.connectionsPerAddress)) is more than "
          + "'connections' (\(settings.connections))",
        at: ranges["connections_per_address"] ?? ranges["connections"] ?? section,
        hint: "one address should hold a few of them: a browser opens at most 6 to one clock")
    }
    if settings.streamsPerAddress > settings.connectionsPerAddress {
      checker.error(
        "'streams_per_address' (\(settings.streamsPerAddress)) is more than "
          + "'connections_per_address' (\(settings.connectionsPerAddress))",
        at: ranges["streams_per_address"] ?? ranges["connections_per_address"] ?? section,
        hint: "each stream is a connection; a display page holds one")
    }
  }

  // MARK: hosts

  /// Host names: letters, digits, `-` and dots (RFC 1123 §2.1), at most 253 characters. An
  /// address needs no entry: every IP literal is taken.
  private mutating func readHosts(_ node: ConfigNode) -> [String]? {
    guard let items = checker.list(node, key: "hosts", example: "[clock.gym.lan]") else {
      return nil
    }
    var names: [String] = []
    var failed = false
    for item in items {
      guard let scalar = checker.scalar(item, key: "hosts", expected: "a host name") else {
        failed = true
        continue
      }
      let bytes = Array(scalar.text.utf8)
      let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
      let valid =
        !bytes.isEmpty && bytes.count <= WebLimits.hostNameLength
        && labels.allSatisfy { label in
          (1...63).contains(label.count) && label.first != UInt8(ascii: "-")
            && label.last != UInt8(ascii: "-")
            && label.allSatisfy { byte in
              (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-")
            }
        }
      guard valid else {
        checker.error(
          "'\(scalar.text)' is not a host name", at: scalar.range,
          hint: "a name is letters, digits and '-' between dots, such as clock.gym.lan; an "
            + "address needs no entry, every IP address of the clock is taken")
        failed = true
        continue
      }
      names.append(scalar.text)
    }
    return failed ? nil : names
  }

  // MARK: listen

  private mutating func readListen(_ node: ConfigNode) -> WebListenAddress? {
    guard case .scalar = node else {
      // `listen: [::]:8080` unquoted starts a flow list.
      checker.error(
        "expected an address and a port such as \(Self.listenExample) for 'listen', found "
          + SchemaChecker.found(node), at: node.range,
        hint: "write it in double quotes; an IPv6 address goes in brackets inside them, as in "
          + "\"[::]:8080\"")
      return nil
    }
    guard
      let scalar = checker.scalar(
        node, key: "listen", expected: "an address and a port such as \(Self.listenExample)")
    else { return nil }
    switch HostPortSyntax.parse(scalar.text, Self.listenRules) {
    case .success(let address):
      return WebListenAddress(address)
    case .failure(let problem):
      checker.error(
        problem.message, at: Self.range(of: problem.columns, in: scalar), hint: problem.hint)
      return nil
    }
  }

  /// A listener binds what the file says: an address, never a name to look up.
  static let listenRules = HostPortSyntax.Rules(
    key: "listen", takesNames: false, defaultPort: nil, lowestPort: 0, examplePort: 8080,
    portOnlyHint: { text in
      "write \"0.0.0.0:\(text)\" to listen on every interface, or \"localhost:\(text)\""
    },
    missingHostHint: { text in "write \"0.0.0.0\(text)\" to listen on every interface" },
    zoneHint: "listen on \"[::]:8080\" for every interface, or on an address of the interface",
    hostNameHint:
      "write the address of an interface: \"0.0.0.0:8080\" listens on all of them, "
      + "\"localhost:8080\" on this machine only; a name would be looked up when the daemon "
      + "starts and may change under it",
    portHint: "8080 is the usual one; 0 lets the system choose a free port",
    ipv6Examples: "\"[::]:8080\" or \"[fd00::20]:8080\"", ipv6Example: "\"[::]:8080\"",
    hostWord: "an address")

  // MARK: pin

  private mutating func readPIN(_ node: ConfigNode) -> String? {
    let expected = "a PIN of 4 to 12 digits in double quotes, such as \"482193\""
    guard let scalar = checker.scalar(node, key: "pin", expected: expected) else { return nil }
    let bytes = Array(scalar.text.utf8)
    let digits =
      !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    if scalar.style == .plain {
      // YAML reads an unquoted 0042 as the number 42: the file would not say what it seems to.
      let quoting = "unquoted, YAML reads a number and drops its leading zeros"
      let hint =
        !digits
        ? "remove 'pin' to serve the display only, without the remote"
        : WebLimits.pinLength.contains(bytes.count)
          ? "write pin: \"\(scalar.text)\": " + quoting
            // Quoting alone would not do: the next error would be its length.
          : "write 6 to 12 digits in quotes, such as pin: \"482193\"; " + quoting
      checker.error(
        digits ? "the PIN must be in quotes" : "expected \(expected) for 'pin'", at: scalar.range,
        hint: hint)
      return nil
    }
    guard digits else {
      checker.error(
        "the PIN must be digits only (0-9)", at: scalar.range,
        hint: "a PIN is typed on a phone's number pad: 6 to 12 digits, such as \"482193\"")
      return nil
    }
    guard WebLimits.pinLength.contains(bytes.count) else {
      checker.error(
        "the PIN must be 4 to 12 digits, this one has \(bytes.count)", at: scalar.range,
        hint: bytes.count < WebLimits.pinLength.lowerBound
          ? "a short PIN is guessed quickly; use at least 6 digits" : "use at most 12 digits")
      return nil
    }
    if bytes.count < WebLimits.advisedPINLength {
      checker.warning(
        "a PIN of \(bytes.count) digits can be guessed from the gym's network in days",
        at: scalar.range,
        hint: "use at least \(WebLimits.advisedPINLength) digits, such as pin: \"482193\": a "
          + "million PINs hold out for months")
    }
    return scalar.text
  }

  /// Where `columns` (offsets in Unicode scalars of the decoded text) stand in the file: inside
  /// the scalar when its text is the file's text (one line, no escape), else the whole scalar.
  static func range(of columns: Range<Int>?, in scalar: Scalar) -> SourceRange {
    let start = scalar.range.start
    let quote = scalar.style == .plain ? 0 : 1
    let width = scalar.range.end.column - start.column
    guard let columns, scalar.range.end.line == start.line,
      width == scalar.text.unicodeScalars.count + 2 * quote
    else { return scalar.range }
    var from = start
    from.column += quote + columns.lowerBound
    var to = start
    to.column += quote + max(columns.upperBound, columns.lowerBound + 1)
    return SourceRange(start: from, end: to)
  }
}

extension WebListenAddress {
  /// The address `listen:` wrote; its rules take no host name.
  init(_ address: HostPortSyntax.Address) {
    let host: Host =
      switch address.host {
      case .ipv4(let bytes): .ipv4(bytes)
      case .ipv6(let bytes): .ipv6(bytes)
      // `listenRules` refuse a name before it gets here.
      case .localhost, .name: .localhost
      }
    self.init(host: host, port: address.port, hostText: address.hostText)
  }
}
