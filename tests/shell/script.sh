#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens script prints what perf script 6.1 printed for the fixtures (refs: the first
# lines of each, all of the local one, whose tracepoint payloads go through libtraceevent).
source "$(dirname "$0")/lib.sh"
need_fixtures
refs=$FIXTURES/real/refs
n=0
for f in "$FIXTURES"/real/*.data; do
	b=$(basename "$f")
	case $b in
	corrupt-*) continue ;;
	piped-features-6.12.data) continue ;;	# perf 6.1 names its event from a pipe feature
	esac
	r=$refs/$b.script_head.txt
	[ -f "$refs/$b.script_head.via-attr128-copy.txt" ] && r=$refs/$b.script_head.via-attr128-copy.txt
	lines=$(wc -l <"$r")
	"$SCHEDLENS" script -i "$f" | head -n "$lines" >"$TMP/out"
	diff -u "$r" "$TMP/out" || fail "$b: schedlens script differs from perf script"
	n=$((n + 1))
done
[ $n -ge 10 ] || fail "only $n fixtures compared"

f=$FIXTURES/local/sched-pingpong.data
ref=$FIXTURES/local/refs/sched-pingpong.script.txt
expect_rc 0 "$SCHEDLENS" script -i "$f"
release=$("$SCHEDLENS" report --header -i "$f" | sed -n 's/^# os release : //p')
if [ "$release" = "$(uname -r)" ]; then
	diff -u "$ref" "$TMP/out" >"$TMP/diff" || { head -20 "$TMP/diff"; fail "sched-pingpong: script differs"; }
else
	# kernel addresses in ipi payloads resolve only on the kernel that recorded them
	diff -u <(grep -v ipi_send_cpu "$ref") <(grep -v ipi_send_cpu "$TMP/out") >"$TMP/diff" ||
		{ head -20 "$TMP/diff"; fail "sched-pingpong: script differs"; }
fi
echo "$n fixtures and sched-pingpong ($(wc -l <"$ref") lines) print as perf script prints them"

# --all shows the other records; bad input fails with the byte offset
"$SCHEDLENS" script --all -i "$FIXTURES/real/celeron-hwevents-3.4.data" >"$TMP/all"
grep -q "PERF_RECORD_MMAP" "$TMP/all" && grep -q "PERF_RECORD_COMM" "$TMP/all" ||
	fail "--all does not show MMAP and COMM records"
expect_rc 1 "$SCHEDLENS" script -i "$FIXTURES/real/corrupt-zero-size-3.2.data"
grep -q "at byte offset 49104" "$TMP/err" || fail "corrupt file: $(cat "$TMP/err")"
expect_rc 2 "$SCHEDLENS" script --bogus
