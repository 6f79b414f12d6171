// SPDX-License-Identifier: MIT
// A subscriber gets a status when something a person would see changed, not when only the
// running figures moved.

import JSONKit
import Testing

@testable import WodclockDaemon

@Suite struct SubscriberFeedTests {
  private func status(display: String, elapsed: Double) -> JSONValue {
    .object(
      JSONObject([
        ("state", .string("running")), ("display", .string(display)),
        ("elapsed_s", .double(elapsed)), ("remaining_s", .double(840 - elapsed)),
        ("round", .null),
      ]))
  }

  @Test func aStatusGoesOutWhenWhatIsSeenChangesNotWhenTheRunningFiguresMove() {
    var feed = SubscriberFeed()
    #expect(
      feed.events(cues: [], status: status(display: "0:10", elapsed: 10.0), force: false).count == 1
    )
    #expect(
      feed.events(cues: [], status: status(display: "0:10", elapsed: 10.4), force: false).isEmpty)
    #expect(
      feed.events(cues: [], status: status(display: "0:11", elapsed: 11.0), force: false).count == 1
    )
    #expect(
      feed.events(cues: [], status: status(display: "0:11", elapsed: 11.2), force: true).count == 1)
    // A member more (or less) is a change too.
    var more = status(display: "0:11", elapsed: 11.3).objectValue!
    more["label"] = .string("Row")
    #expect(feed.events(cues: [], status: .object(more), force: false).count == 1)
    #expect(
      feed.events(cues: [], status: status(display: "0:11", elapsed: 11.5), force: false).count == 1
    )
  }
}
