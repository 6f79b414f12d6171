// SPDX-License-Identifier: MIT
// Plugin instances for tests that drive a plugin directly, made as the daemon makes them: from a
// config entry a person could write, through the loader and the daemon's own schemas. A test
// thus cannot hand a plugin settings no config file could give it.

import ConfigFormat
import Configuration
import Testing

@testable import WodclockDaemon

/// The instance of `entry`, one flow mapping such as `{type: terminal, color: always}`, listed
/// under `inputs:` or `outputs:` as `direction` says, in a config that defines the control
/// `start`. A config the loader refuses fails the test with its diagnostics.
func pluginInstance(_ direction: PluginSchema.Direction, _ entry: String) throws -> PluginInstance {
  let section = direction == .input ? "inputs" : "outputs"
  let text = """
    presets:
      amrap: {mode: amrap, time: 10m}
    controls:
      start: {press: toggle, long_press: reset}
    \(section): [\(entry)]
    """
  let result = ConfigurationLoader.load(
    text: text, file: "test.yaml", plugins: PluginCatalog.schemas)
  let configuration = try #require(
    result.configuration, "\(result.diagnostics.map(\.message))")
  return try #require(
    direction == .input ? configuration.inputs.first : configuration.outputs.first)
}
