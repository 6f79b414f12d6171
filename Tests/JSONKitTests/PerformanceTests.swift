// SPDX-License-Identifier: MIT

import JSONKit
import Testing

/// A control message of the size the socket carries: about 300 bytes.
let typicalControlMessage = """
  {"id":4711,"cmd":"start","client":"wodclockctl/1.0","ts":1764450000123,\
  "args":{"workout":"emom-20","format":"emom","rounds":20,"work":40,"rest":20,\
  "countdown":10,"labels":["Burpees","Wall balls","Row 250 m","Rest"],"horn":true,\
  "volume":0.8,"color":"amber","brightness":75,"note":"Coach \\"Sam\\" \u{2013} 6 a.m."}}
  """

/// Timings are printed for humans; the asserted bound is loose (debug builds, busy CI machines)
/// and only catches pathological regressions such as accidental quadratic work.
/// For real numbers: `swift test -c release --filter PerformanceTests`.
@Suite("Performance")
struct PerformanceTests {
  @Test func parseAndSerializeTypicalControlMessage() throws {
    let bytes = Array(typicalControlMessage.utf8)
    #expect((250...350).contains(bytes.count))
    let iterations = 20_000
    let clock = ContinuousClock()
    var checksum = 0

    // Warm up allocator and caches.
    for _ in 0..<1_000 { checksum &+= try JSONValue.parse(bytes).serializedBytes().count }

    let parseTime = try clock.measure {
      for _ in 0..<iterations {
        if case .object(let object) = try JSONValue.parse(bytes) { checksum &+= object.count }
      }
    }
    let value = try JSONValue.parse(bytes)
    let serializeTime = clock.measure {
      for _ in 0..<iterations { checksum &+= value.serializedBytes().count }
    }
    let stringTime = try clock.measure {
      for _ in 0..<iterations {
        checksum &+= try JSONValue.parse(typicalControlMessage).serialized().utf8.count
      }
    }

    let parseMicros = microseconds(parseTime) / Double(iterations)
    let serializeMicros = microseconds(serializeTime) / Double(iterations)
    let roundTripMicros = microseconds(stringTime) / Double(iterations)
    print(
      "JSONKit \(bytes.count)-byte message: parse \(rounded(parseMicros)) µs, serialize "
        + "\(rounded(serializeMicros)) µs, String round trip \(rounded(roundTripMicros)) µs "
        + "(checksum \(checksum))")
    #expect(parseMicros < 500)
    #expect(serializeMicros < 500)
  }

  @Test func codableRoundTripOfAControlMessage() throws {
    struct Command: Codable, Equatable {
      var id: Int
      var cmd: String
      var client: String
      var ts: Int64
      var args: JSONValue
    }
    let decoder = JSONValueDecoder()
    let encoder = JSONValueEncoder()
    let command = try decoder.decode(Command.self, from: typicalControlMessage)
    #expect(command.args["labels"]?[1] == "Wall balls")
    let iterations = 5_000
    let time = try ContinuousClock().measure {
      for _ in 0..<iterations {
        let text = try encoder.encodeToString(command)
        _ = try decoder.decode(Command.self, from: text)
      }
    }
    let micros = microseconds(time) / Double(iterations)
    print("JSONKit Codable encode+decode of a control message: \(rounded(micros)) µs")
    #expect(micros < 2_000)
  }
}

private func microseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
