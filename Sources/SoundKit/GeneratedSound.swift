// SPDX-License-Identifier: MIT
// Sounds made, not recorded: each one a waveform computed at the device's rate, so the product
// ships no sample files and needs no licences.

import SounderKit

/// The built-in sounds. Raw values are the config's names (`double_tick` ...) and never change.
public enum GeneratedSound: String, CaseIterable, Sendable {
  /// A short 880 Hz beep, the 3-2-1's.
  case beep
  /// Two short beeps.
  case doubleBeep = "double_beep"
  /// A long, loud chord of square-ish waves: odd harmonics in the 1–4 kHz band, where class
  /// music leaves the most room and the ear is most sensitive.
  case horn
  /// A struck bell: inharmonic partials, each decaying at its own pace.
  case bell
  /// One short tap (a tempo phase change, TempoRep's single tap).
  case tick
  /// Two taps (a rep complete).
  case doubleTick = "double_tick"
  /// Three taps, each higher than the last (a set complete).
  case tripleTick = "triple_tick"

  /// The sound as a waveform at `sampleRate` (clamped to ``PCMClip/supportedSampleRates``).
  public func clip(sampleRate: Int) -> PCMClip {
    let rate = SoundSynthesis.supportedRate(sampleRate)
    var samples: [Int16]
    switch self {
    case .beep:
      samples = SoundSynthesis.tone(frequency: 880, duration: ms(150), sampleRate: rate)
    case .doubleBeep:
      samples = SoundSynthesis.tone(frequency: 880, duration: ms(120), sampleRate: rate)
      samples += [Int16](repeating: 0, count: frames(ms(80), rate))
      samples += SoundSynthesis.tone(frequency: 880, duration: ms(120), sampleRate: rate)
    case .horn:
      samples = SoundSynthesis.horn(duration: ms(1_200), sampleRate: rate)
    case .bell:
      samples = SoundSynthesis.bell(duration: ms(1_500), sampleRate: rate)
    case .tick:
      samples = SoundSynthesis.taps([1_500], sampleRate: rate)
    case .doubleTick:
      samples = SoundSynthesis.taps([1_500, 1_500], sampleRate: rate)
    case .tripleTick:
      samples = SoundSynthesis.taps([1_200, 1_600, 2_100], sampleRate: rate)
    }
    return PCMClip(sampleRate: rate, samples: samples)
  }
}

/// How the sounds are made, and the buzzer's patterns as beeps.
public enum SoundSynthesis {
  /// The loudest sample of any generated sound, as a fraction of full scale (about -3 dBFS):
  /// loud, with headroom for the mixer and for a card whose output stage clips early.
  public static let peakLevel = 0.7
  /// The rise and fall of a tone, raised-cosine, so it starts and stops without a click.
  public static let edge: Int64 = 5_000_000
  /// The longest clip made from a beep pattern; a pattern summing to more is cut there.
  public static let maximumPatternLength: Int64 = 10_000_000_000
  /// The time from one tap's onset to the next in a double or triple tick.
  public static let tapSpacing: Int64 = 120_000_000

  /// The buzzer's on/off pattern played as beeps of `frequency` Hz (kept within 20 Hz and
  /// below the rate's Nyquist frequency): the same `patterns:` on a buzzer and on a speaker.
  /// Negative durations count as zero; the clip is at most ``maximumPatternLength`` long.
  public static func beeps(_ pattern: BeepPattern, frequency: Double = 880, sampleRate: Int)
    -> PCMClip
  {
    let rate = supportedRate(sampleRate)
    let pitch = frequency.isFinite ? max(20, min(frequency, Double(rate) * 0.45)) : 880
    var samples: [Int16] = []
    var elapsed: Int64 = 0
    for (index, duration) in pattern.enumerated() {
      let length = min(max(duration, 0), maximumPatternLength - elapsed)
      guard length > 0 else { continue }
      elapsed += length
      if index % 2 == 0 {
        samples += tone(frequency: pitch, duration: length, sampleRate: rate)
      } else {
        samples += [Int16](repeating: 0, count: frames(length, rate))
      }
      if elapsed >= maximumPatternLength { break }
    }
    return PCMClip(sampleRate: rate, samples: samples)
  }

  static func supportedRate(_ rate: Int) -> Int {
    min(max(rate, PCMClip.supportedSampleRates.lowerBound), PCMClip.supportedSampleRates.upperBound)
  }

  /// A sine with a touch of its third harmonic (brighter, heard better on small speakers).
  static func tone(frequency: Double, duration: Int64, sampleRate: Int) -> [Int16] {
    let count = frames(duration, sampleRate)
    let edgeFrames = min(frames(edge, sampleRate), count / 2)
    let step = 2 * Waveform.pi * frequency / Double(sampleRate)
    let third = frequency * 3 < Double(sampleRate) * 0.45 ? 0.2 : 0
    return normalised(count: count) { index in
      let phase = step * Double(index)
      let value = Waveform.sine(phase) + third * Waveform.sine(3 * phase)
      return value * Waveform.edgeGain(at: index, count: count, edge: edgeFrames)
    }
  }

