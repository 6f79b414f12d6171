// SPDX-License-Identifier: MIT
// The options every command that loads a workout shares (`load`, `run`, `again`): `--replace`,
// which lets the load take the place of a running or paused workout (the daemon answers `busy`
// without it), and `--start`, which starts what was loaded.

struct LoadOptions {
  static let replace = "--replace"
  static let start = "--start"
  /// For the commands' own help.
  static let details =
    "A running or paused workout is not replaced: the daemon answers 'busy'.\n"
    + "  --replace  abandon it and load anyway\n"
    + "  --start    start the loaded workout at once (count-in first)"

  /// The words without the options.
  var words: [String]
  /// `--replace` was given: the request says `"replace": true`.
  var replace: Bool
  /// `--start` was given: the request says `"start": true`.
  var start: Bool

  /// The options among `words`, wherever they are.
  init(_ words: [String]) {
    replace = words.contains(Self.replace)
    start = words.contains(Self.start)
    self.words = words.filter { $0 != Self.replace && $0 != Self.start }
  }
}
