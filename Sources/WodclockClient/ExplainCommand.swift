// SPDX-License-Identifier: MIT
// `wodclockctl explain TEXT...`: what the clock understands a written workout to be. It reads
// the text itself (WorkoutNotation), so it needs no running daemon.

import HardwareKit
import JSONKit
import WorkoutNotation

enum ExplainCommand {
  static let synopsis = "TEXT... [--json]"
  static let details = """
    The words after 'explain' are the workout, as written on a whiteboard ('amrap 14',
    'e2mom 16', '21-15-9 for time cap 10', 'warm-up 8:00 + amrap 12'); quotes are not needed.
    Prints the line a coach reads, the parts with their segments, the total, the count-in and
    how an ambiguous spelling was read. With --json: mode, total_s (null when open-ended),
    count_in_s, rounds, segments, parts and readings. Needs no running daemon.

    exit status: 0 understood, 65 the text is not a workout (the problem is shown under it),
    64 no text
    """

  /// Explains `words` joined by spaces; a text that is not a workout is a data error (65), its
  /// diagnostics printed as the config's are.
  static func run(_ words: [String], json: Bool) -> Int32 {
    let text = words.joined(separator: " ")
    switch WorkoutNotation.explain(text) {
    case .success(let explanation):
      let output = json ? explanation.json.serialized() + "\n" : explanation.text
      _ = try? FileDescriptor.standardOutput.writeAll(Array(output.utf8))
      return ClientMain.ExitCode.ok
    case .failure(let error):
      StandardError.write(error.rendered(usesColor: Terminal.isTTY(.standardError)))
      return ClientMain.ExitCode.dataError
    }
  }
}
