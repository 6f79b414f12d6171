// SPDX-License-Identifier: MIT
// The spoken cues' voice, made off the event loop. libespeak-ng and its data add several MB to
// any process that loads them (CEspeakNG.c), and synthesis takes CPU time the loop cannot give.
// So a short-lived child process (`wodclockd --synthesize-voice LANG`, a ChildJob) reads the
// lines on its standard input, synthesizes each, writes their PCM to its standard output and
// exits; the loop reads that without waiting, keeps the samples in memory, and ends a child
// that takes too long. The daemon itself never maps the library.
//
// This file is the child's side and the job the loop watches; what is asked of the child, the
// form of its answer and what its answer means are pure, in VoiceAnswer.swift.

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
    let request = try Self.request(texts: texts, language: language)
    guard let program = command.first else {
      throw VoiceSynthesisError(
        language: language, reason: .failed, message: "no synthesizer program")
    }
    let deadline = now > Int64.max - timeout ? Int64.max : now + max(0, timeout)
    do throws(SystemError) {
      let child = try ChildJob(
        program: program, arguments: Array(command.dropFirst()) + [language],
        input: request.input, keepsErrors: true, waitsForOutputEnd: true, deadline: deadline)
      return VoiceSynthesisJob(
        language: language, texts: request.texts, timeout: timeout, child: child)
    } catch {
      throw VoiceSynthesisError(
        language: language, reason: .failed, message: "cannot start the synthesizer: \(error)")
    }
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
  public var deadline: Int64 { child.deadline }
  /// What to watch for readability: the child's standard output and standard error, and a
  /// pidfd that turns readable when the child has ended (pidfd_open(2), Linux 5.3) where there
  /// is one.
  public var descriptors: [FileDescriptor] { child.descriptors }

  private let timeout: Int64
  private let child: ChildJob
  private var decoder: VoiceStreamDecoder
  private var outcome: Result<[String: SpokenPCM], VoiceSynthesisError>?

  init(language: String, texts: [String], timeout: Int64, child: ChildJob) {
    self.language = language
    self.texts = texts
    self.timeout = timeout
    self.child = child
    decoder = VoiceStreamDecoder(
      lineCount: texts.count, maximumBytes: VoiceSynthesizer.maximumBankBytes,
      maximumLineSeconds: VoiceSynthesizer.maximumLineSeconds)
  }

  /// Whether the child still runs (tests).
  public var isRunning: Bool { child.isRunning }

  /// The child's process id (tests).
  public var processID: Int32 { child.processID }

  /// Reads what the child has written (at most a budget of it), never waiting. At or after
  /// ``deadline`` without the whole voice the child is ended and the job fails with
  /// `.timedOut`; a child that writes what is not a voice is ended at once.
  public func handleReadable(at now: Int64) -> VoiceSynthesisProgress {
    if let outcome { return .finished(outcome) }
    let progress = child.step(at: now) { bytes in
      decoder.feed(bytes)
      return decoder.problem == nil
    }
    switch progress {
    case .running:
      return .running(linesDone: decoder.lines.count, lineCount: texts.count)
    case .cancelled:
      return .finished(.failure(error(.failed, "the synthesis was cancelled")))
    case .refused:
      return finish(.failure(error(.failed, "the synthesizer's answer \(decoder.problem ?? "")")))
    case .exited(let status):
      return finish(
        VoiceSynthesizer.outcome(
          of: status ?? .exited(decoder.isComplete ? 0 : -1), errors: child.errorText,
          answer: decoder, texts: texts, language: language))
    case .timedOut:
      return finish(
        .failure(
          error(
            .timedOut, "no voice within \(timeout / 1_000_000_000) s; the synthesizer was ended")))
    }
  }

  /// Ends the child if it still runs, and closes the job's descriptors. The job has no result
  /// afterwards unless it had one before.
  public func cancel() {
    child.cancel()
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
}
