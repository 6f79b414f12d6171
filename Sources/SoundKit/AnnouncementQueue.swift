// SPDX-License-Identifier: MIT
// What a speaker says besides its cues: a lane's finish ("Lane 3, 7:42"), a heat's call-up
// ("Heat 3. Lane 1, Anna. Lane 2, Ben."). Each text's voice is made when it comes (a child
// process, one batch at a time), then it is said in order, a part at a time, where no cue
// sounds: the cues are on time, the announcements when there is room for them.

/// The announcements waiting to be voiced and said, oldest first, at most ``capacity``.
public struct AnnouncementQueue: Sendable {
  /// The most announcements that wait; a newer one drops the oldest.
  public static let capacity = 16
  /// The longest part said in one go, in UTF-8 bytes (about six seconds of speech): a longer
  /// text is said in parts cut at its sentences, so that a cue that comes in the middle costs
  /// a part, not the whole call-up, and each part is within what the voice's child makes.
  public static let partBytes = 120

  /// One announcement: its parts, their sounds once made, and how far it has been said.
  struct Item: Sendable {
    var text: String
    var parts: [String]
    /// The sounds of the parts, once made.
    var clips: [PCMClip]?
    /// Whether its voice is being made.
    var making = false
    /// The next part to say.
    var nextPart = 0
    /// How often a cue cut the part under way.
    var interruptions = 0
  }

  private(set) var items: [Item] = []

  public init() {}

  /// How many announcements wait.
  public var count: Int { items.count }

  /// Adds `text`, to be said after those waiting. Returns the text of the oldest one dropped
  /// to make room, if one was; a text with nothing to say is not added.
  @discardableResult
  public mutating func add(_ text: String) -> String? {
    let parts = Self.parts(of: text)
    guard !parts.isEmpty else { return nil }
    var dropped: String?
    if items.count >= Self.capacity {
      dropped = items.removeFirst().text
    }
    items.append(Item(text: text, parts: parts))
    return dropped
  }

  /// The parts whose voice is to be made now, in order: those of every announcement not made
  /// yet, when none is being made (one child at a time); nil when there are none.
  public var textsToVoice: [String]? {
    guard !items.contains(where: \.making) else { return nil }
    let texts = items.filter { $0.clips == nil }.flatMap(\.parts)
    return texts.isEmpty ? nil : texts
  }

  /// The voice of ``textsToVoice`` is being made.
  public mutating func voiceStarted() {
    for index in items.indices where items[index].clips == nil { items[index].making = true }
  }

  /// The voice being made is in: each part's sound by its text; nil, or a part missing, and
  /// those announcements are dropped (returned, to be said in the log).
  @discardableResult
  public mutating func voiceFinished(_ spoken: [String: PCMClip]?) -> [String] {
    var dropped: [String] = []
    items = items.compactMap { item in
      guard item.making else { return item }
      var item = item
      item.making = false
      let clips = item.parts.compactMap { spoken?[$0] }
      guard clips.count == item.parts.count else {
        dropped.append(item.text)
        return nil
      }
      item.clips = clips
      return item
    }
    return dropped
  }

  /// The next part to say: the oldest announcement's, once its voice is made.
  public var nextPart: PCMClip? {
    guard let first = items.first, let clips = first.clips, first.nextPart < clips.count else {
      return nil
    }
    return clips[first.nextPart]
  }

  /// The part ``nextPart`` named was said whole: the next one follows, or the announcement is
  /// done.
  mutating func partSaid() {
    guard !items.isEmpty else { return }
    items[0].nextPart += 1
    if items[0].nextPart >= items[0].parts.count { items.removeFirst() }
  }

  /// The most times a part is begun again after a cue cut it.
  static let maximumInterruptions = 5

  /// A cue cut the part under way: it is said again from its start once the cue is over,
  /// unless that happened too often (returns the announcement given up).
  @discardableResult
  mutating func partInterrupted() -> String? {
    guard !items.isEmpty else { return nil }
    items[0].interruptions += 1
    guard items[0].interruptions > Self.maximumInterruptions else { return nil }
    return items.removeFirst().text
  }

  /// Forgets every announcement (mute, quiet hours, the output stops).
  public mutating func removeAll() {
    items = []
  }

  /// `text` as it is said, in parts of at most ``partBytes`` cut after its sentences (". ",
  /// "! ", "? "), or at a space within a long sentence; control characters (a line break from
  /// a heat sheet) become spaces, and runs of spaces one.
  public static func parts(of text: String) -> [String] {
    var clean = ""
    for character in text {
      let blank = character.isWhitespace || character.unicodeScalars.contains { $0.value < 0x20 }
      if blank || character.unicodeScalars.contains(where: { $0.value == 0x7F }) {
        if !clean.isEmpty && clean.last != " " { clean.append(" ") }
      } else {
        clean.append(character)
      }
    }
    while clean.last == " " { clean.removeLast() }
    // The sentences, each with its mark.
    var sentences: [String] = []
    var current = ""
    for character in clean {
      if character == " ", let last = current.last, ".!?".contains(last) {
        sentences.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { sentences.append(current) }
    // Sentences joined while they fit a part; a sentence longer than a part cut at its spaces
    // (a word longer than a part at a character).
    var parts: [String] = []
    var part = ""
    func add(_ piece: String) {
      let joined = part.isEmpty ? piece : part + " " + piece
      if joined.utf8.count <= partBytes {
        part = joined
        return
      }
      if !part.isEmpty { parts.append(part) }
      part = piece
    }
    for sentence in sentences {
      if sentence.utf8.count <= partBytes {
        add(sentence)
        continue
      }
      for word in sentence.split(separator: " ") {
        var word = String(word)
        // A character longer than a part (combining marks without end) is left out.
        while word.utf8.count > partBytes {
          var head = ""
          for character in word {
            guard head.utf8.count + String(character).utf8.count <= partBytes else { break }
            head.append(character)
          }
          guard !head.isEmpty else { break }
          add(head)
          word.removeFirst(head.count)
        }
        if !word.isEmpty && word.utf8.count <= partBytes { add(word) }
      }
    }
    if !part.isEmpty { parts.append(part) }
    return parts
  }
}
