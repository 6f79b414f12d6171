// SPDX-License-Identifier: MIT
// The contracts between the daemon and its plugins. The daemon runs one single-threaded event
// loop; plugins are called from it and must never block: they write non-blocking, queue, and
// ask for a wake-up when they need one.

import ButtonKit
import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import MatrixKit

/// What every plugin has: a name, a start and a stop, descriptors for the loop to watch and
/// a timer of its own. Inputs and outputs add what they do with them.
public protocol Plugin: AnyObject {
  /// The instance's id from the config (`wall`, `horn`), unique among plugins.
  var id: String { get }
  /// The kind name, as written after `type:`.
  var kind: String { get }
  /// Opens devices. A throw marks only this plugin as failed; the daemon retries with backoff.
  func start(_ context: PluginContext) throws
  /// Descriptors the loop watches on this plugin's behalf, each for what the plugin waits for:
  /// readable (a device's events), writable (a socket or a serial port with output queued), or
  /// both. Read after `start` and after each call into the plugin; the daemon stops watching
  /// them before `stop`. Most plugins have none.
  var watchedDescriptors: [WatchedDescriptor] { get }
  /// The plugin's own timer: a monotonic instant at which it must be called back (a
  /// long-press threshold, a blinking colon, a buzzer edge, a retry), or nil.
  func nextWakeUp(after now: Int64) -> Int64?
  /// Puts the plugin in its safe state (buzzer off, display per config) and releases devices.
  /// Must not throw and must return quickly.
  func stop()
}

extension Plugin {
  public var watchedDescriptors: [WatchedDescriptor] { [] }
  public func nextWakeUp(after now: Int64) -> Int64? { nil }
}

/// A descriptor a plugin has the loop watch, and for what.
public struct WatchedDescriptor: Hashable, Sendable {
  public var descriptor: FileDescriptor
  public var interest: EventPoller.Interest

  /// Watches `descriptor` for `interest` (readable unless told otherwise).
  public init(_ descriptor: FileDescriptor, for interest: EventPoller.Interest = .readable) {
    self.descriptor = descriptor
    self.interest = interest
  }
}

/// What the loop saw on a watched descriptor.
public struct Readiness: Hashable, Sendable {
  /// A read will not block (or the peer hung up).
  public var isReadable: Bool
  /// A write will not block.
  public var isWritable: Bool
  /// The peer closed or the device hung up (an unplugged tty).
  public var isHangup: Bool
  /// An error is pending; the next read or write reports it.
  public var isError: Bool

  public init(
    isReadable: Bool, isWritable: Bool = false, isHangup: Bool = false, isError: Bool = false
  ) {
    self.isReadable = isReadable
    self.isWritable = isWritable
    self.isHangup = isHangup
    self.isError = isError
  }

  /// Readable and nothing else: what most tests hand a plugin.
  public static let readable = Readiness(isReadable: true)

  init(_ event: EventPoller.Event) {
    self.init(
      isReadable: event.isReadable, isWritable: event.isWritable, isHangup: event.isHangup,
      isError: event.isError)
  }
}

/// A display, a sounder, a log, or a service that shows the clock elsewhere: something the
/// clock's state goes to. Its timer (``Plugin/nextWakeUp(after:)``) is answered with a frame.
public protocol OutputPlugin: Plugin {
  /// Shows `frame`. Must not block.
  func render(_ frame: OutputFrame) throws
  /// Handles what is ready on `descriptor` (non-blocking). A throw fails the output, as a
  /// failed `render` does.
  func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64) throws
  /// Drives the hardware to its safe state without starting the plugin: `wodclockd
  /// --safe-outputs`, which `ExecStopPost=` runs after the daemon ended however it ended (a
  /// SIGKILL leaves a horn's line where it was: a Raspberry Pi's pin keeps the level last
  /// driven). No default: every output says what its safe state is, or that it has nothing to
  /// secure. Throws when the device cannot be reached (no chip, no permission, unplugged).
  func driveSafe() throws -> SafeState
}

extension OutputPlugin {
  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
  {}
}

/// What `OutputPlugin.driveSafe()` left the output in.
public enum SafeState: Equatable, Sendable {
  /// The device was reached and driven safe; the words say to what ("line 18 off").
  case driven(String)
  /// The output has no device that could be left on (the terminal, the log).
  case nothingToSecure
}

