// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WorkoutCore

/// The `mqtt:` section: the broker, TLS, the credentials' file, the room and the role, Home
/// Assistant; what is refused (each with its place and hint), the files `--check-config` reads
/// through the system lookup, and `--print-config`.
@Suite("MQTT section")
struct MQTTSectionTests {
  static let presets = "presets:\n  t:\n    mode: tabata\n"

  static func rendered(_ mqtt: String) -> String { LoaderTests.rendered(presets + mqtt) }

  static func mqtt(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> MQTTSettings?
  {
    configuration(presets + text, sourceLocation: sourceLocation)?.mqtt
  }

  /// The one error of `mqtt`, as `LINE:COLUMN: error: MESSAGE` plus its hint.
  static func error(_ mqtt: String) -> (String, String?) {
    let result = load(presets + mqtt)
    let errors = result.errors
    guard errors.count == 1, let only = errors.first else {
      return ("\(errors.count) errors: \(errors.map(\.message))", nil)
    }
    return ("\(only.location.line):\(only.location.column): \(only.message)", only.hint)
  }

  @Test("no section: no link; a broker alone: every default")
  func defaults() throws {
    #expect(try #require(configuration(Self.presets)).mqtt == nil)
    let settings = try #require(Self.mqtt("mqtt:\n  broker: mqtt.local\n"))
    #expect(
      settings.broker == MQTTBroker(host: .name("mqtt.local"), port: 1883, hostText: "mqtt.local"))
    #expect(settings.tls == nil)
    #expect(settings.username == nil && settings.passwordFile == nil)
    #expect(settings.room == "main")
    #expect(settings.role == .leader)
    #expect(settings.lead == .seconds(1))
    #expect(settings.clientID == nil)
    #expect(settings.homeAssistant == false)
    #expect(settings.discoveryPrefix == "homeassistant")
  }

