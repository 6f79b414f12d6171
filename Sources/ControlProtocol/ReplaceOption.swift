// SPDX-License-Identifier: MIT
// `"replace": true` on a load: the request may take the place of a running or paused workout.
// Without it such a load is answered `busy`, so a script or a second phone cannot abandon a
// class's workout by accident.

import JSONKit

extension CommandProtocol {
  /// The `busy` answer's code.
  public static let busyCode = "busy"

  /// Reads a request's optional flag (`replace`, `start`): false when absent, nil when it is
  /// not a boolean.
  static func flag(_ name: String, in object: JSONObject) -> Bool? {
    guard let given = object[name] else { return false }
    return given.boolValue
  }
}
