// SPDX-License-Identifier: MIT
// The product's design tokens. No renderer hard-codes a colour, a brightness or a blink rate:
// they all come from here, so a gym can restyle every output from one config section.

import WorkoutCore

/// A time of day on the wall clock. DisplayKit never reads a clock: callers pass it in.
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable {
  public var hour: Int
  public var minute: Int
  public var second: Int

  public init(hour: Int, minute: Int, second: Int = 0) {
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Minutes since midnight, 0–1439 for valid times.
  public var minuteOfDay: Int { hour * 60 + minute }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.hour, lhs.minute, lhs.second) < (rhs.hour, rhs.minute, rhs.second)
  }
}

/// What a piece of a display means; each role gets a colour from the tokens.
public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
  case work
  case rest
  case getReady = "get_ready"
  case setRest = "set_rest"
  case sideSwitch = "side_switch"
  case eccentric
  case bottomPause = "bottom_pause"
  case concentric
  case topPause = "top_pause"
  case paused
  case finished
  /// The time of day on the clock mode.
  case clock
  /// A loaded workout that has not started.
  case idle
  /// Secondary text: preset names, labels, help lines.
  case caption
  case progress
  case background
  /// Messages that need attention ("press r again to reset").
  case warning
}

/// Where a role's colour comes from: a named palette entry, or a colour written in place.
public enum ColorReference: Sendable, Hashable {
  case palette(String)
  case literal(RGB)
}

/// Named colours in the order they were written (configs and status output keep that order).
public struct Palette: Sendable, Hashable {
  /// Entry names in the order they were first written.
  public private(set) var names: [String]
  /// Entries by name.
  public private(set) var colors: [String: RGB]

  /// A palette of `entries`; a repeated name keeps its first position and its last colour.
  public init(_ entries: [(name: String, color: RGB)] = []) {
    names = []
    colors = [:]
    for entry in entries { self[entry.name] = entry.color }
  }

  /// Reading gives nil for an unknown name; writing a new name appends it, writing an existing
  /// one keeps its position, writing nil removes it.
  public subscript(name: String) -> RGB? {
    get { colors[name] }
    set {
      if let newValue {
        if colors.updateValue(newValue, forKey: name) == nil { names.append(name) }
      } else if colors.removeValue(forKey: name) != nil {
        names.removeAll { $0 == name }
      }
    }
  }
}

/// Brightness of the physical outputs: a day level and a night level on a daily schedule.
public struct BrightnessLevels: Sendable, Hashable {
  /// 0–100.
  public var dayPercent: Int
  /// 0–100.
  public var nightPercent: Int
  /// When night starts (seconds are ignored). Night may run across midnight.
  public var nightStart: TimeOfDay
  /// When night ends. Equal to `nightStart` means there is no night.
  public var nightEnd: TimeOfDay

  public init(dayPercent: Int, nightPercent: Int, nightStart: TimeOfDay, nightEnd: TimeOfDay) {
    self.dayPercent = dayPercent
    self.nightPercent = nightPercent
    self.nightStart = nightStart
    self.nightEnd = nightEnd
  }

  /// Whether the night level applies at a minute of the day (taken modulo a day). The start
  /// minute is night, the end minute is day again.
  public func isNight(atMinuteOfDay minute: Int) -> Bool {
    let day = 24 * 60
    let now = ((minute % day) + day) % day
    let start = nightStart.minuteOfDay
    let end = nightEnd.minuteOfDay
    if start == end { return false }
    return start < end ? (now >= start && now < end) : (now >= start || now < end)
  }

  /// The level in percent (clamped to 0–100) at a minute of the day.
  public func percent(atMinuteOfDay minute: Int) -> Int {
    let value = isNight(atMinuteOfDay: minute) ? nightPercent : dayPercent
    return min(100, max(0, value))
  }
}

/// Blink and flash rates, in milliseconds.
public struct BlinkRates: Sendable, Hashable {
  /// A full on+off cycle of the clock colon.
  public var colonPeriodMilliseconds: Int
  /// A full on+off cycle of the digits while paused.
  public var pausePeriodMilliseconds: Int
  /// How long outputs flash when a cue fires.
  public var cueFlashMilliseconds: Int

  public init(colonPeriodMilliseconds: Int, pausePeriodMilliseconds: Int, cueFlashMilliseconds: Int)
  {
    self.colonPeriodMilliseconds = colonPeriodMilliseconds
    self.pausePeriodMilliseconds = pausePeriodMilliseconds
    self.cueFlashMilliseconds = cueFlashMilliseconds
  }

  /// Whether a blinking element is lit `milliseconds` into its cycle: lit for the first half of
  /// each period. A period of zero or less means it never blinks. The caller supplies the time,
  /// so the phase stays tied to whatever clock it chooses (usually the workout's own).
  public static func isLit(periodMilliseconds period: Int, atMilliseconds milliseconds: Int64)
    -> Bool
  {
    guard period > 0 else { return true }
    let position = ((milliseconds % Int64(period)) + Int64(period)) % Int64(period)
    return position < Int64(period) / 2 + Int64(period) % 2
  }
}

/// Every colour, brightness and blink rate a renderer may use.
public struct DesignTokens: Sendable, Hashable {
  /// The named colours roles may refer to.
  public var palette: Palette
  /// Roles missing here fall back to ``DesignTokens/standard``.
  public var roles: [Role: ColorReference]
  /// Output brightness by time of day.
  public var brightness: BrightnessLevels
  /// Blink and flash rates.
  public var blink: BlinkRates

