// SPDX-License-Identifier: MIT
// What a web page draws, as the `clock` and `face` members of the status: the laws of the big
// digits and the progress bar in the server's time, and the picture the other displays show
// (the phase word and colour, the digits, the round line, the tempo track), made with the same
// functions as the terminal's.

import Configuration
import DisplayKit
import JSONKit
import WorkoutCore

/// Everything the `clock` and `face` of one instant are made from. The shell gives every clock.
public struct WebDisplayInput: Sendable {
  /// The engine's snapshot at ``now`` (the one the socket's status is made of, not the idle
  /// screen's clock: that one is chosen here from ``clock``).
  public var snapshot: WorkoutSnapshot
  public var tokens: DesignTokens
  public var words: DisplayWords
  /// The configuration's `clock:` section: the face of the time of day and the idle screen.
  public var clock: ClockSettings
  /// The daemon's monotonic clock, nanoseconds: the instant described.
  public var now: Int64
  /// `--speed`: engine seconds per real second.
  public var speed: Int64
  /// The wall clock at ``now``: nanoseconds since 1970-01-01 UTC.
  public var wallNanoseconds: Int64
  /// The gym's offset from UTC at that instant, in seconds (3600 for CET).
  public var utcOffsetSeconds: Int
  /// The wall clock is NTP-synchronized.
  public var synchronized: Bool
  /// What the idle screen says under the time (the next class), or nil.
  public var idleNote: String?
  /// The transient message ("press again to replace"), or nil.
  public var message: String?
  /// What a keypad is composing, over the workout; it takes the message's place.
  public var overlay: DisplayOverlay?
  public var muted: Bool
  /// The loaded plan: its whiteboard and media go beside the digits. Nil: none.
  public var plan: WorkoutPlan?

  public init(
    snapshot: WorkoutSnapshot, tokens: DesignTokens = .standard, words: DisplayWords = .english,
    clock: ClockSettings = ClockSettings(), now: Int64, speed: Int64 = 1, wallNanoseconds: Int64,
    utcOffsetSeconds: Int = 0, synchronized: Bool = true, idleNote: String? = nil,
    message: String? = nil, overlay: DisplayOverlay? = nil, muted: Bool = false,
    plan: WorkoutPlan? = nil
  ) {
    self.plan = plan
    self.snapshot = snapshot
    self.tokens = tokens
    self.words = words
    self.clock = clock
    self.now = now
    self.speed = speed
    self.wallNanoseconds = wallNanoseconds
    self.utcOffsetSeconds = utcOffsetSeconds
    self.synchronized = synchronized
    self.idleNote = idleNote
    self.message = message
    self.overlay = overlay
    self.muted = muted
  }

  /// The idle screen shows the time of day instead of the loaded workout (`clock: {idle:
  /// clock}`), as the daemon's other displays do.
  var showsIdleClock: Bool {
    snapshot.runState == .idle && snapshot.mode != .clock && clock.idle == .clock
  }

  /// The displays show the time of day: the clock mode, or the idle clock.
  public var showsTimeOfDay: Bool { snapshot.mode == .clock || showsIdleClock }

  /// The digits and the progress bar move: the count-in and a running workout.
  var isRunning: Bool { snapshot.runState == .running || snapshot.runState == .countIn }

  /// The workout is under way: counting in, running or paused.
  var isUnderWay: Bool { isRunning || snapshot.runState == .paused }

  /// `--speed`, never below 1.
  var rate: Int64 { max(1, speed) }

  /// The monotonic instant `engineSpan` of engine time after ``now`` (rounded up, as the
  /// daemon's own deadlines are: the instant the engine has got there).
  func instant(after engineSpan: TimeSpan) -> Int64 {
    let span = max(0, engineSpan.nanoseconds)
    return now + span / rate + (span % rate > 0 ? 1 : 0)
  }

  /// The monotonic instant `engineSpan` of engine time before ``now``.
  func instant(before engineSpan: TimeSpan) -> Int64 {
    now - max(0, engineSpan.nanoseconds) / rate
  }

