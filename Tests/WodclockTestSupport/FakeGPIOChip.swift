// SPDX-License-Identifier: MIT
// An in-process GPIO chip for tests: it records every output change and lets a test press
// buttons, with the same protocols, checks and error texts as the Linux chip.

public import HardwareKit

/// A GPIO chip that lives in memory.
///
/// Plugins under test receive it as `any GPIOChip` (the GPIO plugins through a chip source whose
/// opener is `FakeGPIOChips.open`); the test drives the outside world:
///
/// ```swift
/// let chip = FakeGPIOChip.raspberryPi(clock: { now })
/// let plugin = try ButtonPlugin(chip: chip, line: "GPIO17")    // requests GPIO17
/// chip.press(17, at: 1_000_000_000)          // a rising edge with an active-low pull-up input
/// chip.releaseButton(17, at: 1_080_000_000)
/// #expect(chip.events(for: 17).map(\.edge) == [.rising, .falling])
/// #expect(chip.history(of: 4).map(\.value) == [false, true, false])   // the horn line
/// ```
///
/// The model: every line has a physical level. An input reads its pull (bias) unless the outside
/// drives it; a press drives it away from its idle level. Logical values and edges are the
/// physical ones inverted for active-low requests, as the kernel does (libgpiod.md §2). Edge
/// events are queued only for lines requested with a matching edge detection, make the request's
/// `fileDescriptor` (an eventfd) readable, and carry the instant the test gave.
///
/// Not thread-safe: use it on the thread of the code under test.
public final class FakeGPIOChip: GPIOChip {
  /// One change of an output line's logical value.
  public struct Change: Hashable, Sendable {
    /// When it happened, in the chip clock's nanoseconds.
    public var instant: Int64
    /// The logical value set (true = active).
    public var value: Bool

    /// Creates a change.
    public init(instant: Int64, value: Bool) {
      self.instant = instant
      self.value = value
    }
  }

  public let info: GPIOChipInfo
  private let names: [String?]
  private let clock: () -> Int64

  /// What the outside drives each line to; `nil` leaves it to the pull.
  private var driven: [Int: Bool] = [:]
  /// Lines held by "other programs" (`occupy`): offset to consumer.
  private var occupied: [Int: String] = [:]
  private var requests: [ObjectIdentifier: RequestState] = [:]
  private var owner: [Int: ObjectIdentifier] = [:]
  private var delivered: [Int: [GPIOEdgeEvent]] = [:]
  private var changes: [Int: [Change]] = [:]

  final class RequestState {
    let offsets: [Int]
    let consumer: String
    let isOutput: Bool
    let bias: GPIOBias
    let activeLow: Bool
    let edges: GPIOEdgeDetection
    let notifier: EventNotifier?
    var queue: [GPIOEdgeEvent] = []
    var outputValues: [Int: Bool] = [:]

    init(
      offsets: [Int], consumer: String, isOutput: Bool, bias: GPIOBias, activeLow: Bool,
      edges: GPIOEdgeDetection, notifier: EventNotifier?
    ) {
      self.offsets = offsets
      self.consumer = consumer
      self.isOutput = isOutput
      self.bias = bias
      self.activeLow = activeLow
      self.edges = edges
      self.notifier = notifier
    }
  }

  /// Creates a chip.
  /// - Parameters:
  ///   - lineNames: names by offset, such as `[17: "GPIO17"]`.
  ///   - clock: the chip's notion of now, in nanoseconds, for calls without an explicit instant
  ///     (output changes, and presses without `at:`). A test usually passes its fake clock.
  public init(
    name: String = "gpiochip0", label: String = "fake-gpio", lineCount: Int = 8,
    lineNames: [Int: String] = [:], clock: @escaping () -> Int64 = MonotonicClock.now
  ) {
    precondition(lineCount >= 0, "lineCount must not be negative")
    info = GPIOChipInfo(name: name, label: label, lineCount: lineCount)
    names = (0..<lineCount).map { lineNames[$0] }
    self.clock = clock
  }

  /// The 40-pin header chip of a Raspberry Pi 5: `gpiochip0`, label `pinctrl-rp1`, 54 lines
  /// named `GPIO0` … `GPIO53` (libgpiod.md §6).
  public static func raspberryPi(
    clock: @escaping () -> Int64 = MonotonicClock.now
  ) -> FakeGPIOChip {
    FakeGPIOChip(
      name: "gpiochip0", label: "pinctrl-rp1", lineCount: 54,
      lineNames: Dictionary(uniqueKeysWithValues: (0..<54).map { ($0, "GPIO\($0)") }),
      clock: clock)
  }

  // MARK: GPIOChip

  public func lineInfo(at offset: Int) throws(GPIOError) -> GPIOLineInfo {
    guard names.indices.contains(offset) else { throw .noSuchOffset(offset, chip: info) }
    let state = owner[offset].flatMap { requests[$0] }
    return GPIOLineInfo(
      offset: offset, name: names[offset], consumer: state?.consumer ?? occupied[offset],
      isUsed: state != nil || occupied[offset] != nil, isOutput: state?.isOutput ?? false,
      isActiveLow: state?.activeLow ?? false)
  }