  public init(
    palette: Palette, roles: [Role: ColorReference], brightness: BrightnessLevels,
    blink: BlinkRates
  ) {
    self.palette = palette
    self.roles = roles
    self.brightness = brightness
    self.blink = blink
  }

  /// The colour of a role. A role that is missing or names an unknown palette entry gets the
  /// standard colour, so a broken config still shows a readable clock
  /// (``validationErrors()`` reports it).
  public func color(for role: Role) -> RGB {
    if let color = resolve(roles[role]) { return color }
    if let color = Self.standard.resolve(Self.standard.roles[role]) { return color }
    return role == .background ? .black : .white
  }

  /// The colour of what a snapshot is doing.
  public func color(for snapshot: WorkoutSnapshot) -> RGB { color(for: role(for: snapshot)) }

  /// The role of what a snapshot is doing: the run state first (paused, finished, count-in,
  /// idle), then the kind of the running segment.
  public func role(for snapshot: WorkoutSnapshot) -> Role {
    switch snapshot.runState {
    case .finished: return .finished
    case .paused: return .paused
    case .countIn: return .getReady
    case .idle: return snapshot.mode == .clock ? .clock : .idle
    case .running: break
    }
    switch snapshot.segmentKind {
    case .countIn: return .getReady
    case .work, nil: return .work
    case .rest: return .rest
    case .setRest: return .setRest
    case .sideSwitch: return .sideSwitch
    case .eccentric: return .eccentric
    case .bottomPause: return .bottomPause
    case .concentric: return .concentric
    case .topPause: return .topPause
    }
  }

  /// Output brightness in percent at a minute of the day.
  public func brightness(atMinuteOfDay minute: Int) -> Int {
    brightness.percent(atMinuteOfDay: minute)
  }

  /// Problems a config loader should report: roles naming palette entries that do not exist,
  /// percentages outside 0–100, negative periods.
  public func validationErrors() -> [String] {
    var errors: [String] = []
    for role in Role.allCases {
      if case .palette(let name) = roles[role], palette[name] == nil {
        errors.append("role '\(role.rawValue)' names unknown colour '\(name)'")
      }
    }
    for (name, value) in [
      ("day", brightness.dayPercent), ("night", brightness.nightPercent),
    ] where !(0...100).contains(value) {
      errors.append("\(name) brightness \(value) is outside 0–100")
    }
    for (name, time) in [
      ("night_start", brightness.nightStart), ("night_end", brightness.nightEnd),
    ]
    where !(0...23).contains(time.hour) || !(0...59).contains(time.minute) {
      errors.append("\(name) \(time.hour):\(time.minute) is not a time of day")
    }
    for (name, value) in [
      ("colon_blink", blink.colonPeriodMilliseconds),
      ("pause_blink", blink.pausePeriodMilliseconds),
      ("cue_flash", blink.cueFlashMilliseconds),
    ] where value < 0 {
      errors.append("\(name) \(value) ms is negative")
    }
    return errors
  }

  private func resolve(_ reference: ColorReference?) -> RGB? {
    switch reference {
    case .literal(let color): color
    case .palette(let name): palette[name]
    case nil: nil
    }
  }

  /// Dark-first, high contrast: saturated colours on black, readable across a gym floor.
  /// Work green, rest red, get ready amber, paused blue, finished white.
  public static let standard = DesignTokens(
    palette: Palette([
      ("black", RGB(red: 0x00, green: 0x00, blue: 0x00)),
      ("white", RGB(red: 0xFF, green: 0xFF, blue: 0xFF)),
      ("silver", RGB(red: 0xB8, green: 0xBE, blue: 0xC6)),
      ("green", RGB(red: 0x22, green: 0xE0, blue: 0x5A)),
      ("red", RGB(red: 0xFF, green: 0x33, blue: 0x33)),
      ("amber", RGB(red: 0xFF, green: 0xB3, blue: 0x00)),
      ("yellow", RGB(red: 0xFF, green: 0xE6, blue: 0x4D)),
      ("orange", RGB(red: 0xFF, green: 0x7A, blue: 0x1A)),
      ("blue", RGB(red: 0x4D, green: 0x94, blue: 0xFF)),
      ("cyan", RGB(red: 0x26, green: 0xD0, blue: 0xFF)),
      ("violet", RGB(red: 0xB4, green: 0x7C, blue: 0xFF)),
      ("teal", RGB(red: 0x1E, green: 0xD6, blue: 0xB4)),
    ]),
    roles: [
      .work: .palette("green"),
      .rest: .palette("red"),
      .getReady: .palette("amber"),
      .setRest: .palette("violet"),
      .sideSwitch: .palette("cyan"),
      .eccentric: .palette("cyan"),
      .bottomPause: .palette("yellow"),
      .concentric: .palette("green"),
      .topPause: .palette("yellow"),
      .paused: .palette("blue"),
      .finished: .palette("white"),
      .clock: .palette("white"),
      .idle: .palette("silver"),
      .caption: .palette("silver"),
      .progress: .palette("teal"),
      .background: .palette("black"),
      .warning: .palette("orange"),
    ],
    brightness: BrightnessLevels(
      dayPercent: 100, nightPercent: 25, nightStart: TimeOfDay(hour: 22, minute: 0),
      nightEnd: TimeOfDay(hour: 6, minute: 0)),
    blink: BlinkRates(
      colonPeriodMilliseconds: 1000, pausePeriodMilliseconds: 1000, cueFlashMilliseconds: 300))
}
