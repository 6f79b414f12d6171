// SPDX-License-Identifier: MIT
// GPIO chips of the running kernel (/dev/gpiochipN) through libgpiod, v1 or v2 (CGPIOShim).

import CGPIOShim
import Glibc

/// Finding and opening the GPIO chips of this machine.
public enum GPIOChips {
  /// The libgpiod the program was built with, such as `libgpiod 1.6.3 (API v1)`.
  ///
  /// The corresponding C functions are `gpiod_version_string` (v1) and `gpiod_api_version` (v2).
  public static var libraryDescription: String {
    "libgpiod \(String(cString: cgpio_library_version())) (API v\(cgpio_library_api()))"
  }

  /// Opens the chip `spec` names: a path (`/dev/gpiochip4`), a name (`gpiochip0`), a label
  /// (`pinctrl-rp1`, the stable choice on a Pi 5) or a number (`4`); see `GPIOChipSpec`.
  ///
  /// The corresponding C function is `gpiod_chip_open` (and, on v1, its lookup variants).
  public static func open(_ spec: String) throws(GPIOError) -> any GPIOChip {
    try open(GPIOChipSpec(parsing: spec))
  }

  /// Opens the chip `spec` names. A missing chip throws an error that lists the chips there are.
  ///
  /// The corresponding C function is `gpiod_chip_open`.
  public static func open(_ spec: GPIOChipSpec) throws(GPIOError) -> any GPIOChip {
    let path: String
    let handle: OpaquePointer?
    switch spec {
    case .path(let value):
      path = value
      handle = cgpio_chip_open_path(value)
    case .name(let name):
      path = "/dev/\(name)"
      handle = cgpio_chip_open_name(name)
    case .number(let number):
      guard let number = UInt32(exactly: number) else { throw .noSuchChip(spec, chips: list()) }
      path = "/dev/gpiochip\(number)"
      handle = cgpio_chip_open_number(number)
    case .label(let label):
      // The shim scans /dev and opens each chip to compare labels.
      path = "/dev"
      handle = cgpio_chip_open_label(label)
    }
    guard let handle else {
      let error = Errno.current
      // ENOENT: no such device node, or no chip carries the label.
      if error == .noSuchFile { throw .noSuchChip(spec, chips: list()) }
      throw .cannotOpen(path, error)
    }
    return LinuxGPIOChip(handle)
  }

  /// The chips that can be opened now, in number order. Chips that cannot be opened (no
  /// permission) are left out.
  ///
  /// The corresponding C function is `gpiod_chip_open` on each `/dev/gpiochip*`.
  public static func list() -> [GPIOChipInfo] {
    let names = (try? FileSystem.directoryEntries("/dev")) ?? []
    let numbers = names.compactMap { name -> Int? in
      guard name.hasPrefix("gpiochip") else { return nil }
      return Int(name.dropFirst(8))
    }
    return numbers.sorted().compactMap { number in
      guard let handle = cgpio_chip_open_name("gpiochip\(number)") else { return nil }
      defer { cgpio_chip_close(handle) }
      return LinuxGPIOChip.info(of: handle)
    }
  }
}

/// A chip opened through libgpiod.
final class LinuxGPIOChip: GPIOChip {
  private let handle: OpaquePointer
  let info: GPIOChipInfo

  init(_ handle: OpaquePointer) {
    self.handle = handle
    info = Self.info(of: handle)
  }

  deinit { cgpio_chip_close(handle) }

  static func info(of handle: OpaquePointer) -> GPIOChipInfo {
    GPIOChipInfo(
      name: String(cString: cgpio_chip_name(handle)),
      label: String(cString: cgpio_chip_label(handle)),
      lineCount: Int(cgpio_chip_line_count(handle)))
  }

  /// The corresponding C functions are `gpiod_line_update` (v1) and
  /// `gpiod_chip_get_line_info` (v2).
  func lineInfo(at offset: Int) throws(GPIOError) -> GPIOLineInfo {
    guard offset >= 0 && offset < info.lineCount else {
      throw .noSuchOffset(offset, chip: info)
    }
    var raw = cgpio_line_info()
    guard cgpio_chip_line_info(handle, UInt32(offset), &raw) == 0 else {
      throw .operationFailed("read line \(offset) info", chip: info.name, .current)
    }
    let name = withUnsafeBytes(of: raw.name) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let consumer = withUnsafeBytes(of: raw.consumer) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    return GPIOLineInfo(
      offset: offset, name: name.isEmpty ? nil : name, consumer: consumer.isEmpty ? nil : consumer,
      isUsed: raw.used != 0, isOutput: raw.output != 0, isActiveLow: raw.active_low != 0)
  }

