// SPDX-License-Identifier: MIT
// The mqtt section: the broker that links the clocks of a room, and Home Assistant.
//
//   mqtt:
//     broker: "mqtt.local"          # host or address, ":port" optional (1883, 8883 with TLS)
//     tls: {ca_file: mqtt-ca.pem}   # or true for the system's CAs; without it, plain TCP
//     username: front-clock
//     password_file: mqtt-password  # the password on its first line, never in this file
//     room: main
//     role: leader                  # or follower
//     on_conflict: follow           # or standalone: when another clock already leads the room
//     lead: 1s
//     home_assistant: true

import ConfigFormat
import WorkoutCore

/// The bounds of the mqtt section.
public enum MQTTLimits {
  /// How many characters a room, a client id and a part of the discovery prefix have.
  public static let nameLength = 1...64
  /// How far ahead a start takes effect: enough for a message to reach every clock on a busy
  /// network, short enough for a coach to wait.
  public static let lead = TimeSpan.milliseconds(200)...TimeSpan.seconds(10)
  /// The longest user name, in bytes.
  public static let usernameBytes = 256
  /// The longest password (the file's first line), in bytes.
  public static let passwordBytes = 256
  /// A password file longer than this is refused unread: a wrong file was named.
  public static let passwordFileBytes = 4096
  /// A CA file longer than this is refused: Debian's whole bundle of public CAs is 220 KB.
  public static let caFileBytes = 4 << 20
}

extension Loader {
  static let mqttKeys = [
    "broker", "tls", "username", "password_file", "room", "role", "on_conflict", "lead",
    "client_id",
    "home_assistant", "discovery_prefix",
  ]
  static let brokerExample = "\"mqtt.local\""

  mutating func readMQTT(_ node: ConfigNode?) -> MQTTSettings? {
    guard let node,
      let mapping = checker.mapping(
        node, what: "'mqtt'",
        hint: "write 'broker:' and the other keys indented below it, or "
          + "'mqtt: {broker: \(Self.brokerExample), role: follower}'")
    else { return nil }
    let errorsBefore = checker.bag.errorCount
    var broker: HostPortSyntax.Address?
    var settings = MQTTSettings(
      broker: MQTTBroker(host: .ipv4([127, 0, 0, 1]), port: 0, hostText: ""))
    var passwordFileNode: ConfigNode?
    var caFileNode: ConfigNode?
    // A password written in the file is refused by name: the did-you-mean of an unknown key
    // would not say why.
    let entries = mapping.entries.filter { entry in
      guard entry.key.text == "password" else { return true }
      checker.error(
        "the password does not go in the configuration", at: entry.key.range,
        hint: "write it alone on the first line of a file only the daemon's user can read "
          + "(chmod 600), and name that file: 'password_file: mqtt-password'")
      return false
    }
    let known = checker.checkKeys(
      ConfigMapping(entries: entries, style: mapping.style, range: mapping.range),
      allowed: Self.mqttKeys, context: "in 'mqtt'")
    for entry in known {
      let value = entry.value
      switch entry.key.text {
      case "broker":
        broker = readBroker(value)
      case "tls":
        settings.tls = readTLS(value, caFileNode: &caFileNode)
      case "username":
        if let name = checker.text(value, key: "username"), checkUsername(name, at: value) {
          settings.username = name
        }
      case "password_file":
        if let file = readFileSetting(value, key: "password_file") {
          settings.passwordFile = file
          passwordFileNode = value
        }
      case "room":
        if let room = readName(value, key: "room", what: "a room") { settings.room = room }
      case "role":
        let choices = MQTTSettings.Role.allCases.map(\.rawValue)
        if let text = checker.choice(value, key: "role", among: choices) {
          settings.role = MQTTSettings.Role(rawValue: text)!
        }
      case "on_conflict":
        let choices = MQTTSettings.Conflict.allCases.map(\.rawValue)
        if let text = checker.choice(value, key: "on_conflict", among: choices) {
          settings.onConflict = MQTTSettings.Conflict(rawValue: text)!
        }
      case "lead":
        if let span = checker.duration(value, key: "lead", in: MQTTLimits.lead) {
          settings.lead = span
        }
      case "client_id":
        if let id = readName(value, key: "client_id", what: "an MQTT client id") {
          settings.clientID = id
        }
      case "home_assistant":
        if let flag = checker.boolean(value, key: "home_assistant") {
          settings.homeAssistant = flag
        }
      default:
        if let prefix = readDiscoveryPrefix(value) { settings.discoveryPrefix = prefix }
      }
    }
    if mapping["broker"] == nil, !mapping.isIncomplete {
      checker.error(
        "missing key 'broker' in 'mqtt'", at: SourceRange(at: mapping.range.start),
        hint: "name the broker's host, as in 'broker: \(Self.brokerExample)'; "
          + "'broker: localhost' for one on this machine")
    }
    if let node = passwordFileNode, settings.username == nil, mapping["username"] == nil {
      checker.error(
        "'password_file' needs a 'username'", at: node.range,
        hint: "MQTT sends a password only with a user name: add 'username:'")
    }
    guard let broker, checker.bag.errorCount == errorsBefore else { return nil }
    settings.broker = MQTTBroker(broker, tls: settings.tls != nil)
    if let node = passwordFileNode, let file = settings.passwordFile {
      checkPasswordFile(file, at: node)
    }
    if let node = caFileNode, case .caFile(let file) = settings.tls {
      checkCAFile(file, at: node)
    }
    return settings
  }

