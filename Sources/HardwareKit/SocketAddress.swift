// SPDX-License-Identifier: MIT
// IPv4 and IPv6 addresses as values: parsed from their text without a name lookup, and given
// to the sockets with a port.

import CLinux
import Glibc

/// An IPv4 or IPv6 address, without a port.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
  /// Which of the two.
  public enum Family: Hashable, Sendable {
    case ipv4
    case ipv6

    var rawValue: Int32 {
      switch self {
      case .ipv4: AF_INET
      case .ipv6: AF_INET6
      }
    }
  }

  public let family: Family
  /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
  public let bytes: [UInt8]
  /// The interface a scoped IPv6 address belongs to (a link-local `fe80::1%eth0`, RFC 4007
  /// section 11), as its index; 0 for none.
  public let scopeID: UInt32

  /// The address of `bytes`: 4 of them for IPv4, 16 for IPv6; nil for any other count.
  public init?(family: Family, bytes: [UInt8], scopeID: UInt32 = 0) {
    guard bytes.count == (family == .ipv4 ? 4 : 16) else { return nil }
    self.family = family
    self.bytes = bytes
    self.scopeID = family == .ipv6 ? scopeID : 0
  }

  /// The address `text` spells: dotted-decimal IPv4 (`192.168.1.20`) or IPv6 (`fd00::20`),
  /// an IPv6 one with a zone (`fe80::1%eth0`, `fe80::1%2`). Nil for anything else, a host name
  /// included: nothing is looked up here (inet_pton(3), which also refuses the shorthand forms
  /// inet_aton(3) takes, such as `10.1`).
  ///
  /// The corresponding C functions are `inet_pton` and, for a zone, `if_nametoindex`.
  public init?(_ text: String) {
    guard !text.isEmpty, text.utf8.count <= 64, !text.utf8.contains(0) else { return nil }
    var literal = Substring(text)
    var scope: UInt32 = 0
    if let percent = text.firstIndex(of: "%") {
      let zone = text[text.index(after: percent)...]
      literal = text[..<percent]
      guard !zone.isEmpty else { return nil }
      if zone.allSatisfy(\.isASCIIDigit) {
        guard let index = UInt32(zone), index > 0 else { return nil }
        scope = index
      } else {
        scope = clinux_interface_index(String(zone))
        guard scope != 0 else { return nil }
      }
    }
    var raw = [UInt8](repeating: 0, count: 16)
    let family = String(literal).withCString { clinux_inet_parse($0, &raw) }
    switch family {
    case AF_INET where scope == 0: self.init(family: .ipv4, bytes: Array(raw.prefix(4)))
    case AF_INET6: self.init(family: .ipv6, bytes: raw, scopeID: scope)
    default: return nil
    }
  }

  /// The 16 bytes the C helpers take (an IPv4 address in the first 4).
  var paddedBytes: [UInt8] { bytes + [UInt8](repeating: 0, count: 16 - bytes.count) }

  /// From the C helpers' family, 16 bytes and scope.
  init?(cFamily: Int32, paddedBytes: [UInt8], scopeID: UInt32) {
    switch cFamily {
    case AF_INET: self.init(family: .ipv4, bytes: Array(paddedBytes.prefix(4)))
    case AF_INET6: self.init(family: .ipv6, bytes: paddedBytes, scopeID: scopeID)
    default: return nil
    }
  }

  /// 127.0.0.1.
  public static let loopbackIPv4 = IPAddress(family: .ipv4, bytes: [127, 0, 0, 1])!
  /// ::1.
  public static let loopbackIPv6 = IPAddress(
    family: .ipv6, bytes: [UInt8](repeating: 0, count: 15) + [1])!

  /// The usual text (inet_ntop(3)), a scope as its number: `192.168.1.20`, `fe80::1%2`.
  public var description: String {
    var text = [CChar](repeating: 0, count: 64)
    guard clinux_inet_format(family.rawValue, paddedBytes, &text, text.count) == 0 else {
      return bytes.map(String.init).joined(separator: ".")
    }
    let formatted = String(
      decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return scopeID == 0 ? formatted : "\(formatted)%\(scopeID)"
  }
}

/// An address and a port: where a socket connects or listens.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
  public var address: IPAddress
  public var port: UInt16

  public init(_ address: IPAddress, port: UInt16) {
    self.address = address
    self.port = port
  }

  /// `192.168.1.20:4048`, or `[fd00::20]:4048`: an IPv6 address in brackets, as in a URI
  /// (RFC 3986 section 3.2.2).
  public var description: String {
    address.family == .ipv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
  }

  /// From what the C helpers wrote; nil for a family or port they should not have given.
  init?(cFamily: Int32, paddedBytes: [UInt8], scopeID: UInt32, port: Int32) {
    guard let address = IPAddress(cFamily: cFamily, paddedBytes: paddedBytes, scopeID: scopeID),
      let port = UInt16(exactly: port)
    else { return nil }
    self.init(address, port: port)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
