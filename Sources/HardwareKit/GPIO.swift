// SPDX-License-Identifier: MIT
// The GPIO interface the rest of wodclock sees: chips, input and output requests, edge events.
//
// The Linux implementation is the one over libgpiod (`GPIOChips.open`, either libgpiod API, see
// CGPIOShim); the tests' in-memory chip lives in the test support and makes the same checks
// (`GPIOLimits`) with the same error texts. Nothing outside HardwareKit knows which libgpiod the
// build uses.

/// A line of a chip, by offset or by name.
///
/// Offsets are chip-relative; on every Raspberry Pi the offset on the header chip equals the BCM
/// GPIO number (GPIO17 is offset 17). Names come from the device tree (`gpio-line-names`), so
/// they are stable across kernels where chip numbers are not (libgpiod.md §6).
public enum GPIOLine: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral,
  ExpressibleByStringLiteral
{
  /// The line at this offset of the chip, 0 ..< line count.
  case offset(Int)
  /// The first line of the chip with this name, such as `GPIO17`.
  case name(String)

  /// `.offset(value)`.
  public init(integerLiteral value: Int) { self = .offset(value) }

  /// `.name(value)`.
  public init(stringLiteral value: String) { self = .name(value) }

  /// Reads a line as written in a configuration file: all digits is an offset, anything else a
  /// name (`17` is offset 17, `GPIO17` is the line named GPIO17).
  public init(parsing text: String) {
    if !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
      let offset = Int(text)
    {
      self = .offset(offset)
    } else {
      self = .name(text)
    }
  }

  /// `line 17` or `line named GPIO17`.
  public var description: String {
    switch self {
    case .offset(let offset): "line \(offset)"
    case .name(let name): "line named \(name)"
    }
  }
}

/// How to find a GPIO chip.
public enum GPIOChipSpec: Hashable, Sendable, CustomStringConvertible {
  /// A device path, such as `/dev/gpiochip4`.
  case path(String)
  /// A kernel chip name, such as `gpiochip0` (the device `/dev/gpiochip0`).
  case name(String)
  /// A chip label, such as `pinctrl-rp1`: what identifies the header chip of a Pi 5 on every
  /// kernel, while its number changed from 4 to 0 (libgpiod.md §6).
  case label(String)
  /// A chip number, such as 0 for `/dev/gpiochip0`.
  case number(Int)

  /// Reads a chip as written in a configuration file, with the rules of libgpiod v1's
  /// `gpiod_chip_open_lookup` (gpiod.h 1.6, chips): a leading `/` is a path, all digits a number,
  /// `gpiochip` followed by digits a name, anything else a label.
  public init(parsing text: String) throws(GPIOError) {
    let digits = { (part: Substring) in
      !part.isEmpty && part.utf8.count <= 9 && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
    if text.isEmpty {
      throw GPIOError(
        .invalidRequest, "no GPIO chip given",
        hint: "give a path (/dev/gpiochip0), a name (gpiochip0), a label (pinctrl-rp1) or a number")
    } else if text.hasPrefix("/") {
      self = .path(text)
    } else if digits(Substring(text)), let number = Int(text) {
      self = .number(number)
    } else if text.hasPrefix("gpiochip"), digits(text.dropFirst(8)) {
      self = .name(text)
    } else {
      self = .label(text)
    }
  }

  /// `/dev/gpiochip4`, `gpiochip0`, `label 'pinctrl-rp1'` or `number 4`.
  public var description: String {
    switch self {
    case .path(let path): path
    case .name(let name): name
    case .label(let label): "label '\(label)'"
    case .number(let number): "number \(number)"
    }
  }
}

/// What a chip says about itself.
public struct GPIOChipInfo: Hashable, Sendable, CustomStringConvertible {
  /// The kernel's name, such as `gpiochip0`.
  public var name: String
  /// The driver's label, such as `pinctrl-rp1`.
  public var label: String
  /// How many lines the chip has; offsets run from 0 to this minus one.
  public var lineCount: Int

  /// Creates chip info.
  public init(name: String, label: String, lineCount: Int) {
    self.name = name
    self.label = label
    self.lineCount = lineCount
  }

