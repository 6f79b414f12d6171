// SPDX-License-Identifier: MIT
// `usb-remote` input: a USB presenter clicker or numeric keypad, read as evdev key events
// (/dev/input/eventN) and grabbed so its keys do not also type on a console; picked up again
// when its receiver is pulled out and put back.

import ButtonKit
import ConfigFormat
import Configuration
import HardwareKit
import RetryKit
import WorkoutCore

/// Reads the keys of the devices one selector names (a receiver often has several event nodes:
/// keyboard, consumer keys, mouse; every node with keyboard keys is used) and turns them into
/// control gestures through the key map and the shared gesture recogniser.
///
/// Hotplug: with udevd a "udev" netlink monitor says when input devices come and go; without it
/// (its control socket missing) that monitor would hear nothing, so the plugin rescans with
/// backoff while its device is missing. A removal is logged once, the return once.
public final class USBRemoteInput: InputPlugin {
  public let id: String
  public let kind = USBRemoteInput.kindName

  private let selector: InputDeviceSelector
  private let keyMap: RemoteKeyMap
  private let longPress: Int64
  private let grabs: Bool
  private let system: any KeyDeviceSystem
  /// The monotonic clock, read only in `start` (every other call is given the time): a
  /// test's, or the daemon's from the context.
  private let clock: (() -> Int64)?
  /// Key code to recogniser button; only mapped, non-repeating keys have one.
  private let buttons: [UInt16: Int]
  private let codesByButton: [UInt16]

  private var context: PluginContext?
  private var monitor: (any KeyHotplugMonitor)?
  private var open: [OpenNode] = []
  /// Nodes that went away, closed on the next call: the loop still has their descriptors
  /// registered until it re-reads `watchedDescriptors` after the call that dropped them.
  private var retired: [any KeyDevice] = []
  private var recognizer: GestureRecognizer
  /// Nodes that failed to open or grab, so the failure is logged once per node.
  private var refused: Set<String> = []
  private var rescanAt: Int64?
  private var rescanWaits = USBRemoteInput.rescanBackoff
  private var missingReported = false
  private var lastInstant: Int64 = .min
  /// Buttons whose press was dated by the loop, not by the device: one that cannot stamp its
  /// events on the monotonic clock. Their gestures carry no press instant.
  private var undatedPresses: Set<Int> = []

  private final class OpenNode {
    let device: any KeyDevice
    var decoder = EvdevEventDecoder()
    var filter = EvdevKeyFilter()
    init(device: any KeyDevice) { self.device = device }
  }

  /// Without a hotplug monitor, the first rescan after the device went missing comes after
  /// 250 ms, the wait doubled on every rescan that does not find it, up to 4 s.
  static let rescanBackoff = RetryBackoff(initial: 250_000_000, maximum: 4_000_000_000)
  /// With a working hotplug monitor, a slow rescan still catches a lost notification (a
  /// netlink burst overflows the socket: ENOBUFS, libudev.md §monitor).
  static let monitoredRescan: Int64 = 30_000_000_000

  public static let kindName = "usb-remote"

  static let device = Setting(
    "device", .string, default: nil,
    "the device's name, its USB id (046d:c52d, or 046d:c52d:SERIAL) or a /dev/input path")
  static let profile = Setting(
    "profile", .choice(among: RemoteProfile.allCases), default: .presenter,
    "built-in key map: presenter, keypad or none")
  static let keys = Setting(
    "keys", .map(.string), default: [],
    "KEY_NAME: control, 'preset N', 'action ACTION', 'compose KEY [else TARGET]' or none; "
      + "over the profile's keys")
  static let longPress = Setting(
    "long_press", .duration(.milliseconds(100)...(.seconds(30))), default: .milliseconds(800),
    "held this long is a long press")
  static let repeating = Setting(
    "repeat", .list(.string), default: [],
    "keys whose auto-repeat while held counts as more presses (no long press then)")
  static let grab = Setting(
    "grab", .boolean, default: true,
    "take the device for the clock alone, so its keys do not type on a console")