  /// The gym's time of day at ``now``.
  var timeOfDay: DisplayKit.TimeOfDay {
    let second: Int64 = 1_000_000_000
    var seconds = wallNanoseconds / second - (wallNanoseconds % second < 0 ? 1 : 0)
    seconds += Int64(max(-86_400, min(86_400, utcOffsetSeconds)))
    let ofDay = ((seconds % 86_400) + 86_400) % 86_400
    return TimeOfDay(
      hour: Int(ofDay / 3600), minute: Int(ofDay / 60 % 60), second: Int(ofDay % 60))
  }
}

/// The `clock` member: the server's time, and the laws a page draws the digits and the progress
/// bar by until the next status.
public struct WebClock: Sendable, Hashable {
  /// A figure that moves at a constant rate from a start until an instant, then holds.
  public struct Law: Sendable, Hashable {
    /// The figure at ``WebClock/serverMilliseconds``.
    public var value: Double
    /// Its change per real second (0 when it holds).
    public var rate: Double
    /// After this instant (server milliseconds) it holds; nil: it runs on (or holds already).
    public var untilMilliseconds: Double?
  }

  /// The big digits: the exact engine seconds, and which way they run.
  public struct Digits: Sendable, Hashable {
    public var law: Law
    /// Down: shown as the ceiling of the figure; up: as its floor.
    public var direction: DisplayTime.Direction
  }

  /// The instant described, in server milliseconds (the monotonic clock, to the microsecond).
  public var serverMilliseconds: Double
  public var speed: Int64
  /// The big digits; nil when there are none (the time of day is shown).
  public var digits: Digits?
  /// The workout's progress bar, 0…1; nil when the workout has no length or the time of day
  /// is shown.
  public var progress: Law?
  /// The wall clock at that instant: milliseconds since 1970 UTC.
  public var wallMilliseconds: Double
  public var utcOffsetSeconds: Int
  public var synchronized: Bool

  /// The clock of `input`: the digits' figure at its instant, moving at `speed` while the
  /// count-in or the workout runs, until the current segment ends (when a new status comes);
  /// the progress likewise until the workout's end.
  public init(_ input: WebDisplayInput) {
    let snapshot = input.snapshot
    serverMilliseconds = Self.serverMilliseconds(input.now)
    speed = input.speed
    wallMilliseconds = Double(input.wallNanoseconds / 1000) / 1000
    utcOffsetSeconds = input.utcOffsetSeconds
    synchronized = input.synchronized
    digits = nil
    progress = nil
    guard !input.showsTimeOfDay else { return }
    let running = input.isRunning
    if let display = snapshot.display, let span = snapshot.displayedSpan {
      let until = running ? snapshot.segmentRemaining.map(input.instant(after:)) : nil
      digits = Digits(
        law: Law(
          value: span.seconds, rate: running ? Double(input.rate) : 0,
          untilMilliseconds: until.map(Self.serverMilliseconds)),
        direction: display.direction)
    }
    if let value = snapshot.progress, let length = snapshot.workoutLength {
      // The bar grows with the workout's own time, which the count-in does not count.
      let moving = snapshot.runState == .running && length > .zero
      progress = Law(
        value: value, rate: moving ? Double(input.rate) / length.seconds : 0,
        untilMilliseconds: moving
          ? snapshot.remaining.map { Self.serverMilliseconds(input.instant(after: $0)) } : nil)
    }
  }

  /// Monotonic nanoseconds as server milliseconds, to the microsecond.
  public static func serverMilliseconds(_ monotonic: Int64) -> Double {
    Double(monotonic / 1000) / 1000
  }

  /// The member as the contract writes it.
  public var json: JSONValue {
    func until(_ law: Law) -> JSONValue { law.untilMilliseconds.map(JSONValue.double) ?? .null }
    let digitsValue: JSONValue =
      digits.map { digits in
        .object(
          JSONObject([
            ("value_s", .double(digits.law.value)),
            ("direction", .string(digits.direction.rawValue)),
            ("rate", .integer(Int64(digits.law.rate))),
            ("until_ms", until(digits.law)),
          ]))
      } ?? .null
    let progressValue: JSONValue =
      progress.map { progress in
        .object(
          JSONObject([
            ("value", .double(progress.value)), ("rate", .double(progress.rate)),
            ("until_ms", until(progress)),
          ]))
      } ?? .null
    return .object(
      JSONObject([
        ("server_ms", .double(serverMilliseconds)),
        ("speed", .integer(speed)),
        ("digits", digitsValue),
        ("progress", progressValue),
        ("wall_ms", .double(wallMilliseconds)),
        ("utc_offset_s", .integer(Int64(utcOffsetSeconds))),
        ("synchronized", .bool(synchronized)),
      ]))
  }
}

