// SPDX-License-Identifier: MIT
// The embedded web files: every one is there with its type, and the pages name only files the
// table holds and nothing the Content-Security-Policy would block.

import JSONKit
import Testing
import WebAssets

/// One file of the table, read into Swift.
struct EmbeddedFile {
  var path: String
  var bytes: [UInt8]
  var contentType: String
  var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Every file of the C table, in its order.
func embeddedFiles() -> [EmbeddedFile] {
  (0..<web_asset_count()).map { index in
    let asset = web_asset(index)
    let bytes = asset.bytes.map { Array(UnsafeBufferPointer(start: $0, count: asset.length)) }
    return EmbeddedFile(
      path: asset.path.map { String(cString: $0) } ?? "",
      bytes: bytes ?? [],
      contentType: asset.content_type.map { String(cString: $0) } ?? "")
  }
}

/// The tags of an HTML text with the value of one of their attributes: `(tag, value)`.
func attributeValues(_ attribute: String, in html: String) -> [(tag: String, value: String)] {
  let marker = " \(attribute)=\""
  var values: [(String, String)] = []
  for piece in html.split(separator: "<").dropFirst() {
    let tag = String(piece.prefix { $0.isLetter })
    let inside = piece.prefix { $0 != ">" }
    guard let start = inside.firstRange(of: marker) else { continue }
    let rest = inside[start.upperBound...]
    values.append((tag, String(rest.prefix { $0 != "\"" })))
  }
  return values
}

/// Whether an HTML text has an `onclick="…"`-like attribute: ` on`, letters, `=`.
func hasEventHandlerAttribute(_ html: String) -> Bool {
  var rest = Substring(html)
  while let start = rest.firstRange(of: " on") {
    rest = rest[start.upperBound...]
    let name = rest.prefix { ("a"..."z").contains($0) }
    if !name.isEmpty && rest.dropFirst(name.count).first == "=" { return true }
  }
  return false
}

@Suite struct WebAssetsTests {
  static let html = "text/html; charset=utf-8"
  static let expected: [(path: String, type: String)] = [
    ("/", html),
    ("/remote", html),
    ("/judge", html),
    ("/assets/style.css", "text/css; charset=utf-8"),
    ("/assets/common.js", "text/javascript; charset=utf-8"),
    ("/assets/display.js", "text/javascript; charset=utf-8"),
    ("/assets/remote.js", "text/javascript; charset=utf-8"),
    ("/assets/judge.js", "text/javascript; charset=utf-8"),
    ("/assets/exercises.json", "application/json"),
    ("/assets/exercises-LICENSE.txt", "text/plain; charset=utf-8"),
  ]

  @Test func everyFileIsThereNonEmptyWithItsType() {
    let files = embeddedFiles()
    #expect(files.map(\.path) == Self.expected.map(\.path))
    for (file, expected) in zip(files, Self.expected) {
      #expect(!file.bytes.isEmpty, "\(file.path) is empty")
      #expect(file.contentType == expected.type, "\(file.path)")
    }
    #expect(web_asset(web_asset_count()).path == nil, "past the end there is no file")
  }

  @Test func pagesReferenceOnlyEmbeddedFilesAndNothingInline() {
    let files = embeddedFiles()
    let paths = Set(files.map(\.path))
    for page in files where page.contentType == Self.html {
      let text = page.text
      // What the page loads: only files of the table (the policy would block anything else).
      let styles = attributeValues("href", in: text).filter { $0.tag == "link" }
      let loaded = attributeValues("src", in: text) + styles
      #expect(loaded.contains { $0.tag == "script" }, "\(page.path) loads no script")
      #expect(loaded.contains { $0.tag == "link" }, "\(page.path) loads no style sheet")
      for reference in loaded.map(\.value) where !reference.hasPrefix("data:") {
        #expect(paths.contains(reference), "\(page.path) loads \(reference)")
      }
      // Where it links to: a page or file of the table, or a page elsewhere on the web.
      for link in attributeValues("href", in: text) where link.tag == "a" {
        #expect(
          paths.contains(link.value) || link.value.hasPrefix("https://"),
          "\(page.path) links to \(link.value)")
      }
      // The policy is script-src 'self' and style-src 'self': nothing inline runs or applies.
      #expect(!text.contains(" style=\""), "\(page.path) has an inline style attribute")
      #expect(!text.contains("<style"), "\(page.path) has an inline style sheet")
      #expect(!hasEventHandlerAttribute(text), "\(page.path) has an inline event handler")
      for script in text.split(separator: "<script").dropFirst() {
        #expect(script.hasPrefix(" src=\"/assets/"), "\(page.path) has an inline script")
      }
    }
  }

  @Test func scriptsFetchOnlyEmbeddedAssets() {
    let files = embeddedFiles()
    let paths = Set(files.map(\.path))
    for script in files where script.path.hasSuffix(".js") {
      var rest = Substring(script.text)
      while let start = rest.firstRange(of: "\"/assets/") {
        let tail = rest[rest.index(after: start.lowerBound)...]
        let end = tail.firstIndex(of: "\"") ?? tail.endIndex
        #expect(paths.contains(String(tail[..<end])), "\(script.path) names \(tail[..<end])")
        rest = tail[end...]
      }
    }
  }

  @Test func theExerciseCatalogueIsTheWholeDatabase() throws {
    let catalogue = try #require(embeddedFiles().first { $0.path == "/assets/exercises.json" })
    let value = try JSONValue.parse(catalogue.bytes)
    let exercises = try #require(value["exercises"]?.arrayValue)
    #expect(exercises.count == 873)
    let licence = try #require(
      embeddedFiles().first { $0.path == "/assets/exercises-LICENSE.txt" })
    #expect(licence.text.contains("public domain"))
  }
}
