// SPDX-License-Identifier: MIT
// Announcements (a lane's finish, a heat's call-up) on the speaker: made into parts, voiced,
// said once where no cue sounds, waiting for a countdown, said again whole after a cue cut
// them, dropped when muted, and never more than the queue holds.

import SoundKit
import Testing
import WorkoutCore

@Suite struct AnnouncementTests {
  /// A steady level nothing else makes (a beep's samples rise and fall): the frames heard at
  /// exactly this level are the announcement's where nothing else sounds.
  static let level: Int16 = 5_000

  /// `seconds` of the steady level at the test card's rate (no resampling).
  static func clip(_ seconds: Double) -> PCMClip {
    PCMClip(
      sampleRate: SpeakerRun.sampleRate,
      samples: [Int16](
        repeating: level, count: Int(seconds * Double(SpeakerRun.sampleRate))))
  }

  /// The runs of frames heard at the announcement's level: each run's first instant and
  /// length in seconds.
  static func said(_ run: SpeakerRun) -> [(start: Int64, seconds: Double)] {
    var runs: [(start: Int64, seconds: Double)] = []
    var start: Int64?
    var count = 0
    func close() {
      if let first = start { runs.append((first, Double(count) / Double(SpeakerRun.sampleRate))) }
      start = nil
      count = 0
    }
    for frame in run.heard {
      if frame.sample == level {
        if start == nil { start = frame.instant }
        count += 1
      } else {
        close()
      }
    }
    close()
    return runs.filter { $0.seconds > 0.01 }
  }

  /// Announces `text` and answers its voice at once with `seconds` of the steady level.
  static func announce(_ text: String, seconds: Double, on run: inout SpeakerRun) throws {
    run.player.announce(text)
    let texts = try #require(run.player.announcementTextsToVoice)
    run.player.announcementVoiceStarted()
    #expect(run.player.announcementTextsToVoice == nil, "one child at a time")
    let dropped = run.player.announcementVoiceFinished(
      Dictionary(uniqueKeysWithValues: texts.map { ($0, clip(seconds)) }))
    #expect(dropped.isEmpty)
  }

  @Test func anAnnouncementIsSaidOnceAtTheFirstInstantWithRoom() throws {
    var run = SpeakerRun()
    run.run(until: 1)
    let asked = run.now
    try Self.announce("Lane 3, 7:42", seconds: 0.5, on: &run)
    run.run(until: 4)
    let said = Self.said(run)
    #expect(said.count == 1, "\(said)")
    if let first = said.first {
      #expect(abs(first.seconds - 0.5) < 0.002)
      // Within a poll and a buffer of the request.
      #expect(first.start - asked <= SpeakerPlayer.announcementPoll + SpeakerRun.bufferTime)
    }
    #expect(run.player.announcements.count == 0)
  }

  /// A finish during a count-in's 3-2-1 waits for the horn to end: every cue is on time and
  /// alone, and the announcement comes after, whole.
  @Test func anAnnouncementWaitsForACountdownToEnd() throws {
    let plan = [
      SpeakerPlayerTests.countdown(3, at: 2), SpeakerPlayerTests.countdown(2, at: 3),
      SpeakerPlayerTests.countdown(1, at: 4), SpeakerPlayerTests.horn(at: 5),
    ]
    var run = SpeakerRun(plan: plan)
    run.run(until: 2.2)
    try Self.announce("Lane 3, 7:42", seconds: 0.5, on: &run)
    run.run(until: 9)
    let onsets = run.onsets()
    #expect(onsets.count == 5, "\(onsets.map(SpeakerRun.seconds))")
    for (onset, cue) in zip(onsets, plan) { SpeakerPlayerTests.expectOnTime(onset, cue.due) }
    let said = Self.said(run)
    #expect(said.count == 1, "\(said)")
    let hornEnds = run.heard.last { $0.instant < (said.first?.start ?? 0) && $0.sample != 0 }
    if let first = said.first, let hornEnds {
      #expect(first.start > SpeakerRun.instant(5))
      #expect(first.start - hornEnds.instant >= SpeakerPlayer.announcementMargin)
      #expect(abs(first.seconds - 0.5) < 0.002)
    }
  }

