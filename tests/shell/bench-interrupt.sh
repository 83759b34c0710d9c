#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens bench and SIGINT: every workload, in a run too long to end on its own, stops within
# a second of SIGINT sent in its measured phase (to the process alone, as `kill` or a measuring
# parent sends it, and to its process group, as a terminal's Ctrl-C does), exits 130, prints
# the part that ran as "N of M", leaves no task behind, and a results document keeps the
# complete runs. An unusable -o is refused before any work.
#
# The test knows the workload runs through the measured-phase protocol (phase.h): it is the
# controller on two FIFOs, so the workload's "enable" is the event it waits for, never a sleep.
source "$(dirname "$0")/lib.sh"

BOUND_US=1000000	# the longest a stop may take, signal to exit

# start NAME ARGS...: `schedlens bench ARGS` in the background ($pid) with its phase channel
# on fds 7 (its commands) and 8 (our acks); returns once its measured phase began
start() {
	local name=$1; shift
	mkfifo "$TMP/$name.ctl" "$TMP/$name.ack"
	# its own process group where setsid exists, to send a terminal's SIGINT and to tell
	# that no task outlived it
	SCHEDLENS_CONTROL=fd:5,6 $SETSID "$SCHEDLENS" bench "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" 5>"$TMP/$name.ctl" 6<"$TMP/$name.ack" &
	pid=$!
	exec 7<"$TMP/$name.ctl" 8>"$TMP/$name.ack"
	phase "$name" enable
}

# phase NAME CMD: read the workload's next command, which must be CMD, and ack it
phase() {
	local cmd
	read -r -t 60 cmd <&7 ||
		{ kill -KILL "$pid"; cat "$TMP/$1.err" >&2; fail "$1: no '$2' from the workload"; }
	[ "$cmd" = "$2" ] ||
		{ kill -KILL "$pid"; fail "$1: '$cmd' from the workload, expected '$2'"; }
	echo ack >&8
}

