// SPDX-License-Identifier: MIT
// `struct input_event` as it comes out of /dev/input/eventN, decoded from bytes so that both
// layouts (24 bytes on 64-bit, 16 on 32-bit) and reads that end mid-event are handled in one
// pure, testable place (kernel include/uapi/linux/input.h, `struct input_event`).

/// One evdev event: a key going down, a sync marker, a scan code.
public struct EvdevEvent: Hashable, Sendable {
  /// The timestamp's seconds, on the clock the device was set to (`EVIOCSCLOCKID`).
  public var seconds: Int64
  /// The timestamp's microseconds.
  public var microseconds: Int64
  /// `EV_SYN`, `EV_KEY`, `EV_MSC` ... (input-event-codes.h).
  public var type: UInt16
  /// The key code for `EV_KEY` (`KEY_PAGEDOWN` = 109), the sync code for `EV_SYN`.
  public var code: UInt16
  /// For `EV_KEY`: 0 release, 1 press, 2 auto-repeat (Documentation/input/event-codes.rst).
  public var value: Int32

  /// Creates an event.
  public init(seconds: Int64 = 0, microseconds: Int64 = 0, type: UInt16, code: UInt16, value: Int32)
  {
    self.seconds = seconds
    self.microseconds = microseconds
    self.type = type
    self.code = code
    self.value = value
  }

  /// The timestamp in nanoseconds. The fields are read from a device (or a recording), so a
  /// value no clock can have does not overflow: the seconds are held to what nanoseconds in an
  /// Int64 can count (about 292 years either way), the microseconds to a second's worth.
  public var nanoseconds: Int64 {
    let limit = Int64.max / 1_000_000_000 - 1
    let wholeSeconds = min(max(seconds, -limit), limit)
    let fraction = min(max(microseconds, 0), 999_999)
    return wholeSeconds * 1_000_000_000 + fraction * 1_000
  }

  /// `EV_SYN`: the end of a packet (`SYN_REPORT`) or a lost stretch (`SYN_DROPPED`).
  public static let typeSync: UInt16 = 0x00
  /// `EV_KEY`: a key or button.
  public static let typeKey: UInt16 = 0x01
  /// `EV_MSC`: miscellaneous, such as the HID usage (`MSC_SCAN`) sent with each key.
  public static let typeMisc: UInt16 = 0x04
  /// `SYN_REPORT`.
  public static let syncReport: UInt16 = 0
  /// `SYN_DROPPED`: the kernel's buffer for this reader overflowed.
  public static let syncDropped: UInt16 = 3

  /// The event as the kernel writes it in `layout`, little-endian (x86-64, arm64, armhf).
  public func bytes(_ layout: EvdevEventLayout) -> [UInt8] {
    var bytes: [UInt8] = []
    func put<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    switch layout {
    case .wide:
      put(seconds)
      put(microseconds)
    case .narrow:
      put(UInt32(truncatingIfNeeded: seconds))
      put(UInt32(truncatingIfNeeded: microseconds))
    }
    put(type)
    put(code)
    put(value)
    return bytes
  }
}

/// The two sizes of `struct input_event`.
public enum EvdevEventLayout: Sendable, Equatable {
  /// 64-bit kernels and programs: `tv_sec` s64 @0, `tv_usec` s64 @8, type @16, code @18,
  /// value @20; 24 bytes.
  case wide
  /// 32-bit programs (armhf Raspberry Pi OS): `sec` u32 @0, `usec` u32 @4, type @8, code @10,
  /// value @12; 16 bytes, also with a 64-bit `time_t` userland (`__kernel_ulong_t __sec`).
  case narrow

  /// Bytes per event.
  public var size: Int { self == .wide ? 24 : 16 }

  /// The layout of this program's `struct input_event`, which is what the kernel writes to it.
  public static var native: EvdevEventLayout { MemoryLayout<Int>.size == 8 ? .wide : .narrow }
}

