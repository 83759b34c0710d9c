# SPDX-License-Identifier: GPL-2.0
# Sourced by every shell test. Provides: $SCHEDLENS, $FIXTURES, $TMP (removed on exit),
# skip REASON (exit 77), fail MESSAGE, and small assertion helpers.
set -u
: "${SCHEDLENS_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${SCHEDLENS:=$SCHEDLENS_TOP/build/schedlens}"
: "${FIXTURES:=$SCHEDLENS_TOP/../shared/fixtures}"
TMP=$(mktemp -d)
# removed by the test's shell alone: a subshell killed right after its fork (a watchdog
# `( sleep 60; kill ... ) &` killed as soon as it is not needed) can run the EXIT trap it
# inherited before bash resets it, and took $TMP away under stat-interval.sh now and then.
# The process is told by /proc/self/stat, not $BASHPID: in such a subshell bash 5.2 gave
# the parent's $BASHPID to the trap's test and the child's to the next command (seen: "RM
# by 20844 bashpid 20844 owner 20561" from inside the `||` branch, 2 runs of 5).
read -r TMP_OWNER _ </proc/self/stat
trap 'read -r _tmp_pid _ </proc/self/stat; [ "$_tmp_pid" != "$TMP_OWNER" ] || rm -rf "$TMP"' EXIT

# perf prints numbers in the locale's format (0,55 msec under de_DE, which breaks its own -x,
# CSV); schedlens always prints the C locale's, and tests read perf in it too
perf() { LC_ALL=C command perf "$@"; }
# and awk reads numbers in the locale's format too ("0.36" is 0 under de_DE): in C, as printed
awk() { LC_ALL=C command awk "$@"; }
skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
need_perf() { command -v perf >/dev/null 2>&1 || skip "perf is not installed"; }
need_fixtures() { [ -d "$FIXTURES" ] || skip "fixtures not found at '$FIXTURES'"; }
need_tracefs() {
	[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] ||
		skip "tracefs is not mounted at /sys/kernel/tracing (mount -t tracefs nodev /sys/kernel/tracing)"
}
# expect_rc WANT CMD...: run CMD, fail unless it exits WANT; output in $TMP/out, $TMP/err
expect_rc() {
	local want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ "$rc" -eq "$want" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "'$*' exited $rc, expected $want"; }
}
# within_pct A B PCT: |A-B| <= PCT% of B
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * (b < 0 ? -b : b)) }'
}
