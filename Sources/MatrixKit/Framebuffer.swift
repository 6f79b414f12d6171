// SPDX-License-Identifier: MIT
// The picture of an LED matrix before wiring, gamma and power limits: one RGB value per pixel,
// row-major from the top-left corner as a person facing the wall sees it.

public import DisplayKit

/// An RGB picture of any size. Drawing outside the picture is clipped, never a crash, so
/// layouts may be sloppy at the edges of small panels.
public struct Framebuffer: Sendable, Hashable {
  public let width: Int
  public let height: Int
  /// Row-major, `width * height` entries.
  public private(set) var pixels: [RGB]

  /// A picture of one colour (the caller passes the background token).
  public init(width: Int, height: Int, fill: RGB) {
    self.width = max(0, width)
    self.height = max(0, height)
    pixels = [RGB](repeating: fill, count: self.width * self.height)
  }

  public subscript(x: Int, y: Int) -> RGB {
    get {
      precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel outside the picture")
      return pixels[y * width + x]
    }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      pixels[y * width + x] = newValue
    }
  }

  /// Paints every pixel.
  public mutating func clear(to color: RGB) {
    for index in pixels.indices { pixels[index] = color }
  }

  /// Fills a rectangle, clipped to the picture.
  public mutating func fill(_ rect: PixelRect, with color: RGB) {
    let x0 = max(0, rect.x)
    let y0 = max(0, rect.y)
    let x1 = min(width, rect.x + rect.width)
    let y1 = min(height, rect.y + rect.height)
    guard x0 < x1, y0 < y1 else { return }
    for y in y0..<y1 {
      let row = y * width
      for x in x0..<x1 { pixels[row + x] = color }
    }
  }

  /// The pixels as bytes, red-green-blue per pixel, row-major (the PNG and raw-frame order).
  public var rgbBytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(pixels.count * 3)
    for pixel in pixels { bytes += [pixel.red, pixel.green, pixel.blue] }
    return bytes
  }
}

/// A rectangle of pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var isEmpty: Bool { width <= 0 || height <= 0 }
  public var maxX: Int { x + width }
  public var maxY: Int { y + height }

  public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
