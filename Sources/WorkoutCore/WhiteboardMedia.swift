// SPDX-License-Identifier: MIT
// Which picture or video goes beside the clock: the one the current step's whiteboard line
// names, else the whole workout's. One rule for the socket's status and the web's face.

extension WorkoutPlan {
  /// The media file shown while the step of whiteboard line `line` runs: that line's own, else
  /// the plan's; nil when neither names one. A line index out of the whiteboard is no line.
  public func mediaShown(atLine line: Int?) -> String? {
    if let line, whiteboard.indices.contains(line), let own = whiteboard[line].media {
      return own
    }
    return media
  }
}
