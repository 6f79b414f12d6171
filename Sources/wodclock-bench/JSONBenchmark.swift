// SPDX-License-Identifier: MIT
// The cost of the control protocol's JSON: every request is parsed and every reply and status
// event is serialized on the daemon's one thread.

import JSONKit

enum JSONBenchmark {
  /// A status reply as the daemon sends it during an EMOM (about 350 bytes), with a label that
  /// needs escaping and a non-ASCII character, as gym labels do.
  static let message = #"""
    {"v":1,"ok":true,"status":{"state":"running","preset":"emom-20","mode":"emom",\#
    "label":"Burpees \u2013 \"max\"","display":"0:37","elapsed_s":443.21,\#
    "remaining_s":756.79,"segment":"work","segment_remaining_s":36.79,"round":8,"rounds":20,\#
    "set":null,"sets":null,"rep":null,"reps":null,"side":null,"laps":0,\#
    "time_under_tension_s":0.0,"finish_reason":null}}
    """#

  static func run() throws {
    let bytes = Array(message.utf8)
    let value = try JSONValue.parse(bytes)
    var checksum = 0
    // Warm the allocator and the caches first.
    for _ in 0..<2_000 { checksum &+= try JSONValue.parse(bytes).serializedBytes().count }

    // The median of several rounds: one round disturbed by another process does not move it.
    let iterations = 20_000
    var parse: [Double] = []
    var serialize: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<7 {
      let parseTime = try clock.measure {
        for _ in 0..<iterations {
          if case .object(let object) = try JSONValue.parse(bytes) { checksum &+= object.count }
        }
      }
      let serializeTime = clock.measure {
        for _ in 0..<iterations { checksum &+= value.serializedBytes().count }
      }
      parse.append(EngineBenchmark.nanoseconds(parseTime) / Double(iterations))
      serialize.append(EngineBenchmark.nanoseconds(serializeTime) / Double(iterations))
    }
    precondition(checksum != Int.min, "the work must not be optimised away")
    report("json.parse", median(parse), "ns")
    report("json.serialize", median(serialize), "ns")
    report("json.message_size", Double(bytes.count), "bytes", decimals: 0)
  }

  private static func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}
