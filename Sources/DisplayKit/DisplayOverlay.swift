// SPDX-License-Identifier: MIT
// A picture that takes the place of the workout's on every display for a moment: what a keypad
// is composing (`A 14`, `E 10×1`), or the question before a running workout is replaced.

/// What the displays show instead of the workout or the idle clock while it is set.
public struct DisplayOverlay: Sendable, Hashable {
  /// The big text: `A 14`, `E 10×1`, `again?`.
  public var text: String
  /// The text for 7-segment digits: separators as decimal points (`E 10.1`), words their font
  /// can draw (`SurE`).
  public var narrow: String
  /// The line under the big text: `ENTER loads`, `press again to replace`, what is missing.
  public var caption: String

  public init(text: String, narrow: String, caption: String) {
    self.text = text
    self.narrow = narrow
    self.caption = caption
  }

  /// The text and its caption on one line, for displays that give the overlay a line of text
  /// (the terminal's message line, a web page's): `A 14  ·  ENTER loads`.
  public var line: String { "\(text)  ·  \(caption)" }
}
