#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A recording of 2 GB or more: the corpus's system-wide file (for `report --sort dso`) and its
# sched file (for `sched -i`) copied N times through schedlens's writer (tests/test-perfdata
# --replicate: a valid perf.data, a FINISHED_ROUND after each copy) until past 2 GiB, each read
# by schedlens and by perf 6.1. Prints CPU time and peak RSS (lib-bench.sh's rusage, least of 2
# runs) on the corpus file, on a copy past 1 GiB and on one past 2 GiB, and how much the RSS
# grew from the first copy to the second, whose file is twice as large (the issue wants memory
# that does not grow with the file: what is bounded, as the exact latencies up to a count or
# a round's index, is reached by the first copy already), whether the top 10 rows of
# report agree with perf's, and whether a progress line appears on a terminal (run under
# `script -qc`, a pty on stdin, stdout and stderr). Each copy is deleted after its use.
# Needs the corpus (bench-corpus.sh) and ~2.3 GB free in build/ (one copy at a time).
set -u
. "$(dirname "$0")/lib-bench.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLENS:-$top/build/schedlens}
dir=${BENCH_CORPUS_DIR:-$top/build/bench-corpus}
rep=$(dirname "$sl")/tests/test-perfdata
command -v perf >/dev/null || { echo "bench-bigfile: perf is not installed, skipped"; exit 0; }
command -v script >/dev/null || { echo "bench-bigfile: no script(1) for a terminal, skipped"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "bench-bigfile: needs root to record the corpus, skipped"; exit 0; }
[ -x "$rep" ] || make -s -C "$top" O="$(cd "$(dirname "$sl")" && pwd)" unit-bins >/dev/null 2>&1
[ -x "$rep" ] || { echo "bench-bigfile: '$rep' is not built (make unit-bins)"; exit 1; }
SCHEDLENS=$sl bash "$top/scripts/bench-corpus.sh" "$dir" >/dev/null ||
	{ echo "bench-bigfile: cannot make the corpus in '$dir'"; exit 1; }
tmp=$(mktemp -d)
big=$top/build/bench-bigfile.data
trap 'rm -rf "$tmp" "$big"' EXIT
export LC_ALL=C SCHEDLENS_CACHE_DIR=$tmp/cache
bench_rusage_build "$tmp" || exit 1

# least CPU s of 2 runs, and the peak RSS in MB: "CPU RSS", or "failed STATUS"
cost() {
	local i
	: >"$tmp/m"
	for i in 1 2; do
		"$tmp/rusage" "$tmp/out" "$tmp/err" 600 "$@" >>"$tmp/m"
	done
	sort -n "$tmp/m" | awk '$4 != "0" { bad = $4 } NR == 1 { c = $1 } $3 > r { r = $3 }
		END { if (bad != "") print "failed", bad; else printf "%.3f %.1f\n", c, r / 1024 }'
}
# copies of @1 past @2 bytes into $big: "COPIES SAMPLES BYTES", or nothing
copy() {
	local mb copies n
	mb=$(stat -c %s "$1")
	copies=$(( ($2 + mb - 1) / mb + 1 ))
	n=$("$rep" --replicate "$1" "$big" "$copies") || return 1
	echo "$copies $n $(stat -c %s "$big")"
}
# one file: NAME, the schedlens arguments, perf's arguments
one() {
	local name=$1 f=$dir/$1.data sla=$2 pa=$3 mb c1 c2 s0 s1 s2 p2 agree progress
	[ -s "$f" ] || { echo "bench-bigfile: no '$f'"; return 1; }
	mb=$(stat -c %s "$f")
	"$sl" $sla -i "$f" >/dev/null 2>&1 # the lookup cache filled once
	s0=$(cost "$sl" $sla -i "$f")
	c1=$(copy "$f" 1073741824) || { echo "bench-bigfile: cannot copy '$f'"; return 1; }
	s1=$(cost "$sl" $sla -i "$big")
	rm -f "$big"
	c2=$(copy "$f" 2147483648) || { echo "bench-bigfile: cannot copy '$f'"; return 1; }
	s2=$(cost "$sl" $sla -i "$big")
	grep -v '^#' "$tmp/out" | sed 's/[ \t]*$//; /^$/d' | head -10 >"$tmp/sl.top"
	p2=$(cost perf $pa -i "$big")
	grep -v '^#' "$tmp/out" | sed 's/[ \t]*$//; /^$/d' | head -10 >"$tmp/perf.top"
	agree="not compared (other reports)"
	[ "$name" = syswide ] && { cmp -s "$tmp/sl.top" "$tmp/perf.top" && agree=same || agree=differ; }
	script -qc "'$sl' $sla -i '$big' >/dev/null" "$tmp/tty" </dev/null >/dev/null 2>&1
	progress=$(tr '\r' '\n' <"$tmp/tty" | grep -a -c "reading '")
	rm -f "$big"
	set -- $c1 $c2
	printf '%s: %.1f MB; x %d: %.1f MB (%d samples); x %d: %.1f MB (%d samples)\n' "$name.data" \
		"$(echo "$mb / 1000000" | bc -l)" "$1" "$(echo "$3 / 1000000" | bc -l)" "$2" \
		"$4" "$(echo "$6 / 1000000" | bc -l)" "$5"
	printf '    %-52s %15s %15s %15s\n' "" "corpus file" "1 GB copy" "2 GB copy"
	printf '    %-52s %15s %15s %15s\n' "" "cpu s  RSS MB" "cpu s  RSS MB" "cpu s  RSS MB"
	printf '    %-52s %15s %15s %15s\n' "schedlens $sla -i" "$s0" "$s1" "$s2"
	printf '    %-52s %15s %15s %15s\n' "perf $pa -i" "-" "-" "$p2"
	awk -v a="$s0" -v b="$s1" -v c="$s2" -v f1="$3" -v f2="$6" 'BEGIN {
		split(a, x, " "); split(b, y, " "); split(c, z, " ")
		if (x[1] == "failed" || y[1] == "failed" || z[1] == "failed") exit
		printf "    RSS x%.2f from the 1 GB copy to the 2 GB one (file x%.2f), x%.1f of the corpus file'"'"'s: %s\n",
			z[2] / y[2], f2 / f1, z[2] / x[2],
			z[2] / y[2] < 1.1 ? "does not grow with the file" : "grows with the file (target: it does not)" }'
	printf '    top 10 rows against perf 6.1: %s; progress lines on a terminal: %s\n' "$agree" "$progress"
}
one syswide "report --sort dso" "report --stdio --no-children -g none --sort dso"
one sched "sched" "sched timehist -s"