/// A source of button presses and key strokes.
public protocol InputPlugin: Plugin {
  /// Reads what is ready on `descriptor` (non-blocking) and reports what the person did.
  func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64) throws
    -> [InputEvent]
  /// Called at the instant of ``Plugin/nextWakeUp(after:)``: reports what became true by then
  /// (a press held long enough).
  func handleWakeUp(at now: Int64) -> [InputEvent]
}

extension InputPlugin {
  public func handleWakeUp(at now: Int64) -> [InputEvent] { [] }
}

// MARK: - Capabilities

/// An output that re-reads files it was made from when a reload leaves its config entry
/// unchanged (a matrix's font), since one may have been replaced.
public protocol FileReloading: AnyObject {
  /// Reads the files again. Returns whether anything changed; a throw keeps what it had.
  func reloadFiles() throws -> Bool
}

/// An output whose picture a person can ask for (`wodclockctl snapshot`): an LED matrix.
protocol PictureShowing: OutputPlugin {
  /// The last picture its device was sent, before brightness, gamma and the current cap; nil
  /// before the first. While the device is away it stays the last one that reached it.
  var shownPicture: Framebuffer? { get }
  /// Whether the device is there now.
  var isConnected: Bool { get }
  /// The font its words are drawn in, for previews at other sizes.
  var captionFont: CaptionFont { get }
}

/// What an input reports.
public enum InputEvent: Equatable, Sendable {
  /// A gesture on a named control; the config's `controls:` says what it does. `pressedAt` is
  /// when the button went down by the input's own kernel timestamp (monotonic nanoseconds: a
  /// GPIO edge, an evdev key event), for a press as for a long press; nil for an input that has
  /// none. A lane's finish is that instant, not the moment the loop got round to it.
  case control(String, Gesture, pressedAt: Int64?)
  /// An action chosen by the input itself (the terminal keyboard's fixed keys).
  case action(ControlAction)
  /// Load the n-th preset of the config (1-based), as the keys 1–9 do.
  case loadPresetNumber(Int)
  /// A key of the workout composer (a keypad's digits, mode keys, Enter); `otherwise` is what
  /// the key does while nothing is being composed and it starts nothing.
  indirect case compose(ComposerKey, otherwise: InputEvent?)
  /// Show (or, with nil, clear) a short message on the displays.
  case message(String?)
  /// The person asked the daemon to quit (the terminal keyboard's `q`).
  case quit
}

/// What a plugin may use from the daemon.
public struct PluginContext {
  public var id: String
  public var logger: Logger
  /// The loop's speed factor (`--speed`).
  public var speed: Int64
  /// The daemon's clocks: a plugin that needs the time outside a call that is given it reads
  /// it here, never from the system itself.
  public var clock: DaemonClock
  /// Called by an output that takes over the terminal, so log lines stop going to it.
  public var claimTerminal: (_ showLine: @escaping (String) -> Void) -> Void
  /// Carries out a request of the command socket's vocabulary (start, load, status, presets,
  /// history ...) and gives its reply, as the socket would: how a web page or a broker's
  /// message acts on the clock. Requests that would subscribe answer without subscribing.
  public var command: (CommandRequest) -> JSONValue

  /// Creates a context (the daemon makes them; benchmarks and tests drive plugins directly,
  /// where commands are answered `unavailable`).
  public init(
    id: String, logger: Logger, speed: Int64, clock: DaemonClock = .system,
    claimTerminal: @escaping (_ showLine: @escaping (String) -> Void) -> Void,
    command: @escaping (CommandRequest) -> JSONValue = { request in
      CommandProtocol.failure(
        id: request.id, CommandFailure("unavailable", "no daemon runs this plugin"))
    }
  ) {
    self.id = id
    self.logger = logger
    self.speed = speed
    self.clock = clock
    self.claimTerminal = claimTerminal
    self.command = command
  }

  public func log(_ level: LogLevel, _ message: String, _ fields: [(String, String)] = []) {
    logger.log(level, message, [("plugin", id)] + fields)
  }
}

/// A plugin failure with a reason a person can act on.
public struct PluginError: Error, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
