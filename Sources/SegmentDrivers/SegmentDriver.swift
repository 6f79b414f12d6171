// SPDX-License-Identifier: MIT
// What every 7-segment driver does, and the bit-banging support the GPIO ones share.

public import HardwareKit
public import SevenSegment

/// A 7-segment display on some chip. Drivers keep what the chip shows and write only what
/// changes: nothing at all when a frame equals the previous one.
public protocol SegmentDriver: AnyObject {
  /// How many digits the display has.
  var digitCount: Int { get }
  /// Initialises the chip (power-up state is undefined or blank, per each datasheet).
  func start() throws
  /// Shows `frame`, writing only the digits and settings that changed.
  func show(_ frame: SegmentFrame) throws
  /// Blanks the display and turns it off as far as the chip can; then releases the hardware.
  /// Never throws: it is the safe state.
  func shutDown()
}

/// Brightness conversions from the tokens' percent to each chip's steps.
public enum BrightnessScale {
  /// `percent` (1–100) onto `0...maximum` evenly, rounding up so any light is at least the
  /// lowest step; 0 % is nil: the caller turns the display off (no chip's lowest step is dark).
  public static func step(_ percent: Int, maximum: Int) -> Int? {
    guard percent > 0 else { return nil }
    let clamped = min(percent, 100)
    return min(maximum, max(0, (clamped * (maximum + 1) + 99) / 100 - 1))
  }
}

/// Waiting between GPIO edges. Busy-waits on the monotonic clock: nanosleep(2) would round
/// every few-microsecond wait up by the timer slack (50 µs by default), several times the
/// chips' half periods, and the transfers are short (a few milliseconds at most).
public enum SpinDelay {
  /// Busy-waits `nanoseconds`.
  public static func wait(_ nanoseconds: Int64) {
    guard nanoseconds > 0 else { return }
    let end = MonotonicClock.now() + nanoseconds
    while MonotonicClock.now() < end {}
  }
}

/// GPIO output lines held for bit-banging. Each line is set only when its value changes, the
/// fewest GPIO calls a waveform needs.
public final class BitBangLines {
  private let request: any GPIOOutputRequest
  private var values: [Int: Bool]
  private let delay: (Int64) -> Void
  /// The chip offsets, in the order the lines were given.
  public let offsets: [Int]
  /// How many value changes were written (the GPIO calls made), for cost figures and tests.
  public private(set) var writes = 0

  /// Requests `lines` of `chip` as push-pull outputs at `initialValues`.
  public init(
    chip: any GPIOChip, lines: [GPIOLine], initialValues: [Bool], consumer: String,
    delay: @escaping (Int64) -> Void
  ) throws(GPIOError) {
    request = try chip.requestOutputs(
      lines, consumer: consumer, activeLow: false, initialValues: initialValues)
    offsets = request.offsets
    values = Dictionary(uniqueKeysWithValues: zip(request.offsets, initialValues))
    self.delay = delay
  }

  /// Sets the line at `index` (in the order given) to `value`, unless it already has it.
  public func set(_ index: Int, _ value: Bool) throws(GPIOError) {
    let offset = offsets[index]
    guard values[offset] != value else { return }
    try request.setValue(value, at: offset)
    values[offset] = value
    writes += 1
  }

  /// The value the line at `index` was last set to.
  public func value(_ index: Int) -> Bool { values[offsets[index]] ?? false }

  /// Waits `nanoseconds` before the next edge.
  public func wait(_ nanoseconds: Int64) { delay(nanoseconds) }

  /// Shifts `bytes` out MSB first, as SPI mode 0 does and as the MAX7219 and the 595 family
  /// take them: the line at `data` is set while the line at `clock` is low, and each bit is
  /// taken on the clock's rising edge, `halfPeriod` nanoseconds after the data and before the
  /// fall. Ends with the clock low; latching is the caller's, as each chip latches its own way.
  public func shiftOutMSBFirst(
    _ bytes: [UInt8], data: Int, clock: Int, halfPeriod: Int64
  ) throws(GPIOError) {
    for byte in bytes {
      for bit in (0..<8).reversed() {
        try set(data, byte & (1 << UInt8(bit)) != 0)
        wait(halfPeriod)
        try set(clock, true)
        wait(halfPeriod)
        try set(clock, false)
      }
    }
  }

  /// Gives the lines back.
  public func release() { request.release() }
}
