// SPDX-License-Identifier: MIT
// What a keypad composes, on 7-segment digits: right-aligned, separators as decimal points,
// spaces then the beginning dropped when it is too long.

import DisplayKit
import SevenSegment
import Testing

@Suite struct OverlayTextTests {
  private func shown(_ text: String, on template: String) throws -> [Segments] {
    let layout = try SegmentLayout(parsing: template)
    return SegmentRenderer.render(
      text: text, layout: layout, tokens: .standard, timeOfDay: TimeOfDay(hour: 12, minute: 0)
    ).digits
  }

  @Test func aFittingTextIsShownAsItIsRightAligned() throws {
    #expect(try shown("A 14", on: "MM:SS") == SegmentFont.render("A 14"))
    #expect(try shown("A 14", on: "RR MM:SS") == SegmentFont.render("  A 14"))
    #expect(try shown("SurE", on: "MM:SS") == SegmentFont.render("SurE"))
  }

  @Test func decimalPointsTakeNoDigitAndSpacesGoFirst() throws {
    // E 10.1 is five digits with its space: on four the space goes.
    #expect(try shown("E 10.1", on: "MM:SS") == SegmentFont.render("E10.1"))
    #expect(try shown("E 10.1", on: "RR MM:SS") == SegmentFont.render(" E 10.1"))
  }

  @Test func tooLongATextKeepsItsEnd() throws {
    #expect(try shown("t 8.20.10", on: "MM:SS") == SegmentFont.render("20.10"))
    #expect(try shown("t 8.20.10", on: "MM:SS").count == 4)
  }
}
