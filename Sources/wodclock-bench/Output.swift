// SPDX-License-Identifier: MIT
// Minimal process plumbing for the benchmark executable.

import Glibc

func writeError(_ text: String) {
  var bytes = Array(text.utf8)
  _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Prints one figure as `NAME VALUE UNIT`.
func report(_ name: String, _ value: Double, _ unit: String) {
  let rounded = value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
  print("\(name) \(rounded) \(unit)")
}
