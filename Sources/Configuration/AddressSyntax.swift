// SPDX-License-Identifier: MIT
// "host:port" as the config writes it, read without looking anything up: where the web server
// listens (`web.listen`, addresses only) and where the MQTT broker is (`mqtt.broker`, a host
// name too, the port optional).

/// Reads a `host:port` text by the rules of the key it is written under.
enum HostPortSyntax {
  /// How one key takes its address: what it accepts, and the examples its messages give.
  struct Rules: Sendable {
    /// The key, as the messages name it: `listen`, `broker`.
    var key: String
    /// Host names are taken (and looked up later by the daemon); otherwise only addresses.
    var takesNames: Bool
    /// The port when the text has none; nil makes the port required.
    var defaultPort: UInt16?
    /// The lowest port taken: 0 lets the system choose (a listener), 1 for a server to reach.
    var lowestPort: Int
    /// The port the examples write.
    var examplePort: Int
    /// A text with only a port: what to write instead.
    var portOnlyHint: @Sendable (_ text: String) -> String
    /// A text starting with ':': what to write instead.
    var missingHostHint: @Sendable (_ text: String) -> String
    /// A bracketed address with a zone: what to write instead.
    var zoneHint: String
    /// A host name where only an address is taken: what to write instead.
    var hostNameHint: String
    /// The hint of a wrong port.
    var portHint: String
    /// The IPv6 examples the messages give, such as `"[::]:8080" or "[fd00::20]:8080"`.
    var ipv6Examples: String
    /// The IPv6 example of the bracket's hint.
    var ipv6Example: String
    /// What the host is called in "needs ... before": "an address", "the broker's host".
    var hostWord: String
  }

  /// The host part.
  enum Host: Sendable, Equatable {
    /// Four bytes, in network order.
    case ipv4([UInt8])
    /// Sixteen bytes, in network order.
    case ipv6([UInt8])
    /// `localhost`, in any case: 127.0.0.1, not looked up.
    case localhost
    /// A host name (RFC 1123's letters, digits, '-' and '.'), only where the rules take names.
    case name(String)
  }

  /// What the text says.
  struct Address: Equatable {
    var host: Host
    /// The port written, or the rules' default.
    var port: UInt16
    /// Whether the text wrote the port.
    var portWritten: Bool
    /// The host as written: `0.0.0.0`, `[::]`, `localhost` (so written, in lower case).
    var hostText: String
  }

  struct Problem: Error {
    var message: String
    var hint: String?
    /// The part of the text at fault (offsets in Unicode scalars); nil for all of it.
    var columns: Range<Int>?
  }

