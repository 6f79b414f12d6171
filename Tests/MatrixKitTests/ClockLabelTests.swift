// SPDX-License-Identifier: MIT

import DisplayKit
import MatrixKit
import Testing
import WodclockTestSupport
import WorkoutCore

/// The time of day has no phase word: its line shows the snapshot's label (the next class on
/// the idle screen), cut to the panel, and leaves the digits as they are.
@Suite struct ClockLabelTests {
  static func litPixels(_ buffer: Framebuffer, in rect: PixelRect, background: RGB) -> Int {
    var count = 0
    for y in rect.y..<(rect.y + rect.height) {
      for x in rect.x..<(rect.x + rect.width) where buffer[x, y] != background {
        count += 1
      }
    }
    return count
  }

  @Test(arguments: [(64, 32), (128, 64), (32, 16)])
  func theLabelShowsOnTheClockLine(width: Int, height: Int) throws {
    var clock = try Workout(.clock(ClockFace(twentyFourHour: true)), name: "clock")
    let plain = clock.snapshot(1)
    var labelled = plain
    labelled.label = "06:10 Early WOD and a long name"
    let renderer = MatrixRenderer(width: width, height: height)
    let time = TimeOfDay(hour: 6, minute: 2)
    let without = renderer.render(plain, timeOfDay: time, milliseconds: 200)
    let with = renderer.render(labelled, timeOfDay: time, milliseconds: 200)
    let layout = MatrixLayout.standard(width: width, height: height)
    let background = DesignTokens.standard.color(for: .background)
    #expect(Self.litPixels(without, in: layout.label, background: background) == 0)
    #expect(Self.litPixels(with, in: layout.label, background: background) > 0)
    #expect(
      Self.litPixels(with, in: layout.time, background: background)
        == Self.litPixels(without, in: layout.time, background: background))
  }
}
