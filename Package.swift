// swift-tools-version: 6.0
// wodclock: a gym clock daemon for Linux. See README.md.

import PackageDescription

/// A statically linked Swift standard library comes with `-export-dynamic`, which puts every
/// symbol of the program into its dynamic symbol table (290 KB of names the dynamic loader then
/// hashes through on every lookup at start). Nothing loads plugins into the daemon or looks its
/// symbols up, so they stay private: a smaller, faster-starting process.
let privateSymbols: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]

/// The release daemon is linked with the toolchain's lld, for two things gold cannot do, both
/// about the pages the kernel keeps resident for it:
/// - Relative relocations packed (DT_RELR, glibc 2.36): 23,000 of them in 4 KB instead of a
///   554 KB table read at every start.
/// - The functions the daemon runs placed together first (`hot-functions.order`, written by
///   scripts/order-functions.sh): the kernel maps code in 64 KB windows around each page it
///   touches, so the few hundred KB that run, scattered over 6 MB, kept most of it resident.
/// Measured with a web server and 5 display clients: peak RSS 12.1 MB before, 9.7 MB after.
let daemonLinking: [LinkerSetting] =
  privateSymbols + [
    .unsafeFlags(
      [
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker",
        "--symbol-ordering-file=\(Context.packageDirectory)/Sources/wodclockd/hot-functions.order",
        // Functions of the list that a change renamed or removed are simply not there.
        "-Xlinker", "--no-warn-symbol-ordering",
      ], .when(configuration: .release))
  ]

/// Code that runs once (at start, at a reload, on a command) rather than on every wake-up is
/// optimized for size: its pages are touched at start and count in the daemon's memory.
let sizeOptimized: Set<String> = [
  "ConfigFormat", "Configuration", "JSONKit", "WorkoutNotation", "HardwareKit", "SevenSegment",
  "SegmentDrivers", "WebInterface",
]

extension Target {
  /// A module of the functional core: pure values, given instants, no IO and no clock reads.
  /// It imports the Swift standard library and other pure modules only, and depends on pure
  /// modules only; `make lint` (Tests/scripts/check-layers.py) finds them by this declaration
  /// and holds them to it.
  static func pureTarget(name: String, dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies)
  }
}

