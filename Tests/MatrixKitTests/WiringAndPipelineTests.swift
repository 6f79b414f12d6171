// SPDX-License-Identifier: MIT
// Wiring maps, gamma, the brightness level and the power cap, the PNG writer's checksums, and
// the tempo track against the engine's track position.

import DeflateCoding
import DisplayKit
import MatrixKit
import PNGEncoding
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct WiringTests {
  /// The (x, y) shown by each LED, in data-line order.
  func order(_ map: WiringMap) -> [String] {
    map.sourceIndices.map { "\($0 % map.width),\($0 / map.width)" }
  }

  @Test func progressiveAndSerpentineFromEveryCorner() throws {
    #expect(
      order(try WiringMap(width: 3, height: 2)) == ["0,0", "1,0", "2,0", "0,1", "1,1", "2,1"])
    #expect(
      order(try WiringMap(width: 3, height: 2, serpentine: true))
        == ["0,0", "1,0", "2,0", "2,1", "1,1", "0,1"])
    #expect(
      order(try WiringMap(width: 3, height: 2, origin: .topRight))
        == ["2,0", "1,0", "0,0", "2,1", "1,1", "0,1"])
    #expect(
      order(try WiringMap(width: 3, height: 2, serpentine: true, origin: .bottomLeft))
        == ["0,1", "1,1", "2,1", "2,0", "1,0", "0,0"])
    #expect(
      order(try WiringMap(width: 3, height: 2, origin: .bottomRight))
        == ["2,1", "1,1", "0,1", "2,0", "1,0", "0,0"])
  }

  @Test func rotationTurnsThePictureClockwise() throws {
    // A 3×2 picture on a panel turned by 90°: the panel is 2 wide, 3 tall. Its first row shows
    // the picture's left column from the bottom up.
    #expect(
      order(try WiringMap(width: 3, height: 2, rotation: 90))
        == ["0,1", "0,0", "1,1", "1,0", "2,1", "2,0"])
    #expect(
      order(try WiringMap(width: 3, height: 2, rotation: 180))
        == ["2,1", "1,1", "0,1", "2,0", "1,0", "0,0"])
    #expect(
      order(try WiringMap(width: 3, height: 2, rotation: 270))
        == ["2,0", "2,1", "1,0", "1,1", "0,0", "0,1"])
    #expect(throws: WiringError.badRotation(45)) {
      try WiringMap(width: 3, height: 2, rotation: 45)
    }
  }

  @Test func tiledPanelsChainOneAfterAnother() throws {
    // Two 2×2 serpentine panels side by side make a 4×2 matrix.
    let map = try WiringMap(width: 4, height: 2, serpentine: true, panelWidth: 2, panelHeight: 2)
    #expect(order(map) == ["0,0", "1,0", "1,1", "0,1", "2,0", "3,0", "3,1", "2,1"])
    #expect(throws: WiringError.panelsDoNotTile) {
      try WiringMap(width: 5, height: 2, panelWidth: 2, panelHeight: 2)
    }
    // A 64×64 of four 32×32 panels: every pixel shown exactly once.
    let big = try WiringMap(
      width: 64, height: 64, serpentine: true, panelWidth: 32, panelHeight: 32)
    #expect(Set(big.sourceIndices).count == 64 * 64)
  }
}

@Suite struct PipelineTests {
  let white = DesignTokens.standard.color(for: .finished)

  @Test func gammaDarkensMidtonesAndKeepsTheEnds() {
    let pipeline = OutputPipeline(gamma: 2.2)
    #expect(pipeline.corrected(0) == 0)
    #expect(pipeline.corrected(255) == 255)
    // (128/255)^2.2 × 255 = 55.7
    #expect(pipeline.corrected(128) == 56)
    #expect(OutputPipeline(gamma: 1).corrected(128) == 128)
  }