# ticks: the CPU time (clock ticks) the workload's tasks ($pid, its threads and children) used
ticks() {
	local p t line sum=0
	for p in $pid $(pgrep -P "$pid"); do
		for t in /proc/$p/task/*/stat; do
			read -r line 2>/dev/null <"$t" || continue
			line=${line##*) }
			# shellcheck disable=SC2086
			set -- $line
			sum=$((sum + ${12} + ${13}))
		done
	done
	echo $sum
}

# busy NAME: returns once the workload's tasks have run a little in their measured phase (two
# clock ticks of CPU time), so that the signal lands in the middle of their loops
busy() {
	local base end=$((SECONDS + 60))
	base=$(ticks)
	while [ "$(ticks)" -lt $((base + 2)) ]; do
		[ $SECONDS -lt $end ] || { kill -KILL "$pid"; fail "$1: its tasks do not run"; }
	done
}

# interrupt NAME [group|held]: SIGINT to $pid (group: to its process group; held: its phase's
# "enable" is read but acked only after the signal), the end of its phase acked; sets $rc and
# $ms (signal to exit)
interrupt() {
	local t0 t1
	# the clock without a fork: the workload may keep the CPUs busy until it sees the signal
	t0=${EPOCHREALTIME/./}
	if [ "${2:-}" = group ]; then kill -INT -- "-$pid"; else kill -INT "$pid"; fi
	[ "${2:-}" = held ] && echo ack >&8
	phase "$1" disable
	timeout 5 tail -s 0.01 --pid="$pid" -f /dev/null ||
		{ kill -KILL -- "-$pid" "$pid" 2>/dev/null; fail "$1: runs 5 s after SIGINT"; }
	t1=${EPOCHREALTIME/./}
	exec 7<&- 8>&-
	wait "$pid"
	rc=$?
	ms=$(((t1 - t0) / 1000))
	[ $rc -eq 130 ] ||
		{ cat "$TMP/$1.out" "$TMP/$1.err" >&2; fail "$1: exit $rc after SIGINT, not 130"; }
	[ $((t1 - t0)) -lt $BOUND_US ] || fail "$1: exit $ms ms after SIGINT, over 1 s"
	if [ -n "$SETSID" ] && pgrep -g "$pid" >/dev/null; then
		pgrep -a -g "$pid" >&2
		kill -KILL -- "-$pid"
		fail "$1: a task outlived the run"
	fi
}

SETSID=
command -v setsid >/dev/null && SETSID=setsid

# NAME | WHAT THE LINE SAYS | bench ARGS: each cannot end on its own within the test
runs=(
	"pipe|round trips|pipe -l 1000000000"
	"pipe-threads|round trips|pipe -T -l 1000000000"
	"messaging|messages|messaging -f 4 -l 100000000"
	"messaging-threads|messages|messaging -T -f 4 -l 100000000"
	"messaging-pipes|messages|messaging -p -f 4 -l 100000000"
	"wakeup|s after|wakeup -m 1 -t 2 -F 16 -d 3600 -w 10ms"
	"pound-times|calls|pound-times -n 1000000000000"
	"pound-clock-gettime|calls|pound-clock-gettime -n 1000000000000"
	"tcp|s:|tcp -c 2 -d 3600 -w 10ms"
)
for r in "${runs[@]}"; do
	IFS='|' read -r name what args <<<"$r"
	# shellcheck disable=SC2086
	start "$name" $args
	busy "$name"
	interrupt "$name"
	grep -Eq "[0-9.]+ of [0-9.]+ $what" "$TMP/$name.out" ||
		{ cat "$TMP/$name.out" >&2; fail "$name: no line with the part that ran"; }
	grep -q "^bench: interrupted in run 1 of 1" "$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; fail "$name: no interruption note"; }
	echo "$name: exit 130, $ms ms after SIGINT: $(head -1 "$TMP/$name.out")"
done

# a terminal's Ctrl-C reaches every process of the group at once
if [ -n "$SETSID" ]; then
	for args in "pipe -l 1000000000" "messaging -f 4 -l 100000000"; do
		name=group-${args%% *}
		# shellcheck disable=SC2086
		start "$name" $args
		busy "$name"
		interrupt "$name" group
		echo "$name: SIGINT to the process group, exit 130 $ms ms after it"
	done
fi

# -r with a document: the second run interrupted, the first one kept. The second run's phase
# waits for our ack until the signal is sent, so it cannot end before the signal does.
start repeat pipe -T -l 1000 -r 3 -o "$TMP/repeat.json"
phase repeat disable
read -r -t 60 cmd <&7 && [ "$cmd" = enable ] || { kill -KILL "$pid"; fail "repeat: no second run"; }
interrupt repeat held
grep -q "^bench: interrupted in run 2 of 3 .*: '$TMP/repeat.json' holds the 1 complete run$" \
	"$TMP/repeat.err" || { cat "$TMP/repeat.err" >&2; fail "repeat: interruption note"; }
python3 - "$TMP/repeat.json" <<'PY' || fail "repeat: the document does not hold the complete run"
import json, sys
[e] = json.load(open(sys.argv[1]))["entries"]
assert len(e["iterations"]) == 1, e["iterations"]
assert "round_trips" not in e["metrics"], e["metrics"]
PY
echo "repeat: interrupted in run 2 of 3, the document holds run 1 ($ms ms)"

# an unusable -o fails before any work: at once, on a run that would take an hour
refuse() {
	local out=$1 want=$2
	timeout 5 "$SCHEDLENS" bench wakeup -d 3600 -o "$out" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$TMP/err" >&2; fail "-o $out: exit $rc, expected 2 at once"; }
	grep -qx "bench: cannot create '$out': $want" "$TMP/err" ||
		{ cat "$TMP/err" >&2; fail "-o $out: message"; }
	[ ! -s "$TMP/out" ] || fail "-o $out: the workload ran"
}
refuse /nonexistent/x.json "No such file or directory"
refuse "$TMP" "Is a directory"
echo "-o refused before the run: /nonexistent/x.json, a directory"
exit 0
