#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens against perf 6.1 (installed, the users' tool) and perf 6.12 (scripts/build-perf.sh)
# on the benchmark corpus (scripts/bench-corpus.sh: recordings shaped like users' ones), one
# table a file. Per command, the three tools take turns (A B C A B C ...), BENCH_CORPUS_RUNS
# rounds (default 3: ~1 min of CPU a round on the system-wide file, perf's share the most; the
# four files took 9 min 44 s of wall time here, 7.8 min of it the system-wide one);
# each run's CPU time is user + sys of the process and the children it waited for
# (getrusage, lib-bench.sh's rusage) and its peak RSS that of its largest process. Printed:
# least and median CPU seconds, peak RSS, perf's least over schedlens's least (the ratio), the
# issue's target, schedlens's RSS over perf 6.1's, and the floor: `cat FILE >/dev/null` plus a
# process start (`schedlens version`), with how far above it each schedlens command is. A tool
# that fails or runs past BENCH_CORPUS_TIMEOUT seconds (300) is shown as failed, never as a
# figure. The last column says whether the outputs agree with each perf's: the first 10 rows
# of a flat report (blanks squeezed), the first 40 lines of a call graph, the 10 largest folded
# stacks, the first 2000 lines of script; sched's report has no perf twin and is not compared.
# The peer of --folded is `perf script -F comm,ip,sym` piped to an awk folding of the same shape
# (comm;outer;...;inner COUNT), the awk's time counted: `perf report -g folded` prints another
# shape (per-entry chains with percentages). schedlens runs with a lookup cache of its own, filled
# by a first run of each command; --sort srcline runs with SCHEDLENS_NO_CACHE=1 (no cache at all).
# BENCH_CORPUS_FILES picks files (default "syswide dwarf sched tracepoint"; the last has one fast
# path's shape and is not the headline).
set -u
. "$(dirname "$0")/lib-bench.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLENS:-$top/build/schedlens}
runs=${BENCH_CORPUS_RUNS:-3}
limit=${BENCH_CORPUS_TIMEOUT:-300}
dir=${BENCH_CORPUS_DIR:-$top/build/bench-corpus}
files=${BENCH_CORPUS_FILES:-syswide dwarf sched tracepoint}
p61=$(command -v perf) || { echo "bench-corpus-peers: perf is not installed, skipped"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "bench-corpus-peers: needs root to record the corpus, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C SCHEDLENS_CACHE_DIR=$tmp/cache
unset SCHEDLENS_NO_CACHE
bench_rusage_build "$tmp" || exit 1
SCHEDLENS=$sl bash "$top/scripts/bench-corpus.sh" "$dir" >"$tmp/corpus" ||
	{ echo "bench-corpus-peers: cannot make the corpus in '$dir'"; exit 1; }
p612=$(bash "$top/scripts/build-perf.sh" -q) || p612=
cat "$tmp/corpus"
echo
v612="not built (scripts/build-perf.sh failed)"
[ -n "$p612" ] && v612="$("$p612" version) ($p612)"
printf '%s (%s); perf 6.1: %s; perf 6.12: %s\n' "$("$sl" version 2>&1 | head -1)" "$sl" \
	"$(perf version)" "$v612"
printf 'machine: %s, %s CPUs, load average %s at the start\n' "$(uname -r)" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"

cat >"$tmp/fold.awk" <<'EOF'
# perf script -F comm,ip,sym: a "comm" line, then one "ip sym" line a frame, innermost first
BEGIN { RS = "" }
{
	n = split($0, l, "\n")
	k = l[1]
	gsub(/^[ \t]+|[ \t]+$/, "", k)
	for (i = n; i > 1; i--) {
		s = l[i]
		sub(/^[ \t]*[0-9a-f]+ /, "", s)
		k = k ";" s
	}
	c[k]++
}
END { for (k in c) print k, c[k] }
EOF

tools="sl p61 p612"
[ -n "$p612" ] || tools="sl p61"
# argv TOOL CASE FILE: the command in CMD, and an environment variable for it in ENVV
argv() {
	local t=$1 c=$2 f=$3 b=$sl
	ENVV=SCHEDLENS_BENCH=1
	[ "$t" = p61 ] && b=$p61
	[ "$t" = p612 ] && b=$p612
	if [ "$t" = sl ]; then
		case $c in
		sym | cds | dso) CMD=("$b" report -i "$f" --sort "$(key "$c")") ;;
		children) CMD=("$b" report -i "$f" --children --sort sym) ;;
		caller | callee) CMD=("$b" report -i "$f" -g "$c") ;;
		chgraph) CMD=("$b" report -i "$f" --children -g caller --sort sym) ;;
		folded) CMD=("$b" report -i "$f" --folded) ;;
		script) CMD=("$b" script -i "$f") ;;
		sched) CMD=("$b" sched -i "$f") ;;
		srcline) CMD=("$b" report -i "$f" --sort srcline); ENVV=SCHEDLENS_NO_CACHE=1 ;;
		esac
		return
	fi
	case $c in
	sym | cds | dso | srcline)
		CMD=("$b" report -i "$f" --stdio --no-children -g none --sort "$(key "$c")") ;;
	children) CMD=("$b" report -i "$f" --stdio --children -g none --sort sym) ;;
	caller | callee) CMD=("$b" report -i "$f" --stdio --no-children -g "$c") ;;
	chgraph) CMD=("$b" report -i "$f" --stdio --children -g caller --sort sym) ;;
	folded) CMD=(sh -c "'$b' script -i '$f' -F comm,ip,sym | awk -f '$tmp/fold.awk'") ;;
	script) CMD=("$b" script -i "$f") ;;
	sched) CMD=("$b" sched timehist -s -i "$f") ;;
	esac
}
key() {
	case $1 in
	cds) echo comm,dso,sym ;;
	*) echo "$1" ;;
	esac
}
label() {
	case $1 in
	sym | cds | dso | srcline) echo "report --sort $(key "$1")" ;;
	children) echo "report --children" ;;
	caller | callee) echo "report -g $1" ;;
	chgraph) echo "report --children -g caller" ;;
	folded) echo "report --folded" ;;
	script) echo "script" ;;
	sched) echo "sched -i / timehist -s" ;;
	esac
}
target() {
	case $1 in
	sym | cds | dso) echo 20 ;;
	srcline) echo 100 ;;
	*) echo 10 ;;
	esac
}
# one timed run: TOOL CASE FILE ROUND, "cpu wall rss status" appended to $tmp/m.CASE.TOOL
one() {
	local out=$tmp/out.$2.$1
	argv "$1" "$2" "$3"
	[ "$2" = script ] && out=/dev/null
	env "$ENVV" "$tmp/rusage" "$out" "$tmp/err.$2.$1" "$limit" "${CMD[@]}" >>"$tmp/m.$2.$1"
}
# least, median CPU s and the largest RSS of a measurement file, or "failed: WHY"
summary() {
	sort -n -k1,1 "$1" | awk '$4 != "0" { bad = $4 " (exit status)"; if ($4 == "timeout" || $4 ~ /^sig/) bad = $4 }
	     { c[NR] = $1; if ($3 > rss) rss = $3 }
	     END {
		if (bad != "") { print "failed: " bad; exit }
		n = NR
		printf "%.4f %.4f %.1f\n", c[1], (n % 2) ? c[(n + 1) / 2] : (c[n / 2] + c[n / 2 + 1]) / 2, rss / 1024
	     }'
}
# the lines compared of a tool's output for CASE
digest() {
	local c=$1 f=$2
	case $c in
	caller | callee | chgraph) grep -v '^#' "$f" | sed 's/[ \t]*$//; /^$/d; s/  */ /g' | head -40 ;;
	folded) awk '{ n = $NF; $NF = ""; print n, $0 }' "$f" | sort -k1,1nr -k2 | head -10 ;;
	script) head -2000 "$f" | sed 's/[ \t]*$//; s/  */ /g' ;;
	*) grep -v '^#' "$f" | sed 's/[ \t]*$//; /^$/d; s/  */ /g' | head -10 ;;
	esac
}
# agree CASE TOOL: "same", or "line N" where schedlens's output first differs
agree() {
	local c=$1 t=$2 a=$tmp/d.$1.sl b=$tmp/d.$1.$2 n
	[ "$c" = sched ] && { echo "-"; return; }
	awk '$4 != "0" { bad = 1 } END { exit !bad }' "$tmp/m.$c.sl" "$tmp/m.$c.$t" && { echo "failed"; return; }
	[ -s "$tmp/out.$c.sl" ] && [ -s "$tmp/out.$c.$t" ] || { echo "none"; return; }
	digest "$c" "$tmp/out.$c.sl" >"$a"
	digest "$c" "$tmp/out.$c.$t" >"$b"
	if cmp -s "$a" "$b"; then
		echo same
		return
	fi
	n=$(diff <(cat -n "$a") <(cat -n "$b") | sed -nE 's/^[<>] +([0-9]+).*/\1/p' | head -1)
	echo "line ${n:-?}"
	printf '      %s, %s line %s:\n        schedlens: %.150s\n        %-9s: %.150s\n' "$(label "$c")" \
		"$t" "${n:-?}" "$(sed -n "${n:-1}p" "$a")" "$t" "$(sed -n "${n:-1}p" "$b")" >>"$tmp/diffs"
}