  public static let schema = PluginSchema(
    kind: kindName, direction: .input,
    summary: "a USB presenter clicker or numeric keypad (evdev; chosen by name, USB id or path)",
    settings: [device.spec, profile.spec, keys.spec, longPress.spec, repeating.spec, grab.spec],
    crossCheck: { settings, bag in try RemoteKeyMap.check(settings, &bag) },
    claims: { settings in
      guard let selector = InputDeviceSelector(parsing: try settings[device]) else { return [] }
      let identity: String
      if case .name(let name) = selector {
        identity = name.lowercased()
      } else {
        identity = selector.description
      }
      return [ResourceClaim(kind: "input device", identity: identity, key: device.name)]
    },
    controls: { settings in
      // The keys the owner mapped by hand must name defined controls; a profile's built-in
      // keys may name controls a config leaves out (those keys then do nothing).
      try settings[keys].compactMap { key, text in
        var target = RemoteKeyTarget(parsing: text)
        if case .compose(_, let otherwise)? = target { target = otherwise }
        guard case .control(let name)? = target else { return nil }
        return ControlReference(name: name, key: keys.name, entry: key)
      }
    })

  public convenience init(instance: PluginInstance) throws {
    try self.init(instance: instance, system: LinuxKeyDevices())
  }

  /// Creates the plugin on `system` and `clock` (fakes in tests).
  init(
    instance: PluginInstance, system: any KeyDeviceSystem, clock: (() -> Int64)? = nil
  ) throws {
    id = instance.id
    let settings = instance.settings
    guard let selector = InputDeviceSelector(parsing: try settings[Self.device]) else {
      throw PluginError("no device given")
    }
    self.selector = selector
    let keyMap = RemoteKeyMap(
      profile: try settings[Self.profile], keys: try settings[Self.keys],
      repeating: try settings[Self.repeating])
    self.keyMap = keyMap
    let longPress = try settings[Self.longPress].nanoseconds
    self.longPress = longPress
    grabs = try settings[Self.grab]
    self.system = system
    self.clock = clock
    let codes = keyMap.targets.keys.filter { !keyMap.repeating.contains($0) }.sorted()
    codesByButton = codes
    buttons = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
    recognizer = GestureRecognizer(longPressTimes: codes.map { _ in longPress })
  }

  public var watchedDescriptors: [WatchedDescriptor] {
    (monitor.map { [WatchedDescriptor($0.fileDescriptor)] } ?? [])
      + open.map { WatchedDescriptor($0.device.fileDescriptor) }
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    if system.canMonitorHotplug {
      do {
        monitor = try system.makeMonitor()
      } catch {
        context.log(
          .warning, "no hotplug monitor; rescanning while the device is missing",
          [("error", "\(error)")])
      }
    }
    // Monitor first, then enumerate: a device plugged in between is seen by one of the two.
    try rescan(at: (clock ?? context.clock.monotonic)(), reason: "start")
    if open.isEmpty {
      context.log(
        .warning, "remote not found; waiting for it",
        [("device", selector.description), ("hotplug", monitor == nil ? "rescan" : "udev")])
      missingReported = true
    }
  }

  // MARK: Devices

  /// Opens every matching node not open yet; schedules the next rescan while none is.
  private func rescan(at now: Int64, reason: String) throws {
    let found: [InputDeviceInfo]
    do {
      found = try system.scan()
    } catch {
      if open.isEmpty { scheduleRescan(at: now) }
      throw PluginError("cannot list input devices: \(error)")
    }
    let resolved: String?
    if case .path(let path) = selector { resolved = system.resolve(path) } else { resolved = nil }
    let wasEmpty = open.isEmpty
    var added: [OpenNode] = []
    for info in found where selector.matches(info, resolvedPath: resolved) {
      guard !open.contains(where: { $0.device.info.devnode == info.devnode }) else { continue }
      if let node = openNode(info) { added.append(node) }
    }
    open += added
    let present = Set(found.map(\.devnode))
    refused = refused.filter { present.contains($0) }
    if !added.isEmpty, wasEmpty {
      let first = added[0].device.info
      var fields: [(String, String)] = [
        ("device", first.name), ("nodes", added.map(\.device.info.devnode).joined(separator: ",")),
        ("via", reason),
      ]
      if let usb = first.usbID { fields.append(("usb_id", usb)) }
      context?.log(.notice, "remote connected", fields)
      missingReported = false
      rescanWaits.reset()
    }
    if open.isEmpty {
      scheduleRescan(at: now)
    } else {
      rescanAt = nil
    }
  }

