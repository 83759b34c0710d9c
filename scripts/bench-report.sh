#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Source-line report speed: `schedlens report --sort srcline` against `perf report --sort
# srcline` (which spawns addr2line) on the same file: the hotline program recorded with
# cpu-clock at a 100 us period for ~4 s (~40,000 samples on an idle machine). Prints both
# CPU times (user + sys, addr2line children included: wall time swings with the load of a
# shared machine) and the ratio, and the sym-level figures to show what lines cost on top.
# Target: >= 100x.
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

secs() { # run "$@" 3 times, print the least CPU time (user + sys, children included) in s
	local best= t
	for _ in 1 2 3; do
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >/dev/null 2>&1
		t=$(tail -1 "$tmp/time" | awk '{ print $1 + $2 }')
		best=$(awk -v b="$best" -v d="$t" 'BEGIN { print (b == "" || d < b) ? d : b }')
	done
	echo "$best"
}

ours=$(secs "$bin" report -i "$tmp/hl.data" --sort srcline)
ours_sym=$(secs "$bin" report -i "$tmp/hl.data" --sort sym)
theirs=$(secs perf report -i "$tmp/hl.data" --sort srcline --stdio --no-children -g none)
theirs_sym=$(secs perf report -i "$tmp/hl.data" --sort sym --stdio --no-children -g none)
printf '%-44s %10s %10s\n' "file: hotline, cpu-clock -c 100000 -g" "samples" "$samples"
printf '%-44s %10s %10s %8s\n' "CPU seconds, best of 3" "schedlens" "perf" "ratio"
printf '%-44s %9.3fs %9.3fs %7.1fx\n' "report --sort srcline" "$ours" "$theirs" \
	"$(echo "$theirs / $ours" | bc -l)"
printf '%-44s %9.3fs %9.3fs %7.1fx\n' "report --sort sym" "$ours_sym" "$theirs_sym" \
	"$(echo "$theirs_sym / $ours_sym" | bc -l)"
printf '%-44s %9.2fx %9.2fx\n' "srcline cost over sym" "$(echo "$ours / $ours_sym" | bc -l)" \
	"$(echo "$theirs / $theirs_sym" | bc -l)"
