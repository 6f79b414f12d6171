// SPDX-License-Identifier: MIT
// Line changes over time, as a logic analyser would record them, for the protocol decoders.
//
// The decoders in this module model the chips from their datasheets and know nothing of the
// drivers: they turn recorded waveforms back into what each chip would latch.

/// The levels of a few lines over time.
public struct Waveform: Sendable {
  /// One change of one line.
  public struct Edge: Hashable, Sendable {
    public var instant: Int64
    public var line: Int
    public var value: Bool
    public init(instant: Int64, line: Int, value: Bool) {
      self.instant = instant
      self.line = line
      self.value = value
    }
  }

  /// The level of each line before the first edge.
  public var initial: [Int: Bool]
  /// Changes in time order; equal instants keep the order given.
  public var edges: [Edge]

  public init(initial: [Int: Bool], edges: [Edge]) {
    self.initial = initial
    self.edges = edges
  }

  /// From per-line histories whose first entry is the line's initial level (what
  /// `FakeGPIOChip.history(of:)` returns for a line requested once). Histories must have
  /// distinct instants across lines where order matters.
  public init(histories: [Int: [(instant: Int64, value: Bool)]]) {
    var initial: [Int: Bool] = [:]
    var edges: [Edge] = []
    for (line, history) in histories {
      guard let first = history.first else { continue }
      initial[line] = first.value
      var level = first.value
      for change in history.dropFirst() where change.value != level {
        edges.append(Edge(instant: change.instant, line: line, value: change.value))
        level = change.value
      }
    }
    self.initial = initial
    self.edges = edges.sorted { $0.instant < $1.instant }
  }

  /// From successive snapshots of all lines (one per sample, `lines[i]` the line of column i),
  /// such as values read back from the kernel after every write. Instants are sample indexes.
  public init(samples: [[Bool]], lines: [Int]) {
    var initial: [Int: Bool] = [:]
    var edges: [Edge] = []
    guard let first = samples.first else {
      self.init(initial: [:], edges: [])
      return
    }
    for (column, line) in lines.enumerated() { initial[line] = first[column] }
    var previous = first
    for (index, sample) in samples.enumerated().dropFirst() {
      for (column, line) in lines.enumerated() where sample[column] != previous[column] {
        edges.append(Edge(instant: Int64(index), line: line, value: sample[column]))
      }
      previous = sample
    }
    self.init(initial: initial, edges: edges)
  }
}

/// The shortest time each level was held, to check half periods against a datasheet minimum.
struct HoldTimes {
  var shortestHigh: Int64 = .max
  var shortestLow: Int64 = .max
  var lastChange: Int64?
  mutating func record(newValue: Bool, at instant: Int64) {
    if let last = lastChange {
      let held = instant - last
      // The level that just ended is the opposite of the new one.
      if newValue {
        shortestLow = min(shortestLow, held)
      } else {
        shortestHigh = min(shortestHigh, held)
      }
    }
    lastChange = instant
  }
}
