// SPDX-License-Identifier: MIT
// Pictures of LED dots: the size, the gap, the round dot, and no colour leaking between cells.

import DisplayKit
import MatrixKit
import Testing

@Suite struct LEDDotsTests {
  let gap = DesignTokens.standard.color(for: .background)
  let work = DesignTokens.standard.color(for: .work)
  let rest = DesignTokens.standard.color(for: .rest)

  /// A 3×2 picture with three lit LEDs.
  func sample() -> Framebuffer {
    var buffer = Framebuffer(width: 3, height: 2, fill: gap)
    buffer[0, 0] = work
    buffer[1, 0] = work
    buffer[2, 1] = rest
    return buffer
  }

  @Test func scaleOneIsThePictureItself() {
    #expect(LEDDots.render(sample(), scale: 1, gap: gap) == sample())
  }

  @Test func smallScalesAreSquaresWithoutGaps() {
    for scale in 2...3 {
      #expect(LEDDots.gap(forScale: scale) == 0)
      #expect(LEDDots.cellMask(scale: scale).allSatisfy { $0 })
      let picture = LEDDots.render(sample(), scale: scale, gap: gap)
      for y in 0..<picture.height {
        for x in 0..<picture.width {
          #expect(picture[x, y] == sample()[x / scale, y / scale], "scale \(scale) at \(x),\(y)")
        }
      }
    }
  }

  @Test func atScaleEightEachLEDIsARoundDotInsideAGap() {
    let picture = LEDDots.render(sample(), scale: 8, gap: gap)
    #expect(picture.width == 24 && picture.height == 16)
    // The 8×8 cell of the first LED: a 6×6 dot one pixel in from the cell's edge, its corner
    // pixels cut, the border dark.
    let expected = [
      "........",
      "..####..",
      ".######.",
      ".######.",
      ".######.",
      ".######.",
      "..####..",
      "........",
    ]
    for (row, line) in expected.enumerated() {
      for (column, character) in line.enumerated() {
        #expect(picture[column, row] == (character == "#" ? work : gap), "\(column),\(row)")
      }
    }
  }

  @Test func everyCellHoldsOnlyItsLEDsColourAndTheGap() {
    let source = sample()
    for scale in [4, 5, 8, 11, 16] {
      let picture = LEDDots.render(source, scale: scale, gap: gap)
      let mask = LEDDots.cellMask(scale: scale)
      // A dot, not a speck and not the whole cell.
      let lit = mask.filter { $0 }.count
      #expect(lit > scale * scale / 3 && lit < scale * scale, "scale \(scale): \(lit) lit")
      for y in 0..<picture.height {
        for x in 0..<picture.width {
          let inDot = mask[(y % scale) * scale + x % scale]
          let led = source[x / scale, y / scale]
          #expect(picture[x, y] == (inDot ? led : gap), "scale \(scale) at \(x),\(y)")
        }
      }
    }
  }

  @Test func theDotIsSymmetric() {
    for scale in 1...16 {
      let mask = LEDDots.cellMask(scale: scale)
      let gap = LEDDots.gap(forScale: scale)
      let start = gap / 2
      let dot = scale - gap
      for row in 0..<dot {
        for column in 0..<dot {
          let here = mask[(start + row) * scale + start + column]
          #expect(here == mask[(start + row) * scale + start + dot - 1 - column])
          #expect(here == mask[(start + dot - 1 - row) * scale + start + column])
          #expect(here == mask[(start + column) * scale + start + row])
        }
      }
      // The middle of the dot's sides is lit: round, not shrunk.
      #expect(mask[(start + dot / 2) * scale + start], "scale \(scale)")
    }
  }
}
