// SPDX-License-Identifier: MIT
// A mistake in one entry of a plugin's map or list setting is pointed at where it stands, key
// or value or item, as a compiler points at the token: in a block with many cues the line of
// the wrong one is the whole help.

import ConfigFormat
import Configuration
import Testing

@testable import WodclockDaemon

@Suite struct PluginDiagnosticLocationTests {
  /// "line:column: message" of every diagnostic of a config with these outputs and inputs.
  private func located(outputs: String, inputs: String = "[]") -> [String] {
    let text =
      "presets:\n  amrap: {mode: amrap, time: 10m}\ninputs: \(inputs)\noutputs:\n" + outputs
    return ConfigurationLoader.load(text: text, file: "test.yaml", plugins: PluginCatalog.schemas)
      .diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
  }

  @Test func aSpeakersCuesPointAtTheWrongCueAndTheWrongSound() {
    let messages = located(
      outputs: """
          - type: speaker
            cues:
              finish: [horn, voice_after]
              halfway: [bell, klaxon]
              lpa: [tick]
              lap: [voice, voice_after]
            volumes: {countdown: 60%, tempocount: 50%}
            lines: {get_ready: "Get set", halfwya: "Half"}
            quiet_hours: ["22:00-06:30", "late"]
        """)
    #expect(messages.contains("8:23: unknown sound 'klaxon' for cue 'halfway'"), "\(messages)")
    #expect(messages.contains("9:7: unknown cue 'lpa' in 'cues'"), "\(messages)")
    #expect(messages.contains("10:12: cue 'lap' has both 'voice' and 'voice_after'"), "\(messages)")
    #expect(messages.contains("11:31: unknown cue 'tempocount' in 'volumes'"), "\(messages)")
    #expect(messages.contains("12:35: unknown line 'halfwya' in 'lines'"), "\(messages)")
    #expect(messages.contains("13:34: invalid quiet hours 'late'"), "\(messages)")
  }

  @Test func aSpeakersSoundFilesPointAtTheFileAndTheName() {
    let messages = located(
      outputs: """
          - type: speaker
            sounds: {airhorn: /nonexistent/airhorn.wav, beep: /nonexistent/beep.wav}
        """)
    #expect(
      messages.contains { $0.hasPrefix("6:23: cannot read the sound 'airhorn'") }, "\(messages)")
    #expect(
      messages.contains("6:49: the sound name 'beep' is one of the built-in sounds"),
      "\(messages)")
  }

  @Test func aBuzzersPatternsAndALampsRolesPointAtTheEntry() {
    let messages = located(
      outputs: """
          - type: gpio-buzzer
            line: GPIO18
            patterns:
              countdown: 100ms
              countdwn: 100ms
              finish: [200ms, 100ms, 5s]
          - type: gpio-signal
            lines: {work: GPIO5, wrok: GPIO6, rest: "GPIO 6"}
        """)
    #expect(messages.contains("9:7: unknown cue 'countdwn' in 'patterns'"), "\(messages)")
    #expect(
      messages.contains("10:30: pattern 'finish' sounds for 5s, longer than max_on_time 3s"),
      "\(messages)")
    #expect(messages.contains("12:26: unknown role 'wrok' in 'lines'"), "\(messages)")
    #expect(messages.contains("12:45: invalid GPIO line 'GPIO 6'"), "\(messages)")
  }

  @Test func aRemotesKeysPointAtTheKeyAndTheTarget() {
    let messages = located(
      outputs: "  - {type: log}\n",
      inputs: """
        [{type: usb-remote, device: "046d:c52d",
          keys: {KEY_PAGEDOWN: action start, KEY_PAGEDWN: action pause, KEY_B: jump, KEY_C: action strat},
          repeat: [KEY_PAGEDOWN, KEY_VOLUMEUPP]}]
        """)
    #expect(messages.contains("4:38: unknown key 'KEY_PAGEDWN' in 'keys'"), "\(messages)")
    #expect(
      messages.contains(
        "4:72: input 'usb-remote' uses control 'jump', which 'controls' does not define"),
      "\(messages)")
    #expect(messages.contains("4:85: cannot read 'action strat' for key 'KEY_C'"), "\(messages)")
    #expect(messages.contains("5:26: unknown key 'KEY_VOLUMEUPP' in 'repeat'"), "\(messages)")
  }

  @Test func aButtonNamingAnUndefinedControlIsPointedAt() {
    let messages = located(
      outputs: "  - {type: log}\n",
      inputs: """
        [{type: gpio-button,
          buttons: [{line: GPIO17, control: start}, {line: GPIO22, control: strat}]}]
        """)
    #expect(
      messages.contains {
        $0.hasPrefix("4:45: input 'gpio-button' uses control 'strat'")
      }, "\(messages)")
  }
}