  private func scheduleRescan(at now: Int64) {
    if monitor != nil {
      rescanAt = now + Self.monitoredRescan
    } else {
      rescanAt = now + rescanWaits.failed()
    }
  }

  private func openNode(_ info: InputDeviceInfo) -> OpenNode? {
    let device: any KeyDevice
    do {
      device = try system.open(info)
    } catch {
      refuse(info, "cannot open the remote", error)
      return nil
    }
    guard device.hasKeyboardKeys else {
      // A presenter's mouse node (laser pointer, scroll): buttons only, left to the system.
      device.close()
      return nil
    }
    if grabs {
      do {
        try device.grab()
      } catch {
        device.close()
        refuse(info, "cannot grab the remote", error)
        return nil
      }
    }
    // Keys already held (the coach's thumb on the button while it was plugged in) fire nothing
    // when they come up.
    if let held = try? device.pressedKeys() {
      for code in held { if let button = buttons[code] { recognizer.assumeHeld(button) } }
    }
    refused.remove(info.devnode)
    return OpenNode(device: device)
  }

  private func refuse(_ info: InputDeviceInfo, _ message: String, _ error: any Error) {
    guard !refused.contains(info.devnode) else { return }
    refused.insert(info.devnode)
    context?.log(.error, message, [("node", info.devnode), ("error", "\(error)")])
  }

  private func close(_ node: OpenNode, at now: Int64) {
    retired.append(node.device)
    open.removeAll { $0 === node }
    guard open.isEmpty else { return }
    // Keys held at the moment of removal never come up: start the recogniser afresh.
    recognizer = GestureRecognizer(longPressTimes: codesByButton.map { _ in longPress })
    if !missingReported {
      missingReported = true
      context?.log(
        .warning, "remote disconnected; waiting for it to come back",
        [("device", node.device.info.name), ("hotplug", monitor == nil ? "rescan" : "udev")])
    }
    rescanWaits.reset()
    scheduleRescan(at: now)
  }

  // MARK: Events

  private func closeRetired() {
    for device in retired { device.close() }
    retired = []
  }

  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
    -> [InputEvent]
  {
    closeRetired()
    if let monitor, descriptor == monitor.fileDescriptor {
      let actions = monitor.drain()
      if !actions.isEmpty { try rescan(at: now, reason: "hotplug") }
      return []
    }
    guard let node = open.first(where: { $0.device.fileDescriptor == descriptor }) else {
      return []
    }
    var bytes: [UInt8] = []
    var gone = false
    readLoop: while true {
      do {
        switch try node.device.read(appendingTo: &bytes) {
        case .bytes: continue
        case .wouldBlock: break readLoop
        case .endOfFile:
          gone = true
          break readLoop
        }
      } catch {
        // ENODEV after an unplug (evdev.c); anything else is no better: reopen later.
        if error.errno != .noSuchDevice {
          context?.log(.warning, "remote read failed", [("error", "\(error)")])
        }
        gone = true
        break readLoop
      }
    }
    let (changes, lost) = node.filter.keyChanges(node.decoder.decode(bytes))
    var events = handle(changes, device: node.device, at: now)
    if lost, !gone { events += resynchronise(node, at: now) }
    if gone { close(node, at: now) }
    return events
  }