  /// The character device, `/dev/<name>`.
  public var path: String { "/dev/\(name)" }

  /// `gpiochip0 (pinctrl-rp1, 54 lines)`.
  public var description: String {
    "\(name) (\(label), \(lineCount) \(lineCount == 1 ? "line" : "lines"))"
  }
}

/// What the kernel says about one line right now.
public struct GPIOLineInfo: Hashable, Sendable {
  /// The line's offset on its chip.
  public var offset: Int
  /// Its name, or `nil` when it has none.
  public var name: String?
  /// Who holds it, or `nil` when nobody does or the holder gave no name.
  public var consumer: String?
  /// Whether it is requested, by any process or by the kernel.
  public var isUsed: Bool
  /// Whether it is configured as an output.
  public var isOutput: Bool
  /// Whether it is configured active-low.
  public var isActiveLow: Bool

  /// Creates line info.
  public init(
    offset: Int, name: String? = nil, consumer: String? = nil, isUsed: Bool = false,
    isOutput: Bool = false, isActiveLow: Bool = false
  ) {
    self.offset = offset
    self.name = name
    self.consumer = consumer
    self.isUsed = isUsed
    self.isOutput = isOutput
    self.isActiveLow = isActiveLow
  }
}

/// The pull resistor asked for on an input line.
public enum GPIOBias: Hashable, Sendable, CaseIterable {
  /// Leave whatever the line has (the device tree's or the last user's setting).
  case asIs
  /// No pull resistor.
  case disabled
  /// Pull up: the line reads high unless something drives it low (a button to ground).
  case pullUp
  /// Pull down: the line reads low unless something drives it high.
  case pullDown
}

/// A change of a line's logical value.
public enum GPIOEdge: Hashable, Sendable, CaseIterable {
  /// From inactive to active.
  case rising
  /// From active to inactive.
  case falling
}

/// Which edges of an input line produce events.
public enum GPIOEdgeDetection: Hashable, Sendable, CaseIterable {
  /// None: the line is only read.
  case none
  /// Rising edges only.
  case rising
  /// Falling edges only.
  case falling
  /// Both edges.
  case both

  /// Whether an edge of this kind is reported.
  public func reports(_ edge: GPIOEdge) -> Bool {
    switch (self, edge) {
    case (.both, _), (.rising, .rising), (.falling, .falling): true
    default: false
    }
  }
}

/// One edge of an input line, as timestamped by the kernel.
public struct GPIOEdgeEvent: Hashable, Sendable, CustomStringConvertible {
  /// The chip offset of the line.
  public var offset: Int
  /// Rising or falling, in logical terms: on an active-low line a press that pulls the pin low
  /// is a rising edge.
  public var edge: GPIOEdge
  /// When the kernel saw the edge, in nanoseconds of `CLOCK_MONOTONIC` (the clock of
  /// `MonotonicClock.now()`). Both kernel GPIO interfaces stamp edges with it by default since
  /// Linux 5.7; it is not wall-clock time (libgpiod.md §2 "Events", §5 "Events and clocks").
  public var timestamp: Int64

  /// Creates an event.
  public init(offset: Int, edge: GPIOEdge, timestamp: Int64) {
    self.offset = offset
    self.edge = edge
    self.timestamp = timestamp
  }

  /// `rising edge on line 17 at 123456789 ns`.
  public var description: String {
    "\(edge == .rising ? "rising" : "falling") edge on line \(offset) at \(timestamp) ns"
  }
}

/// An open GPIO chip.
///
/// Requests keep working after the chip object is gone; they hold what they need. A chip and
/// its requests belong to one thread at a time (libgpiod gives no more, CGPIOShim.h).
public protocol GPIOChip: AnyObject {
  /// Name, label and line count.
  var info: GPIOChipInfo { get }

  /// What the kernel says about the line at `offset` now.
  func lineInfo(at offset: Int) throws(GPIOError) -> GPIOLineInfo

  /// The offset of `line`, checking that it exists.
  func offset(of line: GPIOLine) throws(GPIOError) -> Int

