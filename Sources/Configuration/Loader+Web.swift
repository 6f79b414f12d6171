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
    switch ListenAddressSyntax.parse(scalar.text) {
    case .success(let address):
      return address
    case .failure(let problem):
      checker.error(
        problem.message, at: Self.range(of: problem.columns, in: scalar), hint: problem.hint)
      return nil
    }
  }

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

/// Reads `listen:`'s text without looking anything up.
enum ListenAddressSyntax {
  struct Problem: Error {
    var message: String
    var hint: String?
    /// The part of the text at fault (offsets in Unicode scalars); nil for all of it.
    var columns: Range<Int>?
  }

  static let hostNameHint =
    "write the address of an interface: \"0.0.0.0:8080\" listens on all of them, "
    + "\"localhost:8080\" on this machine only; a name would be looked up when the daemon starts "
    + "and may change under it"

  static func parse(_ text: String) -> Result<WebListenAddress, Problem> {
    let scalars = Array(text.unicodeScalars)
    func piece(_ range: Range<Int>) -> String {
      String(String.UnicodeScalarView(scalars[range]))
    }
    func fail(_ message: String, _ hint: String?, _ columns: Range<Int>? = nil)
      -> Result<WebListenAddress, Problem>
    {
      .failure(Problem(message: message, hint: hint, columns: columns))
    }
    let hostEnd: Int
    let host: WebListenAddress.Host
    if scalars.first == "[" {
      guard let close = scalars.firstIndex(of: "]") else {
        return fail(
          "'[' without its ']' in 'listen'",
          "write an IPv6 address in brackets, as in \"[::]:8080\"")
      }
      let inner = piece(1..<close)
      if inner.contains("%") {
        return fail(
          "a zone ('%' and an interface) is not taken in 'listen'",
          "listen on \"[::]:8080\" for every interface, or on an address of the interface",
          1..<close)
      }
      guard let bytes = IPLiteral.ipv6(inner) else {
        return fail(
          "'\(inner)' is not an IPv6 address",
          "write one such as \"[::]:8080\" or \"[fd00::20]:8080\"",
          1..<close)
      }
      host = .ipv6(bytes)
      hostEnd = close + 1
      guard hostEnd < scalars.count, scalars[hostEnd] == ":" else {
        return fail(
          "'listen' needs a port after the address", "write \"[\(inner)]:8080\"",
          hostEnd..<scalars.count)
      }
    } else {
      let colons = scalars.indices.filter { scalars[$0] == ":" }
      if colons.isEmpty {
        if !scalars.isEmpty, scalars.allSatisfy({ ("0"..."9").contains($0) }) {
          return fail(
            "'listen' needs an address before the port",
            "write \"0.0.0.0:\(text)\" to listen on every interface, or \"localhost:\(text)\"")
        }
        return fail(
          "'listen' needs a port, as in \"\(text):8080\"", "write the address, ':' and the port")
      }
      if colons.count > 1 {
        return fail(
          "an IPv6 address in 'listen' goes in brackets before the port",
          "write it as in \"[::]:8080\" or \"[fd00::20]:8080\"")
      }
      hostEnd = colons[0]
      let name = piece(0..<hostEnd)
      if name.isEmpty {
        return fail(
          "'listen' needs an address before ':'",
          "write \"0.0.0.0\(text)\" to listen on every interface",
          0..<1)
      }
      if name.lowercased() == "localhost" {
        host = .localhost
      } else if name.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }) {
        guard let bytes = IPLiteral.ipv4(name) else {
          return fail(
            "'\(name)' is not an IPv4 address",
            "write four numbers from 0 to 255 separated by dots, without leading zeros, as in "
              + "\"192.168.1.20:8080\"", 0..<hostEnd)
        }
        host = .ipv4(bytes)
      } else {
        return fail(
          "'\(name)' is a host name: 'listen' takes an address", hostNameHint, 0..<hostEnd)
      }
    }
    let portStart = hostEnd + 1
    let port = piece(portStart..<scalars.count)
    guard (1...5).contains(port.unicodeScalars.count),
      port.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(port),
      let value = UInt16(exactly: number)
    else {
      return fail(
        port.isEmpty
          ? "'listen' needs a port after ':'"
          : "the port must be a number from 0 to 65535, found '\(port)'",
        "8080 is the usual one; 0 lets the system choose a free port",
        portStart..<max(scalars.count, portStart + 1))
    }
    let written = host == .localhost ? "localhost" : piece(0..<hostEnd)
    return .success(WebListenAddress(host: host, port: value, hostText: written))
  }
}

/// IP address literals read by their RFCs, purely: nothing is asked of the system.
enum IPLiteral {
  /// Dotted decimal (RFC 791's four octets as inet_pton(3) takes them): four numbers 0–255 of
  /// one to three digits, no leading zero (`010` would be octal to some readers).
  static func ipv4(_ text: String) -> [UInt8]? {
    let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.count),
        part.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
        part.count == 1 || part.first != UInt8(ascii: "0")
      else { return nil }
      let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard let byte = UInt8(exactly: value) else { return nil }
      bytes.append(byte)
    }
    return bytes
  }

  /// The text forms of RFC 4291 §2.2: eight groups of one to four hexadecimal digits separated
  /// by colons, one run of zero groups written `::`, the last 32 bits optionally as dotted
  /// decimal (`::ffff:192.168.1.20`).
  static func ipv6(_ text: String) -> [UInt8]? {
    let colon = UInt8(ascii: ":")
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count <= 45 else { return nil }
    var gap: Int?
    var index = 0
    while index + 1 < bytes.count {
      if bytes[index] == colon && bytes[index + 1] == colon {
        guard gap == nil else { return nil }
        gap = index
        index += 2
      } else {
        index += 1
      }
    }
    /// The 16-bit groups of a stretch without "::"; dotted decimal only at the very end.
    func groups(_ part: ArraySlice<UInt8>, endsAddress: Bool) -> [UInt16]? {
      guard !part.isEmpty else { return [] }
      let pieces = part.split(separator: colon, omittingEmptySubsequences: false)
      var values: [UInt16] = []
      for (position, piece) in pieces.enumerated() {
        if endsAddress, position == pieces.count - 1, piece.contains(UInt8(ascii: ".")) {
          guard let quad = ipv4(String(decoding: piece, as: UTF8.self)) else { return nil }
          values += [
            UInt16(quad[0]) << 8 | UInt16(quad[1]), UInt16(quad[2]) << 8 | UInt16(quad[3]),
          ]
          continue
        }
        guard (1...4).contains(piece.count) else { return nil }
        var value: UInt16 = 0
        for byte in piece {
          guard let digit = hexDigit(byte) else { return nil }
          value = value << 4 | UInt16(digit)
        }
        values.append(value)
      }
      return values
    }
    var values: [UInt16]
    if let gap {
      // "::" stands for at least one group of zeros.
      guard let head = groups(bytes[..<gap], endsAddress: false),
        let tail = groups(bytes[(gap + 2)...], endsAddress: true), head.count + tail.count <= 7
      else { return nil }
      values = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    } else {
      guard let all = groups(bytes[...], endsAddress: true), all.count == 8 else { return nil }
      values = all
    }
    return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
