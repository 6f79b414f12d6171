// SPDX-License-Identifier: MIT
// The small answers of the API that are not the control protocol's: the ping, the session, the
// login's body, a command reply's HTTP status, and the explanation of a written workout.

import JSONKit
import WorkoutCore
import WorkoutNotation

/// The API's own answers, made from pure inputs.
public enum WebAPI {
  /// `GET /api/time`: `{"ok":true,"server_ms":…}` at monotonic `now`.
  public static func time(now: Int64) -> JSONValue {
    .object(
      JSONObject([
        ("ok", .bool(true)), ("server_ms", .double(WebClock.serverMilliseconds(now))),
      ]))
  }

  /// `GET /api/session`: `{"ok":true,"remote":…,"signed_in":…}`.
  public static func session(remoteEnabled: Bool, signedIn: Bool) -> JSONValue {
    .object(
      JSONObject([
        ("ok", .bool(true)), ("remote", .bool(remoteEnabled)), ("signed_in", .bool(signedIn)),
      ]))
  }

  /// `{"ok":true}`: a login or a logout that went through.
  public static let done: JSONValue = .object(JSONObject([("ok", .bool(true))]))

  /// The PIN of a login's body, `{"pin":"482193"}`; 400 `bad_request` for anything else.
  public static func pin(fromLoginBody body: [UInt8]) -> Result<String, WebError> {
    let bad = WebError.badRequest(
      "a login is a JSON object with the PIN as a string", hint: "send {\"pin\": \"482193\"}")
    guard let value = try? JSONValue.parse(body), let pin = value["pin"]?.stringValue else {
      return .failure(bad)
    }
    return .success(pin)
  }

  /// The HTTP status of the control protocol's reply to a command: 200 when it is `ok`, 409
  /// for `busy` (a load over a running workout without `replace`), 400 for any other error.
  public static func status(ofCommandReply reply: JSONValue) -> Int {
    if reply["ok"]?.boolValue == true { return 200 }
    return reply["error"]?["code"]?.stringValue == "busy" ? 409 : 400
  }

  /// The request `GET /api/results.csv` sends through the command vocabulary.
  public static let resultsRequest: [UInt8] = Array(#"{"cmd":"results"}"#.utf8)

  /// The content type of `/api/results.csv` (RFC 7111 registers `text/csv`; the text is UTF-8).
  public static let csvType = "text/csv; charset=utf-8"

  /// `GET /api/results.csv` made from the `results` command's reply: its `csv` member as a file
  /// a browser saves as `results.csv` (never stored: the results change with every finish). A
  /// reply that is an error is passed on as the JSON answer of the API, with the status
  /// ``status(ofCommandReply:)`` gives; an `ok` reply without a `csv` text is 502
  /// `bad_results`, a fault of the clock rather than of the request.
  public static func resultsCSV(fromReply reply: JSONValue) -> WebReply {
    guard reply["ok"]?.boolValue == true else {
      return .json(reply, status: status(ofCommandReply: reply))
    }
    guard let csv = reply["csv"]?.stringValue else {
      return .error(
        WebError(
          status: 502, code: "bad_results",
          message: "the clock's results reply carries no CSV text",
          hint: "'wodclockctl --json results' shows the reply; the journal may say more"),
        path: "/api/results.csv")
    }
    return WebReply(
      status: 200, contentType: csvType, caching: .noStore,
      extraHeaders: [WebHeader("Content-Disposition", #"attachment; filename="results.csv""#)],
      body: Array(csv.utf8))
  }

  /// `GET /api/explain?text=…`: what the clock understands `text` to be, with the count-in a
  /// load from the socket gets (the configuration's `defaults.count_in`). 200
  /// `{"ok":true,"explanation":…}` (the object `wodclockctl explain --json` prints); a text
  /// that is not a workout is 200 too, `{"ok":false,"error":{"code":"not_a_workout","message",
  /// "hint","column","length"}}`, the column 1-based and the length counted in Unicode scalars
  /// of the text, so a page can underline the problem; a text over
  /// ``WebRoute/maximumExplainLength`` scalars is 400 `too_long`. Names are the `library`'s
  /// (the gym's own workouts in front of the benchmark ones); where one is also a preset of
  /// `presets`, the explanation says the preset is what loads.
  public static func explain(
    _ text: String, defaultCountIn: TimeSpan, library: WorkoutLibrary = .standard,
    presets: [String] = []
  ) -> (status: Int, body: JSONValue) {
    let length = text.unicodeScalars.count
    if length > WebRoute.maximumExplainLength {
      let error = WebError.tooLong(length: length, limit: WebRoute.maximumExplainLength)
      return (error.status, error.json)
    }
    switch WorkoutNotation.explain(
      text, defaultCountIn: defaultCountIn, library: library, presets: presets)
    {
    case .success(let explanation):
      return (
        200, .object(JSONObject([("ok", .bool(true)), ("explanation", explanation.json)]))
      )
    case .failure(let error):
      let first = error.diagnostics.first
      let columns = first?.columns ?? 0..<0
      // The mark stays on the text (a diagnostic at its end marks the place after it) and
      // covers at least one character, as the caret of `wodclockctl explain` does.
      let column = min(max(0, columns.lowerBound), length)
      let marked = max(1, columns.count)
      let problem = JSONObject([
        ("code", .string("not_a_workout")),
        ("message", .string(first?.message ?? "this is not a workout")),
        ("hint", first?.hint.map(JSONValue.string) ?? .null),
        ("column", .integer(Int64(column + 1))),
        ("length", .integer(Int64(marked))),
      ])
      return (200, .object(JSONObject([("ok", .bool(false)), ("error", .object(problem))])))
    }
  }
}
