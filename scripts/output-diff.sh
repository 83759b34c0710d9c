#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Output of two schedlens binaries on the same inputs, command by command: the safety net of
# a refactoring that must keep every output (report with each key set, --children, -g,
# --folded, --header, --stats, -n, --group; script; sched -i and --json) identical except
# where it fixes something. Inputs: every fixture in ../shared/fixtures, plus recordings made
# here once (perf record -g, --call-graph dwarf, system-wide sched tracepoints) when perf can.
# Prints one line per input and command that differs, with the first lines of the diff, and
# a summary; exits 1 when anything differs.
#
# Usage: scripts/output-diff.sh OLD_BIN NEW_BIN [WORKDIR]
set -u
[ $# -ge 2 ] || { sed -n 's/^# \{0,1\}//; /^Usage:/p' "$0" >&2; exit 2; }
old=$(readlink -f "$1") new=$(readlink -f "$2")
top=$(cd "$(dirname "$0")/.." && pwd)
fixtures=${FIXTURES:-$top/../shared/fixtures}
work=${3:-$(mktemp -d)}
[ $# -ge 3 ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
export LC_ALL=C SCHEDLENS_NO_CACHE=1

inputs=()
for f in "$fixtures"/real/*.data "$fixtures"/local/*.data; do
	[ -f "$f" ] && inputs+=("$f")
done
# recordings like users make, once per WORKDIR
if command -v perf >/dev/null; then
	rec() { # NAME PERF-RECORD-ARGS...
		local out=$work/in/$1.data; shift
		[ -s "$out" ] || perf record -q -o "$out" "$@" >/dev/null 2>&1 || rm -f "$out"
		[ -s "$out" ] && inputs+=("$out")
	}
	gcc -g -O1 -fno-omit-frame-pointer -o "$work/in/deepstack" "$top/tests/data/deepstack.c" \
		2>/dev/null && {
		rec fp-g -g -e cpu-clock -c 200000 -- "$work/in/deepstack"
		rec dwarf --call-graph dwarf -e cpu-clock -c 1000000 -- "$work/in/deepstack"
	}
	[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] &&
		rec sched -a -e 'sched:sched_switch' -e 'sched:sched_wakeup' \
			-e 'sched:sched_waking' -e 'sched:sched_migrate_task' -- "$new" bench pipe -l 3000
fi

cmds=(
	"report"
	"report --sort sym"
	"report --sort dso"
	"report --sort comm,dso,sym -n"
	"report --sort pid,cpu"
	"report --children"
	"report -g caller"
	"report -g callee"
	"report --folded"
	"report --no-group"
	"report --header"
	"report --header -I"
	"report --stats"
	"report -t ,"
	"script"
	"sched"
	"sched --json"
)
ndiff=0 nsame=0
for f in "${inputs[@]}"; do
	name=$(basename "$f" .data)
	for c in "${cmds[@]}"; do
		read -ra argv <<<"$c"
		"$old" "${argv[@]}" -i "$f" >"$work/old.out" 2>"$work/old.err"; orc=$?
		"$new" "${argv[@]}" -i "$f" >"$work/new.out" 2>"$work/new.err"; nrc=$?
		# (the time a JSON document was made is the run's, not the program's)
		sed -i 's/^\(  *"created": \)"[^"]*"/\1"-"/' "$work/old.out" "$work/new.out"
		if [ $orc -eq $nrc ] && cmp -s "$work/old.out" "$work/new.out" &&
			cmp -s "$work/old.err" "$work/new.err"; then
			nsame=$((nsame + 1))
			continue
		fi
		ndiff=$((ndiff + 1))
		echo "DIFF $name: $c (exit $orc -> $nrc)"
		diff "$work/old.out" "$work/new.out" | head -6 | sed 's/^/    /'
		diff "$work/old.err" "$work/new.err" | head -4 | sed 's/^/    err /'
	done
done
echo "output-diff: ${#inputs[@]} inputs x ${#cmds[@]} commands: $nsame equal, $ndiff differ"
[ $ndiff -eq 0 ]
