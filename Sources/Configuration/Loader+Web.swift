// SPDX-License-Identifier: MIT
// The web section: where the HTTP server listens, and the remote's PIN.
//
//   web:
//     listen: "0.0.0.0:8080"   # or "[::]:8080", "localhost:8080"
//     pin: "4821"              # quoted; without it, the display only

import ConfigFormat

/// The bounds of the web section.
public enum WebLimits {
  /// How many digits a PIN has.
  public static let pinLength = 4...12
}

extension Loader {
  static let webKeys = ["listen", "pin"]
  static let listenExample = "\"0.0.0.0:8080\""

  mutating func readWeb(_ node: ConfigNode?) -> WebSettings? {
    guard let node,
      let mapping = checker.mapping(
        node, what: "'web'",
        hint: "write 'listen:' and 'pin:' indented below it, or "
          + "'web: {listen: \(Self.listenExample), pin: \"4821\"}'")
    else { return nil }
    var settings = WebSettings()
    for entry in checker.checkKeys(mapping, allowed: Self.webKeys, context: "in 'web'") {
      if entry.key.text == "listen" {
        if let address = readListen(entry.value) { settings.listen = address }
      } else {
        settings.pin = readPIN(entry.value)
      }
    }
    return settings
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
    let expected = "a PIN of 4 to 12 digits in double quotes, such as \"4821\""
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
          : "write 4 to 12 digits in quotes, such as pin: \"4821\"; " + quoting
      checker.error(
        digits ? "the PIN must be in quotes" : "expected \(expected) for 'pin'", at: scalar.range,
        hint: hint)
      return nil
    }
    guard digits else {
      checker.error(
        "the PIN must be digits only (0-9)", at: scalar.range,
        hint: "a PIN is typed on a phone's number pad: 4 to 12 digits, such as \"4821\"")
      return nil
    }
    guard WebLimits.pinLength.contains(bytes.count) else {
      checker.error(
        "the PIN must be 4 to 12 digits, this one has \(bytes.count)", at: scalar.range,
        hint: bytes.count < WebLimits.pinLength.lowerBound
          ? "a short PIN is guessed quickly; use at least 4 digits" : "use at most 12 digits")
      return nil
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
