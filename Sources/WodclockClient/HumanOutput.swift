// SPDX-License-Identifier: MIT
// How wodclockctl prints replies for people.

import HardwareKit
import JSONKit

enum HumanOutput {
  static func describe(command: String, reply: JSONValue) -> String {
    switch command {
    case "presets":
      let current = reply["current"]?.stringValue
      var text = ""
      for preset in reply["presets"]?.arrayValue ?? [] {
        let name = preset["name"]?.stringValue ?? "?"
        let marker = name == current ? "*" : " "
        let mode = preset["mode"]?.stringValue ?? ""
        let length = preset["length_s"]?.doubleValue.map { " " + clock(Int($0)) } ?? ""
        let label = preset["label"]?.stringValue.map { "  \($0)" } ?? ""
        text += "\(marker) \(pad(name, 20)) \(pad(mode, 10))\(length)\(label)\n"
      }
      return text
    case "history":
      let entries = reply["history"]?.arrayValue ?? []
      if entries.isEmpty { return "no workouts recorded yet\n" }
      var text = ""
      for entry in entries {
        let preset = entry["preset"]?.stringValue ?? "?"
        let outcome = entry["outcome"]?.stringValue ?? "?"
        let active = clock(Int(entry["active_s"]?.doubleValue ?? 0))
        var line = "\(pad(preset, 20)) \(pad(outcome, 10)) \(active)"
        if let rounds = entry["rounds"]?.intValue { line += "  round \(rounds)" }
        if let laps = entry["laps"]?.intValue, laps > 0 { line += "  laps \(laps)" }
        if let tension = entry["time_under_tension_s"]?.doubleValue {
          line += "  under tension \(clock(Int(tension)))"
        }
        if let ended = entry["ended_at"]?.intValue { line = "\(date(ended))  " + line }
        text += line + "\n"
      }
      return text
    case "schedule":
      return ScheduleOutput.describe(reply)
    case "recent":
      let entries = reply["recent"]?.arrayValue ?? []
      if entries.isEmpty { return "no workouts recorded yet\n" }
      var text = ""
      for (index, entry) in entries.enumerated() {
        let written = entry["workout"]?.stringValue ?? entry["preset"]?.stringValue ?? "?"
        var line = "\(pad(String(index + 1), 2)) \(pad(written, 30))"
        line += " \(pad(entry["outcome"]?.stringValue ?? "?", 10))"
        if let ended = entry["ended_at"]?.intValue { line += " " + date(ended) }
        text += line + "\n"
      }
      return text
    case "reload":
      return "reloaded \(reply["config"]?.stringValue ?? "")\n"
    case "version":
      return
        "wodclockd \(reply["version"]?.stringValue ?? "?") (protocol \(reply["protocol"]?.intValue ?? 0))\n"
    case "stats":
      var text = ""
      if let late = reply["wake_lateness_us"], !late.isNull {
        let figure = { (key: String) in String(Int(late[key]?.doubleValue ?? 0)) }
        text += "wake-up lateness: p50 \(figure("p50")) µs, p99 \(figure("p99")) µs, "
        text += "max \(figure("max")) µs over \(late["count"]?.intValue ?? 0) wake-ups\n"
      } else {
        text += "wake-up lateness: no timed wake-ups yet (start a workout)\n"
      }
      text += "cpu time: \(reply["cpu_s"]?.doubleValue ?? 0) s\n"
      text += "peak memory: \((reply["peak_rss_bytes"]?.intValue ?? 0) / 1024) KiB\n"
      text += "control clients: \(reply["clients"]?.intValue ?? 0)\n"
      if let web = reply["web"], !web.isNull {
        let count = { (key: String) in web[key]?.intValue ?? 0 }
        text += "web: \(count("connections")) connections, \(count("streams")) event streams, "
        text += "\(count("sessions")) signed in\n"
      }
      return text
    case "mute":
      let sound = reply["status"]?["muted"]?.boolValue == true ? "sound off" : "sound on"
      return sound + (reply["status"].map { "\n" + status($0) } ?? "\n")
    case "watch":
      return reply["status"].map { status($0) } ?? ""
    case "heats":
      return heats(reply)
    case "results":
      let table = reply["table"]?.stringValue ?? ""
      return table.isEmpty || table.hasSuffix("\n") ? table : table + "\n"
    default:
      return reply["status"].map { status($0) } ?? "ok\n"
    }
  }

  static func describe(event: JSONValue) -> String {
    switch event["event"]?.stringValue {
    case "status": return event["status"].map { status($0) } ?? ""
    case "cue":
      guard let cue = event["cue"], let name = cue["name"]?.stringValue else { return "" }
      var fields: [String] = []
      for (key, value) in cue.objectValue ?? JSONObject() where key != "name" {
        fields.append("\(key)=\(value.stringValue ?? value.serialized())")
      }
      return "  cue \(name) \(fields.joined(separator: " "))".trimmingSpaces() + "\n"
    default: return ""
    }
  }

  /// `running  tabata  0:15  work  round 2/8  elapsed 0:45  remaining 3:15`
  static func status(_ status: JSONValue) -> String {
    var parts: [String] = []
    parts.append(status["state"]?.stringValue ?? "?")
    parts.append(status["preset"]?.stringValue ?? "?")
    if let display = status["display"]?.stringValue { parts.append(display) }
    if let segment = status["segment"]?.stringValue { parts.append(segment.replacingUnderscores()) }
    if let round = status["round"]?.intValue {
      parts.append("round \(round)" + (status["rounds"]?.intValue.map { "/\($0)" } ?? ""))
    }
    if let set = status["set"]?.intValue {
      parts.append("set \(set)" + (status["sets"]?.intValue.map { "/\($0)" } ?? ""))
    }
    if let rep = status["rep"]?.intValue {
      parts.append("rep \(rep)" + (status["reps"]?.intValue.map { "/\($0)" } ?? ""))
    }
    if let side = status["side"]?.stringValue { parts.append(side) }
    if let reps = status["target_reps"]?.intValue { parts.append("×\(reps)") }
    if let laps = status["laps"]?.intValue, laps > 0 { parts.append("laps \(laps)") }
    if let label = status["label"]?.stringValue { parts.append(label) }
    if let elapsed = status["elapsed_s"]?.doubleValue {
      parts.append("elapsed \(clock(Int(elapsed)))")
    }
    if let remaining = status["remaining_s"]?.doubleValue {
      parts.append("remaining \(clock(Int(remaining.rounded(.up))))")
    }
    if let reason = status["finish_reason"]?.stringValue { parts.append("(\(reason))") }
    if status["muted"]?.boolValue == true { parts.append("muted") }
    var text = parts.joined(separator: "  ") + "\n"
    if let heat = status["heat"], !heat.isNull { text += heatLine(heat) }
    // The link's sign on a line of its own: "link: not leading: lane-1 leads (room hall)".
    if let link = status["link"], let sign = link["sign"]?.stringValue {
      text += "link: \(sign)" + (link["room"]?.stringValue.map { " (room \($0))" } ?? "") + "\n"
    }
    return text
  }

  static func clock(_ seconds: Int) -> String {
    let hours = seconds / 3600
    let minutes = (seconds / 60) % 60
    let rest = seconds % 60
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }

  /// `2026-11-29 21:05` in local time.
  static func date(_ seconds: Int64) -> String {
    let time = WallClock.civilTime(at: WallClock.Instant(seconds: seconds))
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return "\(time.year)-\(two(time.month))-\(two(time.day)) \(two(time.hour)):\(two(time.minute))"
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}

extension String {
  func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
