#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering rules of docs/development.md, checked on the sources.

Usage: check-layers.py [ROOT]    (ROOT: the repository, by default the one holding this script)

1. A pure module (the functional core: a `.pureTarget` of Package.swift) imports only the
   standard library and other pure modules, and depends in Package.swift only on other pure
   modules.
2. A plugin file (Sources/WodclockDaemon/Plugins) reaches the operating system only through
   HardwareKit: it imports no C module, no Glibc, no Foundation, no Dispatch.
3. The test support (WodclockTestSupport) is for the tests, wodclock-bench and
   wodclock-sound-check only: no other module under Sources/ imports it or names one of its
   types, and wodclockd and wodclockctl depend on no target that lives under Tests/.
4. The daemon (Sources/WodclockDaemon) reads the clocks only through the `DaemonClock` it is
   given: the monotonic and the wall clock, civil time and the time zone are read in one file,
   the one that makes the machine's clock, so a test's manual clock reaches every part.

Each violation is reported as a compiler would (file:line:column: error: what, the line, a
caret, hint: what to do instead). Exits 0 when the tree holds to the rules, 1 when it does not,
64 on a usage error and 66 when ROOT has no Package.swift.
"""

import os
import re
import sys

# What a pure module may import besides the other pure modules: the standard library's own.
STANDARD_LIBRARY = {"Swift", "_Concurrency", "Synchronization"}
# Modules that talk to the operating system; a plugin file goes through HardwareKit instead.
OS_MODULES = {
    "Glibc", "Musl", "Darwin", "SwiftGlibc", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "Dispatch",
}
TEST_SUPPORT = "WodclockTestSupport"
# Allowed to use the test support although its sources are under Sources/: a developer tool.
TEST_SUPPORT_USERS = {"wodclock-bench", "wodclock-sound-check"}
PRODUCTS = ["wodclockd", "wodclockctl"]
PLUGINS_DIRECTORY = "Sources/WodclockDaemon/Plugins"
DAEMON_DIRECTORY = "Sources/WodclockDaemon"
# The one file of the daemon that reads the machine's clocks: it makes `DaemonClock.system`.
CLOCK_FILE = "Sources/WodclockDaemon/Runtime/DaemonEnvironment.swift"
# HardwareKit's clock reads (Clocks.swift), and the C functions under them.
CLOCK_READ = re.compile(
    r"\b(?:MonotonicClock\s*\.\s*now|WallClock\s*\.\s*(?:now|civilTime|reloadTimeZone|offsets"
    r"|isSynchronized)|clock_gettime|gettimeofday|tzset|localtime_r|localtime|time\s*\(\s*nil)\b")

IMPORT = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))?[ \t]+)*"
    r"(?:(?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)[ \t]+)?([A-Za-z_]\w*)",
    re.M)


class Report:
    def __init__(self, root):
        self.root = root
        self.errors = []
        self.texts = {}
        self.codes = {}

    def error(self, path, offset, length, message, hint):
        text = self.texts[path]
        line = text.count("\n", 0, offset) + 1
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        source = text[start:end if end >= 0 else len(text)]
        column = offset - start + 1
        caret = "".join("\t" if c == "\t" else " " for c in source[:column - 1])
        caret += "^" + "~" * max(0, min(length, len(source) - column + 1) - 1)
        relative = os.path.relpath(path, self.root)
        self.errors.append((relative, line, column,
                            f"{relative}:{line}:{column}: error: {message}\n{source}\n{caret}\n"
                            f"hint: {hint}\n"))

    def read(self, path):
        if path not in self.texts:
            with open(path, encoding="utf-8", errors="replace") as file:
                self.texts[path] = file.read()
        return self.texts[path]

    def code(self, path):
        """The file's code without its comments and strings (see `code_only`)."""
        if path not in self.codes:
            self.codes[path] = code_only(self.read(path))
        return self.codes[path]


TOKEN_START = re.compile(r'//|/\*|#*"')
BLOCK_COMMENT_MARK = re.compile(r"/\*|\*/")


def blanked(piece):
    return re.sub(r"[^\n]", " ", piece)


