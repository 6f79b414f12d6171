// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing

/// `media:`: the directory of the pictures and videos beside the clock, resolved beside the
/// config file; `--check-config`'s look at it on the machine; `--print-config` only when set.
@Suite("Media setting")
struct MediaSettingTests {
  static let presets = "presets:\n  t:\n    mode: tabata\n"

  static func load(
    _ text: String, lookup: (@Sendable (String) -> SystemLookup.DirectoryRead)? = nil
  ) -> ConfigurationLoadResult {
    ConfigurationLoader.load(
      bytes: Array((presets + text).utf8), file: "/etc/wodclock/wodclock.yaml",
      plugins: TestPlugins.all,
      system: lookup.map { SystemLookup(group: { _ in .found }, directory: $0) })
  }

  static func rendered(_ result: ConfigurationLoadResult, _ text: String) -> String {
    DiagnosticRenderer(file: "/etc/wodclock/wodclock.yaml", source: presets + text).render(
      result.diagnostics)
  }

  @Test("a relative directory is read beside the config file, an absolute one as written")
  func resolved() throws {
    let relative = try #require(Self.load("media: media\n").configuration?.mediaDirectory)
    #expect(relative.setting == "media" && relative.path == "/etc/wodclock/media")
    let absolute = try #require(Self.load("media: /srv/clips\n").configuration?.mediaDirectory)
    #expect(absolute.path == "/srv/clips")
    #expect(Self.load("").configuration?.mediaDirectory == nil)
  }

  @Test("--check-config: a directory missing, unreadable or a file is an error at its line")
  func checked() throws {
    let missing = Self.load("media: clips\n") { path in
      #expect(path == "/etc/wodclock/clips")
      return .failed(reason: "no such file or directory", errnoName: "ENOENT")
    }
    #expect(missing.configuration == nil)
    let text = Self.rendered(missing, "media: clips\n")
    #expect(
      text.contains(
        "wodclock.yaml:4:8: error: cannot read the media directory '/etc/wodclock/clips': "
          + "no such file or directory (ENOENT)"), "\(text)")
    #expect(text.contains("hint: create it ('mkdir /etc/wodclock/clips')"), "\(text)")

    let closed = Self.load("media: clips\n") { _ in
      .failed(reason: "permission denied", errnoName: "EACCES")
    }
    #expect(Self.rendered(closed, "media: clips\n").contains("hint: the daemon's user (wodclock)"))
    let file = Self.load("media: clips\n") { _ in .notADirectory }
    #expect(Self.rendered(file, "media: clips\n").contains("is not a directory"))
    #expect(Self.load("media: clips\n") { _ in .readable }.diagnostics.isEmpty)
  }

  @Test("what is not a directory's name is refused by name")
  func refused() {
    #expect(
      LoaderTests.rendered(Self.presets + "media: \"\"\n").contains("the media directory is empty"))
    #expect(LoaderTests.rendered(Self.presets + "media: [a, b]\n").contains("error:"))
    #expect(
      LoaderTests.rendered(Self.presets + "medai: media\n").contains("did you mean 'media'?"))
  }

  @Test("--print-config writes it back when set, and nothing when not")
  func printing() throws {
    let on = try #require(configuration(Self.presets + "media: \"gym clips\"\n"))
    let printed = ConfigurationPrinter.render(on, plugins: TestPlugins.all)
    #expect(printed.contains("\nmedia: gym clips\n"), "\(printed)")
    PrinterTests.checkRoundTrip(on)
    let off = try #require(configuration(Self.presets))
    #expect(!ConfigurationPrinter.render(off, plugins: TestPlugins.all).contains("media"))
  }

  @Test(
    "--check-config: a media file a preset names that is not in the directory is a warning at its line"
  )
  func namedFilesAreLookedFor() throws {
    let text = """
      presets:
        chelsea:
          mode: emom
          interval: 1m
          rounds: 30
          whiteboard:
            - 5 pull-ups @pull-up.webm
            - {line: 10 push-ups, media: push-up.webm}
          media: chelsea.png
      media: media

      """
    let present: Set = ["/etc/wodclock/media/push-up.webm"]
    let result = ConfigurationLoader.load(
      bytes: Array(text.utf8), file: "/etc/wodclock/wodclock.yaml", plugins: TestPlugins.all,
      system: SystemLookup(
        group: { _ in .found },
        readFile: { path, _ in
          present.contains(path)
            ? .tooLarge : .failed(reason: "no such file or directory", errnoName: "ENOENT")
        },
        directory: { _ in .readable }))
    #expect(result.configuration != nil, "a warning: the clock runs without the picture")
    let rendered = DiagnosticRenderer(file: "/etc/wodclock/wodclock.yaml", source: text).render(
      result.diagnostics)
    #expect(
      rendered.contains(
        "wodclock.yaml:7:9: warning: the media file 'pull-up.webm' is not in the media directory "
          + "'/etc/wodclock/media'"), "\(rendered)")
    #expect(rendered.contains("wodclock.yaml:9:12: warning: the media file 'chelsea.png'"))
    #expect(!rendered.contains("push-up.webm"), "the file that is there")

    // Named with no directory to look in.
    let nowhere = ConfigurationLoader.load(
      bytes: Array(text.replacing("media: media\n", with: "").utf8),
      file: "/etc/wodclock/wodclock.yaml", plugins: TestPlugins.all,
      system: SystemLookup(group: { _ in .found }))
    #expect(
      nowhere.diagnostics.map(\.message) == [
        "'pull-up.webm' is named as a picture or video, but the config has no media directory"
      ])
  }
}
