#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The progress line of a perf.data file being read: on a terminal only (script(1) gives the
# command one), wiped at the end; never in output that is not a terminal. The delay before it
# shows (one second) is set to 0 here, so the test does not depend on how fast the machine is.
. "$(dirname "$0")/lib.sh"
need_fixtures
command -v script >/dev/null || skip "script(1) (util-linux) is not installed"
f=$FIXTURES/local/sched-pingpong.data
[ -f "$f" ] || skip "no fixture '$f'"
for c in "report --sort dso" "script" "sched"; do
	SCHEDLENS_PROGRESS_MS=0 script -qec "$SCHEDLENS $c -i $f" /dev/null >"$TMP/tty" 2>&1 ||
		fail "'$c' on a terminal failed: $(tail -3 "$TMP/tty")"
	grep -q "\[ reading '$f': [0-9]*% of [0-9.]* MB \]" "$TMP/tty" ||
		fail "'$c' on a terminal: no progress line"
	grep -q $'\r\033\[K' "$TMP/tty" || fail "'$c': the progress line is not wiped"
	read -ra a <<<"$c"
	SCHEDLENS_PROGRESS_MS=0 "$SCHEDLENS" "${a[@]}" -i "$f" >"$TMP/out" 2>"$TMP/err" ||
		fail "'$c' failed"
	! grep -q 'reading' "$TMP/out" "$TMP/err" || fail "'$c': a progress line in a file"
done
exit 0
