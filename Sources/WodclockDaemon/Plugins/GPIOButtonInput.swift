// SPDX-License-Identifier: MIT
// `gpio-button` input: arcade buttons on GPIO lines, with press, long press and two-button
// combinations, each operating a control of the config's `controls:` section.
//
// Edge events come from the line requests' descriptors in the daemon's loop, never by polling
// (libgpiod.md §2 "Events", §3 `gpiod_line_request_get_fd`); debouncing and gestures are
// ButtonKit's, decided on the kernel's timestamps.

import ButtonKit
import ConfigFormat
import Configuration
import HardwareKit
import WorkoutCore

/// Buttons on GPIO lines. One instance holds every button that may take part in a combination.
public final class GPIOButtonInput: InputPlugin {
  struct Button: Equatable {
    var line: String
    var chip: String
    var activeLow: Bool
    var bias: GPIOBias
    var debounce: Int64
    var longPress: Int64
    var control: String

    /// One entry of `buttons:`.
    init(section: PluginSettings) throws(SettingReadError) {
      line = try section[ButtonSetting.line]
      chip = try section[ButtonSetting.chip]
      activeLow = try section[ButtonSetting.activeLow]
      bias = try section[ButtonSetting.bias]
      debounce = try section[ButtonSetting.debounce].nanoseconds
      longPress = try section[ButtonSetting.longPress].nanoseconds
      control = try section[ButtonSetting.control]
    }
  }

  /// One entry of `combinations:`, as written: the buttons by their lines.
  struct CombinationEntry: Equatable {
    var lines: [String]
    var control: String
    var hold: TimeSpan

    init(section: PluginSettings) throws(SettingReadError) {
      lines = try section[CombinationSetting.lines]
      control = try section[CombinationSetting.control]
      hold = try section[CombinationSetting.hold]
    }
  }

  struct Combination: Equatable {
    var first: Int
    var second: Int
    var hold: Int64
    var control: String
  }

  private struct Held {
    var request: any GPIOInputRequest
    /// Chip offset to button index.
    var buttons: [Int: Int]
  }

  public let id: String
  public let kind = GPIOButtonInput.kindName
  let buttons: [Button]
  let combinations: [Combination]
  private let source: GPIOChipSource
  private var held: [Held] = []
  private var bank: ButtonBank?
  private var context: PluginContext?

  public static let kindName = "gpio-button"

  /// The keys of one entry of `buttons:`.
  enum ButtonSetting {
    static let line = Setting(
      "line", .string, default: nil, "GPIO line: an offset (17) or a name (GPIO17)")
    static let control = Setting(
      "control", .string, default: nil, "the control it operates (see controls:)")
    static let chip = Setting(
      "chip", .string, default: GPIOLines.automatic,
      "auto finds the chip with the named line (or the Pi header's); or a path, name or label")
    static let activeLow = Setting(
      "active_low", .boolean, default: true, "pressed pulls the line low (to ground)")
    static let bias = Setting(
      "bias",
      .choice(among: [
        ("pull-up", GPIOBias.pullUp), ("pull-down", .pullDown), ("disabled", .disabled),
        ("as-is", .asIs),
      ]), default: .pullUp, "the line's pull resistor: pull-up, pull-down, disabled or as-is")
    static let debounce = Setting(
      "debounce", .duration(.milliseconds(0)...(.seconds(1))), default: .milliseconds(30),
      "a change counts once the line has settled this long")
    static let longPress = Setting(
      "long_press", .duration(.milliseconds(100)...(.seconds(30))), default: .milliseconds(800),
      "held this long is a long press")

    static let all = [
      line.spec, control.spec, chip.spec, activeLow.spec, bias.spec, debounce.spec,
      longPress.spec,
    ]
  }

  /// The keys of one entry of `combinations:`.
  enum CombinationSetting {
    static let lines = Setting(
      "lines", .list(.string), default: nil, "the two buttons' lines, as written above")
    static let control = Setting(
      "control", .string, default: nil, "the control whose press it is")
    static let hold = Setting(
      "hold", .duration(.milliseconds(100)...(.seconds(30))), default: .seconds(2),
      "both held together this long")

