#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every series in kernel-patches/ applies cleanly to linux-source-6.1 (scripts/check-patches.sh),
# and the check catches what it exists to catch: a hunk whose context is not in 6.1, a forward
# patch that does not give back 6.1 after the revert, a patch missing from its folder.
source "$(dirname "$0")/lib.sh"

check=$SCHEDLENS_TOP/scripts/check-patches.sh
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || skip "'$tarball' is absent (apt-get install linux-source-6.1)"
export cache=$SCHEDLENS_TOP/build/kernel-src

# The real series.
bash "$check" --cache "$cache" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "check-patches failed"; }
for s in prefetch-curr-exec-start wakelist-idle-cpu wakee-flips-heavy-wakers idle-cpumask; do
	grep -q "^ok   $s/0001-" "$TMP/out" || fail "series '$s' was not checked"
done
[ "$(grep -c '^ok   .*: revert + patches == linux-source-6.1' "$TMP/out")" -eq 2 ] ||
	fail "expected two round trips (prefetch, wakelist)"
grep -q '^FAIL' "$TMP/out" && fail "a FAIL line with exit 0"

# copy SERIES: a scratch copy of one series under $TMP/kp
copy() {
	rm -rf "$TMP/kp"
	mkdir -p "$TMP/kp"
	cp -r "$SCHEDLENS_TOP/kernel-patches/$1" "$TMP/kp/"
}
# expect_caught WHAT PATTERN: the check on $TMP/kp/* exits 1 and prints PATTERN
expect_caught() {
	bash "$check" --cache "$cache" "$TMP"/kp/* >"$TMP/out" 2>&1
	local rc=$?
	[ $rc -eq 1 ] || { cat "$TMP/out"; fail "$1: exit $rc, expected 1"; }
	grep -q -- "$2" "$TMP/out" || { cat "$TMP/out"; fail "$1: no '$2' in the output"; }
}

# A context line that 6.1 does not have.
copy wakee-flips-heavy-wakers
p=$(echo "$TMP"/kp/wakee-flips-heavy-wakers/0001-*.patch)
sed -i 's/^ \t\tcurrent->wakee_flips++;$/ \t\tcurrent->wakee_flips += 2;/' "$p"
grep -q 'wakee_flips += 2' "$p" || fail "the test did not break the patch"
expect_caught "broken context" "FAIL wakee-flips-heavy-wakers/0001-.*on linux-source-6.1"

# The second patch of a series broken, the first still fine: the failure names the second.
copy wakelist-idle-cpu
p=$(echo "$TMP"/kp/wakelist-idle-cpu/0002-*.patch)
sed -i 's/^-\tif ((wake_flags \& WF_ON_CPU) \&\& !cpu_rq(cpu)->nr_running)$/-\tif (!cpu_rq(cpu)->nr_running)/' "$p"
expect_caught "second patch" "FAIL wakelist-idle-cpu/0002-"
grep -q '^ok   wakelist-idle-cpu/0001-' "$TMP/out" || fail "0001 should still pass"

# A forward patch that applies after the revert but changes an added line: no round trip.
copy prefetch-curr-exec-start
p=$(echo "$TMP"/kp/prefetch-curr-exec-start/0001-*.patch)
sed -i 's/^+\tprefetch(&curr->exec_start);$/+\tprefetchw(\&curr->exec_start);/' "$p"
grep -q 'prefetchw' "$p" || fail "the test did not alter the patch"
expect_caught "round trip" "does not give back 6.1's kernel/sched/core.c"

# A patch named in the manifest but missing.
copy idle-cpumask
rm "$TMP"/kp/idle-cpumask/0001-*.patch
expect_caught "missing patch" "named in the manifest but absent"

# A patch file the manifest does not name.
copy wakee-flips-heavy-wakers
cp "$TMP"/kp/wakee-flips-heavy-wakers/0001-*.patch "$TMP/kp/wakee-flips-heavy-wakers/0002-extra.patch"
expect_caught "stray patch" "0002-extra.patch: not named in the manifest"

# A patch that only applies with fuzz is not clean.
copy wakee-flips-heavy-wakers
p=$(echo "$TMP"/kp/wakee-flips-heavy-wakers/0001-*.patch)
sed -i '0,/^ \t}$/s//  \t}/' "$p"
expect_caught "fuzz" "FAIL wakee-flips-heavy-wakers/0001-"

# kernel-ab.sh plans the right pair (dry run: nothing is extracted or built).
ab=$SCHEDLENS_TOP/scripts/kernel-ab.sh
bash "$ab" --dry-run --upto 1 "$SCHEDLENS_TOP/kernel-patches/wakelist-idle-cpu" >"$TMP/out" ||
	fail "kernel-ab --dry-run failed"
grep -q '^before:  linux-source-6.1 + revert-6.1.patch$' "$TMP/out" || fail "wrong before kernel"
grep -q '^after:   linux-source-6.1 + revert-6.1.patch 0001-sched-fix-the-check' "$TMP/out" ||
	fail "wrong after kernel"
grep -q 'bindeb-pkg' "$TMP/out" || fail "no package build in the plan"
bash "$ab" --dry-run "$SCHEDLENS_TOP/kernel-patches/wakee-flips-heavy-wakers" >"$TMP/out" ||
	fail "kernel-ab --dry-run failed"
grep -q '^before:  linux-source-6.1$' "$TMP/out" || fail "forward series: before is not plain 6.1"
expect_rc 2 bash "$ab" --dry-run --upto 3 "$SCHEDLENS_TOP/kernel-patches/wakelist-idle-cpu"

# --lab plans lab kernels (one tree, tinyconfig + lab.config, ccache) and their guests.
bash "$ab" --lab --dry-run --schedlens "$SCHEDLENS" --workdir "$TMP/lab" \
	"$SCHEDLENS_TOP/kernel-patches/wakelist-idle-cpu" >"$TMP/out" || fail "kernel-ab --lab --dry-run failed"
[ -e "$TMP/lab" ] && fail "kernel-ab --lab --dry-run made '$TMP/lab'"
grep -q "make -s -C $TMP/lab/linux-source-6.1 O=$TMP/lab/x86_64 .*tinyconfig schedlens-lab.config" \
	"$TMP/out" || fail "--lab: no tinyconfig + lab.config in the plan"
[ "$(grep -c 'CC=ccache\\ gcc .* bzImage$' "$TMP/out")" -eq 2 ] || fail "--lab: not two ccache builds"
for k in before after; do
	grep -q "vm --kernel $TMP/lab/ab/wakelist-idle-cpu/$k/bzImage --cpus 4 .*--copy .*/kernel-patches/wakelist-idle-cpu/lab-suite.json --exec -- sh kernel-ab-guest.sh lab-suite.json 3$" \
		"$TMP/out" || fail "--lab: no $k guest in the plan"
done
expect_rc 2 bash "$ab" --lab --dry-run --cpus 0 "$SCHEDLENS_TOP/kernel-patches/wakelist-idle-cpu"
# the lab-sized suites are their suites' (same name and groups), smaller
for s in "$SCHEDLENS_TOP"/kernel-patches/*/lab-suite.json; do
	n=$(sed -n 's/^suite *= *//p' "$(dirname "$s")/manifest")
	[ "$(jq -r .suite "$s")" = "$n" ] || fail "'$s' is not suite '$n'"
	[ "$(jq -c '[.entries[].group]' "$s")" = "$(jq -c '[.entries[].group]' \
		"$SCHEDLENS_TOP/data/suites/$n.json")" ] || fail "'$s': not the groups of suite '$n'"
done

# Usage errors.
expect_rc 2 bash "$check" --tarball
expect_rc 77 bash "$check" --tarball "$TMP/none.tar.xz"
echo "all checks passed"
