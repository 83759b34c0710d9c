#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pipe-mode perf.data (perf record -o -), read from a file and from stdin: each event keeps
# the name perf gave it (its EVENT_DESC feature record, "cpu-clock:u") and the sample count
# perf script reads.
source "$(dirname "$0")/lib.sh"
need_perf
perf record -q -e cpu-clock:u -e task-clock -o - -- "$SCHEDLENS" bench pipe -l 20000 \
	2>/dev/null >"$TMP/pipe.data" || skip "perf record cannot record here"
# as report's header prints a count (perf's convert_unit(): 1135 is "1K")
perf script -i "$TMP/pipe.data" -F event 2>/dev/null | sed 's/: *$//' | sort | uniq -c |
	awk '{ n = $1; u = ""; if (n > 1000000) { n = int(n / 1000000); u = "M" }
	       else if (n > 1000) { n = int(n / 1000); u = "K" }
	       print $2, n u }' | sort >"$TMP/perf"
[ -s "$TMP/perf" ] || fail "perf script read no samples"
for how in file stdin; do
	if [ $how = file ]; then
		"$SCHEDLENS" report -i "$TMP/pipe.data" --sort comm >"$TMP/out" 2>"$TMP/err"
	else
		"$SCHEDLENS" report -i - --sort comm <"$TMP/pipe.data" >"$TMP/out" 2>"$TMP/err"
	fi || { cat "$TMP/err"; fail "report ($how) failed"; }
	sed -nE "s/^# Samples: ([0-9]+[KM]?) +of event '(.*)'$/\2 \1/p" "$TMP/out" | sort >"$TMP/ours"
	diff -u "$TMP/perf" "$TMP/ours" || fail "event names or counts differ from perf's ($how)"
done
echo "pipe mode: $(tr '\n' ' ' <"$TMP/ours")as perf reads them"
