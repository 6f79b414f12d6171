// SPDX-License-Identifier: MIT
// Keeps the configured plugins running: starts them, watches their descriptors, gives outputs
// their frames, retries a failed plugin with backoff, restarts what a reload changed, and stops
// them all in order with a time budget.

import Configuration
import HardwareKit

/// The plugins of the running configuration, in slots. One failing plugin never stops the
/// others or the clock: it is stopped, logged once, and retried with growing waits.
final class Supervisor {
  /// A plugin's `stop()` should take well under this; a slower one is named in the log.
  static let stopBudget: Int64 = 500_000_000

  /// Outputs first (they start first), then inputs; each in config order.
  private(set) var slots: [PluginSlot] = []
  private var nextSlotID = 0
  private let catalog: [PluginKind]
  private let sources: EventSources
  private let logger: Logger
  private let clock: DaemonClock
  private let makeContext: (String) -> PluginContext

  init(
    catalog: [PluginKind], sources: EventSources, logger: Logger, clock: DaemonClock,
    makeContext: @escaping (String) -> PluginContext
  ) {
    self.catalog = catalog
    self.sources = sources
    self.logger = logger
    self.clock = clock
    self.makeContext = makeContext
  }

  /// The running configuration's outputs, in config order.
  var outputs: [any OutputPlugin] { slots.compactMap(\.output) }

  // MARK: - Start and stop

  /// Makes and starts the plugins of `configuration`: outputs first, so that the first button
  /// press already has somewhere to show.
  func start(_ configuration: WodclockConfiguration, at now: Int64) {
    slots =
      makeSlots(configuration.outputs, as: .output)
      + makeSlots(configuration.inputs, as: .input)
    for slot in slots { start(slot, at: now) }
  }

  /// After a reload: restarts the inputs or the outputs when their config entries changed (not
  /// when they only moved in the file); an unchanged output re-reads the files it was made from.
  func apply(from previous: WodclockConfiguration, to next: WodclockConfiguration, at now: Int64) {
    func changed(_ old: [PluginInstance], _ new: [PluginInstance]) -> Bool {
      !old.elementsEqual(new) { $0.makesTheSamePlugin(as: $1) }
    }
    if changed(previous.outputs, next.outputs) {
      replace(.output, with: next.outputs, at: now)
    } else {
      for slot in slots {
        guard let reloading = slot.output as? any FileReloading else { continue }
        do {
          if try reloading.reloadFiles() {
            logger.info("output re-read its files", [("plugin", slot.instance.id)])
          }
        } catch {
          logger.error(
            "output keeps its previous files",
            [("plugin", slot.instance.id), ("error", "\(error)")])
        }
      }
    }
    if changed(previous.inputs, next.inputs) { replace(.input, with: next.inputs, at: now) }
  }

  /// Stops every plugin: inputs first, so no action arrives while the outputs go to their safe
  /// state; each group in the reverse of the order it started in.
  func stopAll() {
    for slot in slots.reversed() where slot.output == nil { stop(slot) }
    for slot in slots.reversed() where slot.output != nil { stop(slot) }
    slots = []
  }

  // MARK: - The loop's calls

  /// Retries the failed plugins that are due, and calls back the inputs whose timers are due.
  /// Returns what the inputs reported.
  func serviceWakeUps(at now: Int64) -> [InputEvent] {
    var events: [InputEvent] = []
    for slot in slots {
      switch slot.state {
      case .running:
        guard case .input(let input) = slot.role, let due = input.nextWakeUp(after: now), due <= now
        else { continue }
        events += input.handleWakeUp(at: now)
        // A wake-up may open devices (a remote found by a rescan): watch what it has now.
        rewatch(slot)
      case .failed(let retryAt, _):
        if retryAt <= now { start(slot, at: now) }
      }
    }
    return events
  }

  /// Hands what is ready on a slot's descriptor to its plugin. Returns what an input reported.
  func handleReady(
    slot id: PluginSlot.ID, _ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64
  ) -> [InputEvent] {
    guard let slot = slots.first(where: { $0.id == id }), slot.isRunning,
      slot.watched.contains(where: { $0.descriptor == descriptor })
    else { return [] }
    do {
      var events: [InputEvent] = []
      switch slot.role {
      case .output(let output): try output.handleReady(descriptor, readiness, at: now)
      case .input(let input): events = try input.handleReady(descriptor, readiness, at: now)
      }
      rewatch(slot)
      return events
    } catch {
      fail(slot, error, at: now)
      return []
    }
  }

  /// Gives `frame` to every running output. One that missed cues while it was down gets them
  /// first (those not stale by `staleAfter` real nanoseconds); one that is down keeps the
  /// frame's cues for its return.
  func render(_ frame: OutputFrame, at now: Int64, staleAfter: Int64) {
    for slot in slots {
      guard case .output(let output) = slot.role else { continue }
      guard slot.isRunning else {
        slot.keep(frame.cues)
        continue
      }
      if slot.pendingCues.isEmpty {
        render(frame, to: output, in: slot, at: now)
      } else {
        var own = frame
        own.cues = slot.takePendingCues(at: now, staleAfter: staleAfter) + frame.cues
        render(own, to: output, in: slot, at: now)
      }
    }
  }

