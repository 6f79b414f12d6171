#!/usr/bin/env bash
# Every relative link and image in README.md and docs/*.md points at a file that exists, and
# every anchor (`#x`, `page.md#x`) at a heading the target makes. Anchors follow GitHub's rule:
# the heading's text lowercased, spaces to `-`, punctuation other than `-` and `_` dropped, a
# repeated heading suffixed `-1`, `-2`. Links and headings inside code are not links. No network:
# absolute URLs are left alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

check() {
  python3 - "$@" <<'PY'
import os, re, sys

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")

def prose_lines(path):
    """The lines outside fenced code, with inline code spans blanked, numbered from 1."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, line.rstrip("\n")

def slug(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)   # a link's text stays
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen = {}
        found = set()
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        anchors_cache[path] = found
    return anchors_cache[path]

def paragraphs(path):
    """Runs of prose lines joined with spaces (a link may wrap), with the first line's number."""
    start, lines, last = None, [], None
    for number, line in prose_lines(path):
        if not line.strip() or (last is not None and number != last + 1):
            if lines:
                yield start, " ".join(lines)
            start, lines = None, []
        if line.strip():
            start = number if start is None else start
            lines.append(line.strip())
        last = number
    if lines:
        yield start, " ".join(lines)

problems = 0
for page in sys.argv[1:]:
    here = os.path.dirname(page)
    for number, text in paragraphs(page):
        text = re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), text)
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue                              # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(here, path)) if path else page
            if not os.path.exists(resolved):
                print(f"{page}:{number}: link to a missing file: {target}")
                problems += 1
                continue
            if anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                print(f"{page}:{number}: no heading makes the anchor #{anchor} in {os.path.relpath(resolved)}")
                problems += 1
sys.exit(1 if problems else 0)
PY
}

cd "$root"
check README.md docs/*.md

# The check itself must be able to fail: a missing file, a missing anchor (also in a link that
# wraps) and an image path written from the wrong directory are caught; a heading's anchor with
# code and punctuation is found, and a link inside code is not a link.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/docs/web"
touch "$scratch/docs/web/shot.png"
cat >"$scratch/README.md" <<'EOF'
# Page
## Buttons (`gpio-button`), wired!
See [buttons](#buttons-gpio-button-wired) and [the page](docs/page.md#a-part).
`[not a link](nowhere.md)`
```
[not a link either](nowhere.md)
```
EOF
printf '# Page\n## A part\n![shot](web/shot.png)\n' >"$scratch/docs/page.md"
(cd "$scratch" && check README.md docs/page.md) || { echo "the link check refused good links" >&2; exit 1; }
printf '[gone](docs/gone.md) [no\nanchor](docs/page.md#b-part)\n' >>"$scratch/README.md"
printf '![wrong dir](docs/web/shot.png)\n' >>"$scratch/docs/page.md"
caught=$(cd "$scratch" && check README.md docs/page.md | wc -l || true)
[ "$caught" -eq 3 ] || { echo "the link check caught $caught of 3 broken links" >&2; exit 1; }
