// SPDX-License-Identifier: MIT
// `wodclockctl explain TEXT...`: what the clock understands a written workout to be. It reads
// the text itself (WorkoutNotation), so it needs no running daemon; the names it knows are the
// benchmark workouts' and those of the config file (its presets, the gym's own workouts file).

import ConfigFormat
import Configuration
import HardwareKit
import JSONKit
import WorkoutNotation

enum ExplainCommand {
  static let synopsis = "[--config FILE] TEXT... [--json]"
  static let details = """
    The words after 'explain' are the workout, as written on a whiteboard ('amrap 14',
    'e2mom 16', '21-15-9 for time cap 10', 'warm-up 8:00 + amrap 12'), or the name of a
    benchmark workout ('cindy', 'fight gone bad') or of one of the gym's own workouts file;
    quotes are not needed. Prints the line a coach reads, the parts with their segments, the
    total, the count-in, the whiteboard lines and how an ambiguous spelling was read. With
    --json: mode, total_s (null when open-ended), count_in_s, rounds, segments, parts,
    readings, whiteboard, whiteboard_media, media, name and notes. Needs no running daemon.

    The config file (--config FILE, else /etc/wodclock/wodclock.yaml when it can be read)
    gives the count-in, the presets' names (a name that is also a preset's: the preset is
    what loads, and the explanation says so) and the gym's own workouts.

    exit status: 0 understood, 65 the text is not a workout (the problem is shown under it),
    64 no text, 78 the config file given with --config cannot be read or has errors
    """

  /// Where the daemon reads its config unless told otherwise.
  static let defaultConfigPath = "/etc/wodclock/wodclock.yaml"
  /// The config's exit status: sysexits' EX_CONFIG.
  static let configError: Int32 = 78

  /// Explains `words` joined by spaces (after `--config FILE`, if given); a text that is not a
  /// workout is a data error (65), its diagnostics printed as the config's are.
  static func run(_ words: [String], json: Bool) -> Int32 {
    var words = words
    var configPath: String?
    if let position = words.firstIndex(where: { $0 == "--config" || $0.hasPrefix("--config=") }) {
      if words[position] == "--config" {
        guard position + 1 < words.count else {
          StandardError.writeLine("wodclockctl: --config needs a file")
          return ClientMain.ExitCode.usage
        }
        configPath = words[position + 1]
        words.removeSubrange(position...(position + 1))
      } else {
        configPath = String(words[position].dropFirst("--config=".count))
        words.remove(at: position)
      }
    }
    guard !words.joined().allSatisfy(\.isWhitespace) else {
      StandardError.writeLine("wodclockctl: 'explain' needs a workout, e.g. 'amrap 14'")
      return ClientMain.ExitCode.usage
    }
    guard let configured = workouts(configPath) else { return configError }
    let text = words.joined(separator: " ")
    switch WorkoutNotation.explain(
      text, defaultCountIn: configured.countIn, library: configured.library,
      presets: configured.presetNames)
    {
    case .success(let explanation):
      let output = json ? explanation.json.serialized() + "\n" : explanation.text
      _ = try? FileDescriptor.standardOutput.writeAll(Array(output.utf8))
      return ClientMain.ExitCode.ok
    case .failure(let error):
      StandardError.write(error.rendered(usesColor: Terminal.isTTY(.standardError)))
      return ClientMain.ExitCode.dataError
    }
  }

  /// What the config names: the file given (nil after printing why it cannot be used), or the
  /// default one when it reads without errors, else the benchmark workouts alone.
  static func workouts(_ given: String?) -> ConfiguredWorkouts? {
    let alone = ConfiguredWorkouts(
      library: .standard, presetNames: [], countIn: WorkoutNotation.standardCountIn,
      diagnostics: [])
    let path = given ?? defaultConfigPath
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.readFile(path, maximumCount: 16 << 20)
    } catch {
      guard given != nil else { return alone }
      StandardError.writeLine(
        "wodclockctl: cannot read the configuration '\(path)': "
          + "\(error.errno.message.lowercased()) (\(error.errno.name))")
      return nil
    }
    let configured = ConfigurationLoader.workouts(
      bytes: bytes, file: path, readFile: readIncluded)
    guard configured.diagnostics.isEmpty else {
      guard given != nil else { return alone }
      let renderer = DiagnosticRenderer(
        sources: [path: String(decoding: bytes, as: UTF8.self)],
        usesColor: Terminal.isTTY(.standardError))
      StandardError.write(renderer.render(configured.diagnostics))
      return nil
    }
    return configured
  }

  /// Reads a file the config includes (the workouts file).
  @Sendable static func readIncluded(_ path: String, maximumCount: Int) -> SystemLookup.FileRead {
    do {
      return .read(bytes: try FileSystem.readFile(path, maximumCount: maximumCount), permissions: 0)
    } catch  where error.errno == .fileTooLarge {
      return .tooLarge
    } catch {
      return .failed(reason: error.errno.message.lowercased(), errnoName: error.errno.name)
    }
  }
}
