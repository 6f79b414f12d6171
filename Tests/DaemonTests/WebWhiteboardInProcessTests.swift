// SPDX-License-Identifier: MIT
// The whiteboard and the media directory through the web front, in the test's process on
// manual time: the status's and the face's whiteboard members as a workout runs, the files of
// `media:` served at /media/NAME (types, ranges, revalidation, the names refused, no PIN) from
// their descriptor, the picker's list behind the PIN, and /remote/ as the remote.

import ConfigFormat
import Configuration
import Glibc
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

private let mediaConfig = webAPIConfig + "\nmedia: media\n"

/// The first bytes of a PNG and of a WebM: enough to tell the files apart.
private let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Array(0..<200)
private let webm: [UInt8] = [0x1a, 0x45, 0xdf, 0xa3] + Array(repeating: 7, count: 1000)

@Suite struct WebWhiteboardInProcessTests {
  /// A clock with a media directory holding a picture, a video and what must not be served.
  private func clock(_ config: String = mediaConfig) throws -> InProcessDaemon {
    let clock = try webClock(config)
    let media = clock.directory + "/media"
    try FileSystem.makeDirectories(media)
    try writeFile(media + "/push-up.png", png)
    try writeFile(media + "/squat clip.webm", webm)
    try writeFile(media + "/notes.txt", text: "not media")
    try writeFile(media + "/.hidden.png", png)
    try writeFile(clock.directory + "/secret.png", png)
    return clock
  }

  /// Loads an EMOM with a whiteboard, as the notation or a library will.
  private func loadChelsea(_ clock: InProcessDaemon) throws {
    let mode = WorkoutMode.emom(EMOMParameters(interval: .seconds(60), rounds: 6))
    let plan = WorkoutPlan(
      name: "chelsea", mode: mode, countIn: .zero,
      whiteboard: [
        WhiteboardLine("5 pull-ups"), WhiteboardLine("10 push-ups", media: "push-up.png"),
        WhiteboardLine("15 air squats"),
      ], media: "squat clip.webm")
    let daemon = clock.daemon!
    try daemon.host.load(
      Preset(
        name: "chelsea", plan: plan,
        location: ConfigFormat.SourceLocation(file: "t", line: 1, column: 1)),
      at: daemon.timeBase.engineInstant(atMonotonic: clock.time.monotonic))
  }

  @Test func theStatusAndTheFaceCarryTheWhiteboardAsTheWorkoutRuns() throws {
    let clock = try clock()
    // Without a whiteboard: an empty list and nulls.
    let plain = try clock.status()
    #expect(plain["whiteboard"] == .array([]) && plain["whiteboard_line"] == .null)
    #expect(plain["next_movement"] == .null && plain["media"] == .null)
    #expect(try clock.get("/api/status").json["face"]?["whiteboard"] == .array([]))

    try loadChelsea(clock)
    let idle = try clock.get("/api/status").json
    #expect(idle["status"]?["whiteboard"]?.arrayValue?.count == 3)
    #expect(idle["status"]?["whiteboard_line"] == .null)
    #expect(idle["status"]?["media"] == "squat clip.webm")
    #expect(idle["face"]?["media"]?["path"] == "/media/squat%20clip.webm")

    let cookie = try clock.signIn()
    #expect(try clock.command(#"{"cmd":"start"}"#, cookie: cookie).status == 200)
    clock.run(for: 55)
    let first = try clock.get("/api/status").json
    #expect(first["status"]?["whiteboard_line"] == .integer(0))
    #expect(first["status"]?["next_movement"] == "10 push-ups")
    #expect(first["face"]?["whiteboard_line"] == .integer(0))
    #expect(first["face"]?["next"]?["text"] == "10 push-ups")
    // Shown from 10 s before the minute's end, on the server's clock.
    let started = clock.serverMilliseconds() - 55_000
    #expect(first["face"]?["next"]?["from_ms"]?.doubleValue == started + 50_000)
    clock.run(for: 10)
    let second = try clock.get("/api/status").json
    #expect(second["status"]?["whiteboard_line"] == .integer(1))
    #expect(second["status"]?["media"] == "push-up.png")
    #expect(second["face"]?["media"]?["kind"] == "image")
    // The socket says the same.
    #expect(try clock.status()["media"] == "push-up.png")

    // A lap in an EMOM is on the TV's round line.
    #expect(try clock.command(#"{"cmd":"lap"}"#, cookie: cookie).status == 200)
    #expect(try clock.get("/api/status").json["face"]?["rounds"] == "R 2/6 · LAP 1")
  }