/// The `face` member: what the displays show, worked out here so a page never works out
/// workout semantics itself.
public struct WebFace: Sendable, Hashable {
  /// TempoRep's pacing track: where the dot is at the phase's start and end, and when those are.
  public struct Tempo: Sendable, Hashable {
    /// The four figures as written: `3`, `1.5`, `X` (an explosive concentric).
    public var values: [String]
    /// The figure running now (0 eccentric, 1 bottom, 2 concentric, 3 top), nil outside a
    /// phase or once the workout has finished.
    public var phaseIndex: Int?
    public var arrow: TempoSnapshot.Arrow?
    /// The dot's position (0 top, 1 bottom) at the phase's start and at its end.
    public var from: Double
    public var to: Double
    /// The phase's start and end, server milliseconds; the dot moves from ``from`` to ``to``
    /// between them. Equal (and ``from`` equal to ``to``) while the dot stands still: paused,
    /// idle, finished.
    public var startsAtMilliseconds: Double
    public var endsAtMilliseconds: Double
    public var explosive: Bool
    public var reverse: Bool
  }

  /// The movement that comes next, shown large from an instant on: at once during a count-in,
  /// a rest or a set rest, else in the last ``WebFace/nextLead`` of a work step before another
  /// movement.
  public struct Next: Sendable, Hashable {
    public var text: String
    /// Server milliseconds from which it is shown (it may be past already).
    public var fromMilliseconds: Double
  }

  /// A file of the media directory, and how a page shows it.
  public struct Media: Sendable, Hashable {
    public var name: String
    public var kind: WebMedia.Kind
    /// Where the page fetches it: `/media/` and the name, percent-encoded.
    public var path: String
  }

  /// How long before a change of movement the next one is shown.
  public static let nextLead = MovementCaption.announceBefore

  public var state: RunState
  public var mode: ModeName
  /// The design-token role of what the face shows, and its colour.
  public var role: Role
  public var color: RGB
  public var background: RGB
  public var captionColor: RGB
  public var progressColor: RGB
  public var warningColor: RGB
  /// The phase word in the display language (`WORK`, `DOWN`, `PAUSED`); the AM or PM of a
  /// 12-hour time of day; empty for a 24-hour one.
  public var word: String
  /// The big digits at the instant (`0:37`), or the time of day when that is shown.
  public var digits: String
  /// The round/set/rep line (`R 3/10`), nil when there is nothing to count.
  public var rounds: String?
  public var label: String?
  public var tempo: Tempo?
  /// The whiteboard's lines as written, beside the digits; empty when the workout has none or
  /// the time of day is shown.
  public var whiteboard: [String]
  /// The line of the step under way, highlighted; nil outside a step that is a line.
  public var whiteboardLine: Int?
  /// "next: 10 burpees", and from when it is shown.
  public var next: Next?
  /// The picture or video beside the clock.
  public var media: Media?
  /// How the time of day is shown.
  public var clockFace: ClockFace
  /// The page draws the gym's time of day (from the clock's `wall_ms` and `utc_offset_s`).
  public var showsTimeOfDay: Bool
  /// The next class, while idle.
  public var idleNote: String?
  /// The keypad's overlay (`A 14  ·  ENTER loads`), or the transient message.
  public var message: String?
  public var muted: Bool