  // MARK: broker

  /// A broker is reached by name as often as by address (a Pi's `.local` name), and MQTT has a
  /// port of its own (IANA: 1883, 8883 over TLS), so both may be left out of the text.
  static let brokerRules = HostPortSyntax.Rules(
    key: "broker", takesNames: true, defaultPort: MQTTBroker.standardPort, lowestPort: 1,
    examplePort: 1883,
    portOnlyHint: { text in
      "write the broker's host and the port, as in \"mqtt.local:\(text)\" or \"localhost:\(text)\""
    },
    missingHostHint: { text in "write the broker's host, as in \"mqtt.local\(text)\"" },
    zoneHint: "write the broker's global or unique local address: a link-local one needs its "
      + "interface, which may change",
    hostNameHint: "",
    portHint: "1883 is MQTT's port, 8883 with TLS; leave the port out for those",
    ipv6Examples: "\"[fd00::20]\" or \"[fd00::20]:1883\"", ipv6Example: "\"[fd00::20]:1883\"",
    hostWord: "the broker's host")

  private mutating func readBroker(_ node: ConfigNode) -> HostPortSyntax.Address? {
    guard case .scalar = node else {
      checker.error(
        "expected a host and an optional port such as \(Self.brokerExample) for 'broker', found "
          + SchemaChecker.found(node), at: node.range,
        hint: "write it in double quotes; an IPv6 address goes in brackets inside them, as in "
          + "\"[fd00::20]:1883\"")
      return nil
    }
    guard
      let scalar = checker.scalar(
        node, key: "broker", expected: "a host and an optional port such as \(Self.brokerExample)")
    else { return nil }
    switch HostPortSyntax.parse(scalar.text, Self.brokerRules) {
    case .success(let address):
      return address
    case .failure(let problem):
      checker.error(
        problem.message, at: Self.range(of: problem.columns, in: scalar), hint: problem.hint)
      return nil
    }
  }

  // MARK: tls

  static let tlsKeys = ["ca_file"]

  /// `tls: true` (the system's CAs), `false` (none), or `{ca_file: PATH}`.
  private mutating func readTLS(_ node: ConfigNode, caFileNode: inout ConfigNode?) -> MQTTTLS? {
    if case .scalar(let scalar) = node, !scalar.isEmptyValue {
      guard let on = checker.boolean(node, key: "tls") else { return nil }
      return on ? .systemCertificates : nil
    }
    guard
      let mapping = checker.mapping(
        node, what: "'tls'",
        hint: "write 'tls: true' to trust the system's CAs, or 'tls: {ca_file: mqtt-ca.pem}' "
          + "for the broker's own CA")
    else { return nil }
    var tls = MQTTTLS.systemCertificates
    for entry in checker.checkKeys(mapping, allowed: Self.tlsKeys, context: "in 'tls'") {
      if let file = readFileSetting(entry.value, key: "ca_file") {
        tls = .caFile(file)
        caFileNode = entry.value
      }
    }
    return tls
  }

  // MARK: Names and files

  /// A path, resolved beside the config file.
  private mutating func readFileSetting(_ node: ConfigNode, key: String) -> ConfigFileReference? {
    guard let text = checker.text(node, key: key) else { return nil }
    return ConfigFileReference(
      setting: text, path: ConfigFilePath.resolve(text, besideConfig: file))
  }

  private mutating func checkUsername(_ name: String, at node: ConfigNode) -> Bool {
    if name.isEmpty {
      checker.error(
        "the user name is empty", at: node.range,
        hint: "remove 'username' to connect without one")
      return false
    }
    if name.utf8.count > MQTTLimits.usernameBytes {
      checker.error(
        "the user name has \(name.utf8.count) bytes, more than the "
          + "\(MQTTLimits.usernameBytes) allowed", at: node.range, hint: "shorten it")
      return false
    }
    return true
  }

