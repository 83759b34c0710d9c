#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The measured-phase protocol speaks perf's --control convention: perf stat -D -1 counts only
# the phases a built-in workload announces. The bounds come from the test's own runs, not
# from this machine's figures: four phases count about twice what two count (each phase is
# the same 1000 round trips), and the phases count no more than perf stat of the whole run.
# The workload's two ends share one CPU (--pin same), where each end is switched out once a
# round trip: on two CPUs a reader may find its reply already written and not block, so the
# count per round trip follows the machine (1.17 on one, 2 on another), not the phases.
source "$(dirname "$0")/lib.sh"
need_perf
mkfifo "$TMP/ctl" "$TMP/ack"
controlled() {	# controlled REPEATS: context switches perf counts in the announced phases
	perf stat -x, -e context-switches --control "fifo:$TMP/ctl,$TMP/ack" -D -1 -- bash -c \
		"exec 20>'$TMP/ctl' 21<'$TMP/ack'; SCHEDLENS_CONTROL=fd:20,21 '$SCHEDLENS' bench pipe -l 1000 --pin same -r $1" \
		>"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "perf stat --control failed"; }
	grep -q "Protocol error" "$TMP/out" "$TMP/err" && fail "the workload rejected perf's ack"
	awk -F, '$3 == "context-switches" { print $1 }' "$TMP/err"
}
c2=$(controlled 2)
c4=$(controlled 4)
perf stat -x, -e context-switches -- "$SCHEDLENS" bench pipe -l 1000 --pin same -r 2 >/dev/null 2>"$TMP/all" ||
	fail "perf stat of the whole run failed"
whole=$(awk -F, '$3 == "context-switches" { print $1 }' "$TMP/all")
echo "context-switches in the measured phases: $c2 for 2 phases, $c4 for 4; $whole in a whole 2-phase run"
[[ $c2 =~ ^[0-9]+$ && $c4 =~ ^[0-9]+$ && $whole =~ ^[0-9]+$ ]] || fail "counts not read: '$c2' '$c4' '$whole'"
# on one CPU a round trip switches each side out at least once (the last one's replier may
# leave its loop without): 2 per round trip or more, less one a phase
[ "$c2" -ge $((2 * (2 * 1000 - 1))) ] || fail "2 phases of 1000 round trips on one CPU counted only $c2 switches"
awk -v a="$c2" -v b="$c4" 'BEGIN { r = b / a; exit !(r >= 1.5 && r <= 2.6) }' ||
	fail "4 phases count $c4, 2 phases $c2: not about twice"
# the whole run holds the phases and the set-up around them (a little slack for the variance)
awk -v c="$c2" -v w="$whole" 'BEGIN { exit !(c <= 1.25 * w) }' ||
	fail "the phases count $c2, more than the whole run's $whole"
echo ok
