#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One kernel of `scripts/kernel-ab.sh --lab` inside its guest (busybox sh, through
# `schedlens vm --exec`): the topology the kernel sees, the runs of `schedlens sched` whose
# wakeup paths show the mechanism, and the series' suite. Everything is left in /work, which
# comes back to the host; each step's name, exit status and seconds go to status.txt.
# Usage: sh kernel-ab-guest.sh SUITE SCHED-RUNS [ITERATIONS]
suite=$1 runs=$2 iterations=${3:-}

uname -rv > uname.txt
# the LLC as cacheinfo has it, and the kernel's scheduling domains (MC: the CPUs of one LLC)
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	l=$(cat "$c/cache/index3/shared_cpu_list" 2>/dev/null || echo none)
	d=$(cat /sys/kernel/debug/sched/domains/"${c##*/}"/domain*/name 2>/dev/null | tr '\n' ' ')
	echo "${c##*/} llc $l domains ${d:-none}"
done > topology.txt
echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
	>> topology.txt

# the steps, "NAME COMMAND": pipe ping-pong, whose wakee's CPU goes idle when it blocks, so
# that the next wakeup targets an idle CPU; then the suite
{
	i=1
	while [ "$i" -le "$runs" ]; do
		echo "sched-$i schedlens sched --json --name sched-pipe --bench pipe -l 3000 > sched-$i.json 2> sched-$i.err"
		i=$((i + 1))
	done
	echo "run schedlens run --suite $suite ${iterations:+-n $iterations} -q -o run.json"
} > steps.txt
while read -r name cmd; do
	t0=$(date +%s)
	sh -c "$cmd" < /dev/null
	echo "$name $? $(( $(date +%s) - t0 ))" >> status.txt
done < steps.txt
exit 0