  /// Key changes to gestures to input events.
  func handle(_ changes: [EvdevKeyChange], device: any KeyDevice, at now: Int64)
    -> [InputEvent]
  {
    var events: [InputEvent] = []
    for change in changes {
      // Monotonic event timestamps date a press exactly; they never run ahead of the loop's
      // clock nor behind what was decided already.
      let dated = device.usesMonotonicClock
      var instant = dated ? min(change.instant, now) : now
      instant = max(instant, lastInstant)
      lastInstant = instant
      guard let target = keyMap.targets[change.code] else {
        if change.kind == .down {
          context?.log(
            .info, "unmapped key",
            [("key", EvdevKeys.name(of: change.code)), ("code", "\(change.code)")])
        }
        continue
      }
      if keyMap.repeating.contains(change.code) {
        if change.kind != .up {
          events += Self.events(for: target, .press, pressedAt: dated ? instant : nil)
        }
        continue
      }
      guard let button = buttons[change.code] else { continue }
      switch change.kind {
      case .autoRepeat:
        continue  // the input core's repeat while held; the recogniser times the hold itself
      case .down, .up:
        if change.kind == .down, !recognizer.isDown(button) {
          if dated { undatedPresses.remove(button) } else { undatedPresses.insert(button) }
        }
        let gestures = recognizer.change(button, down: change.kind == .down, at: instant)
        events += translate(gestures)
      }
    }
    return events
  }

  private func resynchronise(_ node: OpenNode, at now: Int64) -> [InputEvent] {
    // After SYN_DROPPED: keys whose release was lost come up now.
    guard let held = try? node.device.pressedKeys() else { return [] }
    var events: [InputEvent] = []
    for (code, button) in buttons where recognizer.isDown(button) && !held.contains(code) {
      events += translate(recognizer.change(button, down: false, at: max(now, lastInstant)))
    }
    return events
  }

  private func translate(_ gestures: [RecognizedGesture]) -> [InputEvent] {
    var events: [InputEvent] = []
    for recognized in gestures {
      let button: Int
      let gesture: Gesture
      switch recognized.gesture {
      case .press(let index):
        button = index
        gesture = .press
      case .longPress(let index):
        button = index
        gesture = .longPress
      default:
        continue
      }
      guard codesByButton.indices.contains(button),
        let target = keyMap.targets[codesByButton[button]]
      else { continue }
      let pressedAt = undatedPresses.contains(button) ? nil : recognized.pressedAt
      events += Self.events(for: target, gesture, pressedAt: pressedAt)
    }
    return events
  }

  /// What a key's gesture does; `pressedAt` is when its key went down, by the device's clock.
  static func events(for target: RemoteKeyTarget, _ gesture: Gesture, pressedAt: Int64?)
    -> [InputEvent]
  {
    switch target {
    case .control(let name): return [.control(name, gesture, pressedAt: pressedAt)]
    // A held key still does what it says: once, when the hold is recognised.
    case .preset(let number): return [.loadPresetNumber(number)]
    case .action(let action): return [.action(.engine(action))]
    case .compose(let key, let otherwise):
      return [
        .compose(
          key, otherwise: otherwise.flatMap { events(for: $0, gesture, pressedAt: pressedAt).first }
        )
      ]
    case .nothing: return []
    }
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    [recognizer.nextDeadline, rescanAt].compactMap { $0 }.min()
  }

  public func handleWakeUp(at now: Int64) -> [InputEvent] {
    closeRetired()
    let events = translate(recognizer.advance(to: now))
    if let due = rescanAt, due <= now {
      rescanAt = nil
      do {
        try rescan(at: now, reason: monitor == nil ? "rescan" : "slow rescan")
      } catch {
        if !missingReported {
          context?.log(.warning, "\(error)")
        }
      }
    }
    return events
  }

  public func stop() {
    closeRetired()
    for node in open { node.device.close() }
    open = []
    monitor = nil
    rescanAt = nil
    context = nil
  }
}
