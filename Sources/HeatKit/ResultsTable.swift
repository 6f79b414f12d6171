// SPDX-License-Identifier: MIT
// The results as a spreadsheet reads them (CSV) and as a terminal shows them (aligned columns).

/// Ranked rows written out.
public enum ResultsTable {
  /// The CSV header, exactly.
  public static let csvHeader = "division,place,athlete,heat,lane,score,time_s,tiebreak_s"

  /// The rows as CSV: the header, then one line per row, each ended by `\n`. Fields are quoted
  /// as RFC 4180 asks (a comma, a quote or a line break inside); a field that starts with `=`,
  /// `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a spreadsheet shows it
  /// instead of running it as a formula. Seconds have up to three decimals (`462.3`); an empty
  /// place or time is an empty field.
  public static func csv(_ rows: [RankedRow]) -> String {
    var text = csvHeader + "\n"
    for row in rows {
      let fields = [
        row.division, row.place.map(String.init) ?? "", row.athlete, String(row.heat),
        String(row.lane), row.score, row.timeSeconds.map(decimalSeconds) ?? "",
        row.tiebreakSeconds.map(decimalSeconds) ?? "",
      ]
      text += fields.map(csvField).joined(separator: ",") + "\n"
    }
    return text
  }

  /// One field, neutralized and quoted as needed.
  static func csvField(_ value: String) -> String {
    var value = value
    if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
      value = "'" + value
    }
    let needsQuotes = value.unicodeScalars.contains {
      $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r"
    }
    guard needsQuotes else { return value }
    var quoted = "\""
    for character in value.unicodeScalars {
      quoted.unicodeScalars.append(character)
      if character == "\"" { quoted.unicodeScalars.append("\"") }
    }
    return quoted + "\""
  }

  /// `462.3`, `462`, `0.05`: seconds to the millisecond, without trailing zeros; "" for a value
  /// that is not a finite time of at most a day's many times over.
  static func decimalSeconds(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return "" }
    let milliseconds = Int64((seconds * 1000).rounded())
    let sign = milliseconds < 0 ? "-" : ""
    let magnitude = abs(milliseconds)
    var fraction = String(magnitude % 1000)
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return sign + String(magnitude / 1000) + (fraction.isEmpty ? "" : "." + fraction)
  }

  /// The rows as aligned columns for a terminal: PLACE, ATHLETE, HEAT, LANE, SCORE, TIEBREAK,
  /// and DIVISION first when any row has one. A tiebreak is shown as a time in `format`; a name
  /// with a control character shows it as `?`, so the table never moves the cursor.
  public static func table(_ rows: [RankedRow], format: LaneTimeFormat = .tenths) -> String {
    let showsDivision = rows.contains { !$0.division.isEmpty }
    var header = ["PLACE", "ATHLETE", "HEAT", "LANE", "SCORE", "TIEBREAK"]
    var rightAligned = [true, false, true, true, false, false]
    if showsDivision {
      header.insert("DIVISION", at: 0)
      rightAligned.insert(false, at: 0)
    }
    var lines = [header]
    for row in rows {
      var cells = [
        row.place.map(String.init) ?? "-", shown(row.athlete), String(row.heat), String(row.lane),
        shown(row.score),
        row.tiebreakSeconds.map {
          format.text(milliseconds: Int64((min(max(0, $0), 1e12) * 1000).rounded()))
        } ?? "",
      ]
      if showsDivision { cells.insert(shown(row.division), at: 0) }
      lines.append(cells)
    }
    var widths = [Int](repeating: 0, count: header.count)
    for line in lines {
      for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    var text = ""
    for line in lines {
      var out = ""
      for (column, cell) in line.enumerated() {
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        if column > 0 { out += "  " }
        out += rightAligned[column] ? padding + cell : cell + padding
      }
      while out.hasSuffix(" ") { out.removeLast() }
      text += out + "\n"
    }
    return text
  }

  /// `text` with control characters shown as `?`.
  private static func shown(_ text: String) -> String {
    guard TextScan.hasControlCharacter(text) else { return text }
    var shown = ""
    for scalar in text.unicodeScalars {
      let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      shown.unicodeScalars.append(control ? "?" : scalar)
    }
    return shown
  }
}
