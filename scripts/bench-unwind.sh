#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DWARF unwinding speed: the deepstack test program (no frame pointers) recorded with
# --call-graph dwarf (8 kB of stack per sample) for ~2 s at a 100 us cpu-clock period, then
# `report --children --sort sym` (every sample unwound) against perf report on the same
# file. Least CPU time (task-clock) of 3 runs each; prints the ratio.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SCHEDLENS:-$top/build/schedlens}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v perf >/dev/null || { echo "bench-unwind: perf is not installed, skipped"; exit 0; }
gcc -g -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$tmp/deepstack" \
	"$top/tests/data/deepstack.c" || exit 1
"$bin" record -e cpu-clock -c 100000 --call-graph dwarf -o "$tmp/ds.data" -- "$tmp/deepstack" 2 \
	>/dev/null 2>"$tmp/rec" || { cat "$tmp/rec"; exit 1; }
samples=$(sed -nE 's/.* ([0-9]+) samples written.*/\1/p' "$tmp/rec")
secs() {
	local best= t
	for _ in 1 2 3; do
		perf stat -x, -e task-clock -o "$tmp/stat" -- "$@" >/dev/null 2>&1
		t=$(awk -F, '/task-clock/ { printf "%.6f", $1 / 1000 }' "$tmp/stat")
		best=$(awk -v b="$best" -v d="$t" 'BEGIN { print (b == "" || d < b) ? d : b }')
	done
	echo "$best"
}
ours=$(secs "$bin" report -i "$tmp/ds.data" --children --sort sym --no-cache)
theirs=$(secs perf report -i "$tmp/ds.data" --children --sort sym --stdio -g none)
printf 'deepstack, --call-graph dwarf, %s samples (%s MB)\n' "$samples" \
	"$(( $(stat -c %s "$tmp/ds.data") >> 20 ))"
printf '%-40s %9.3fs\n' "schedlens report --children --sort sym" "$ours"
printf '%-40s %9.3fs\n' "perf report --children --sort sym" "$theirs"
printf 'ratio (perf cpu / schedlens cpu): %.1fx\n' "$(echo "$theirs / $ours" | bc -l)"