  @Test("every key, in block and in flow form")
  func everyKey() throws {
    let block = try #require(
      Self.mqtt(
        """
        mqtt:
          broker: "[fd00::20]:1884"
          tls: {ca_file: certs/gym-ca.pem}
          username: front-clock
          password_file: /etc/wodclock/mqtt-password
          room: Room_2
          role: follower
          on_conflict: standalone
          lead: 1500ms
          client_id: wodclock-front
          home_assistant: true
          discovery_prefix: ha/discovery

        """))
    #expect(block.broker.host == .ipv6([0xFD] + Array(repeating: 0, count: 14) + [0x20]))
    #expect(block.broker.description == "[fd00::20]:1884")
    // Beside the config file (test.yaml, in the working directory).
    #expect(
      block.tls
        == .caFile(ConfigFileReference(setting: "certs/gym-ca.pem", path: "certs/gym-ca.pem")))
    #expect(block.username == "front-clock")
    #expect(block.passwordFile?.path == "/etc/wodclock/mqtt-password")
    #expect(block.room == "Room_2" && block.role == .follower && block.lead == .milliseconds(1500))
    #expect(block.clientID == "wodclock-front" && block.onConflict == .standalone)
    #expect(block.homeAssistant && block.discoveryPrefix == "ha/discovery")
    let flow = try #require(
      Self.mqtt("mqtt: {broker: \"192.168.1.20\", role: follower, room: hall}\n"))
    #expect(flow.broker.host == .ipv4([192, 168, 1, 20]) && flow.broker.port == 1883)
    #expect(flow.onConflict == .follow)
    #expect(
      Self.rendered("mqtt:\n  broker: localhost\n  on_conflict: fight\n").contains(
        "error: 'on_conflict' must be"))
    #expect(flow.role == .follower && flow.room == "hall")
  }

  @Test("a relative file is read beside the config file, as the speaker's WAV files are")
  func filesBesideTheConfig() throws {
    let text =
      Self.presets + "mqtt:\n  broker: localhost\n  username: u\n  password_file: mqtt-password\n"
      + "  tls: {ca_file: /etc/ssl/gym.pem}\n"
    let result = ConfigurationLoader.load(
      text: text, file: "/etc/wodclock/wodclock.yaml", plugins: TestPlugins.all)
    let settings = try #require(result.configuration?.mqtt)
    #expect(
      settings.passwordFile
        == ConfigFileReference(setting: "mqtt-password", path: "/etc/wodclock/mqtt-password"))
    #expect(
      settings.tls
        == .caFile(ConfigFileReference(setting: "/etc/ssl/gym.pem", path: "/etc/ssl/gym.pem")))
  }

  @Test(
    "the broker's forms, the port from TLS when none is written",
    arguments: [
      ("mqtt.local", "", MQTTBroker.Host.name("mqtt.local"), 1883),
      ("mqtt.local", "\n  tls: true", .name("mqtt.local"), 8883),
      ("mqtt.local:1884", "\n  tls: true", .name("mqtt.local"), 1884),
      ("pi-front", "\n  tls: false", .name("pi-front"), 1883),
      ("3com.example.", "", .name("3com.example."), 1883),
      ("localhost", "", .ipv4([127, 0, 0, 1]), 1883),
      ("LOCALHOST:65535", "", .ipv4([127, 0, 0, 1]), 65535),
      ("10.0.0.5:1", "", .ipv4([10, 0, 0, 5]), 1),
      ("[::1]", "\n  tls: {}", .ipv6(Array(repeating: 0, count: 15) + [1]), 8883),
    ] as [(String, String, MQTTBroker.Host, UInt16)])
  func broker(text: String, more: String, host: MQTTBroker.Host, port: UInt16) throws {
    let settings = try #require(Self.mqtt("mqtt:\n  broker: \"\(text)\"\(more)\n"))
    #expect(settings.broker.host == host)
    #expect(settings.broker.port == port)
  }

  @Test("a host name with a character it cannot hold is marked at that character")
  func badHostName() {
    #expect(
      Self.rendered("mqtt:\n  broker: \"mqtt_box.local\"\n") == """
        wodclock.yaml:5:16: error: the host name in 'broker' has '_' at character 5, which a host name cannot hold
          broker: "mqtt_box.local"
                       ^
        hint: a host name has letters, digits, '-' and '.', as in "mqtt.local"; or write the broker's address

        """)
  }

  @Test(
    "every other wrong broker, each with its message and a hint",
    arguments: [
      ("\"1883\"", "'broker' needs the broker's host before the port"),
      ("\":1883\"", "'broker' needs the broker's host before ':'"),
      ("\"mqtt.local:\"", "'broker' needs a port after ':'"),
      ("\"mqtt.local:0\"", "the port must be a number from 1 to 65535, found '0'"),
      ("\"mqtt.local:65536\"", "the port must be a number from 1 to 65535, found '65536'"),
      ("\"mqtt.local:mqtt\"", "the port must be a number from 1 to 65535, found 'mqtt'"),
      ("\"10.1\"", "'10.1' is not an IPv4 address"),
      ("\"fd00::20\"", "an IPv6 address in 'broker' goes in brackets before the port"),
      ("\"[fd00::20\"", "'[' without its ']' in 'broker'"),
      ("\"[fd00::2g]\"", "'fd00::2g' is not an IPv6 address"),
      ("\"[fe80::1%eth0]\"", "a zone ('%' and an interface) is not taken in 'broker'"),
      ("\"[::1]x\"", "'broker' needs a port after the address"),
      ("\"mqtt..local\"", "an empty part in the host name in 'broker', at character 6"),
      (
        "\"-mqtt.local\"",
        "a part of the host name in 'broker' starts or ends with '-', at character 1"
      ),
      (
        "\"mqtt-.local\"",
        "a part of the host name in 'broker' starts or ends with '-', at character 5"
      ),
      (
        "\"mqtt local\"",
        "the host name in 'broker' has ' ' at character 5, which a host name cannot hold"
      ),
      (
        "\"\(String(repeating: "a", count: 64)).local\"",
        "a part of the host name in 'broker' is longer than 63 characters"
      ),
      (
        "[a, b]",
        "expected a host and an optional port such as \"mqtt.local\" for 'broker', found a list"
      ),
    ])
  func badBroker(written: String, message: String) {
    let output = Self.rendered("mqtt:\n  broker: \(written)\n")
    #expect(output.contains("error: \(message)\n"), "\(output)")
    #expect(output.hasPrefix("wodclock.yaml:5:"), "\(output)")
    #expect(output.contains("\nhint: "), "\(output)")
  }

  @Test("the broker is required; a missing one says how to name this machine's")
  func missingBroker() {
    let (message, hint) = Self.error("mqtt:\n  room: main\n")
    #expect(message == "5:3: missing key 'broker' in 'mqtt'")
    #expect(
      hint
        == "name the broker's host, as in 'broker: \"mqtt.local\"'; 'broker: localhost' for one on this machine"
    )
    #expect(Self.error("mqtt: {}\n").0 == "4:7: missing key 'broker' in 'mqtt'")
  }

  @Test("a password in the file is refused with the hint to use password_file")
  func password() {
    #expect(
      Self.rendered("mqtt:\n  broker: localhost\n  username: u\n  password: hunter2\n") == """
        wodclock.yaml:7:3: error: the password does not go in the configuration
          password: hunter2
          ^~~~~~~~
        hint: write it alone on the first line of a file only the daemon's user can read (chmod 600), and name that file: 'password_file: mqtt-password'

        """)
  }

  @Test("a password file needs a user name; an empty or overlong user name is refused")
  func username() {
    let (message, hint) = Self.error("mqtt:\n  broker: localhost\n  password_file: pw\n")
    #expect(message == "6:18: 'password_file' needs a 'username'")
    #expect(hint == "MQTT sends a password only with a user name: add 'username:'")
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  username: \"\"\n").0
        == "6:13: the user name is empty")
    let long = String(repeating: "u", count: MQTTLimits.usernameBytes + 1)
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  username: \(long)\n").0
        == "6:13: the user name has 257 bytes, more than the 256 allowed")
  }

  @Test(
    "a room or a client id names the wrong character and where it stands",
    arguments: [
      (
        "room", "front room",
        "6:14: 'room' has a space at character 6: a room has letters, digits, '_' and '-'",
        "write '-' or '_' instead"
      ),
      (
        "room", "gym/1",
        "6:12: 'room' has '/' at character 4: a room has letters, digits, '_' and '-'", nil
      ),
      (
        "room", "salle-\u{E9}",
        "6:15: 'room' has '\u{E9}' at character 7: a room has letters, digits, '_' and '-'", nil
      ),
      (
        "room", "\"a+b\"",
        "6:11: 'room' has '+' at character 2: a room has letters, digits, '_' and '-'", nil
      ),
      ("room", "\"\"", "6:9: 'room' is empty", "a room has letters, digits, '_' and '-'"),
      (
        "room", String(repeating: "r", count: 65),
        "6:9: 'room' has 65 characters, more than the 64 allowed", "shorten it"
      ),
      (
        "client_id", "clock.front",
        "6:19: 'client_id' has '.' at character 6: an MQTT client id has letters, digits, '_' and '-'",
        "write '-' or '_' instead"
      ),
      (
        "client_id", String(repeating: "c", count: 65),
        "6:14: 'client_id' has 65 characters, more than the 64 allowed", "shorten it"
      ),
    ] as [(String, String, String, String?)])
  func badName(key: String, value: String, message: String, hint: String?) {
    let (found, foundHint) = Self.error("mqtt:\n  broker: localhost\n  \(key): \(value)\n")
    #expect(found == message)
    #expect(foundHint == hint)
  }

  @Test("the longest names pass: 64 characters")
  func longestNames() throws {
    let name = String(repeating: "a", count: 64)
    let settings = try #require(
      Self.mqtt("mqtt:\n  broker: localhost\n  room: \(name)\n  client_id: \(name)\n"))
    #expect(settings.room == name && settings.clientID == name)
  }

  @Test("the role, lead, Home Assistant and its prefix are checked like the other sections' keys")
  func otherKeys() {
    let role = Self.error("mqtt:\n  broker: localhost\n  role: folower\n")
    #expect(role.0 == "6:9: 'role' must be 'leader' or 'follower', found 'folower'")
    #expect(role.1 == "did you mean 'follower'?")
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  lead: 100ms\n").0
        == "6:9: 'lead' must be between 200ms and 10s, got 100ms")
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  lead: 11s\n").0
        == "6:9: 'lead' must be between 200ms and 10s, got 11s")
    #expect(Self.mqtt("mqtt:\n  broker: localhost\n  lead: 200ms\n")?.lead == .milliseconds(200))
    #expect(Self.mqtt("mqtt:\n  broker: localhost\n  lead: 10s\n")?.lead == .seconds(10))
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  home_assistant: yes\n").0.hasPrefix("6:19: "))
    let prefix = Self.error("mqtt:\n  broker: localhost\n  discovery_prefix: ha/\n")
    #expect(
      prefix.0
        == "6:23: 'discovery_prefix' has '/' at character 3: a topic prefix has letters, digits, "
        + "'_' and '-', parts separated by '/'")
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  discovery_prefix: \"ha/#\"\n").0.hasPrefix(
        "6:25: 'discovery_prefix' has '#' at character 4"))
  }

  @Test("tls is true, false or {ca_file: PATH}")
  func tls() {
    #expect(Self.mqtt("mqtt:\n  broker: localhost\n  tls: true\n")?.tls == .systemCertificates)
    #expect(Self.mqtt("mqtt:\n  broker: localhost\n  tls: false\n")?.tls == nil)
    let key = Self.error("mqtt:\n  broker: localhost\n  tls: {ca: x.pem}\n")
    #expect(key.0 == "6:9: unknown key 'ca' in 'tls'")
    #expect(key.1 == "allowed keys: ca_file")
    #expect(
      Self.error("mqtt:\n  broker: localhost\n  tls: [x]\n").0
        == "6:8: expected a mapping of keys for 'tls', found a list")
    #expect(Self.error("mqtt:\n  broker: localhost\n  tls: on\n").0.hasPrefix("6:8: "))
  }

  @Test("unknown keys get a did-you-mean, the section must be a mapping")
  func keys() {
    #expect(
      Self.rendered("mqtt:\n  broker: localhost\n  rooom: main\n") == """
        wodclock.yaml:6:3: error: unknown key 'rooom' in 'mqtt'
          rooom: main
          ^~~~~
        hint: did you mean 'room'?

        """)
    #expect(
      Self.rendered("mqtt: on\n").contains(
        "wodclock.yaml:4:7: error: expected a mapping of keys for 'mqtt', found 'on'"))
    #expect(Self.rendered("mqqt: {}\n").contains("hint: did you mean 'mqtt'?"))
  }

  @Test("--print-config writes the section back, or says it is not set; both load the same")
  func printing() throws {
    let full = try #require(
      configuration(
        Self.presets
          + "mqtt: {broker: \"[fd00::20]\", tls: {ca_file: ca.pem}, username: \"yes\", "
          + "password_file: pw, room: hall, role: follower, lead: 2s, client_id: c1, "
          + "home_assistant: true, discovery_prefix: ha}\n"))
    let printed = ConfigurationPrinter.render(full, plugins: TestPlugins.all)
    #expect(
      printed.contains(
        """

        mqtt:
          broker: "[fd00::20]:8883"
          tls: {ca_file: ca.pem}
          username: "yes"
          password_file: pw
          room: hall
          role: follower  # leader or follower
          on_conflict: follow  # follow or standalone, when another clock already leads the room
          lead: 2s
          client_id: c1
          home_assistant: true
          discovery_prefix: ha

        """), "\(printed)")
    PrinterTests.checkRoundTrip(full)

    let plain = try #require(configuration(Self.presets + "mqtt:\n  broker: mqtt.local\n"))
    let text = ConfigurationPrinter.render(plain, plugins: TestPlugins.all)
    #expect(text.contains("  broker: \"mqtt.local:1883\"\n  tls: false\n  # username is not set"))
    #expect(text.contains("  # client_id is not set: made from the host name\n"))
    PrinterTests.checkRoundTrip(plain)
    let system = try #require(
      configuration(Self.presets + "mqtt:\n  broker: mqtt.local\n  tls: true\n"))
    PrinterTests.checkRoundTrip(system)

    let off = try #require(configuration(Self.presets))
    #expect(
      ConfigurationPrinter.render(off, plugins: TestPlugins.all).contains("# mqtt is not set"))
  }
}

