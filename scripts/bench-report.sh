#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Source-line report speed: `schedlens report --sort srcline` against `perf report --sort
# srcline` (which spawns addr2line) on the same file: the hotline program recorded with
# cpu-clock at a 100 us period for ~4 s (~40,000 samples on an idle machine). Prints both
# CPU times (task-clock, addr2line children included: wall time swings with the load of a
# shared machine) and the ratio, and the sym-level figures to show what lines cost on top.
# schedlens keeps what it looked up in a cache (SCHEDLENS_CACHE_DIR, here a fresh directory):
# "cold" empties it before every run (binaries, debug files and kallsyms read again), "warm"
# runs with the cache the first run filled. Two floors without perf counterparts show what
# no symbol work can go under: the process start, and reading the file (--stats). Target: >= 100x.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SCHEDLENS:-$top/build/schedlens}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v perf >/dev/null || { echo "bench-report: perf is not installed, skipped"; exit 0; }
gcc -g -O1 -fno-omit-frame-pointer -o "$tmp/hotline" "$top/tests/data/hotline.c" || exit 1
"$bin" record -e cpu-clock -c 100000 -g -o "$tmp/hl.data" -- "$tmp/hotline" 4 >/dev/null \
	2>"$tmp/rec" || { cat "$tmp/rec"; exit 1; }
samples=$(sed -nE 's/.* ([0-9]+) samples written.*/\1/p' "$tmp/rec")

export SCHEDLENS_CACHE_DIR=$tmp/cache
unset SCHEDLENS_NO_CACHE
cold=
# CPU time as perf stat's task-clock (children included, counted from the exec: the shell's
# fork before it does not count, as it did with time(1), ~5 ms of noise on this VM)
secs() { # run "$@" 3 times, print the least CPU time in s
	local best= t
	for _ in 1 2 3; do
		[ -n "$cold" ] && rm -rf "$SCHEDLENS_CACHE_DIR"
		perf stat -x, -o "$tmp/time" -e task-clock -- "$@" >/dev/null 2>&1
		t=$(awk -F, '$3 ~ /task-clock/ { print $1 / 1000 }' "$tmp/time")
		best=$(awk -v b="$best" -v d="$t" 'BEGIN { print (b == "" || d < b) ? d : b }')
	done
	echo "$best"
}

cold=1
ours_cold=$(secs "$bin" report -i "$tmp/hl.data" --sort srcline)
ours_sym_cold=$(secs "$bin" report -i "$tmp/hl.data" --sort sym)
cold=
"$bin" report -i "$tmp/hl.data" --sort srcline >/dev/null 2>&1
ours=$(secs "$bin" report -i "$tmp/hl.data" --sort srcline)
ours_sym=$(secs "$bin" report -i "$tmp/hl.data" --sort sym)
floor_start=$(secs "$bin" version)
floor_read=$(secs "$bin" report -i "$tmp/hl.data" --stats)
theirs=$(secs perf report -i "$tmp/hl.data" --sort srcline --stdio --no-children -g none)
theirs_sym=$(secs perf report -i "$tmp/hl.data" --sort sym --stdio --no-children -g none)
row() { # label ours theirs
	printf '%-44s %9.3fs %9.3fs %7.1fx\n' "$1" "$2" "$3" "$(echo "$3 / $2" | bc -l)"
}
printf '%-44s %10s %10s\n' "file: hotline, cpu-clock -c 100000 -g" "samples" "$samples"
printf '%-44s %10s %10s %8s\n' "CPU seconds, best of 3" "schedlens" "perf" "ratio"
row "report --sort srcline, cache warm" "$ours" "$theirs"
row "report --sort srcline, cache cold" "$ours_cold" "$theirs"
row "report --sort sym, cache warm" "$ours_sym" "$theirs_sym"
row "report --sort sym, cache cold" "$ours_sym_cold" "$theirs_sym"
printf '%-44s %9.3fs %10s\n' "floor: schedlens version (process start)" "$floor_start" "-"
printf '%-44s %9.3fs %10s\n' "floor: report --stats (reading the file)" "$floor_read" "-"
printf '%-44s %9.2fx %9.2fx\n' "srcline cost over sym, cold" \
	"$(echo "$ours_cold / $ours_sym_cold" | bc -l)" "$(echo "$theirs / $theirs_sym" | bc -l)"
