#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# perf's sample filters and script's time options, as perf 6.1 has them. Both: --time
# START,STOP (the samples of that window only; report says "(time slices: ...)"). script: --ns (nine
# decimals), --reltime (from the first sample), --deltatime (from the one before), -G (no
# callchain), --max-stack N (the first N frames; a chain read that far only), -C CPUS, --pid, --tid, --comms, --dsos and -S (the samples of those only),
# each the whole output against perf script's. report: -C (a
# sample of another CPU counts nowhere), --pid, --tid and --comms (one of another thread
# counts in the totals alone: perf's --percentage absolute; with one name the comm column
# is a "# comm: NAME" line), --dsos and --symbols (the rows of those places, their call
# graphs with -g; not --children, whose entries perf filters by rules of its own). The whole output against perf's on the same file, option by
# option (report with a thread key: perf's rows by other keys keep whichever thread's
# sample made them first, filtered or not); and the refusals: -C on a file without the
# samples' CPU, a list that is not one.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"

gcc -O1 -fno-omit-frame-pointer -o "$TMP/ds" "$SCHEDLENS_TOP/tests/data/deepstack.c" ||
	fail "cannot build deepstack"
# two processes of the program and their shell, callchains, on whichever CPUs they run
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 500000 -g -o "$TMP/g.data" -- \
	sh -c "'$TMP/ds' 0.2 & '$TMP/ds' 0.2; wait"
perf script -i "$TMP/g.data" -F pid 2>/dev/null | awk '{ print $1 }' | sort -u >"$TMP/pids"
pid=$(sed -n 2p "$TMP/pids")
[ -n "$pid" ] || fail "fewer than two processes sampled: $(cat "$TMP/pids")"
tid=$(perf script -i "$TMP/g.data" -F tid 2>/dev/null | awk 'NR == 1 { print $1 }')
cpu=$(perf script -i "$TMP/g.data" -F cpu 2>/dev/null | tr -d '[]' | awk 'NR == 1 { print $1 + 0 }')

same() {
	expect_rc 0 "$SCHEDLENS" script -i "$TMP/g.data" "$@"
	perf script -i "$TMP/g.data" "$@" >"$TMP/perf" 2>/dev/null || fail "perf script $* failed"
	[ -s "$TMP/perf" ] || fail "perf script $* printed nothing"
	cmp -s "$TMP/out" "$TMP/perf" ||
		{ diff "$TMP/perf" "$TMP/out" | head -10; fail "script $*: differs from perf's"; }
	echo "    $*: $(wc -l <"$TMP/out") lines equal"
}
same --ns
grep -Eq '^ *ds +[0-9]+ .* [0-9]+\.[0-9]{9}: ' "$TMP/out" || fail "--ns: no time of nine decimals"
same --reltime -F comm,tid,time,event
grep -q ' 0\.000000: ' "$TMP/out" || fail "--reltime: the first sample is not at 0"
same --deltatime --ns -F comm,tid,time,ip,sym
same -G
grep -q '^ *ds ' "$TMP/out" && [ "$(grep -c '^$' "$TMP/out")" -eq 0 ] || fail "-G: callchains printed"
same --max-stack 2
same --max-stack 0
same -C "$cpu"
same --pid "$pid" -F pid,tid,time
awk -v p="$pid" '{ split($1, a, "/") } a[1] != p { bad = 1 } END { exit bad }' "$TMP/out" || fail "--pid: other processes"
same --tid "$tid",1 -F tid,time
same --comms nosuchcomm,ds -F comm,tid,time
same --dsos "ds,[kernel.kallsyms]" -F comm,tid,ip,sym,dso
same -S inner,nosuchfunction
grep -q 'inner' "$TMP/out" || fail "-S inner: no sample in inner"
# --time: a window in the middle of the recording (first sample + 0.05 s to + 0.15 s), and
# one from the first nanosecond after the first sample on
read -r t0 < <(perf script -i "$TMP/g.data" -F time --ns 2>/dev/null | tr -d ' :')
win=$(awk -v t="$t0" 'BEGIN { printf "%.6f,%.6f", t + 0.05, t + 0.15 }')
same --time "$win" -F comm,tid,time
[ "$(wc -l <"$TMP/out")" -gt 0 ] && [ "$(wc -l <"$TMP/out")" -lt "$(perf script -i "$TMP/g.data" -F time 2>/dev/null | wc -l)" ] ||
	fail "--time $win: not a part of the samples"
same --time "$(awk -v t="$t0" 'BEGIN { printf "%.9f,", t + 1e-9 }')" --ns -F tid,time

