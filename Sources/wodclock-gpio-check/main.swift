// SPDX-License-Identifier: MIT
// Hardware-in-the-loop check of HardwareKit's GPIO layer against a real kernel GPIO chip.
//
// Runs inside the gpio-sim VM of Tests/hil/gpio-sim-vm.sh, which creates one simulated chip and
// exports its name ($GPIO_SIM_CHIP) and label ($GPIO_SIM_LABEL). The "outside world" is played
// with the VM's helpers: `sim-pull OFFSET up|down` drives an input, `sim-value OFFSET` prints
// what an output drives (gpio-testing.md §2, "Driving and observing lines").
//
// Usage: wodclock-gpio-check [--button NAME] [--button-offset N] [--output N] [--spare N]
// Prints one PASS or FAIL line per check and exits 1 if any failed.
//
// Also: wodclock-gpio-check --sample FILE SECONDS, for the daemon's HIL check
// (Tests/hil/daemon-check.sh): reads FILE (a gpio-sim `sim_gpioN/value`) about every 0.5 ms for
// SECONDS and prints `CHANGE <ms since the start> <value>` for the first reading and each
// change, so a script can measure a buzzer pattern's on and off times.

import Glibc
import HardwareKit

// MARK: report

nonisolated(unsafe) var failures = 0
nonisolated(unsafe) var passes = 0

func check(_ condition: Bool, _ what: String, _ detail: @autoclosure () -> String = "") {
  if condition {
    passes += 1
    print("PASS: \(what)")
  } else {
    failures += 1
    let extra = detail()
    print("FAIL: \(what)\(extra.isEmpty ? "" : " (\(extra))")")
  }
}

func attempt<T, E: Error>(_ what: String, _ body: () throws(E) -> T) -> T? {
  do {
    return try body()
  } catch {
    failures += 1
    print("FAIL: \(what): \(error)")
    return nil
  }
}

func expectError(
  _ what: String, message: String, kind: GPIOError.Kind, hintContains: String? = nil,
  _ body: () throws(GPIOError) -> Void
) {
  do {
    try body()
    check(false, what, "no error was thrown")
  } catch {
    print("      \(error)")
    var ok = error.message == message && error.kind == kind
    if let hintContains { ok = ok && (error.hint ?? "").includes(hintContains) }
    check(ok, what, "got kind \(error.kind), message '\(error.message)'")
  }
}

// MARK: the outside world

/// Runs a VM helper and returns its standard output without the trailing newline.
func run(_ executable: String, _ arguments: [String]) -> String? {
  attempt("run \(executable) \(arguments.joined(separator: " "))") { () throws -> String? in
    let child = try Subprocess.spawn(
      executable: executable, arguments: arguments, standardOutput: .pipe)
    var bytes: [UInt8] = []
    while case .bytes = try child.standardOutput!.read(appendingTo: &bytes) {}
    try child.standardOutput!.close()
    let status = try child.wait()
    guard status == .exited(0) else {
      print("      \(executable) \(status)")
      return nil
    }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
      ?? ""
  } ?? nil
}

/// Waits up to `timeoutMilliseconds` for events on `request`.
func waitForEvents(
  _ request: any GPIOInputRequest, count: Int, timeoutMilliseconds: Int64 = 3000
) throws -> [GPIOEdgeEvent] {
  let poller = try EventPoller()
  defer { try? poller.fileDescriptor.close() }
  guard let fd = request.fileDescriptor else { return [] }
  try poller.register(fd, token: 1)
  let deadline = MonotonicClock.now() + timeoutMilliseconds * 1_000_000
  var events: [GPIOEdgeEvent] = []
  while events.count < count && MonotonicClock.now() < deadline {
    _ = try poller.wait(until: deadline)
    events += try request.readEvents()
  }
  return events
}

// MARK: sampling

if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--sample" {
  let path = CommandLine.arguments[2]
  let seconds = Double(CommandLine.arguments[3]) ?? 1
  // Opened once and re-read from offset 0: each read at 0 makes sysfs show the value afresh,
  // without an open and a close per sample (slow under TCG).
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else {
    print("FAIL: cannot open \(path)")
    exit(1)
  }
  let start = MonotonicClock.now()
  let end = start + Int64(seconds * 1e9)
  var last: UInt8 = 0
  var buffer = [UInt8](repeating: 0, count: 8)
  while true {
    let now = MonotonicClock.now()
    guard now < end else { break }
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 8, 0) }
    guard count > 0 else {
      print("FAIL: cannot read \(path)")
      exit(1)
    }
    if buffer[0] != last {
      last = buffer[0]
      // Written straight to the descriptor: the script waits for the first line before it
      // presses, so it must not sit in stdio's buffer. The second figure is CLOCK_MONOTONIC, to
      // set beside the daemon's log.
      var line = Array(
        "CHANGE \((now - start) / 1_000_000) \(Character(Unicode.Scalar(last))) \(now / 1_000_000)\n"
          .utf8)
      _ = line.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
    }
    usleep(500)
  }
  exit(0)
}

