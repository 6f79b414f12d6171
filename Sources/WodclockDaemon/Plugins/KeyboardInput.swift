// SPDX-License-Identifier: MIT
// `keyboard` input: the terminal's keys, for the preview and for a keyboard on the Pi itself.

import Configuration
import HardwareKit
import WorkoutCore

/// Space toggles, `r` resets (pressed twice, so a stray key cannot wipe a workout), `n`/`p`
/// next/previous, `l` lap, `f` finish, `1`–`9` load a preset, `q` quits.
public final class KeyboardInput: InputPlugin {
  public let id: String
  public let kind = KeyboardInput.kindName
  private let input = FileDescriptor.standardInput
  private let confirmReset: Bool
  private var rawMode: RawTerminalMode?
  private var resetArmedUntil: Int64?
  private var context: PluginContext?

  /// How long the first `r` waits for the second.
  static let resetConfirmWindow: Int64 = 3_000_000_000

  public static let kindName = "keyboard"

  static let confirmReset = Setting(
    "confirm_reset", .boolean, default: true, "reset needs r pressed twice")

  public static let schema = PluginSchema(
    kind: kindName, direction: .input,
    summary: "the terminal's keyboard (space, r, n, p, l, f, 1-9, q)",
    settings: [confirmReset.spec])

  public init(instance: PluginInstance) throws {
    id = instance.id
    confirmReset = try instance.settings[Self.confirmReset]
  }

  public var watchedDescriptors: [WatchedDescriptor] {
    rawMode == nil ? [] : [WatchedDescriptor(input)]
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    guard Terminal.isTTY(input) else {
      context.log(.info, "stdin is not a terminal; keys are off")
      return
    }
    rawMode = try RawTerminalMode(input)
    try input.setNonBlocking(true)
  }

  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
    -> [InputEvent]
  {
    var bytes: [UInt8] = []
    let result: FileDescriptor.ReadResult
    do {
      result = try descriptor.read(appendingTo: &bytes, maximumCount: 256)
    } catch {
      result = .endOfFile
    }
    switch result {
    case .endOfFile:
      // The terminal hung up (its window closed, the SSH session ended): an interactive clock
      // has nobody left to show anything to, so it quits, as a shell's programs do.
      rawMode = nil
      context?.log(.notice, "the terminal closed; quitting")
      return [.quit]
    case .wouldBlock:
      return []
    case .bytes:
      break
    }
    var events: [InputEvent] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 0x1B {
        // An escape sequence (arrow keys, function keys): skip it whole.
        while index < bytes.count && !(0x40...0x7E).contains(bytes[index])
          || index < bytes.count
            && bytes[index] == UInt8(ascii: "[")
        {
          index += 1
        }
        index += 1
        continue
      }
      events += translate(byte, at: now)
    }
    return events
  }

  func translate(_ byte: UInt8, at now: Int64) -> [InputEvent] {
    switch byte {
    case UInt8(ascii: " "), 0x0D, 0x0A:
      return [.action(.engine(.toggle))]
    case UInt8(ascii: "r"), UInt8(ascii: "R"):
      if !confirmReset || (resetArmedUntil.map { now <= $0 } ?? false) {
        resetArmedUntil = nil
        return [.message(nil), .action(.engine(.reset))]
      }
      resetArmedUntil = now + Self.resetConfirmWindow
      return [.message("press r again to reset")]
    case UInt8(ascii: "n"), UInt8(ascii: "N"):
      return [.action(.engine(.next))]
    case UInt8(ascii: "p"), UInt8(ascii: "P"):
      return [.action(.engine(.previous))]
    case UInt8(ascii: "l"), UInt8(ascii: "L"):
      return [.action(.engine(.lap))]
    case UInt8(ascii: "f"), UInt8(ascii: "F"):
      return [.action(.engine(.finish))]
    case UInt8(ascii: "1")...UInt8(ascii: "9"):
      return [.loadPresetNumber(Int(byte - UInt8(ascii: "0")))]
    case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03:
      return [.quit]
    default:
      return []
    }
  }

  public func nextWakeUp(after now: Int64) -> Int64? { resetArmedUntil }

  public func handleWakeUp(at now: Int64) -> [InputEvent] {
    guard let until = resetArmedUntil, now >= until else { return [] }
    resetArmedUntil = nil
    return [.message(nil)]
  }

  public func stop() {
    rawMode?.restore()
    rawMode = nil
    _ = try? input.setNonBlocking(false)
    context = nil
  }
}
