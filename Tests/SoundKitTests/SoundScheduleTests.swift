// SPDX-License-Identifier: MIT
// The sound schedule on manual instants: newest wins, priorities at one instant, mute.

import DisplayKit
import SoundKit
import SounderKit
import Testing
import WorkoutCore

@Suite struct SoundScheduleTests {
  /// A bank of plain clips at 1 kHz (one frame a millisecond), lengths in milliseconds.
  static func bank(_ lengths: [Int]) -> (SoundBank, [SoundID]) {
    var bank = SoundBank(sampleRate: 8_000)
    let ids = lengths.enumerated().map { index, length in
      bank.add(
        PCMClip(sampleRate: 8_000, samples: [Int16](repeating: 1_000, count: length * 8)),
        as: .file("\(index)"))!
    }
    return (bank, ids)
  }

  @Test func aNewCueCutsWhatStillPlays() {
    let (bank, ids) = Self.bank([1_000, 200])
    var schedule = SoundSchedule()
    schedule.play([.init(sound: ids[0])], at: ms(0), bank: bank)
    schedule.play([.init(sound: ids[1], channel: .voice)], at: ms(300), bank: bank)
    // The first is cut at 300 ms, with its fade, across channels; the second plays whole.
    #expect(schedule.entries.map(\.start) == [0, ms(300)])
    #expect(schedule.entries[0].cut == ms(300))
    #expect(schedule.entries[0].silentFrom == ms(302))
    #expect(schedule.entries[1].cut == nil && schedule.entries[1].silentFrom == ms(500))
    // Nothing queues: a cue older than the last one played is dropped.
    schedule.play([.init(sound: ids[0])], at: ms(100), bank: bank)
    #expect(schedule.entries.count == 2)
  }

  /// A speaker schedules cues it foresees before their instant; a press takes them back.
  @Test func withdrawnCuesGoAndWhatTheyCutPlaysOn() {
    let (bank, ids) = Self.bank([1_000, 200])
    var schedule = SoundSchedule()
    schedule.play([.init(sound: ids[0])], at: ms(0), bank: bank)
    schedule.play([.init(sound: ids[1])], at: ms(600), bank: bank)
    #expect(schedule.entries[0].cut == ms(600))
    // A lap at 400 ms: the foreseen cue at 600 ms goes, the first sound is whole again, and
    // a cue at 400 ms may play (it is no longer older than the last one).
    schedule.withdraw(cuesAfter: ms(400))
    #expect(schedule.entries.map(\.start) == [0])
    #expect(schedule.entries[0].cut == nil)
    schedule.play([.init(sound: ids[1])], at: ms(400), bank: bank)
    #expect(schedule.entries.map(\.start) == [0, ms(400)])
    #expect(schedule.entries[0].cut == ms(400))
    // Withdrawing before everything empties the schedule.
    schedule.withdraw(cuesAfter: -1)
    #expect(schedule.entries.isEmpty)
    schedule.play([.init(sound: ids[1])], at: ms(10), bank: bank)
    #expect(schedule.entries.map(\.start) == [ms(10)])
  }

  @Test func ofCuesAtOneInstantEachChannelGoesToTheHighestPriority() {
    let (bank, ids) = Self.bank([500, 400, 300])
    var schedule = SoundSchedule()
    let finish = SpeakerCueRules.priority(of: .finish)
    let countdown = SpeakerCueRules.priority(of: .countdown(secondsLeft: 1, ending: .work))
    schedule.play([.init(sound: ids[0])], at: ms(10), priority: finish, bank: bank)
    schedule.play([.init(sound: ids[1])], at: ms(10), priority: countdown, bank: bank)
    #expect(schedule.entries.map(\.sound) == [ids[0]])
    // A lower cue still speaks on the channel the higher one left free ...
    schedule.play(
      [.init(sound: ids[2], channel: .voice)], at: ms(10), priority: countdown, bank: bank)
    #expect(schedule.entries.map(\.sound) == [ids[0], ids[2]])
    // ... and of equal priority the later cue wins.
    schedule.play([.init(sound: ids[1])], at: ms(10), priority: finish, bank: bank)
    #expect(Set(schedule.entries.map(\.sound)) == [ids[1], ids[2]])
  }

  @Test func aRepsDoubleTickIsNotLostToTheNextPhasesTick() {
    // At a rep's end the engine emits rep_complete, then the next rep's first phase starts.
    let rules = SpeakerCueRules.standard
    let lines = SpokenLines(language: .english)
    var bank = SoundBank(sampleRate: 8_000)
    for key in rules.soundKeys {
      guard case .generated(let sound) = key else { continue }
      bank.add(sound.clip(sampleRate: 8_000), as: key)
    }
    bank.add(
      PCMClip(sampleRate: 8_000, samples: [Int16](repeating: 500, count: 2_000)), as: .voice("Down")
    )
    var schedule = SoundSchedule()
    for kind in [CueKind.repComplete(Counter(1, of: 5)), .segmentStart(.eccentric)] {
      schedule.play(
        rules.parts(for: kind, seed: 0, lines: lines, bank: bank), at: ms(4_000),
        priority: SpeakerCueRules.priority(of: kind), bank: bank)
    }
    #expect(
      schedule.entries.map(\.sound)
        == [bank.id(of: .generated(.doubleTick)), bank.id(of: .voice("Down"))])
  }

  @Test func aCompletionLineFollowsTheHornAtTheCuesVolume() throws {
    let rules = SpeakerCueRules.standard(overriding: [
      "finish": SpeakerCueRule(sounds: [.generated(.horn)], voice: .afterSounds, volume: 0.5)
    ])
    var scaled = rules
    scaled.volume = 0.5
    let lines = SpokenLines(language: .english)
    var bank = SoundBank(sampleRate: 8_000)
    bank.add(GeneratedSound.horn.clip(sampleRate: 8_000), as: .generated(.horn))
    for text in lines.allTexts {
      bank.add(PCMClip(sampleRate: 8_000, samples: [1, 2, 3]), as: .voice(text))
    }
    let parts = scaled.parts(for: .finish, seed: 7, lines: lines, bank: bank)
    let horn = try #require(bank.id(of: .generated(.horn)))
    #expect(parts.count == 2)
    #expect(parts[0] == SoundSchedule.Part(sound: horn, gain: 0.25, channel: .effects))
    #expect(parts[1].channel == .voice && parts[1].offset == ms(1_200) && parts[1].gain == 0.25)
    #expect(parts[1].sound == bank.id(of: .voice(lines.completion(seed: 7))))
    // A voice the bank lacks (synthesis failed) leaves the horn.
    #expect(
      scaled.parts(for: .finish, seed: 7, lines: lines, bank: SoundBank(sampleRate: 8_000)).isEmpty)
  }

  @Test func muteCutsEverythingFromItsInstantAndDiscardForgets() {
    let (bank, ids) = Self.bank([1_000, 1_000])
    var schedule = SoundSchedule()
    schedule.play(
      [.init(sound: ids[0]), .init(sound: ids[1], offset: ms(2_000))], at: 0, bank: bank)
    #expect(schedule.isAudible(at: ms(500)))
    #expect(schedule.nextSound(from: ms(1_500)) == ms(2_000))
    schedule.cut(from: ms(500))
    #expect(schedule.entries.count == 1)
    #expect(schedule.isAudible(at: ms(501)) && !schedule.isAudible(at: ms(502)))
    #expect(schedule.nextSound(from: ms(502)) == nil)
    schedule.discard(before: ms(502))
    #expect(schedule.entries.isEmpty)
  }
}
