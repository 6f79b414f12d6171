// SPDX-License-Identifier: MIT
// Helpers: manual time for the fake GPIO chip, snapshots from the real engine, and a reader
// that turns segments back into characters from the datasheets' digit tables.

import DisplayKit
import HardwareKit
import SegmentDecoders
import SevenSegment
import WorkoutCore

/// Manual time: every GPIO call takes 1 ns and every driver wait advances it, so recorded
/// instants are strictly ordered and half periods can be measured.
final class FakeTime {
  var now: Int64 = 1_000_000
  func tick() -> Int64 {
    now += 1
    return now
  }
  func wait(_ nanoseconds: Int64) { now += nanoseconds }
}

/// A Raspberry Pi header chip whose clock is `time`.
func fakeChip(_ time: FakeTime) -> FakeGPIOChip {
  FakeGPIOChip.raspberryPi(clock: { time.tick() })
}

/// The waveform of `lines` recorded by `chip`.
func waveform(_ chip: FakeGPIOChip, _ lines: [Int]) -> Waveform {
  Waveform(
    histories: Dictionary(
      uniqueKeysWithValues: lines.map { line in
        (line, chip.history(of: line).map { (instant: $0.instant, value: $0.value) })
      }))
}

/// Byte → character with A = bit 0 … G = bit 6 (TM1637 datasheet digit codes, the HT16K33
/// backpack's font), written out here rather than taken from the code under test. Letters the
/// datasheets do not list are spelled by their segments.
let standardGlyphs: [UInt8: Character] = {
  var table: [UInt8: Character] = [
    0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6", 0x07: "7",
    0x7F: "8", 0x6F: "9", 0x77: "A", 0x7C: "b", 0x39: "C", 0x5E: "d", 0x79: "E", 0x71: "F",
    0x40: "-", 0x00: " ",
  ]
  let bit: [Character: UInt8] = ["a": 1, "b": 2, "c": 4, "d": 8, "e": 16, "f": 32, "g": 64]
  let spelled: [Character: String] = [
    "G": "acdef", "r": "eg", "t": "defg", "n": "ceg", "P": "abefg",
  ]
  for (character, segments) in spelled {
    table[segments.reduce(0) { $0 | bit[$1]! }] = character
  }
  return table
}()

/// A byte in the standard order as a character, `.` appended for bit 7, `?` when unknown.
func glyph(_ byte: UInt8) -> String {
  let character = standardGlyphs[byte & 0x7F].map(String.init) ?? "?"
  return character + (byte & 0x80 != 0 ? "." : "")
}

/// A frame as text laid out like its template: digits, a lit colon as `:`, an unlit one as a
/// space; template spaces kept.
func picture(_ frame: SegmentFrame, _ layout: SegmentLayout) -> String {
  var text = ""
  var position = 0
  for character in layout.template {
    switch character {
    case ":":
      text += frame.colonsLit.contains(position - 1) ? ":" : " "
    case ".":
      break  // the dot is part of the digit before
    case " ":
      text += " "
    default:
      text += glyph(frame.digits[position].rawValue)
      position += 1
    }
  }
  return text
}

/// Instants from a non-zero origin.
let origin: Int64 = 7_000 * TimeSpan.nanosecondsPerSecond

func at(_ seconds: Double) -> EngineInstant {
  EngineInstant(nanoseconds: origin + Int64((seconds * 1e9).rounded()))
}

/// A workout driven through the real engine.
struct Workout {
  var engine: WorkoutEngine
  init(_ mode: WorkoutMode, countIn: Int64 = 0) throws {
    engine = try WorkoutEngine(
      plan: WorkoutPlan(name: "test", mode: mode, countIn: .seconds(countIn)))
  }
  mutating func start(at seconds: Double = 0) throws {
    _ = try engine.apply(.start, at: at(seconds))
  }
  mutating func apply(_ action: WorkoutAction, at seconds: Double) throws {
    _ = engine.advance(to: at(seconds))
    _ = try engine.apply(action, at: at(seconds))
  }
  mutating func snapshot(_ seconds: Double) -> WorkoutSnapshot {
    _ = engine.advance(to: at(seconds))
    return engine.snapshot(at: at(seconds))
  }
}

/// Renders `snapshot` on `template` at `milliseconds` of blink phase, as a picture.
func show(
  _ snapshot: WorkoutSnapshot, _ template: String, milliseconds: Int64 = 0,
  rounds: SegmentDisplayOptions.RoundCount = .current, prefix: Bool = false,
  time: TimeOfDay = TimeOfDay(hour: 9, minute: 5, second: 30), face: ClockFace = ClockFace()
) throws -> String {
  let layout = try SegmentLayout(parsing: template)
  let frame = SegmentRenderer.render(
    snapshot, options: SegmentDisplayOptions(layout: layout, rounds: rounds, roundPrefix: prefix),
    tokens: .standard, timeOfDay: time, face: face, milliseconds: milliseconds)
  return picture(frame, layout)
}
