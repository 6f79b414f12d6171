// SPDX-License-Identifier: MIT

/// The candidate closest to `word`, for "did you mean" hints, or nil when nothing is close.
///
/// Uses the Damerau–Levenshtein distance (optimal string alignment variant), ignoring ASCII case,
/// so `rouds` finds `rounds` and `brigthness` finds `brightness`. A suggestion is made only when
/// the distance is at most `max(1, min(3, word.count / 3))`: one typo in a short word, up to three
/// in a long one, so `xyz` is not matched to anything unrelated. Ties go to the earlier candidate.
public func closestMatch(to word: String, among candidates: [String]) -> String? {
  let wordCount = word.unicodeScalars.count
  let allowed = max(1, min(3, wordCount / 3))
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(word, candidate)
    guard distance <= allowed else { continue }
    if best == nil || distance < best!.distance {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}

/// The Damerau–Levenshtein distance (optimal string alignment) between two strings, counting
/// insertions, deletions, substitutions and swaps of adjacent characters; ASCII case is ignored.
public func editDistance(_ lhs: String, _ rhs: String) -> Int {
  let left = lhs.unicodeScalars.map(foldedCase)
  let right = rhs.unicodeScalars.map(foldedCase)
  if left.isEmpty { return right.count }
  if right.isEmpty { return left.count }
  // Three rolling rows: the one before the previous is needed for transpositions.
  var beforePrevious = [Int](repeating: 0, count: right.count + 1)
  var previous = Array(0...right.count)
  var current = [Int](repeating: 0, count: right.count + 1)
  for i in 1...left.count {
    current[0] = i
    for j in 1...right.count {
      let cost = left[i - 1] == right[j - 1] ? 0 : 1
      var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
        value = min(value, beforePrevious[j - 2] + 1)
      }
      current[j] = value
    }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[right.count]
}

private func foldedCase(_ scalar: Unicode.Scalar) -> UInt32 {
  let value = scalar.value
  return (0x41...0x5A).contains(value) ? value + 0x20 : value
}
