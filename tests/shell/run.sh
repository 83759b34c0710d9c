#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run: a small suite into a results document; Ctrl-C loses at most the iteration in flight and
# --resume gives the same document (entries, iteration counts, metrics) as an uninterrupted
# run; bad suites and mismatched resumes get clear errors.
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

# interrupt after the first complete iteration is on disk, then resume
"$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/cut.json" 2>"$TMP/cut.err" &
pid=$!
for _ in $(seq 1 200); do
	[ -f "$TMP/cut.json" ] && [ "$(jq '[.entries[].iterations | length] | add // 0' "$TMP/cut.json" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$TMP/cut.err"; fail "interrupted run exited $rc, expected 130"; }
grep -q "interrupted: '$TMP/cut.json' holds [0-9]* complete iteration" "$TMP/cut.err" || fail "interrupt message"
done_before=$(jq '[.entries[].iterations | length] | add' "$TMP/cut.json")
[ "$done_before" -lt 12 ] || fail "the run was not interrupted early enough ($done_before)"
expect_rc 0 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/cut.json" --resume
[ "$(jq '.run.resumed' "$TMP/cut.json")" -eq 1 ] || fail "resumed count"
diff <(shape "$TMP/full.json") <(shape "$TMP/cut.json") || fail "resumed document differs in structure"
# resuming a complete run adds nothing
expect_rc 0 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/cut.json" --resume
diff <(shape "$TMP/full.json") <(shape "$TMP/cut.json") || fail "second resume changed the document"

# Ctrl-C at a terminal: SIGINT to the whole process group, the workload's processes too
if command -v setsid >/dev/null; then
	setsid "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/pg.json" 2>"$TMP/pg.err" &
	pid=$!
	for _ in $(seq 1 200); do
		[ -f "$TMP/pg.json" ] && [ "$(jq '[.entries[].iterations | length] | add // 0' "$TMP/pg.json" 2>/dev/null || echo 0)" -ge 5 ] && break
		sleep 0.05
	done
	kill -INT -- -$pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] || { cat "$TMP/pg.err"; fail "process-group interrupt exited $rc, expected 130"; }
	expect_rc 0 "$SCHEDLENS" run --suite "$TMP/tiny.json" -o "$TMP/pg.json" --resume
	diff <(shape "$TMP/full.json") <(shape "$TMP/pg.json") || fail "resumed after a group interrupt differs"
fi

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
