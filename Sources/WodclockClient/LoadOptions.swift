// SPDX-License-Identifier: MIT
// The options every command that loads a workout shares (`load`, `run`, `again`): `--replace`,
// which lets the load take the place of a running or paused workout (the daemon answers `busy`
// without it), and `--start`, which starts what was loaded.

import JSONKit

enum LoadOptions {
  static let replace = "--replace"
  static let start = "--start"
  /// For the commands' own help.
  static let details =
    "A running or paused workout is not replaced: the daemon answers 'busy'.\n"
    + "  --replace  abandon it and load anyway\n"
    + "  --start    start the loaded workout at once (count-in first)"

  /// The words without the options; each option given sets its member of the request
  /// (`"replace": true`, `"start": true`).
  static func take(_ words: [String], into request: inout JSONObject) -> [String] {
    if words.contains(replace) { request["replace"] = .bool(true) }
    if words.contains(start) { request["start"] = .bool(true) }
    return words.filter { $0 != replace && $0 != start }
  }
}
