#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark corpus: recordings shaped like users' ones, made on this machine with perf 6.1
# (the installed perf, the users' tool), kept in DIR (default build/bench-corpus, not in git)
# and made once: a file is made again only when its .info is missing.
#   syswide.data  (a) system-wide `perf record -a -F 25000 -e cpu-clock -g` over a mixed load
#                 (ls -R and find over /usr, gcc compiling the tree's sources, `perf bench
#                 sched messaging`), at least 400,000 samples with user and kernel callchains
#   dwarf.data    (b) `perf record -e cpu-clock -c 100000 --call-graph dwarf` of
#                 tests/data/deepstack.c built without frame pointers (as bench-unwind.sh)
#   sched.data    (c) the scheduler and IPI tracepoints `schedlens record --sched` takes, of
#                 `perf bench sched messaging` with 20 groups (800 tasks), at least 300,000 records
#   tracepoint.data  the file the older benches use (the sched-pingpong fixture's records x 20
#                 through schedlens's writer, bench-perfdata.sh): one fast path's shape, shown
#                 but not the headline
# Each with 16 MB of ring buffer a CPU (-m 16M): with perf's default 512 kB the sched recording
# lost 31% of its events here. Prints one line a file: name, size, samples or records, what
# made it. Needs root (system-wide
# and tracepoints) and perf; SCHEDLENS names the binary whose unit-test binaries make
# tracepoint.data (make unit-bins).
# Usage: scripts/bench-corpus.sh [DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/bench-corpus}
sl=${SCHEDLENS:-$top/build/schedlens}
fixtures=${FIXTURES:-$top/../shared/fixtures}
command -v perf >/dev/null || { echo "bench-corpus: perf is not installed" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench-corpus: needs root (system-wide recording)" >&2; exit 1; }
mkdir -p "$dir" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncpu=$(nproc)

# the SAMPLE events perf 6.1 counts in FILE
samples() {
	perf report --stats -i "$1" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }'
}
# done NAME MIN WHAT: checks NAME.data has MIN samples at least and writes NAME.info
finish() {
	local f=$dir/$1.data n
	n=$(samples "$f")
	if [ -z "$n" ] || [ "$n" -lt "$2" ]; then
		echo "bench-corpus: '$f' has ${n:-no} samples, fewer than $2" >&2
		rm -f "$f"
		return 1
	fi
	printf '%s\t%s\t%s\n' "$(stat -c %s "$f")" "$n" "$3" >"$dir/$1.info.tmp" &&
		mv "$dir/$1.info.tmp" "$dir/$1.info"
}
have() { [ -s "$dir/$1.info" ] && [ -s "$dir/$1.data" ]; }
# record CMD...: runs CMD, once more if it fails (perf 6.1 record -a aborted here once in the
# build-ids pass at its end: "assertion failed at util/build-id.c:1010", "stack smashing
# detected"); its stderr in $tmp/rec
record() {
	"$@" >/dev/null 2>"$tmp/rec" || "$@" >/dev/null 2>"$tmp/rec" || { cat "$tmp/rec" >&2; return 1; }
}

