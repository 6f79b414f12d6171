// SPDX-License-Identifier: MIT
// The leader's state message: what a follower needs to compute the leader's snapshot from its
// own clock, published retained on every change and never once a second.

import JSONKit
import WorkoutCore

/// One state message of the leader (see docs/link-protocol.md for the wire form).
///
/// The engine travels in the *link frame*: its instants are moved so that engine instant 0 is
/// engine time zero (the state the engine saves otherwise, as the state file holds it). The
/// wall-clock instant of that zero, ``zeroWallNanoseconds``, anchors a running workout to the
/// wall clock, which every linked clock keeps in step (chrony); a paused or finished one needs
/// no anchor (its time is frozen), an idle one none either. Every clock then computes every
/// second from its own clock, as the engine does: nothing is published once a second.
public struct LeaderState: Sendable {
  /// The version of the message's form; another is refused, with a message.
  public static let version: Int64 = 1
  /// The largest message read or sent (256 KiB): a full lap tally and a long sequence plan fit
  /// many times over, and a huge one cannot fill the memory. The MQTT client drops (and
  /// counts) any larger message before it is read (``LinkFront``).
  public static let maximumBytes = 256 * 1024

  /// The leader that published it.
  public var leader: LinkClientID
  public var stamp: LinkStamp
  /// The leader's `--speed`: a clock at another speed cannot show the same second.
  public var speed: Int64
  /// The wall-clock instant (ns) at which engine time was zero: the start plus every pause.
  /// Set while running, nil otherwise.
  public var zeroWallNanoseconds: Int64?
  /// A start that takes effect at this wall-clock instant (ns), a short lead after it was asked
  /// for, so every clock starts together; the engine is idle or finished until then.
  public var startsAtWallNanoseconds: Int64?
  /// The leader's engine in the link frame, checked.
  public private(set) var engine: WorkoutEngine

  /// The preset's name and its caption, as the status shows them.
  public var preset: String { engine.plan.name }
  public var label: String? { engine.plan.label }

  /// The message for the leader's `engine` at `reading` (one reading of its clocks), with its
  /// pending start if it has one. Throws only for an engine no clock can be at (an instant
  /// beyond 2^61 ns).
  public init(
    leader: LinkClientID, stamp: LinkStamp, engine: WorkoutEngine, reading: ClockReading,
    startsAtWallNanoseconds: Int64? = nil
  ) throws(LinkError) {
    let now = max(reading.engineInstant, engine.latestInstant ?? reading.engineInstant)
    let time = engine.engineTime(at: now)
    let (offset, overflow) = time.nanoseconds.subtractingReportingOverflow(now.nanoseconds)
    guard !overflow else { throw LinkError("the engine's instant \(now) is out of range") }
    do {
      self.engine = try engine.shiftingInstants(by: TimeSpan(nanoseconds: offset))
    } catch {
      throw LinkError("the engine cannot be sent: \(error)")
    }
    self.leader = leader
    self.stamp = stamp
    self.speed = reading.speed
    if engine.state.phase == .running {
      guard let wallNow = reading.wallNanoseconds(atEngine: now) else {
        throw LinkError("the engine's instant \(now) is out of range")
      }
      let (zero, overflow) = wallNow.subtractingReportingOverflow(
        time.nanoseconds / reading.speed)
      guard !overflow else { throw LinkError("the wall clock reads \(wallNow) ns") }
      zeroWallNanoseconds = zero
    }
    if engine.state.phase == .idle || engine.state.phase == .finished {
      self.startsAtWallNanoseconds = startsAtWallNanoseconds
    }
  }

  // MARK: - The follower's engine

