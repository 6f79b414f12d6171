// SPDX-License-Identifier: MIT
// The 7-segment output kinds as the config checker sees them: layouts against digit counts,
// shared hardware, and a TM1637 that does not exist failing only its own plugin.

import HardwareKit
import Testing
import WodclockTestSupport

@Suite struct SevenSegmentConfigTests {
  private func check(_ outputs: String) throws -> (status: Int32, error: String) {
    let daemon = try DaemonHarness(config: testConfig + "\n" + outputs)
    let result = try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
    return (result.status, result.error)
  }

  @Test func twoDisplaysCannotShareAGPIOLine() throws {
    let result = try check(
      """
        - type: tm1637
          clk: GPIO23
          dio: GPIO24
        - type: shift-register
          data: GPIO24
          clock: GPIO25
          latch: GPIO26
      """)
    #expect(result.status == 78)
    #expect(result.error.contains("claims GPIO line 'gpiochip0:GPIO24', already taken by 'tm1637'"))
  }

  @Test func aLayoutMustFitTheDisplay() throws {
    let result = try check(
      """
        - type: tm1637
          clk: GPIO23
          dio: GPIO24
          digits: 6
          layout: "MM:SS"
        - type: ht16k33
          address: "0x78"
        - type: sparkfun-serial
          device: /dev/serial0
          layout: "MM:SX"
      """)
    #expect(result.status == 78)
    #expect(result.error.contains("layout 'MM:SS' has 4 digits; the module has 6"))
    #expect(result.error.contains("hint: use _ for a digit that stays blank"))
    #expect(result.error.contains("an HT16K33 address is 0x70 to 0x77"))
    #expect(result.error.contains("'X' at position 5 is not a digit letter"))
  }

  @Test func outputEnableIsALineOrAPWMChannelNotBoth() throws {
    let result = try check(
      """
        - type: shift-register
          data: GPIO17
          clock: GPIO27
          latch: GPIO22
          output_enable: GPIO18
          pwm_chip: 0
        - type: shift-register
          data: GPIO5
          clock: GPIO6
          latch: GPIO13
          pwm_chip: pwm0
        - type: shift-register
          data: GPIO23
          clock: GPIO24
          latch: GPIO25
          pwm_chip: pwmchip0
      """)
    #expect(result.status == 78)
    #expect(result.error.contains("output_enable and pwm_chip both drive /OE; give one"))
    #expect(result.error.contains("pwm_chip must be a number (0) or a controller name (pwmchip0)"))
    #expect(result.error.contains("claims PWM channel 'pwmchip0:0', already taken by"))
  }

  @Test func max7219NeedsSpidevOrThreeLines() throws {
    let result = try check(
      """
        - type: max7219
          din: GPIO5
      """)
    #expect(result.status == 78)
    #expect(result.error.contains("max7219 needs 'clk' when no spidev 'device' is given"))
    #expect(result.error.contains("max7219 needs 'load' when no spidev 'device' is given"))
  }
}