  public func offset(of line: GPIOLine) throws(GPIOError) -> Int {
    switch line {
    case .offset(let offset):
      guard names.indices.contains(offset) else { throw .noSuchOffset(offset, chip: info) }
      return offset
    case .name(let name):
      guard let offset = names.firstIndex(of: name) else {
        throw .noSuchName(name, chip: info, names: names)
      }
      return offset
    }
  }

  public func requestInputs(
    _ lines: [GPIOLine], consumer: String, bias: GPIOBias, activeLow: Bool,
    edges: GPIOEdgeDetection
  ) throws(GPIOError) -> any GPIOInputRequest {
    let offsets = try claim(lines)
    var notifier: EventNotifier?
    if edges != .none {
      do {
        notifier = try EventNotifier()
      } catch {
        throw GPIOError(.system, "cannot create an eventfd: \(error.errno)", errno: error.errno)
      }
    }
    let state = RequestState(
      offsets: offsets, consumer: consumer, isOutput: false, bias: bias, activeLow: activeLow,
      edges: edges, notifier: notifier)
    let request = FakeInputRequest(
      chip: self, offsets: offsets, fileDescriptor: notifier?.fileDescriptor)
    register(state, for: request)
    return request
  }

  public func requestOutputs(
    _ lines: [GPIOLine], consumer: String, activeLow: Bool, initialValues: [Bool]
  ) throws(GPIOError) -> any GPIOOutputRequest {
    precondition(initialValues.count == lines.count, "one initial value per line")
    let offsets = try claim(lines)
    let state = RequestState(
      offsets: offsets, consumer: consumer, isOutput: true, bias: .asIs, activeLow: activeLow,
      edges: .none, notifier: nil)
    let request = FakeOutputRequest(chip: self, offsets: offsets)
    register(state, for: request)
    let now = clock()
    for (offset, value) in zip(offsets, initialValues) {
      state.outputValues[offset] = value
      changes[offset, default: []].append(Change(instant: now, value: value))
    }
    return request
  }

  // MARK: the outside world, for tests

  /// Presses a button on line `offset`: the line leaves its idle level (low for a pull-up or no
  /// pull, a button to ground; high for a pull-down). With the usual active-low pull-up input
  /// this is a rising edge.
  /// - Parameter instant: the edge's timestamp; `nil` takes the chip's clock.
  public func press(_ offset: Int, at instant: Int64? = nil) {
    drive(offset, high: !idleLevel(offset), at: instant)
  }

  /// Lets go of the button on line `offset`: the outside stops driving it and it returns to its
  /// pull.
  public func releaseButton(_ offset: Int, at instant: Int64? = nil) {
    let before = level(of: offset)
    driven[offset] = nil
    deliverEdge(offset, from: before, at: instant ?? clock())
  }

  /// A press at `instant` and a release `duration` nanoseconds later.
  public func tap(_ offset: Int, at instant: Int64, holding duration: Int64 = 100_000_000) {
    press(offset, at: instant)
    releaseButton(offset, at: instant + duration)
  }

  /// Drives line `offset` physically high or low from outside, as `sim-pull` does on gpio-sim.
  public func drive(_ offset: Int, high: Bool, at instant: Int64? = nil) {
    precondition(names.indices.contains(offset), "\(info.name) has no line \(offset)")
    let before = level(of: offset)
    driven[offset] = high
    deliverEdge(offset, from: before, at: instant ?? clock())
  }

  /// Makes line `offset` held by another program, so requests of it fail as busy; `nil` frees it.
  public func occupy(_ offset: Int, consumer: String?) {
    occupied[offset] = consumer
  }

  /// Every edge event queued for line `offset` so far (read or not), oldest first.
  public func events(for offset: Int) -> [GPIOEdgeEvent] { delivered[offset] ?? [] }

  /// Every change of the logical value of output line `offset`, oldest first, including the
  /// initial value of each request. Setting the value it already has is not a change.
  public func history(of offset: Int) -> [Change] { changes[offset] ?? [] }

  /// The logical value output line `offset` is set to now, or `nil` when no output request holds
  /// it.
  public func outputValue(of offset: Int) -> Bool? {
    guard let state = owner[offset].flatMap({ requests[$0] }), state.isOutput else { return nil }
    return state.outputValues[offset]
  }

  /// The physical level of line `offset` now: what an output drives, else what the outside
  /// drives, else its pull (high for a pull-up, low otherwise).
  public func level(of offset: Int) -> Bool {
    if let state = owner[offset].flatMap({ requests[$0] }), state.isOutput {
      return (state.outputValues[offset] ?? false) != state.activeLow
    }
    if let high = driven[offset] { return high }
    return bias(of: offset) == .pullUp
  }