  static func parse(_ text: String, _ rules: Rules) -> Result<Address, Problem> {
    let key = rules.key
    let scalars = Array(text.unicodeScalars)
    func piece(_ range: Range<Int>) -> String {
      String(String.UnicodeScalarView(scalars[range]))
    }
    func fail(_ message: String, _ hint: String?, _ columns: Range<Int>? = nil)
      -> Result<Address, Problem>
    {
      .failure(Problem(message: message, hint: hint, columns: columns))
    }
    let hostEnd: Int
    let host: Host
    if scalars.first == "[" {
      guard let close = scalars.firstIndex(of: "]") else {
        return fail(
          "'[' without its ']' in '\(key)'",
          "write an IPv6 address in brackets, as in \(rules.ipv6Example)")
      }
      let inner = piece(1..<close)
      if inner.contains("%") {
        return fail(
          "a zone ('%' and an interface) is not taken in '\(key)'", rules.zoneHint, 1..<close)
      }
      guard let bytes = IPLiteral.ipv6(inner) else {
        return fail(
          "'\(inner)' is not an IPv6 address", "write one such as \(rules.ipv6Examples)",
          1..<close)
      }
      host = .ipv6(bytes)
      hostEnd = close + 1
      if hostEnd == scalars.count, let port = rules.defaultPort {
        return .success(
          Address(host: host, port: port, portWritten: false, hostText: piece(0..<hostEnd)))
      }
      guard hostEnd < scalars.count, scalars[hostEnd] == ":" else {
        return fail(
          "'\(key)' needs a port after the address",
          "write \"[\(inner)]:\(rules.examplePort)\"", hostEnd..<scalars.count)
      }
    } else {
      let colons = scalars.indices.filter { scalars[$0] == ":" }
      if colons.count > 1 {
        return fail(
          "an IPv6 address in '\(key)' goes in brackets before the port",
          "write it as in \(rules.ipv6Examples)")
      }
      if colons.isEmpty, !scalars.isEmpty, scalars.allSatisfy({ ("0"..."9").contains($0) }) {
        return fail(
          "'\(key)' needs \(rules.hostWord) before the port", rules.portOnlyHint(text))
      }
      if colons.isEmpty, rules.defaultPort == nil {
        return fail(
          "'\(key)' needs a port, as in \"\(text):\(rules.examplePort)\"",
          "write the address, ':' and the port")
      }
      hostEnd = colons.first ?? scalars.count
      let name = piece(0..<hostEnd)
      if name.isEmpty {
        return fail(
          "'\(key)' needs \(rules.hostWord) before ':'", rules.missingHostHint(text), 0..<1)
      }
      if name.lowercased() == "localhost" {
        host = .localhost
      } else if name.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }) {
        // All digits and dots is an address or nothing: getaddrinfo would read `10.1` as
        // 10.0.0.1, not look it up.
        guard let bytes = IPLiteral.ipv4(name) else {
          return fail(
            "'\(name)' is not an IPv4 address",
            "write four numbers from 0 to 255 separated by dots, without leading zeros, as in "
              + "\"192.168.1.20:\(rules.examplePort)\"", 0..<hostEnd)
        }
        host = .ipv4(bytes)
      } else if rules.takesNames {
        if let problem = HostNameSyntax.problem(name, key: key) { return .failure(problem) }
        host = .name(name)
      } else {
        return fail(
          "'\(name)' is a host name: '\(key)' takes an address", rules.hostNameHint, 0..<hostEnd)
      }
      if hostEnd == scalars.count, let port = rules.defaultPort {
        let written = host == .localhost ? "localhost" : name
        return .success(Address(host: host, port: port, portWritten: false, hostText: written))
      }
    }
    let portStart = hostEnd + 1
    let port = piece(portStart..<scalars.count)
    guard (1...5).contains(port.unicodeScalars.count),
      port.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(port),
      number >= rules.lowestPort, let value = UInt16(exactly: number)
    else {
      return fail(
        port.isEmpty
          ? "'\(key)' needs a port after ':'"
          : "the port must be a number from \(rules.lowestPort) to 65535, found '\(port)'",
        rules.portHint, portStart..<max(scalars.count, portStart + 1))
    }
    let written = host == .localhost ? "localhost" : piece(0..<hostEnd)
    return .success(Address(host: host, port: value, portWritten: true, hostText: written))
  }
}

/// Host names as RFC 1123 §2.1 writes them (RFC 952's letters, digits and hyphens, a label may
/// start with a digit): labels of 1 to 63 characters separated by dots, none starting or
/// ending with '-', at most 253 characters in all; one final dot (the root) is allowed.
enum HostNameSyntax {
  /// What is wrong with `name` as the host of `key`, or nil when it is a host name.
  static func problem(_ name: String, key: String) -> HostPortSyntax.Problem? {
    let scalars = Array(name.unicodeScalars)
    let hint =
      "a host name has letters, digits, '-' and '.', as in \"mqtt.local\"; or write the "
      + "broker's address"
    if scalars.count > 253 {
      return HostPortSyntax.Problem(
        message: "the host name in '\(key)' has \(scalars.count) characters, more than 253",
        hint: "write the broker's address instead", columns: 0..<scalars.count)
    }
    var labelStart = 0
    for (index, character) in scalars.enumerated() {
      switch character {
      case "a"..."z", "A"..."Z", "0"..."9", "-":
        if index - labelStart == 63 {
          return HostPortSyntax.Problem(
            message: "a part of the host name in '\(key)' is longer than 63 characters",
            hint: "parts between dots have 1 to 63 characters", columns: labelStart..<index + 1)
        }
      case ".":
        if index == labelStart {
          return HostPortSyntax.Problem(
            message: "an empty part in the host name in '\(key)', at character \(index + 1)",
            hint: hint, columns: index..<index + 1)
        }
        if scalars[index - 1] == "-" {
          return dash(at: index - 1, key: key)
        }
        labelStart = index + 1
      default:
        let shown =
          SchemaChecker.isControl(character) ? SchemaChecker.codePoint(character) : "'\(character)'"
        return HostPortSyntax.Problem(
          message: "the host name in '\(key)' has \(shown) at character \(index + 1), which a "
            + "host name cannot hold", hint: hint, columns: index..<index + 1)
      }
      if character == "-", index == labelStart { return dash(at: index, key: key) }
    }
    if let last = scalars.last, last == "-" { return dash(at: scalars.count - 1, key: key) }
    return nil
  }

  private static func dash(at index: Int, key: String) -> HostPortSyntax.Problem {
    HostPortSyntax.Problem(
      message: "a part of the host name in '\(key)' starts or ends with '-', at character "
        + "\(index + 1)", hint: "'-' goes only between letters or digits",
      columns: index..<index + 1)
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