/// What `--check-config` finds in the password and CA files, through a system lookup that
/// answers for the files.
@Suite("MQTT files as --check-config reads them")
struct MQTTFileTests {
  static let text =
    "presets:\n  a:\n    mode: amrap\n    time: 1m\nmqtt:\n  broker: localhost\n"
    + "  username: clock\n  password_file: secret\n  tls: {ca_file: ca.pem}\n"
  static let certificate = Array(
    "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8)

  /// Loads `text` from /etc/wodclock with `password` and `ca` as the files' answers.
  static func loaded(
    password: SystemLookup.FileRead,
    ca: SystemLookup.FileRead = .read(bytes: certificate, permissions: 0o644)
  ) -> ConfigurationLoadResult {
    ConfigurationLoader.load(
      bytes: Array(text.utf8), file: "/etc/wodclock/test.yaml", plugins: TestPlugins.all,
      system: SystemLookup(
        group: { _ in .found },
        readFile: { path, maximum in
          switch path {
          case "/etc/wodclock/secret":
            #expect(maximum == MQTTLimits.passwordFileBytes)
            return password
          case "/etc/wodclock/ca.pem":
            return ca
          default:
            return .failed(reason: "no such file or directory", errnoName: "ENOENT")
          }
        }))
  }

  static func lines(_ result: ConfigurationLoadResult) -> [String] {
    result.diagnostics.map {
      "\($0.location.line):\($0.location.column): \($0.severity): \($0.message)"
        + ($0.hint.map { " | \($0)" } ?? "")
    }
  }

  @Test("a readable password file of the owner alone, and a PEM CA file: no diagnostic")
  func good() {
    let result = Self.loaded(
      password: .read(bytes: Array("s3cret\nignored\n".utf8), permissions: 0o600))
    #expect(result.diagnostics.isEmpty, "\(Self.lines(result))")
    #expect(result.configuration?.mqtt?.passwordFile?.path == "/etc/wodclock/secret")
  }

  static let passwordProblems: [(SystemLookup.FileRead, String)] = [
    (
      SystemLookup.FileRead.failed(reason: "no such file or directory", errnoName: "ENOENT"),
      "8:18: error: cannot read the password file '/etc/wodclock/secret': no such file or "
        + "directory (ENOENT) | a relative path is read from the config file's directory; put "
        + "the file there, or write its absolute path"
    ),
    (
      .failed(reason: "permission denied", errnoName: "EACCES"),
      "8:18: error: cannot read the password file '/etc/wodclock/secret': permission denied "
        + "(EACCES) | the daemon runs as the user wodclock: make it the file's owner"
    ),
    (
      .read(bytes: [], permissions: 0o600),
      "8:18: error: the password file '/etc/wodclock/secret' is empty | write the password on "
        + "the file's first line"
    ),
    (
      .read(bytes: Array("\nsecond\n".utf8), permissions: 0o600),
      "8:18: error: the first line of the password file '/etc/wodclock/secret' is empty | "
        + "write the password on the file's first line"
    ),
    (
      .read(bytes: Array(repeating: UInt8(ascii: "x"), count: 257), permissions: 0o600),
      "8:18: error: the first line of the password file '/etc/wodclock/secret' has 257 bytes, "
        + "more than the 256 allowed | the password is the first line alone; check that the "
        + "path names the password file"
    ),
    (
      .tooLarge,
      "8:18: error: the password file '/etc/wodclock/secret' is longer than 4096 bytes | the "
        + "password is the file's first line; check that the path names the password file"
    ),
    (
      .read(bytes: Array("s3cret\n".utf8), permissions: 0o640),
      "8:18: warning: the password file '/etc/wodclock/secret' can be read by others (mode "
        + "0640) | only the daemon's user should read it: 'chmod 600 /etc/wodclock/secret', "
        + "owned by that user (wodclock)"
    ),
  ]

  @Test(
    "each thing wrong with the password file, at the value, with its hint",
    arguments: passwordProblems)
  func badPasswordFile(answer: SystemLookup.FileRead, line: String) {
    #expect(Self.lines(Self.loaded(password: answer)) == [line])
  }

  @Test("a CA file that is missing or holds no certificate is an error at ca_file")
  func badCAFile() {
    let good = SystemLookup.FileRead.read(bytes: Array("pw\n".utf8), permissions: 0o400)
    #expect(
      Self.lines(
        Self.loaded(
          password: good, ca: .failed(reason: "no such file or directory", errnoName: "ENOENT")))
        == [
          "9:18: error: cannot read the CA file '/etc/wodclock/ca.pem': no such file or directory "
            + "(ENOENT) | a relative path is read from the config file's directory; put the file "
            + "there, or write its absolute path"
        ])
    let der = Self.lines(
      Self.loaded(password: good, ca: .read(bytes: [0x30, 0x82], permissions: 0o644)))
    #expect(
      der.count == 1
        && der[0].hasPrefix(
          "9:18: error: the CA file '/etc/wodclock/ca.pem' holds no PEM certificate"),
      "\(der)")
  }

  @Test("the password is the first line without its line end, CRLF too")
  func passwordText() throws {
    #expect(try MQTTPassword.read(Array("pässword\r\nnext".utf8), file: "f").get() == "pässword")
    #expect(try MQTTPassword.read(Array("a b\n".utf8), file: "f").get() == "a b")
    #expect(try MQTTPassword.read(Array("no-newline".utf8), file: "f").get() == "no-newline")
    #expect(throws: MQTTPassword.Problem.self) {
      try MQTTPassword.read([0x61, 0, 0x62], file: "f").get()
    }
    #expect(throws: MQTTPassword.Problem.self) {
      try MQTTPassword.read([0xFF, 0xFE], file: "f").get()
    }
  }

  @Test("without a system to ask (a reload, the tests), the files are not read")
  func notRead() {
    let result = ConfigurationLoader.load(
      bytes: Array(Self.text.utf8), file: "/etc/wodclock/test.yaml", plugins: TestPlugins.all)
    #expect(result.diagnostics.isEmpty)
  }
}