  @Test func brightnessScalesBeforeGamma() throws {
    let buffer = Framebuffer(width: 2, height: 1, fill: white)
    let wiring = try WiringMap(width: 2, height: 1)
    let pipeline = OutputPipeline(gamma: 1)
    #expect(
      pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 100)
        == [UInt8](repeating: 255, count: 6))
    #expect(
      pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 25)
        == [UInt8](repeating: 64, count: 6))
    #expect(
      pipeline.bytes(buffer, wiring: wiring, brightnessPercent: 0)
        == [UInt8](repeating: 0, count: 6))
  }

  @Test func thePowerCapScalesAWhiteFrameDownToTheBudget() throws {
    // 128×64 all white: 8192 × (60 mA + 1 mA) ≈ 500 A uncapped; a 60 A supply caps it.
    let buffer = Framebuffer(width: 128, height: 64, fill: white)
    let wiring = try WiringMap(width: 128, height: 64)
    let uncapped = OutputPipeline(gamma: 1)
    let full = uncapped.bytes(buffer, wiring: wiring, brightnessPercent: 100)
    #expect(uncapped.estimatedMilliamps(full) > 400_000)
    let capped = OutputPipeline(gamma: 1, currentLimitMilliamps: 60_000)
    let bytes = capped.bytes(buffer, wiring: wiring, brightnessPercent: 100)
    let estimate = capped.estimatedMilliamps(bytes)
    #expect(estimate <= 60_000)
    #expect(estimate > 54_000)
    #expect(capped.channels(buffer, wiring: wiring, brightnessPercent: 100).budget == .scaledDown)
    // A dark frame is not touched: the cap only ever scales down.
    let dark = Framebuffer(
      width: 128, height: 64, fill: DesignTokens.standard.color(for: .background))
    #expect(capped.bytes(dark, wiring: wiring, brightnessPercent: 100).allSatisfy { $0 == 0 })
    #expect(capped.channels(dark, wiring: wiring, brightnessPercent: 100).budget == .withinBudget)
  }

  @Test func theModelCountsTheIdleDrawOfEveryLEDAndTwentyMilliampsAColour() {
    let model = OutputPipeline(gamma: 1)
    // One white LED: 3 × 20 mA at full and 1 mA idle; one dark LED: its idle draw alone.
    #expect(model.estimatedMilliamps([255, 255, 255]) == 61)
    #expect(model.estimatedMilliamps([0, 0, 0]) == 1)
    #expect(model.idleMilliamps(ledCount: 64 * 32) == 2048)
    #expect(model.neededMilliamps(ledCount: 64 * 32) == 4096)
    #expect(model.neededMilliamps(ledCount: 128 * 64) == 16384)
  }

  /// A running EMOM on a 64×32 panel, as the matrix output draws it.
  func runningWorkout() throws -> Framebuffer {
    let snapshot = try #require(GoldenImageTests.scenes().first { $0.0 == "emom-running" }).1
    return MatrixRenderer(width: 64, height: 32).render(
      snapshot, timeOfDay: GoldenImageTests.morning, milliseconds: 0)
  }

  @Test(arguments: [1_000, 2_000, 2_048, 2_100])
  func aBudgetTooSmallForThePictureHoldsItAtTheLowestVisibleLevel(limit: Int) throws {
    // 2,048 LEDs idle at 2,048 mA: the budget leaves nothing (or next to nothing) to light them.
    let picture = try runningWorkout()
    let wiring = try WiringMap(width: 64, height: 32)
    let uncapped = OutputPipeline().bytes(picture, wiring: wiring, brightnessPercent: 100)
    let capped = OutputPipeline(currentLimitMilliamps: limit)
    let bytes = capped.bytes(picture, wiring: wiring, brightnessPercent: 100)
    #expect(bytes.contains { $0 != 0 }, "a picture scaled to black")
    #expect(bytes.max() == OutputPipeline.lowestVisibleLevel)
    // Dimmed, never lit where the picture is dark.
    #expect(zip(bytes, uncapped).allSatisfy { $0 <= $1 && ($1 != 0 || $0 == 0) })
    guard
      case .heldAtLowestVisibleLevel(let estimate) = capped.channels(
        picture, wiring: wiring, brightnessPercent: 100
      ).budget
    else {
      Issue.record("the frame is not reported as held at the lowest visible level")
      return
    }
    #expect(estimate > limit)
    #expect(Double(estimate) >= capped.estimatedMilliamps(bytes))
  }

  @Test func aPictureDimmerThanTheLowestVisibleLevelIsLeftAsItIs() throws {
    let picture = try runningWorkout()
    let wiring = try WiringMap(width: 64, height: 32)
    // Two percent brightness without gamma: the brightest channel is 4.
    let uncapped = OutputPipeline(gamma: 1).bytes(picture, wiring: wiring, brightnessPercent: 2)
    #expect(uncapped.max() == 4)
    let capped = OutputPipeline(gamma: 1, currentLimitMilliamps: 1_000)
    #expect(capped.bytes(picture, wiring: wiring, brightnessPercent: 2) == uncapped)
  }

  @Test func aBudgetWithRoomScalesThePictureAboveTheLowestLevel() throws {
    // 5,000 mA: about 3 A left for a picture that takes about 11 A at full.
    let picture = try runningWorkout()
    let wiring = try WiringMap(width: 64, height: 32)
    let capped = OutputPipeline(currentLimitMilliamps: 5_000)
    let (bytes, budget) = capped.channels(picture, wiring: wiring, brightnessPercent: 100)
    #expect(budget == .scaledDown)
    #expect(capped.estimatedMilliamps(bytes) <= 5_000)
    #expect(try #require(bytes.max()) > 4 * OutputPipeline.lowestVisibleLevel)
  }

  @Test func theWiringOrderIsApplied() throws {
    var buffer = Framebuffer(
      width: 2, height: 2, fill: DesignTokens.standard.color(for: .background))
    buffer[1, 0] = white
    let wiring = try WiringMap(width: 2, height: 2, origin: .topRight)
    let bytes = OutputPipeline(gamma: 1).bytes(buffer, wiring: wiring, brightnessPercent: 100)
    #expect(Array(bytes.prefix(3)) == [255, 255, 255])
    #expect(bytes.dropFirst(3).allSatisfy { $0 == 0 })
  }
}

