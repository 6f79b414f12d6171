// SPDX-License-Identifier: MIT
// The voice synthesizer's pure half: what may be asked of the child, what it answers and what
// that means. No process, no descriptor: the request's lines checked and put in the bytes the
// child reads, the child's answer decoded as it comes (in pieces of any size), and its exit
// status, its words and its answer made into the voice or the reason there is none.
//
// The child's answer, all integers little-endian:
//   header   "WCV1", then UInt32 sample rate (Hz)
//   per line UInt32 sample count, then that many Int16 samples (mono), in the order asked

extension VoiceSynthesizer {
  /// The texts to make, each once in the order given, and the child's standard input: a line
  /// each.
  /// - Throws: `VoiceSynthesisError` for a language without a voice or texts that cannot be
  ///   spoken (empty, too long, with control characters, too many).
  static func request(texts: [String], language: String) throws(VoiceSynthesisError) -> (
    texts: [String], input: [UInt8]
  ) {
    func refuse(_ reason: VoiceSynthesisError.Reason, _ message: String) -> VoiceSynthesisError {
      VoiceSynthesisError(language: language, reason: reason, message: message)
    }
    guard languages.contains(language) else {
      throw refuse(
        .unknownLanguage,
        "no voice for this language; the voices are \(languages.joined(separator: ", "))")
    }
    var unique: [String] = []
    var seen: Set<String> = []
    for text in texts where seen.insert(text).inserted {
      if let problem = problem(withLine: text) { throw refuse(.badText, problem) }
      unique.append(text)
    }
    guard unique.count <= maximumLines else {
      throw refuse(.badText, "at most \(maximumLines) different lines, got \(unique.count)")
    }
    var input: [UInt8] = []
    for text in unique { input += Array(text.utf8) + [UInt8(ascii: "\n")] }
    guard input.count <= maximumTextBytes else {
      throw refuse(.badText, "at most \(maximumTextBytes) bytes of lines in all")
    }
    return (unique, input)
  }

  /// Why `text` cannot be a spoken line, or nil when it can be.
  static func problem(withLine text: String) -> String? {
    if text.allSatisfy({ $0 == " " }) { return "a spoken line is empty" }
    if text.utf8.count > maximumLineBytes {
      return "the spoken line '\(text.prefix(40))...' is longer than \(maximumLineBytes) bytes"
    }
    if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
      return "the spoken line '\(text)' has a control character (a line break, a tab)"
    }
    return nil
  }

  /// The samples from the first to the last one louder than ``silenceThreshold``: a line's
  /// sound starts with its first word (espeak-ng leads with up to 50 ms of silence) and ends
  /// with its last. Empty when all of it is silence.
  static func audibleRange(of samples: UnsafeBufferPointer<Int16>) -> Range<Int> {
    // Int: the magnitude of Int16.min does not fit an Int16.
    func loud(_ sample: Int16) -> Bool { abs(Int(sample)) > silenceThreshold }
    guard let first = samples.firstIndex(where: loud), let last = samples.lastIndex(where: loud)
    else { return 0..<0 }
    return first..<(last + 1)
  }

  static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// What a child's work comes to: its exit `status`, the start of its standard error
  /// (`errors`) and its `answer` for `texts` in `language`: each text's sound, or why there is
  /// none (the child's own words when it said any).
  static func outcome(
    of status: Subprocess.ExitStatus, errors: [UInt8], answer: VoiceStreamDecoder,
    texts: [String], language: String
  ) -> Result<[String: SpokenPCM], VoiceSynthesisError> {
    func failure(_ reason: VoiceSynthesisError.Reason, _ message: String) -> Result<
      [String: SpokenPCM], VoiceSynthesisError
    > {
      .failure(VoiceSynthesisError(language: language, reason: reason, message: message))
    }
    // The child's own words: its first line, without the program's name.
    var said =
      String(decoding: errors, as: UTF8.self)
      .split(separator: "\n").first.map(String.init) ?? ""
    let prefix = "wodclockd: voice '\(language)': "
    if said.hasPrefix(prefix) { said.removeFirst(prefix.count) }
    switch status {
    case .exited(0): break
    case .exited(69):
      return failure(.unavailable, said.isEmpty ? "espeak-ng or the voice is missing" : said)
    case .exited(let code):
      return failure(.failed, said.isEmpty ? "the synthesizer exited with code \(code)" : said)
    case .signaled(let signal):
      return failure(.failed, "the synthesizer was killed by \(signal)")
    }
    guard answer.isComplete, let sampleRate = answer.sampleRate else {
      return failure(
        .failed,
        "the synthesizer's answer ended after \(answer.lines.count) of \(texts.count) lines")
    }
    var bank: [String: SpokenPCM] = [:]
    for (text, samples) in zip(texts, answer.lines) { bank[text] = (sampleRate, samples) }
    return .success(bank)
  }
}

