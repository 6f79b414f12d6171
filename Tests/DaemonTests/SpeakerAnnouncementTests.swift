// SPDX-License-Identifier: MIT
// The speaker saying a heat's announcements, driven frame by frame on manual time into the
// manual card, with a stand-in synthesizer child: each new announcement is voiced in a job of
// its own and said once; those of the first frame and those that come while muted are never
// said; one that comes while a job runs waits for it.

import Configuration
import DisplayKit
import Glibc
import HardwareKit
import SoundKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

@Suite(.serialized) struct SpeakerAnnouncementTests {
  /// A stand-in synthesizer that takes a moment (so that a second request finds it at work)
  /// and answers every line with half a second of a steady level at 22050 Hz.
  static let slowSynthesizer = VoiceSynthesizer(command: [
    "/bin/sh", "-c",
    #"""
    lines=$(cat)
    sleep 0.2
    printf 'WCV1\042\126\0\0'
    printf '%s\n' "$lines" | while IFS= read -r line; do
      printf '\021\053\0\0'; head -c 22050 /dev/zero | tr '\0' '\020'
    done
    """#,
    "synthesizer",
  ])

  /// A speaker with the voice on, its card and its clock, and the lines it logged.
  final class Rig {
    var now: Int64 = 1_000 * 1_000_000_000
    var card: ManualSoundCard!
    var output: SpeakerOutput!
    var logged: [String] = []
    let snapshot: WorkoutSnapshot

    init() throws {
      var workout = try Workout(.forTime(ForTimeParameters(cap: .seconds(600))), name: "Heat")
      snapshot = workout.snapshot(0)
      card = ManualSoundCard(now: { [unowned self] in self.now })
      let instance = try pluginInstance(
        .output, "{type: speaker, id: pa, device: test, voice: true}")
      output = try SpeakerOutput(
        instance: instance,
        openStream: { [unowned self] _, _ throws(ALSAError) in
          self.card.reopened()
        }, synthesizer: SpeakerAnnouncementTests.slowSynthesizer,
        clock: { [unowned self] in self.now })
      let logger = Logger(minimumLevel: .info)
      logger.sink = { [unowned self] _, line in self.logged.append(line) }
      try output.start(
        PluginContext(id: "pa", logger: logger, speed: 1, claimTerminal: { _ in }))
    }

    /// A frame now with `announcements`, muted or not.
    func render(_ announcements: [Announcement], muted: Bool = false) throws {
      var current = frame(snapshot, at: now, muted: muted)
      current.announcements = announcements
      try output.render(current)
    }

    /// Frames every 5 ms for `seconds` with the same announcements; the voice's child is let
    /// work at each.
    func run(_ seconds: Double, _ announcements: [Announcement], muted: Bool = false) throws {
      let end = now + Int64(seconds * 1e9)
      while now < end {
        now += 5_000_000
        try render(announcements, muted: muted)
        try letTheVoiceWork()
      }
    }

    /// The voice's child works in real time, the test in manual time: while a job runs, manual
    /// time stands still and the test waits until the child says something (its descriptors'
    /// readiness), which the output then takes in. The 30 s only stop a hang; however slow the
    /// machine, the child has all the time it needs before the manual clock moves on.
    func letTheVoiceWork() throws {
      guard let job = output.announcementJob else { return }
      var watched = job.descriptors.map {
        pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0)
      }
      let ready = poll(&watched, nfds_t(watched.count), 30_000)
      #expect(ready > 0, "the voice's child said nothing in 30 s")
      for entry in watched where entry.revents != 0 {
        try output.handleReady(
          FileDescriptor(rawValue: entry.fd),
          Readiness(isReadable: true, isHangup: entry.revents & Int16(POLLHUP) != 0), at: now)
      }
    }

    /// The runs of sound the card played: each one's length in seconds.
    var spoken: [Double] {
      var runs: [Double] = []
      var count = 0
      for frame in card.heard {
        if frame.sample != 0 {
          count += 1
        } else if count > 0 {
          runs.append(Double(count) / Double(card.sampleRate))
          count = 0
        }
      }
      if count > 0 { runs.append(Double(count) / Double(card.sampleRate)) }
      return runs
    }
  }

  static let old = Announcement(serial: 7, text: "Lane 1, 6:58")
  static let lane3 = Announcement(serial: 8, text: "Lane 3, 7:42")
  static let lane4 = Announcement(serial: 9, text: "Lane 4, 7:50")

  @Test func eachNewAnnouncementIsVoicedAndSaidOnceAndAnotherWaitsForItsJob() throws {
    let rig = try Rig()
    defer { rig.output.stop() }
    // The first frame's announcement is old: noted, not said.
    try rig.render([Self.old])
    #expect(rig.output.announcementJob == nil)
    rig.now += 5_000_000
    try rig.render([Self.old, Self.lane3])
    #expect(rig.output.announcementJob?.texts == ["Lane 3, 7:42"])
    // Lane 4 finishes while lane 3's voice is being made: it waits for that job.
    rig.now += 5_000_000
    try rig.render([Self.old, Self.lane3, Self.lane4])
    #expect(rig.output.announcementJob?.texts == ["Lane 3, 7:42"])
    var jobs: [[String]] = []
    let end = rig.now + 10 * 1_000_000_000
    while rig.now < end {
      if let texts = rig.output.announcementJob?.texts, jobs.last != texts { jobs.append(texts) }
      rig.now += 5_000_000
      try rig.render([Self.old, Self.lane3, Self.lane4])
      try rig.letTheVoiceWork()
    }
    #expect(jobs == [["Lane 3, 7:42"], ["Lane 4, 7:50"]])
    // Said: two half seconds (the stand-in's), each once, though every frame carried them.
    let spoken = rig.spoken
    #expect(spoken.count == 2, "\(spoken)")
    #expect(spoken.allSatisfy { abs($0 - 0.5) < 0.01 }, "\(spoken)")
  }

  @Test func nothingIsSaidWhileMutedNorAfterForWhatCameThen() throws {
    let rig = try Rig()
    defer { rig.output.stop() }
    try rig.render([])
    try rig.run(0.1, [Self.lane3], muted: true)
    #expect(rig.output.announcementJob == nil)
    try rig.run(3, [Self.lane3])
    #expect(rig.output.announcementJob == nil)
    #expect(rig.spoken.isEmpty)
    // The next one after the mute is said.
    try rig.run(5, [Self.lane3, Self.lane4])
    #expect(rig.spoken.count == 1, "\(rig.spoken)")
  }

  @Test func aFullQueueDropsTheOldestAndSaysSo() throws {
    let rig = try Rig()
    defer { rig.output.stop() }
    try rig.render([])
    let many = (1...20).map { Announcement(serial: $0, text: "Lane \($0), 7:42") }
    rig.now += 5_000_000
    try rig.render(many)
    // All twenty come in one frame: the four oldest make room for the rest.
    let dropped = rig.logged.filter { $0.contains("too many announcements waiting") }
    #expect(dropped.count == 20 - AnnouncementQueue.capacity, "\(dropped)")
    #expect(dropped.first?.contains("Lane 1, 7:42") == true)
  }
}
