#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DWARF unwinding speed, on two recordings made with --call-graph dwarf (8 kB of stack per
# sample): the deepstack test program (no frame pointers) for ~2 s at a 100 us cpu-clock
# period; and the whole system (-a, 1 ms) while short-lived processes come and go (ls -R and
# find, 24 processes: each is a process of its own to unwind, ld.so and libc in each). Then
# `report --children --sort sym` (every sample unwound), without schedlens's lookup cache,
# against perf 6.1's report on the same file, and perf 6.12's where scripts/build-perf.sh
# built it. Least CPU time (task-clock) of 3 runs each; prints the ratios.
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
	local best='' t
	for _ in 1 2 3; do
		perf stat -x, -e task-clock -o "$tmp/stat" -- "$@" >/dev/null 2>&1
		t=$(awk -F, '/task-clock/ { printf "%.6f", $1 / 1000 }' "$tmp/stat")
		best=$(awk -v b="$best" -v d="$t" 'BEGIN { print (b == "" || d < b) ? d : b }')
	done
	echo "$best"
}
p612=$(bash "$top/scripts/build-perf.sh" -q 2>/dev/null) || p612=
compare() {	# FILE TITLE
	local ours theirs newer
	ours=$(secs "$bin" report -i "$1" --children --sort sym --no-cache)
	theirs=$(secs perf report -i "$1" --children --sort sym --stdio -g none)
	printf '%s (%s MB)\n' "$2" "$(( $(stat -c %s "$1") >> 20 ))"
	printf '%-40s %9.3fs\n' "schedlens report --children --sort sym" "$ours"
	printf '%-40s %9.3fs  %.1fx\n' "perf 6.1 report --children --sort sym" "$theirs" \
		"$(echo "$theirs / $ours" | bc -l)"
	[ -n "$p612" ] || return 0
	newer=$(secs "$p612" report -i "$1" --children --sort sym --stdio -g none)
	printf '%-40s %9.3fs  %.1fx\n' "perf 6.12 report --children --sort sym" "$newer" \
		"$(echo "$newer / $ours" | bc -l)"
}
compare "$tmp/ds.data" "deepstack, --call-graph dwarf, $samples samples"
"$bin" record -a -e cpu-clock -c 1000000 --call-graph dwarf -o "$tmp/sw.data" -- sh -c \
	'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ls -R /usr/share/doc; find /usr/lib -name "*.so*"; done' \
	>/dev/null 2>"$tmp/rec" || { cat "$tmp/rec"; exit 1; }
samples=$(sed -nE 's/.* ([0-9]+) samples written.*/\1/p' "$tmp/rec")
compare "$tmp/sw.data" "system-wide (-a), --call-graph dwarf, $samples samples, 24 short processes"