# report: the tables from the first line after perf's "# To display ..." and "#"
table() {
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/g.data" "$@"
	grep -v '^# note: ' "$TMP/out" | sed 's/ *$//' >"$TMP/ours"
	perf report -i "$TMP/g.data" --stdio "$@" 2>/dev/null | sed '1,2d; s/ *$//' |
		sed '/^# (Tip: /,$d' >"$TMP/perf"
	[ -s "$TMP/perf" ] || fail "perf report $* printed nothing"
	diff <(sed '/^$/d' "$TMP/ours") <(sed '/^$/d; /^#$/{$d}' "$TMP/perf") >"$TMP/diff" ||
		{ head -10 "$TMP/diff"; fail "report $*: differs from perf's"; }
	echo "    report $*: $(grep -c '%' "$TMP/ours") rows equal"
}
table --no-children -g none --sort pid,dso,sym --pid "$pid"
table --no-children -g none --sort comm,dso,sym --comms ds
grep -q '^# comm: ds$' "$TMP/ours" || fail "--comms ds: no '# comm: ds' line"
# (not sh: its samples before its exec are under its placeholder comm, filtered, which perf
# renames to sh in the same rows, and a row whose first sample was filtered perf hides)
table --no-children -g none --sort comm,pid,dso --comms ds,nosuchcomm
table --no-children -g none --sort dso,sym -C "$cpu"
table --no-children -g none --sort comm,dso,sym --time "$win"
grep -q "(time slices: $win)" "$TMP/ours" || fail "--time: no '(time slices: ...)'"
table --children -g none --sort comm,dso,sym --time "$win"
# a window after the last sample: the header alone, and a line on stderr saying why, as perf
expect_rc 0 "$SCHEDLENS" report -i "$TMP/g.data" --time "$(awk -v t="$t0" 'BEGIN { printf "%.6f,", t + 3600 }')"
grep -q "has no samples in the time slices or CPUs asked for" "$TMP/err" ||
	fail "--time past the end: no reason given"
# (a ds thread: the recorded sh has frames at address 0 both in the kernel and in user
# space around its exec, which perf counts as one row and schedlens as two: not fixed)
table --children -g none --sort pid,dso,sym --tid "$pid"
# (the user frames alone: branches of equal shares among kernel frames come in any order)
table --no-children -g caller --sort pid,sym --pid "$pid" --dsos ds
# --dsos and --symbols: the rows of those places (a DSO by its short or recorded name)
table --no-children -g none --sort dso,sym --dsos ds
grep -q '^# dso: ds$' "$TMP/ours" || fail "--dsos ds: no '# dso: ds' line"
table --no-children -g none --sort comm,dso,sym --dsos "[kernel.kallsyms],$TMP/ds"
table --no-children -g none --sort comm,dso,sym --symbols inner,nosuchfunction
table --no-children -g caller --sort dso,sym --dsos ds
table --no-children -g callee --sort comm,dso,sym --symbols inner,main
# --percentage relative: the shares of what is shown (perf's graph: of all, hidden by it)
table --no-children -g none --sort comm,pid,dso --comms ds,nosuchcomm --percentage relative
table --no-children -g caller --sort comm,dso,sym --dsos ds --percentage relative
expect_rc 2 "$SCHEDLENS" report -i "$TMP/g.data" --percentage most
expect_rc 2 "$SCHEDLENS" report -i "$TMP/g.data" --children --dsos ds
grep -q 'self rows only' "$TMP/err" || fail "--dsos with --children: no reason given"

perf record -q -o "$TMP/nocpu.data" -e cpu-clock -- true 2>/dev/null || fail "perf record failed"
for cmd in script report; do
	expect_rc 1 "$SCHEDLENS" $cmd -i "$TMP/nocpu.data" -C 0
	grep -q 'no CPU in its samples' "$TMP/err" || fail "$cmd -C without CPUs: no reason given"
done
expect_rc 1 "$SCHEDLENS" report -i "$TMP/g.data" --pid 12x
grep -q 'not a list of numbers' "$TMP/err" || fail "--pid 12x: no reason given"
for bad in 10%/2 "2,1" x; do
	expect_rc 1 "$SCHEDLENS" script -i "$TMP/g.data" --time "$bad"
	grep -q 'not START,STOP' "$TMP/err" || fail "--time $bad: no reason given"
done
expect_rc 1 "$SCHEDLENS" script -i "$TMP/g.data" -C abc
grep -q 'not a CPU list' "$TMP/err" || fail "-C abc: no reason given"
exit 0