// MARK: arguments

var buttonName = "wodclock-button"
var buttonOffset = 3
var outputOffset = 5
var spareOffset = 6
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  guard let value = arguments.popFirst() else {
    print("usage: wodclock-gpio-check [--button NAME] [--button-offset N] [--output N] [--spare N]")
    exit(2)
  }
  switch argument {
  case "--button": buttonName = value
  case "--button-offset": buttonOffset = Int(value) ?? -1
  case "--output": outputOffset = Int(value) ?? -1
  case "--spare": spareOffset = Int(value) ?? -1
  default:
    print("unknown option \(argument)")
    exit(2)
  }
}

guard let chipName = Environment.get("GPIO_SIM_CHIP"), let label = Environment.get("GPIO_SIM_LABEL")
else {
  print("FAIL: GPIO_SIM_CHIP and GPIO_SIM_LABEL are not set (run inside Tests/hil/gpio-sim-vm.sh)")
  exit(1)
}
let consumer = "wodclock-gpio-check"
print("wodclock-gpio-check: \(GPIOChips.libraryDescription), chip \(chipName), label \(label)")

// MARK: opening chips

let number = String(chipName.dropFirst("gpiochip".count))
var chip: (any GPIOChip)?
for spec in [chipName, "/dev/\(chipName)", label, number] {
  if let opened = attempt("open '\(spec)'", { () throws(GPIOError) in try GPIOChips.open(spec) }) {
    check(
      opened.info.name == chipName && opened.info.label == label && opened.info.lineCount == 8,
      "open '\(spec)' -> \(opened.info)")
    chip = chip ?? opened
  }
}
guard let chip else {
  print("0 passed... cannot continue without the chip")
  exit(1)
}
let listed = GPIOChips.list()
check(listed.contains(chip.info), "GPIOChips.list() -> \(listed.map(\.description))")

// MARK: lines by name

if let offset = attempt(
  "find \(buttonName)",
  { () throws(GPIOError) in
    try chip.offset(of: .name(buttonName))
  })
{
  check(offset == buttonOffset, "line named \(buttonName) is offset \(offset)")
}
if let info = attempt("line info", { () throws(GPIOError) in try chip.lineInfo(at: buttonOffset) })
{
  check(
    info.name == buttonName && !info.isUsed,
    "line \(buttonOffset) info: name \(info.name ?? "-"), unused")
}

// MARK: input with pull-up and both edges

if let input = attempt(
  "request \(buttonName) as input",
  { () throws(GPIOError) in
    try chip.requestInput(.name(buttonName), consumer: consumer, bias: .pullUp, edges: .both)
  })
{
  check(input.fileDescriptor != nil, "input request has a pollable descriptor")
  check((try? input.values()) == [true], "pull-up: input reads high")
  if let info = try? chip.lineInfo(at: buttonOffset) {
    check(
      info.isUsed && info.consumer == consumer && !info.isOutput,
      "line info while held: used by '\(info.consumer ?? "")'")
  }
  // A second open of the chip goes through the kernel, not through libgpiod's own bookkeeping.
  if let other = try? GPIOChips.open(chipName) {
    expectError(
      "second request of a held line",
      message: "line \(buttonOffset) of \(chipName) is used by '\(consumer)'", kind: .lineBusy
    ) { () throws(GPIOError) in
      _ = try other.requestInput(.offset(buttonOffset), consumer: "intruder")
    }
  }

  let before = MonotonicClock.now()
  _ = run("sim-pull", [String(buttonOffset), "down"])
  let falling = (try? waitForEvents(input, count: 1)) ?? []
  check((try? input.values()) == [false], "after sim-pull down: input reads low")
  _ = run("sim-pull", [String(buttonOffset), "up"])
  let rising = (try? waitForEvents(input, count: 1)) ?? []
  let after = MonotonicClock.now()
  let events = falling + rising
  for event in events { print("      \(event)") }
  check(
    events.map(\.edge) == [.falling, .rising] && events.allSatisfy { $0.offset == buttonOffset },
    "sim-pull down, up -> falling, rising on line \(buttonOffset)", "\(events)")
  if events.count == 2 {
    check(
      before <= events[0].timestamp && events[0].timestamp < events[1].timestamp
        && events[1].timestamp <= after,
      "edge timestamps are CLOCK_MONOTONIC and in order",
      "before \(before), events \(events.map(\.timestamp)), after \(after)")
  }
  check(
    ((try? input.readEvents()) ?? [GPIOEdgeEvent(offset: -1, edge: .rising, timestamp: 0)]).isEmpty,
    "no further events")
  input.release()
  if let info = try? chip.lineInfo(at: buttonOffset) {
    check(!info.isUsed, "released input line is free again")
  }
}

