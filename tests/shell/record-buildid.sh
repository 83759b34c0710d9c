#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record keeps each mapped file's build-id (MMAP2 with build-ids, as perf record
# --buildid-mmap, and the BUILD_ID feature with the kernel's): perf reads them, and a report after the binary was rebuilt says so for
# that file and leaves its samples as addresses instead of naming the wrong functions.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"
src=$SCHEDLENS_TOP/tests/data/deepstack.c
gcc -g -O2 -o "$TMP/prog" "$src" || fail "cannot build"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 1000000 -o "$TMP/b.data" -- "$TMP/prog" 0.3
id=$(perf script -D -i "$TMP/b.data" 2>/dev/null | sed -nE "s|.*<([0-9a-f]{40})>\]: r-xp $TMP/prog$|\1|p" | head -1)
if [ -z "$id" ]; then
	kv=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
	[ "$kv" -lt 5012 ] && skip "kernel $(uname -r) writes no build-ids in MMAP2 (5.12+)"
	fail "no build-id recorded for '$TMP/prog' on kernel $(uname -r)"
fi
want=$(readelf -n "$TMP/prog" | awk '/Build ID/ { print $3 }')
[ "$id" = "$want" ] || fail "recorded build-id $id, the file has $want"

# the BUILD_ID feature, as perf record writes it: perf buildid-list reads the table
perf buildid-list -i "$TMP/b.data" >"$TMP/bids" 2>"$TMP/bids.err" ||
	fail "perf buildid-list failed: $(head -1 "$TMP/bids.err")"
grep -qx "$want $TMP/prog" "$TMP/bids" || fail "BUILD_ID feature: no '$want $TMP/prog' in: $(cat "$TMP/bids")"
kid=$(perf buildid-list -k 2>/dev/null)
if [ -n "$kid" ]; then
	grep -qx "$kid \[kernel.kallsyms\]" "$TMP/bids" || fail "BUILD_ID feature: no kernel $kid"
fi
expect_rc 0 "$SCHEDLENS" report -i "$TMP/b.data" --sort dso,sym
grep -q "prog.*build-id" "$TMP/out" "$TMP/err" && fail "a build-id note for an unchanged binary"
awk '$2 == "prog" && $4 == "inner" { f = 1 } END { exit !f }' "$TMP/out" || fail "'inner' not named"

gcc -g -O0 -o "$TMP/prog" "$src" || fail "cannot rebuild"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/b.data" --sort dso,sym
grep -q "$TMP/prog: build-id differs" "$TMP/out" "$TMP/err" || fail "the rebuilt binary is not reported"
awk '$2 == "prog" && $4 == "inner" { f = 1 } END { exit !f }' "$TMP/out" &&
	fail "the rebuilt binary's symbols were used"
echo "build-id $id recorded; a rebuilt binary is reported and not symbolized"
