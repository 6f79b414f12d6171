// SPDX-License-Identifier: MIT
// Plans every cue of a timeline at an offset within its segment.

/// Turns a laid-out timeline into per-segment cue schedules. Cues that belong to the whole
/// workout (halfway, last ten seconds) are placed in the segment that contains their instant.
struct CuePlanner {
  let plan: WorkoutPlan
  let segments: [Segment]
  let workoutStartIndex: Int

  private static let second = TimeSpan.seconds(1)

  func schedule() -> [[ScheduledCue]] {
    var schedule = [[ScheduledCue]](repeating: [], count: segments.count)
    let options = plan.cues
    for index in segments.indices {
      let segment = segments[index]
      let previous = index > 0 ? segments[index - 1] : nil
      let next = index + 1 < segments.count ? segments[index + 1] : nil
      var cues: [ScheduledCue] = []
      func at(_ offset: TimeSpan, _ kind: CueKind) {
        cues.append(ScheduledCue(offset: offset, kind: kind))
      }

      // At the start: the workout's start, a side change, a new round, the segment itself.
      if index == workoutStartIndex { at(.zero, .start) }
      if let side = segment.side, let before = previous?.side, before != side {
        at(.zero, .sideSwitch(to: side))
      }
      if let round = segment.round, round != previous?.round {
        at(.zero, .roundStart(round))
        // Counting the round that starts, the first included: a 5-round EMOM announces 5 as it
        // begins (WODrounds' rounds-remaining cue).
        if let count = round.count {
          let remaining = count - round.index + 1
          if options.roundsRemaining.contains(remaining) { at(.zero, .roundsRemaining(remaining)) }
        }
      }
      at(.zero, .segmentStart(segment.kind))

      // Within: 3-2-1 before the end, and the per-segment halfway / last ten seconds.
      if let length = segment.duration {
        if segment.kind == .work {
          if options.segmentHalfway && length >= .seconds(10) {
            at(TimeSpan(nanoseconds: length.nanoseconds / 2), .segmentHalfway)
          }
          if options.segmentLastTenSeconds && length > .seconds(20) {
            at(length - .seconds(10), .segmentLastTenSeconds)
          }
        }
        if options.countdown && segment.kind.hasCountdown {
          // A "3" that falls on the segment's first instant (a 3 s count-in or side switch)
          // still sounds: the whole 3-2-1 fits in it.
          for secondsLeft in stride(from: 3, through: 1, by: -1)
          where Self.second * Int64(secondsLeft) <= length {
            at(
              length - Self.second * Int64(secondsLeft),
              .countdown(secondsLeft: secondsLeft, ending: segment.kind))
          }
        }

        // TempoRep's count through a phase of several seconds: 2 at its first second, 3 at its
        // second, up to 9; a phase of 1.5 s counts 2 (its length rounded to whole seconds).
        if segment.kind.tempoPhase != nil {
          let seconds = min(
            9, (length.nanoseconds + Self.second.nanoseconds / 2) / Self.second.nanoseconds)
          if seconds >= 2 {
            for count in 2...Int(seconds) where Self.second * Int64(count - 1) < length {
              at(Self.second * Int64(count - 1), .tempoCount(count))
            }
          }
        }

        // At the end: rep and set completion, the cap, the finish.
        if segment.kind.tempoPhase != nil, let rep = segment.rep,
          next?.rep != rep || next?.kind.tempoPhase == nil || next?.set != segment.set
            || next?.side != segment.side
        {
          at(length, .repComplete(rep))
        }
        if let set = segment.set, segment.kind != .setRest, segment.kind != .sideSwitch,
          isLastOfSet(index, set)
        {
          at(length, .setComplete(set))
        }
        if next == nil {
          if case .forTime = plan.mode { at(length, .capReached) }
          at(length, .finish)
        }
      }
      schedule[index] = cues
    }
    addWorkoutCues(to: &schedule)
    for index in schedule.indices {
      // A stable sort keeps the planned order of cues that share an offset.
      schedule[index] = schedule[index].enumerated()
        .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
        .map(\.element)
    }
    return schedule
  }

  private func isLastOfSet(_ index: Int, _ set: Counter) -> Bool {
    for later in segments[(index + 1)...] {
      if later.kind == .setRest || later.kind == .sideSwitch { continue }
      return later.set != set
    }
    return true
  }

  /// Halfway and last ten seconds of a bounded workout.
  private func addWorkoutCues(to schedule: inout [[ScheduledCue]]) {
    guard workoutStartIndex < segments.count else { return }
    var total = TimeSpan.zero
    for segment in segments[workoutStartIndex...] {
      guard let length = segment.duration else { return }
      total = total + length
    }
    var marks: [(TimeSpan, CueKind)] = []
    if plan.cues.halfway && total >= .seconds(20) {
      marks.append((TimeSpan(nanoseconds: total.nanoseconds / 2), .halfway))
    }
    if plan.cues.lastTenSeconds && total > .seconds(20) {
      marks.append((total - .seconds(10), .lastTenSeconds))
    }
    for (mark, kind) in marks {
      var start = TimeSpan.zero
      for index in workoutStartIndex..<segments.count {
        let length = segments[index].duration ?? .zero
        if mark < start + length {
          schedule[index].append(ScheduledCue(offset: mark - start, kind: kind))
          break
        }
        start = start + length
      }
    }
  }
}
