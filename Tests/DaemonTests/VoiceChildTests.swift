// SPDX-License-Identifier: MIT
// The voice synthesizer's real child, `wodclockd --synthesize-voice LANG`, run from the built
// binary for each display language: every line comes back as sound of a plausible length that
// starts with the word, and a language without a voice is a clear error.

import HardwareKit
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

/// The synthesizer of the daemon under test: the wodclockd that `swift build` made.
let builtSynthesizer = VoiceSynthesizer(
  command: [binaryDirectory + "/wodclockd", DaemonOptions.synthesizeVoiceFlag])

/// The seeds' kinds of line in each language: the count-in, the counts three, two, one
/// (indices 3 to 5, one or two syllables), TempoRep's phases and rest, the rounds remaining
/// and the end.
let spokenLines: [String: [String]] = [
  "en": [
    "get ready", "halfway", "ten seconds", "three", "two", "one", "rest", "down", "hold", "up",
    "five rounds to go", "well done",
  ],
  "da": [
    "gør dig klar", "halvvejs", "ti sekunder", "tre", "to", "en", "hvil", "ned", "hold", "op",
    "fem runder tilbage", "godt gået",
  ],
  "es": [
    "prepárate", "a mitad", "diez segundos", "tres", "dos", "uno", "descanso", "abajo",
    "mantén", "arriba", "quedan cinco rondas", "bien hecho",
  ],
  "nl": [
    "maak je klaar", "halverwege", "tien seconden", "drie", "twee", "een", "rust", "omlaag",
    "vasthouden", "omhoog", "nog vijf rondes", "goed gedaan",
  ],
  "fr": [
    "préparez-vous", "à mi-chemin", "dix secondes", "trois", "deux", "un", "repos", "en bas",
    "tenez", "en haut", "encore cinq tours", "bien joué",
  ],
  "de": [
    "mach dich bereit", "Halbzeit", "zehn Sekunden", "drei", "zwei", "eins", "Pause", "runter",
    "halten", "hoch", "noch fünf Runden", "gut gemacht",
  ],
]

@Suite struct VoiceChildTests {
  @Test(arguments: VoiceSynthesizer.languages)
  func everyLineComesBackAsSpeech(language: String) throws {
    let texts = try #require(spokenLines[language])
    let job = try builtSynthesizer.start(texts: texts, language: language, at: MonotonicClock.now())
    defer { job.cancel() }
    let bank = try finish(job).outcome.get()
    #expect(bank.count == texts.count)
    for (index, text) in texts.enumerated() {
      let line = try #require(bank[text], "\(language): '\(text)'")
      #expect(line.sampleRate == 22050, "espeak-ng 1.51's rate")
      let seconds = Double(line.samples.count) / Double(line.sampleRate)
      if (3...5).contains(index) {
        #expect((0.1...1.0).contains(seconds), "\(language): '\(text)' lasts \(seconds) s")
      } else {
        #expect((0.1...3.0).contains(seconds), "\(language): '\(text)' lasts \(seconds) s")
      }
      // The onset is the word: espeak-ng's leading silence (up to 50 ms) is cut, so sound
      // clearly above the noise comes within 5 ms of the first sample, and the last sample is
      // still the word's.
      let fiveMilliseconds = line.sampleRate / 200
      let threshold = VoiceSynthesizer.silenceThreshold
      let onset = line.samples.prefix(fiveMilliseconds).contains { abs(Int($0)) > threshold }
      #expect(onset, "\(language): '\(text)'")
      #expect(abs(Int(line.samples.last ?? 0)) > threshold, "\(language): '\(text)'")
      #expect(line.samples.contains { abs(Int($0)) > 4000 }, "\(language): '\(text)' is heard")
    }
  }

  @Test func aLanguageWithoutAVoiceIsAClearError() throws {
    // The parent refuses it before a child starts ...
    #expect {
      _ = try builtSynthesizer.start(texts: ["uno"], language: "it", at: MonotonicClock.now())
    } throws: { error in
      "\(error)"
        == "cannot make the voice 'it': no voice for this language; the voices are da, de, en, es, fr, nl"
    }
    // ... and the child, asked directly, says so and exits 69 (EX_UNAVAILABLE).
    let result = try run(binaryDirectory + "/wodclockd", [DaemonOptions.synthesizeVoiceFlag, "it"])
    #expect(result.status == 69)
    #expect(
      result.error
        == "wodclockd: voice 'it': no voice for this language; the voices are da, de, en, es, fr, nl\n"
    )
    #expect(result.output.isEmpty)
  }

  @Test func theChildsOptionTakesOneLanguage() {
    #expect(
      DaemonOptions.parse(["--synthesize-voice", "--config"]).map(\.task)
        == .success(.synthesizeVoice("--config")))
    #expect(
      DaemonOptions.parse(["--synthesize-voice"])
        == .failure(UsageError("'--synthesize-voice' takes one language")))
  }
}