def code_only(text, keep_strings=False):
    """`text` with comments and (unless `keep_strings`) string literals blanked out, newlines
    kept, so that offsets still match and a word in a comment or a message is not taken for
    code."""
    pieces, i, n = [], 0, len(text)
    while True:
        match = TOKEN_START.search(text, i)
        if not match:
            pieces.append(text[i:])
            return "".join(pieces)
        start, token = match.start(), match.group()
        pieces.append(text[i:start])
        if token == "//":
            end = text.find("\n", start)
            end = n if end < 0 else end
            pieces.append(blanked(text[start:end]))
        elif token == "/*":
            depth, end = 1, start + 2
            while depth:
                mark = BLOCK_COMMENT_MARK.search(text, end)
                if not mark:
                    end = n
                    break
                depth += 1 if mark.group() == "/*" else -1
                end = mark.end()
            pieces.append(blanked(text[start:end]))
        else:
            # "…", """…""" (several lines) and the raw #"…"#; a plain "…" ends at its line.
            hashes = len(token) - 1
            end = match.end()
            multiline = text.startswith('""', end)
            quote = '"""' if multiline else '"'
            end += 2 if multiline else 0
            closing = quote + "#" * hashes
            alternatives = [re.escape(closing)]
            if hashes == 0:
                alternatives.insert(0, r"\\.")
            if not multiline:
                alternatives.append(r"\n")
            stop = re.compile("|".join(alternatives), re.S)
            while True:
                found = stop.search(text, end)
                if not found:
                    end = n
                    break
                end = found.end()
                if found.group() == closing or found.group() == "\n":
                    break
            literal = text[start:end]
            pieces.append(literal if keep_strings else blanked(literal))
        i = end


def swift_files(directory):
    for base, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def imports(report, path):
    for match in IMPORT.finditer(report.code(path)):
        yield match.group(1), match.start(1)