  /// The consumer holding line `offset`, or `nil` when it is free.
  public func consumer(of offset: Int) -> String? {
    owner[offset].flatMap { requests[$0]?.consumer } ?? occupied[offset]
  }

  /// How many requests are held now.
  public var requestCount: Int { requests.count }

  // MARK: internals

  private func bias(of offset: Int) -> GPIOBias {
    owner[offset].flatMap { requests[$0]?.bias } ?? .asIs
  }

  /// The level a line rests at with nothing pressed: low only with a pull-down; otherwise a
  /// button to ground with a pull-up (internal or external) is assumed.
  private func idleLevel(_ offset: Int) -> Bool { bias(of: offset) != .pullDown }

  private func deliverEdge(_ offset: Int, from before: Bool, at instant: Int64) {
    let after = level(of: offset)
    guard before != after, let id = owner[offset], let state = requests[id], !state.isOutput
    else { return }
    let logicalRising = after != state.activeLow
    let edge: GPIOEdge = logicalRising ? .rising : .falling
    guard state.edges.reports(edge) else { return }
    let event = GPIOEdgeEvent(offset: offset, edge: edge, timestamp: instant)
    state.queue.append(event)
    delivered[offset, default: []].append(event)
    // An eventfd write fails only when the counter is full, and then it is readable anyway.
    try? state.notifier?.notify()
  }

  private func claim(_ lines: [GPIOLine]) throws(GPIOError) -> [Int] {
    let offsets = try GPIOLimits.resolve(lines, on: self)
    for offset in offsets where owner[offset] != nil || occupied[offset] != nil {
      throw .lineBusy(offset, chip: info.name, consumer: consumer(of: offset))
    }
    return offsets
  }

  private func register(_ state: RequestState, for request: AnyObject) {
    let id = ObjectIdentifier(request)
    requests[id] = state
    for offset in state.offsets { owner[offset] = id }
  }

  fileprivate func state(_ request: AnyObject) -> RequestState {
    guard let state = requests[ObjectIdentifier(request)] else {
      preconditionFailure("GPIO request of \(info.name) used after release()")
    }
    return state
  }

  fileprivate func release(_ request: AnyObject) {
    guard let state = requests.removeValue(forKey: ObjectIdentifier(request)) else { return }
    for offset in state.offsets { owner[offset] = nil }
    try? state.notifier?.close()
  }

  fileprivate func values(_ request: AnyObject) -> [Bool] {
    let state = state(request)
    return state.offsets.map { level(of: $0) != state.activeLow }
  }

  fileprivate func readEvents(_ request: AnyObject, maximumCount: Int) -> [GPIOEdgeEvent] {
    let state = state(request)
    let taken = Array(state.queue.prefix(maximumCount))
    state.queue.removeFirst(taken.count)
    if state.queue.isEmpty { _ = try? state.notifier?.consume() }
    return taken
  }

  fileprivate func set(_ request: AnyObject, _ value: Bool, at offset: Int) {
    let state = state(request)
    precondition(state.offsets.contains(offset), "line \(offset) is not part of this request")
    guard state.outputValues[offset] != value else { return }
    state.outputValues[offset] = value
    changes[offset, default: []].append(Change(instant: clock(), value: value))
  }
}

/// An input request of a `FakeGPIOChip`.
final class FakeInputRequest: GPIOInputRequest {
  // The request keeps its chip alive, as a kernel request outlives the chip descriptor.
  private let chip: FakeGPIOChip
  let offsets: [Int]
  let fileDescriptor: FileDescriptor?
  private var released = false

  init(chip: FakeGPIOChip, offsets: [Int], fileDescriptor: FileDescriptor?) {
    self.chip = chip
    self.offsets = offsets
    self.fileDescriptor = fileDescriptor
  }

  deinit { release() }

  func readEvents(maximumCount: Int) throws(GPIOError) -> [GPIOEdgeEvent] {
    precondition(maximumCount > 0, "maximumCount must be positive")
    return chip.readEvents(self, maximumCount: maximumCount)
  }

  func values() throws(GPIOError) -> [Bool] { chip.values(self) }

  func release() {
    guard !released else { return }
    released = true
    chip.release(self)
  }
}

/// An output request of a `FakeGPIOChip`.
final class FakeOutputRequest: GPIOOutputRequest {
  private let chip: FakeGPIOChip
  let offsets: [Int]
  private var released = false

  init(chip: FakeGPIOChip, offsets: [Int]) {
    self.chip = chip
    self.offsets = offsets
  }

  deinit { release() }

  func setValue(_ value: Bool, at offset: Int) throws(GPIOError) {
    chip.set(self, value, at: offset)
  }

  func setValues(_ values: [Bool]) throws(GPIOError) {
    precondition(values.count == offsets.count, "one value per requested line")
    for (offset, value) in zip(offsets, values) { chip.set(self, value, at: offset) }
  }

  func release() {
    guard !released else { return }
    released = true
    chip.release(self)
  }
}