  /// A room or a client id: letters, digits, '_' and '-', 1 to 64 of them. Both go into topics
  /// and the broker's log, where '/', '+' and '#' would mean something else.
  private mutating func readName(_ node: ConfigNode, key: String, what: String) -> String? {
    let expected = "letters, digits, '_' and '-', such as 'main'"
    guard let scalar = checker.scalar(node, key: key, expected: expected) else { return nil }
    if let problem = NameSyntax.problem(scalar.text, key: key, what: what, slashes: false) {
      checker.error(
        problem.message, at: Self.range(of: problem.columns, in: scalar), hint: problem.hint)
      return nil
    }
    return scalar.text
  }

  /// Home Assistant's discovery prefix: names as a room's, parts separated by '/'.
  private mutating func readDiscoveryPrefix(_ node: ConfigNode) -> String? {
    let expected = "a topic prefix such as 'homeassistant'"
    guard let scalar = checker.scalar(node, key: "discovery_prefix", expected: expected) else {
      return nil
    }
    if let problem = NameSyntax.problem(
      scalar.text, key: "discovery_prefix", what: "a topic prefix", slashes: true)
    {
      checker.error(
        problem.message, at: Self.range(of: problem.columns, in: scalar), hint: problem.hint)
      return nil
    }
    return scalar.text
  }

  // MARK: --check-config's reading of the files

  /// The password file, as the daemon will read it: there, readable, a password on its first
  /// line, and (as ssh asks of a key) not readable by anyone else.
  private mutating func checkPasswordFile(_ file: ConfigFileReference, at node: ConfigNode) {
    guard let readFile = system?.readFile else { return }
    switch readFile(file.path, MQTTLimits.passwordFileBytes) {
    case .failed(let reason, let errnoName):
      checker.error(
        "cannot read the password file '\(file.path)': \(reason) (\(errnoName))", at: node.range,
        hint: Self.unreadableHint(file, errnoName: errnoName, what: "the password file"))
    case .tooLarge:
      checker.error(
        "the password file '\(file.path)' is longer than \(MQTTLimits.passwordFileBytes) bytes",
        at: node.range,
        hint: "the password is the file's first line; check that the path names the password file")
    case .read(let bytes, let permissions):
      if case .failure(let problem) = MQTTPassword.read(bytes, file: file.path) {
        checker.error(problem.message, at: node.range, hint: problem.hint)
      }
      if permissions & 0o077 != 0 {
        checker.warning(
          "the password file '\(file.path)' can be read by others (mode "
            + "\(Self.octal(permissions)))", at: node.range,
          hint: "only the daemon's user should read it: 'chmod 600 \(file.path)', owned by "
            + "that user (wodclock)")
      }
    }
  }

  /// The CA file: there, readable, and holding a PEM certificate (what libmosquitto's
  /// `cafile` takes).
  private mutating func checkCAFile(_ file: ConfigFileReference, at node: ConfigNode) {
    guard let readFile = system?.readFile else { return }
    switch readFile(file.path, MQTTLimits.caFileBytes) {
    case .failed(let reason, let errnoName):
      checker.error(
        "cannot read the CA file '\(file.path)': \(reason) (\(errnoName))", at: node.range,
        hint: Self.unreadableHint(file, errnoName: errnoName, what: "the CA certificate"))
    case .tooLarge:
      checker.error(
        "the CA file '\(file.path)' is longer than \(MQTTLimits.caFileBytes >> 20) MB",
        at: node.range, hint: "name the PEM file of the CA that signed the broker's certificate")
    case .read(let bytes, _):
      if !bytes.contains(subsequence: Array("-----BEGIN CERTIFICATE-----".utf8)) {
        checker.error(
          "the CA file '\(file.path)' holds no PEM certificate", at: node.range,
          hint: "name the file of the CA that signed the broker's certificate, in PEM form "
            + "('-----BEGIN CERTIFICATE-----'); 'openssl x509 -inform der' converts a DER one")
      }
    }
  }

  static func unreadableHint(_ file: ConfigFileReference, errnoName: String, what: String)
    -> String?
  {
    switch errnoName {
    case "ENOENT":
      file.setting.hasPrefix("/")
        ? "put \(what) there, or correct the path"
        : "a relative path is read from the config file's directory; put the file there, or "
          + "write its absolute path"
    case "EACCES": "the daemon runs as the user wodclock: make it the file's owner"
    case "EISDIR": "name a file, not a directory"
    default: nil
    }
  }

