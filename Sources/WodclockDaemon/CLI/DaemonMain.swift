// SPDX-License-Identifier: MIT
// wodclockd's entry point: the command line, --check-config, --print-config, and the daemon.

import ConfigFormat
import Configuration
import HardwareKit
import ProductVersion

public enum DaemonMain {
  /// Runs `wodclockd` with `arguments` (without the program name); returns the exit status.
  public static func run(_ arguments: [String]) -> Int32 {
    let options: DaemonOptions
    switch DaemonOptions.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let error):
      StandardError.writeLine("wodclockd: \(error.message)\n\n" + DaemonOptions.usage)
      return 64
    }
    switch options.task {
    case .help:
      print(DaemonOptions.usage)
      return 0
    case .version:
      print("wodclockd \(WodclockVersion.current)")
      return 0
    case .resolve(let host):
      return AddressResolver.answer(host)
    case .synthesizeVoice(let language):
      return VoiceSynthesizer.synthesizeLines(language: language)
    case .checkConfig, .printConfig, .safeOutputs, .run:
      break
    }

    let path = options.configPath ?? DaemonOptions.defaultConfigPath
    let color = Terminal.isTTY(.standardError)
    let configuration: WodclockConfiguration
    let warnings: ConfigurationProblem?
    switch ConfigurationFile.load(
      path: path, plugins: PluginCatalog.schemas, checkingSystem: options.task == .checkConfig)
    {
    case .failure(let problem):
      StandardError.write(problem.rendered(color: color))
      if options.configPath == nil, problem.source == nil {
        StandardError.writeLine(
          "hint: to try wodclock without installing it, run `make demo` in the source tree")
      }
      return 78
    case .success(let loaded):
      configuration = loaded.configuration
      warnings = loaded.warnings
    }

    // Warnings do not stop the clock, but the owner should see them wherever the file is
    // checked: on the terminal for --check-config, in the journal when the daemon starts.
    if let warnings, options.task != .printConfig {
      StandardError.write(warnings.rendered(color: color))
    }
    switch options.task {
    case .checkConfig:
      print(
        "ok: \(path): \(configuration.presets.count) presets, \(configuration.inputs.count) inputs, "
          + "\(configuration.outputs.count) outputs")
      return 0
    case .printConfig:
      print(
        ConfigurationPrinter.render(configuration, plugins: PluginCatalog.schemas), terminator: "")
      return 0
    case .safeOutputs:
      return SafeOutputs.run(configuration)
    default:
      break
    }

    let logger = Logger()
    do {
      let daemon = try Daemon(options: options, configuration: configuration, logger: logger)
      return daemon.run()
    } catch let failure as DaemonFailure {
      logger.error(failure.message)
      return failure.exitCode
    } catch {
      logger.error("cannot start: \(error)")
      return 69
    }
  }
}

/// `--safe-outputs`: what `ExecStopPost=` runs after the daemon died, even by SIGKILL, so no
/// horn is left sounding and no display is left frozen on a stale time. Every output is tried,
/// also after one failed; one line each says what it was left in, or why it could not be
/// reached. Exits 69 (EX_UNAVAILABLE) when any could not.
enum SafeOutputs {
  static func run(_ configuration: WodclockConfiguration) -> Int32 {
    var status: Int32 = 0
    for instance in configuration.outputs {
      let name = "output '\(instance.id)' (\(instance.kind))"
      guard case .output(let make)? = PluginCatalog.kind(named: instance.kind)?.factory else {
        continue
      }
      do {
        switch try make(instance).driveSafe() {
        case .driven(let state): print("wodclockd: \(name): \(state)")
        case .nothingToSecure: print("wodclockd: \(name): nothing to secure")
        }
      } catch {
        let (reason, hint) = explain(error)
        StandardError.writeLine(
          "wodclockd: \(name): cannot drive to its safe state: \(reason)"
            + (hint.map { "\nhint: \($0)" } ?? ""))
        status = 69
      }
    }
    return status
  }

  /// The reason and the hint of `error`, apart, so the hint gets a line of its own.
  static func explain(_ error: any Error) -> (reason: String, hint: String?) {
    switch error {
    case let gpio as GPIOError:
      return (gpio.message, gpio.hint)
    case var system as SystemError:
      let hint = system.hint ?? permissionHint(system.errno)
      system.hint = nil
      return (system.description, hint)
    default:
      return ("\(error)", nil)
    }
  }

  private static func permissionHint(_ errno: Errno) -> String? {
    guard errno == .permissionDenied || errno == .notPermitted else { return nil }
    return "the user needs read-write access to the device: add it to the group that owns it"
      + " (dialout for serial ports, i2c, spi; `make install` adds udev rules for them)"
  }
}