let package = Package(
  name: "wodclock",
  products: [
    .executable(name: "wodclockd", targets: ["wodclockd"]),
    .executable(name: "wodclockctl", targets: ["wodclockctl"]),
    .executable(name: "wodclock-bench", targets: ["wodclock-bench"]),
  ],
  targets: [
    // Pure core: the Swift standard library only, no IO, no clock reads.
    .pureTarget(name: "WorkoutCore"),
    .pureTarget(name: "ConfigFormat"),
    .pureTarget(name: "JSONKit"),
    // The whiteboard notation (`amrap 14`, `21-15-9 for time cap 10`): text to plans and back.
    .pureTarget(name: "WorkoutNotation", dependencies: ["WorkoutCore", "ConfigFormat", "JSONKit"]),
    .pureTarget(
      name: "Configuration",
      dependencies: ["WorkoutCore", "ConfigFormat", "DisplayKit", "WorkoutNotation"]),
    .pureTarget(name: "DisplayKit", dependencies: ["WorkoutCore"]),
    // 7-segment rendering: segment font, layout templates, frames. Pure like DisplayKit.
    .pureTarget(name: "SevenSegment", dependencies: ["WorkoutCore", "DisplayKit"]),
    // LED-matrix rendering: fonts, layouts, wiring maps, gamma and power cap. Pure.
    .pureTarget(name: "MatrixKit", dependencies: ["WorkoutCore", "DisplayKit"]),
    // PNG files of matrix pictures, for wodclockctl's snapshots and the golden images: the
    // daemon sends pixels and never carries the encoder. Pure.
    // Deflate (RFC 1951) with its zlib and gzip wrappers' checksums: PNGs and web pages.
    .pureTarget(name: "DeflateCoding"),
    .pureTarget(name: "PNGEncoding", dependencies: ["MatrixKit", "DeflateCoding"]),
    // Pure logic of buttons and keys: debouncing, presses, long presses and combinations; a
    // workout composed on a keypad.
    .pureTarget(name: "ButtonKit", dependencies: ["WorkoutCore"]),
    // Pure logic of sounders: cues to beep schedules, the maximum on-time, quiet hours.
    .pureTarget(name: "SounderKit", dependencies: ["WorkoutCore"]),
    // Pure logic of competition heats: the heat sheet (CSV) with compiler-style diagnostics,
    // lane finishes, tiebreaks, reps at the cap and AMRAP scores as a replayable journal,
    // ranking per division, the results table and CSV, class scores for today's board.
    .pureTarget(name: "HeatKit", dependencies: ["ConfigFormat", "JSONKit"]),
    // Pure logic of speakers: generated sounds, WAV decoding, the spoken lines per language,
    // cues to sounds, the sound schedule, the mixer that fills the PCM buffer, and the player
    // that decides what plays when (SpeakerPlayer).
    .pureTarget(name: "SoundKit", dependencies: ["WorkoutCore", "SounderKit", "DisplayKit"]),
    // How long to wait before trying again (a first wait doubled up to a ceiling): one policy
    // for every part that retries a device, a broker or a plugin. Pure.
    .pureTarget(name: "RetryKit", dependencies: []),
    // The web interface's pure core: routes, access rules, the PIN throttle, sessions, event
    // stream framing, and what a page draws (the clock's laws and the face). Pure.
    .pureTarget(
      name: "WebInterface",
      dependencies: [
        "WorkoutCore", "DisplayKit", "JSONKit", "Configuration", "WorkoutNotation",
      ]),

    // The control socket's protocol, pure: the typed commands, a request line to a command and
    // a command to its line, the replies and events; shared by wodclockd and wodclockctl.
    .pureTarget(name: "ControlProtocol", dependencies: ["WorkoutCore", "JSONKit"]),

    // The link between clocks on an MQTT broker, pure: a room's topics, the leader's state
    // message and how a follower computes the same snapshot from it, commands over the broker,
    // Home Assistant's discovery payloads, the follower's faults as decisions.
    .pureTarget(
      name: "ClockLink",
      dependencies: ["WorkoutCore", "JSONKit", "WorkoutNotation", "Configuration"]),

    // The one layer that talks to the operating system.
    .target(name: "CLinux", linkerSettings: [.linkedLibrary("util")]),
    // libgpiod through pkg-config: 1.6.x (API v1, Debian 12) or 2.x (API v2); CGPIOShim hides
    // which one from Swift and is imported by HardwareKit only.
    .systemLibrary(
      name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
    .target(name: "CGPIOShim", dependencies: ["CGPIOD"]),
    // libudev (device discovery, hotplug) and the evdev ioctls, for USB remotes and keypads;
    // imported by HardwareKit only.
    .systemLibrary(name: "CUDev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
    .target(name: "CEvdevShim"),
    // The order matters: SwiftPM puts the linker search paths of the later system library first,
    // and libudev's (-L/usr/lib/<triplet>) must not come before a private libgpiod v2's, or
    // -lgpiod finds Debian's v1 (Tests/hil/run.sh builds against v2 that way).
    // The one dlopen loader of the four C modules below: open once, resolve a table of symbols,
    // keep the outcome (see CDynamicLibrary.h). Used from C only.
    .target(name: "CDynamicLibrary"),
    // libmicrohttpd for the web interface, loaded with dlopen when a web server starts (never
    // linked: it would cost every start 2.8 MB; see CMicroHTTPD.c). Imported by HardwareKit only.
    .target(name: "CMicroHTTPD", dependencies: ["CDynamicLibrary"]),
    // ALSA (Debian `libasound2-dev` for the header) for the speaker, loaded with dlopen when a
    // sound device or mixer is first opened: a clock without a speaker never maps libasound
    // (see CALSA.c). Imported by HardwareKit only.
    .target(name: "CALSA", dependencies: ["CDynamicLibrary"]),
    // libespeak-ng for the spoken cues, loaded with dlopen in the voice synthesizer's child
    // process only (`wodclockd --synthesize-voice LANG`; see CEspeakNG.c). Imported by
    // HardwareKit only.
    .target(name: "CEspeakNG", dependencies: ["CDynamicLibrary"]),
    // libmosquitto (Debian `libmosquitto-dev` for the header) for the MQTT client, loaded with
    // dlopen when a client is first made: a clock without `mqtt:` never maps it nor OpenSSL
    // (see CMosquitto.c). Imported by HardwareKit only.
    .target(name: "CMosquitto", dependencies: ["CDynamicLibrary"]),
    .target(
      name: "HardwareKit",
      dependencies: [
        "CLinux", "CUDev", "CEvdevShim", "CGPIOShim", "CMicroHTTPD", "CALSA", "CEspeakNG",
        "CMosquitto", "RetryKit",
      ]),
    // The 7-segment chips' wire protocols over GPIO lines, spidev, i2c-dev and serial ports.
    .target(name: "SegmentDrivers", dependencies: ["SevenSegment", "HardwareKit"]),

    // The web interface's files (Sources/WebAssets/files: the display, the remote, their styles
    // and scripts, the exercise catalogue), compiled in with C23 #embed and listed in one table.
    .target(name: "WebAssets", exclude: ["files"], cSettings: [.unsafeFlags(["-std=c23"])]),
    // The version, from the VERSION file at the top (C23 #embed): the one place the binaries,
    // the Debian package (`make deb`) and CHANGELOG.md agree on; read as text by ProductVersion.
    .target(name: "WodclockVersionInfo", cSettings: [.unsafeFlags(["-std=c23"])]),
    .target(name: "ProductVersion", dependencies: ["WodclockVersionInfo"]),

    // Composition: plugins, loop, control socket, CLI.
    .target(
      name: "WodclockDaemon",
      dependencies: [
        "WorkoutCore", "ConfigFormat", "JSONKit", "Configuration", "DisplayKit", "HardwareKit",
        "SevenSegment", "SegmentDrivers", "MatrixKit", "ButtonKit", "SounderKit",
        "SoundKit", "WorkoutNotation", "WebInterface", "WebAssets", "DeflateCoding", "ClockLink",
        "ControlProtocol", "ProductVersion", "RetryKit", "HeatKit",
      ]),
    .executableTarget(
      name: "wodclockd", dependencies: ["WodclockDaemon"], exclude: ["hot-functions.order"],
      linkerSettings: daemonLinking),
    // wodclockctl: the command line client of the daemon's command socket.
    .target(
      name: "WodclockClient",
      dependencies: [
        "ControlProtocol", "ProductVersion", "ConfigFormat", "HardwareKit", "JSONKit",
        "DisplayKit", "MatrixKit", "PNGEncoding", "WorkoutCore", "WorkoutNotation",
        "Configuration",
      ]),
    .executableTarget(
      name: "wodclockctl", dependencies: ["WodclockClient"], linkerSettings: privateSymbols),
    // Hardware-in-the-loop check of the GPIO layer, run inside a gpio-sim VM (Tests/hil).
    .executableTarget(name: "wodclock-gpio-check", dependencies: ["HardwareKit"]),
    // Hardware-in-the-loop check of the bit-banged 7-segment drivers against gpio-sim and of
    // the HT16K33 driver against i2c-stub (Tests/hil); decodes with the tests' decoders.
    .executableTarget(
      name: "wodclock-segment-check",
      dependencies: ["SevenSegment", "SegmentDrivers", "HardwareKit", "SegmentDecoders"]),
    // Hardware-in-the-loop check of ALSAPlayback against the snd-aloop loopback card: clicks at
    // absolute deadlines, recorded back, onset minus deadline; unplug and replug (Tests/hil).
    .executableTarget(
      name: "wodclock-sound-check",
      dependencies: ["HardwareKit", "RetryKit", "WodclockTestSupport"]),
    // A developer tool, not part of the product: it may use the tests' fakes.
    .executableTarget(
      name: "wodclock-bench",
      dependencies: [
        "WorkoutCore", "Configuration", "ConfigFormat", "HardwareKit", "JSONKit", "WodclockDaemon",
        "DisplayKit", "MatrixKit", "SoundKit", "WodclockTestSupport",
      ]),

    // What the tests share: the fake GPIO chips, key devices and PWM tree, the seeded random
    // generator, scratch directories, running programs, manual time. Never a dependency of
    // wodclockd, wodclockctl or their modules (`make lint` checks).
    .target(
      name: "WodclockTestSupport", dependencies: ["HardwareKit", "WorkoutCore"],
      path: "Tests/WodclockTestSupport"),
    .testTarget(
      name: "WodclockTestSupportTests", dependencies: ["WodclockTestSupport", "HardwareKit"]),

    .testTarget(
      name: "WorkoutCoreTests", dependencies: ["WorkoutCore", "JSONKit", "WodclockTestSupport"]),
    .testTarget(
      name: "WorkoutNotationTests",
      dependencies: [
        "WorkoutNotation", "WorkoutCore", "ConfigFormat", "JSONKit", "WodclockTestSupport",
      ]),
    .testTarget(
      name: "ConfigFormatTests",
      dependencies: ["ConfigFormat", "HardwareKit", "WodclockTestSupport"],
      exclude: ["Fixtures", "yaml_compose_compare.py"]),
    .testTarget(
      name: "JSONKitTests", dependencies: ["JSONKit", "HardwareKit", "WodclockTestSupport"]),
    .testTarget(
      name: "ConfigurationTests",
      dependencies: [
        "Configuration", "ConfigFormat", "WorkoutCore", "DisplayKit", "HardwareKit",
        "WodclockTestSupport",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "HardwareKitTests", dependencies: ["HardwareKit", "RetryKit", "WodclockTestSupport"]),
    .testTarget(
      name: "DisplayKitTests", dependencies: ["DisplayKit", "WorkoutCore", "WodclockTestSupport"]),
    // Protocol decoders written from the datasheets, independent of the drivers' encoders:
    // shared by the unit tests and the hardware-in-the-loop check.
    .target(name: "SegmentDecoders", path: "Tests/SegmentDecoders"),
    .testTarget(
      name: "SevenSegmentTests",
      dependencies: [
        "SevenSegment", "SegmentDrivers", "SegmentDecoders", "HardwareKit", "DisplayKit",
        "WorkoutCore", "WodclockTestSupport",
      ]),
    // A PNG reader written from the specifications, to check the pictures MatrixKit and
    // wodclockctl write; shared by the matrix and daemon tests.
    .target(name: "PNGDecoding", path: "Tests/PNGDecoding"),
    .testTarget(
      name: "MatrixKitTests",
      dependencies: [
        "MatrixKit", "PNGEncoding", "DeflateCoding", "DisplayKit", "WorkoutCore", "PNGDecoding",
        "HardwareKit", "WodclockTestSupport",
      ],
      exclude: ["Golden", "Fixtures"]),
    .testTarget(
      name: "DeflateCodingTests", dependencies: ["DeflateCoding", "PNGDecoding", "WebAssets"]),
    .testTarget(
      name: "ButtonKitTests",
      dependencies: ["ButtonKit", "WorkoutCore", "WorkoutNotation", "WodclockTestSupport"]),
    .testTarget(name: "HeatKitTests", dependencies: ["HeatKit", "ConfigFormat"]),
    .testTarget(
      name: "SounderKitTests", dependencies: ["SounderKit", "WorkoutCore", "WodclockTestSupport"]),
    .testTarget(
      name: "SoundKitTests",
      dependencies: ["SoundKit", "SounderKit", "DisplayKit", "WorkoutCore", "WodclockTestSupport"]),
    .testTarget(name: "RetryKitTests", dependencies: ["RetryKit"]),
    .testTarget(name: "WebAssetsTests", dependencies: ["WebAssets", "JSONKit"]),
    .testTarget(
      name: "WebInterfaceTests",
      dependencies: [
        "WebInterface", "WorkoutCore", "DisplayKit", "JSONKit", "Configuration",
        "WorkoutNotation", "WodclockTestSupport",
      ]),
    .testTarget(
      name: "WodclockClientTests",
      dependencies: ["WodclockClient", "ControlProtocol", "JSONKit", "WorkoutCore"]),
    .testTarget(
      name: "ClockLinkTests",
      dependencies: [
        "ClockLink", "WorkoutCore", "JSONKit", "WorkoutNotation", "WodclockDaemon",
        "ControlProtocol",
        "WodclockTestSupport",
      ]),
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "WodclockDaemon", "HardwareKit", "JSONKit", "WorkoutCore", "Configuration",
        "ConfigFormat",
        "DisplayKit", "MatrixKit", "ButtonKit", "PNGDecoding", "ControlProtocol",
        "WodclockTestSupport",
      ]),
  ]
)

/// The C targets, which take no Swift settings.
let cTargets: Set<String> = [
  "CLinux", "CGPIOShim", "CEvdevShim", "CDynamicLibrary", "CMicroHTTPD", "CALSA", "CEspeakNG",
  "CMosquitto", "WebAssets", "WodclockVersionInfo",
]

for target in package.targets where target.type != .system && !cTargets.contains(target.name) {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  if target.type != .test {
    // Regex support (_StringProcessing and _RegexParser) is 0.8 MB of code that the daemon
    // does not use; without the implicit import nothing pulls it in, and every page of code
    // mapped counts against the daemon's 10 MB memory budget.
    settings.append(
      .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"]))
  }
  if sizeOptimized.contains(target.name) {
    settings.append(.unsafeFlags(["-Osize"], .when(configuration: .release)))
  }
  target.swiftSettings = settings
}