  /// The face of `input`, as the terminal view draws the same snapshot.
  public init(_ input: WebDisplayInput) {
    let snapshot = input.snapshot
    let tokens = input.tokens
    showsTimeOfDay = input.showsTimeOfDay
    state = snapshot.runState
    // The idle clock takes the loaded workout's place on every display.
    mode = input.showsIdleClock ? .clock : snapshot.mode
    role = input.showsIdleClock ? .clock : tokens.role(for: snapshot)
    color = tokens.color(for: role)
    background = tokens.color(for: .background)
    captionColor = tokens.color(for: .caption)
    progressColor = tokens.color(for: .progress)
    warningColor = tokens.color(for: .warning)
    clockFace = (snapshot.mode == .clock ? snapshot.clockFace : nil) ?? input.clock.face
    if showsTimeOfDay {
      let time = input.timeOfDay
      digits = TimeText.clockDigits(
        hour: time.hour, minute: time.minute, second: time.second, face: clockFace)
      word = TimeText.meridiem(hour: time.hour, face: clockFace) ?? ""
    } else {
      digits = snapshot.display.map(TimeText.format) ?? "--:--"
      word = input.words.word(for: snapshot)
    }
    if input.showsIdleClock {
      rounds = nil
      label = nil
      tempo = nil
    } else {
      var parts = TimeText.roundParts(snapshot, words: input.words)
      if let laps = Self.lapTally(snapshot, words: input.words) { parts.append(laps) }
      rounds = parts.isEmpty ? nil : parts.joined(separator: " · ")
      label = snapshot.label.flatMap { $0.isEmpty ? nil : $0 }
      tempo = snapshot.tempo.map { Self.tempo($0, input) }
    }
    let board = showsTimeOfDay ? nil : input.plan
    whiteboard = board?.whiteboard.map(\.text) ?? []
    let line = Self.highlightedLine(input)
    whiteboardLine = line
    next = Self.next(input)
    media = board.flatMap { Self.media($0.mediaShown(atLine: line)) }
    idleNote = snapshot.runState == .idle ? input.idleNote.flatMap { $0.isEmpty ? nil : $0 } : nil
    message = input.overlay?.line ?? input.message.flatMap { $0.isEmpty ? nil : $0 }
    muted = input.muted
  }

  /// The laps tallied in an EMOM or intervals (`LAP 2`), which count rounds of their own: an
  /// AMRAP's laps are its round line already.
  static func lapTally(_ snapshot: WorkoutSnapshot, words: DisplayWords) -> String? {
    let tallied: Set<ModeName> = [.emom, .intervals, .tabata]
    guard snapshot.laps > 0, tallied.contains(snapshot.mode), !TimeText.isLapTally(snapshot)
    else { return nil }
    return "\(words[.lap]) \(snapshot.laps)"
  }

  /// The line to highlight: the step's own, while the workout is under way.
  static func highlightedLine(_ input: WebDisplayInput) -> Int? {
    guard input.isUnderWay, !input.showsTimeOfDay, let plan = input.plan,
      let line = input.snapshot.whiteboardLine, plan.whiteboard.indices.contains(line)
    else { return nil }
    return line
  }

  /// "next: …", from the instant the displays' one rule announces it
  /// (``MovementCaption/announcement(in:)``): at once through a count-in, a rest or a set
  /// rest; in a work step, ``MovementCaption/announceBefore`` before its end when another
  /// movement follows (while paused, only when that time has come). Never before the start or
  /// after the finish.
  static func next(_ input: WebDisplayInput) -> Next? {
    let snapshot = input.snapshot
    guard input.isUnderWay, !input.showsTimeOfDay,
      let announced = MovementCaption.announcement(in: snapshot)
    else { return nil }
    let elapsed = snapshot.segmentElapsed
    let from: Int64
    if snapshot.runState == .paused {
      guard elapsed >= announced.from else { return nil }
      from = input.now
    } else if announced.from >= elapsed {
      from = input.instant(after: announced.from - elapsed)
    } else {
      from = input.instant(before: elapsed - announced.from)
    }
    return Next(text: announced.movement, fromMilliseconds: WebClock.serverMilliseconds(from))
  }

  /// The media of `name`, when a page can show it (a plain name of one of the five types).
  static func media(_ name: String?) -> Media? {
    guard let name, let kind = WebMedia.kind(of: name) else { return nil }
    return Media(name: name, kind: kind, path: WebMedia.path(of: name))
  }