  /// Requests `lines` as inputs.
  /// - Parameters:
  ///   - consumer: who holds the lines, as `gpioinfo` shows it (at most 31 bytes are kept).
  ///   - activeLow: invert values and swap rising and falling edges.
  ///   - edges: which edges produce events; read them with `readEvents()` when the request's
  ///     `fileDescriptor` is readable.
  func requestInputs(
    _ lines: [GPIOLine], consumer: String, bias: GPIOBias, activeLow: Bool,
    edges: GPIOEdgeDetection
  ) throws(GPIOError) -> any GPIOInputRequest

  /// Requests `lines` as push-pull outputs set to `initialValues` (logical, one per line).
  func requestOutputs(
    _ lines: [GPIOLine], consumer: String, activeLow: Bool, initialValues: [Bool]
  ) throws(GPIOError) -> any GPIOOutputRequest
}

/// Lines held as inputs.
public protocol GPIOInputRequest: AnyObject {
  /// The chip offsets of the lines, in request order.
  var offsets: [Int] { get }

  /// A descriptor that polls readable while edge events are waiting (register it with an
  /// `EventPoller`), or `nil` when the request has no edge detection. Owned by the request.
  var fileDescriptor: FileDescriptor? { get }

  /// The edge events waiting now, oldest first; never blocks, returns `[]` when there are none.
  func readEvents(maximumCount: Int) throws(GPIOError) -> [GPIOEdgeEvent]

  /// The logical values of the lines, in request order.
  func values() throws(GPIOError) -> [Bool]

  /// Gives the lines back. Safe to call twice; the request is unusable afterwards. Dropping the
  /// last reference releases too.
  func release()
}

/// Lines held as outputs.
public protocol GPIOOutputRequest: AnyObject {
  /// The chip offsets of the lines, in request order.
  var offsets: [Int] { get }

  /// Sets the logical value of the line at chip offset `offset`.
  func setValue(_ value: Bool, at offset: Int) throws(GPIOError)

  /// Sets the logical values of all lines, in request order.
  func setValues(_ values: [Bool]) throws(GPIOError)

  /// Gives the lines back; what the pins do afterwards is up to the driver (gpio-sim returns
  /// them to their pull). Safe to call twice. Dropping the last reference releases too.
  func release()
}

extension GPIOChip {
  /// Requests one input line; see `requestInputs`.
  public func requestInput(
    _ line: GPIOLine, consumer: String, bias: GPIOBias = .asIs, activeLow: Bool = false,
    edges: GPIOEdgeDetection = .both
  ) throws(GPIOError) -> any GPIOInputRequest {
    try requestInputs([line], consumer: consumer, bias: bias, activeLow: activeLow, edges: edges)
  }

  /// Requests one output line; see `requestOutputs`.
  public func requestOutput(
    _ line: GPIOLine, consumer: String, activeLow: Bool = false, initialValue: Bool = false
  ) throws(GPIOError) -> any GPIOOutputRequest {
    try requestOutputs(
      [line], consumer: consumer, activeLow: activeLow, initialValues: [initialValue])
  }

  /// The info of every line of the chip.
  public func allLineInfo() throws(GPIOError) -> [GPIOLineInfo] {
    var lines: [GPIOLineInfo] = []
    for offset in 0..<info.lineCount { lines.append(try lineInfo(at: offset)) }
    return lines
  }
}

extension GPIOInputRequest {
  /// The edge events waiting now (up to 64), oldest first; never blocks.
  public func readEvents() throws(GPIOError) -> [GPIOEdgeEvent] {
    try readEvents(maximumCount: 64)
  }

  /// The logical value of the requested line at chip offset `offset`.
  public func value(at offset: Int) throws(GPIOError) -> Bool {
    guard let index = offsets.firstIndex(of: offset) else {
      preconditionFailure("line \(offset) is not part of this request (\(offsets))")
    }
    return try values()[index]
  }
}

extension GPIOOutputRequest {
  /// Sets the value of a single-line request.
  public func setValue(_ value: Bool) throws(GPIOError) {
    precondition(offsets.count == 1, "setValue(_:) needs a single-line request; use at:")
    try setValue(value, at: offsets[0])
  }
}
