// SPDX-License-Identifier: MIT
// The spoken cues' voice, made off the event loop. libespeak-ng and its data add several MB to
// any process that loads them (CEspeakNG.c), and synthesis takes CPU time the loop cannot give.
// So a short-lived child process (posix_spawn, `wodclockd --synthesize-voice LANG`) reads the
// lines on its standard input, synthesizes each, writes their PCM to its standard output and
// exits; the loop reads that without waiting, keeps the samples in memory, and ends a child
// that takes too long. The daemon itself never maps the library.
//
// The child's answer, all integers little-endian:
//   header   "WCV1", then UInt32 sample rate (Hz)
//   per line UInt32 sample count, then that many Int16 samples (mono), in the order asked

import CEspeakNG
import CLinux
import Glibc

/// One spoken line's sound: 16-bit signed mono samples at `sampleRate` Hz.
public typealias SpokenPCM = (sampleRate: Int, samples: [Int16])

/// Makes the voice of one language in a child process, without making its caller wait.
public struct VoiceSynthesizer: Sendable {
  /// The program and the arguments before the language, such as `["/usr/bin/wodclockd",
  /// "--synthesize-voice"]`.
  public var command: [String]
  /// How long a child may take, in nanoseconds, before it is ended and the voice reported
  /// missing.
  public var timeout: Int64

  /// 30 s: sixty lines take about 0.1 s on a desktop (`wodclock-bench voice`); a Pi Zero's core
  /// is some 20 times slower, and the child runs at a lower priority than the daemon.
  public static let defaultTimeout: Int64 = 30_000_000_000
  /// The display languages and espeak-ng 1.51's voice for each ("en" is its British English).
  public static let voices: [(language: String, voice: String)] = [
    ("da", "da"), ("de", "de"), ("en", "en"), ("es", "es"), ("fr", "fr"), ("nl", "nl"),
  ]
  /// The languages with a voice.
  public static var languages: [String] { voices.map(\.language) }
  /// Brisk but clear over music: espeak-ng's default is 175 words per minute.
  static let wordsPerMinute: Int32 = 185
  /// The most lines one child makes.
  public static let maximumLines = 256
  /// The longest line of text, in UTF-8 bytes.
  public static let maximumLineBytes = 200
  /// All the lines' text fits a pipe's buffer (64 KiB, pipe(7)), so it is written before the
  /// child starts and nobody waits on it.
  static let maximumTextBytes = 32 * 1024
  /// The longest spoken line, in seconds of sound.
  public static let maximumLineSeconds = 10
  /// The most PCM the parent takes from one child: twice the 2 MB a language's lines are
  /// meant to take, so the daemon's memory stays bounded whatever a child says.
  public static let maximumBankBytes = 4 * 1024 * 1024
  /// The sample rates a child may answer with (espeak-ng's is 22050 Hz).
  static let sampleRates: ClosedRange<UInt32> = 8000...48000
  /// Below this magnitude a sample counts as silence when a line's ends are trimmed: about
  /// -40 dBFS, under espeak-ng's breath noise between words and far under its speech.
  public static let silenceThreshold = 300

  public init(command: [String], timeout: Int64 = defaultTimeout) {
    self.command = command
    self.timeout = timeout
  }

