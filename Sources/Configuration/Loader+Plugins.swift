// SPDX-License-Identifier: MIT
// The inputs and outputs sections: each entry checked against its plugin kind's schema, ids made
// unique, and hardware resources claimed by at most one entry.

import ConfigFormat
import DisplayKit
import WorkoutCore

/// What the entries read so far have taken: ids and hardware resources.
struct PluginInstances {
  /// Each id and where it was given (or where its entry starts, for a generated id).
  var ids: [String: SourceRange] = [:]
  /// How many entries of each kind got a generated id, for `<kind>-2` ...
  var generated: [String: Int] = [:]
  /// Each claimed resource and the entry that claimed it.
  var claims: [ResourceClaim.Identity: (id: String, range: SourceRange)] = [:]
}

extension ResourceClaim {
  /// A claim without the key it came from: two keys naming one line are still one line.
  struct Identity: Hashable {
    var kind: String
    var identity: String
  }
}

extension Loader {
  mutating func readPlugins(
    _ node: ConfigNode?, direction: PluginSchema.Direction, into instances: inout PluginInstances
  ) -> [PluginInstance] {
    guard let node else { return [] }
    let section = direction == .input ? "inputs" : "outputs"
    let kinds = plugins.filter { $0.direction == direction }.map(\.kind)
    guard
      let items = checker.list(
        node, key: section, example: "[{type: \(kinds.first ?? "terminal")}]")
    else { return [] }
    var result: [PluginInstance] = []
    for item in items {
      if let instance = readPlugin(item, direction: direction, kinds: kinds, into: &instances) {
        result.append(instance)
      }
    }
    return result
  }

  mutating func readPlugin(
    _ node: ConfigNode, direction: PluginSchema.Direction, kinds: [String],
    into instances: inout PluginInstances
  ) -> PluginInstance? {
    let role = direction.rawValue
    let kindList = kinds.isEmpty ? "(none available)" : kinds.joined(separator: ", ")
    guard case .mapping(let mapping) = node else {
      checker.error(
        "expected an \(role) entry such as '- type: \(kinds.first ?? "terminal")', found "
          + SchemaChecker.found(node), at: node.range,
        hint: "each entry is a mapping with a 'type'; \(role) types: \(kindList)")
      return nil
    }
    guard let typeNode = mapping["type"] else {
      if mapping.isIncomplete { return nil }
      checker.error(
        "missing key 'type' in an \(role) entry", at: mapping.range,
        hint: "add 'type:' with one of: \(kindList)")
      return nil
    }
    guard let kind = checker.text(typeNode, key: "type") else { return nil }
    guard let schema = plugins.first(where: { $0.kind == kind && $0.direction == direction })
    else {
      if let other = plugins.first(where: { $0.kind == kind }) {
        let otherSection = other.direction == .input ? "inputs" : "outputs"
        checker.error(
          "'\(kind)' is an \(other.direction.rawValue), not an \(role)", at: typeNode.range,
          hint: "move this entry under '\(otherSection)'")
      } else {
        checker.error(
          "unknown \(role) type '\(kind)'", at: typeNode.range,
          hint: kinds.isEmpty
            ? "no \(role) plugins are available"
            : SchemaChecker.suggestion(kind, among: kinds, listing: "\(role) types"))
      }
      return nil
    }

    // The id: given, or generated from the kind.
    var id: String
    var idRange = mapping.range
    if let idNode = mapping["id"] {
      guard let text = checker.text(idNode, key: "id"), let scalar = idNode.scalar,
        checker.checkName(scalar, what: "plugin id")
      else { return nil }
      id = text
      idRange = idNode.range
    } else {
      let count = (instances.generated[kind] ?? 0) + 1
      instances.generated[kind] = count
      id = count == 1 ? kind : "\(kind)-\(count)"
    }
    if let first = instances.ids[id] {
      checker.error(
        "duplicate plugin id '\(id)'", at: idRange,
        hint: mapping["id"] == nil
          ? "give this entry its own 'id'" : "ids must be unique across inputs and outputs",
        notes: [.note("'\(id)' first used here", at: first)])
    } else {
      instances.ids[id] = idRange
    }

    let name = "\(role) '\(id)'"
    let errorsBefore = checker.bag.errorCount
    let settings = readSettings(
      mapping, specs: schema.settings, context: name, defaultsAt: mapping.range,
      reserved: ["type", "id"])
    // An entry a syntax error broke is only checked key by key: the defaults filled in for
    // what the broken lines held would make the checks across keys and the claims guesses.
    guard let settings, checker.bag.errorCount == errorsBefore, !mapping.isIncomplete else {
      return nil
    }

    var crossBag = DiagnosticBag()
    let claims: [ResourceClaim]
    let references: [ControlReference]
    do {
      try schema.crossCheck(settings, &crossBag)
      claims = try schema.claims(settings)
      references = try schema.controls(settings)
    } catch {
      // The checks read a setting the schema does not list: a fault of the plugin kind, not
      // of the file, still said rather than trapped.
      checker.bag.append(contentsOf: crossBag.diagnostics)
      checker.error(
        "\(name) cannot be checked: \(error)", at: mapping.range,
        hint: "the '\(kind)' plugin kind is at fault, not the file; please report it")
      return nil
    }
    checker.bag.append(contentsOf: crossBag.diagnostics)
    for claim in claims {
      let identity = ResourceClaim.Identity(kind: claim.kind, identity: claim.identity)
      let range = settings.locations[claim.key] ?? mapping.range
      if let first = instances.claims[identity] {
        checker.error(
          "\(name) claims \(claim.kind) '\(claim.identity)', already taken by '\(first.id)'",
          at: range,
          hint: "each \(claim.kind) can serve one plugin; pick another or remove one entry",
          notes: [
            .note("'\(first.id)' claims \(claim.kind) '\(claim.identity)' here", at: first.range)
          ])
      } else {
        instances.claims[identity] = (id, range)
      }
    }
    for reference in references
    where !controlNames.contains(reference.name) && !controlNamesMayBeIncomplete {
      checker.error(
        "\(name) uses control '\(reference.name)', which 'controls' does not define",
        at: settings.location(of: reference) ?? mapping.range,
        hint: closestMatch(to: reference.name, among: controlNames).map { "did you mean '\($0)'?" }
          ?? "define it under 'controls' with its press and long_press actions; controls: "
          + controlNames.joined(separator: ", "))
    }
    return PluginInstance(kind: kind, id: id, settings: settings, location: mapping.range.start)
  }