# ratio TOOL: TOOL's least CPU time over schedlens's (least[] of the row)
ratio() {
	[ -n "${least[sl]:-}" ] && [ -n "${least[$1]:-}" ] || { echo "-"; return; }
	awk -v p="${least[$1]}" -v s="${least[sl]}" 'BEGIN { r = p / (s > 0 ? s : 1e-6)
		printf r < 1 ? "%.2fx" : "%.1fx", r }'
}

for name in $files; do
	f=$dir/$name.data
	[ -s "$f" ] || { echo "$name: no '$f'"; continue; }
	IFS=$'\t' read -r size cnt what <"$dir/$name.info"
	case $name in
	syswide | dwarf) cases="sym cds dso children chgraph caller callee folded script srcline" ;;
	*) cases="sym cds dso script sched srcline" ;;
	esac
	t0=$SECONDS
	rm -f "$tmp"/m.* "$tmp"/out.* "$tmp"/d.* "$tmp/diffs"
	bench_settle "$f"
	bench_settle_bins "$sl" "$p61" ${p612:+"$p612"}
	# schedlens's lookup cache filled by a first run of each command (sched -i and script
	# resolve the kernel addresses of IPI fields through kallsyms, report the samples' own)
	for c in $cases; do
		argv sl "$c" "$f"
		[ "$c" = srcline ] || "${CMD[@]}" >/dev/null 2>&1
	done
	for ((r = 0; r < runs; r++)); do
		for c in $cases; do
			for t in $tools; do
				one "$t" "$c" "$f"
			done
		done
		"$tmp/rusage" /dev/null /dev/null "$limit" cat "$f" >>"$tmp/m.floor.cat"
		"$tmp/rusage" /dev/null /dev/null "$limit" "$sl" version >>"$tmp/m.floor.start"
	done
	# script's output compared apart: its first lines only
	for t in $tools; do
		argv "$t" script "$f"
		env "$ENVV" "${CMD[@]}" 2>/dev/null | head -2000 >"$tmp/out.script.$t"
	done
	read -r fcat _ < <(summary "$tmp/m.floor.cat")
	read -r fstart _ < <(summary "$tmp/m.floor.start")
	floor=$(awk -v a="$fcat" -v b="$fstart" 'BEGIN { printf "%.4f", a + b }')
	echo
	[ "$name" = tracepoint ] && echo "NOT THE HEADLINE: a file of tracepoint samples, the shape one fast path was built for"
	printf '%s: %.1f MB, %s samples; %s\n' "$name.data" "$(echo "$size / 1000000" | bc -l)" "$cnt" "$what"
	printf 'CPU seconds (user+sys, children included), least and median of %d interleaved runs; peak RSS MB\n' "$runs"
	printf '%-27s %-22s %-22s %-22s %6s %6s %6s %7s %7s %6s  %s\n' "" "schedlens" "perf 6.1" "perf 6.12" \
		"ratio" "ratio" "target" "RSS" "floor" "floor" "output agrees"
	printf '%-27s %-22s %-22s %-22s %6s %6s %6s %7s %7s %6s  %s\n' command "least median RSS" \
		"least median RSS" "least median RSS" "/6.1" "/6.12" "/6.1" "sl/6.1" "x" "+s" "with 6.1, 6.12"
	for c in $cases; do
		line=$(printf '%-27s' "$(label "$c")")
		declare -A least=() rss=()
		for t in sl p61 p612; do
			if [[ " $tools " != *" $t "* ]]; then
				line+=$(printf ' %-22s' "not built")
				continue
			fi
			s=$(summary "$tmp/m.$c.$t")
			case $s in
			failed*) line+=$(printf ' %-22s' "$s") ;;
			*)	read -r l m x <<<"$s"
				least[$t]=$l rss[$t]=$x
				line+=$(printf ' %6.3f %6.3f %7.1f' "$l" "$m" "$x") ;;
			esac
		done
		r61=$(ratio p61) r612=$(ratio p612)
		met="-"
		if [ "$r61" != "-" ]; then
			met=$(awk -v r="${r61%x}" -v t="$(target "$c")" 'BEGIN { printf "%d%s", t, (r >= t ? "" : "!") }')
		fi
		rr="-" fx="-" fp="-"
		[ -n "${rss[sl]:-}" ] && [ -n "${rss[p61]:-}" ] &&
			rr=$(awk -v a="${rss[sl]}" -v b="${rss[p61]}" 'BEGIN { printf "%.2f", a / b }')
		if [ -n "${least[sl]:-}" ]; then
			fx=$(awk -v a="${least[sl]}" -v b="$floor" 'BEGIN { printf "%.1fx", a / b }')
			fp=$(awk -v a="${least[sl]}" -v b="$floor" 'BEGIN { printf "%.3f", a - b }')
		fi
		ag=$(agree "$c" p61)
		[[ " $tools " == *" p612 "* ]] && ag+=", $(agree "$c" p612)"
		printf '%s %6s %6s %6s %7s %7s %6s  %s\n' "$line" "$r61" "$r612" "$met" "$rr" "$fx" "$fp" "$ag"
		unset least rss
	done
	printf 'floor: cat FILE >/dev/null %.4f s + schedlens version %.4f s = %.4f s; target ending in !: not met\n' \
		"$fcat" "$fstart" "$floor"
	if [ -s "$tmp/diffs" ]; then
		echo "    where the outputs first differ:"
		cat "$tmp/diffs"
	fi
	printf '(%d s of wall time for this file; load average now %s)\n' $((SECONDS - t0)) \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
done
