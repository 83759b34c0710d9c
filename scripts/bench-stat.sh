#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Counting overhead: the same ~1 s workloads bare, under `schedlens stat` and under `perf stat`
# (default event sets), interleaved, median wall time of N runs each.
set -u
sl=${SCHEDLENS:-build/schedlens}
n=${BENCH_RUNS:-7}
command -v perf >/dev/null || { echo "perf not installed: skipped"; exit 0; }

# a CPU-bound loop and a context-switch-heavy pipe, each about a second here
cpu=(awk 'BEGIN { for (i = 0; i < 3e7; i++) s += i }')
sw=(sh -c 'dd if=/dev/zero bs=512 count=200000 2>/dev/null | cat >/dev/null')

t() { local s=$EPOCHREALTIME; "$@" >/dev/null 2>&1; local e=$EPOCHREALTIME; echo "$s $e" | awk '{ printf "%.6f\n", $2 - $1 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for name in cpu sw; do
	declare -n w=$name
	: >/tmp/bench-stat.bare; : >/tmp/bench-stat.sl; : >/tmp/bench-stat.perf
	"${w[@]}" >/dev/null 2>&1
	for ((i = 0; i < n; i++)); do
		t "${w[@]}" >>/tmp/bench-stat.bare
		t "$sl" stat -- "${w[@]}" >>/tmp/bench-stat.sl
		t perf stat -- "${w[@]}" >>/tmp/bench-stat.perf
	done
	b=$(median </tmp/bench-stat.bare); s=$(median </tmp/bench-stat.sl); p=$(median </tmp/bench-stat.perf)
	awk -v n="$name" -v b="$b" -v s="$s" -v p="$p" -v r="$n" 'BEGIN {
		printf "%-4s workload, median of %d: bare %.4f s | schedlens stat %.4f s (%+.2f%%) | perf stat %.4f s (%+.2f%%) | schedlens/perf time %.3f\n",
			n, r, b, s, 100 * (s - b) / b, p, 100 * (p - b) / b, s / p }'
done
rm -f /tmp/bench-stat.bare /tmp/bench-stat.sl /tmp/bench-stat.perf
