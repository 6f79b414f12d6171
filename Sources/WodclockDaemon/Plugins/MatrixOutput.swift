// SPDX-License-Identifier: MIT
// The LED-matrix output kinds: `serial-matrix` (WLED or an Arduino on USB serial: Adalight,
// TPM2 or raw frames) and `ddp-matrix` (WLED, xLights, Falcon over Wi-Fi or Ethernet). A frame
// is sent when the picture changes, and again before the controller's realtime timeout. A serial
// controller that is unplugged is reopened when udev says it is back, or by retries without udevd;
// a network controller's name is looked up in the background, and again while it has no address.

import Configuration
import DisplayKit
import HardwareKit
import MatrixKit
import RetryKit
import WorkoutCore

/// An RGB LED matrix behind a serial or network controller.
public final class MatrixOutput: OutputPlugin, FileReloading, PictureShowing {
  public let id: String
  public let kind: String
  private let width: Int
  private let height: Int
  private let wiring: WiringMap
  private let pipeline: OutputPipeline
  private let maxBrightness: Int
  private let keepAlive: Int64
  private let settle: Int64
  private let makeTransport: () -> any MatrixTransport
  /// How a serial controller's return is noticed; nil for network controllers.
  private let hotplug: SerialHotplug?
  private var renderer: MatrixRenderer
  /// The file of `font:`, re-read on a reload; nil for the built-in font.
  private let fontSource: MatrixFont.Source?
  /// The font as loaded (the renderer draws with the built-in one where it does not fit).
  private(set) var captionFont: CaptionFont
  /// The picture being drawn for the next send.
  private var buffer: Framebuffer
  /// The picture of the last frame handed to the controller (`wodclockctl snapshot` shows it),
  /// nil before the first. Swapped with `buffer` after each send, so neither is ever copied: a
  /// picture drawn for a send that failed never takes its place.
  private(set) var sentPicture: Framebuffer?
  /// The budget was too small for a picture since the start, and the log said so.
  private var warnedAboutBudget = false
  private var context: PluginContext?

  private var transport: (any MatrixTransport)?
  /// Transports given up in an earlier call whose descriptors the loop was watching: closed at
  /// the next call, once the loop has re-read ``watchedDescriptors`` and let go of them.
  private var retired: [any MatrixTransport] = []
  /// The descriptors the loop watches for the output during a call: what
  /// ``watchedDescriptors`` said after the previous one (the daemon re-reads it after each).
  private var watchedByLoop: Set<FileDescriptor> = []
  /// With udevd: tty events, watched by the daemon's loop while the output runs.
  private var monitor: (any SerialHotplugMonitor)?
  /// The controller is away: when to try again, and the waits of the reopens that fail.
  private var retryAt: Int64?
  private var reopenWaits = MatrixOutput.reopenBackoff
  /// udev announced the controller but it has not opened yet (a modem prober holds it): retried
  /// with the backoff, not the slow retry.
  private var announced = false
  /// Frames are held back until then after an open (a USB-serial open resets many boards).
  /// Nil right after an open: set from the next frame's clock.
  private var sendableAt: Int64?
  private var lastSent: [UInt8]?
  private var lastSentAt: Int64 = 0
  private var lastFrame: OutputFrame?
  /// What prompted the open of a transport that is not ready yet (its name is being looked
  /// up), for the log line when it is.
  private var reopenedVia: String?
  /// A network controller's name had no address, and the log said so; said again only when it
  /// is found.
  private var reportedNotFound = false
  /// The waits before a name that had no address is looked up again.
  private var lookupWaits = MatrixOutput.lookupBackoff

  /// A controller away is tried again after 250 ms, the wait doubled on every reopen that
  /// fails up to 2 s: a replug is found at once, and a port that stays away costs little.
  static let reopenBackoff = RetryBackoff(initial: 250_000_000, maximum: 2_000_000_000)
  /// The first wait after the controller is lost.
  static var minimumBackoff: Int64 { reopenBackoff.initial }
  /// With a working monitor the controller is reopened on its `add` event; a slow retry still
  /// catches a lost notification (a netlink burst overflows the socket: ENOBUFS).
  static let monitoredRetry: Int64 = 10_000_000_000
  /// A name without an address is looked up again after 1 s, then less and less often: each
  /// lookup is a process of its own.
  static let lookupBackoff = RetryBackoff(initial: 1_000_000_000, maximum: 30_000_000_000)

