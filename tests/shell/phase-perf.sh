#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The measured-phase protocol speaks perf's --control convention: perf stat -D -1 counts only
# the phases a built-in workload announces (two runs of 1000 round trips: ~4000 switches).
source "$(dirname "$0")/lib.sh"
need_perf
mkfifo "$TMP/ctl" "$TMP/ack"
perf stat -x, -e context-switches --control "fifo:$TMP/ctl,$TMP/ack" -D -1 -- bash -c \
	"exec 20>'$TMP/ctl' 21<'$TMP/ack'; SCHEDLENS_CONTROL=fd:20,21 '$SCHEDLENS' bench pipe -l 1000 -r 2" \
	>"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "perf stat --control failed"; }
cs=$(awk -F, '$3 == "context-switches" { print $1 }' "$TMP/err")
echo "context-switches under perf's control of two measured phases: $cs"
[ -n "$cs" ] && [ "$cs" -ge 3600 ] && [ "$cs" -le 4600 ] || fail "expected about 4000, got '$cs'"
grep -q "Protocol error" "$TMP/out" "$TMP/err" && fail "the workload rejected perf's ack"
echo ok
