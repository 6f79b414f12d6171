// SPDX-License-Identifier: MIT
// `gpio-signal` output: lamps and stack lights that follow the phase, one GPIO line per design
// token role (green for work, red for rest, amber for the count-in ...).

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit

/// Lamps on GPIO lines, lit by the role of what the clock is doing (`DesignTokens.role(for:)`).
public final class GPIOSignalOutput: OutputPlugin {
  public let id: String
  public let kind = GPIOSignalOutput.kindName
  /// Distinct lines in the order first named, and the roles that light each.
  let lines: [(line: String, roles: Set<Role>)]
  let chip: String
  let activeLow: Bool
  private let source: GPIOChipSource
  private var held: GPIOOutputLines?

  public static let kindName = "gpio-signal"

  static let lines = Setting(
    "lines", .map(.string), default: nil,
    "role: line, such as 'work: GPIO5' (lit while the clock shows that role)")
  static let chip = Setting(
    "chip", .string, default: GPIOLines.automatic,
    "auto finds the chip with the named lines (or the Pi header's); or a path, name or label")
  static let activeLow = Setting(
    "active_low", .boolean, default: false,
    "a lamp is lit when its line is low (many relay boards)")

  public static let schema = PluginSchema(
    kind: kindName, direction: .output,
    summary: "lamps or a stack light on GPIO lines, following the phase",
    settings: [lines.spec, chip.spec, activeLow.spec],
    crossCheck: crossCheck,
    claims: { settings in
      let chipText = try settings[chip]
      var seen: Set<String> = []
      var claims: [ResourceClaim] = []
      for (_, line) in try settings[lines] {
        let identity = GPIOLines.identity(chip: chipText, line: line)
        // One line may serve several roles of this output (amber for count-in and paused).
        if seen.insert(identity).inserted {
          claims.append(ResourceClaim(kind: "GPIO line", identity: identity, key: lines.name))
        }
      }
      return claims
    })

  static func crossCheck(_ settings: PluginSettings, _ bag: inout DiagnosticBag) throws {
    let range = settings.range(of: lines)
    let roles = Role.allCases.map(\.rawValue)
    let entries = try settings[lines]
    if entries.isEmpty {
      bag.error("'lines' names no lamps", at: range, hint: "add 'work: GPIO5' and 'rest: GPIO6'")
    }
    for (role, line) in entries {
      if !roles.contains(role) {
        bag.error(
          "unknown role '\(role)' in 'lines'", at: settings.range(of: lines, key: role),
          hint: closestMatch(to: role, among: roles).map { "did you mean '\($0)'?" }
            ?? "roles: " + roles.joined(separator: ", "))
      }
      GPIOLines.checkLine(line, at: settings.range(of: lines, valueOf: role), &bag)
    }
    GPIOLines.checkChip(try settings[chip], at: settings.range(of: chip), &bag)
  }

  /// Creates the output from its config entry; `source` gives the chips (tests pass fakes).
  public init(instance: PluginInstance, source: GPIOChipSource = .system) throws {
    id = instance.id
    self.source = source
    chip = try instance.settings[Self.chip]
    activeLow = try instance.settings[Self.activeLow]
    var lines: [(line: String, roles: Set<Role>)] = []
    for (name, line) in try instance.settings[Self.lines] {
      guard let role = Role(rawValue: name) else { continue }
      if let index = lines.firstIndex(where: { $0.line == line }) {
        lines[index].roles.insert(role)
      } else {
        lines.append((line, [role]))
      }
    }
    self.lines = lines
  }

  public func start(_ context: PluginContext) throws {
    held = try GPIOOutputLines(
      lines.map { ($0.line, chip) }, activeLow: activeLow, consumer: GPIOLines.consumer(id),
      source: source)
  }

  public func render(_ frame: OutputFrame) throws {
    guard let held else { return }
    let role = frame.tokens.role(for: frame.snapshot)
    // Lamps going off first, so two colours are never lit together between writes.
    for (index, entry) in lines.enumerated() where !entry.roles.contains(role) {
      try held.set(index, false)
    }
    for (index, entry) in lines.enumerated() where entry.roles.contains(role) {
      try held.set(index, true)
    }
  }

  public func nextWakeUp(after now: Int64) -> Int64? { nil }

  public func stop() {
    held?.releaseSafely()
    held = nil
  }

  /// Drives every lamp off without starting (`wodclockd --safe-outputs`).
  public func driveSafe() throws -> SafeState {
    let held = try GPIOOutputLines(
      lines.map { ($0.line, chip) }, activeLow: activeLow, consumer: GPIOLines.consumer(id),
      source: source)
    held.releaseSafely()
    let names = lines.map(\.line).joined(separator: ", ")
    return .driven(
      "lamps off: line\(lines.count == 1 ? "" : "s") \(names) driven "
        + GPIOLines.inactiveLevel(activeLow: activeLow))
  }
}
