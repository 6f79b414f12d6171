// SPDX-License-Identifier: MIT
// The `font:` setting of the LED-matrix outputs: where its file is, reading and parsing it, and
// what goes wrong, worded for the config check. The check, the output's start and a reload all
// load the font through `MatrixFont.load`, so they see the same font and the same problems.

import ConfigFormat
import Configuration
import HardwareKit
import MatrixKit

/// Why a font cannot be used: the message for the `font:` key, and how to fix it.
struct MatrixFontProblem: Error, CustomStringConvertible {
  var message: String
  var hint: String?

  var description: String { message + (hint.map { " (hint: \($0))" } ?? "") }
}

enum MatrixFont {
  /// A font file named by a matrix output's `font:`.
  struct Source: Equatable {
    /// The setting as written.
    var setting: String
    /// The file read: the setting if absolute, else beside the config file.
    var path: String
  }

  /// Larger files are refused before they are parsed: X11's 10x20 is 1 MB and GNU Unifont, the
  /// largest bitmap font around, about 10 MB; a device or a wrong file stops here.
  static let maximumFileSize = 16 << 20

  /// The font an output's settings name, or nil for the built-in font (`font:` empty). A relative path is read from the directory of the config file that names it (the
  /// file of the setting's location), so `fonts/6x10.bdf` beside /etc/wodclock/wodclock.yaml is
  /// /etc/wodclock/fonts/6x10.bdf whatever directory the daemon runs in.
  static func source(in settings: PluginSettings) throws -> Source? {
    let setting = try settings[MatrixOutput.font]
    guard !setting.isEmpty else { return nil }
    let configFile = settings.location(of: MatrixOutput.font)?.start.file ?? ""
    return Source(setting: setting, path: ConfigFilePath.resolve(setting, besideConfig: configFile))
  }

  /// Reads and parses the font file.
  static func load(_ source: Source) -> Result<CaptionFont, MatrixFontProblem> {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.readFile(source.path, maximumCount: maximumFileSize)
    } catch {
      return .failure(unreadable(source, error))
    }
    do {
      return .success(try CaptionFont(bdf: bytes))
    } catch {
      return .failure(
        MatrixFontProblem(
          message: "not a usable BDF font: \(source.path):\(error.line): \(error.message)",
          hint: error.hint))
    }
  }

  private static func unreadable(_ source: Source, _ error: SystemError) -> MatrixFontProblem {
    let message =
      "cannot read the font '\(source.path)': \(error.errno.message.lowercased()) "
      + "(\(error.errno.name))"
    let hint: String?
    switch error.errno {
    case .noSuchFile:
      hint =
        source.setting.hasPrefix("/")
        ? "put a BDF font there (/etc/wodclock/fonts/ is a good place), or leave 'font' empty "
          + "for the built-in font"
        : "a relative path is read from the config file's directory; put the font there, or "
          + "write its absolute path"
    case .permissionDenied:
      hint = "the daemon runs as the user wodclock: make the file readable (chmod a+r)"
    case .isADirectory:
      hint = "name a .bdf file in the directory"
    case .fileTooLarge:
      hint = "a BDF font is at most \(maximumFileSize >> 20) MB; check the path names a font"
    default:
      hint = nil
    }
    return MatrixFontProblem(message: message, hint: hint)
  }
}
