// SPDX-License-Identifier: MIT
// Shared helpers: instants in milliseconds read better in these tests than nanoseconds.

/// `value` milliseconds in nanoseconds.
func ms(_ value: Int64) -> Int64 { value * 1_000_000 }
