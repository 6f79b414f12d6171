// SPDX-License-Identifier: MIT
// Colours as the config writes them (#rrggbb) and as every renderer consumes them.

/// A 24-bit colour.
public struct RGB: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Channels, 0–255 each.
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Parses `#rrggbb` (either case). Returns nil for anything else, so a config typo is reported
  /// instead of silently turning into black.
  public init?(hex text: String) {
    let characters = Array(text)
    guard characters.count == 7, characters[0] == "#",
      characters.dropFirst().allSatisfy(\.isHexDigit)
    else { return nil }
    func byte(_ offset: Int) -> UInt8? {
      UInt8(String(characters[offset..<offset + 2]), radix: 16)
    }
    guard let red = byte(1), let green = byte(3), let blue = byte(5) else { return nil }
    self.init(red: red, green: green, blue: blue)
  }

  /// `#rrggbb` in lower case: the form written back to configs and shown by status commands.
  public var hex: String {
    func pair(_ value: UInt8) -> String {
      let digits = String(value, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "#" + pair(red) + pair(green) + pair(blue)
  }

  public var description: String { hex }

  /// The colour at `percent` of its intensity (0–100, clamped): how LED outputs apply the
  /// brightness level when their hardware has no global dimmer.
  public func scaled(toPercent percent: Int) -> RGB {
    let factor = UInt32(min(100, max(0, percent)))
    func scale(_ value: UInt8) -> UInt8 { UInt8((UInt32(value) * factor + 50) / 100) }
    return RGB(red: scale(red), green: scale(green), blue: scale(blue))
  }

  /// Fallbacks when a token cannot be resolved.
  public static let black = RGB(red: 0, green: 0, blue: 0)
  public static let white = RGB(red: 255, green: 255, blue: 255)
}
