// SPDX-License-Identifier: MIT
// Snapshots from the real engine, and golden files read and written with the C library.

import Glibc
import MatrixKit
import PNGEncoding
import WorkoutCore

/// Instants from a non-zero origin.
let origin: Int64 = 7_000 * TimeSpan.nanosecondsPerSecond

func at(_ seconds: Double) -> EngineInstant {
  EngineInstant(nanoseconds: origin + Int64((seconds * 1e9).rounded()))
}

/// A workout driven through the real engine.
struct Workout {
  var engine: WorkoutEngine
  init(_ mode: WorkoutMode, countIn: Int64 = 0, name: String = "test") throws {
    engine = try WorkoutEngine(
      plan: WorkoutPlan(name: name, mode: mode, countIn: .seconds(countIn)))
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

/// The directory of this file: the golden images and the fixtures are beside it.
let testDirectory: String = {
  let file = #filePath
  return String(file.lastIndex(of: "/").map { file[..<$0] } ?? ".")
}()

/// The directory of the golden images.
let goldenDirectory = testDirectory + "/Golden"

/// The bytes of a file in Fixtures/ (hand-written BDF fonts).
func fixture(_ name: String) throws -> [UInt8] {
  guard let bytes = readFile(testDirectory + "/Fixtures/" + name) else {
    throw FixtureMissing(name: name)
  }
  return bytes
}

struct FixtureMissing: Error, CustomStringConvertible {
  var name: String
  var description: String { "no fixture \(name) in \(testDirectory)/Fixtures" }
}

func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  return bytes
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
  guard let file = fopen(path, "wb") else { return }
  _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
}

/// Compares a frame with its golden PNG byte for byte. With WODCLOCK_UPDATE_GOLDEN=1 in the
/// environment the golden file is (re)written instead, to be reviewed by eye before committing.
func matchesGolden(_ buffer: Framebuffer, _ name: String) -> Bool {
  // Stored: the reviewed files stay byte-identical whatever the compressor does.
  let png = PNGEncoder.encode(buffer, compression: .stored)
  let path = goldenDirectory + "/" + name + ".png"
  if getenv("WODCLOCK_UPDATE_GOLDEN") != nil {
    writeFile(path, png)
    return true
  }
  return readFile(path) == png
}