  /// Three square-ish waves a minor third and a fourth apart (311, 370 and 466 Hz, a truck
  /// horn's chord), each its odd harmonics up to 4 kHz, normalised to the peak level.
  static func horn(duration: Int64, sampleRate: Int) -> [Int16] {
    let count = frames(duration, sampleRate)
    let edgeFrames = min(frames(ms(10), sampleRate), count / 2)
    let limit = min(4_000, Double(sampleRate) * 0.45)
    var partials: [(step: Double, amplitude: Double)] = []
    for fundamental in [311.1, 370.0, 466.2] {
      for harmonic in stride(from: 1, through: 15, by: 2)
      where fundamental * Double(harmonic) < limit {
        partials.append(
          (
            2 * Waveform.pi * fundamental * Double(harmonic) / Double(sampleRate),
            1 / Double(harmonic)
          ))
      }
    }
    return normalised(count: count) { index in
      var value = 0.0
      for partial in partials {
        value += partial.amplitude * Waveform.sine(partial.step * Double(index))
      }
      return value * Waveform.edgeGain(at: index, count: count, edge: edgeFrames)
    }
  }

  /// A bell's partials (ratios of a struck bell: hum, prime, tierce, quint, nominal) over
  /// 523 Hz, the higher ones dying sooner; a 2 ms attack and a raised-cosine tail.
  static func bell(duration: Int64, sampleRate: Int) -> [Int16] {
    let count = frames(duration, sampleRate)
    let attack = frames(ms(2), sampleRate)
    let tail = min(frames(ms(50), sampleRate), count / 2)
    let limit = Double(sampleRate) * 0.45
    let partials: [(ratio: Double, amplitude: Double, decay: Double)] = [
      (0.5, 0.5, 1.2), (1, 1, 2.0), (1.2, 0.6, 2.6), (1.5, 0.4, 3.2), (2, 0.5, 4.0),
      (2.76, 0.3, 5.5), (5.4, 0.15, 8),
    ]
    let used = partials.filter { 523.25 * $0.ratio < limit }
    let seconds = 1 / Double(sampleRate)
    return normalised(count: count) { index in
      let time = Double(index) * seconds
      var value = 0.0
      for partial in used {
        value +=
          partial.amplitude * Waveform.exponential(-partial.decay * time)
          * Waveform.sine(2 * Waveform.pi * 523.25 * partial.ratio * time)
      }
      let rise = index < attack ? Double(index) / Double(attack) : 1
      let fall = index >= count - tail ? Waveform.edgeGain(at: index, count: count, edge: tail) : 1
      return value * rise * fall
    }
  }

  /// Taps of 40 ms each, ``tapSpacing`` apart: a 1 ms rise and a fast decay, like a finger on
  /// a desk, each at its own pitch.
  static func taps(_ pitches: [Double], sampleRate: Int) -> [Int16] {
    let spacing = frames(tapSpacing, sampleRate)
    let length = frames(ms(40), sampleRate)
    let count = spacing * (pitches.count - 1) + length
    var values = [Double](repeating: 0, count: count)
    let attack = max(1, frames(ms(1), sampleRate))
    for (tap, pitch) in pitches.enumerated() {
      let step = 2 * Waveform.pi * pitch / Double(sampleRate)
      for index in 0..<length {
        let rise = index < attack ? Double(index) / Double(attack) : 1
        let decay = Waveform.exponential(-Double(index) / Double(sampleRate) * 90)
        let fall = Waveform.edgeGain(at: index, count: length, edge: attack * 2)
        values[tap * spacing + index] = Waveform.sine(step * Double(index)) * rise * decay * fall
      }
    }
    return normalised(count: count) { values[$0] }
  }

  /// `count` samples of `value`, scaled so the loudest is at the peak level.
  private static func normalised(count: Int, _ value: (Int) -> Double) -> [Int16] {
    let values = (0..<count).map(value)
    let peak = values.reduce(0) { max($0, abs($1)) }
    guard peak > 0 else { return [Int16](repeating: 0, count: count) }
    return values.map { Waveform.sample($0 / peak, level: peakLevel) }
  }
}

/// Frames in `duration` nanoseconds at `rate` (both bounded: a pattern's ten seconds at most).
func frames(_ duration: Int64, _ rate: Int) -> Int {
  Int(duration / 1_000_000 * Int64(rate) / 1_000)
}

func ms(_ milliseconds: Int64) -> Int64 { milliseconds * 1_000_000 }
