// SPDX-License-Identifier: MIT
// GET /api/results.csv from the `results` command's reply: the CSV as a file to save, an error
// reply passed on as the API's JSON, a reply without its CSV a fault of the clock.

import JSONKit
import Testing
import WebInterface

@Suite("Results as CSV")
struct ResultsCSVTests {
  static let csv =
    "division,place,athlete,heat,lane,score,time_s,tiebreak_s\n"
    + "Rx,1,\"Anna, B.\",3,2,7:42.3,462.3,301.2\n" + "Rx,2,Émile,3,5,CAP+12,,\n"

  @Test("an ok reply is its csv member, served as a file named results.csv")
  func okReply() throws {
    let reply = try JSONValue.parse(
      Array(
        #"{"v":1,"ok":true,"results":[],"csv":"division,place,athlete,heat,lane,score,time_s,tiebreak_s\nRx,1,\"Anna, B.\",3,2,7:42.3,462.3,301.2\nRx,2,Émile,3,5,CAP+12,,\n"}"#
          .utf8))
    let answer = WebAPI.resultsCSV(fromReply: reply)
    #expect(answer.status == 200)
    #expect(answer.contentType == "text/csv; charset=utf-8")
    #expect(answer.caching == .noStore)
    #expect(
      answer.extraHeaders
        == [WebHeader("Content-Disposition", #"attachment; filename="results.csv""#)])
    #expect(answer.body == Array(Self.csv.utf8))
    // The security headers go with it as with every answer.
    #expect(answer.headers.contains(WebHeader("X-Content-Type-Options", "nosniff")))
  }

  @Test("an error reply is passed on as JSON with the status of a command's error")
  func errorReply() throws {
    let unknown = try JSONValue.parse(
      Array(
        #"{"v":1,"ok":false,"error":{"code":"unknown_command","message":"unknown command 'results'"}}"#
          .utf8))
    let answer = WebAPI.resultsCSV(fromReply: unknown)
    #expect(answer.status == 400)
    #expect(answer.contentType == WebReply.jsonType)
    #expect(try JSONValue.parse(answer.body) == unknown)
    #expect(!answer.extraHeaders.contains { $0.name == "Content-Disposition" })

    let busy = try JSONValue.parse(
      Array(#"{"ok":false,"error":{"code":"busy","message":"a workout is running"}}"#.utf8))
    #expect(WebAPI.resultsCSV(fromReply: busy).status == 409)
  }

  @Test("an ok reply without a csv text is 502 bad_results, said in JSON")
  func replyWithoutCSV() throws {
    for text in [#"{"ok":true,"results":[]}"#, #"{"ok":true,"csv":12}"#] {
      let answer = WebAPI.resultsCSV(fromReply: try JSONValue.parse(Array(text.utf8)))
      #expect(answer.status == 502, "\(text)")
      #expect(answer.contentType == WebReply.jsonType, "\(text)")
      let body = try JSONValue.parse(answer.body)
      #expect(body["error"]?["code"] == .string("bad_results"), "\(text)")
      #expect(body["error"]?["hint"]?.stringValue?.isEmpty == false, "\(text)")
    }
  }

  @Test("the request sent is the results command")
  func request() throws {
    #expect(try JSONValue.parse(WebAPI.resultsRequest)["cmd"] == .string("results"))
  }
}
