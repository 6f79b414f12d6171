// SPDX-License-Identifier: MIT
// The generated sounds: lengths, levels, no clicks, and ticks told apart by ear.

import SoundKit
import SounderKit
import Testing

@Suite struct GeneratedSoundTests {
  static let rates = [8_000, 44_100, 48_000]

  @Test(arguments: rates) func everySoundHasItsLengthAndStaysBelowClipping(rate: Int) {
    let lengths: [GeneratedSound: Int64] = [
      .beep: 150, .doubleBeep: 320, .horn: 1_200, .bell: 1_500, .tick: 40, .doubleTick: 160,
      .tripleTick: 280,
    ]
    for sound in GeneratedSound.allCases {
      let clip = sound.clip(sampleRate: rate)
      #expect(clip.sampleRate == rate)
      #expect(clip.duration / 1_000_000 == lengths[sound], "\(sound)")
      let peak = clip.samples.map { abs(Int($0)) }.max() ?? 0
      // Loud, but with headroom: within a few percent of the peak level, never near full scale.
      #expect(peak > 20_000 && peak <= 23_000, "\(sound) peaks at \(peak)")
      // Raised-cosine edges: the first and last samples are (nearly) silent, no click.
      #expect(abs(Int(clip.samples.first ?? 1_000)) < 400, "\(sound)")
      #expect(abs(Int(clip.samples.last ?? 1_000)) < 400, "\(sound)")
    }
  }

  @Test func theTicksHaveOneTwoAndThreeOnsetsAndTheTripleRises() {
    let rate = 48_000
    let single = onsets(GeneratedSound.tick.clip(sampleRate: rate))
    let double = onsets(GeneratedSound.doubleTick.clip(sampleRate: rate))
    let triple = onsets(GeneratedSound.tripleTick.clip(sampleRate: rate))
    #expect(single.count == 1)
    #expect(double.count == 2)
    #expect(triple.count == 3)
    let clip = GeneratedSound.tripleTick.clip(sampleRate: rate)
    let pitches = triple.map { zeroCrossings(clip.samples, from: $0, frames: rate / 100) }
    #expect(pitches.count == 3 && pitches[0] < pitches[1] && pitches[1] < pitches[2], "\(pitches)")
  }

  @Test func aBeepPatternPlaysItsOnTimesAsTonesAndItsOffTimesAsSilence() {
    let rate = 16_000
    let pattern: BeepPattern = [ms(400), ms(200), ms(400), ms(200), ms(1_500)]
    let clip = SoundSynthesis.beeps(pattern, frequency: 1_000, sampleRate: rate)
    #expect(clip.duration == ms(2_700))
    // Loud in the middle of each on-time, silent in the middle of each off-time.
    for (instant, loud) in [(200, true), (500, false), (800, true), (1_100, false), (2_000, true)] {
      let level = rms(clip.samples, from: instant * rate / 1_000, frames: rate / 100)
      #expect(loud ? level > 10_000 : level == 0, "at \(instant) ms: \(level)")
    }
    // Bounded: a pattern of an hour is cut to ten seconds, a negative length counts as none.
    #expect(
      SoundSynthesis.beeps([ms(3_600_000)], sampleRate: rate).duration
        == SoundSynthesis.maximumPatternLength)
    #expect(
      SoundSynthesis.beeps([-ms(100), ms(100)], sampleRate: rate).samples.allSatisfy { $0 == 0 })
    // An unplayable frequency is kept below the Nyquist frequency instead of aliasing.
    let high = SoundSynthesis.beeps([ms(100)], frequency: 1e9, sampleRate: 8_000)
    #expect(zeroCrossings(high.samples, from: 0, frames: high.samples.count) < 800)
  }

  @Test func resamplingKeepsTheDurationAndRefusesImpossibleRates() throws {
    let clip = GeneratedSound.beep.clip(sampleRate: 44_100)
    let resampled = try #require(clip.resampled(to: 48_000))
    #expect(resampled.samples.count == 7_200)
    #expect(abs(resampled.duration - clip.duration) < 30_000)
    // A linear ramp stays a ramp.
    let ramp = PCMClip(sampleRate: 8_000, samples: [0, 100, 200, 300])
    #expect(ramp.resampled(to: 16_000)?.samples == [0, 50, 100, 150, 200, 250, 300, 300])
    #expect(clip.resampled(to: 0) == nil)
    #expect(clip.resampled(to: 10_000_000) == nil)
    #expect(PCMClip(sampleRate: -1, samples: [1]).resampled(to: 48_000) == nil)
    #expect(PCMClip(sampleRate: 0, samples: [1]).duration == 0)
  }
}

func ms(_ milliseconds: Int64) -> Int64 { milliseconds * 1_000_000 }

/// Where sound starts after at least 20 ms of near-silence (or at the clip's start).
func onsets(_ clip: PCMClip, threshold: Int = 2_000) -> [Int] {
  var found: [Int] = []
  var quiet = clip.sampleRate
  for (index, sample) in clip.samples.enumerated() {
    if abs(Int(sample)) > threshold {
      if quiet >= clip.sampleRate / 50 { found.append(index) }
      quiet = 0
    } else {
      quiet += 1
    }
  }
  return found
}

func zeroCrossings(_ samples: [Int16], from start: Int, frames: Int) -> Int {
  let end = min(samples.count, start + frames)
  guard start + 1 < end else { return 0 }
  return (start + 1..<end).filter { (samples[$0 - 1] < 0) != (samples[$0] < 0) }.count
}

func rms(_ samples: [Int16], from start: Int, frames: Int) -> Int {
  let slice = samples[start..<min(samples.count, start + frames)]
  let sum = slice.reduce(0.0) { $0 + Double($1) * Double($1) }
  return Int((sum / Double(max(1, slice.count))).squareRoot())
}