    static let all = [lines.spec, control.spec, hold.spec]
  }

  static let buttons = Setting(
    "buttons", .list(.section(ButtonSetting.all, read: Button.init(section:))), default: nil,
    "one entry per button")
  static let combinations = Setting(
    "combinations", .list(.section(CombinationSetting.all, read: CombinationEntry.init(section:))),
    default: [], "two buttons held together; they then give up their own press and long press")

  public static let schema = PluginSchema(
    kind: kindName, direction: .input,
    summary: "push buttons on GPIO lines: press, long press, two-button combinations",
    settings: [buttons.spec, combinations.spec],
    crossCheck: crossCheck,
    claims: { settings in
      try settings[buttons].map { button in
        ResourceClaim(
          kind: "GPIO line", identity: GPIOLines.identity(chip: button.chip, line: button.line),
          key: buttons.name)
      }
    },
    controls: { settings in
      try settings[buttons].enumerated().map { index, button in
        ControlReference(name: button.control, key: buttons.name, item: index)
      }
        + settings[combinations].enumerated().map { index, combination in
          ControlReference(name: combination.control, key: combinations.name, item: index)
        }
    })

  static func crossCheck(_ settings: PluginSettings, _ bag: inout DiagnosticBag) throws {
    let range = settings.range(of: buttons)
    let entries = try settings[buttons]
    if entries.isEmpty {
      bag.error(
        "'buttons' lists no buttons", at: range,
        hint: "add '- {line: GPIO17, control: start}'")
    }
    for button in entries {
      GPIOLines.checkLine(button.line, at: range, &bag)
      GPIOLines.checkChip(button.chip, at: range, &bag)
    }
    let written = entries.map(\.line)
    let comboRange = settings.range(of: combinations)
    for combination in try settings[combinations] {
      let named = combination.lines
      guard named.count == 2, named[0] != named[1] else {
        bag.error(
          "a combination needs two different buttons, found \(named.count == 2 ? "one twice" : "\(named.count)")",
          at: comboRange,
          hint:
            "write 'lines: [\(written.first ?? "GPIO17"), \(written.dropFirst().first ?? "GPIO27")]'"
        )
        continue
      }
      for line in named where !written.contains(line) {
        bag.error(
          "combination names '\(line)', which is not the line of a button of this input",
          at: comboRange,
          hint: "lines of the buttons: \(written.joined(separator: ", "))")
      }
    }
  }

  /// Creates the input from its config entry; `source` gives the chips (tests pass fakes).
  public init(instance: PluginInstance, source: GPIOChipSource = .system) throws {
    id = instance.id
    self.source = source
    buttons = try instance.settings[Self.buttons]
    let lines = buttons.map(\.line)
    combinations = try instance.settings[Self.combinations].compactMap { entry in
      let named = entry.lines
      guard named.count == 2, let first = lines.firstIndex(of: named[0]),
        let second = lines.firstIndex(of: named[1]), first != second
      else { return nil }
      return Combination(
        first: first, second: second, hold: entry.hold.nanoseconds, control: entry.control)
    }
  }

  public var watchedDescriptors: [WatchedDescriptor] {
    held.compactMap { $0.request.fileDescriptor.map { WatchedDescriptor($0) } }
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    do {
      try requestLines()
    } catch {
      releaseLines()
      throw error
    }
    var levels = [Bool](repeating: false, count: buttons.count)
    for entry in held {
      let values = try entry.request.values()
      for (offset, value) in zip(entry.request.offsets, values) {
        if let index = entry.buttons[offset] { levels[index] = value }
      }
    }
    bank = ButtonBank(
      buttons: buttons.map { ButtonBank.Button(debounce: $0.debounce, longPress: $0.longPress) },
      levels: levels,
      combinations: combinations.map { ButtonCombination($0.first, $0.second, hold: $0.hold) })
    for (index, button) in buttons.enumerated() where levels[index] {
      context.log(
        .warning, "button is pressed at start-up; ignored until released",
        [("line", button.line), ("control", button.control)])
    }
  }

