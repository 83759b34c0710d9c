#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report, script and annotate on a live session (--live RECORD OPTIONS -- COMMAND): the same
# output as schedlens record followed by the command on the file, on a workload whose events
# are exactly known (4,000 getppid() calls by two comms); the temporary files removed; usage
# errors; Ctrl-C while recording still analyses what was recorded.
. "$(dirname "$0")/lib.sh"
need_root
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls:sys_enter_getppid tracepoint (CONFIG_FTRACE_SYSCALLS) in tracefs"
gcc -O1 -o "$TMP/twocomm" "$SCHEDLENS_TOP/tests/data/twocomm.c" || fail "cannot build twocomm"
mkdir -p "$TMP/tmpdir"
export TMPDIR=$TMP/tmpdir
ev=(-e syscalls:sys_enter_getppid -c 1)

expect_rc 0 "$SCHEDLENS" record -q "${ev[@]}" -o "$TMP/f.data" -- "$TMP/twocomm" 1000
[ ! -s "$TMP/err" ] || fail "record -q printed: $(cat "$TMP/err")"
for args in "report --sort comm" "report --sort comm,dso,sym -n" "script -F comm,event,sym"; do
	read -ra a <<<"$args"
	expect_rc 0 "$SCHEDLENS" "${a[@]}" -i "$TMP/f.data"
	mv "$TMP/out" "$TMP/file.out"
	expect_rc 0 "$SCHEDLENS" "${a[@]}" --live "${ev[@]}" -- "$TMP/twocomm" 1000
	diff "$TMP/file.out" "$TMP/out" >&2 || fail "'$args --live' differs from record + '$args'"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "'$args --live' left $(ls "$TMPDIR")"
done
grep -q '75.00%  ponger' "$TMP/file.out" 2>/dev/null ||
	"$SCHEDLENS" report --sort comm -i "$TMP/f.data" | grep -q '75.00%  ponger' ||
	fail "the workload's 3:1 split is not in the report"
[ "$(grep -c 'pinger' "$TMP/out")" -eq 1000 ] && [ "$(grep -c 'ponger' "$TMP/out")" -eq 3000 ] ||
	fail "script --live: not 1000 pinger and 3000 ponger lines"

# annotate: a user function sampled live (its stdout, the chase result, comes first)
gcc -g -O1 -fno-omit-frame-pointer -o "$TMP/hotline" "$SCHEDLENS_TOP/tests/data/hotline.c" ||
	fail "cannot build hotline"
expect_rc 0 "$SCHEDLENS" annotate chase --live -e cpu-clock -c 100000 -- "$TMP/hotline" 1
grep -q 'hotline.c:' "$TMP/out" || fail "annotate --live: no source line of chase"

# the workload's status is the command's, after its analysis
expect_rc 1 "$SCHEDLENS" report --sort comm --live "${ev[@]}" -- sh -c 'exit 1'
# usage errors, and a record that fails, leave nothing behind
expect_rc 2 "$SCHEDLENS" report --live
grep -q -- '--live wants what to record' "$TMP/err" || fail "no advice for a bare --live"
expect_rc 2 "$SCHEDLENS" report -i "$TMP/f.data" --live -- true
expect_rc 2 "$SCHEDLENS" script --live --no-such-option -- true
"$SCHEDLENS" report --live -e no-such-event -- true >"$TMP/out" 2>"$TMP/err" &&
	fail "an unknown event was recorded"
grep -q 'no-such-event' "$TMP/err" || fail "the unknown event is not named: $(cat "$TMP/err")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "a failed --live left $(ls "$TMPDIR")"

# Ctrl-C while recording: the workload signals the recorder once its calls are made
SIGNAL_PARENT=1 "$SCHEDLENS" report --sort comm --live "${ev[@]}" -- "$TMP/twocomm" 500 \
	>"$TMP/out" 2>"$TMP/err"
# 500 + 1500 calls, and the kill's own getppid()
grep -q '75.01%  ponger' "$TMP/out" || fail "Ctrl-C while recording: $(cat "$TMP/out" "$TMP/err")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "Ctrl-C left $(ls "$TMPDIR")"
exit 0
