#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record -a names and maps processes that were already running (COMM and MMAP2 synthesized
# from /proc, as perf record does): a busy program started before the recording gets its
# samples under its own name, binary and function, and perf report reads the same shares.
source "$(dirname "$0")/lib.sh"
need_root
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"

gcc -O1 -g -fno-omit-frame-pointer -o "$TMP/hotline" "$SCHEDLENS_TOP/tests/data/hotline.c" ||
	fail "cannot build hotline"
"$TMP/hotline" 60 >/dev/null &
busy=$!
trap 'kill "$busy" 2>/dev/null; rm -rf "$TMP"' EXIT
# running its own binary (exec done) before the recording starts
for _ in $(seq 1 100000); do
	[ "$(cat "/proc/$busy/comm" 2>/dev/null)" = hotline ] && break
done
[ "$(cat "/proc/$busy/comm" 2>/dev/null)" = hotline ] || fail "hotline did not start"
ran() { awk '{ print $1 }' "/proc/$busy/schedstat"; }	# ns on a CPU
# ms the hypervisor ran others on this machine's CPUs: cpu-clock ticks on through it, and its
# samples land on the task the vCPU was running (a loaded host gives hotline more samples
# than it had CPU time)
steal() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%d\n", $9 * 1000 / hz; exit }' /proc/stat; }
before=$(ran) steal0=$(steal)
expect_rc 0 "$SCHEDLENS" record -a -e cpu-clock -c 1000000 -o "$TMP/sw.data" -- sleep 0.7
after=$(ran) steal1=$(steal)
kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null

"$SCHEDLENS" report -i "$TMP/sw.data" --sort comm,dso >"$TMP/ours" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "report failed"; }
perf report -i "$TMP/sw.data" --sort comm,dso --stdio 2>/dev/null >"$TMP/perf" ||
	fail "perf report cannot read the file"
ours=$(awk '$2 == "hotline" && $3 == "hotline" { sub("%", "", $1); print $1 }' "$TMP/ours")
theirs=$(awk '$2 == "hotline" && $3 == "hotline" { sub("%", "", $1); print $1 }' "$TMP/perf")
[ -n "$ours" ] || { cat "$TMP/ours"; fail "no samples of the running 'hotline' under its name and binary"; }
[ "$ours" = "$theirs" ] || fail "hotline/hotline share: schedlens $ours%, perf ${theirs:-none}%"
# a cpu-clock sample per ms on a CPU: hotline's samples are about the CPU time it had while
# the recording ran (measured here, whatever the CPU count or load), less what record's
# start and stop left out of the window
total=$("$SCHEDLENS" report --stats -i "$TMP/sw.data" | awk '/SAMPLE events:/ { print $3; exit }')
nr=$(awk -v t="$total" -v s="$ours" 'BEGIN { printf "%d", t * s / 100 + 0.5 }')
want=$(( (after - before) / 1000000 ))
stolen=$(( steal1 - steal0 ))
[ -n "$nr" ] || fail "no sample count for hotline"
awk -v n="$nr" -v w="$want" -v st="$stolen" 'BEGIN { exit !(n >= w / 4 && n <= w + st + 10) }' ||
	fail "hotline has $nr samples, its CPU time over the recording was $want ms (steal $stolen ms)"
"$SCHEDLENS" report -i "$TMP/sw.data" --sort comm,sym 2>/dev/null |
	awk '$2 == "hotline" && $4 == "chase" { f = 1 } END { exit !f }' ||
	fail "the running program's samples are not resolved to its function 'chase'"
echo "hotline (running before record -a): $nr samples for $want ms of CPU, $ours% in its own binary, perf $theirs%"