  /// The corresponding C functions are `gpiod_chip_find_line` (v1) and
  /// `gpiod_chip_get_line_offset_from_name` (v2).
  func offset(of line: GPIOLine) throws(GPIOError) -> Int {
    switch line {
    case .offset(let offset):
      guard offset >= 0 && offset < info.lineCount else {
        throw .noSuchOffset(offset, chip: info)
      }
      return offset
    case .name(let name):
      let offset = cgpio_chip_find_line(handle, name)
      if offset >= 0 { return Int(offset) }
      let error = Errno.current
      guard error == .noSuchFile else {
        throw .operationFailed("look up line \(name)", chip: info.name, error)
      }
      let names = (try? allLineInfo().map(\.name)) ?? []
      throw .noSuchName(name, chip: info, names: names)
    }
  }

  /// The corresponding C functions are `gpiod_line_request_bulk` (v1) and
  /// `gpiod_chip_request_lines` (v2).
  func requestInputs(
    _ lines: [GPIOLine], consumer: String, bias: GPIOBias, activeLow: Bool,
    edges: GPIOEdgeDetection
  ) throws(GPIOError) -> any GPIOInputRequest {
    let offsets = try GPIOLimits.resolve(lines, on: self)
    let raw = offsets.map { UInt32($0) }
    let request = raw.withUnsafeBufferPointer {
      cgpio_request_inputs(
        handle, consumer, $0.baseAddress, $0.count, bias.raw, activeLow ? 1 : 0, edges.raw)
    }
    guard let request else { throw requestError(offsets, direction: "input", .current) }
    return LinuxGPIOInputRequest(request, chip: info.name, offsets: offsets)
  }

  /// The corresponding C functions are `gpiod_line_request_bulk` (v1) and
  /// `gpiod_chip_request_lines` (v2).
  func requestOutputs(
    _ lines: [GPIOLine], consumer: String, activeLow: Bool, initialValues: [Bool]
  ) throws(GPIOError) -> any GPIOOutputRequest {
    precondition(initialValues.count == lines.count, "one initial value per line")
    let offsets = try GPIOLimits.resolve(lines, on: self)
    let raw = offsets.map { UInt32($0) }
    let values = initialValues.map { Int32($0 ? 1 : 0) }
    let request = raw.withUnsafeBufferPointer { offsetsPointer in
      values.withUnsafeBufferPointer { valuesPointer in
        cgpio_request_outputs(
          handle, consumer, offsetsPointer.baseAddress, offsetsPointer.count,
          activeLow ? 1 : 0, valuesPointer.baseAddress)
      }
    }
    guard let request else { throw requestError(offsets, direction: "output", .current) }
    return LinuxGPIOOutputRequest(request, chip: info.name, offsets: offsets)
  }

  /// Names the holder of a busy line: the kernel only says `EBUSY`, the line info says who.
  private func requestError(_ offsets: [Int], direction: String, _ error: Errno) -> GPIOError {
    if error == .resourceBusy {
      for offset in offsets {
        if let line = try? lineInfo(at: offset), line.isUsed {
          return .lineBusy(offset, chip: info.name, consumer: line.consumer)
        }
      }
    }
    return .requestFailed(offsets, chip: info.name, direction: direction, error)
  }
}

/// Input lines held through libgpiod.
final class LinuxGPIOInputRequest: GPIOInputRequest {
  private var handle: OpaquePointer?
  private let chip: String
  let offsets: [Int]
  let fileDescriptor: FileDescriptor?

  init(_ handle: OpaquePointer, chip: String, offsets: [Int]) {
    self.handle = handle
    self.chip = chip
    self.offsets = offsets
    let fd = cgpio_request_fd(handle)
    fileDescriptor = fd >= 0 ? FileDescriptor(rawValue: fd) : nil
  }