// Active-low: the usual button wiring (pull-up, button to ground) reads a press as active.
if let input = attempt(
  "request active-low input",
  { () throws(GPIOError) in
    try chip.requestInput(
      .offset(buttonOffset), consumer: consumer, bias: .pullUp, activeLow: true, edges: .both)
  })
{
  check((try? input.values()) == [false], "active-low, idle (high): reads inactive")
  _ = run("sim-pull", [String(buttonOffset), "down"])
  let press = (try? waitForEvents(input, count: 1)) ?? []
  check(
    press.map(\.edge) == [.rising] && (try? input.values()) == [true],
    "active-low press (pin low) -> rising edge, reads active", "\(press)")
  _ = run("sim-pull", [String(buttonOffset), "up"])
  let letGo = (try? waitForEvents(input, count: 1)) ?? []
  check(letGo.map(\.edge) == [.falling], "active-low release -> falling edge", "\(letGo)")
  input.release()
}

// MARK: outputs

if let output = attempt(
  "request output",
  { () throws(GPIOError) in
    try chip.requestOutput(.offset(outputOffset), consumer: consumer, initialValue: false)
  })
{
  check(run("sim-value", [String(outputOffset)]) == "0", "output initial low -> sim-value 0")
  _ = attempt("set high") { () throws(GPIOError) in try output.setValue(true) }
  check(run("sim-value", [String(outputOffset)]) == "1", "output set high -> sim-value 1")
  _ = attempt("set low") { () throws(GPIOError) in try output.setValue(false) }
  check(run("sim-value", [String(outputOffset)]) == "0", "output set low -> sim-value 0")
  if let info = try? chip.lineInfo(at: outputOffset) {
    check(info.isOutput && info.consumer == consumer, "line info: output held by \(consumer)")
  }
  output.release()
}

// Two outputs in one request: setting one line must leave the other alone (uAPI v1 sets all
// lines of a handle at once; CGPIOShim resends the others).
if let pair = attempt(
  "request two outputs",
  { () throws(GPIOError) in
    try chip.requestOutputs(
      [.offset(outputOffset), .offset(spareOffset)], consumer: consumer, activeLow: false,
      initialValues: [true, false])
  })
{
  _ = attempt("set spare high") { () throws(GPIOError) in try pair.setValue(true, at: spareOffset) }
  let both = [run("sim-value", [String(outputOffset)]), run("sim-value", [String(spareOffset)])]
  check(both == ["1", "1"], "setting one line of two keeps the other", "\(both)")
  _ = attempt("set both") { () throws(GPIOError) in try pair.setValues([false, true]) }
  let after = [run("sim-value", [String(outputOffset)]), run("sim-value", [String(spareOffset)])]
  check(after == ["0", "1"], "setValues([false, true]) -> 0, 1", "\(after)")
  pair.release()
}

// Active-low output: logical on drives the pin low.
if let output = attempt(
  "request active-low output",
  { () throws(GPIOError) in
    try chip.requestOutput(
      .offset(outputOffset), consumer: consumer, activeLow: true, initialValue: false)
  })
{
  check(run("sim-value", [String(outputOffset)]) == "1", "active-low output off -> pin high")
  _ = attempt("set on") { () throws(GPIOError) in try output.setValue(true) }
  check(run("sim-value", [String(outputOffset)]) == "0", "active-low output on -> pin low")
  output.release()
}

// MARK: error texts

let chipList = "\(chipName) (\(label), 8 lines)"
expectError(
  "missing line name", message: "\(chipName) has 8 lines; no line named GPIO99", kind: .noSuchLine,
  hintContains: buttonName
) { () throws(GPIOError) in _ = try chip.offset(of: "GPIO99") }
expectError(
  "offset past the end", message: "\(chipName) has 8 lines; no line 8", kind: .noSuchLine
) { () throws(GPIOError) in _ = try chip.requestOutput(.offset(8), consumer: consumer) }
expectError(
  "missing label", message: "no GPIO chip with label 'pinctrl-rp1'; chips: \(chipList)",
  kind: .noSuchChip
) { () throws(GPIOError) in _ = try GPIOChips.open("pinctrl-rp1") }
expectError(
  "missing chip name", message: "no GPIO chip gpiochip99; chips: \(chipList)", kind: .noSuchChip
) { () throws(GPIOError) in _ = try GPIOChips.open("gpiochip99") }
expectError(
  "missing chip path", message: "no GPIO chip at /dev/gpiochip99; chips: \(chipList)",
  kind: .noSuchChip
) { () throws(GPIOError) in _ = try GPIOChips.open("/dev/gpiochip99") }
do {
  _ = try GPIOChips.open("/dev/null")
  check(false, "/dev/null is not a GPIO chip", "it opened")
} catch {
  print("      \(error)")
  check(
    error.kind == .noSuchChip && error.message.hasPrefix("/dev/null is not a GPIO chip"),
    "/dev/null is not a GPIO chip", error.message)
}

print("wodclock-gpio-check: \(passes) passed, \(failures) failed (\(GPIOChips.libraryDescription))")
exit(failures == 0 ? 0 : 1)

extension String {
  /// Whether `part` occurs in this string (the standard library alone has no substring search).
  func includes(_ part: String) -> Bool {
    indices.contains { self[$0...].hasPrefix(part) } || part.isEmpty
  }
}