  @Test func aMediaFileIsServedWithItsTypeFromItsDescriptorWithoutAPIN() throws {
    let clock = try clock()
    let web = try clock.webTransport()
    let picture = try clock.get("/media/push-up.png")
    #expect(picture.status == 200)
    #expect(picture.bytes == png)
    #expect(picture.header("Content-Type") == "image/png")
    #expect(picture.header("Accept-Ranges") == "bytes")
    #expect(picture.header("Content-Security-Policy") != nil)
    let video = try clock.get("/media/squat%20clip.webm")
    #expect(video.status == 200 && video.bytes == webm)
    #expect(video.header("Content-Type") == "video/webm")
    #expect(web.filesSent == 2, "sent from the files' descriptors, not read into memory")
    // HEAD is answered as GET (the server leaves the body out).
    #expect(
      web.request("HEAD", "/media/push-up.png", headers: [("Host", webHost)], from: device(9))
        .status == 200)

    // Revalidated by its tag; a changed file is another tag.
    let etag = try #require(picture.header("ETag"))
    #expect(try clock.get("/media/push-up.png", headers: [("If-None-Match", etag)]).status == 304)
    try writeFile(clock.directory + "/media/push-up.png", png + [1])
    let changed = try clock.get("/media/push-up.png", headers: [("If-None-Match", etag)])
    #expect(changed.status == 200 && changed.header("ETag") != etag)
  }

  @Test func aVideoIsServedInPartsForSeeking() throws {
    let clock = try clock()
    let part = try clock.get("/media/squat%20clip.webm", headers: [("Range", "bytes=2-5")])
    #expect(part.status == 206)
    #expect(part.bytes == Array(webm[2...5]))
    #expect(part.header("Content-Range") == "bytes 2-5/\(webm.count)")
    let tail = try clock.get("/media/squat%20clip.webm", headers: [("Range", "bytes=-4")])
    #expect(tail.status == 206 && tail.bytes == Array(webm.suffix(4)))
    let past = try clock.get("/media/squat%20clip.webm", headers: [("Range", "bytes=5000-")])
    #expect(past.status == 416)
    #expect(past.header("Content-Range") == "bytes */\(webm.count)")
    // Several ranges: the whole file, as RFC 9110 allows.
    let several = try clock.get("/media/push-up.png", headers: [("Range", "bytes=0-1,4-5")])
    #expect(several.status == 200 && several.bytes == png)
  }

  @Test func namesThatAreNotPlainMediaFilesOfTheDirectoryAreNotFound() throws {
    let clock = try clock()
    for target in [
      "/media/notes.txt", "/media/.hidden.png", "/media/..%2Fsecret.png", "/media/../secret.png",
      "/media/", "/media/missing.png", "/media/sub%2Fa.png", "/media/a%00.png",
    ] {
      let answer = try clock.get(target)
      #expect(answer.status == 404, "\(target)")
      #expect(answer.bytes != png, "\(target)")
    }
    // A symbolic link in the directory is not followed out of it.
    #expect(symlink(clock.directory + "/secret.png", clock.directory + "/media/link.png") == 0)
    #expect(try clock.get("/media/link.png").status == 404)
    let post = try clock.post("/media/push-up.png", "{}")
    #expect(post.status == 405)

    // Without `media:` nothing is served.
    let bare = try self.clock(webAPIConfig)
    #expect(try bare.get("/media/push-up.png").status == 404)
  }

  @Test func thePickersListIsBehindThePINAndListsWhatCanBeShown() throws {
    let clock = try clock()
    #expect(try clock.get("/api/media").status == 401)
    let cookie = try clock.signIn()
    let list = try clock.get("/api/media", cookie: cookie)
    #expect(list.status == 200)
    #expect(
      list.json["media"]
        == .array([
          .object(JSONObject([("name", "push-up.png"), ("kind", "image")])),
          .object(JSONObject([("name", "squat clip.webm"), ("kind", "video")])),
        ]))
    let bare = try self.clock(webAPIConfig)
    let none = try bare.get("/api/media", cookie: try bare.signIn())
    #expect(none.status == 200 && none.json["media"] == .array([]))
  }

  @Test func theRemoteIsAlsoAtRemoteWithASlash() throws {
    let clock = try clock()
    let slash = try clock.get("/remote/")
    let plain = try clock.get("/remote")
    #expect(slash.status == 200 && slash.bytes == plain.bytes)
    #expect(slash.text.contains("wodclock remote"))
    let off = try webClock(webAPIConfig.replacingPIN())
    #expect(try off.get("/remote/").status == 404)
  }
}

extension String {
  /// The configuration without its PIN: the display only.
  fileprivate func replacingPIN() -> String {
    split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("pin:") }
      .joined(separator: "\n")
  }
}
