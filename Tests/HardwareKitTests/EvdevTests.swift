// SPDX-License-Identifier: MIT
// The evdev byte layer: recorded `struct input_event` streams in both layouts (24 and 16 bytes,
// include/uapi/linux/input.h), torn reads, auto-repeat and SYN_DROPPED, key names, selectors.

import HardwareKit
import Testing

@Suite struct EvdevTests {
  /// A Logitech R400's forward key as the kernel reports it (64-bit): MSC_SCAN 0x7004e,
  /// KEY_PAGEDOWN down, SYN_REPORT, two auto-repeats, up, SYN_REPORT.
  static let recorded: [EvdevEvent] = [
    EvdevEvent(seconds: 100, microseconds: 5, type: 4, code: 4, value: 0x7004E),
    EvdevEvent(seconds: 100, microseconds: 5, type: 1, code: 109, value: 1),
    EvdevEvent(seconds: 100, microseconds: 5, type: 0, code: 0, value: 0),
    EvdevEvent(seconds: 100, microseconds: 255_000, type: 1, code: 109, value: 2),
    EvdevEvent(seconds: 100, microseconds: 255_000, type: 0, code: 0, value: 0),
    EvdevEvent(seconds: 100, microseconds: 288_000, type: 1, code: 109, value: 2),
    EvdevEvent(seconds: 100, microseconds: 288_000, type: 0, code: 0, value: 0),
    EvdevEvent(seconds: 100, microseconds: 300_000, type: 1, code: 109, value: 0),
    EvdevEvent(seconds: 100, microseconds: 300_000, type: 0, code: 0, value: 0),
  ]

  @Test func aWideEventIsTwentyFourLittleEndianBytes() {
    let bytes = EvdevEvent(seconds: 1, microseconds: 2, type: 1, code: 109, value: 1).bytes(.wide)
    #expect(bytes.count == 24)
    #expect(bytes[0] == 1 && bytes[8] == 2 && bytes[16] == 1 && bytes[18] == 109 && bytes[20] == 1)
    #expect(EvdevEventLayout.native.size == 24)
  }

  @Test(arguments: [EvdevEventLayout.wide, .narrow])
  func aRecordingDecodesToItsEvents(_ layout: EvdevEventLayout) {
    var decoder = EvdevEventDecoder(layout: layout)
    let bytes = Self.recorded.flatMap { $0.bytes(layout) }
    #expect(bytes.count == Self.recorded.count * layout.size)
    #expect(decoder.decode(bytes) == Self.recorded)
    #expect(decoder.pendingByteCount == 0)
  }

  @Test(arguments: [EvdevEventLayout.wide, .narrow])
  func aTornReadKeepsThePartialEventForTheNextRead(_ layout: EvdevEventLayout) {
    var decoder = EvdevEventDecoder(layout: layout)
    let bytes = Self.recorded.flatMap { $0.bytes(layout) }
    for cut in [1, layout.size - 1, layout.size + 7, bytes.count - 3] {
      var first = decoder.decode(bytes[..<cut])
      #expect(decoder.pendingByteCount == cut % layout.size)
      first += decoder.decode(bytes[cut...])
      #expect(first == Self.recorded, "cut at \(cut)")
      #expect(decoder.pendingByteCount == 0)
    }
  }

  @Test func keyChangesKeepAutoRepeatApartAndDropTheRest() {
    var filter = EvdevKeyFilter()
    let (changes, lost) = filter.keyChanges(Self.recorded)
    #expect(!lost)
    #expect(changes.map(\.kind) == [.down, .autoRepeat, .autoRepeat, .up])
    #expect(changes.allSatisfy { $0.code == 109 })
    #expect(changes.first?.instant == 100_000_005_000)
    #expect(changes.last?.instant == 100_300_000_000)
  }

