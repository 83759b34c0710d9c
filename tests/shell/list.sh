#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens list: this machine's events (as perf sees them) and the other machines' maps.
source "$(dirname "$0")/lib.sh"

expect_rc 0 "$SCHEDLENS" list --all
grep -Eq '^  task-clock +\[software\]$' "$TMP/out" || fail "task-clock not listed as supported"
# agree with perf on whether this machine counts cycles
if command -v perf >/dev/null; then
	if perf stat -e cycles true 2>&1 | grep -q 'not supported'; then
		grep -Eq '^  cycles +\[hardware\]  <not supported>' "$TMP/out" || fail "cycles: perf says not supported"
	else
		grep -Eq '^  cycles +\[hardware\]$' "$TMP/out" || fail "cycles: perf counts it"
	fi
fi
for arch in snb clx skx icx zen2; do
	expect_rc 0 "$SCHEDLENS" list --arch $arch
	grep -q MISMATCH "$TMP/out" && fail "$arch: map disagrees with libpfm4"
	[ "$(grep -c 'ok (' "$TMP/out")" -ge 4 ] || fail "$arch: fewer than 4 entries checked"
done
expect_rc 0 "$SCHEDLENS" list --arch snb
grep -Eq '^l1d-misses +L1D:REPLACEMENT +0x151 +ok \(snb\)' "$TMP/out" || fail "snb L1D:REPLACEMENT"
expect_rc 0 "$SCHEDLENS" list --arch neoverse-n1
grep -Eq '^llc-misses +LL_CACHE_MISS_RD +0x37 ' "$TMP/out" || fail "neoverse-n1 LL_CACHE_MISS_RD"
expect_rc 2 "$SCHEDLENS" list --arch nosuch
grep -q "no event map for 'nosuch'" "$TMP/err" || fail "unknown arch message"
echo ok