  private static func tempo(_ tempo: TempoSnapshot, _ input: WebDisplayInput) -> Tempo {
    let snapshot = input.snapshot
    let now = WebClock.serverMilliseconds(input.now)
    var track = Tempo(
      values: TempoPhase.allCases.map { TimeText.tempoFigure(tempo, $0) },
      phaseIndex: snapshot.runState == .finished ? nil : tempo.phase?.position,
      arrow: tempo.arrow, from: tempo.trackPosition, to: tempo.trackPosition,
      startsAtMilliseconds: now, endsAtMilliseconds: now,
      explosive: tempo.explosiveConcentric, reverse: tempo.reverseDirection)
    if snapshot.runState == .running, let remaining = snapshot.segmentRemaining {
      track.from = TempoSnapshot.trackPosition(
        in: tempo.phase, progress: 0, reverseDirection: tempo.reverseDirection)
      track.to = TempoSnapshot.trackPosition(
        in: tempo.phase, progress: 1, reverseDirection: tempo.reverseDirection)
      track.startsAtMilliseconds = WebClock.serverMilliseconds(
        input.instant(before: snapshot.segmentElapsed))
      track.endsAtMilliseconds = WebClock.serverMilliseconds(input.instant(after: remaining))
    }
    return track
  }

  /// Whether `other` shows something else than this face, leaving out what moves by itself
  /// between statuses (the digits, the 12-hour word, the track's instants): a page needs a new
  /// status when this says so.
  public func looksDifferent(from other: WebFace) -> Bool {
    func still(_ face: WebFace) -> WebFace {
      var face = face
      face.digits = ""
      if face.showsTimeOfDay { face.word = "" }
      face.tempo?.startsAtMilliseconds = 0
      face.tempo?.endsAtMilliseconds = 0
      face.next?.fromMilliseconds = 0
      return face
    }
    return still(self) != still(other)
  }

  /// The member as the contract writes it, colours as `#rrggbb`.
  public var json: JSONValue {
    func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    let tempoValue: JSONValue =
      tempo.map { tempo in
        .object(
          JSONObject([
            ("values", .array(tempo.values.map(JSONValue.string))),
            ("phase_index", tempo.phaseIndex.map { .integer(Int64($0)) } ?? .null),
            ("arrow", text(tempo.arrow?.rawValue)),
            ("from", .double(tempo.from)), ("to", .double(tempo.to)),
            ("starts_at_ms", .double(tempo.startsAtMilliseconds)),
            ("ends_at_ms", .double(tempo.endsAtMilliseconds)),
            ("explosive", .bool(tempo.explosive)), ("reverse", .bool(tempo.reverse)),
          ]))
      } ?? .null
    return .object(
      JSONObject([
        ("state", .string(state.rawValue)),
        ("mode", .string(mode.rawValue)),
        ("role", .string(role.rawValue)),
        ("color", .string(color.hex)),
        ("background", .string(background.hex)),
        ("caption_color", .string(captionColor.hex)),
        ("progress_color", .string(progressColor.hex)),
        ("warning_color", .string(warningColor.hex)),
        ("word", .string(word)),
        ("digits", .string(digits)),
        ("rounds", text(rounds)),
        ("label", text(label)),
        ("tempo", tempoValue),
        (
          "clock_face",
          .object(
            JSONObject([
              ("twenty_four_hour", .bool(clockFace.twentyFourHour)),
              ("show_seconds", .bool(clockFace.showSeconds)),
            ]))
        ),
        ("show_time_of_day", .bool(showsTimeOfDay)),
        ("idle_note", text(idleNote)),
        ("message", text(message)),
        ("muted", .bool(muted)),
        ("whiteboard", .array(whiteboard.map(JSONValue.string))),
        ("whiteboard_line", whiteboardLine.map { .integer(Int64($0)) } ?? .null),
        (
          "next",
          next.map { next in
            .object(
              JSONObject([
                ("text", .string(next.text)), ("from_ms", .double(next.fromMilliseconds)),
              ]))
          } ?? .null
        ),
        (
          "media",
          media.map { media in
            .object(
              JSONObject([
                ("name", .string(media.name)), ("kind", .string(media.kind.rawValue)),
                ("path", .string(media.path)),
              ]))
          } ?? .null
        ),
      ]))
  }
}
