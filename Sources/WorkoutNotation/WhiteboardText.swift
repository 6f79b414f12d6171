// SPDX-License-Identifier: MIT
// The lines of a written workout: the first is the workout (`amrap 20`), the ones after it the
// whiteboard (`5 pull-ups`, `Thrusters 95/65 lb`, `Rx 95/65 lb`). A line may end with the
// picture or video that goes with it (`10 burpees @burpee.webm`); a line that is only
// `@cindy.mp4` names the whole workout's.

import WorkoutCore

/// The whiteboard lines of a written workout, and the picture or video of the whole workout.
struct WrittenWhiteboard: Sendable, Hashable {
  /// The columns of the workout line, without its media.
  var workoutColumns: Range<Int>
  var lines: [WhiteboardLine] = []
  var media: String?
}

extension WorkoutNotation {
  /// The most whiteboard lines a written workout has.
  public static let maximumWhiteboardLines = 30
  /// The most characters of a whiteboard line (its media not counted): what a TV shows beside
  /// the clock in one line.
  public static let maximumWhiteboardLineLength = 80
  /// The most characters of a media file's name.
  public static let maximumMediaNameLength = 64
  /// The media files a line may name, by extension (lower case).
  public static let mediaExtensions = ["jpg", "jpeg", "png", "gif", "webm", "mp4"]

  /// Checks a media file's name as a line or a preset names it (`burpee.webm`): a file of the
  /// media directory, named without a directory. Nil when it is one, else what is wrong.
  public static func mediaProblem(_ name: String) -> (message: String, hint: String)? {
    let scalars = Array(name.unicodeScalars)
    let kinds = "a JPEG, PNG, GIF, WebM or MP4 file: .jpg, .jpeg, .png, .gif, .webm or .mp4"
    guard !scalars.isEmpty else {
      return (
        "the media file's name is empty",
        "name a file of the media directory, such as 'burpee.webm'"
      )
    }
    if scalars.contains("/") || scalars.contains("\\") {
      return (
        "a media file is named without a directory, found '\(name)'",
        "put the file in the media directory and name it alone, such as 'burpee.webm'"
      )
    }
    if let control = scalars.first(where: isControl) {
      return (
        "a media file's name has a control character (U+\(hex(control.value)))",
        "name the file with letters, digits, '-', '_' and '.'"
      )
    }
    if scalars.contains(where: { $0.properties.isWhitespace }) {
      return (
        "a media file's name has a space in it: '\(name)'",
        "rename the file without spaces, as 'air-squat.webm'"
      )
    }
    if scalars.count > maximumMediaNameLength {
      return (
        "a media file's name may have at most \(maximumMediaNameLength) characters, '\(name)' has \(scalars.count)",
        "rename the file shorter"
      )
    }
    guard let dot = scalars.lastIndex(of: "."), dot > 0, scalars[0] != "." else {
      return ("'\(name)' is not a media file's name", "name \(kinds)")
    }
    let ext = String(String.UnicodeScalarView(scalars[(dot + 1)...])).lowercased()
    guard mediaExtensions.contains(ext) else {
      return ("'.\(ext)' is not a kind of media the clock shows", "use \(kinds)")
    }
    return nil
  }