/// Reads the child's answer as it comes, in pieces of any size, and refuses what is not a
/// voice: a wrong header, a sample rate out of range, a line longer than the limit, more lines
/// than asked for, or more bytes in all than the limit. Never traps on what it is given.
struct VoiceStreamDecoder {
  static let magic: [UInt8] = Array("WCV1".utf8)

  let lineCount: Int
  let maximumBytes: Int
  let maximumLineSeconds: Int
  /// The child's sample rate, once its header is in.
  private(set) var sampleRate: Int?
  /// The lines complete so far.
  private(set) var lines: [[Int16]] = []
  /// What is wrong with the answer ("has no voice header"), once something is.
  private(set) var problem: String?

  /// The bytes of a header or a count not yet complete.
  private var pending: [UInt8] = []
  /// The line being read and how many samples it still lacks; nil between lines.
  private var current: [Int16] = []
  private var missing: UInt32?
  /// The low byte of a sample whose high byte has not come yet.
  private var lowByte: UInt8?
  private var totalBytes = 0

  init(lineCount: Int, maximumBytes: Int, maximumLineSeconds: Int) {
    self.lineCount = lineCount
    self.maximumBytes = maximumBytes
    self.maximumLineSeconds = maximumLineSeconds
  }

  /// Whether every line asked for is in, and nothing is left half-read.
  var isComplete: Bool {
    problem == nil && sampleRate != nil && lines.count == lineCount && missing == nil
      && pending.isEmpty
  }

  /// Gives up the lines (their samples have been handed on).
  mutating func release() {
    lines = []
    current = []
  }

  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    guard problem == nil else { return }
    totalBytes += bytes.count
    guard totalBytes <= maximumBytes else {
      problem = "is longer than \(maximumBytes / (1024 * 1024)) MiB"
      return
    }
    var index = bytes.startIndex
    while index < bytes.endIndex, problem == nil {
      if var remaining = missing {
        if let low = lowByte {
          current.append(Int16(bitPattern: UInt16(low) | UInt16(bytes[index]) << 8))
          lowByte = nil
          index += 1
          remaining -= 1
        }
        let available = UInt32(clamping: (bytes.endIndex - index) / 2)
        let whole = min(remaining, available)
        var at = index
        for _ in 0..<whole {
          current.append(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
          at += 2
        }
        index = at
        remaining -= whole
        if remaining > 0, index < bytes.endIndex {
          lowByte = bytes[index]
          index += 1
        }
        if remaining == 0 {
          lines.append(current)
          current = []
          missing = nil
        } else {
          missing = remaining
        }
        continue
      }
      pending.append(bytes[index])
      index += 1
      if sampleRate == nil {
        guard pending.count == 8 else { continue }
        guard Array(pending[0..<4]) == Self.magic else {
          problem = "has no voice header"
          return
        }
        let rate = Self.uint32(pending[4..<8])
        guard VoiceSynthesizer.sampleRates.contains(rate) else {
          problem = "has a sample rate of \(rate) Hz, not one of 8000 to 48000 Hz"
          return
        }
        sampleRate = Int(rate)
        pending = []
      } else if pending.count == 4 {
        guard lines.count < lineCount else {
          problem = "has more than the \(lineCount) lines asked for"
          return
        }
        let count = Self.uint32(pending[0..<4])
        pending = []
        let limit = UInt32(sampleRate ?? 0) * UInt32(maximumLineSeconds)
        guard count <= limit else {
          problem = "has a line longer than \(maximumLineSeconds) s"
          return
        }
        if count == 0 {
          lines.append([])
        } else {
          current.reserveCapacity(Int(count))
          missing = count
        }
      }
    }
  }

  private static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var value: UInt32 = 0
    for (shift, byte) in zip(stride(from: 0, to: 32, by: 8), bytes) {
      value |= UInt32(byte) << UInt32(shift)
    }
    return value
  }
}