def balanced(text, start):
    """The index just past the parenthesis that closes the one at `start`."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(text)


def manifest_targets(report, manifest):
    """Every target of Package.swift: name, kind, directory, and its dependencies with the
    offsets of their names."""
    text = report.read(manifest)
    code = code_only(text, keep_strings=True)
    targets = {}
    kinds = r"\.(target|pureTarget|executableTarget|testTarget|systemLibrary)\("
    for match in re.finditer(kinds, code):
        end = balanced(code, match.end() - 1)
        body = slice(match.end(), end)
        name = re.search(r'name:\s*"', code[body])
        if not name:
            continue
        name_start = match.end() + name.start()
        target_name = re.match(r'name:\s*"([^"]*)"', code[name_start:]).group(1)
        path = re.search(r'path:\s*"([^"]*)"', code[body])
        kind = match.group(1)
        if path:
            directory = path.group(1)
        else:
            directory = ("Tests/" if kind == "testTarget" else "Sources/") + target_name
        dependencies = []
        listed = re.search(r"dependencies:\s*\[", code[body])
        if listed:
            list_start = match.end() + listed.end()
            list_end = code.index("]", list_start)
            for dependency in re.finditer(r'"([^"]+)"', code[list_start:list_end]):
                dependencies.append((dependency.group(1), list_start + dependency.start()))
        targets[target_name] = {
            "kind": kind, "directory": directory, "dependencies": dependencies,
        }
    products = {}
    for match in re.finditer(r"\.executable\(", code):
        body = code[match.end():balanced(code, match.end() - 1)]
        name = re.search(r'name:\s*"([^"]+)"', body)
        listed = re.search(r"targets:\s*\[([^\]]*)\]", body)
        if name and listed:
            products[name.group(1)] = re.findall(r'"([^"]+)"', listed.group(1))
    return targets, products


def is_c_module(root, target):
    if target["kind"] == "systemLibrary":
        return True
    directory = os.path.join(root, target["directory"])
    return os.path.isdir(directory) and not any(True for _ in swift_files(directory))


def public_types(report, directory):
    """The public types declared at the top level of the files in `directory` (a nested type
    such as `FakeGPIOChip.Change` is named through its parent)."""
    names = set()
    for path in swift_files(directory):
        code = report.code(path)
        names.update(re.findall(
            r"^public\s+(?:final\s+)?(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)",
            code, re.M))
    return names


def check(root):
    report = Report(root)
    manifest = os.path.join(root, "Package.swift")
    targets, products = manifest_targets(report, manifest)
    c_modules = {name for name, target in targets.items() if is_c_module(root, target)}
    pure = {name for name, target in targets.items() if target["kind"] == "pureTarget"}

    # 1. Pure modules.
    for module in sorted(pure):
        target = targets[module]
        for dependency, offset in target["dependencies"]:
            if dependency not in pure:
                report.error(
                    manifest, offset, len(dependency) + 2,
                    f"pure module {module} depends on {dependency}",
                    "the functional core depends only on other pure modules; what needs the "
                    "operating system belongs to HardwareKit and the shell (WodclockDaemon)")
        for path in swift_files(os.path.join(root, target["directory"])):
            for name, offset in imports(report, path):
                if name in pure or name in STANDARD_LIBRARY:
                    continue
                what = ("a C module" if name in c_modules
                        else "an operating-system module" if name in OS_MODULES
                        else "a module outside the functional core")
                report.error(
                    path, offset, len(name),
                    f"{module} is a pure module and imports {name}, {what}",
                    "pure modules use the standard library and each other only: no IO, no "
                    "clock reads; take the value as a parameter and let the shell read it "
                    "through HardwareKit")

    # 2. Plugin files.
    forbidden = c_modules | OS_MODULES
    for path in swift_files(os.path.join(root, PLUGINS_DIRECTORY)):
        for name, offset in imports(report, path):
            if name in forbidden:
                report.error(
                    path, offset, len(name),
                    f"a plugin file imports {name}; plugins reach the operating system only "
                    "through HardwareKit",
                    "put the call in a small HardwareKit function (on FileDescriptor, "
                    "SerialPort, ...) and call that")

    # 3. The test support.
    support = targets.get(TEST_SUPPORT, {"directory": "Tests/" + TEST_SUPPORT})
    support_directory = os.path.join(root, support["directory"])
    support_types = (public_types(report, support_directory)
                     if os.path.isdir(support_directory) else set())
    type_pattern = (re.compile(r"\b(" + "|".join(sorted(support_types)) + r")\b")
                    if support_types else None)
    sources = os.path.join(root, "Sources")
    for entry in sorted(os.listdir(sources)) if os.path.isdir(sources) else []:
        if entry in TEST_SUPPORT_USERS:
            continue
        for path in swift_files(os.path.join(sources, entry)):
            for name, offset in imports(report, path):
                if name == TEST_SUPPORT:
                    report.error(
                        path, offset, len(name),
                        f"{entry} imports the test support {TEST_SUPPORT}",
                        "the product carries no fakes: take a protocol or a closure that a "
                        "test fills with the fake (as GPIOChipSource's opener)")
            if type_pattern:
                for match in type_pattern.finditer(report.code(path)):
                    report.error(
                        path, match.start(), len(match.group(1)),
                        f"{entry} names {match.group(1)}, a type of the test support",
                        "the product carries no fakes: take a protocol or a closure that a "
                        "test fills with the fake (as GPIOChipSource's opener)")
    for name, target in targets.items():
        if target["kind"] == "testTarget" or name in TEST_SUPPORT_USERS:
            continue
        if not target["directory"].startswith("Sources/"):
            continue
        for dependency, offset in target["dependencies"]:
            if dependency == TEST_SUPPORT:
                report.error(
                    manifest, offset, len(dependency) + 2,
                    f"{name} depends on the test support {TEST_SUPPORT}",
                    "only the test targets, wodclock-bench and wodclock-sound-check may; the product carries no fakes")
    for product in PRODUCTS:
        seen, chain = set(), {}
        pending = [(target, None) for target in products.get(product, [])]
        while pending:
            name, parent = pending.pop()
            if name in seen or name not in targets:
                continue
            seen.add(name)
            chain[name] = parent
            target = targets[name]
            for dependency, offset in target["dependencies"]:
                dependent = targets.get(dependency)
                if (dependent and dependent["directory"].startswith("Tests/")
                        and dependency not in seen):
                    path = [dependency, name]
                    while chain.get(path[-1]):
                        path.append(chain[path[-1]])
                    report.error(
                        manifest, offset, len(dependency) + 2,
                        f"{product} links {dependency}, which lives under Tests/ "
                        f"({' <- '.join(path)})",
                        "what the tests share stays out of wodclockd and wodclockctl")
                pending.append((dependency, name))

    # 4. The daemon's clock reads.
    daemon = os.path.join(root, DAEMON_DIRECTORY)
    clock_file = os.path.join(root, CLOCK_FILE)
    for path in swift_files(daemon) if os.path.isdir(daemon) else []:
        if path == clock_file:
            continue
        for match in CLOCK_READ.finditer(report.code(path)):
            report.error(
                path, match.start(), len(match.group()),
                f"the daemon reads the clock directly ({match.group()})",
                "read it through the DaemonClock the daemon is given (monotonic, wall, "
                f"zone.civilTime, zone.reload), which only {CLOCK_FILE} makes from the "
                "machine's clocks: a test's manual clock must reach every part")
    return report


def main(arguments):
    if len(arguments) > 1 or (arguments and arguments[0].startswith("-")):
        sys.stderr.write("usage: check-layers.py [ROOT]\n")
        return 64
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(arguments[0] if arguments else os.path.join(here, "..", ".."))
    if not os.path.isfile(os.path.join(root, "Package.swift")):
        sys.stderr.write(f"check-layers.py: error: no Package.swift in {root}\n")
        return 66
    report = check(root)
    for _, _, _, text in sorted(set(report.errors)):
        sys.stderr.write(text)
    if report.errors:
        count = len(set(report.errors))
        sys.stderr.write(f"layering: {count} error{'s' if count != 1 else ''}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
