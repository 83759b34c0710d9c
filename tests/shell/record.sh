#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record: the default event (L1D misses, or cpu-clock with a note kept in the file), callchains,
# system-wide, the kallsyms copy, the CPU topology, and perf reading what was written with the
# same sample count.
source "$(dirname "$0")/lib.sh"
need_perf
need_root

busy() { echo "for i in \$(seq 200000); do :; done"; }

expect_rc 0 "$SCHEDLENS" record -o "$TMP/a.data" -- sh -c "$(busy)"
cat "$TMP/err"
n=$(sed -nE 's/.* ([0-9]+) samples written.*/\1/p' "$TMP/err")
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "no sample count in: $(cat "$TMP/err")"
grep -q 'lost' "$TMP/err" || fail "lost samples not reported"
[ -s "$TMP/a.data.kallsyms" ] || fail "no kallsyms copy beside the file"
if grep -q 'cpu-clock instead' "$TMP/err"; then
	perf report -i "$TMP/a.data" --header-only 2>/dev/null | grep -q 'schedlens-note: ' ||
		fail "the cpu-clock fallback is not noted in the file"
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/a.data" --sort sym
	grep -q '^# note: .*sampled cpu-clock instead$' "$TMP/out" || fail "report does not show the note"
fi
perf_n=$(perf script -i "$TMP/a.data" -F ip 2>/dev/null | wc -l)
echo "samples: schedlens $n, perf script $perf_n"
[ "$perf_n" -eq "$n" ] || fail "perf reads $perf_n samples, schedlens wrote $n"

# frame-pointer callchains, kernel and user, on a named event
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 100000 -g -o "$TMP/g.data" -- sh -c "$(busy)"
perf report -i "$TMP/g.data" --stdio -g caller --no-children 2>/dev/null | grep -q -- '---' ||
	fail "perf sees no callchains"
perf evlist -i "$TMP/g.data" -v 2>/dev/null | grep -q 'CALLCHAIN' || fail "no CALLCHAIN in attr"

# DWARF user stacks
expect_rc 0 "$SCHEDLENS" record -e cpu-clock --call-graph dwarf,4096 -o "$TMP/d.data" -- true
perf evlist -i "$TMP/d.data" -v 2>/dev/null | grep -q 'STACK_USER' || fail "no user stacks"

# system-wide on one CPU while a command runs
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -C 0 -o "$TMP/c.data" -- sleep 0.2
perf report -i "$TMP/c.data" --stats 2>/dev/null | grep -q 'SAMPLE' || fail "no samples with -C 0"

# the file's CPU topology is what perf record writes on this machine, as perf reads it
perf record -q -e cpu-clock -o "$TMP/perf.data" -- true 2>/dev/null ||
	fail "perf record failed"
topo() { perf report --header-only -I -i "$1" 2>/dev/null | grep -E '^# (sibling|CPU [0-9]+:)'; }
topo "$TMP/perf.data" >"$TMP/topo.perf"
[ -s "$TMP/topo.perf" ] || fail "perf wrote no CPU topology"
topo "$TMP/c.data" | diff -u "$TMP/topo.perf" - || fail "CPU_TOPOLOGY differs from perf record's"

# tracepoints as perf records them: every event (-c 1), with its payload (RAW) and the tracing
# data that formats it, so perf script prints the fields; several events (-e A,B -e C); and
# --sched, the set sched -i reads (perf sched record), read back by sched -i. Every switch is
# one sched_switch sample: as many as the context-switches software event counts over the same
# recording (sampled at every event beside it; the two events start and stop one after the
# other, so a switch at either edge may fall to one alone: 10003 against 10004 once, under
# ASan), and two per round trip: the workload's ends
# share one CPU (--pin same), where each is switched out once a round trip (the last one's
# replier may leave its loop without); on two CPUs a reader may find its reply already
# written and not block, and how often it does follows the machine
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	expect_rc 0 "$SCHEDLENS" record -e sched:sched_switch -o "$TMP/tp.data" -- \
		"$SCHEDLENS" bench pipe -l 5000 --pin same
	nr=$(perf script -i "$TMP/tp.data" 2>/dev/null | grep -c 'sched:sched_switch: prev_comm=.* ==> next_comm=')
	[ "$nr" -ge $((2 * 5000 - 1)) ] || fail "only $nr sched_switch samples with fields for 5000 round trips on one CPU"
	expect_rc 0 "$SCHEDLENS" record -e sched:sched_switch -e context-switches -c 1 \
		-o "$TMP/cs.data" -- "$SCHEDLENS" bench pipe -l 5000 --pin same
	perf report --stats -i "$TMP/cs.data" 2>/dev/null | awk '/ stats:$/ { ev = $1 } /SAMPLE events:/ && ev { n[ev] = $3 }
		END { a = n["sched:sched_switch"]; b = n["context-switches"]
		      print "sched_switch " a ", context-switches " b > "/dev/stderr"
		      exit !(a > 0 && a - b <= 2 && b - a <= 2) }' ||
		fail "sched_switch samples are not every context switch"
	perf evlist -v -i "$TMP/tp.data" 2>/dev/null | grep '^sched:sched_switch:' |
		grep -E '\{ sample_period, sample_freq \}: 1,' | grep -v 'freq: 1' | grep -q 'RAW' ||
		fail "tracepoint not sampled at every event with RAW: $(perf evlist -v -i "$TMP/tp.data" 2>&1 | head -2)"
	"$SCHEDLENS" script -i "$TMP/tp.data" | diff -q - <(perf script -i "$TMP/tp.data" 2>/dev/null) >/dev/null ||
		fail "schedlens script and perf script differ on a tracepoint recording of this boot"
	expect_rc 0 "$SCHEDLENS" record -e sched:sched_switch,sched:sched_waking -e cpu-clock \
		-o "$TMP/tp2.data" -- "$SCHEDLENS" bench pipe -l 500
	for ev in sched:sched_switch sched:sched_waking cpu-clock; do
		perf report --stats -i "$TMP/tp2.data" 2>/dev/null | grep -A1 "^$ev stats:" | grep -q 'SAMPLE events' ||
			fail "-e A,B -e C: no samples of $ev"
	done
	expect_rc 0 "$SCHEDLENS" record --sched -o "$TMP/sched.data" -- "$SCHEDLENS" bench pipe -l 500
	expect_rc 0 "$SCHEDLENS" sched -i "$TMP/sched.data"
	grep -q '^Wakeup paths' "$TMP/out" || fail "sched -i cannot read a record --sched file"
	echo "tracepoints: $nr sched_switch samples for 5000 round trips, fields in perf script"
