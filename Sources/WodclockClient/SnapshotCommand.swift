// SPDX-License-Identifier: MIT
// `wodclockctl snapshot`: the picture the daemon sent, enlarged into LED dots and written as a
// PNG by the client itself: the daemon may run as another user, and FILE is meant relative to
// where the command is typed.

import ConfigFormat
import ControlProtocol
import DisplayKit
import HardwareKit
import JSONKit
import MatrixKit
import PNGEncoding

enum SnapshotCommand {
  /// What the command line asks for.
  struct Options: Equatable {
    /// Where the PNG goes; `-` is standard output; nil only with `--json`.
    var file: String?
    var output: String?
    var size: SnapshotRequest.Size?
    var scale = 1
  }

  /// A bad command line for `snapshot`: said with its usage line.
  private static func problem(_ message: String) -> ClientMain.ArgumentProblem {
    ClientMain.ArgumentProblem(message: message, showsCommandUsage: true)
  }

  static let scales = 1...32
  /// The largest picture written, in pixels per side: a 128×64 matrix at scale 32 still fits.
  static let maximumPictureSide = 8_192
  /// Between the dots: black, like the board under the LEDs of a matrix panel.
  static let gapColor = RGB(red: 0, green: 0, blue: 0)

  static let synopsis = "--png FILE [--output ID] [--size WxH] [--scale N]"
  static let details = """
    Writes what the LED matrix shows now as a PNG: the picture a serial-matrix or ddp-matrix
    output last sent (the first one in the config, or the one --output names), before
    brightness, gamma and the current cap; while its controller is unplugged, the last picture
    that reached it. With --size, or when no matrix output is configured, the daemon draws
    a preview instead: what a matrix of that size would show now (64x32 when no size is given),
    in the font of the first matrix output, so layouts can be seen without hardware.

    options:
      --png FILE   the PNG to write, relative to the current directory; - writes to stdout
      --output ID  the matrix output to show (its id in the config)
      --size WxH   a preview of a WIDTHxHEIGHT matrix, also when a matrix output is configured
                   (1 to 1024 LEDs each side)
      --scale N    each LED as an NxN round dot with a dark gap, as the wall looks
                   (1 to 32; default 1: one pixel per LED)

    examples:
      wodclockctl snapshot --png wall.png --scale 8
      wodclockctl snapshot --png preview.png --size 128x64 --scale 8
      wodclockctl snapshot --png - | display -
    """