  /// The leader's workout on a follower whose clocks read `reading`: the same engine with its
  /// instants moved onto the follower's engine clock, and the pending start at the follower's
  /// instant for it. At the same wall-clock instant both show the same snapshot (to the
  /// nanosecond at speed 1; within `speed` engine nanoseconds faster). The follower's own
  /// stale-cue limit is kept: `staleCueLimit`.
  ///
  /// A follower whose clock runs behind the leader's by more than the message's transit holds
  /// the engine where the leader last left it until its clock gets there.
  public func workout(at reading: ClockReading, staleCueLimit: TimeSpan = .seconds(1))
    throws(LinkError) -> LinkedWorkout
  {
    var start: EngineInstant?
    if let wall = startsAtWallNanoseconds {
      guard let instant = reading.engineInstant(atWall: wall) else {
        throw LinkError("the start at \(wall) ns cannot be reached from this clock")
      }
      start = instant
    }
    let offset: Int64
    if let zero = zeroWallNanoseconds {
      // Running: engine time zero (instant 0 in the link frame) is at the follower's instant of
      // that wall-clock instant.
      guard let origin = reading.engineInstant(atWall: zero) else {
        throw LinkError("the start at \(zero) ns cannot be reached from this clock")
      }
      offset = origin.nanoseconds
    } else {
      // Frozen or idle: only the latest instant matters; it becomes now, or the pending start's
      // instant when that is past already, so the start is applied at its own instant.
      let target = min(start ?? reading.engineInstant, reading.engineInstant)
      let (difference, overflow) = target.nanoseconds.subtractingReportingOverflow(
        engine.latestInstant?.nanoseconds ?? target.nanoseconds)
      guard !overflow else { throw LinkError("the engine's instant is out of range") }
      offset = difference
    }
    var moved: WorkoutEngine
    do {
      moved = try engine.shiftingInstants(by: TimeSpan(nanoseconds: offset))
    } catch {
      throw LinkError("the leader's engine does not fit this clock: \(error)")
    }
    moved.staleCueLimit = staleCueLimit
    return LinkedWorkout(engine: moved, pendingStart: start)
  }

  // MARK: - The wire

  /// The message as published: one JSON object.
  public func encoded() throws(LinkError) -> [UInt8] {
    do {
      var object = JSONObject([
        ("v", .integer(Self.version)), ("leader", .string(leader.text)),
        ("epoch", .integer(stamp.epoch)), ("seq", .integer(stamp.sequence)),
        ("preset", .string(preset)), ("label", label.map { .string($0) } ?? .null),
        ("plan", try LinkPlan(engine.plan).json), ("speed", .integer(speed)),
      ])
      object["zero_wall_ns"] = zeroWallNanoseconds.map { .integer($0) } ?? .null
      object["starts_at_wall_ns"] = startsAtWallNanoseconds.map { .integer($0) } ?? .null
      object["engine"] = try JSONValueEncoder().encode(engine.state)
      let bytes = JSONValue.object(object).serializedBytes()
      guard bytes.count <= Self.maximumBytes else {
        throw LinkError(
          "the state message has \(bytes.count) bytes, more than \(Self.maximumBytes)")
      }
      return bytes
    } catch let error as LinkError {
      throw error
    } catch {
      throw LinkError("the state message does not encode: \(error)")
    }
  }

  private static let parseOptions = JSONParseOptions(maxDepth: 48, maxInputBytes: maximumBytes)