  /// The earliest instant a plugin wants to be called back, or a failed one retried.
  func nextWakeUp(after now: Int64) -> Int64? {
    var best: Int64?
    for slot in slots {
      let candidate: Int64?
      switch slot.state {
      case .running: candidate = slot.plugin.nextWakeUp(after: now)
      case .failed(let retryAt, _): candidate = retryAt
      }
      if let candidate, best.map({ candidate < $0 }) ?? true { best = candidate }
    }
    return best
  }

  // MARK: - Slots

  private enum Direction { case output, input }

  /// Makes a slot for each of `instances`; one that cannot be made is logged and left out.
  private func makeSlots(_ instances: [PluginInstance], as direction: Direction) -> [PluginSlot] {
    var made: [PluginSlot] = []
    for instance in instances {
      guard let factory = catalog.first(where: { $0.schema.kind == instance.kind })?.factory
      else { continue }
      do {
        let role: PluginSlot.Role
        switch (factory, direction) {
        case (.output(let make), .output): role = .output(try make(instance))
        case (.input(let make), .input): role = .input(try make(instance))
        default: continue
        }
        made.append(PluginSlot(id: nextSlotID, instance: instance, role: role))
        nextSlotID += 1
      } catch {
        logger.error(
          "cannot create \(direction == .output ? "output" : "input")",
          [("plugin", instance.id), ("error", "\(error)")])
      }
    }
    return made
  }

  /// Stops the slots of one direction and starts new ones for `instances` in their place.
  private func replace(_ direction: Direction, with instances: [PluginInstance], at now: Int64) {
    let isOutput = direction == .output
    for slot in slots.reversed() where (slot.output != nil) == isOutput { stop(slot) }
    let fresh = makeSlots(instances, as: direction)
    let outputs = isOutput ? fresh : slots.filter { $0.output != nil }
    let inputs = isOutput ? slots.filter { $0.output == nil } : fresh
    slots = outputs + inputs
    for slot in fresh { start(slot, at: now) }
  }

  private func start(_ slot: PluginSlot, at now: Int64) {
    do {
      try slot.plugin.start(makeContext(slot.instance.id))
      slot.state = .running
      rewatch(slot)
      logger.info(
        "\(slot.direction) started", [("plugin", slot.instance.id), ("kind", slot.instance.kind)])
    } catch {
      fail(slot, error, at: now)
    }
  }

  private func render(
    _ frame: OutputFrame, to output: any OutputPlugin, in slot: PluginSlot, at now: Int64
  ) {
    do {
      try output.render(frame)
      // A frame may queue output: watch for writability when the output asks for it now.
      rewatch(slot)
    } catch {
      slot.keep(frame.cues)
      fail(slot, error, at: now)
    }
  }

  private func fail(_ slot: PluginSlot, _ error: any Error, at now: Int64) {
    let (next, wording) = slot.failure(at: now)
    if let wording {
      var fields = [("plugin", slot.instance.id), ("error", "\(error)")]
      if case .failed(let retryAt, _) = next {
        fields.append(("retry_in", "\((retryAt - now + 999_999_999) / 1_000_000_000)s"))
      }
      logger.error("\(slot.direction) \(wording)", fields)
    }
    unwatchAll(slot)
    slot.plugin.stop()
    slot.state = next
  }

  /// Runs a plugin's `stop()` and names it in the log when it overran its budget.
  private func stop(_ slot: PluginSlot) {
    unwatchAll(slot)
    let start = clock.monotonic()
    slot.plugin.stop()
    let took = clock.monotonic() - start
    if took > Self.stopBudget {
      logger.warning(
        "plugin was slow to stop", [("plugin", slot.instance.id), ("ms", String(took / 1_000_000))])
    }
  }

  // MARK: - Descriptors

  /// Brings what the loop watches for `slot` in line with what its plugin asks for now. A
  /// descriptor that cannot be watched is logged, never silently left out.
  private func rewatch(_ slot: PluginSlot) {
    let wanted = slot.plugin.watchedDescriptors
    guard wanted != slot.watched else { return }
    for old in slot.watched where !wanted.contains(where: { $0.descriptor == old.descriptor }) {
      sources.unwatch(.plugin(slot.id, old.descriptor))
    }
    var watched: [WatchedDescriptor] = []
    for entry in wanted {
      do {
        try sources.watch(
          entry.descriptor, for: entry.interest, as: .plugin(slot.id, entry.descriptor))
        watched.append(entry)
      } catch {
        logger.error(
          "cannot watch a descriptor of the plugin",
          [
            ("plugin", slot.instance.id), ("fd", String(entry.descriptor.rawValue)),
            ("error", "\(error)"),
          ])
      }
    }
    slot.watched = watched
  }

  private func unwatchAll(_ slot: PluginSlot) {
    for entry in slot.watched { sources.unwatch(.plugin(slot.id, entry.descriptor)) }
    slot.watched = []
  }
}
