// SPDX-License-Identifier: MIT
// How an LED matrix draws a frame, in one place: the matrix outputs draw their frames with it,
// and `wodclockctl snapshot` draws its previews with it, so a preview is exactly the picture a
// matrix of that size would show.

import Configuration
import DisplayKit
import HardwareKit
import MatrixKit
import WorkoutCore

enum MatrixPicture {
  /// Draws `snapshot` as the time of day `civilTime` shows it, in the frame's tokens, words and
  /// clock face; what blinks is lit or dark by the frame's monotonic clock. The heat's lanes
  /// (a call-up's countdown, the turns of the lanes' line) are drawn as at monotonic `instant`,
  /// the frame's own unless the picture is drawn ahead of it.
  static func draw(
    _ snapshot: WorkoutSnapshot, civilTime: CivilTime, frame: OutputFrame,
    at instant: Int64? = nil, renderer: inout MatrixRenderer, into buffer: inout Framebuffer
  ) {
    renderer.tokens = frame.tokens
    renderer.words = frame.words
    renderer.face = frame.clock.face
    let time = TimeOfDay(hour: civilTime.hour, minute: civilTime.minute, second: civilTime.second)
    if let overlay = frame.overlay {
      renderer.render(overlay, timeOfDay: time, into: &buffer)
      return
    }
    let milliseconds = frame.monotonicNow / 1_000_000
    if let lanes = frame.lanes,
      renderer.heatLines(snapshot, lanes: lanes, milliseconds: milliseconds) != nil
    {
      // Blinking follows the frame's clock as without a heat; the heat's parts the instant's.
      renderer.render(
        snapshot, timeOfDay: time, milliseconds: (instant ?? frame.monotonicNow) / 1_000_000,
        lanes: lanes, into: &buffer)
      return
    }
    renderer.render(snapshot, timeOfDay: time, milliseconds: milliseconds, into: &buffer)
  }

  /// The picture of `frame` on a `width`×`height` matrix, its words in `font`.
  static func preview(
    _ frame: OutputFrame, width: Int, height: Int, font: CaptionFont = .small
  ) -> Framebuffer {
    var renderer = MatrixRenderer(width: width, height: height, font: font)
    var buffer = Framebuffer(
      width: width, height: height, fill: frame.tokens.color(for: .background))
    draw(
      frame.snapshot, civilTime: frame.civilTime, frame: frame, renderer: &renderer,
      into: &buffer)
    return buffer
  }
}

extension MatrixOutput {
  /// The picture of the last frame the controller was sent, before brightness, gamma and the
  /// current cap: nil before the first. While the controller is away it stays the last one that
  /// reached it, not the one drawn for the send that failed.
  var shownPicture: Framebuffer? { sentPicture }
}
