// SPDX-License-Identifier: MIT
// The voice synthesizer's parent half against stand-in children (shell scripts) that answer,
// fail, crash, say nonsense or never finish; and its answer's decoder fed in pieces of any
// size. The real child (espeak-ng in every language) is run by DaemonTests.

import Glibc
import Testing
import WodclockTestSupport

@testable import HardwareKit

@Suite struct VoiceSynthesisTests {
  static let second: Int64 = 1_000_000_000

  /// A synthesizer whose child is `script` run by the shell, with the language as `$1`.
  func standIn(_ script: String, timeout: Int64 = VoiceSynthesizer.defaultTimeout)
    -> VoiceSynthesizer
  {
    VoiceSynthesizer(command: ["/bin/sh", "-c", script, "synthesizer"], timeout: timeout)
  }

  /// The bytes of an answer: the header at `rate`, then each line's samples.
  func answer(rate: UInt32 = 22050, _ lines: [[Int16]]) -> [UInt8] {
    var bytes = Array("WCV1".utf8) + VoiceSynthesizer.littleEndian(rate)
    for line in lines {
      bytes += VoiceSynthesizer.littleEndian(UInt32(line.count))
      for sample in line {
        let bits = UInt16(bitPattern: sample)
        bytes += [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)]
      }
    }
    return bytes
  }

  /// `bytes` as a shell `printf` format (octal escapes), for a stand-in to write.
  func printf(_ bytes: [UInt8]) -> String {
    "printf '" + bytes.map { "\\" + String($0, radix: 8) }.joined() + "'"
  }

  func failure(_ outcome: Result<[String: SpokenPCM], VoiceSynthesisError>) -> VoiceSynthesisError?
  {
    if case .failure(let error) = outcome { return error }
    return nil
  }

  @Test func aStandInsAnswerBecomesEachTextsSound() throws {
    let lines: [[Int16]] = [[1, -2, 300, Int16.min], [Int16.max], []]
    // The stand-in reads the texts first, as the real child does, and checks the language.
    let script = "test \"$1\" = fr || exit 3; cat > /dev/null; " + printf(answer(lines))
    let job = try standIn(script).start(
      texts: ["trois", "deux", "un", "deux"], language: "fr", at: MonotonicClock.now())
    defer { job.cancel() }
    #expect(job.texts == ["trois", "deux", "un"], "a text asked twice is made once")
    let bank = try finish(job).outcome.get()
    #expect(bank.count == 3)
    #expect(bank["trois"]?.sampleRate == 22050)
    #expect(bank["trois"]?.samples == lines[0])
    #expect(bank["deux"]?.samples == lines[1])
    #expect(bank["un"]?.samples == [])
    #expect(!job.isRunning, "the child is reaped")
  }

  @Test func theTextsReachTheChildOneALine() throws {
    // The stand-in answers with one sample per text, its value the text's length in bytes.
    let script = """
      printf 'WCV1\\42\\126\\0\\0'
      while IFS= read -r line; do
        n=$(printf %s "$line" | wc -c); printf "\\\\1\\\\0\\\\0\\\\0\\\\$(printf %o $n)\\\\0"
      done
      """
    let job = try standIn(script).start(
      texts: ["one", "get ready", "écoute"], language: "en", at: MonotonicClock.now())
    defer { job.cancel() }
    let bank = try finish(job).outcome.get()
    #expect(bank["one"]?.samples == [3])
    #expect(bank["get ready"]?.samples == [9])
    #expect(bank["écoute"]?.samples == [7], "UTF-8 as it is")
  }

  @Test func garbageFromAChildIsRefusedAndTheChildEnded() throws {
    // Twenty lines of 10 s each at 22050 Hz: 8.8 MB, more than a child may send.
    let tenSeconds = VoiceSynthesizer.littleEndian(220_500)
    let huge =
      printf(answer([])) + "; for i in $(seq 20); do " + printf(tenSeconds)
      + "; head -c 441000 /dev/zero; done; sleep 30"
    let cases: [(String, [String], String)] = [
      ("printf 'RIFF\\0\\0\\0\\0'; sleep 30", ["hold"], "has no voice header"),
      (
        printf(answer(rate: 1_000_000, [])) + "; sleep 30", ["hold"],
        "has a sample rate of 1000000 Hz"
      ),
      (
        printf(answer(rate: 8000, [])) + "; printf '\\377\\377\\377\\377'; sleep 30", ["hold"],
        "has a line longer than 10 s"
      ),
      (printf(answer([[1], [2]])) + "; sleep 30", ["hold"], "has more than the 1 lines asked for"),
      (huge, (1...20).map { "\($0)" }, "is longer than 4 MiB"),
    ]
    for (script, texts, problem) in cases {
      let job = try standIn(script).start(texts: texts, language: "de", at: MonotonicClock.now())
      defer { job.cancel() }
      let error = try #require(failure(try finish(job).outcome), "\(script)")
      #expect(error.reason == .failed)
      #expect(error.message.contains(problem), "\(error)")
      #expect(!job.isRunning, "a child that says nonsense is not left running")
    }
  }

  @Test func anAnswerCutShortIsRefused() throws {
    let whole = answer([[5, 6, 7], [8]])
    for cut in [3, 8, 10, 13, whole.count - 1] {
      let job = try standIn(printf(Array(whole.prefix(cut)))).start(
        texts: ["up", "down"], language: "nl", at: MonotonicClock.now())
      defer { job.cancel() }
      let error = try #require(failure(try finish(job).outcome), "cut at \(cut)")
      #expect(error.reason == .failed)
      #expect(error.message.contains("ended after"), "\(error)")
    }
  }

  @Test func aChildsFailureKeepsItsWords() throws {
    let missing = try standIn(
      "cat > /dev/null; echo \"wodclockd: voice '$1': cannot load espeak-ng: no such file\" >&2; exit 69"
    ).start(texts: ["rest"], language: "da", at: MonotonicClock.now())
    defer { missing.cancel() }
    let unavailable = try #require(failure(try finish(missing).outcome))
    #expect(unavailable.reason == .unavailable)
    #expect(unavailable.message == "cannot load espeak-ng: no such file")
    #expect(
      unavailable.description == "cannot make the voice 'da': cannot load espeak-ng: no such file")

    let quiet = try standIn("exit 70").start(
      texts: ["rest"], language: "da", at: MonotonicClock.now())
    defer { quiet.cancel() }
    #expect(try failure(finish(quiet).outcome)?.message == "the synthesizer exited with code 70")
  }

  @Test func aChildThatCrashesIsAFailureNotATrap() throws {
    let job = try standIn(printf(Array(answer([[1]]).prefix(10))) + "; kill -SEGV $$").start(
      texts: ["one"], language: "es", at: MonotonicClock.now())
    defer { job.cancel() }
    let error = try #require(failure(try finish(job).outcome))
    #expect(error.reason == .failed)
    #expect(error.message == "the synthesizer was killed by SIGSEGV")
  }

  @Test func aChildThatHangsIsEndedAtTheDeadline() throws {
    let job = try standIn("exec sleep 60", timeout: 2 * Self.second).start(
      texts: ["halfway"], language: "en", at: 10 * Self.second)
    defer { job.cancel() }
    #expect(job.deadline == 12 * Self.second)
    guard case .running(linesDone: 0, lineCount: 1) = job.handleReadable(at: 11 * Self.second)
    else {
      Issue.record("finished before its deadline")
      return
    }
    #expect(job.isRunning)
    guard case .finished(.failure(let error)) = job.handleReadable(at: 12 * Self.second) else {
      Issue.record("still running at its deadline")
      return
    }
    #expect(error.reason == .timedOut)
    #expect(error.message == "no voice within 2 s; the synthesizer was ended")
    #expect(!job.isRunning)
    #expect(kill(job.processID, 0) != 0, "the child is gone")
  }

  @Test func whatCannotBeSpokenIsRefusedBeforeAChildStarts() {
    let synthesizer = standIn("exit 99")
    let cases: [([String], String, VoiceSynthesisError.Reason, String)] = [
      (
        ["one"], "it", .unknownLanguage,
        "no voice for this language; the voices are da, de, en, es, fr, nl"
      ),
      ([""], "en", .badText, "a spoken line is empty"),
      (["two\nlines"], "en", .badText, "has a control character"),
      ([String(repeating: "a", count: 201)], "en", .badText, "is longer than 200 bytes"),
      ((0..<257).map { "\($0)" }, "en", .badText, "at most 256 different lines, got 257"),
    ]
    for (texts, language, reason, message) in cases {
      #expect {
        _ = try synthesizer.start(texts: texts, language: language, at: MonotonicClock.now())
      } throws: { error in
        guard let error = error as? VoiceSynthesisError else { return false }
        return error.reason == reason && error.message.contains(message)
          && error.language == language
      }
    }
  }

  @Test func aProgramThatCannotStartIsAFailure() {
    let synthesizer = VoiceSynthesizer(command: ["/nonexistent/wodclockd", "--synthesize-voice"])
    #expect {
      _ = try synthesizer.start(texts: ["one"], language: "en", at: MonotonicClock.now())
    } throws: { error in
      (error as? VoiceSynthesisError)?.message.hasPrefix("cannot start the synthesizer") == true
    }
  }

  @Test func theDecoderTakesTheAnswerInPiecesOfAnySize() {
    let lines: [[Int16]] = [[1, -1, 256, -256, Int16.min, Int16.max], [], [42]]
    let bytes = answer(rate: 16000, lines)
    for size in [1, 2, 3, 7, bytes.count] {
      var decoder = VoiceStreamDecoder(lineCount: 3, maximumBytes: 1 << 20, maximumLineSeconds: 10)
      var start = 0
      while start < bytes.count {
        decoder.feed(bytes[start..<min(start + size, bytes.count)])
        start += size
      }
      #expect(decoder.problem == nil)
      #expect(decoder.isComplete, "pieces of \(size)")
      #expect(decoder.sampleRate == 16000)
      #expect(decoder.lines == lines, "pieces of \(size)")
    }
  }

  @Test func aLinesSoundStartsAtItsFirstWord() {
    let samples: [Int16] = [0, 12, -300, 5, 301, -2000, 0, 40, -301, 299, 0]
    let range = samples.withUnsafeBufferPointer { VoiceSynthesizer.audibleRange(of: $0) }
    #expect(range == 4..<9)
    let silent: [Int16] = [0, 300, -300]
    #expect(silent.withUnsafeBufferPointer { VoiceSynthesizer.audibleRange(of: $0) }.isEmpty)
    let loudest: [Int16] = [Int16.min]
    #expect(loudest.withUnsafeBufferPointer { VoiceSynthesizer.audibleRange(of: $0) } == 0..<1)
  }
}