  /// One request per chip and setting (active-low and bias are per request), lines in order.
  private func requestLines() throws {
    var chips: [String: any GPIOChip] = [:]
    var groups: [(chip: any GPIOChip, activeLow: Bool, bias: GPIOBias, indices: [Int])] = []
    for (index, button) in buttons.enumerated() {
      let line = GPIOLine(parsing: button.line)
      let chip: any GPIOChip
      if button.chip != GPIOLines.automatic, let known = chips[button.chip] {
        chip = known
      } else {
        chip = try GPIOLines.openChip(button.chip, for: line, source: source)
        chips[button.chip] = chip
      }
      if let group = groups.firstIndex(where: {
        $0.chip === chip && $0.activeLow == button.activeLow && $0.bias == button.bias
      }) {
        groups[group].indices.append(index)
      } else {
        groups.append((chip, button.activeLow, button.bias, [index]))
      }
    }
    for group in groups {
      let request = try group.chip.requestInputs(
        group.indices.map { GPIOLine(parsing: buttons[$0].line) },
        consumer: GPIOLines.consumer(id), bias: group.bias, activeLow: group.activeLow,
        edges: .both)
      held.append(
        Held(
          request: request,
          buttons: Dictionary(uniqueKeysWithValues: zip(request.offsets, group.indices))))
    }
  }

  private func releaseLines() {
    for entry in held { entry.request.release() }
    held = []
  }

  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
    -> [InputEvent]
  {
    guard bank != nil else { return [] }
    // Every request is read, not only the readable one, so edges of buttons on different
    // requests reach the debouncers in timestamp order.
    var edges: [(button: Int, event: GPIOEdgeEvent)] = []
    for entry in held where entry.request.fileDescriptor != nil {
      while true {
        let events = try entry.request.readEvents()
        for event in events {
          if let button = entry.buttons[event.offset] { edges.append((button, event)) }
        }
        if events.count < 64 { break }
      }
    }
    edges.sort { $0.event.timestamp < $1.event.timestamp }
    var gestures: [RecognizedGesture] = []
    for (button, event) in edges {
      gestures += bank!.edge(button, pressed: event.edge == .rising, at: event.timestamp)
    }
    gestures += bank!.advance(to: now)
    return report(gestures, at: now)
  }

  public func nextWakeUp(after now: Int64) -> Int64? { bank?.nextWakeUp }

  public func handleWakeUp(at now: Int64) -> [InputEvent] {
    guard bank != nil else { return [] }
    return report(bank!.advance(to: now), at: now)
  }

  private func report(_ gestures: [RecognizedGesture], at now: Int64) -> [InputEvent] {
    gestures.map { recognized in
      let event: InputEvent
      let what: String
      switch recognized.gesture {
      case .press(let button):
        event = .control(buttons[button].control, .press, pressedAt: recognized.pressedAt)
        what = "line=\(buttons[button].line)"
      case .longPress(let button):
        event = .control(
          buttons[button].control, .longPress, pressedAt: recognized.pressedAt)
        what = "line=\(buttons[button].line)"
      case .combination(let index):
        event = .control(
          combinations[index].control, .press, pressedAt: recognized.pressedAt)
        let combination = combinations[index]
        what = "lines=\(buttons[combination.first].line)+\(buttons[combination.second].line)"
      }
      if case .control(let control, let gesture, _) = event {
        context?.log(
          .debug, "gesture",
          [
            ("control", control), ("gesture", gesture.rawValue),
            (String(what.prefix { $0 != "=" }), String(what.drop { $0 != "=" }.dropFirst())),
            ("latency_us", String((now - recognized.instant) / 1_000)),
            ("since_press_us", String((now - recognized.pressedAt) / 1_000)),
          ])
      }
      return event
    }
  }

  public func stop() {
    releaseLines()
    bank = nil
    context = nil
  }
}
