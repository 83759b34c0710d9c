#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Parse + per-symbol histogram of a perf.data file of at least 400,000 samples, schedlens
# report --sort sym against perf report --stdio --sort sym -g none on the same file. The
# file is made in a temporary directory by copying the records of the local fixture (perf
# record of sched tracepoints on this machine kind) 20 times through schedlens's perf.data
# writer, a FINISHED_ROUND after each copy (the unit test binary's --replicate does it).
# The tools take turns, BENCH_RUNS (7) rounds; the figure is the least CPU time (task-clock:
# user + sys) of a run, as this machine is shared, with the medians beside; wall times are
# printed too, and two floors: the process start and a plain copy of the file. Prints the
# ratio. With symbols, schedlens runs with its lookup cache warm (the runs before fill it)
# and with --no-cache. Two page-cache states of the same bytes (lib-bench.sh): read back from
# disk (the table), and just written.
set -u
. "$(dirname "$0")/lib-bench.sh"
SCHEDLENS=${SCHEDLENS:-build/schedlens}
FIXTURES=${FIXTURES:-$(dirname "$0")/../../shared/fixtures}
rep=$(dirname "$SCHEDLENS")/tests/test-perfdata
command -v perf >/dev/null || { echo "bench-perfdata: perf is not installed, skipped"; exit 0; }
[ -x "$rep" ] || make -s unit-bins >/dev/null 2>&1
[ -x "$rep" ] || { echo "bench-perfdata: '$rep' is not built (make unit-bins)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$tmp/bench.data
n=$("$rep" --replicate "$FIXTURES/local/sched-pingpong.data" "$data" 20) ||
	{ echo "bench-perfdata: cannot make the file"; exit 1; }
[ "$n" -ge 400000 ] || { echo "bench-perfdata: only $n samples"; exit 1; }

# one run of CMD, its CPU seconds (task-clock: user + sys, to the microsecond) and wall
# seconds appended to $tmp/NAME
one() {
	local name=$1
	shift
	perf stat -x, -e task-clock -o "$tmp/stat" -- "$@" >/dev/null 2>&1
	awk -F, '/task-clock/ { printf "%.6f %.6f\n", $1 / 1000, $1 / 1000 / ($6 > 0 ? $6 : 1) }' \
		"$tmp/stat" >>"$tmp/$name"
}
# the least CPU seconds of NAME's runs and the wall seconds of that run
least() { sort -n "$tmp/$1" | head -1; }
median() { cut -d' ' -f1 "$tmp/$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
runs=${BENCH_RUNS:-7}
# the tools take turns, so the machine's drift weighs on each alike
measure_all() {
	local i
	rm -f "$tmp/ours" "$tmp/raw" "$tmp/cold" "$tmp/perf"
	for ((i = 0; i < runs; i++)); do
		one ours "$SCHEDLENS" report --sort sym -i "$1"
		one raw "$SCHEDLENS" report --sort sym --no-symbols -i "$1"
		one cold "$SCHEDLENS" report --sort sym --no-cache -i "$1"
		one perf perf report --stdio --sort sym -g none -i "$1"
	done
}

bench_settle "$data"
bench_settle_bins "$SCHEDLENS" "$(command -v perf)"
measure_all "$data"
read -r ours ours_wall < <(least ours)
read -r raw raw_wall < <(least raw)
read -r cold cold_wall < <(least cold)
read -r perfc perf_wall < <(least perf)
ours_med=$(median ours) perf_med=$(median perf)
for ((i = 0; i < runs; i++)); do
	one start "$SCHEDLENS" version
	one copy cat "$data"
done
read -r start _ < <(least start)
read -r copy _ < <(least copy)
bench_small_writes "$data" "$tmp/small.data"
rm -f "$tmp/s_ours" "$tmp/s_perf"
for ((i = 0; i < runs; i++)); do
	one s_ours "$SCHEDLENS" report --sort sym -i "$tmp/small.data"
	one s_perf perf report --stdio --sort sym -g none -i "$tmp/small.data"
done
read -r s_ours _ < <(least s_ours)
read -r s_perf _ < <(least s_perf)
size=$(du -m "$data" | cut -f1)
awk -v n="$n" -v o="$ours" -v ow="$ours_wall" -v r="$raw" -v rw="$raw_wall" -v c="$cold" -v cw="$cold_wall" \
    -v p="$perfc" -v pw="$perf_wall" -v mb="$size" -v st="$start" -v cp="$copy" \
    -v so="$s_ours" -v sp="$s_perf" -v om="$ours_med" -v pm="$perf_med" -v runs="$runs" 'BEGIN {
	if (o < 0.001) o = 0.001
	if (r < 0.001) r = 0.001
	if (p < 0.001) p = 0.001
	printf "file: %d samples, %d MB (sched-pingpong.data x 20 through the writer), page cache as " \
		"a file read back from disk has it\n", n, mb
	printf "%-58s %8s %8s %14s\n", "command", "cpu s", "wall s", "samples/s"
	printf "%-58s %8.3f %8.2f %14.0f\n", "schedlens report --sort sym", o, ow, n / o
	printf "%-58s %8.3f %8.2f %14.0f\n", "schedlens report --sort sym --no-cache (kallsyms)", c, cw, n / c
	printf "%-58s %8.3f %8.2f %14.0f\n", "schedlens report --sort sym --no-symbols", r, rw, n / r
	printf "%-58s %8.3f %8.2f %14.0f\n", "perf report --stdio --sort sym -g none", p, pw, n / p
	printf "%-58s %8.3f\n", "floor: schedlens version (process start)", st
	printf "%-58s %8.3f\n", "floor: cat FILE >/dev/null (the kernel copying the file)", cp
	printf "ratio (schedlens rate / perf rate, least cpu time of %d interleaved runs): %.1fx with symbols, %.1fx parse + histogram only (target 20x)\n", runs, p / o, p / r
	printf "median cpu time: schedlens %.3f s, perf %.3f s: %.1fx with symbols\n", om, pm, pm / (om < 0.001 ? 0.001 : om)
	printf "with symbols and --no-cache (kernel symbols read from /proc/kallsyms): %.1fx\n", p / c
	printf "page cache as small writes leave it (4 kB pages): schedlens %.3f s, perf %.3f s: %.1fx\n",
		so, sp, sp / (so < 0.001 ? 0.001 : so)
}'