/// What a child's work comes to, without a child: its exit status, its words and its answer.
@Suite struct VoiceOutcomeTests {
  func decoder(_ bytes: [UInt8], lines: Int) -> VoiceStreamDecoder {
    var decoder = VoiceStreamDecoder(
      lineCount: lines, maximumBytes: 1 << 20, maximumLineSeconds: 10)
    decoder.feed(bytes[...])
    return decoder
  }

  let whole: [UInt8] =
    Array("WCV1".utf8) + VoiceSynthesizer.littleEndian(16_000) + VoiceSynthesizer.littleEndian(1)
    + [7, 0]

  @Test func aWholeAnswerIsEachTextsSound() throws {
    let outcome = VoiceSynthesizer.outcome(
      of: .exited(0), errors: [], answer: decoder(whole, lines: 1), texts: ["eins"],
      language: "de")
    let bank = try outcome.get()
    #expect(bank["eins"]?.sampleRate == 16_000)
    #expect(bank["eins"]?.samples == [7])
  }

  @Test func theChildsWordsOrItsStatusSayWhyThereIsNoVoice() {
    let words = Array("wodclockd: voice 'de': no data\nhint: install it\n".utf8)
    func message(_ status: Subprocess.ExitStatus, _ errors: [UInt8], _ bytes: [UInt8])
      -> (VoiceSynthesisError.Reason, String)?
    {
      let outcome = VoiceSynthesizer.outcome(
        of: status, errors: errors, answer: decoder(bytes, lines: 1), texts: ["eins"],
        language: "de")
      guard case .failure(let error) = outcome else { return nil }
      return (error.reason, error.message)
    }
    #expect(message(.exited(69), words, []) ?? (.failed, "") == (.unavailable, "no data"))
    #expect(
      message(.exited(69), [], []) ?? (.failed, "")
        == (.unavailable, "espeak-ng or the voice is missing"))
    #expect(
      message(.exited(70), [], whole) ?? (.unavailable, "")
        == (.failed, "the synthesizer exited with code 70"))
    #expect(
      message(.signaled(.kill), [], whole) ?? (.unavailable, "")
        == (.failed, "the synthesizer was killed by SIGKILL"))
    #expect(
      message(.exited(0), [], Array(whole.dropLast())) ?? (.unavailable, "")
        == (.failed, "the synthesizer's answer ended after 0 of 1 lines"))
  }

  @Test func aRequestIsTheTextsOnceALine() throws {
    let request = try VoiceSynthesizer.request(texts: ["un", "deux", "un"], language: "fr")
    #expect(request.texts == ["un", "deux"])
    #expect(request.input == Array("un\ndeux\n".utf8))
  }
}
