// SPDX-License-Identifier: MIT
// Minimal process plumbing for the benchmark executable.

import Glibc

func writeError(_ text: String) {
  var bytes = Array(text.utf8)
  _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Prints one figure as `NAME VALUE UNIT`, or `NAME VALUE UNIT NOTE`.
/// - Parameters:
///   - decimals: digits after the point below 100, 0 for counts; a figure whose goal is a
///     small fraction (0.1 % of a core) needs more than the default one.
///   - note: words after the unit, such as how the figure stands against its target.
func report(
  _ name: String, _ value: Double, _ unit: String, decimals: Int = 1, note: String? = nil
) {
  var scale = 1.0
  for _ in 0..<max(decimals, 0) { scale *= 10 }
  // A difference can be negative: the magnitude decides the rounding.
  let rounded =
    abs(value) >= 100 || decimals <= 0
    ? String(Int(value.rounded())) : String((value * scale).rounded() / scale)
  print("\(name) \(rounded) \(unit)" + (note.map { " " + $0 } ?? ""))
}