  /// An output from a validated config entry of `serial-matrix` or `ddp-matrix`.
  public convenience init(instance: PluginInstance) throws {
    let settings = instance.settings
    let transport: () -> any MatrixTransport
    var hotplug: SerialHotplug?
    switch try Kind(of: instance) {
    case .serial:
      let device = try settings[Self.device]
      let baud = try settings[Self.baud]
      let framing = try settings[Self.framing]
      transport = {
        SerialMatrixTransport(
          path: { try SerialDeviceName.resolve(device) }, baud: baud, framing: framing)
      }
      if let selector = SerialDeviceSelector(parsing: device) {
        hotplug = SerialHotplug.udev(selector)
      }
    case .ddp:
      let host = try settings[Self.host]
      let port = try settings[Self.port]
      transport = { DDPMatrixTransport(host: host, port: port) }
    }
    try self.init(instance: instance, transport: transport, hotplug: hotplug)
  }

  /// An output of a config entry around a transport of the test's own.
  init(
    instance: PluginInstance, transport: @escaping () -> any MatrixTransport,
    hotplug: SerialHotplug? = nil
  ) throws {
    id = instance.id
    kind = instance.kind
    self.hotplug = hotplug
    let settings = instance.settings
    width = try settings[Self.width]
    height = try settings[Self.height]
    let serpentine = try settings[Self.wiring] == .serpentine
    let origin = try settings[Self.origin]
    let rotation = try settings[Self.rotation]
    let panelWidth = try settings[Self.panelWidth]
    let panelHeight = try settings[Self.panelHeight]
    do {
      wiring = try WiringMap(
        width: width, height: height, serpentine: serpentine, origin: origin, rotation: rotation,
        panelWidth: panelWidth.nonZero, panelHeight: panelHeight.nonZero)
    } catch {
      throw PluginError(error.description)
    }
    let gammaText = try settings[Self.gamma]
    guard let gamma = Self.gammaValue(gammaText) else {
      throw PluginError("gamma '\(gammaText)' is not a number from 1.0 to 3.0")
    }
    let limit = try settings[Self.maxCurrent]
    pipeline = OutputPipeline(gamma: gamma, currentLimitMilliamps: limit > 0 ? limit : nil)
    maxBrightness = try settings[Self.maxBrightness]
    keepAlive = try settings[Self.keepAlive].nanoseconds
    // Opening a USB-serial port resets the board behind it; a network controller has no such
    // wait, nor the setting.
    switch try Kind(of: instance) {
    case .serial: settle = try settings[Self.startupDelay].nanoseconds
    case .ddp: settle = 0
    }
    makeTransport = transport
    fontSource = try MatrixFont.source(in: settings)
    // Checked with the config; it fails here only if the file changed since.
    captionFont = try fontSource.map(Self.loadFont) ?? .small
    renderer = MatrixRenderer(width: width, height: height, font: captionFont)
    buffer = Framebuffer(
      width: width, height: height, fill: DesignTokens.standard.color(for: .background))
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    warnedAboutBudget = false
    retryAt = nil
    reopenWaits.reset()
    lookupWaits.reset()
    announced = false
    reopenedVia = nil
    reportedNotFound = false
    watchedByLoop = []
    if let hotplug, hotplug.isAvailable() {
      do {
        monitor = try hotplug.makeMonitor()
      } catch {
        context.log(
          .warning, "no hotplug monitor; retrying while the controller is away",
          [("error", "\(error)")])
      }
    }
    // Monitor first, then open: a controller plugged in between is seen by one of the two.
    let transport = makeTransport()
    // A device that is not there yet is not a failure of the plugin: it is waited for, like one
    // that goes away later.
    do {
      try transport.open(at: context.clock.monotonic())
      self.transport = transport
      sendableAt = nil
    } catch {
      context.log(
        .warning, "LED matrix controller not available; waiting for it",
        [("error", "\(error)"), ("hotplug", hotplugWay)])
      // Retried at the first frame instead of after the first wait, then with the longer
      // waits or on the device's udev event.
      _ = reopenWaits.failed()
      retryAt = Int64.min
    }
  }

