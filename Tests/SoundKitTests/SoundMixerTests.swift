// SPDX-License-Identifier: MIT
// The mixer into an in-memory buffer: onsets to the sample, buffers cut anywhere, gain, cuts.

import SoundKit
import Testing
import WodclockTestSupport

@Suite struct SoundMixerTests {
  static let clip = PCMClip(sampleRate: 8_000, samples: (1...400).map { Int16($0 * 50) })

  static func setting(rate: Int, gain: Double = 1, at instants: [Int64]) -> (
    SoundBank, SoundSchedule
  ) {
    var bank = SoundBank(sampleRate: rate)
    let id = bank.add(PCMClip(sampleRate: rate, samples: clip.samples), as: .file("ramp"))!
    var schedule = SoundSchedule()
    for instant in instants {
      schedule.play([.init(sound: id, gain: gain)], at: instant, bank: bank)
    }
    return (bank, schedule)
  }

  @Test(arguments: [8_000, 22_050, 44_100, 48_000, 96_000])
  func theFirstSampleLandsOnTheFrameOfTheCuesInstant(rate: Int) {
    let origin: Int64 = 7_777_777_777_777
    let mixer = SoundMixer(sampleRate: rate, origin: origin)
    for frame in [0, 1, 4_410, 12_345] as [Int64] {
      let instant = mixer.instant(ofFrame: frame)
      #expect(mixer.frame(at: instant) == frame)
      let (bank, schedule) = Self.setting(rate: rate, at: [instant])
      var buffer = [Int16](repeating: 7, count: 20_000)
      let result = mixer.render(into: &buffer, firstFrame: 0, schedule: schedule, bank: bank)
      #expect(result.audible)
      #expect(buffer.firstIndex { $0 != 0 } == Int(frame), "rate \(rate), frame \(frame)")
      #expect(buffer[Int(frame)] == 50 && buffer[Int(frame) + 399] == 20_000)
      #expect(buffer[Int(frame) + 400] == 0)
    }
  }

  @Test func oneSecondInSevenRandomChunksEqualsOneSecondInOne() {
    let rate = 44_100
    let mixer = SoundMixer(sampleRate: rate, origin: 1_000_000_000)
    let (bank, schedule) = Self.setting(
      rate: rate, gain: 0.8,
      at: [1_000_000_000 + 123_456_789, 1_000_000_000 + 130_000_000, 1_900_000_000])
    var whole = [Int16](repeating: 0, count: rate)
    _ = mixer.render(into: &whole, firstFrame: 0, schedule: schedule, bank: bank)
    var random = SeededGenerator(seed: 7)
    for _ in 0..<20 {
      var cuts = (0..<6).map { _ in Int.random(in: 1..<rate, using: &random) }.sorted()
      cuts = [0] + cuts + [rate]
      var pieced: [Int16] = []
      for (from, to) in zip(cuts, cuts.dropFirst()) {
        var chunk = [Int16](repeating: 0, count: to - from)
        _ = mixer.render(into: &chunk, firstFrame: Int64(from), schedule: schedule, bank: bank)
        pieced += chunk
      }
      #expect(pieced == whole)
    }
    #expect(whole.contains { $0 != 0 })
  }

  @Test func gainScalesAndOverlappingSoundsSaturate() {
    let rate = 8_000
    let mixer = SoundMixer(sampleRate: rate, origin: 0)
    let (bank, half) = Self.setting(rate: rate, gain: 0.5, at: [0])
    var buffer = [Int16](repeating: 0, count: 400)
    _ = mixer.render(into: &buffer, firstFrame: 0, schedule: half, bank: bank)
    #expect(buffer[0] == 25 && buffer[399] == 10_000)
    // Two loud sounds on two channels at once add up to more than full scale: clipped, not wrapped.
    var loud = SoundBank(sampleRate: rate)
    let id = loud.add(
      PCMClip(sampleRate: rate, samples: [30_000, -30_000, 30_000]), as: .file("x"))!
    var both = SoundSchedule()
    both.play([.init(sound: id), .init(sound: id, channel: .voice)], at: 0, bank: loud)
    var mixed = [Int16](repeating: 0, count: 4)
    _ = mixer.render(into: &mixed, firstFrame: 0, schedule: both, bank: loud)
    #expect(mixed == [32_767, -32_768, 32_767, 0])
  }

  @Test func aCutSoundFadesOutOverTwoMillisecondsAndTheNextOneStartsClean() {
    let rate = 8_000
    let mixer = SoundMixer(sampleRate: rate, origin: 0)
    // A second ramp 20 ms (160 frames) after the first cuts it.
    let (bank, schedule) = Self.setting(rate: rate, at: [0, ms(20)])
    var buffer = [Int16](repeating: 0, count: 600)
    let result = mixer.render(into: &buffer, firstFrame: 0, schedule: schedule, bank: bank)
    #expect(buffer[159] == 8_000)
    // 16 frames of fade: the old ramp falls to nothing as the new one starts at its own 50.
    let fade = (160..<176).map { Int(buffer[$0]) - Int(Self.clip.samples[$0 - 160]) }
    #expect(fade.first == 8_050 && fade.last.map { $0 < 8_050 / 8 } == true)
    #expect(zip(fade, fade.dropFirst()).allSatisfy { $0 > $1 })
    #expect(buffer[176] == Self.clip.samples[16])
    #expect(buffer[559] == 20_000 && buffer[560] == 0)
    #expect(result.audible && result.nextSound == nil)
  }

  @Test func anIdleBufferIsSilentAndSaysWhenTheNextSoundStarts() {
    let rate = 48_000
    let mixer = SoundMixer(sampleRate: rate, origin: 0)
    let (bank, schedule) = Self.setting(rate: rate, at: [ms(500)])
    var buffer = [Int16](repeating: 99, count: 480)
    let result = mixer.render(into: &buffer, firstFrame: 0, schedule: schedule, bank: bank)
    #expect(!result.audible && buffer.allSatisfy { $0 == 0 })
    #expect(result.nextSound == ms(500))
    // Mid-sound, the next sound is now: the writer keeps going; after it, nothing is to come.
    let during = mixer.render(into: &buffer, firstFrame: 23_800, schedule: schedule, bank: bank)
    #expect(during.audible && during.nextSound == mixer.instant(ofFrame: 24_280))
    let after = mixer.render(into: &buffer, firstFrame: 24_280, schedule: schedule, bank: bank)
    #expect(after.audible && after.nextSound == nil)
  }
}