@Suite struct PNGTests {
  @Test func checksumsMatchTheirSpecifications() {
    // The IEND chunk's CRC every PNG ends with; Adler-32 of "Wikipedia" (RFC 1950 example).
    #expect(Checksum.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    #expect(Checksum.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
  }

  @Test func aFrameBecomesAWellFormedPNG() {
    let buffer = Framebuffer(width: 300, height: 100, fill: DesignTokens.standard.color(for: .work))
    let png = PNGEncoder.encode(buffer, compression: .stored)
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(Array(png.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    // 100 scanlines of 901 bytes need two stored blocks (65535 bytes at most each).
    let raw = 100 * 901
    #expect(png.count == 8 + 25 + (12 + 2 + 2 * 5 + raw + 4) + 12)
  }
}

@Suite struct TempoTrackTests {
  func tempo(reverse: Bool) throws -> Workout {
    var workout = try Workout(
      .tempo(
        TempoParameters(
          tempo: Tempo(halfSeconds: [8, 2, 4, 0]), reps: 3, sets: 1, reverseDirection: reverse)))
    try workout.start()
    return workout
  }

  /// The row of the pacing dot's top in the tempo column of a 64×32 panel.
  func dotRow(_ frame: Framebuffer, renderer: MatrixRenderer, color: RGB) -> Int? {
    let region = renderer.tempoLayout.tempo
    for y in region.y..<region.maxY where frame[region.x, y] == color { return y }
    return nil
  }

  @Test func theDotFollowsTheEnginesTrackPositionAndReverseMirrorsIt() throws {
    let renderer = MatrixRenderer(width: 64, height: 32)
    let region = renderer.tempoLayout.tempo
    let travel = Double(region.height - 3)
    for reverse in [false, true] {
      var workout = try tempo(reverse: reverse)
      // ↓4 s, hold 1 s, ↑2 s: sample every quarter second through one rep.
      var seconds = 0.0
      while seconds < 7 {
        let snapshot = workout.snapshot(seconds)
        let track = try #require(snapshot.tempo)
        let frame = renderer.render(
          snapshot, timeOfDay: TimeOfDay(hour: 9, minute: 0), milliseconds: 0)
        let row = dotRow(
          frame, renderer: renderer, color: DesignTokens.standard.color(for: snapshot))
        #expect(row == region.y + Int((track.trackPosition * travel).rounded()), "\(seconds) s")
        // The bottom pause rests at the bottom, or at the top when reversed.
        if seconds == 4.5 { #expect(row == (reverse ? region.y : region.y + Int(travel))) }
        seconds += 0.25
      }
    }
  }
}
