// SPDX-License-Identifier: MIT
// The matrix enlarged the way the wall looks: every LED a round-ish dot of its colour in a
// square cell, with a dark gap between the dots. A picture with one pixel per LED is honest but
// tiny, and blown up with square pixels it reads as a screen, not as a panel of LEDs.

public import DisplayKit

/// Pictures of LED dots (`wodclockctl snapshot --scale`).
public enum LEDDots {
  /// The gap between two dots, in picture pixels, for `scale` pixels per LED: none below 4,
  /// where a gap would eat most of the dot, then a quarter of the cell.
  public static func gap(forScale scale: Int) -> Int { scale / 4 }

  /// Which pixels of a `scale`×`scale` cell belong to the dot, row-major. The dot is the cell
  /// minus the gap (split between the sides, the odd pixel right and below), and is round: a
  /// pixel is in when its centre lies inside the circle through the dot's sides' midpoints.
  /// Dots of three pixels or fewer are squares.
  public static func cellMask(scale: Int) -> [Bool] {
    precondition(scale >= 1, "a cell is at least one pixel")
    let gap = gap(forScale: scale)
    let dot = scale - gap
    let start = gap / 2
    var mask = [Bool](repeating: false, count: scale * scale)
    for row in 0..<dot {
      for column in 0..<dot {
        // Twice the offset from the dot's centre, so that every term stays whole.
        let dx = 2 * column + 1 - dot
        let dy = 2 * row + 1 - dot
        if dx * dx + dy * dy <= dot * dot {
          mask[(start + row) * scale + start + column] = true
        }
      }
    }
    return mask
  }

  /// `buffer` with every pixel drawn as a `scale`×`scale` cell: the pixel's colour on the dot,
  /// `gap` around it. The picture is `scale` times as wide and as high; scale 1 is `buffer`.
  public static func render(_ buffer: Framebuffer, scale: Int, gap: RGB) -> Framebuffer {
    precondition(scale >= 1, "a scale is at least one pixel per LED")
    let mask = cellMask(scale: scale)
    var picture = Framebuffer(width: buffer.width * scale, height: buffer.height * scale, fill: gap)
    for y in 0..<buffer.height {
      for x in 0..<buffer.width {
        let color = buffer[x, y]
        guard color != gap else { continue }
        for row in 0..<scale {
          for column in 0..<scale where mask[row * scale + column] {
            picture[x * scale + column, y * scale + row] = color
          }
        }
      }
    }
    return picture
  }
}
