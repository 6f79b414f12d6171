#!/usr/bin/env bash
# The man pages and the shell completion against the real programs: each page renders without a
# warning from groff, names every option and command the programs' own --help lists, and the
# bash completion, sourced in bash, completes commands, options and the presets of a running
# daemon (and nothing, quietly, when no daemon answers). zsh's is at least parsed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.build/debug"
. "$root/Tests/scripts/daemon-support.sh"
[ -x "$bin/wodclockd" ] && [ -x "$bin/wodclockctl" ] || { echo "build first: swift build" >&2; exit 1; }
command -v groff >/dev/null || { echo "groff is missing (Debian groff-base)"; exit 1; }
tmp=$(mktemp -d)
daemon=
cleanup() {
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for page in "$root"/docs/man/*.[0-9]; do
  warnings=$(groff -man -ww -z "$page" 2>&1) || true
  [ -z "$warnings" ] || fail "$(basename "$page") makes groff warn: $warnings"
done

# Every --option of the programs' usage is in their page (roff writes a dash as \-).
mentions() { grep -qF -- "$(sed 's/-/\\-/g' <<<"$2")" "$1"; }
for option in $("$bin/wodclockd" --help | grep -oE -- '--[a-z-]+' | sort -u); do
  mentions "$root/docs/man/wodclockd.8" "$option" || fail "wodclockd.8 does not name $option"
done
usage=$("$bin/wodclockctl" --help)
commands=$(sed -n '/^commands:/,/^$/p' <<<"$usage" | awk 'NF > 1 { print $1 }')
[ "$(wc -w <<<"$commands")" -ge 20 ] || fail "no command list in wodclockctl --help"
for option in $(grep -oE -- '--[a-z-]+' <<<"$usage" | sort -u); do
  mentions "$root/docs/man/wodclockctl.1" "$option" || fail "wodclockctl.1 does not name $option"
  grep -qF -- "$option" "$root/completion/_wodclockctl" || fail "the zsh completion lacks $option"
done
# The headings of the page's entries: the line after each .TP.
headings=$(awk 'previous == ".TP" { print } { previous = $0 }' "$root/docs/man/wodclockctl.1" \
  | tr -c 'a-z\n' ' ')
for command in $commands; do
  grep -qw -- "$command" <<<"$headings" || fail "wodclockctl.1 has no entry for '$command'"
  grep -qE "'$command:|\"$command:" "$root/completion/_wodclockctl" \
    || fail "the zsh completion lacks '$command'"
done

if command -v zsh >/dev/null; then
  zsh -n "$root/completion/_wodclockctl" || fail "the zsh completion does not parse"
else
  echo "zsh is not installed: its completion was not parsed"
fi

# complete WORD...: the bash completion's answers for a command line whose last word is being
# completed, one per line, sorted; what it writes to stderr goes to $tmp/stderr.
complete_line() {
  PATH="$bin:$PATH" bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _wodclockctl
    printf "%s\n" "${COMPREPLY[@]}"' complete "$root/completion/wodclockctl.bash" "$@" \
    2>"$tmp/stderr" | sed '/^$/d' | sort | paste -sd' '
}
expect_completion() {
  local wanted=$1; shift
  local got
  got=$(complete_line "$@")
  [ "$got" = "$wanted" ] || fail "completing '$*': got '$got', wanted '$wanted'"
  [ ! -s "$tmp/stderr" ] || fail "completing '$*' wrote to stderr: $(cat "$tmp/stderr")"
}
expect_completion "start stats status" wodclockctl st
expect_completion "$(tr ' ' '\n' <<<"$commands" | sort | paste -sd' ')" wodclockctl ""
expect_completion "--help --json --socket --version" wodclockctl -
expect_completion "--help --replace --start" wodclockctl run amrap 14 -
expect_completion "off on" wodclockctl mute o
socket="$tmp/wodclockd.sock"
expect_completion "" wodclockctl --socket "$socket" load ""

cat > "$tmp/wodclock.yaml" <<'YAML'
presets:
  fran: "21-15-9 for time cap 10"
  fight-gone-bad: "amrap 17"
  emom_10: "emom 10 x 1:00"
outputs:
  - type: log
YAML
start_daemon "$bin" "$tmp/wodclock.yaml" "$socket" "$tmp"
"$bin/wodclockctl" --socket "$socket" load fran >/dev/null
expect_completion "emom_10 fight-gone-bad fran" wodclockctl --socket "$socket" load ""
expect_completion "fight-gone-bad fran" wodclockctl --socket="$socket" load f
expect_completion "fight-gone-bad" wodclockctl --json --socket "$socket" load fi
got=$(WODCLOCK_SOCKET="$socket" complete_line wodclockctl load e)
[ "$got" = "emom_10" ] || fail "completing with \$WODCLOCK_SOCKET: got '$got'"
expect_completion "--help --replace --start" wodclockctl --socket "$socket" load -

[ "$failures" -eq 0 ]
