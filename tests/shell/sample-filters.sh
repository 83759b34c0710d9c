#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# perf script's time and filter options, as perf 6.1 has them: --ns (nine decimals),
# --reltime (from the first sample), --deltatime (from the one before), -G (no callchain),
# -C CPUS, --pid, --tid and --comms (the samples of those only). The whole output against
# perf script's on the same file, option by option; and the refusals: -C on a file without
# the samples' CPU, a list that is not one.
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
grep -Eq '^ *ds [0-9]+ .* [0-9]+\.[0-9]{9}: ' "$TMP/out" || fail "--ns: no time of nine decimals"
same --reltime -F comm,tid,time,event
grep -q ' 0\.000000: ' "$TMP/out" || fail "--reltime: the first sample is not at 0"
same --deltatime --ns -F comm,tid,time,ip,sym
same -G
grep -q '^ *ds ' "$TMP/out" && [ "$(grep -c '^$' "$TMP/out")" -eq 0 ] || fail "-G: callchains printed"
same -C "$cpu"
same --pid "$pid" -F pid,tid,time
awk -v p="$pid" '{ split($1, a, "/") } a[1] != p { bad = 1 } END { exit bad }' "$TMP/out" || fail "--pid: other processes"
same --tid "$tid",1 -F tid,time
same --comms nosuchcomm,ds -F comm,tid,time

perf record -q -o "$TMP/nocpu.data" -e cpu-clock -- true 2>/dev/null || fail "perf record failed"
expect_rc 1 "$SCHEDLENS" script -i "$TMP/nocpu.data" -C 0
grep -q 'no CPU in its samples' "$TMP/err" || fail "-C without CPUs: no reason given"
expect_rc 1 "$SCHEDLENS" script -i "$TMP/g.data" -C abc
grep -q 'not a CPU list' "$TMP/err" || fail "-C abc: no reason given"
exit 0