  /// How a controller that is away is found again, for log lines: `udev` or `retry`.
  private var hotplugWay: String { monitor == nil ? "retry" : "udev" }

  /// The hotplug monitor's socket; and the transport's descriptors while it waits for one: a
  /// serial port's writability while a frame is on its way, a network name's lookup.
  public var watchedDescriptors: [WatchedDescriptor] {
    (monitor.map { [WatchedDescriptor($0.fileDescriptor)] } ?? [])
      + (transport?.watchedDescriptors ?? [])
  }

  public func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64)
    throws
  {
    beginCall()
    if let transport, transport.watchedDescriptors.contains(where: { $0.descriptor == descriptor })
    {
      let wasReady = transport.isReady
      do {
        try transport.handleReady(descriptor, readiness, at: now)
        if !wasReady { noteReady(transport) }
      } catch let error as DeviceGoneError {
        lost(error, at: now)
      } catch let error as ControllerNotFoundError {
        notFound(error, at: now)
      }
      return
    }
    guard let monitor, let hotplug, descriptor == monitor.fileDescriptor else { return }
    // Drained whatever happens: the descriptor stays readable until it is.
    let events = monitor.drain()
    guard transport == nil else { return }
    let resolved = hotplug.resolvedPath()
    for event in events
    where hotplug.selector.matches(event.device, resolvedPath: resolved) {
      switch event.action {
      case "add": announced = true
      case "remove": announced = false
      default: continue
      }
    }
    if announced { reopen(at: now, via: "monitor") }
  }

  public func render(_ frame: OutputFrame) throws {
    beginCall()
    lastFrame = frame
    let now = frame.monotonicNow
    if transport == nil {
      guard let due = retryAt, now >= due else { return }
      reopen(at: now, via: "retry")
      guard transport != nil else { return }
    }
    guard let transport else { return }
    if !transport.isReady {
      // A lookup past its deadline is given up here.
      do {
        try transport.handleWakeUp(at: now)
      } catch let error as ControllerNotFoundError {
        notFound(error, at: now)
        return
      }
      noteReady(transport)
      guard transport.isReady else { return }
    }
    if sendableAt == nil { sendableAt = now + settle }
    guard let sendableAt, now >= sendableAt else { return }

    // A frame that must leave before the second it shows: its last byte reaches the
    // controller at the boundary (8N1: 10 bits per byte).
    var snapshot = frame.snapshot
    var civil = frame.civilTime
    var instant = now
    let lead = transport.wireNanoseconds(
      byteCount: transport.frameLength(ledCount: wiring.ledCount))
    if lead > 0, let next = frame.nextChange, now >= next - lead, now < next,
      let ahead = frame.preview?(next)
    {
      (snapshot, civil) = ahead
      instant = next
    }
    // A heat's countdown second or turn of its lanes' line that comes within the wire's time
    // is drawn as it will be when the frame arrives.
    if lead > 0, let change = nextHeatChange(frame, after: now), now >= change - lead {
      instant = max(instant, change)
    }
    MatrixPicture.draw(
      snapshot, civilTime: civil, frame: frame, at: instant, renderer: &renderer, into: &buffer)
    let time = TimeOfDay(hour: civil.hour, minute: civil.minute, second: civil.second)
    let level = frame.tokens.brightness(atMinuteOfDay: time.minuteOfDay) * maxBrightness / 100
    let (channels, budget) = pipeline.channels(buffer, wiring: wiring, brightnessPercent: level)
    if case .heldAtLowestVisibleLevel(let estimate) = budget { warnBudgetTooSmall(estimate) }
    do {
      if channels != lastSent || now - lastSentAt >= keepAlive {
        // What does not fit in the port's buffer now follows as the port becomes writable
        // (``handleReady``): the loop watches for that while a frame is on its way.
        try transport.send(channels)
        lastSent = channels
        lastSentAt = now
        // What the controller got. The old picture becomes the next one's canvas (the renderer
        // paints every pixel).
        if sentPicture == nil { sentPicture = buffer } else { swap(&buffer, &sentPicture!) }
      } else if transport.isBusy {
        _ = try transport.flush()
      }
    } catch let error as DeviceGoneError {
      lost(error, at: now)
    }
  }

  /// A picture the budget could not show is held at the lowest visible level (never black):
  /// said once a start, with what the panel would need.
  private func warnBudgetTooSmall(_ estimate: Int) {
    guard !warnedAboutBudget else { return }
    warnedAboutBudget = true
    context?.log(
      .warning,
      "LED budget too small for the picture; showing it at the lowest visible level, over the "
        + "budget",
      [
        ("max_current_ma", "\(pipeline.currentLimitMilliamps ?? 0)"),
        ("idle_ma", "\(pipeline.idleMilliamps(ledCount: wiring.ledCount))"),
        ("estimated_ma", "\(estimate)"),
        ("needs_ma", "\(pipeline.neededMilliamps(ledCount: wiring.ledCount))"),
      ])
  }

  /// The controller went away: said once, then retried soon (a replug quicker than this
  /// noticed it), then on its udev event or with a growing wait.
  private func lost(_ error: DeviceGoneError, at now: Int64) {
    giveUpTransport()
    lastSent = nil
    reopenWaits.reset()
    retryAt = now + reopenWaits.failed()
    announced = false
    context?.log(
      .warning, "LED matrix controller lost; reopening when it is back",
      [("error", error.description), ("hotplug", hotplugWay)])
  }

  /// A network controller's name has no address: said once, then looked up again with a
  /// growing wait (a controller that boots registers its mDNS name a few seconds later).
  private func notFound(_ error: ControllerNotFoundError, at now: Int64) {
    giveUpTransport()
    lastSent = nil
    let wait = lookupWaits.failed()
    retryAt = now + wait
    if !reportedNotFound {
      reportedNotFound = true
      var fields = [("error", error.description)]
      if let hint = error.hint { fields.append(("hint", hint)) }
      fields.append(("retry_in", "\(wait / 1_000_000_000)s"))
      context?.log(.warning, "LED matrix controller not available; waiting for it", fields)
    }
  }

  /// Drops the transport: closed now, or at the next call when the loop was watching one of
  /// its descriptors during this one (epoll(7) tracks the open file: a descriptor closed while
  /// registered, its number then reused, would confuse the loop).
  private func giveUpTransport() {
    guard let transport else { return }
    self.transport = nil
    let own = Set(watchedByLoop.filter { $0 != monitor?.fileDescriptor })
    if own.isEmpty { transport.close() } else { retired.append(transport) }
  }

  /// At the start of every call: closes what the previous calls gave up, and notes what the loop
  /// watches during this one.
  private func beginCall() {
    for old in retired { old.close() }
    retired = []
    transport?.closeRetired()
    watchedByLoop = Set(watchedDescriptors.map(\.descriptor))
  }

  /// Called when `transport` may have just become ready: logs a network name found, and a
  /// controller that was away being back.
  private func noteReady(_ transport: any MatrixTransport) {
    guard transport.isReady else { return }
    if let ddp = transport as? DDPMatrixTransport, let address = ddp.address,
      IPAddress(ddp.host) == nil
    {
      context?.log(
        .info, "LED matrix controller found", [("host", ddp.host), ("address", "\(address)")])
    }
    lookupWaits.reset()
    reportedNotFound = false
    if let via = reopenedVia {
      reopenedVia = nil
      context?.log(.notice, "LED matrix controller back", [("via", via)])
    }
  }

  /// Opens the controller again; `via` says what prompted it (`retry`, `monitor`), for the log.
  private func reopen(at now: Int64, via: String) {
    let transport = makeTransport()
    do {
      try transport.open(at: now)
      self.transport = transport
      retryAt = nil
      reopenWaits.reset()
      announced = false
      // Frames wait for the board that the open reset.
      sendableAt = now + settle
      lastSentAt = now
      // A network name is being looked up: the line comes when it is found.
      reopenedVia = via
      noteReady(transport)
    } catch {
      if monitor != nil && !announced {
        // Still away: its udev event says when it is back.
        retryAt = now + Self.monitoredRetry
      } else {
        // Without udevd, or there (udev said so) but not openable yet: soon again.
        retryAt = now + reopenWaits.failed()
      }
    }
  }

  /// Reads the font file again: a reload that leaves the config entry as it was still shows a
  /// font file that was replaced, without reopening the controller.
  public func reloadFiles() throws -> Bool {
    guard let fontSource else { return false }
    let font = try Self.loadFont(fontSource)
    guard font != captionFont else { return false }
    captionFont = font
    renderer = MatrixRenderer(width: width, height: height, font: font)
    return true
  }

  private static func loadFont(_ source: MatrixFont.Source) throws(PluginError) -> CaptionFont {
    switch MatrixFont.load(source) {
    case .success(let font): return font
    case .failure(let problem): throw PluginError(problem.description)
    }
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    if transport == nil { return retryAt }
    guard let transport else { return nil }
    // Its name is being looked up: the answer comes on a watched descriptor; the deadline is
    // when the lookup is given up.
    if !transport.isReady { return transport.nextWakeUp(after: now) }
    guard let frame = lastFrame else { return nil }
    // The tokens' night brightness starts at a wall-clock minute: look once a minute.
    var next = now + 60_000_000_000
    func consider(_ candidate: Int64) {
      if candidate > now && candidate < next { next = candidate }
    }
    if let sendableAt, now < sendableAt { consider(sendableAt) }
    consider(lastSentAt + keepAlive)
    // No wake-up while a frame drains: its rest follows when the port is writable.
    let lead = transport.wireNanoseconds(
      byteCount: transport.frameLength(ledCount: wiring.ledCount))
    if lead > 0, let change = frame.nextChange { consider(change - lead) }
    if let period = renderer.blinkPeriodMilliseconds(frame.snapshot) {
      let half = Int64(period) * 500_000
      consider((now / half + 1) * half)
    }
    // A heat's countdown and the turns of its lanes' line, a frame's wire time ahead (the
    // change within it is drawn already).
    if let change = nextHeatChange(frame, after: now + lead) { consider(change - lead) }
    // A movement line too wide for the panel moves a pixel each period (it follows the step's
    // time, so an instant a period on is as good as any).
    if let period = renderer.scrollPeriodMilliseconds(frame.snapshot) {
      consider(now + Int64(period) * 1_000_000)
    }
    return next
  }

  /// When the heat's part of `frame`'s picture changes next after `now` (monotonic
  /// nanoseconds): another second of a call-up's countdown, another turn of the lanes' line.
  private func nextHeatChange(_ frame: OutputFrame, after now: Int64) -> Int64? {
    guard frame.overlay == nil, let lanes = frame.lanes else { return nil }
    return renderer.nextHeatChange(frame.snapshot, lanes: lanes, after: now / 1_000_000)
      .map { $0 * 1_000_000 }
  }

  public func stop() {
    // The loop stopped watching before this call: everything closes now.
    for old in retired { old.close() }
    retired = []
    // Dark, so the wall does not freeze on the last second shown.
    if let transport {
      try? transport.send([UInt8](repeating: 0, count: wiring.ledCount * 3))
      _ = try? transport.flush()
      transport.close()
    }
    transport = nil
    reopenedVia = nil
    lastFrame = nil
    lastSent = nil
    monitor = nil
    retryAt = nil
    context = nil
  }

  /// Sends one dark frame. Unlike the running output, this may wait: `--safe-outputs` is a
  /// process of its own, after the daemon ended.
  public func driveSafe() throws -> SafeState {
    let transport = makeTransport()
    // Run by `--safe-outputs`, without a daemon: the system's clock, through the same seam.
    let clock = context?.clock ?? .system
    let opened = clock.monotonic()
    try transport.open(at: opened)
    defer { transport.close() }
    // A network name is looked up first, for as long as the resolver allows.
    try Self.wait(
      for: transport, clock: clock, until: transport.nextWakeUp(after: opened) ?? opened
    ) {
      !transport.isReady
    }
    // Opening a USB-serial port resets most boards, which miss what comes before they are up.
    if settle > 0 { PWMChannel.sleep(settle) }
    let dark = [UInt8](repeating: 0, count: wiring.ledCount * 3)
    try transport.send(dark)
    // The port is non-blocking: a frame longer than the tty's buffer leaves in parts, as the
    // port becomes writable. What is in the kernel's buffer at the close still goes out (the
    // tty drains on close).
    let wire = transport.wireNanoseconds(
      byteCount: transport.frameLength(ledCount: wiring.ledCount))
    try Self.wait(for: transport, clock: clock, until: clock.monotonic() + wire + 1_000_000_000) {
      transport.isBusy
    }
    guard !transport.isBusy else {
      throw PluginError("the controller takes no more bytes; the dark frame did not leave")
    }
    return .driven("dark")
  }

  /// Waits on what `transport` watches while `pending` holds, until `deadline` (when the
  /// transport is told the time is up: a lookup then fails). Only for `--safe-outputs`.
  private static func wait(
    for transport: any MatrixTransport, clock: DaemonClock, until deadline: Int64,
    while pending: () -> Bool
  ) throws {
    let poller = try EventPoller()
    defer { try? poller.close() }
    while pending() {
      let now = clock.monotonic()
      guard now < deadline else {
        try transport.handleWakeUp(at: now)
        return
      }
      let watched = transport.watchedDescriptors
      guard !watched.isEmpty else { return }
      for (index, entry) in watched.enumerated() {
        try poller.register(entry.descriptor, token: UInt64(index), interest: entry.interest)
      }
      let events = try poller.wait(until: deadline)
      for entry in watched { try poller.unregister(entry.descriptor) }
      for event in events {
        try transport.handleReady(
          watched[Int(event.token)].descriptor, Readiness(event), at: clock.monotonic())
      }
      transport.closeRetired()
    }
  }

  /// Whether the controller can be sent frames: open, and a network one's address known.
  var isConnected: Bool { transport?.isReady == true }

  /// When the output tries to open its absent controller next (tests).
  var nextRetry: Int64? { transport == nil ? retryAt : nil }

  /// The open serial port (tests).
  var serialDescriptor: FileDescriptor? { (transport as? SerialMatrixTransport)?.descriptor }
}

