// SPDX-License-Identifier: MIT
// The heat's lanes as the wall's displays show them: which lane finished, in what time, at what
// place; and the call-up between heats. Made by the daemon from its heats, drawn by each output.

/// One lane as the displays show it.
public struct LaneLine: Sendable, Equatable, Hashable {
  /// The lane's number (1...64).
  public var lane: Int
  /// The athlete's name; empty for a numbered lane without a heat sheet.
  public var athlete: String
  /// The lane's result as shown: `7:42.3`, `CAP+12`, `5+12`; nil while the athlete works.
  public var result: String?
  /// The lane's place in its division so far; nil while it works.
  public var place: Int?

  public init(lane: Int, athlete: String, result: String? = nil, place: Int? = nil) {
    self.lane = lane
    self.athlete = athlete
    self.result = result
    self.place = place
  }

  /// `L3 7:42` (a matrix's line): the lane and its result, nil while the athlete works.
  public var shortText: String? { result.map { "L\(lane) \($0)" } }
}

/// The heat on the wall: its lanes during and after it, or its call-up before it.
public struct LaneBoard: Sendable, Equatable, Hashable {
  public enum Phase: String, Sendable, Equatable, Hashable {
    /// Between heats: the next heat's lanes are called up; its start follows the countdown.
    case callUp = "call_up"
    /// The heat's workout runs.
    case running
    /// The heat is over; its results stand.
    case done
  }

  /// The heat's number; nil for numbered lanes without a heat sheet.
  public var heat: Int?
  public var phase: Phase
  /// The monotonic instant of the heat's start during a call-up.
  public var startsAt: Int64?
  public var lanes: [LaneLine]

  public init(heat: Int?, phase: Phase, startsAt: Int64? = nil, lanes: [LaneLine]) {
    self.heat = heat
    self.phase = phase
    self.startsAt = startsAt
    self.lanes = lanes
  }

  /// The lanes that have a result, in the order they finished is not known here: by place, then
  /// lane (what a matrix lists under the clock).
  public var finished: [LaneLine] {
    lanes.filter { $0.result != nil }.sorted {
      ($0.place ?? .max, $0.lane) < ($1.place ?? .max, $1.lane)
    }
  }
}

/// Something the clock says once (a lane's finish, a heat's call-up): its text and a serial
/// number that only grows, so an output that has said it does not say it again.
public struct Announcement: Sendable, Equatable, Hashable {
  public var serial: Int
  /// The words as written ("Lane 3, 7:42"): a speech synthesizer reads the numbers aloud.
  public var text: String

  public init(serial: Int, text: String) {
    self.serial = serial
    self.text = text
  }
}
