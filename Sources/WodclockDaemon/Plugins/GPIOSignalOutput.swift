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
  public let kind = "gpio-signal"
  /// Distinct lines in the order first named, and the roles that light each.
  let lines: [(line: String, roles: Set<Role>)]
  let chip: String
  let activeLow: Bool
  private let source: GPIOChipSource
  private var held: GPIOOutputLines?

  public static let schema = PluginSchema(
    kind: "gpio-signal", direction: .output,
    summary: "lamps or a stack light on GPIO lines, following the phase",
    settings: [
      SettingSpec(
        "lines", .map(.string), default: nil,
        "role: line, such as 'work: GPIO5' (lit while the clock shows that role)"),
      SettingSpec(
        "chip", .string, default: .string(GPIOLines.automatic),
        "auto finds the chip with the named lines (or the Pi header's); or a path, name or label"),
      SettingSpec(
        "active_low", .boolean, default: .boolean(false),
        "a lamp is lit when its line is low (many relay boards)"),
    ],
    crossCheck: crossCheck,
    claims: { settings in
      var seen: Set<String> = []
      var claims: [ResourceClaim] = []
      for entry in settings.entries("lines") {
        guard case .string(let line) = entry.value else { continue }
        let identity = GPIOLines.identity(chip: settings.string("chip") ?? "", line: line)
        // One line may serve several roles of this output (amber for count-in and paused).
        if seen.insert(identity).inserted {
          claims.append(ResourceClaim(kind: "GPIO line", identity: identity, key: "lines"))
        }
      }
      return claims
    })

  static func crossCheck(_ settings: PluginSettings, _ bag: inout DiagnosticBag) {
    let range = settings.location("lines")
    let roles = Role.allCases.map(\.rawValue)
    let entries = settings.entries("lines")
    if entries.isEmpty {
      bag.error("'lines' names no lamps", at: range, hint: "add 'work: GPIO5' and 'rest: GPIO6'")
    }
    for entry in entries {
      if !roles.contains(entry.key) {
        bag.error(
          "unknown role '\(entry.key)' in 'lines'", at: range,
          hint: closestMatch(to: entry.key, among: roles).map { "did you mean '\($0)'?" }
            ?? "roles: " + roles.joined(separator: ", "))
      }
      if case .string(let line) = entry.value { GPIOLines.checkLine(line, at: range, &bag) }
    }
    GPIOLines.checkChip(settings.string("chip") ?? "", at: settings.location("chip"), &bag)
  }

  /// Creates the output from its config entry; `source` gives the chips (tests pass fakes).
  public init(instance: PluginInstance, source: GPIOChipSource = .system) {
    id = instance.id
    self.source = source
    chip = instance.settings.string("chip") ?? GPIOLines.automatic
    activeLow = instance.settings.bool("active_low") ?? false
    var lines: [(line: String, roles: Set<Role>)] = []
    for entry in instance.settings.entries("lines") {
      guard case .string(let line) = entry.value, let role = Role(rawValue: entry.key) else {
        continue
      }
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