  deinit { release() }

  private var live: OpaquePointer {
    guard let handle else { preconditionFailure("GPIO request of \(chip) used after release()") }
    return handle
  }

  /// The corresponding C functions are `gpiod_line_event_read_fd_multiple` (v1) and
  /// `gpiod_line_request_read_edge_events` (v2).
  func readEvents(maximumCount: Int) throws(GPIOError) -> [GPIOEdgeEvent] {
    precondition(maximumCount > 0, "maximumCount must be positive")
    let handle = live
    return try withUnsafeTemporaryAllocation(of: cgpio_event.self, capacity: maximumCount) {
      buffer in
      Result { () throws(GPIOError) -> [GPIOEdgeEvent] in
        let count = cgpio_request_read_events(handle, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
          throw .operationFailed("read edge events", chip: chip, .current)
        }
        return buffer.prefix(Int(count)).map { raw in
          GPIOEdgeEvent(
            offset: Int(raw.offset), edge: raw.rising != 0 ? .rising : .falling,
            timestamp: Int64(truncatingIfNeeded: raw.timestamp_ns))
        }
      }
    }.get()
  }

  /// The corresponding C functions are `gpiod_line_get_value_bulk` (v1) and
  /// `gpiod_line_request_get_values` (v2).
  func values() throws(GPIOError) -> [Bool] {
    var raw = [Int32](repeating: 0, count: offsets.count)
    guard cgpio_request_get_values(live, &raw) == 0 else {
      throw .operationFailed("read values", chip: chip, .current)
    }
    return raw.map { $0 != 0 }
  }

  /// The corresponding C functions are `gpiod_line_release_bulk` (v1) and
  /// `gpiod_line_request_release` (v2).
  func release() {
    guard let handle else { return }
    cgpio_request_release(handle)
    self.handle = nil
  }
}

/// Output lines held through libgpiod.
final class LinuxGPIOOutputRequest: GPIOOutputRequest {
  private var handle: OpaquePointer?
  private let chip: String
  let offsets: [Int]

  init(_ handle: OpaquePointer, chip: String, offsets: [Int]) {
    self.handle = handle
    self.chip = chip
    self.offsets = offsets
  }

  deinit { release() }

  private var live: OpaquePointer {
    guard let handle else { preconditionFailure("GPIO request of \(chip) used after release()") }
    return handle
  }

  /// The corresponding C functions are `gpiod_line_set_value_bulk` (v1) and
  /// `gpiod_line_request_set_value` (v2).
  func setValue(_ value: Bool, at offset: Int) throws(GPIOError) {
    precondition(offsets.contains(offset), "line \(offset) is not part of this request")
    guard cgpio_request_set_value(live, UInt32(offset), value ? 1 : 0) == 0 else {
      throw .operationFailed("set line \(offset)", chip: chip, .current)
    }
  }

  /// The corresponding C functions are `gpiod_line_set_value_bulk` (v1) and
  /// `gpiod_line_request_set_values` (v2).
  func setValues(_ values: [Bool]) throws(GPIOError) {
    precondition(values.count == offsets.count, "one value per requested line")
    let raw = values.map { Int32($0 ? 1 : 0) }
    guard cgpio_request_set_values(live, raw) == 0 else {
      throw .operationFailed("set values", chip: chip, .current)
    }
  }

  /// The corresponding C functions are `gpiod_line_release_bulk` (v1) and
  /// `gpiod_line_request_release` (v2).
  func release() {
    guard let handle else { return }
    cgpio_request_release(handle)
    self.handle = nil
  }
}

extension GPIOBias {
  fileprivate var raw: cgpio_bias {
    switch self {
    case .asIs: CGPIO_BIAS_AS_IS
    case .disabled: CGPIO_BIAS_DISABLED
    case .pullUp: CGPIO_BIAS_PULL_UP
    case .pullDown: CGPIO_BIAS_PULL_DOWN
    }
  }
}

extension GPIOEdgeDetection {
  fileprivate var raw: cgpio_edge {
    switch self {
    case .none: CGPIO_EDGE_NONE
    case .rising: CGPIO_EDGE_RISING
    case .falling: CGPIO_EDGE_FALLING
    case .both: CGPIO_EDGE_BOTH
    }
  }
}
