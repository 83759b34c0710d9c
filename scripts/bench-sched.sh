#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Records processed per second from a perf.data file: `schedlens sched -i` against
# `perf sched timehist -s` on the same file, a ping-pong recorded here with the scheduler and
# IPI tracepoints (reused from /tmp when already there), median wall and CPU time of N runs each,
# and the least CPU time (the steadiest figure on a shared machine). schedlens runs with the
# persistent lookup cache warm (the first run fills it) and with --no-cache. Two page-cache
# states of the same bytes (lib-bench.sh): read back from disk, and just written.
set -u
. "$(dirname "$0")/lib-bench.sh"
sl=${SCHEDLENS:-build/schedlens}
n=${BENCH_RUNS:-5}
loops=${BENCH_SCHED_LOOPS:-100000}
data=${BENCH_SCHED_DATA:-/tmp/bench-sched-$loops.data}
command -v perf >/dev/null || { echo "perf not installed: skipped"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "needs root to record tracepoints: skipped"; exit 0; }

if [ ! -s "$data" ]; then
	evs=sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_switch
	evs=$evs,sched:sched_migrate_task,sched:sched_wake_idle_without_ipi,ipi:ipi_send_cpu
	perf record -q -a -e "$evs" -o "$data" -- perf bench sched pipe -l "$loops" >/dev/null 2>&1 ||
		{ echo "perf record failed: skipped"; rm -f "$data"; exit 0; }
fi
"$sl" sched -i "$data" >/tmp/bench-sched.out 2>/tmp/bench-sched.err || {
	echo "schedlens sched -i: $(head -1 /tmp/bench-sched.err): skipped"; exit 0; }
records=$(awk -F', ' '/^input: / { split($3, a, " "); print a[1] }' /tmp/bench-sched.out)

# wall and CPU (task-clock: user + sys) seconds from the exec on, as perf stat counts them (the
# shell's fork before it is not the tool's: here it added ~10 ms to each run); this machine is
# shared, CPU time is the steadier figure
t() {
	perf stat -x, -e task-clock -o /tmp/bench-sched.stat -- "$@" >/dev/null 2>&1
	awk -F, '/task-clock/ { printf "%.6f %.6f\n", $1 / 1000 / ($6 > 0 ? $6 : 1), $1 / 1000 }' \
		/tmp/bench-sched.stat
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# one page-cache state of $1: median wall and CPU, least CPU of n runs of each tool
state() {
	local f=$1 nocache=$2 i
	: >/tmp/bench-sched.sl; : >/tmp/bench-sched.perf; : >/tmp/bench-sched.cold
	for ((i = 0; i < n; i++)); do
		t "$sl" sched -i "$f" >>/tmp/bench-sched.sl
		[ "$nocache" = 1 ] && t "$sl" sched -i "$f" --no-cache >>/tmp/bench-sched.cold
		t perf sched timehist -s -i "$f" >>/tmp/bench-sched.perf
	done
	sw=$(cut -d' ' -f1 /tmp/bench-sched.sl | median); sc=$(cut -d' ' -f2 /tmp/bench-sched.sl | median)
	pw=$(cut -d' ' -f1 /tmp/bench-sched.perf | median); pc=$(cut -d' ' -f2 /tmp/bench-sched.perf | median)
	sl_=$(cut -d' ' -f2 /tmp/bench-sched.sl | sort -n | head -1)
	pl=$(cut -d' ' -f2 /tmp/bench-sched.perf | sort -n | head -1)
	row "schedlens sched -i" "$sw" "$sc" "$sl_"
	if [ "$nocache" = 1 ]; then
		cw=$(cut -d' ' -f1 /tmp/bench-sched.cold | median)
		cc=$(cut -d' ' -f2 /tmp/bench-sched.cold | median)
		cl=$(cut -d' ' -f2 /tmp/bench-sched.cold | sort -n | head -1)
		row "  --no-cache (kallsyms)" "$cw" "$cc" "$cl"
	fi
	row "perf sched timehist -s" "$pw" "$pc" "$pl"
	awk -v sw="$sw" -v sc="$sc" -v pw="$pw" -v pc="$pc" -v sl="$sl_" -v pl="$pl" 'BEGIN {
		printf "    schedlens/perf rate: %.1fx wall, %.1fx cpu, %.1fx least cpu (target >= 10x)\n",
			pw / sw, pc / sc, pl / sl }'
	if [ "$nocache" = 1 ]; then
		awk -v cw="$cw" -v cc="$cc" -v pw="$pw" -v pc="$pc" -v cl="$cl" -v pl="$pl" 'BEGIN {
			printf "    with --no-cache (IPI call sites looked up in /proc/kallsyms): %.1fx wall, " \
				"%.1fx cpu, %.1fx least cpu\n", pw / cw, pc / cc, pl / cl }'
	fi
}
row() {
	awk -v name="$1" -v w="$2" -v c="$3" -v l="$4" -v r="$records" 'BEGIN {
		printf "    %-26s %8.3f %14.0f %8.3f %14.0f %12.3f\n", name, w, r / w, c, r / c, l }'
}

printf "%s (%.1f MB, %d records), median of %d:\n" "$data" "$(stat -c %s "$data" | awk '{ print $1 / 1e6 }')" \
	"$records" "$n"
printf "    %-26s %8s %14s %8s %14s %12s\n" "" "wall s" "records/s" "cpu s" "records/cpu-s" \
	"least cpu s"
echo "  page cache as a file read back from disk has it (large folios):"
bench_settle "$data"
bench_settle_bins "$sl" "$(command -v perf)"
state "$data" 1
echo "  page cache as small writes leave it (a file perf record has just written: 4 kB pages):"
bench_small_writes "$data" /tmp/bench-sched.small
state /tmp/bench-sched.small 0
rm -f /tmp/bench-sched.stat /tmp/bench-sched.sl /tmp/bench-sched.cold /tmp/bench-sched.perf \
	/tmp/bench-sched.out /tmp/bench-sched.err /tmp/bench-sched.small
