// SPDX-License-Identifier: MIT
// An ALSA simple mixer, for ducking: lower a named playback control (the music's `Master`)
// around a cue and put it back after. Every call returns at once.

import CALSA
import Glibc

/// A card's simple mixer (`snd_mixer` with the simple element layer).
public final class ALSAMixer {
  /// The card it was opened for, such as `default` or `hw:1`.
  public let card: String
  private var handle: OpaquePointer?

  private init(card: String, handle: OpaquePointer) {
    self.card = card
    self.handle = handle
  }

  deinit { close() }

  /// Opens the mixer of `card` and loads its controls.
  ///
  /// - Throws: an `ALSAError` such as `cannot open mixer of 'hw:99': Invalid argument (EINVAL);
  ///   hint: …`.
  public static func open(card: String) throws(ALSAError) -> ALSAMixer {
    try loadALSA()
    var opened: OpaquePointer?
    let result = calsa_mixer_open(&opened, card)
    guard result == 0, let opened else { throw ALSAError.open("mixer of", card, code: result) }
    return ALSAMixer(card: card, handle: opened)
  }

  /// The names of the controls that have a playback volume, in the card's order.
  public func playbackControlNames() -> [String] {
    guard let handle else { return [] }
    var names = [CChar](repeating: 0, count: 4_096)
    let count = calsa_mixer_playback_names(handle, &names, names.count)
    guard count > 0 else { return [] }
    return names.split(separator: 0, omittingEmptySubsequences: true).prefix(Int(count)).map {
      String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// The playback control called `name` (`Master`, `PCM`, `Speaker`).
  ///
  /// - Throws: `noSuchControl` naming the controls the card has.
  public func control(named name: String, index: Int = 0) throws(ALSAError) -> Control {
    guard let handle else {
      throw ALSAError(.system, "mixer of '\(card)': used after close", code: -EBADF)
    }
    guard (0...1_000).contains(index), let element = calsa_mixer_find(handle, name, UInt32(index))
    else {
      let names = playbackControlNames()
      throw ALSAError(
        .noSuchControl, "the mixer of '\(card)' has no playback volume control '\(name)'",
        code: -ENOENT,
        hint: names.isEmpty
          ? "it has no playback volume controls; `amixer -c CARD scontrols` lists a card's"
          : "its controls are " + names.map { "'\($0)'" }.joined(separator: ", "))
    }
    var minimum = 0
    var maximum = 0
    let result = calsa_mixer_volume_range(element, &minimum, &maximum)
    guard result == 0 else {
      throw ALSAError(
        .system,
        "mixer of '\(card)': cannot read the range of '\(name)': "
          + ALSAError.reason(result), code: result)
    }
    return Control(
      mixer: self, element: element, name: name,
      range: min(minimum, maximum)...max(minimum, maximum))
  }

  /// Takes in what changed on the card since (another program moved a control), so that
  /// values read next are current. Never waits.
  public func refresh() throws(ALSAError) {
    guard let handle else { return }
    let result = calsa_mixer_handle_events(handle)
    guard result >= 0 else {
      throw ALSAError.io("reading events", card, code: result, subject: "mixer of")
    }
  }

  /// Closes the mixer; its controls are then unusable.
  public func close() {
    if let handle { _ = calsa_mixer_close(handle) }
    handle = nil
  }

  /// A playback volume control of a mixer; valid while its mixer is open.
  public struct Control {
    private let mixer: ALSAMixer
    private let element: OpaquePointer
    /// The control's name.
    public let name: String
    /// The raw volume values it takes (a card's own steps, such as 0...87).
    public let range: ClosedRange<Int>

    fileprivate init(
      mixer: ALSAMixer, element: OpaquePointer, name: String, range: ClosedRange<Int>
    ) {
      self.mixer = mixer
      self.element = element
      self.name = name
      self.range = range
    }

    /// The volume of the first channel, in `range`.
    public func volume() throws(ALSAError) -> Int {
      try checkOpen()
      var value = 0
      let result = calsa_mixer_volume(element, &value)
      guard result == 0 else {
        throw ALSAError.io("reading '\(name)'", mixer.card, code: result, subject: "mixer of")
      }
      return value
    }

    /// Sets every channel to `value`, clamped to `range`.
    public func setVolume(_ value: Int) throws(ALSAError) {
      try checkOpen()
      let result = calsa_mixer_set_volume(
        element, min(max(value, range.lowerBound), range.upperBound))
      guard result == 0 else {
        throw ALSAError.io("setting '\(name)'", mixer.card, code: result, subject: "mixer of")
      }
    }

    private func checkOpen() throws(ALSAError) {
      guard mixer.handle != nil else {
        throw ALSAError(.system, "mixer of '\(mixer.card)': used after close", code: -EBADF)
      }
    }
  }
}
