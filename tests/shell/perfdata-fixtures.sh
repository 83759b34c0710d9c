#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every fixture is read without error (the corrupt one fails with its byte offset); per-event
# sample counts and record counts equal perf's --stats refs, and --sort comm,dso and --sort
# sym shares equal perf report's refs to 0.01 percentage points. The arm64 perf 6.5 files
# (which perf 6.1 refuses) are compared with the refs perf made from a copy with 128-byte
# attrs. The local fixture, which has no report refs, is compared with perf itself.
source "$(dirname "$0")/lib.sh"
need_fixtures
command -v python3 >/dev/null || skip "python3 is needed to compare with the refs"
cmp_py="$(dirname "$0")/perfdata-compare.py"
refs=$FIXTURES/real/refs
tab=$(printf '\t')
n=0

ref_for() {	# FILE WHAT: the ref, preferring the attr-128 copy's
	local b
	b=$(basename "$1")
	if [ -f "$refs/$b.$2.via-attr128-copy.txt" ]; then echo "$refs/$b.$2.via-attr128-copy.txt"
	else echo "$refs/$b.$2.txt"; fi
}

for f in "$FIXTURES"/real/*.data; do
	b=$(basename "$f")
	if [ "$b" = corrupt-zero-size-3.2.data ]; then
		expect_rc 1 "$SCHEDLENS" report --stats -i "$f"
		grep -q "corrupt-zero-size-3.2.data': bad record size 0 (type 9) at byte offset 49104" "$TMP/err" ||
			fail "$b: unexpected error: $(cat "$TMP/err")"
		# the records before the bad one are still counted
		grep -q "MMAP events: *468" "$TMP/out" || fail "$b: records before the error not reported"
		continue
	fi
	expect_rc 0 "$SCHEDLENS" report --stats -i "$f"
	diff -u "$(ref_for "$f" stats)" "$TMP/out" || fail "$b: --stats differs from perf"
	for what in comm_dso sym; do
		sort=comm,dso
		[ $what = sym ] && sort=sym
		expect_rc 0 "$SCHEDLENS" report -i "$f" --sort $sort -t "$tab"
		python3 "$cmp_py" "$(ref_for "$f" report_$what)" "$TMP/out" 0.01 >"$TMP/cmp" ||
			{ cat "$TMP/cmp"; fail "$b: --sort $sort differs from perf"; }
		echo "$b --sort $sort: $(tail -1 "$TMP/cmp")"
	done
	n=$((n + 1))
done
[ $n -ge 11 ] || fail "only $n fixtures found"

# the local fixture against perf itself
f=$FIXTURES/local/sched-pingpong.data
if [ -f "$f" ] && command -v perf >/dev/null; then
	expect_rc 0 "$SCHEDLENS" report --stats -i "$f"
	mv "$TMP/out" "$TMP/ours"
	mkdir -p "$TMP/sym"
	perf report --stats -i "$f" --symfs="$TMP/sym" 2>/dev/null | sed -n '/^Aggregated/,$p' >"$TMP/perf"
	diff -u <(sed -n '/^Aggregated/,$p' "$TMP/ours") "$TMP/perf" || fail "sched-pingpong: --stats differs from perf"
	perf report -i "$f" --symfs="$TMP/sym" --stdio --no-children -g none --sort comm,dso \
		2>/dev/null >"$TMP/perf"
	expect_rc 0 "$SCHEDLENS" report -i "$f" --sort comm,dso -t "$tab"
	python3 "$cmp_py" "$TMP/perf" "$TMP/out" 0.01 >"$TMP/cmp" ||
		{ cat "$TMP/cmp"; fail "sched-pingpong: --sort comm,dso differs from perf"; }
	echo "sched-pingpong --sort comm,dso: $(tail -1 "$TMP/cmp")"
fi
echo "$n fixtures agree with perf"

# pipe mode from stdin, and a file-mode file on stdin gets a clear error
expect_rc 0 "$SCHEDLENS" report --stats -i - <"$FIXTURES/real/piped-hwevents-3.8.data"
diff -u "$refs/piped-hwevents-3.8.data.stats.txt" "$TMP/out" || fail "stdin: --stats differs"
cat "$FIXTURES/real/celeron-hwevents-3.4.data" | { "$SCHEDLENS" report --stats -i - >/dev/null 2>"$TMP/err"; echo $? >"$TMP/rc"; }
[ "$(cat "$TMP/rc")" = 1 ] && grep -q "cannot be streamed" "$TMP/err" || fail "file mode on a pipe: $(cat "$TMP/err")"

# inputs the fuzzer found crashing (tests/fuzz): each gets its clear error, and under
# `make asan` no sanitizer report (UBSan's nonnull check reports and goes on)
for f in "$(dirname "$0")"/../data/fuzz/perfdata-*.data; do
	expect_rc 1 "$SCHEDLENS" report --sort sym -i "$f"
	grep -q "at byte offset" "$TMP/err" && ! grep -q "runtime error" "$TMP/err" ||
		fail "$(basename "$f"): $(cat "$TMP/err")"
done
