#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Parse + per-symbol histogram of a perf.data file of at least 400,000 samples, schedlens
# report --sort sym against perf report --stdio --sort sym -g none on the same file. The
# file is made in a temporary directory by copying the records of the local fixture (perf
# record of sched tracepoints on this machine kind) 20 times through schedlens's perf.data
# writer, a FINISHED_ROUND after each copy (the unit test binary's --replicate does it).
# Each tool runs 5 times; the figure is the least CPU time (task-clock: user + sys) of a run,
# as this machine is shared; wall times are printed beside, and two floors: the process
# start and a plain copy of the file. Prints the ratio. With symbols, schedlens runs with its
# lookup cache warm (the runs before fill it) and with --no-cache. Two page-cache states of
# the same bytes (lib-bench.sh): read back from disk (the table), and just written.
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

# least CPU seconds (task-clock: user + sys, to the microsecond) and the wall seconds of that
# run, over 5 runs
measure() {
	local best= wall= i c e
	for i in 1 2 3 4 5; do
		perf stat -x, -e task-clock -o "$tmp/stat" -- "$@" >/dev/null 2>&1
		c=$(awk -F, '/task-clock/ { printf "%.6f", $1 / 1000 }' "$tmp/stat")
		e=$(awk -F, '/task-clock/ { printf "%.6f", $1 / 1000 / ($6 > 0 ? $6 : 1) }' "$tmp/stat")
		if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$c wall=$e
		fi
	done
	echo "$best $wall"
}

bench_settle "$data"
bench_settle_bins "$SCHEDLENS" "$(command -v perf)"
read -r ours ours_wall < <(measure "$SCHEDLENS" report --sort sym -i "$data")
read -r raw raw_wall < <(measure "$SCHEDLENS" report --sort sym --no-symbols -i "$data")
read -r cold cold_wall < <(measure "$SCHEDLENS" report --sort sym --no-cache -i "$data")
read -r perfc perf_wall < <(measure perf report --stdio --sort sym -g none -i "$data")
read -r start _ < <(measure "$SCHEDLENS" version)
read -r copy _ < <(measure cat "$data")
bench_small_writes "$data" "$tmp/small.data"
read -r s_ours _ < <(measure "$SCHEDLENS" report --sort sym -i "$tmp/small.data")
read -r s_perf _ < <(measure perf report --stdio --sort sym -g none -i "$tmp/small.data")
size=$(du -m "$data" | cut -f1)
awk -v n="$n" -v o="$ours" -v ow="$ours_wall" -v r="$raw" -v rw="$raw_wall" -v c="$cold" -v cw="$cold_wall" \
    -v p="$perfc" -v pw="$perf_wall" -v mb="$size" -v st="$start" -v cp="$copy" \
    -v so="$s_ours" -v sp="$s_perf" 'BEGIN {
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
	printf "ratio (schedlens rate / perf rate, cpu time): %.1fx with symbols, %.1fx parse + histogram only (target 20x)\n", p / o, p / r
	printf "with symbols and --no-cache (kernel symbols read from /proc/kallsyms): %.1fx\n", p / c
	printf "page cache as small writes leave it (4 kB pages): schedlens %.3f s, perf %.3f s: %.1fx\n",
		so, sp, sp / (so < 0.001 ? 0.001 : so)
}'