# the mixed load of (a) for SECS seconds: tree walks, a compile, messaging, side by side, each
# stopped at the end wherever it is
mixed_load() {
	local cflags
	cflags="-I$top/include -I$top/src/lib -I$top/build/deps/include $(pkg-config --cflags libdw 2>/dev/null)"
	timeout "$1" bash -c 'while :; do ls -lR /usr; find /usr -name "*.h" -newer /etc/hostname; done' \
		>/dev/null 2>&1 &
	timeout "$1" bash -c 'while :; do for f in "$@"; do gcc -O2 -g '"$cflags"' -c "$f" -o '"$tmp"'/cc.o; done; done' \
		sh "$top"/src/lib/*/*.c "$top"/src/cmd/*.c >/dev/null 2>&1 &
	timeout "$1" bash -c 'while :; do perf bench sched messaging -g 4 -l 200; done' >/dev/null 2>&1 &
	wait
}

# A machine may deliver fewer samples than CPUs x rate x seconds (a VM whose timer falls
# behind: 238,335 in 10 s on one of this kind, 485,308 on another), so a short recording is
# made again for longer, scaled by the rate it reached, up to 3 times.
if ! have syswide; then
	freq=25000
	secs=$(( 450000 / (freq * ncpu) + 1 ))
	for try in 1 2 3; do
		echo "bench-corpus: recording syswide.data (${secs} s of mixed load)" >&2
		record perf record -q -a -m 16M -F $freq -e cpu-clock -g -o "$dir/syswide.data" -- \
			bash -c "$(declare -f mixed_load); top='$top' tmp='$tmp'; mixed_load $secs" || exit 1
		n=$(samples "$dir/syswide.data")
		[ "${n:-0}" -ge 400000 ] || [ "$try" -eq 3 ] || {
			secs=$(( secs * 450000 / (${n:-0} + 1) + 1 ))
			[ "$secs" -le 120 ] || secs=120
			continue
		}
		break
	done
	finish syswide 400000 "perf 6.1 record -a -m 16M -F $freq -e cpu-clock -g, ${secs} s: ls -lR + find /usr, gcc -O2 -g of src/, perf bench sched messaging -g 4" || exit 1
fi

if ! have dwarf; then
	echo "bench-corpus: recording dwarf.data" >&2
	gcc -g -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$dir/deepstack" \
		"$top/tests/data/deepstack.c" || exit 1
	record perf record -q -m 16M -e cpu-clock -c 100000 --call-graph dwarf -o "$dir/dwarf.data" -- \
		"$dir/deepstack" 4 || exit 1
	finish dwarf 2000 "perf 6.1 record -m 16M -e cpu-clock -c 100000 --call-graph dwarf (8 kB stacks), 4 s of tests/data/deepstack.c (gcc -O2 -fomit-frame-pointer)" || exit 1
fi

if ! have sched; then
	echo "bench-corpus: recording sched.data" >&2
	evs=sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_switch
	evs=$evs,sched:sched_migrate_task,sched:sched_wake_idle_without_ipi,ipi:ipi_send_cpu
	# the records a loop makes vary with the machine and its kernel (298,618 for 700 loops on
	# one of this kind, 442,791 on another): a short recording is made again, scaled, up to 3 times
	loops=700
	for try in 1 2 3; do
		record perf record -q -a -m 16M -e "$evs" -o "$dir/sched.data" -- \
			perf bench sched messaging -g 20 -l $loops || exit 1
		n=$(samples "$dir/sched.data")
		[ "${n:-0}" -ge 300000 ] || [ "$try" -eq 3 ] || {
			loops=$(( loops * 340000 / (${n:-0} + 1) + 1 ))
			[ "$loops" -le 5000 ] || loops=5000
			echo "bench-corpus: sched.data had ${n:-no} records, again with $loops loops" >&2
			continue
		}
		break
	done
	finish sched 300000 "perf 6.1 record -a -m 16M -e $evs (record --sched's set) of perf bench sched messaging -g 20 -l $loops (800 tasks)" || exit 1
fi

if ! have tracepoint; then
	rep=$(dirname "$sl")/tests/test-perfdata
	[ -x "$rep" ] || make -s -C "$top" O="$(cd "$(dirname "$sl")" && pwd)" unit-bins >/dev/null 2>&1
	[ -x "$rep" ] || { echo "bench-corpus: '$rep' is not built (make unit-bins)" >&2; exit 1; }
	"$rep" --replicate "$fixtures/local/sched-pingpong.data" "$dir/tracepoint.data" 20 >/dev/null ||
		{ echo "bench-corpus: cannot make tracepoint.data" >&2; exit 1; }
	finish tracepoint 400000 "sched-pingpong.data (perf 6.1 record of sched tracepoints) x 20 through schedlens's writer: not the headline" || exit 1
fi

printf '%-16s %9s %10s  %s\n' file MB samples "made by"
for n in syswide dwarf sched tracepoint; do
	IFS=$'\t' read -r size cnt what <"$dir/$n.info"
	printf '%-16s %9.1f %10s  %s\n' "$n.data" "$(echo "$size / 1000000" | bc -l)" "$cnt" "$what"
done
