#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Round trip: files written by the perf.data writer (fixtures copied record by record, and
# synthetic samples; made by the unit test binary with PERFDATA_KEEP) are read by perf 6.1
# (report --stats, script, sched timehist) without warnings and with the sample counts
# schedlens reads back; perf sched timehist and perf script on the copy of the local fixture
# equal the fixture's refs.
source "$(dirname "$0")/lib.sh"
need_fixtures
need_perf
unit=$(dirname "$SCHEDLENS")/tests/test-perfdata
[ -x "$unit" ] || skip "'$unit' is not built (make unit-bins)"
mkdir -p "$TMP/files" "$TMP/sym"
PERFDATA_KEEP=$TMP/files FIXTURES=$FIXTURES CK_FORK=no "$unit" >"$TMP/unit.log" 2>&1 ||
	{ cat "$TMP/unit.log"; fail "the writer's unit test failed"; }

for f in "$TMP"/files/copy-*.data "$TMP"/files/synth.data "$TMP"/files/order.data; do
	b=$(basename "$f")
	perf report --stats -i "$f" --symfs="$TMP/sym" >"$TMP/perf" 2>"$TMP/perf.err" ||
		{ cat "$TMP/perf.err"; fail "$b: perf report failed"; }
	grep -iE "warning|error|fail" "$TMP/perf.err" "$TMP/perf" && fail "$b: perf report warns"
	expect_rc 0 "$SCHEDLENS" report --stats -i "$f"
	diff -u <(sed -n '/^Aggregated/,$p' "$TMP/perf") "$TMP/out" >/dev/null ||
		diff -u <(sed -n '/^Aggregated/,$p' "$TMP/perf") <(sed -n '/^Aggregated/,$p' "$TMP/out") ||
		fail "$b: perf and schedlens count differently"
	n_perf=$(perf script -i "$f" -F event 2>"$TMP/perf.err" | wc -l)
	grep -iE "warning|error|fail" "$TMP/perf.err" && fail "$b: perf script warns"
	n_ours=$(awk '/SAMPLE events:/ { print $3; exit }' "$TMP/out")
	[ "$n_perf" = "$n_ours" ] || fail "$b: perf script prints $n_perf samples, schedlens reads $n_ours"
	echo "$b: $n_ours samples, perf agrees"
done

f=$TMP/files/copy-sched.data
refs=$FIXTURES/local/refs
perf sched timehist -i "$f" >"$TMP/th" 2>"$TMP/th.err" || fail "perf sched timehist failed"
grep -viE "^Samples do not have callchains" "$TMP/th.err" | grep -q . && { cat "$TMP/th.err"; fail "perf sched timehist warns"; }
diff -u <(grep -v "^Samples do not have callchains" "$refs/sched-pingpong.timehist.txt") "$TMP/th" >/dev/null ||
	fail "perf sched timehist on the copy differs from the fixture's ref"
perf script -i "$f" 2>/dev/null | diff -q - "$refs/sched-pingpong.script.txt" >/dev/null ||
	fail "perf script on the copy differs from the fixture's ref"
echo "copy of sched-pingpong: perf sched timehist and perf script equal the refs"
