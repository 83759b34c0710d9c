#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel lab's checks inside one guest (busybox sh; run by scripts/lab.sh through
# `schedlens vm --exec`). Each step leaves its output in /work, which comes back to the
# host, and its exit status in status.txt; the host asserts on them.
# Usage: sh guest.sh ARCH [icount]
arch=$1
S=schedlens
# step NAME CMD...: run CMD; its status and seconds into status.txt
step() {
	name=$1
	shift
	t0=$(date +%s)
	"$@"
	echo "$name $? $(( $(date +%s) - t0 ))" >> status.txt
}

if [ "${2:-}" = icount ]; then
	# instructions count only under -icount: this boot does the hardware counters alone
	step hw $S stat -x, -e cycles,instructions -o hw.csv -- $S bench pipe -l 200
	exit 0
fi

uname -r > uname.txt
nproc > nproc.txt
step list $S list > list.txt 2>&1
step stat-sw $S stat -x, -o stat-sw.csv \
	-e task-clock,context-switches,cpu-migrations,page-faults,sched:sched_switch,sched:sched_wakeup \
	-- $S bench pipe -l 2000
step stat-r $S stat -r 3 -o stat-r.txt -e task-clock,context-switches -- $S bench pipe -l 500
if [ "$arch" = arm64 ]; then
	step stat-hw $S stat -x, -o stat-hw.csv -e cycles,instructions -- $S bench pipe -l 1000
	# one event, then more of it than the PMU has counters: they take turns (multiplex)
	step mux1 $S stat -x, -o mux1.csv -e task-clock,cycles -- $S bench pipe -l 3000
	# three times: under TCG on a loaded host, the counters of some slices have read 2.4x
	# the others' rate (a 6.12 guest, once in many runs); the host says which took
	for a in "" -2 -3; do
		step mux$a $S stat -x, -o mux$a.csv \
			-e task-clock,cycles,cycles,cycles,cycles,cycles,cycles,cycles,cycles,cycles,cycles \
			-- $S bench pipe -l 3000
	done
	step record $S record -e cycles -g -o rec.data -- $S bench pipe -l 2000
	# the Arm event maps against the core tables of this (arm64) build's libpfm4
	step evmap sh -c "$S list --arch neoverse-n1 > evmap.txt && $S list --arch kunpeng920 >> evmap.txt"
else
	step record $S record -e cpu-clock -g -o rec.data -- $S bench pipe -l 2000
fi
# user stacks unwound through the CFI, by this machine's registers (x86-64's or arm64's), in
# the guest, where the binary the stacks are of is
step dwarf sh -c "$S record -e cpu-clock --call-graph dwarf -o dw.data -- $S bench pipe -l 2000 &&
	$S report -i dw.data --children --sort sym > dwarf.txt"
# kernel lines (host: the debug vmlinux against addr2line): callchains on the scheduler's
# paths, task_sched_runtime under clock_gettime, the wakeups of a pipe
step krec-pcg $S record -e cpu-clock -g -o kpcg.data -- $S bench pound-clock-gettime -t 2 -n 300000
step krec-pipe $S record -e cpu-clock -g -o kpipe.data -- $S bench pipe -l 3000
step record-sched $S record --sched -o sched.data -- $S bench pipe -l 2000
# many tasks: every switch of the recording is in the file, to settle counts against perf's
step record-msg $S record --sched -o msg.data -- $S bench messaging -g 2 -f 5 -l 50
step sched-pipe $S sched --json --bench pipe -l 2000 > sched-pipe.json 2> sched-pipe.err
# 20 tasks on one group's sockets: thousands of wakeups (4 senders to 4 receivers gave as few
# as 32, too few for a share of 5% to mean anything)
step sched-msg $S sched --json --bench messaging -g 1 -f 10 -l 1000 > sched-msg.json 2> sched-msg.err
step run-quick $S run --suite quick -n 2 -q -o quick.json
exit 0
