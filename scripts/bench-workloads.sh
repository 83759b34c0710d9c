#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Built-in workloads side by side with their peers, same parameters, runs interleaved, median
# of $RUNS each:
#   bench pipe round trips/s   vs perf bench sched pipe            (target: within 10%)
#   bench messaging time       vs perf bench sched messaging        (target: within 15%)
#                              vs hackbench (rt-tests)              (target: within 15%)
# Environment: RUNS (5), PIPE_LOOPS (50000), MSG_RUNS (3), MSG_LOOPS (1000).
# Usage: SCHEDLENS=build/schedlens scripts/bench-workloads.sh   (make bench sets SCHEDLENS)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLENS:-$top/build/schedlens}
runs=${RUNS:-5}
pipe_loops=${PIPE_LOOPS:-50000}
msg_loops=${MSG_LOOPS:-1000}
msg_runs=${MSG_RUNS:-3}
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
have_hb=1
command -v hackbench >/dev/null || { have_hb=0; echo "hackbench (rt-tests) is not installed"; }

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
row() { # name ours theirs target_pct unit
	awk -v n="$1" -v a="$2" -v b="$3" -v t="$4" -v u="$5" 'BEGIN {
		r = a / b; d = (r - 1) * 100; ad = d < 0 ? -d : d
		printf "%-58s %12.4g %12.4g %-6s %7.3f  %+6.1f%%  %s\n", n, a, b, u, r, d,
		       ad <= t ? "within " t "%" : "OUTSIDE " t "%" }'
}

# the human lines: "pipe: ... 14.399 us/rt, 69449 rt/s, 1.440 s", "messaging: ...: 1.316 s, ..."
sl_pipe() { "$sl" bench pipe -l "$pipe_loops" "$@" | awk '{ for (i = 2; i <= NF; i++) if ($i == "rt/s,") print $(i - 1) }'; }
perf_pipe() { perf bench sched pipe -l "$pipe_loops" "$@" | awk '/ops\/sec/ { print $1 }'; }
sl_msg() { "$sl" bench messaging -g 1 -l "$msg_loops" "$@" | awk '{ for (i = 2; i <= NF; i++) if ($i == "s,") { print $(i - 1); exit } }'; }
perf_msg() { perf bench sched messaging -g 1 -l "$msg_loops" "$@" | awk '/Total time/ { print $3 }'; }
hb_msg() { hackbench -g 1 -l "$msg_loops" "$@" | awk '/^Time:/ { print $2 }'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (figures are noisy when others run)"
printf "%-58s %12s %12s %-6s %7s  %7s\n" "median of $runs (pipe) / $msg_runs (messaging)" schedlens peer unit ratio diff
for mode in processes threads; do
	flag=(); [ $mode = threads ] && flag=(-T)
	TMP_A=$(mktemp); TMP_B=$(mktemp)
	for _ in $(seq "$runs"); do
		sl_pipe "${flag[@]}" >>"$TMP_A"
		perf_pipe "${flag[@]}" >>"$TMP_B"
	done
	row "pipe -l $pipe_loops ($mode) rt/s vs perf" "$(median <"$TMP_A")" "$(median <"$TMP_B")" 10 ops/s
	rm -f "$TMP_A" "$TMP_B"
done

for mode in "processes socketpairs" "threads pipes"; do
	sl_flags=(); perf_flags=(); hb_flags=()
	if [ "$mode" = "threads pipes" ]; then
		sl_flags=(-T -p); perf_flags=(-t -p); hb_flags=(-T -p)
	fi
	a=$(mktemp); b=$(mktemp); c=$(mktemp)
	for _ in $(seq "$msg_runs"); do
		sl_msg "${sl_flags[@]}" >>"$a"
		perf_msg "${perf_flags[@]}" >>"$b"
		[ $have_hb = 1 ] && hb_msg "${hb_flags[@]}" >>"$c"
	done
	row "messaging -g 1 -l $msg_loops ($mode) vs perf" "$(median <"$a")" "$(median <"$b")" 15 s
	if [ $have_hb = 1 ]; then
		row "messaging -g 1 -l $msg_loops ($mode) vs hackbench" "$(median <"$a")" "$(median <"$c")" 15 s
		# the peers measured against each other, for scale
		row "  (perf vs hackbench, same runs)" "$(median <"$b")" "$(median <"$c")" 15 s
	fi
	rm -f "$a" "$b" "$c"
done

# the fixed cost of starting and reaping 40 tasks (-l 1), which the peers count in their time
a=$(mktemp); b=$(mktemp); c=$(mktemp)
for _ in $(seq "$msg_runs"); do
	msg_loops=1 sl_msg >>"$a"
	msg_loops=1 perf_msg >>"$b"
	[ $have_hb = 1 ] && msg_loops=1 hb_msg >>"$c"
done
echo "messaging -g 1 -l 1 (processes), set-up and teardown: schedlens $(median <"$a") s," \
	"perf $(median <"$b") s$([ $have_hb = 1 ] && echo ", hackbench $(median <"$c") s")"
rm -f "$a" "$b" "$c"
exit 0