else
	echo "note: no tracefs here: tracepoint recording not checked"
fi

# Ctrl-C (SIGINT to record alone) ends even a workload that ignores SIGINT, as perf record
# does (SIGTERM after it), and the file is complete: sent once the workload says it runs
mkfifo "$TMP/ready"
"$SCHEDLENS" record -e cpu-clock -o "$TMP/int.data" -- \
	sh -c "trap '' INT; echo running >'$TMP/ready'; exec sleep 600" >/dev/null 2>"$TMP/int.err" &
pid=$!
read -r _ <"$TMP/ready"
kill -INT $pid
timeout 30 tail --pid=$pid -f /dev/null || { kill -KILL $pid; fail "record still runs 30 s after SIGINT"; }
wait $pid
perf report --stats -i "$TMP/int.data" 2>/dev/null | grep -q 'TOTAL events' ||
	fail "the interrupted recording does not read back: $(cat "$TMP/int.err")"
echo "Ctrl-C: record ended a workload that ignores SIGINT, and its file reads back"

# bad input
expect_rc 2 "$SCHEDLENS" record -c 0 -- true
expect_rc 2 "$SCHEDLENS" record -c 10 -F 10 -- true
expect_rc 2 "$SCHEDLENS" record --call-graph lbr -- true
expect_rc 2 "$SCHEDLENS" record -o "$TMP/x.data"
expect_rc 2 "$SCHEDLENS" record -e no-such-event -o "$TMP/x.data" -- true
grep -q 'no-such-event' "$TMP/err" || fail "unknown event not named"
# groups are recorded as groups (record-group.sh); their modifiers but :S refused with the reason
expect_rc 2 "$SCHEDLENS" record -e '{cpu-clock,task-clock}:u' -o "$TMP/x.data" -- true
grep -q "group modifiers other than ':S' ('}:u') are not taken" "$TMP/err" || fail "group modifiers: no reason"
# above kernel.perf_event_max_sample_rate (which the kernel lowers by itself under load, as in
# a QEMU guest): sampled at the limit with a warning, as perf record does, not refused
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null)
if [ -n "$max" ]; then
	expect_rc 0 "$SCHEDLENS" record -e cpu-clock -F $((max * 2)) -o "$TMP/f.data" -- true
	grep -q "above the kernel's maximum sampling rate" "$TMP/err" || fail "no word of the throttled rate: $(cat "$TMP/err")"
fi
# --bench: the workload's child existed before the recording; it is named (synthesized), so
# its tasks carry its comm, in perf report too
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	expect_rc 0 "$SCHEDLENS" record -q -e sched:sched_switch -o "$TMP/b.data" --bench pipe -l 500
	"$SCHEDLENS" report --sort comm -i "$TMP/b.data" | grep -q '100.00%  schedlens' ||
		fail "record --bench: the workload's tasks are not named schedlens"
	perf report --stdio --sort comm -i "$TMP/b.data" 2>/dev/null | grep -q '100.00%  schedlens' ||
		fail "record --bench: perf does not name the workload's tasks schedlens"
	# rounds, as perf record writes them: readers hold a round at a time, not the file
	perf report --stats -i "$TMP/b.data" 2>/dev/null | grep -q 'FINISHED_ROUND events' ||
		fail "record wrote no FINISHED_ROUND"
fi
expect_rc 1 "$SCHEDLENS" record -e cpu-clock -o /nonexistent/dir/x.data -- true
grep -q '/nonexistent/dir/x.data' "$TMP/err" || fail "unwritable output not named"
exit 0