/// Turns the bytes read from an event device into events. `read(2)` on evdev returns whole
/// events, but a reader of pipes and recordings may see a read end mid-event: the partial
/// event is kept and completed by the next bytes.
public struct EvdevEventDecoder: Sendable {
  /// The layout the bytes are in.
  public let layout: EvdevEventLayout
  private var pending: [UInt8] = []

  /// Creates a decoder for `layout` (the native one unless decoding a recording).
  public init(layout: EvdevEventLayout = .native) {
    self.layout = layout
  }

  /// Bytes of an event not yet complete.
  public var pendingByteCount: Int { pending.count }

  /// Drops a partial event (after the device was reopened).
  public mutating func reset() { pending = [] }

  /// The complete events in the bytes so far, in order.
  public mutating func decode(_ bytes: some Collection<UInt8>) -> [EvdevEvent] {
    pending.append(contentsOf: bytes)
    let size = layout.size
    let whole = pending.count / size
    var events: [EvdevEvent] = []
    events.reserveCapacity(whole)
    for index in 0..<whole {
      events.append(event(at: index * size))
    }
    pending.removeFirst(whole * size)
    return events
  }

  private func event(at offset: Int) -> EvdevEvent {
    func read<T: FixedWidthInteger>(_: T.Type, _ at: Int) -> T {
      var value: T = 0
      for byte in 0..<MemoryLayout<T>.size {
        value |= T(truncatingIfNeeded: pending[offset + at + byte]) << (8 * byte)
      }
      return value
    }
    switch layout {
    case .wide:
      return EvdevEvent(
        seconds: read(Int64.self, 0), microseconds: read(Int64.self, 8),
        type: read(UInt16.self, 16), code: read(UInt16.self, 18), value: read(Int32.self, 20))
    case .narrow:
      return EvdevEvent(
        seconds: Int64(read(UInt32.self, 0)), microseconds: Int64(read(UInt32.self, 4)),
        type: read(UInt16.self, 8), code: read(UInt16.self, 10), value: read(Int32.self, 12))
    }
  }
}

/// A change of one key, from the `EV_KEY` events of a device.
public struct EvdevKeyChange: Hashable, Sendable {
  /// What happened to the key.
  public enum Kind: Hashable, Sendable {
    /// Value 1.
    case down
    /// Value 0.
    case up
    /// Value 2: the input core's soft auto-repeat while the key is held (250 ms, then every
    /// 33 ms by default; drivers/input/input.c).
    case autoRepeat
  }
  /// The key code (`KEY_*`).
  public var code: UInt16
  /// Down, up or repeat.
  public var kind: Kind
  /// The event's timestamp in nanoseconds.
  public var instant: Int64

  /// Creates a change.
  public init(code: UInt16, kind: Kind, instant: Int64) {
    self.code = code
    self.kind = kind
    self.instant = instant
  }
}

/// Picks the key changes out of a device's events and honours `SYN_DROPPED`: everything up to
/// and including the next `SYN_REPORT` is discarded and the caller re-reads the key state
/// (Documentation/input/event-codes.rst, "EV_SYN").
public struct EvdevKeyFilter: Sendable {
  private var dropping = false

  /// Creates a filter.
  public init() {}

  /// The key changes among `events`, and whether events were lost (re-read the key state with
  /// `EVIOCGKEY` once the batch is handled).
  public mutating func keyChanges(_ events: [EvdevEvent]) -> (changes: [EvdevKeyChange], lost: Bool)
  {
    var changes: [EvdevKeyChange] = []
    var lost = false
    for event in events {
      if event.type == EvdevEvent.typeSync {
        if event.code == EvdevEvent.syncDropped {
          dropping = true
          lost = true
        } else if event.code == EvdevEvent.syncReport {
          dropping = false
        }
        continue
      }
      guard !dropping, event.type == EvdevEvent.typeKey else { continue }
      let kind: EvdevKeyChange.Kind
      switch event.value {
      case 0: kind = .up
      case 1: kind = .down
      case 2: kind = .autoRepeat
      default: continue
      }
      changes.append(EvdevKeyChange(code: event.code, kind: kind, instant: event.nanoseconds))
    }
    return (changes, lost)
  }
}
