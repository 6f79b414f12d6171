// SPDX-License-Identifier: MIT
// The options every command that loads a workout shares: `--replace`, which lets the load take
// the place of a running or paused workout (the daemon answers `busy` without it).

import JSONKit

enum LoadOptions {
  static let replace = "--replace"
  /// For the commands' own help.
  static let details =
    "A running or paused workout is not replaced: the daemon answers 'busy'.\n"
    + "  --replace  abandon it and load anyway"

  /// The words without `--replace`; with it, the request says `"replace": true`.
  static func take(_ words: [String], into request: inout JSONObject) -> [String] {
    guard words.contains(replace) else { return words }
    request["replace"] = .bool(true)
    return words.filter { $0 != replace }
  }
}
