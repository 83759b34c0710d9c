#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Round trip: files written by the perf.data writer (fixtures copied record by record, and
# synthetic samples; made by the unit test binary with PERFDATA_KEEP) are read by perf 6.1
# (report --stats, script, sched timehist) without warnings and with the sample counts
# schedlens reads back; perf sched timehist and perf script print the same for the copy of the
# local fixture as for the fixture itself, both read here (perf script names the kernel
# addresses in tracepoint fields only on the kernel that recorded them, so a copy is compared
# with its source on the same machine, not with refs made where it was recorded).
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
src=$FIXTURES/local/sched-pingpong.data
perf sched timehist -i "$f" >"$TMP/th" 2>"$TMP/th.err" || fail "perf sched timehist failed"
perf sched timehist -i "$src" >"$TMP/th.src" 2>"$TMP/th.src.err" ||
	fail "perf sched timehist of the fixture failed"
# what perf says of the kernel (no kallsyms with the recorded build-id) depends on this one
diff -u "$TMP/th.src.err" "$TMP/th.err" || fail "perf sched timehist warns about the copy"
diff -u "$TMP/th.src" "$TMP/th" >/dev/null ||
	fail "perf sched timehist on the copy differs from the same on the fixture"
perf script -i "$src" >"$TMP/script.src" 2>/dev/null || fail "perf script of the fixture failed"
[ "$(wc -l <"$TMP/script.src")" = "$(wc -l <"$refs/sched-pingpong.script.txt")" ] ||
	fail "perf script prints another number of lines for the fixture than its ref"
perf script -i "$f" 2>/dev/null | diff -q - "$TMP/script.src" >/dev/null ||
	fail "perf script on the copy differs from the same on the fixture"
echo "copy of sched-pingpong: perf sched timehist and perf script print as for the fixture"