  @Test func aTimestampNoClockCanHaveIsHeldToTheRangeInsteadOfOverflowing() {
    // 24 bytes from a device are whatever it wrote: seconds near Int64's limits, microseconds
    // past a second or negative.
    let wild = [
      EvdevEvent(seconds: .max, microseconds: .max, type: 1, code: 2, value: 1),
      EvdevEvent(seconds: .min, microseconds: .min, type: 1, code: 2, value: 0),
      EvdevEvent(seconds: 7, microseconds: 3_000_000, type: 1, code: 2, value: 1),
    ]
    #expect(
      wild.map(\.nanoseconds) == [
        9_223_372_035_999_999_000, -9_223_372_035_000_000_000, 7_999_999_000,
      ])
    var filter = EvdevKeyFilter()
    #expect(filter.keyChanges(wild).changes.map(\.instant) == wild.map(\.nanoseconds))
  }

  @Test func afterSynDroppedEverythingUpToTheNextReportIsDiscarded() {
    var filter = EvdevKeyFilter()
    let events = [
      EvdevEvent(type: 1, code: 63, value: 1), EvdevEvent(type: 0, code: 0, value: 0),
      EvdevEvent(type: 0, code: 3, value: 0),  // SYN_DROPPED
      EvdevEvent(type: 1, code: 63, value: 0),  // part of the broken packet
      EvdevEvent(type: 0, code: 0, value: 0),
      EvdevEvent(type: 1, code: 1, value: 1),
    ]
    let (changes, lost) = filter.keyChanges(events)
    #expect(lost)
    #expect(changes.map(\.code) == [63, 1])
    #expect(changes.map(\.kind) == [.down, .down])
  }

  @Test func keyNamesAreTheKernels() {
    #expect(EvdevKeys.code(named: "KEY_PAGEDOWN") == 109)
    #expect(EvdevKeys.code(named: "pageup") == 104)
    #expect(EvdevKeys.code(named: "KEY_KP1") == 79)
    #expect(EvdevKeys.code(named: "KEY_F5") == 63)
    #expect(EvdevKeys.code(named: "KEY_DOT") == 52)
    #expect(EvdevKeys.code(named: "KEY_KPENTER") == 96)
    #expect(EvdevKeys.code(named: "KEY_NEXTSONG") == 163)
    #expect(EvdevKeys.code(named: "KEY_PAGEDOWNN") == nil)
    #expect(EvdevKeys.name(of: 1) == "KEY_ESC")
    #expect(EvdevKeys.name(of: 0x2F0) == "KEY_752")
    #expect(EvdevKeys.allNames.contains("KEY_A"))
  }

  @Test func selectorsAreNamesUSBIdsOrPaths() {
    #expect(
      InputDeviceSelector(parsing: "046d:c52d")
        == .usb(vendor: 0x046D, product: 0xC52D, serial: nil))
    #expect(
      InputDeviceSelector(parsing: "046D:C52D:AB12")
        == .usb(vendor: 0x046D, product: 0xC52D, serial: "AB12"))
    #expect(
      InputDeviceSelector(parsing: "/dev/input/by-id/x-event-kbd")
        == .path("/dev/input/by-id/x-event-kbd"))
    #expect(
      InputDeviceSelector(parsing: " Logitech USB Receiver ") == .name("Logitech USB Receiver"))
    #expect(InputDeviceSelector(parsing: "  ") == nil)
    #expect(
      InputDeviceSelector.usb(vendor: 0x46D, product: 0xC52D, serial: nil).description
        == "046d:c52d")
  }

  @Test func aNameAlsoMatchesTheReceiversOtherNodesButNotOtherDevices() {
    let selector = InputDeviceSelector.name("logitech usb receiver")
    func device(_ name: String) -> InputDeviceInfo {
      InputDeviceInfo(devnode: "/dev/input/event3", syspath: "/sys/x", name: name)
    }
    #expect(selector.matches(device("Logitech USB Receiver")))
    #expect(selector.matches(device("Logitech USB Receiver Consumer Control")))
    #expect(!selector.matches(device("Logitech USB Receiver2")))
    #expect(!selector.matches(device("AT Translated Set 2 keyboard")))
    let usb = InputDeviceSelector.usb(vendor: 0x046D, product: 0xC52D, serial: "S1")
    var info = InputDeviceInfo(
      devnode: "/dev/input/event3", syspath: "/sys/x", name: "n", vendorID: 0x046D,
      productID: 0xC52D, serial: "S1", links: ["/dev/input/by-id/usb-x-event-kbd"])
    #expect(usb.matches(info))
    #expect(info.usbID == "046d:c52d")
    #expect(InputDeviceSelector.path("/dev/input/by-id/usb-x-event-kbd").matches(info))
    #expect(
      InputDeviceSelector.path("/dev/input/by-id/other").matches(
        info, resolvedPath: "/dev/input/event3"))
    info.serial = "S2"
    #expect(!usb.matches(info))
  }

  @Test func theMachinesInputDevicesCanBeListed() throws {
    // No assumption about what this machine has; the enumeration itself must work.
    let devices = try InputDevices.scan()
    #expect(devices.allSatisfy { $0.devnode.hasPrefix("/dev/input/event") })
  }
}