  /// Reads a state message. Everything in it is checked before it is used: its size, its
  /// version, every number's range, the plan (compiled as a config's is) and the engine's state
  /// against that plan (as the state file's is), so no message makes a clock trap.
  public static func decode(_ bytes: some Collection<UInt8>) throws(LinkError) -> LeaderState {
    guard bytes.count <= maximumBytes else {
      throw LinkError("a state message of \(bytes.count) bytes, more than \(maximumBytes)")
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes, options: parseOptions)
    } catch {
      throw LinkError("the state message is not JSON: \(error)")
    }
    guard let object = value.objectValue else { throw LinkError("a state message is an object") }
    guard let version = object["v"]?.intValue else {
      throw LinkError("the state message has no version (\"v\")")
    }
    guard version == Self.version else {
      throw LinkError(
        "state message version \(version); this clock reads version \(Self.version): "
          + "give every clock of the room the same release")
    }
    guard let leaderText = object["leader"]?.stringValue, let leader = LinkClientID(leaderText)
    else { throw LinkError("\"leader\" is not a client id") }
    guard let epoch = object["epoch"]?.intValue, let sequence = object["seq"]?.intValue,
      epoch >= 0, sequence >= 1
    else { throw LinkError("\"epoch\" and \"seq\" must be whole numbers, \"seq\" from 1") }
    guard let speed = object["speed"]?.intValue, LinkLimits.speeds.contains(speed) else {
      throw LinkError("\"speed\" must be a whole number from 1 to 1000")
    }
    guard let preset = object["preset"]?.stringValue, !preset.isEmpty,
      preset.unicodeScalars.count <= 256
    else { throw LinkError("\"preset\" must be a name") }
    let zeroWall = try wallInstant("zero_wall_ns", in: object)
    let startsAt = try wallInstant("starts_at_wall_ns", in: object)
    guard let planValue = object["plan"] else { throw LinkError("the state message has no plan") }
    let plan = try LinkPlan(json: planValue).workoutPlan(preset: preset)
    let label = object["label"] ?? .null
    guard label.isNull ? plan.label == nil : label.stringValue.map({ $0 == plan.label }) ?? false
    else {
      throw LinkError("\"label\" does not match the plan's")
    }
    var engine: WorkoutEngine
    do {
      engine = try WorkoutEngine(plan: plan)
    } catch {
      throw LinkError("the plan is invalid: \(error)")
    }
    let state: EngineState
    do {
      guard let stateValue = object["engine"] else { throw LinkError("no \"engine\"") }
      state = try JSONValueDecoder().decode(EngineState.self, from: stateValue)
    } catch {
      throw LinkError("the engine's state does not decode: \(error)")
    }
    do {
      engine = try engine.restoring(state)
    } catch {
      throw LinkError("the engine's state: \(error)")
    }
    // The frame's promises, on which the follower's arithmetic relies.
    let phase = engine.state.phase
    guard (phase == .running) == (zeroWall != nil) else {
      throw LinkError("\"zero_wall_ns\" is given while running, and only then")
    }
    if phase == .running, let latest = engine.latestInstant {
      guard engine.engineTime(at: latest).nanoseconds == latest.nanoseconds else {
        throw LinkError("a running engine's zero is not at instant 0")
      }
    }
    guard startsAt == nil || phase == .idle || phase == .finished else {
      throw LinkError("a pending start is only for a workout that is not under way")
    }
    var message = LeaderState(
      leader: leader, stamp: LinkStamp(epoch: epoch, sequence: sequence), speed: speed,
      engine: engine)
    message.zeroWallNanoseconds = zeroWall
    message.startsAtWallNanoseconds = startsAt
    return message
  }

  private init(leader: LinkClientID, stamp: LinkStamp, speed: Int64, engine: WorkoutEngine) {
    self.leader = leader
    self.stamp = stamp
    self.speed = speed
    self.engine = engine
  }

  private static func wallInstant(_ key: String, in object: JSONObject) throws(LinkError)
    -> Int64?
  {
    guard let value = object[key], !value.isNull else { return nil }
    guard let instant = value.intValue, LinkLimits.wallNanoseconds.contains(instant) else {
      throw LinkError("\"\(key)\" must be a wall-clock instant in nanoseconds since 1970")
    }
    return instant
  }
}

/// A linked clock's workout: the engine, and the start it is to apply at an instant of its own
/// clock (the leader's pending start). The daemon drives it as it drives an engine.
public struct LinkedWorkout: Sendable {
  public var engine: WorkoutEngine
  /// The engine instant at which the pending start takes effect; nil when there is none.
  public var pendingStart: EngineInstant?

  public init(engine: WorkoutEngine, pendingStart: EngineInstant? = nil) {
    self.engine = engine
    self.pendingStart = pendingStart
  }

  /// Moves time to `instant`: applies the pending start at its own instant once `instant` has
  /// reached it, then advances. Returns the cues that became due, in order.
  public mutating func advance(to instant: EngineInstant) -> [Cue] {
    var cues: [Cue] = []
    if let start = pendingStart, instant >= start {
      pendingStart = nil
      // Refused only by the clock mode, which has nothing to start.
      cues = (try? engine.apply(.start, at: start)) ?? []
    }
    return cues + engine.advance(to: instant)
  }

  /// The snapshot at `instant`, the pending start applied on a copy when it is due.
  public func snapshot(at instant: EngineInstant) -> WorkoutSnapshot {
    var copy = self
    _ = copy.advance(to: instant)
    return copy.engine.snapshot(at: instant)
  }

  /// This workout as a follower takes it at `instant`, and whether it is under way then (running,
  /// paused, or with a start to come). One that ended before `instant` (a retained message of a
  /// workout that ran out before this clock joined, or a message whose start lies far in the
  /// past) comes back ended at `instant`, its cues dropped: the follower never saw it run, so it
  /// does not record it in its history nor sound its finish late.
  public func joined(at instant: EngineInstant) -> (workout: LinkedWorkout, live: Bool) {
    if pendingStart.map({ $0 > instant }) ?? false { return (self, true) }
    let phase = engine.state.phase
    guard phase == .running || phase == .paused || pendingStart != nil else {
      return (self, false)
    }
    var caughtUp = self
    _ = caughtUp.advance(to: instant)
    guard caughtUp.engine.state.phase != .finished else { return (caughtUp, false) }
    return (self, true)
  }

  /// When the daemon must wake next: the engine's next deadline, or the pending start.
  public var nextDeadline: EngineInstant? {
    guard let start = pendingStart else { return engine.nextDeadline }
    return engine.nextDeadline.map { min($0, start) } ?? start
  }
}
