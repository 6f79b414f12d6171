// SPDX-License-Identifier: MIT
// The one place that lists every plugin kind. Adding a kind means adding a line here.

import Configuration

/// A plugin kind: its config schema and how to make an instance.
public struct PluginKind: Sendable {
  public enum Factory: Sendable {
    case output(@Sendable (PluginInstance) throws -> any OutputPlugin)
    case input(@Sendable (PluginInstance) throws -> any InputPlugin)
  }
  public var schema: PluginSchema
  public var factory: Factory
}

/// Every plugin kind the daemon knows.
public enum PluginCatalog {
  public static let kinds: [PluginKind] =
    [
      PluginKind(
        schema: TerminalOutput.schema, factory: .output { try TerminalOutput(instance: $0) }),
      PluginKind(schema: LogOutput.schema, factory: .output(LogOutput.init(instance:))),
      PluginKind(schema: KeyboardInput.schema, factory: .input(KeyboardInput.init(instance:))),
      PluginKind(
        schema: GPIOButtonInput.schema, factory: .input { try GPIOButtonInput(instance: $0) }),
      PluginKind(
        schema: GPIOBuzzerOutput.schema, factory: .output { try GPIOBuzzerOutput(instance: $0) }),
      PluginKind(
        schema: GPIOSignalOutput.schema, factory: .output { try GPIOSignalOutput(instance: $0) }),
      PluginKind(
        schema: SpeakerOutput.schema, factory: .output { try SpeakerOutput(instance: $0) }),
      PluginKind(schema: USBRemoteInput.schema, factory: .input(USBRemoteInput.init(instance:))),
      PluginKind(schema: MatrixOutput.serialSchema, factory: .output(MatrixOutput.init(instance:))),
      PluginKind(schema: MatrixOutput.ddpSchema, factory: .output(MatrixOutput.init(instance:))),
    ]
    + SevenSegmentOutput.schemas.map { schema in
      PluginKind(schema: schema, factory: .output(SevenSegmentOutput.init(instance:)))
    }

  /// The schemas, for the config loader.
  public static var schemas: [PluginSchema] { kinds.map(\.schema) }

  public static func kind(named name: String) -> PluginKind? {
    kinds.first { $0.schema.kind == name }
  }
}
