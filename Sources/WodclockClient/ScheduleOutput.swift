// SPDX-License-Identifier: MIT
// `wodclockctl schedule` for people: today's classes, the next one, the clock's sync status.

import JSONKit

enum ScheduleOutput {
  /// Today (Mon 2026-01-05):
  ///   06:00  6 AM WOD             fran        started
  ///   18:30  Evening              tabata
  /// next: 6 AM WOD at 06:00 on Tue 2026-01-06, loaded 5 min before
  static func describe(_ reply: JSONValue) -> String {
    let classes = reply["classes"]?.arrayValue ?? []
    let next = reply["next"].flatMap { $0.isNull ? nil : $0 }
    var text = ""
    if reply["synchronized"]?.boolValue == false {
      text += "the clock is not synchronized (no time source yet): no class is loaded until it is\n"
    }
    if classes.isEmpty && next == nil {
      return text + "no classes in the schedule today\n"
    }
    let today = reply["today"]?.stringValue ?? "?"
    let weekday = classes.first?["weekday"]?.stringValue.map { title($0) + " " } ?? ""
    text += classes.isEmpty ? "no classes today (\(today))\n" : "today (\(weekday)\(today)):\n"
    for entry in classes {
      let at = entry["at"]?.stringValue ?? "?"
      let name = entry["name"]?.stringValue ?? "?"
      // A workout with its whiteboard lines is listed by its first line.
      let workout =
        entry["workout"]?.stringValue?.split(separator: "\n").first.map(String.init) ?? "?"
      let state = entry["past"]?.boolValue == true ? "  started" : ""
      text += "  \(at)  \(HumanOutput.pad(name, 20)) \(HumanOutput.pad(workout, 12))\(state)"
      text = String(text.reversed().drop { $0 == " " }.reversed()) + "\n"
    }
    if let next {
      let name = next["name"]?.stringValue ?? "?"
      let at = next["at"]?.stringValue ?? "?"
      let day = (next["weekday"]?.stringValue).map(title) ?? ""
      let date = next["date"]?.stringValue ?? ""
      let lead = Int(reply["lead_s"]?.doubleValue ?? 0)
      let when = lead == 0 ? "loaded at its start" : "loaded \(leadText(lead)) before"
      text += "next: \(name) at \(at) on \(day) \(date), \(when)\n"
    }
    return text
  }

  static func title(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

  static func leadText(_ seconds: Int) -> String {
    if seconds % 60 == 0 { return "\(seconds / 60) min" }
    return "\(seconds) s"
  }
}
