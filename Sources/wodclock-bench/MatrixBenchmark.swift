// SPDX-License-Identifier: MIT
// The cost of one LED-matrix frame on the daemon's one thread: rendering a 128×64 picture (in the
// built-in font and in a 10-row BDF font), and turning it into wire bytes (wiring order,
// brightness, gamma, power cap). Goal: ≤ 100 µs each in a release build. Also the time to parse
// a BDF font the size of X11's 10x20, which the daemon does at start and on a reload.

import DisplayKit
import MatrixKit
import WorkoutCore

enum MatrixBenchmark {
  static func run() throws {
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "EMOM 20", mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 20))))
    let start = EngineInstant(nanoseconds: 1_000_000_000)
    _ = try engine.apply(.start, at: start)
    let at = EngineInstant(nanoseconds: 1_000_000_000 + 443_210_000_000)
    _ = engine.advance(to: at)
    let snapshot = engine.snapshot(at: at)
    let renderer = MatrixRenderer(width: 128, height: 64)
    let wiring = try WiringMap(width: 128, height: 64, serpentine: true)
    let pipeline = OutputPipeline(gamma: 2.2, currentLimitMilliamps: 20_000)
    let time = TimeOfDay(hour: 9, minute: 5, second: 30)
    var buffer = renderer.render(snapshot, timeOfDay: time, milliseconds: 0)
    var checksum = 0
    for index in 0..<200 {
      renderer.render(snapshot, timeOfDay: time, milliseconds: Int64(index), into: &buffer)
      checksum &+= pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 80).count
    }

    // The median of several rounds: one round disturbed by another process does not move it.
    let iterations = 2_000
    var render: [Double] = []
    var bytes: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<7 {
      let renderTime = clock.measure {
        for index in 0..<iterations {
          renderer.render(snapshot, timeOfDay: time, milliseconds: Int64(index), into: &buffer)
        }
      }
      let bytesTime = clock.measure {
        for _ in 0..<iterations {
          checksum &+= Int(pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 80)[0])
        }
      }
      render.append(EngineBenchmark.nanoseconds(renderTime) / Double(iterations) / 1000)
      bytes.append(EngineBenchmark.nanoseconds(bytesTime) / Double(iterations) / 1000)
    }
    // The same frame with its words and counter in a 6x10 font.
    let font = try CaptionFont(bdf: syntheticBDF(width: 6, height: 10, count: 96))
    let bdfRenderer = MatrixRenderer(width: 128, height: 64, font: font)
    precondition(bdfRenderer.font == font, "the 6x10 font fits a 128x64 panel")
    var inFont: [Double] = []
    for _ in 0..<7 {
      let elapsed = clock.measure {
        for index in 0..<iterations {
          bdfRenderer.render(snapshot, timeOfDay: time, milliseconds: Int64(index), into: &buffer)
        }
      }
      checksum &+= Int(buffer[64, 32].red)
      inFont.append(EngineBenchmark.nanoseconds(elapsed) / Double(iterations) / 1000)
    }

    // X11's 10x20 has 5,205 glyphs in 980 KB.
    let text = Array(syntheticBDF(width: 10, height: 20, count: 5_205).utf8)
    var parse: [Double] = []
    for _ in 0..<5 {
      var count = 0
      let elapsed = try clock.measure { count = try CaptionFont(bdf: text).glyphCount }
      checksum &+= count
      parse.append(EngineBenchmark.nanoseconds(elapsed) / 1e6)
    }
    precondition(checksum != Int.min, "the work must not be optimised away")
    report("matrix.render_128x64", render.sorted()[3], "us")
    report("matrix.render_128x64_bdf_6x10", inFont.sorted()[3], "us")
    report("matrix.wire_bytes_128x64", bytes.sorted()[3], "us")
    report("matrix.bdf_parse_10x20", parse.sorted()[2], "ms")
  }

  /// A BDF font of `count` glyphs from the space up, each a full `width`×`height` cell of
  /// alternating pixels: as many lit runs per row as any real glyph has, or more.
  static func syntheticBDF(width: Int, height: Int, count: Int) -> String {
    let rowBytes = (width + 7) / 8
    func row(_ byte: UInt8) -> String {
      let digits = Array("0123456789ABCDEF")
      return String(
        (0..<rowBytes).flatMap { _ in [digits[Int(byte >> 4)], digits[Int(byte & 15)]] })
    }
    var lines = [
      "STARTFONT 2.1", "FONT -wodclock-bench", "SIZE \(height) 75 75",
      "FONTBOUNDINGBOX \(width) \(height) 0 -2", "STARTPROPERTIES 2", "FONT_ASCENT \(height - 2)",
      "FONT_DESCENT 2", "ENDPROPERTIES", "CHARS \(count)",
    ]
    let bitmap = (0..<height).map { row($0 % 2 == 0 ? 0xAA : 0x55) }
    for index in 0..<count {
      lines += [
        "STARTCHAR g\(index)", "ENCODING \(32 + index)", "SWIDTH 600 0", "DWIDTH \(width) 0",
        "BBX \(width) \(height) 0 -2", "BITMAP",
      ]
      lines += bitmap
      lines.append("ENDCHAR")
    }
    lines.append("ENDFONT")
    return lines.joined(separator: "\n") + "\n"
  }
}