  /// Starts making `language`'s voice for `texts`, at monotonic instant `now`; the child is
  /// ended at `now` + ``timeout``. A text given twice is made once.
  /// - Throws: `VoiceSynthesisError` for a language without a voice or texts that cannot be
  ///   spoken (empty, too long, with control characters, too many), and when the child cannot
  ///   be started.
  public func start(texts: [String], language: String, at now: Int64) throws(VoiceSynthesisError)
    -> VoiceSynthesisJob
  {
    func refuse(_ reason: VoiceSynthesisError.Reason, _ message: String) -> VoiceSynthesisError {
      VoiceSynthesisError(language: language, reason: reason, message: message)
    }
    guard Self.languages.contains(language) else {
      throw refuse(
        .unknownLanguage,
        "no voice for this language; the voices are \(Self.languages.joined(separator: ", "))")
    }
    var unique: [String] = []
    var seen: Set<String> = []
    for text in texts where seen.insert(text).inserted {
      if let problem = Self.problem(withLine: text) { throw refuse(.badText, problem) }
      unique.append(text)
    }
    guard unique.count <= Self.maximumLines else {
      throw refuse(.badText, "at most \(Self.maximumLines) different lines, got \(unique.count)")
    }
    guard let program = command.first else { throw refuse(.failed, "no synthesizer program") }
    var input: [UInt8] = []
    for text in unique { input += Array(text.utf8) + [UInt8(ascii: "\n")] }
    guard input.count <= Self.maximumTextBytes else {
      throw refuse(.badText, "at most \(Self.maximumTextBytes) bytes of lines in all")
    }
    do throws(SystemError) {
      let pipe = try FileDescriptor.pipe()
      defer { try? pipe.readEnd.close() }
      do throws(SystemError) {
        // Written while this process holds the read end: no SIGPIPE, no wait (it fits).
        try pipe.writeEnd.setNonBlocking()
        try pipe.writeEnd.writeAll(input)
      } catch {
        try? pipe.writeEnd.close()
        throw error
      }
      try pipe.writeEnd.close()
      let child = try Subprocess.spawn(
        executable: program, arguments: Array(command.dropFirst()) + [language],
        standardInput: .fileDescriptor(pipe.readEnd), standardOutput: .pipe,
        standardError: .pipe)
      let deadline = now > Int64.max - timeout ? Int64.max : now + max(0, timeout)
      return VoiceSynthesisJob(
        language: language, texts: unique, timeout: timeout, deadline: deadline, child: child)
    } catch {
      throw refuse(.failed, "cannot start the synthesizer: \(error)")
    }
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

  // MARK: - The child's side

  /// The child's half: reads lines from `input` until its end, synthesizes each with
  /// libespeak-ng in `language`'s voice, trims the silence espeak-ng puts before and after the
  /// words, and writes them to `output` in the form the parent reads. For a process of its own
  /// (`wodclockd --synthesize-voice LANG`), never for the event loop: it loads libespeak-ng.
  /// - Returns: the exit status: 0 when every line was written; 69 (EX_UNAVAILABLE) when the
  ///   library, its data or the voice is missing; 65 (EX_DATAERR) for lines that cannot be
  ///   spoken; 70 (EX_SOFTWARE) when espeak-ng fails; 74 (EX_IOERR) when reading or writing
  ///   fails. The reason is a line on standard error.
  public static func synthesizeLines(
    language: String, input: FileDescriptor = .standardInput,
    output: FileDescriptor = .standardOutput
  ) -> Int32 {
    func fail(_ status: Int32, _ message: String, hint: String? = nil) -> Int32 {
      StandardError.writeLine(
        "wodclockd: voice '\(language)': \(message)" + (hint.map { "\nhint: \($0)" } ?? ""))
      return status
    }
    // Synthesis is seconds of CPU on a small Pi: it must not hold the daemon's real-time
    // priority (the unit resets it on fork; a daemon started otherwise might not), and it
    // yields to the daemon's loop on a single core.
    try? SchedulingPolicy.normal.apply()
    _ = nice(10)
    guard let voice = voices.first(where: { $0.language == language })?.voice else {
      return fail(
        69, "no voice for this language; the voices are \(languages.joined(separator: ", "))")
    }
    var text: [UInt8] = []
    while true {
      guard let result = try? input.read(appendingTo: &text, maximumCount: 4096) else {
        return fail(74, "cannot read the lines")
      }
      if case .endOfFile = result { break }
      if case .wouldBlock = result { _ = poll(nil, 0, 10) }
      if text.count > maximumTextBytes {
        return fail(65, "more than \(maximumTextBytes) bytes of lines")
      }
    }
    let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .dropLast(text.last == UInt8(ascii: "\n") ? 1 : 0).map { String(decoding: $0, as: UTF8.self) }
    if let problem = lines.lazy.compactMap(problem(withLine:)).first { return fail(65, problem) }
    guard lines.count <= maximumLines else {
      return fail(65, "at most \(maximumLines) lines, got \(lines.count)")
    }

    var message = [CChar](repeating: 0, count: 512)
    func said(_ text: [CChar]) -> String {
      String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let rate = cespeak_load(&message, message.count)
    guard rate > 0 else {
      return fail(
        69, "cannot load espeak-ng: \(said(message))",
        hint: "install the Debian packages libespeak-ng1 and espeak-ng-data")
    }
    guard cespeak_select_voice(voice, &message, message.count) == 0 else {
      return fail(
        69, "espeak-ng has no voice '\(voice)': \(said(message))",
        hint: "install the Debian package espeak-ng-data")
    }
    _ = cespeak_set_rate(wordsPerMinute)
    guard sampleRates.contains(UInt32(rate)) else {
      return fail(70, "espeak-ng's sample rate \(rate) Hz is not one of 8000 to 48000 Hz")
    }
    do throws(SystemError) {
      try output.writeAll(Array("WCV1".utf8) + littleEndian(UInt32(rate)))
      let maximumSamples = Int(rate) * maximumLineSeconds
      for line in lines {
        var samples: UnsafePointer<Int16>?
        var count = 0
        let status = cespeak_synthesize(
          line, maximumSamples, &samples, &count, &message, message.count)
        if status > 0 {
          return fail(65, "the line '\(line)' is longer than \(maximumLineSeconds) s")
        }
        guard status == 0 else {
          return fail(70, "espeak-ng cannot say '\(line)': \(said(message))")
        }
        let sound = UnsafeBufferPointer(start: samples, count: samples == nil ? 0 : count)
        let spoken = sound[audibleRange(of: sound)]
        var record = littleEndian(UInt32(spoken.count))
        record.reserveCapacity(4 + 2 * spoken.count)
        for sample in spoken {
          let bits = UInt16(bitPattern: sample)
          record.append(UInt8(truncatingIfNeeded: bits))
          record.append(UInt8(truncatingIfNeeded: bits >> 8))
        }
        try output.writeAll(record)
      }
    } catch {
      return fail(74, "cannot write the voice: \(error)")
    }
    return 0
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
}

/// Why a voice could not be made.
public struct VoiceSynthesisError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Reason: Hashable, Sendable {
    /// The language has no voice.
    case unknownLanguage
    /// A line cannot be spoken: empty, too long, with control characters, or too many.
    case badText
    /// espeak-ng, its data or the voice is not installed (the child's exit status 69).
    case unavailable
    /// No voice within the synthesizer's timeout; the child was ended.
    case timedOut
    /// Anything else: the child failed, crashed, or said what is not a voice.
    case failed
  }

  /// The language whose voice was asked for.
  public var language: String
  public var reason: Reason
  /// What went wrong, in the child's words or the parent's.
  public var message: String

  public init(language: String, reason: Reason, message: String) {
    self.language = language
    self.reason = reason
    self.message = message
  }

  /// `cannot make the voice 'fr': the synthesizer was killed by SIGSEGV`.
  public var description: String { "cannot make the voice '\(language)': \(message)" }
}

/// Where a voice being made is.
public enum VoiceSynthesisProgress: Sendable {
  /// The child is still at work; `linesDone` of `lineCount` lines are in.
  case running(linesDone: Int, lineCount: Int)
  /// The voice is made: each text's sound, or why there is none.
  case finished(Result<[String: SpokenPCM], VoiceSynthesisError>)
}

/// One language's voice being made in a child process.
///
/// Watch every one of ``descriptors`` for readability and call ``handleReadable(at:)`` when
/// one is readable, and again at ``deadline``. The descriptors stay open until ``cancel()`` or
/// until the job is released, so that a loop still watching them can let go of them first
/// (epoll(7) tracks the open file, not the number).
public final class VoiceSynthesisJob {
  /// The language whose voice is being made.
  public let language: String
  /// The texts asked for, each once, in the order the child makes them.
  public let texts: [String]
  /// When the child is ended if it has not finished (monotonic nanoseconds).
  public let deadline: Int64
  /// What to watch for readability: the child's standard output and standard error, and a
  /// pidfd that turns readable when the child has ended (pidfd_open(2), Linux 5.3) where there
  /// is one.
  public let descriptors: [FileDescriptor]

  /// The most bytes read from the child's output in one call, so one call never holds the
  /// loop for long (two 64 KiB pipe buffers' worth).
  static let readBudget = 128 * 1024
  /// The most of the child's standard error kept for the message.
  static let maximumErrorBytes = 1024

  private let timeout: Int64
  private let child: Subprocess
  private let output: FileDescriptor?
  private let errors: FileDescriptor?
  private let exitNotice: FileDescriptor?
  private var decoder: VoiceStreamDecoder
  private var errorText: [UInt8] = []
  private var outputEnded = false
  private var errorsEnded = false
  private var running = true
  private var exitStatus: Subprocess.ExitStatus?
  private var outcome: Result<[String: SpokenPCM], VoiceSynthesisError>?
  private var released = false
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  init(language: String, texts: [String], timeout: Int64, deadline: Int64, child: Subprocess) {
    self.language = language
    self.texts = texts
    self.timeout = timeout
    self.deadline = deadline
    self.child = child
    output = child.standardOutput
    errors = child.standardError
    try? output?.setNonBlocking()
    try? errors?.setNonBlocking()
    let pidfd = clinux_pidfd_open(child.processID)
    exitNotice = pidfd >= 0 ? FileDescriptor(rawValue: pidfd) : nil
    descriptors = [output, errors, exitNotice].compactMap { $0 }
    decoder = VoiceStreamDecoder(
      lineCount: texts.count, maximumBytes: VoiceSynthesizer.maximumBankBytes,
      maximumLineSeconds: VoiceSynthesizer.maximumLineSeconds)
  }

  deinit { cancel() }

  /// Whether the child still runs (tests).
  public var isRunning: Bool { running }

  /// The child's process id (tests).
  public var processID: Int32 { child.processID }

  /// Reads what the child has written (at most ``readBudget`` bytes of it), never waiting. At
  /// or after ``deadline`` without the whole voice the child is ended and the job fails with
  /// `.timedOut`; a child that writes what is not a voice is ended at once.
  public func handleReadable(at now: Int64) -> VoiceSynthesisProgress {
    if let outcome { return .finished(outcome) }
    guard !released else {
      return .finished(.failure(error(.failed, "the synthesis was cancelled")))
    }
    readOutput()
    readErrors()
    if let problem = decoder.problem {
      end()
      return finish(.failure(error(.failed, "the synthesizer's answer \(problem)")))
    }
    var status = exitStatus
    do {
      if status == nil { status = try child.exitStatusIfEnded() }
      if status == nil && outputEnded && errorsEnded && exitNotice == nil {
        // Both pipes end when the child closes them in exiting: what is left of the exit is
        // the kernel's (this is the path without a pidfd only).
        status = try child.wait()
      }
    } catch {
      // ECHILD: reaped elsewhere (SIGCHLD ignored): its answer is what it wrote.
      status = .exited(decoder.isComplete ? 0 : -1)
    }
    if let status {
      // Reaped once: what is left in the pipe is read on the next calls.
      exitStatus = status
      running = false
      if outputEnded {
        readErrors()
        return finish(interpret(status))
      }
    }
    if now >= deadline {
      end()
      return finish(
        .failure(
          error(
            .timedOut, "no voice within \(timeout / 1_000_000_000) s; the synthesizer was ended"))
      )
    }
    return .running(linesDone: decoder.lines.count, lineCount: texts.count)
  }

  /// Ends the child if it still runs, and closes the job's descriptors. The job has no result
  /// afterwards unless it had one before.
  public func cancel() {
    end()
    guard !released else { return }
    released = true
    for descriptor in descriptors { try? descriptor.close() }
  }

  private func finish(_ result: Result<[String: SpokenPCM], VoiceSynthesisError>)
    -> VoiceSynthesisProgress
  {
    outcome = result
    // The samples now belong to the result; the decoder's copy would double the memory.
    decoder.release()
    return .finished(result)
  }

  private func error(_ reason: VoiceSynthesisError.Reason, _ message: String)
    -> VoiceSynthesisError
  {
    VoiceSynthesisError(language: language, reason: reason, message: message)
  }

  /// Kills and reaps a child that still runs. SIGKILL cannot be caught: the child runs no more
  /// code of its own, and the wait is only the kernel taking it down.
  private func end() {
    guard running else { return }
    running = false
    try? child.kill(.kill)
    _ = try? child.wait()
  }

  /// Feeds the decoder what the child wrote so far, up to the budget.
  private func readOutput() {
    guard let output, !outputEnded, !released else { return }
    var taken = 0
    while taken < Self.readBudget, decoder.problem == nil {
      let result = chunk.withUnsafeMutableBytes { try? output.read(into: $0) }
      switch result {
      case .bytes(let count)?:
        taken += count
        decoder.feed(chunk[..<count])
      case .wouldBlock?: return
      case .endOfFile?:
        outputEnded = true
        return
      case nil:
        outputEnded = true
        return
      }
    }
  }

  /// Keeps the start of what the child says on its standard error, for the message.
  private func readErrors() {
    guard let errors, !errorsEnded, !released else { return }
    var bytes: [UInt8] = []
    // A child that writes without end to its standard error is ended at the deadline; until
    // then each call reads at most a pipe's worth of it.
    for _ in 0..<64 {
      bytes.removeAll(keepingCapacity: true)
      guard let result = try? errors.read(appendingTo: &bytes, maximumCount: 1024) else {
        errorsEnded = true
        return
      }
      switch result {
      case .bytes:
        errorText += bytes.prefix(Self.maximumErrorBytes - errorText.count)
      case .wouldBlock: return
      case .endOfFile:
        errorsEnded = true
        return
      }
    }
  }

  /// The job's outcome from the child's exit and what it wrote.
  private func interpret(_ status: Subprocess.ExitStatus) -> Result<
    [String: SpokenPCM], VoiceSynthesisError
  > {
    // The child's own words: its first line, without the program's name.
    var said =
      String(decoding: errorText, as: UTF8.self)
      .split(separator: "\n").first.map(String.init) ?? ""
    let prefix = "wodclockd: voice '\(language)': "
    if said.hasPrefix(prefix) { said.removeFirst(prefix.count) }
    switch status {
    case .exited(0): break
    case .exited(69):
      return .failure(
        error(.unavailable, said.isEmpty ? "espeak-ng or the voice is missing" : said))
    case .exited(let code):
      return .failure(
        error(.failed, said.isEmpty ? "the synthesizer exited with code \(code)" : said))
    case .signaled(let signal):
      return .failure(error(.failed, "the synthesizer was killed by \(signal)"))
    }
    guard decoder.isComplete, let sampleRate = decoder.sampleRate else {
      return .failure(
        error(
          .failed,
          "the synthesizer's answer ended after \(decoder.lines.count) of \(texts.count) lines"))
    }
    var bank: [String: SpokenPCM] = [:]
    for (text, samples) in zip(texts, decoder.lines) { bank[text] = (sampleRate, samples) }
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
