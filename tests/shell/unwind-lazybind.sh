#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --call-graph dwarf through ld.so's lazy binding: a program whose libc calls go through the
# PLT, run with LD_BIND_NOT=1 so that every call passes _dl_runtime_resolve_* and _dl_fixup.
# The trampoline's CFA is reckoned from %rbx (it realigns the stack), and elfutils' x86-64 ABI
# defaults leave %rbx undefined in a caller where a frame's CFI says nothing of it (_dl_fixup
# before it saves %rbx): libdw alone (perf 6.12) stops at the trampoline, perf 6.1 (libunwind)
# goes on to main. Each sample's frames in schedlens script begin with all of perf 6.1's
# (schedlens may go further: where _dl_fixup has popped %rbx perf 6.1 stops, and the value
# is the register's), compared by address (perf 6.1 names a PLT entry _init, schedlens as
# perf 6.12 does, strtol@plt).
source "$(dirname "$0")/lib.sh"
need_perf
need_root
[ "$(uname -m)" = x86_64 ] || skip "x86-64's lazy-binding trampoline (this is $(uname -m))"
command -v gcc >/dev/null || skip "gcc is not installed"
export SCHEDLENS_CACHE_DIR=$TMP/cache
gcc -g -O2 -o "$TMP/lazybind" "$SCHEDLENS_TOP/tests/data/lazybind.c" || fail "cannot build lazybind"
LD_BIND_NOT=1 perf record -q --call-graph dwarf -e cpu-clock -c 100000 -o "$TMP/lb.data" \
	-- "$TMP/lazybind" 300 >/dev/null 2>&1 || fail "perf record --call-graph dwarf failed"

# one line a sample: its time, then its frames' addresses (kernel ones left out), and a mark
# R where a frame is the trampoline's and M where one is main
frames() { awk '/^ *[0-9]+\.[0-9]+: *$/ { if (t) print t, r m, a; t = $1; a = ""; r = m = "-"; next }
	/^\t/ && $1 !~ /^ffffffff/ { a = a " " $1; if ($2 ~ /^_dl_runtime_resolve/) r = "R"; if ($2 == "main") m = "M" }
	END { if (t) print t, r m, a }'; }
perf script -i "$TMP/lb.data" -F time,ip,sym 2>/dev/null | frames >"$TMP/perf"
"$SCHEDLENS" script -i "$TMP/lb.data" -F time,ip,sym 2>"$TMP/err" | frames >"$TMP/ours" ||
	{ cat "$TMP/err"; fail "script failed"; }
tramp=$(awk '$2 ~ /^R/' "$TMP/perf" | wc -l)
[ "$tramp" -ge 100 ] || skip "only $tramp samples in the trampoline's frames (perf could not unwind or too few)"
[ "$(wc -l <"$TMP/ours")" = "$(wc -l <"$TMP/perf")" ] ||
	fail "$(wc -l <"$TMP/ours") samples in schedlens script, $(wc -l <"$TMP/perf") in perf script"
# perf's frames a prefix of ours, sample by sample
bad=$(paste -d'|' "$TMP/perf" "$TMP/ours" | awk -F'|' '{ p = $1; o = $2; sub(/^[^ ]+ [^ ]+/, "", p)
	sub(/^[^ ]+ [^ ]+/, "", o); if (substr(o, 1, length(p)) != p || (length(o) > length(p) &&
	substr(o, length(p) + 1, 1) != " ")) { print NR; exit } }')
[ -z "$bad" ] || fail "sample $bad: perf 6.1 unwinds '$(sed -n "${bad}p" "$TMP/perf")', schedlens '$(sed -n "${bad}p" "$TMP/ours")'"
ours=$(awk '$2 == "RM"' "$TMP/ours" | wc -l)
theirs=$(awk '$2 == "RM"' "$TMP/perf" | wc -l)
further=$(paste -d'|' "$TMP/perf" "$TMP/ours" | awk -F'|' 'length($2) > length($1)' | wc -l)
echo "lazy binding: $tramp samples through the trampoline, $ours reach main ($theirs with perf 6.1); $further unwound further than perf 6.1"
