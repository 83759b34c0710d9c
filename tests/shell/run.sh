#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run: a small suite into a results document; Ctrl-C loses at most the iteration in flight,
# --resume completes a cut document to the same shape (entries, iteration counts, metrics) as
# an uninterrupted run; bad suites and mismatched resumes get clear errors.
source "$(dirname "$0")/lib.sh"
"$SCHEDLENS" bench --list 2>/dev/null | grep -q '^  pipe ' || skip "the pipe workload is not built in"
cat >"$TMP/tiny.json" <<'JSON'
{ "suite": "tiny", "iterations": 4, "events": ["context-switches", "task-clock"],
  "better": { "context-switches": "lower" },
  "entries": [
    { "workload": "pipe", "group": "pipe", "args": ["-l", "2000"] },
    { "workload": "messaging", "group": "hackbench", "args": ["-p", "-l", "10", "-f", "4"],
      "range": { "param": "groups", "option": "-g", "values": [1, 2] } },
    { "workload": "nonesuch", "group": "skipped" } ] }
JSON
shape() { jq -S '{suite: .run.suite, entries: [.entries[] | {id, group, params, metrics,
	n: (.iterations | length), keys: [.iterations[] | .values | keys]}]}' "$1"; }

expect_rc 0 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/full.json"
grep -q "skipping 'skipped': workload 'nonesuch' is not built in" "$TMP/err" || fail "skip note"
[ "$(jq '.entries | length' "$TMP/full.json")" -eq 3 ] || fail "3 entries"
[ "$(jq '[.entries[].iterations | length] | add' "$TMP/full.json")" -eq 12 ] || fail "12 iterations"
jq -e '.entries[0].iterations[0].vmstat.pgfault >= 0' "$TMP/full.json" >/dev/null || fail "vmstat deltas"
jq -e '.entries[0].iterations[0].values["context-switches"] > 0' "$TMP/full.json" >/dev/null || fail "counters"
jq -e '.entries[0].metrics["context-switches"].better == "lower"' "$TMP/full.json" >/dev/null || fail "suite direction"
jq -e '.machine.kernel_release and .machine.topology and .tool.version' "$TMP/full.json" >/dev/null || fail "machine"
[ "$(jq -r '.entries[2].id' "$TMP/full.json")" = "hackbench groups=2" ] || fail "entry id"

# resume: a document cut after its first two iterations (what an interrupt leaves) is
# completed to the same shape as the uninterrupted run
jq '.entries |= [.[0] | .iterations |= .[:2]]' "$TMP/full.json" >"$TMP/cut.json" || fail "jq cut"
expect_rc 0 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/cut.json" --resume
[ "$(jq '.run.resumed' "$TMP/cut.json")" -eq 1 ] || fail "resumed count"
diff <(shape "$TMP/full.json") <(shape "$TMP/cut.json") || fail "resumed document differs in structure"
# resuming a complete run adds nothing
expect_rc 0 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/cut.json" --resume
diff <(shape "$TMP/full.json") <(shape "$TMP/cut.json") || fail "second resume changed the document"

# Ctrl-C: the interrupt lands in an iteration that cannot end on its own before it (a
# 600-second wakeup run), whatever the machine's speed: the test sends it once the pipe
# entry's 4 iterations are on disk (the progress line that follows the write). SIGINT to
# run alone, and to its process group as a terminal sends it (the workload has a group of
# its own, so run must pass it on): exit 130 at once, the iteration in flight dropped, no
# workload process left behind, the complete iterations kept.
jq '.entries |= [.[0], { "workload": "wakeup", "group": "hold", "args": ["-d", "600"],
	"iterations": 1 }]' "$TMP/tiny.json" >"$TMP/hold.json" || fail "jq hold suite"
interrupt() {	# interrupt NAME KILL-TARGET-PREFIX: run the hold suite, interrupt it, check
	local out=$TMP/$1.json err=$TMP/$1.err pid rc
	mkfifo "$TMP/$1.fifo"
	$2 "$SCHEDLENS" run --suite "$TMP/hold.json" -o "$out" 2>"$TMP/$1.fifo" &
	pid=$!
	exec 4<"$TMP/$1.fifo"	# held open until run ends: it never writes to a closed pipe
	# the progress line after the 4th iteration is written: the hold iteration comes next
	while IFS= read -r line <&4; do
		printf '%s\n' "$line" >>"$err"
		[[ $line == "[4/5] "* ]] && break
	done
	case $1 in
	alone) kill -INT "$pid" ;;
	group) kill -INT -- "-$pid" ;;
	esac
	# an interrupt that does not reach the workload leaves run waiting 600 s: fail long before
	timeout 120 cat <&4 >>"$err" || { kill -KILL -- "-$pid" "$pid" 2>/dev/null; pkill -KILL -f -- "$TMP/hold.json"
		fail "$1: run still running 120 s after SIGINT"; }
	exec 4<&-
	wait "$pid"
	rc=$?
	[ $rc -eq 130 ] || { cat "$err"; fail "$1: interrupted run exited $rc, expected 130"; }
	grep -q "interrupted: '$out' holds 4 complete iterations" "$err" ||
		{ cat "$err"; fail "$1: interrupt message"; }
	[ "$(jq '[.entries[].iterations | length] | add' "$out")" -eq 4 ] ||
		fail "$1: not the 4 complete iterations"
	! pgrep -f -- "$TMP/hold.json" >/dev/null || fail "$1: a workload process outlived the run"
	echo "$1: SIGINT stopped the run in its 600 s iteration, 4 complete iterations kept"
}
interrupt alone ""
command -v setsid >/dev/null && interrupt group "setsid"

# refusals
expect_rc 2 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/full.json"
grep -q "exists: --resume continues it" "$TMP/err" || fail "overwrite refusal"
sed 's/"tiny"/"other"/' "$TMP/tiny.json" >"$TMP/other.json"
expect_rc 2 "$SCHEDLENS" run --suite "$TMP/other.json" -o "$TMP/full.json" --resume
grep -q "holds suite 'tiny', not 'other'" "$TMP/err" || fail "mismatched resume"
echo '{"suite": "x", "entries": [{"workload": "pipe", "range": {"param": "g", "option": "-g", "values": [0]}}]}' >"$TMP/bad.json"
expect_rc 2 "$SCHEDLENS" run --suite "$TMP/bad.json" -o "$TMP/x.json"
grep -q "entries\[0\]: 'range'.'values'\[0\] must be a positive integer" "$TMP/err" || fail "bad range message"
expect_rc 2 "$SCHEDLENS" run --suite nonesuch -o "$TMP/x.json"
grep -q "cannot read suite 'nonesuch'" "$TMP/err" || fail "unknown suite message"
expect_rc 2 "$SCHEDLENS" run -o "$TMP/x.json"
echo ok
