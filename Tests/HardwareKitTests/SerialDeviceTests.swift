// SPDX-License-Identifier: MIT
// Naming a serial LED controller by path or by USB id, and finding it through libudev.

import HardwareKit
import Testing

@Suite struct SerialDeviceTests {
  @Test func selectorsParse() {
    #expect(SerialDeviceSelector(parsing: "/dev/ttyACM0") == .path("/dev/ttyACM0"))
    #expect(
      SerialDeviceSelector(parsing: "usb:303A:1001")
        == .usb(vendor: 0x303A, product: 0x1001, serial: nil))
    #expect(
      SerialDeviceSelector(parsing: "usb:1a86:7523:5A7B0123")
        == .usb(vendor: 0x1A86, product: 0x7523, serial: "5A7B0123"))
    #expect(SerialDeviceSelector(parsing: "usb:1a86:7523")?.description == "usb:1a86:7523")
    #expect(SerialDeviceSelector(parsing: "ttyACM0") == nil)
    #expect(SerialDeviceSelector(parsing: "usb:zzzz:7523") == nil)
    #expect(SerialDeviceSelector(parsing: "1a86:7523") == nil)
  }

  @Test func aUSBIdMatchesVendorProductAndSerial() {
    let esp = SerialDeviceInfo(
      devnode: "/dev/ttyACM1", vendorID: 0x303A, productID: 0x1001, serial: "F4:12",
      links: ["/dev/serial/by-id/usb-Espressif_USB_JTAG_serial_debug_unit_F4:12-if00"])
    let ch340 = SerialDeviceInfo(devnode: "/dev/ttyUSB0", vendorID: 0x1A86, productID: 0x7523)
    let any = SerialDeviceSelector.usb(vendor: 0x303A, product: 0x1001, serial: nil)
    let exact = SerialDeviceSelector.usb(vendor: 0x303A, product: 0x1001, serial: "F4:12")
    let other = SerialDeviceSelector.usb(vendor: 0x303A, product: 0x1001, serial: "00:00")
    #expect(any.matches(esp) && !any.matches(ch340))
    #expect(exact.matches(esp) && !other.matches(esp))
    #expect(SerialDeviceSelector.path(esp.links[0]).matches(esp))
  }

  @Test func scanningFindsOnlyUSBPortsAndAMissingIdSaysSo() throws {
    // Whatever this machine has plugged in, every port found has a node and USB ids.
    for device in try SerialDevices.scan() {
      #expect(device.devnode.hasPrefix("/dev/"))
      #expect(device.vendorID != nil)
    }
    // A path is taken as written; an id nobody has (vendor 0xffff is reserved) is not found.
    #expect(try SerialDevices.resolve(.path("/dev/ttyACM7")) == "/dev/ttyACM7")
    #expect(throws: SystemError.self) {
      try SerialDevices.resolve(.usb(vendor: 0xFFFF, product: 0xFFFF, serial: nil))
    }
  }
}