extension Int {
  fileprivate var nonZero: Int? { self == 0 ? nil : self }
}

/// How a serial controller's return is noticed while udevd runs.
struct SerialHotplug {
  /// The device as the config names it.
  var selector: SerialDeviceSelector
  /// Whether a monitor would hear anything (udevd runs).
  var isAvailable: () -> Bool
  var makeMonitor: () throws -> any SerialHotplugMonitor
  /// The node a path selector's symlink points to now, for links udev did not make.
  var resolvedPath: () -> String?

  /// Through udevd's tty events.
  static func udev(_ selector: SerialDeviceSelector) -> SerialHotplug {
    SerialHotplug(
      selector: selector, isAvailable: { UdevMonitor.udevIsRunning },
      makeMonitor: { try SerialPortMonitor() },
      resolvedPath: {
        guard case .path(let path) = selector else { return nil }
        return InputDevices.resolve(path)
      })
  }
}

/// Serial devices named by path (`/dev/ttyACM0`, `/dev/serial/by-id/usb-…`) or by USB id
/// (`usb:303a:1001`), resolved on every open so a controller that comes back under another
/// ttyACM number is found.
enum SerialDeviceName {
  static func resolve(_ name: String) throws -> String {
    guard let selector = SerialDeviceSelector(parsing: name) else {
      throw PluginError("'\(name)' is not a device path or usb:VVVV:PPPP[:SERIAL]")
    }
    return try SerialDevices.resolve(selector)
  }
}