  /// `0644`.
  static func octal(_ permissions: UInt32) -> String {
    let digits = String(permissions & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

extension MQTTBroker {
  /// The broker `broker:` wrote; without a port, MQTT's, or MQTT over TLS's with `tls`.
  init(_ address: HostPortSyntax.Address, tls: Bool) {
    let host: Host =
      switch address.host {
      case .ipv4(let bytes): .ipv4(bytes)
      case .ipv6(let bytes): .ipv6(bytes)
      case .localhost: .ipv4([127, 0, 0, 1])
      case .name(let name): .name(name)
      }
    let port =
      address.portWritten ? address.port : tls ? Self.standardTLSPort : Self.standardPort
    self.init(host: host, port: port, hostText: address.hostText)
  }
}

/// The password in a password file's bytes: its first line, without the line's end.
public enum MQTTPassword {
  /// Why a file holds no usable password.
  public struct Problem: Error, Equatable {
    public var message: String
    public var hint: String?
  }

  /// The first line of `bytes` without its `\n` (or `\r\n`, as an editor on Windows writes
  /// it): 1 to ``MQTTLimits/passwordBytes`` bytes of UTF-8, no NUL (libmosquitto takes it as
  /// a C string). What follows the first line is not read.
  public static func read(_ bytes: [UInt8], file: String) -> Result<String, Problem> {
    let named = "the password file '\(file)'"
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    if line.isEmpty {
      return .failure(
        Problem(
          message: bytes.isEmpty
            ? "\(named) is empty" : "the first line of \(named) is empty",
          hint: "write the password on the file's first line"))
    }
    if line.count > MQTTLimits.passwordBytes {
      return .failure(
        Problem(
          message: "the first line of \(named) has \(line.count) bytes, more than the "
            + "\(MQTTLimits.passwordBytes) allowed",
          hint: "the password is the first line alone; check that the path names the password "
            + "file"))
    }
    if line.contains(0) {
      return .failure(
        Problem(
          message: "the first line of \(named) holds a NUL byte",
          hint: "write the password as text"))
    }
    guard let text = String(validating: line, as: UTF8.self) else {
      return .failure(
        Problem(
          message: "the first line of \(named) is not UTF-8 text",
          hint: "write the password as text, in UTF-8"))
    }
    return .success(text)
  }
}

/// Names that go into MQTT topics and ids: letters, digits, '_' and '-' (Home Assistant's
/// rule for the parts of a discovery topic, and what every broker takes as a client id).
enum NameSyntax {
  /// What is wrong with `text`, or nil. With `slashes`, '/' separates parts of such names.
  static func problem(_ text: String, key: String, what: String, slashes: Bool)
    -> HostPortSyntax.Problem?
  {
    let allowed = "letters, digits, '_' and '-'" + (slashes ? ", parts separated by '/'" : "")
    let scalars = Array(text.unicodeScalars)
    if scalars.isEmpty {
      return HostPortSyntax.Problem(
        message: "'\(key)' is empty", hint: "\(what) has \(allowed)", columns: nil)
    }
    var partStart = 0
    for (index, character) in scalars.enumerated() {
      switch character {
      case "a"..."z", "A"..."Z", "0"..."9", "_", "-":
        continue
      case "/" where slashes && index > partStart && index < scalars.count - 1:
        partStart = index + 1
        continue
      default:
        let shown =
          SchemaChecker.isControl(character)
          ? SchemaChecker.codePoint(character)
          : character == " " ? "a space" : "'\(character)'"
        return HostPortSyntax.Problem(
          message: "'\(key)' has \(shown) at character \(index + 1): \(what) has \(allowed)",
          hint: character == " " || character == "." ? "write '-' or '_' instead" : nil,
          columns: index..<index + 1)
      }
    }
    let longest = scalars.split(separator: "/").map(\.count).max() ?? 0
    if longest > MQTTLimits.nameLength.upperBound {
      return HostPortSyntax.Problem(
        message: "'\(key)' has \(longest) characters" + (slashes ? " in a part" : "")
          + ", more than the \(MQTTLimits.nameLength.upperBound) allowed",
        hint: "shorten it", columns: nil)
    }
    return nil
  }
}

extension Array where Element == UInt8 {
  /// Whether `needle` occurs in the bytes.
  fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, count >= needle.count else { return needle.isEmpty }
    return (0...(count - needle.count)).contains { start in
      self[start..<start + needle.count].elementsEqual(needle)
    }
  }
}
