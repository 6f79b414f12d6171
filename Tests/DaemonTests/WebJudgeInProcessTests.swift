// SPDX-License-Identifier: MIT
// The judge's page and the results file in the test's process: /judge served behind the
// remote's rule (off without a PIN), /api/results.csv made from the `results` command's reply
// exactly as the control socket gives it, and only to a signed-in client.

import ControlProtocol
import JSONKit
import Testing
import WebInterface
import WodclockTestSupport

@testable import WodclockDaemon

@Suite struct WebJudgeInProcessTests {
  @Test func theJudgesPageIsServedAtBothAddressesWithoutASession() throws {
    let clock = try webClock()
    for path in ["/judge", "/judge/"] {
      let page = try clock.get(path)
      #expect(page.status == 200, "\(path)")
      #expect(page.header("Content-Type") == "text/html; charset=utf-8", "\(path)")
      #expect(page.header("Cache-Control") == "no-cache", "\(path)")
      #expect(page.text.contains("/assets/judge.js"), "\(path)")
    }
    let script = try clock.get("/assets/judge.js")
    #expect(script.status == 200)
    #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
  }

  @Test func withoutAPINTheJudgesPageAndTheResultsAreOff() throws {
    let clock = try webClock(webAPIConfig.replacingFirst("  pin: \"482193\"\n", with: ""))
    let page = try clock.get("/judge")
    #expect(page.status == 404)
    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
    #expect(page.text.contains("the remote is off on this clock"))
    let results = try clock.get("/api/results.csv")
    #expect(results.status == 404)
    #expect(results.errorCode == "remote_off")
  }

  @Test func theResultsNeedASession() throws {
    let clock = try webClock()
    let refused = try clock.get("/api/results.csv")
    #expect(refused.status == 401)
    #expect(refused.errorCode == "sign_in")
    #expect(refused.header("Content-Disposition") == nil)
  }

  /// The route's answer is the `results` command's reply, whatever the daemon answers: its CSV
  /// as a file when the reply is `ok`, the reply itself with its HTTP status when it is an
  /// error (a daemon without the command answers `unknown_command`).
  @Test func theResultsAreTheResultsCommandsReply() throws {
    let clock = try webClock()
    let cookie = try clock.signIn()
    let reply: JSONValue
    switch CommandProtocol.parse(WebAPI.resultsRequest) {
    case .success: reply = try clock.request(#"{"cmd":"results"}"#)
    case .failure(let rejection): reply = CommandProtocol.failure(id: nil, rejection.failure)
    }
    let answer = try clock.get("/api/results.csv", cookie: cookie)
    if reply["ok"] == .bool(true) {
      #expect(answer.status == 200)
      #expect(answer.header("Content-Type") == "text/csv; charset=utf-8")
      #expect(answer.header("Content-Disposition") == #"attachment; filename="results.csv""#)
      #expect(answer.header("Cache-Control") == "no-store")
      #expect(answer.text == reply["csv"]?.stringValue)
      #expect(answer.text.hasPrefix("division,place,athlete,heat,lane,score,time_s,tiebreak_s"))
    } else {
      #expect(answer.status == WebAPI.status(ofCommandReply: reply))
      #expect(answer.json == reply)
      #expect(answer.header("Content-Disposition") == nil)
    }
  }
}