  /// A cue nobody could see when the announcement began (more than the look ahead away) cuts
  /// it on time; it is said again whole once the cue is over.
  @Test func aCueCutsAnAnnouncementWhichIsSaidAgainWholeAfter() throws {
    let beep = SpeakerPlayerTests.countdown(3, at: 2.5)
    var run = SpeakerRun(plan: [beep])
    run.run(until: 1)
    try Self.announce("Heat 3. Lane 1, Anna.", seconds: 2, on: &run)
    run.run(until: 8)
    // The beep on time: from its instant the frames are the beep's, not the announcement's.
    let atBeep = run.heard.filter { $0.instant >= beep.due && $0.instant < beep.due + 50_000_000 }
    #expect(!atBeep.isEmpty)
    #expect(atBeep.contains { $0.sample != 0 })
    #expect(!atBeep.dropFirst(40).contains { $0.sample == Self.level })
    let said = Self.said(run)
    #expect(said.count == 2, "\(said)")
    if said.count == 2 {
      #expect(said[0].seconds < 1.6, "cut by the beep")
      #expect(said[0].start + Int64(said[0].seconds * 1e9) <= beep.due + 3_000_000)
      #expect(said[1].start > beep.due)
      #expect(abs(said[1].seconds - 2) < 0.002, "said again whole")
    }
  }

  @Test func silenceDropsWhatWaits() throws {
    var run = SpeakerRun()
    run.run(until: 1)
    run.player.announce("Lane 1, 7:42")
    run.player.announcementVoiceStarted()
    run.player.silence(nextChange: nil, at: run.now)
    #expect(run.player.announcements.count == 0)
    // The voice that comes after is of nothing waiting.
    run.player.announcementVoiceFinished(["Lane 1, 7:42": Self.clip(0.5)])
    run.run(until: 3)
    #expect(Self.said(run).isEmpty)
  }

  @Test func aVoiceThatFailsDropsItsAnnouncements() {
    var run = SpeakerRun()
    run.player.announce("Lane 1, 7:42")
    run.player.announcementVoiceStarted()
    run.player.announce("Lane 2, 7:50")
    #expect(run.player.announcementVoiceFinished(nil) == ["Lane 1, 7:42"])
    // The one that came meanwhile is made next.
    #expect(run.player.announcementTextsToVoice == ["Lane 2, 7:50"])
  }

  @Test func theQueueHoldsSixteenAndDropsTheOldest() {
    var queue = AnnouncementQueue()
    for lane in 1...AnnouncementQueue.capacity {
      #expect(queue.add("Lane \(lane), 7:42") == nil)
    }
    #expect(queue.add("Lane 17, 7:42") == "Lane 1, 7:42")
    #expect(queue.count == AnnouncementQueue.capacity)
    #expect(queue.textsToVoice?.first == "Lane 2, 7:42")
    #expect(queue.add(" \n\t") == nil)
    #expect(queue.count == AnnouncementQueue.capacity, "nothing to say is not added")
  }

  @Test func aLongCallUpIsSaidInPartsCutAfterItsSentences() {
    let names = [
      "Anna Karlsson", "Benjamin Okafor", "Cleo Martin", "Dmitri Ivanov", "Eva Lindqvist",
      "Farid Haddad", "Greta Schmidt",
    ]
    let text =
      "Heat 3. "
      + names.enumerated().map { "Lane \($0.offset + 1), \($0.element)." }.joined(separator: " ")
      + " Lane 8,\nHugo."
    let parts = AnnouncementQueue.parts(of: text)
    #expect(parts.count > 1)
    #expect(parts.allSatisfy { $0.utf8.count <= AnnouncementQueue.partBytes })
    #expect(parts.allSatisfy { $0.hasSuffix(".") }, "\(parts)")
    #expect(parts.joined(separator: " ") == text.replacing("\n", with: " "))
    #expect(AnnouncementQueue.parts(of: "Lane 3, 7:42") == ["Lane 3, 7:42"])
    let long = String(repeating: "x", count: 300)
    #expect(
      AnnouncementQueue.parts(of: long).allSatisfy { $0.utf8.count <= AnnouncementQueue.partBytes })
    #expect(AnnouncementQueue.parts(of: long).joined() == long)
  }
}