  /// The settings of a plugin entry or of a nested section: every key of `specs`, from the file
  /// or its default, in the schema's order. nil when a key is unknown, missing or invalid.
  mutating func readSettings(
    _ mapping: ConfigMapping, specs: [SettingSpec], context: String, defaultsAt: SourceRange,
    reserved: [String]
  ) -> PluginSettings? {
    let names = specs.map(\.name)
    var failed = false
    for entry in mapping.entries
    where !names.contains(entry.key.text) && !reserved.contains(entry.key.text) {
      failed = true
      let listing =
        names.isEmpty ? "\(context) has no settings" : "keys: \(names.joined(separator: ", "))"
      checker.error(
        "unknown key '\(entry.key.text)' in \(context)", at: entry.key.range,
        hint: SchemaChecker.didYouMean(entry.key.text, among: names) ?? listing)
    }
    var values: [KeyedSetting] = []
    var locations: [String: SourceRange] = [:]
    var entryLocations: [String: [String: EntryLocation]] = [:]
    var itemLocations: [String: [SourceRange]] = [:]
    for spec in specs {
      if let node = mapping[spec.name] {
        guard let value = settingValue(node, key: spec.name, type: spec.type, context: context)
        else {
          failed = true
          continue
        }
        values.append(KeyedSetting(key: spec.name, value: value))
        locations[spec.name] = node.range
        switch node {
        case .mapping(let mapping):
          var entries: [String: EntryLocation] = [:]
          for entry in mapping.entries {
            entries[entry.key.text] = EntryLocation(
              key: entry.key.range, value: entry.value.range,
              items: entry.value.sequence?.items.map(\.range) ?? [])
          }
          entryLocations[spec.name] = entries
        case .sequence(let sequence):
          itemLocations[spec.name] = sequence.items.map(\.range)
        case .scalar:
          break
        }
      } else if let value = spec.defaultValue {
        values.append(KeyedSetting(key: spec.name, value: value))
        locations[spec.name] = defaultsAt
      } else {
        failed = true
        if mapping.isIncomplete { continue }
        checker.error(
          "missing key '\(spec.name)' in \(context)", at: SourceRange(at: mapping.range.start),
          hint: "add '\(spec.name):' (\(spec.summary))")
      }
    }
    return failed
      ? nil
      : PluginSettings(
        values: values, locations: locations, entryLocations: entryLocations,
        itemLocations: itemLocations)
  }

  /// One value of a plugin setting, checked against its type.
  mutating func settingValue(_ node: ConfigNode, key: String, type: SettingType, context: String)
    -> SettingValue?
  {
    switch type {
    case .boolean:
      return checker.boolean(node, key: key).map { .boolean($0) }
    case .integer(let range):
      return checker.integer(node, key: key, in: range).map { .integer($0) }
    case .duration(let range):
      return checker.duration(node, key: key, in: range).map { .duration($0) }
    case .percentage:
      return checker.percentage(node, key: key).map { .percentage($0) }
    case .string:
      return checker.text(node, key: key).map { .string($0) }
    case .choice(let choices):
      return checker.choice(node, key: key, among: choices).map { .string($0) }
    case .color:
      switch readColorReference(node, key: key, palette: palette) {
      case .literal(let rgb)?:
        return .color(RGBColor(red: rgb.red, green: rgb.green, blue: rgb.blue))
      case .palette(let name)?:
        guard let rgb = palette[name] else { return nil }
        return .color(RGBColor(red: rgb.red, green: rgb.green, blue: rgb.blue))
      case nil:
        return nil
      }
    case .list(let element):
      guard let items = checker.list(node, key: key, example: "[a, b]") else { return nil }
      var values: [SettingValue] = []
      for item in items {
        guard let value = settingValue(item, key: key, type: element, context: context) else {
          return nil
        }
        values.append(value)
      }
      return .list(values)
    case .oneOrList(let element):
      guard case .sequence = node else {
        return settingValue(node, key: key, type: element, context: context).map { .list([$0]) }
      }
      return settingValue(node, key: key, type: .list(element), context: context)
    case .map(let element):
      guard let mapping = checker.mapping(node, what: "'\(key)'") else { return nil }
      var entries: [KeyedSetting] = []
      var failed = false
      for entry in mapping.entries {
        guard checker.checkPrintable(entry.key, what: "key") else {
          failed = true
          continue
        }
        if let value = settingValue(
          entry.value, key: entry.key.text, type: element, context: context)
        {
          entries.append(KeyedSetting(key: entry.key.text, value: value))
        } else {
          failed = true
        }
      }
      return failed ? nil : .map(entries)
    case .section(let specs):
      guard let mapping = checker.mapping(node, what: "'\(key)'") else { return nil }
      return readSettings(
        mapping, specs: specs, context: "'\(key)' of \(context)", defaultsAt: node.range,
        reserved: []
      ).map { .map($0.values) }
    }
  }
}