  /// Reads one whiteboard line given on its own (an item of a config list): its text and the
  /// media at its end. A line that is only `@file.ext` has empty text: the caller decides
  /// whether it names the whole workout's media.
  public static func whiteboardLine(_ text: String) -> Result<WhiteboardLine, NotationError> {
    let scalars = Array(text.unicodeScalars)
    do throws(NotationDiagnostic) {
      if let lineBreak = scalars.firstIndex(where: { $0 == "\n" || $0 == "\r" }) {
        throw NotationDiagnostic(
          columns: lineBreak..<(lineBreak + 1), message: "a whiteboard line has a line break in it",
          hint: "write each line as an item of its own")
      }
      let columns = WhiteboardReader.trimmed(0..<scalars.count, in: scalars)
      guard !columns.isEmpty else {
        throw NotationDiagnostic(
          columns: 0..<max(1, scalars.count), message: "the whiteboard line is empty",
          hint: "write a movement ('10 burpees') or a note ('Rx 95/65 lb'), or remove the item")
      }
      if let (media, _, rest) = try WhiteboardReader.trailingMedia(columns, in: scalars),
        rest.isEmpty
      {
        return .success(WhiteboardLine("", media: media))
      }
      return .success(try WhiteboardReader.whiteboardLine(columns, in: scalars))
    } catch {
      return .failure(NotationError(text: text, diagnostics: [error]))
    }
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

enum WhiteboardReader {
  /// The lines of `scalars`: the columns of each, without its line break (`\n`, or `\r\n`).
  static func lines(of scalars: [Unicode.Scalar]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    for index in scalars.indices where scalars[index] == "\n" {
      lines.append(start..<index)
      start = index + 1
    }
    lines.append(start..<scalars.count)
    return lines.map { line in
      line.upperBound > line.lowerBound && scalars[line.upperBound - 1] == "\r"
        ? line.lowerBound..<(line.upperBound - 1) : line
    }
  }

  static func trimmed(_ columns: Range<Int>, in scalars: [Unicode.Scalar]) -> Range<Int> {
    var lower = columns.lowerBound
    var upper = columns.upperBound
    while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
    while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
    return lower..<upper
  }

  static func text(_ columns: Range<Int>, in scalars: [Unicode.Scalar]) -> String {
    String(String.UnicodeScalarView(scalars[columns]))
  }

  /// The whiteboard of `scalars`: which columns are the workout line, and the lines after it.
  static func read(_ scalars: [Unicode.Scalar]) throws(NotationDiagnostic) -> WrittenWhiteboard {
    let lines = lines(of: scalars).map { trimmed($0, in: scalars) }.filter { !$0.isEmpty }
    guard let first = lines.first else {
      return WrittenWhiteboard(workoutColumns: 0..<scalars.count)
    }
    var board = WrittenWhiteboard(workoutColumns: first)
    var mediaColumns: Range<Int>?
    // `amrap 20 @cindy.mp4`: the workout line may name the workout's media.
    if let (media, columns, rest) = try trailingMedia(first, in: scalars) {
      board.workoutColumns = rest
      board.media = media
      mediaColumns = columns
    }
    var count = 0
    for line in lines.dropFirst() {
      if let (media, columns, rest) = try trailingMedia(line, in: scalars), rest.isEmpty {
        if let mediaColumns {
          throw NotationDiagnostic(
            columns: columns,
            message:
              "the workout's media is named twice: '\(text(mediaColumns, in: scalars))' and '\(text(columns, in: scalars))'",
            hint: "name one file for the whole workout; a movement's goes at the end of its line")
        }
        board.media = media
        mediaColumns = columns
        continue
      }
      count += 1
      if count > WorkoutNotation.maximumWhiteboardLines {
        throw NotationDiagnostic(
          columns: line,
          message:
            "a workout may have at most \(WorkoutNotation.maximumWhiteboardLines) whiteboard lines, this is line \(count)",
          hint: "keep the whiteboard to the movements and the notes a class needs")
      }
      board.lines.append(try whiteboardLine(line, in: scalars))
    }
    return board
  }

  /// One whiteboard line: its text and the media at its end.
  static func whiteboardLine(_ columns: Range<Int>, in scalars: [Unicode.Scalar])
    throws(NotationDiagnostic) -> WhiteboardLine
  {
    var textColumns = columns
    var media: String?
    if let (name, _, rest) = try trailingMedia(columns, in: scalars) {
      media = name
      textColumns = rest
    }
    if let control = textColumns.first(where: {
      WorkoutNotation.isControl(scalars[$0]) && scalars[$0] != "\t"
    }) {
      throw NotationDiagnostic(
        columns: control..<(control + 1),
        message:
          "a whiteboard line has a control character (U+\(WorkoutNotation.hex(scalars[control].value)))",
        hint: "write the line in plain text")
    }
    let limit = WorkoutNotation.maximumWhiteboardLineLength
    if textColumns.count > limit {
      throw NotationDiagnostic(
        columns: (textColumns.lowerBound + limit)..<textColumns.upperBound,
        message:
          "a whiteboard line may have at most \(limit) characters, this one has \(textColumns.count)",
        hint: "split it into two lines, or shorten it")
    }
    // A tab reads as a space: the TV shows the line as one run of text.
    let text = String(
      String.UnicodeScalarView(scalars[textColumns].map { $0 == "\t" ? " " : $0 }))
    return WhiteboardLine(text, media: media)
  }

  /// The media a line ends with (`... @burpee.webm`): its name, the columns of `@name` and the
  /// line without it (trimmed; empty when the line is only the media). Nil when the line does
  /// not end with a word that names a file (`@95` is a weight, not a file).
  static func trailingMedia(_ columns: Range<Int>, in scalars: [Unicode.Scalar])
    throws(NotationDiagnostic) -> (String, Range<Int>, Range<Int>)?
  {
    var start = columns.upperBound
    while start > columns.lowerBound, !scalars[start - 1].properties.isWhitespace { start -= 1 }
    guard start < columns.upperBound, scalars[start] == "@" else { return nil }
    let nameColumns = (start + 1)..<columns.upperBound
    let name = text(nameColumns, in: scalars)
    // A file's name ends with '.' and an extension (letters, then maybe digits: `mp4`);
    // anything else after '@' is text (`@95`, `@1.5x`).
    guard let dot = scalars[nameColumns].lastIndex(of: "."), dot + 1 < columns.upperBound,
      Lexer.isWordCharacter(scalars[dot + 1]),
      scalars[(dot + 1)..<columns.upperBound].allSatisfy({
        $0.isASCII && (Lexer.isWordCharacter($0) || Lexer.isDigit($0))
      })
    else { return nil }
    let wordColumns = start..<columns.upperBound
    if let (message, hint) = WorkoutNotation.mediaProblem(name) {
      throw NotationDiagnostic(columns: wordColumns, message: message, hint: hint)
    }
    return (name, wordColumns, trimmed(columns.lowerBound..<start, in: scalars))
  }
}

extension Writer {
  /// The whiteboard lines after the workout line: the workout's media first (`@cindy.mp4`),
  /// then each line with its media at its end.
  static func whiteboard(_ plan: WorkoutPlan) -> String {
    var text = ""
    if let media = plan.media { text += "\n@" + media }
    for line in plan.whiteboard {
      text += "\n" + line.text + (line.media.map { " @" + $0 } ?? "")
    }
    return text
  }
}
