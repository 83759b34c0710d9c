#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Source-line report speed: `schedlens report --sort srcline` against `perf report --sort
# srcline` (which spawns addr2line) on the same file: the hotline program recorded with
# cpu-clock at a 100 us period for ~4 s (~40,000 samples). Prints both times and the ratio,
# and the sym-level time to show what lines cost on top. Target: >= 100x.
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

secs() { # run "$@" 3 times, print the best wall time in seconds
	local best=
	for _ in 1 2 3; do
		local t0 t1
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s.%N)
		best=$(awk -v b="$best" -v d="$(echo "$t1 - $t0" | bc -l)" \
			'BEGIN { print (b == "" || d < b) ? d : b }')
	done
	echo "$best"
}

ours=$(secs "$bin" report -i "$tmp/hl.data" --sort srcline)
ours_sym=$(secs "$bin" report -i "$tmp/hl.data" --sort sym)
theirs=$(secs perf report -i "$tmp/hl.data" --sort srcline --stdio --no-children -g none)
theirs_sym=$(secs perf report -i "$tmp/hl.data" --sort sym --stdio --no-children -g none)
printf '%-44s %10s %10s\n' "file: hotline, cpu-clock -c 100000 -g" "samples" "$samples"
printf '%-44s %10s %10s %8s\n' "" "schedlens" "perf" "ratio"
printf '%-44s %9.3fs %9.3fs %7.1fx\n' "report --sort srcline" "$ours" "$theirs" \
	"$(echo "$theirs / $ours" | bc -l)"
printf '%-44s %9.3fs %9.3fs %7.1fx\n' "report --sort sym" "$ours_sym" "$theirs_sym" \
	"$(echo "$theirs_sym / $ours_sym" | bc -l)"
printf '%-44s %9.2fx %9.2fx\n' "srcline cost over sym" "$(echo "$ours / $ours_sym" | bc -l)" \
	"$(echo "$theirs / $theirs_sym" | bc -l)"
