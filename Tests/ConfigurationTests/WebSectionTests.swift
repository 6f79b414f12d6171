// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WorkoutCore

/// The `web:` section: where the web interface listens and the remote's PIN, what is refused
/// (each with its place and hint), and `--print-config`.
@Suite("Web section")
struct WebSectionTests {
  static let presets = "presets:\n  t:\n    mode: tabata\n"

  static func rendered(_ web: String) -> String { LoaderTests.rendered(presets + web) }

  static func web(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> WebSettings?
  {
    configuration(presets + text, sourceLocation: sourceLocation)?.web
  }

  @Test("the section as the issue writes it, and in block form")
  func good() throws {
    let flow = try #require(Self.web("web: {listen: \"0.0.0.0:8080\", pin: \"482193\"}\n"))
    #expect(flow.listen.host == .ipv4([0, 0, 0, 0]))
    #expect(flow.listen.port == 8080)
    #expect(flow.listen.description == "0.0.0.0:8080")
    #expect(flow.pin == "482193")
    #expect(flow == WebSettings(listen: .standard, pin: "482193"), "the bounds' defaults")
    let block = try #require(Self.web("web:\n  listen: \"[::]:8080\"\n  pin: \"004211\"\n"))
    #expect(block.listen.host == .ipv6(Array(repeating: 0, count: 16)))
    #expect(block.listen.isIPv6 && block.listen.description == "[::]:8080")
    // The leading zeros stay: the PIN is text.
    #expect(block.pin == "004211")
  }

  @Test("the names and the bounds of what clients may hold")
  func bounds() throws {
    let web = try #require(
      Self.web(
        "web:\n  hosts: [clock.gym.lan, Wall-Clock]\n  connections: 32\n"
          + "  connections_per_address: 4\n  streams: 16\n  streams_per_address: 2\n"
          + "  request_timeout: 2s\n"))
    #expect(web.hosts == ["clock.gym.lan", "Wall-Clock"])
    #expect(web.connections == 32 && web.connectionsPerAddress == 4)
    #expect(web.streams == 16 && web.streamsPerAddress == 2)
    #expect(web.requestTimeout == .seconds(2))
    #expect(
      Self.rendered("web:\n  hosts: [\"evil example\"]\n").contains(
        "wodclock.yaml:5:11: error: 'evil example' is not a host name"))
    #expect(
      Self.rendered("web:\n  connections: 16\n  streams: 16\n").contains(
        "wodclock.yaml:6:12: error: 'streams' (16) must be fewer than 'connections' (16)"))
    #expect(
      Self.rendered("web:\n  streams_per_address: 9\n").contains(
        "error: 'streams_per_address' (9) is more than 'connections_per_address' (8)"))
    #expect(
      Self.rendered("web:\n  request_timeout: 0s\n").contains("'request_timeout' must be between"))
  }

  @Test("a PIN shorter than 6 digits is taken, with a warning at the PIN")
  func shortPIN() {
    #expect(
      Self.rendered("web:\n  pin: \"4821\"\n") == """
        wodclock.yaml:5:8: warning: a PIN of 4 digits can be guessed from the gym's network in days
          pin: "4821"
               ^~~~~~
        hint: use at least 6 digits, such as pin: "482193": a million PINs hold out for months

        """)
  }

  @Test(
    "every form of listen",
    arguments: [
      ("0.0.0.0:8080", [0, 0, 0, 0], 8080),
      ("127.0.0.1:0", [127, 0, 0, 1], 0),
      ("192.168.1.20:65535", [192, 168, 1, 20], 65535),
      ("localhost:8080", [127, 0, 0, 1], 8080),
      ("LocalHost:80", [127, 0, 0, 1], 80),
      ("[::1]:8080", Array(repeating: 0, count: 15) + [1], 8080),
      ("[fd00::20]:80", [0xFD] + Array(repeating: 0, count: 14) + [0x20], 80),
      (
        "[::ffff:192.168.1.20]:8080", Array(repeating: 0, count: 10) + [255, 255, 192, 168, 1, 20],
        8080
      ),
      (
        "[2001:db8:0:0:1:0:0:1]:8080",
        [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], 8080
      ),
      ("[1:2:3:4:5:6:7::]:1", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0], 1),
    ] as [(String, [UInt8], UInt16)])
  func listen(text: String, bytes: [UInt8], port: UInt16) throws {
    let web = try #require(Self.web("web:\n  listen: \"\(text)\"\n"))
    #expect(web.listen.addressBytes == bytes)
    #expect(web.listen.port == port)
    #expect(web.pin == nil)
  }

  @Test("no section: no web server; an empty one: every IPv4 interface on 8080, display only")
  func defaults() throws {
    #expect(try #require(configuration(Self.presets)).web == nil)
    let empty = try #require(Self.web("web: {}\n"))
    #expect(empty.listen == .standard && empty.listen.description == "0.0.0.0:8080")
    #expect(empty.pin == nil)
  }

  @Test("an unquoted PIN is refused: YAML would read 0042 as 42")
  func unquotedPIN() {
    #expect(
      Self.rendered("web:\n  pin: 0042\n") == """
        wodclock.yaml:5:8: error: the PIN must be in quotes
          pin: 0042
               ^~~~
        hint: write pin: "0042": unquoted, YAML reads a number and drops its leading zeros

        """)
    #expect(Self.rendered("web: {pin: 4821}\n").contains("error: the PIN must be in quotes"))
    // Quoting a PIN of the wrong length would only lead to the next error: the hint says both.
    #expect(
      Self.rendered("web:\n  pin: 42\n").contains(
        "hint: write 6 to 12 digits in quotes, such as pin: \"482193\"; unquoted, YAML reads"))
  }

  @Test(
    "a PIN that is not 4 to 12 digits is refused, without saying it back",
    arguments: [
      ("\"123\"", "the PIN must be 4 to 12 digits, this one has 3"),
      ("\"1234567890123\"", "the PIN must be 4 to 12 digits, this one has 13"),
      ("\"12a4\"", "the PIN must be digits only (0-9)"),
      ("\"12 34\"", "the PIN must be digits only (0-9)"),
      ("\"\u{FF11}\u{FF12}\u{FF13}\u{FF14}\"", "the PIN must be digits only (0-9)"),
      ("''", "the PIN must be digits only (0-9)"),
      ("secret", "expected a PIN of 4 to 12 digits in double quotes, such as \"482193\" for 'pin'"),
      (
        "[1, 2]",
        "expected a PIN of 4 to 12 digits in double quotes, such as \"482193\", found a list"
      ),
    ])
  func badPIN(written: String, message: String) {
    let output = Self.rendered("web:\n  pin: \(written)\n")
    #expect(output.contains("wodclock.yaml:5:8: error: \(message)\n"), "\(output)")
  }

  @Test("a missing PIN value says what to write")
  func emptyPIN() {
    let output = Self.rendered("web:\n  pin:\n")
    #expect(output.contains("error: missing value for 'pin'"), "\(output)")
  }

  @Test("a host name is refused with a hint, the caret under the name")
  func hostName() {
    #expect(
      Self.rendered("web:\n  listen: \"clock.local:8080\"\n") == """
        wodclock.yaml:5:12: error: 'clock.local' is a host name: 'listen' takes an address
          listen: "clock.local:8080"
                   ^~~~~~~~~~~
        hint: write the address of an interface: "0.0.0.0:8080" listens on all of them, "localhost:8080" on this machine only; a name would be looked up when the daemon starts and may change under it

        """)
  }

  @Test("a port out of range is marked where it stands")
  func badPort() {
    #expect(
      Self.rendered("web:\n  listen: 0.0.0.0:80800\n") == """
        wodclock.yaml:5:19: error: the port must be a number from 0 to 65535, found '80800'
          listen: 0.0.0.0:80800
                          ^~~~~
        hint: 8080 is the usual one; 0 lets the system choose a free port

        """)
  }

  @Test(
    "every other wrong listen, each with its message",
    arguments: [
      ("\"0.0.0.0\"", "'listen' needs a port, as in \"0.0.0.0:8080\""),
      ("8080", "'listen' needs an address before the port"),
      ("\":8080\"", "'listen' needs an address before ':'"),
      ("\"0.0.0.0:\"", "'listen' needs a port after ':'"),
      ("\"0.0.0.0:http\"", "the port must be a number from 0 to 65535, found 'http'"),
      ("\"0.0.0.0:-1\"", "the port must be a number from 0 to 65535, found '-1'"),
      ("\"300.1.1.1:8080\"", "'300.1.1.1' is not an IPv4 address"),
      ("\"10.1:8080\"", "'10.1' is not an IPv4 address"),
      ("\"010.0.0.1:8080\"", "'010.0.0.1' is not an IPv4 address"),
      ("\"::1:8080\"", "an IPv6 address in 'listen' goes in brackets before the port"),
      ("\"[::1]\"", "'listen' needs a port after the address"),
      ("\"[::1]8080\"", "'listen' needs a port after the address"),
      ("\"[::1:8080\"", "'[' without its ']' in 'listen'"),
      ("\"[1::2::3]:8080\"", "'1::2::3' is not an IPv6 address"),
      ("\"[1:2:3:4:5:6:7:8:9]:8080\"", "'1:2:3:4:5:6:7:8:9' is not an IPv6 address"),
      ("\"[12345::]:8080\"", "'12345::' is not an IPv6 address"),
      ("\"[:::]:8080\"", "':::' is not an IPv6 address"),
      ("\"[fe80::1%eth0]:8080\"", "a zone ('%' and an interface) is not taken in 'listen'"),
      ("\"*:8080\"", "'*' is a host name: 'listen' takes an address"),
    ])
  func badListen(written: String, message: String) {
    let output = Self.rendered("web:\n  listen: \(written)\n")
    #expect(output.contains("error: \(message)\n"), "\(output)")
    #expect(output.hasPrefix("wodclock.yaml:5:"), "\(output)")
    #expect(output.contains("\nhint: "), "\(output)")
  }

  @Test("an unquoted IPv6 address is a syntax error whose hint says to quote it")
  func unquotedIPv6() {
    #expect(
      Self.rendered("web:\n  listen: [::]:8080\n") == """
        wodclock.yaml:5:12: error: a plain value cannot start with ':'
          listen: [::]:8080
                   ^
        hint: quote the value

        """)
    // A list, however it got there, is refused with the same advice.
    let list = Self.rendered("web:\n  listen: [a, b]\n")
    #expect(list.contains("wodclock.yaml:5:11: error: expected an address and a port such as"))
    #expect(list.contains("hint: write it in double quotes; an IPv6 address goes in brackets"))
  }

  @Test("unknown keys get a did-you-mean, the section must be a mapping")
  func keys() {
    #expect(
      Self.rendered("web:\n  pim: \"4821\"\n") == """
        wodclock.yaml:5:3: error: unknown key 'pim' in 'web'
          pim: "4821"
          ^~~
        hint: did you mean 'pin'?

        """)
    let scalar = Self.rendered("web: on\n")
    #expect(
      scalar.contains("wodclock.yaml:4:6: error: expected a mapping of keys for 'web', found 'on'"))
    #expect(Self.rendered("wb: {}\n").contains("hint: did you mean 'web'?"))
  }

  @Test("--print-config writes the section back, or says it is not set; both load the same")
  func printing() throws {
    let on = try #require(
      configuration(
        Self.presets + "web: {listen: \"[::]:0\", pin: \"004211\", hosts: [clock.lan]}\n"))
    let printed = ConfigurationPrinter.render(on, plugins: TestPlugins.all)
    #expect(
      printed.contains("\nweb:\n  listen: \"[::]:0\"\n  pin: \"004211\"\n  hosts: [clock.lan]"),
      "\(printed)")
    #expect(printed.contains("  streams_per_address: 3\n  request_timeout: 10s\n"), "\(printed)")
    PrinterTests.checkRoundTrip(on)

    let displayOnly = try #require(configuration(Self.presets + "web:\n  listen: localhost:8080\n"))
    let display = ConfigurationPrinter.render(displayOnly, plugins: TestPlugins.all)
    #expect(display.contains("\nweb:\n  listen: \"localhost:8080\"\n  # pin is not set"))
    PrinterTests.checkRoundTrip(displayOnly)

    let off = try #require(configuration(Self.presets))
    #expect(ConfigurationPrinter.render(off, plugins: TestPlugins.all).contains("# web is not set"))
    PrinterTests.checkRoundTrip(off)
  }
}