  /// Reads the command's arguments (after `snapshot`). `json`: the global `--json` was given,
  /// which prints the daemon's reply and makes `--png` optional.
  static func parse(_ arguments: [String], json: Bool) -> Result<
    Options, ClientMain.ArgumentProblem
  > {
    var options = Options()
    var seen: Set<String> = []
    var index = 0
    let names = ["--png", "--output", "--size", "--scale"]
    while index < arguments.count {
      var name = arguments[index]
      var value: String?
      if let equals = name.firstIndex(of: "="), name.hasPrefix("--") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard names.contains(name) else {
        guard name.hasPrefix("-") else {
          return .failure(
            problem("'snapshot': unexpected '\(name)' (options come as --NAME VALUE)"))
        }
        let suggestion = closestMatch(to: name, among: names)
        return .failure(
          problem(
            "'snapshot': unknown option '\(name)'"
              + (suggestion.map { "; did you mean '\($0)'?" } ?? "")))
      }
      if value == nil {
        index += 1
        // The next option is not taken for a value: `--output --png x.png` lost its id.
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          return .failure(problem("'snapshot': \(name) needs a value"))
        }
        value = arguments[index]
      }
      guard seen.insert(name).inserted else {
        return .failure(problem("'snapshot': \(name) is given twice"))
      }
      let text = value ?? ""
      switch name {
      case "--png":
        guard !text.isEmpty else { return .failure(problem("'snapshot': --png needs a file")) }
        options.file = text
      case "--output":
        guard !text.isEmpty else {
          return .failure(problem("'snapshot': --output needs an output's id"))
        }
        options.output = text
      case "--size":
        switch parseSize(text) {
        case .success(let size): options.size = size
        case .failure(let problem): return .failure(problem)
        }
      default:
        guard let scale = Int(text), scales.contains(scale) else {
          return .failure(
            problem(
              "'snapshot': bad --scale '\(text)': expected a whole number from "
                + "\(scales.lowerBound) to \(scales.upperBound)"))
        }
        options.scale = scale
      }
      index += 1
    }
    if options.output != nil && options.size != nil {
      return .failure(
        problem(
          "'snapshot': --output and --size exclude each other: --output shows a matrix's own "
            + "picture, --size draws a preview"))
    }
    switch options.file {
    case nil where !json:
      return .failure(problem("'snapshot' needs --png FILE (- writes to standard output)"))
    case "-" where json:
      return .failure(
        problem("'snapshot': --json and --png - would both write to standard output"))
    case "-" where Terminal.isTTY(.standardOutput):
      return .failure(
        problem(
          "'snapshot': not writing a PNG to a terminal; redirect it (> wall.png), pipe it, or "
            + "give --png a file"))
    default:
      return .success(options)
    }
  }

  /// `64x32` (or `64X32`) as a size within the protocol's limits.
  static func parseSize(_ text: String) -> Result<SnapshotRequest.Size, ClientMain.ArgumentProblem>
  {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false).flatMap {
      $0.split(separator: "X", omittingEmptySubsequences: false)
    }
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
      return .failure(
        problem("'snapshot': bad --size '\(text)': expected WIDTHxHEIGHT in LEDs, e.g. 64x32"))
    }
    let sides = CommandProtocol.snapshotSides
    guard sides.contains(width), sides.contains(height) else {
      return .failure(
        problem(
          "'snapshot': bad --size '\(text)': each side is \(sides.lowerBound) to "
            + "\(sides.upperBound) LEDs"))
    }
    guard width * height <= CommandProtocol.maximumSnapshotLEDs else {
      return .failure(
        problem(
          "'snapshot': bad --size '\(text)': \(width * height) LEDs; a snapshot carries "
            + "\(CommandProtocol.maximumSnapshotLEDs) at most"))
    }
    return .success(SnapshotRequest.Size(width: width, height: height))
  }

  /// The picture in a successful reply, or nil when the reply is not the protocol's.
  static func picture(in reply: JSONValue) -> Framebuffer? {
    guard let width = reply["width"]?.intValue, let height = reply["height"]?.intValue,
      CommandProtocol.snapshotSides.contains(Int(width)),
      CommandProtocol.snapshotSides.contains(Int(height)),
      let text = reply["rgb_base64"]?.stringValue, let bytes = Base64.decode(text),
      bytes.count == Int(width * height) * 3
    else { return nil }
    var picture = Framebuffer(width: Int(width), height: Int(height), fill: gapColor)
    for y in 0..<picture.height {
      for x in 0..<picture.width {
        let offset = (y * picture.width + x) * 3
        picture[x, y] = RGB(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2])
      }
    }
    return picture
  }

  /// Writes the PNG of a successful reply where `options` say. Returns the exit status.
  static func save(_ reply: JSONValue, _ options: Options, quiet: Bool) -> Int32 {
    guard let picture = picture(in: reply) else {
      StandardError.writeLine("wodclockctl: the daemon's snapshot reply has no readable picture")
      return ClientMain.ExitCode.protocolError
    }
    let width = picture.width * options.scale
    let height = picture.height * options.scale
    guard width <= maximumPictureSide, height <= maximumPictureSide else {
      StandardError.writeLine(
        "wodclockctl: 'snapshot': \(picture.width)x\(picture.height) LEDs at --scale "
          + "\(options.scale) would be \(width)x\(height) pixels; \(maximumPictureSide) per side "
          + "at most")
      StandardError.writeLine("hint: a smaller --scale")
      return ClientMain.ExitCode.usage
    }
    let output = reply["output"]?.stringValue
    if let output, reply["connected"]?.boolValue == false {
      StandardError.writeLine(
        "wodclockctl: warning: LED matrix '\(output)' is not connected; this is the last picture "
          + "it was sent before it went away")
    }
    guard let file = options.file else { return ClientMain.ExitCode.ok }
    let dots = LEDDots.render(picture, scale: options.scale, gap: gapColor)
    let png = PNGEncoder.encode(dots)
    if file == "-" {
      do {
        try FileDescriptor.standardOutput.writeAll(png)
      } catch {
        StandardError.writeLine("wodclockctl: cannot write the PNG to standard output: \(error)")
        return ClientMain.ExitCode.cannotCreate
      }
      return ClientMain.ExitCode.ok
    }
    // The file is replaced by a rename, which cannot replace a directory; said plainly here
    // rather than as the rename's EBUSY or EISDIR.
    if FileSystem.isDirectory(file) {
      StandardError.writeLine("wodclockctl: cannot write '\(file)': it is a directory")
      StandardError.writeLine("hint: name a file in it, such as '\(file)/wall.png'")
      return ClientMain.ExitCode.cannotCreate
    }
    do {
      try FileSystem.writeFileAtomically(file, png, mode: 0o644)
    } catch {
      StandardError.writeLine("wodclockctl: cannot write '\(file)': \(error.errno)")
      StandardError.writeLine("hint: \(hint(for: error.errno, file: file))")
      return ClientMain.ExitCode.cannotCreate
    }
    if !quiet {
      var what = "\(picture.width)x\(picture.height) LEDs"
      if let output {
        what = "LED matrix '\(output)', " + what
      } else if options.size == nil {
        what = "a preview (no LED-matrix output is configured), " + what
      } else {
        what = "a preview, " + what
      }
      print("\(file): \(what), \(width)x\(height) pixels")
    }
    return ClientMain.ExitCode.ok
  }

  /// What to do about a file that cannot be written.
  static func hint(for errno: Errno, file: String) -> String {
    let directory = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
    let place = directory.isEmpty ? "/" : directory
    let exists = FileSystem.fileExists(place)
    switch errno.name {
    case "ENOENT" where !exists:
      return "the directory '\(place)' does not exist; create it first"
    case "ENOTDIR" where exists && !FileSystem.isDirectory(place):
      return "'\(place)' is not a directory"
    case "ENOENT", "ENOTDIR", "EACCES", "EPERM":
      return "you may not create files in '\(place)'; pick another directory"
    case "EROFS": return "'\(place)' is on a read-only file system; pick another directory"
    case "ENOSPC", "EDQUOT": return "the disk is full; free some space or pick another disk"
    default: return "pick another path, or - to write the PNG to standard output"
    }
  }
}
