#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens validate on results documents made from the seeds' own tables gives the verdict
# each thread argues for; its per-entry significance matches the MMTests markers; bad input
# is refused with exit 2.
source "$(dirname "$0")/lib.sh"

D=$SCHEDLENS_TOP/tests/data/validate
K=$SCHEDLENS_TOP/kernel-patches

# The committed documents are what the typed tables give.
for t in "$D"/*.tsv; do
	bash "$D/make-docs.sh" "$t" "$TMP" || fail "make-docs.sh '$t' failed"
	n=$(basename "$t" .tsv)
	for side in base new; do
		cmp -s "$TMP/$n-$side.json" "$D/$n-$side.json" ||
			fail "'$n-$side.json' differs from what '$n.tsv' gives"
	done
done

# v SERIES CASE: validate the case's two documents, output in $TMP/out
v() { "$SCHEDLENS" validate "${@:3}" "$K/$1" "$D/$2-base.json" "$D/$2-new.json"; }
# row ENTRY: the row of entry ENTRY (exact id) in $TMP/out
row() { grep -E "^    $1 +[-0-9.e+]+ -> " "$TMP/out"; }

# prefetch: cycles and L1 miss ratio improve significantly from 21 threads up (perf stat -r 10).
expect_rc 0 v prefetch-curr-exec-start prefetch
grep -q '^verdict: validated' "$TMP/out" || fail "prefetch: not validated"
grep -q '^improve pound-\* cycles (expected ~12%): improved' "$TMP/out" || fail "prefetch: cycles"
for t in 21 30 48 79 110 128; do
	row "pound-perf-stat threads=$t" | grep -q 'p=.* improved$' || fail "prefetch: cycles at $t threads"
done
row "pound-perf-stat threads=12" | grep -q 'neutral$' || fail "prefetch: 1.74% at 12 threads counts"
grep -q '^improve pound-\* sys .*: absent' "$TMP/out" || fail "prefetch: sys should be absent"

# The same documents the other way round: the revert is a regression.
"$SCHEDLENS" validate "$K/prefetch-curr-exec-start" "$D/prefetch-new.json" "$D/prefetch-base.json" \
	>"$TMP/out" 2>&1
[ $? -eq 1 ] || fail "prefetch reversed: exit is not 1"
grep -q '^verdict: regression' "$TMP/out" || fail "prefetch reversed: no regression"

# wakelist, x86 and arm64: single runs, every expected metric better by its own effect; no
# test can judge a single value a side, so the verdict is inconclusive (exit 3), naming what
# the effects alone say.
for arch in x86 arm64; do
	expect_rc 3 v wakelist-idle-cpu "wakelist-$arch"
	grep -q '^verdict: inconclusive: 5 of 5 entries have a single value a side, which no test can judge (2 runs a side would); by their effects alone: validated$' "$TMP/out" ||
		fail "wakelist $arch: not inconclusive-but-validated-by-effect"
	[ "$(grep -c '^improve .*: improved, 1 of 1 entries improved, 0 regressed.*untested$' \
		"$TMP/out")" -eq 4 ] || fail "wakelist $arch: four expected metrics should improve"
	grep -q 'over 0 tested entries' "$TMP/out" || fail "wakelist $arch: tested a single run"
done
v wakelist-idle-cpu wakelist-x86 | grep -q '^    hackbench  *3.2460 -> 2.2510 .* +30.65%' ||
	fail "wakelist x86: hackbench 3.246 -> 2.251 is 30.65% better"

# wakee flips: hackbench gains from 48 groups up, but tbench loses 11.74% at 64 clients.
expect_rc 1 v wakee-flips-heavy-wakers wakee-flips
grep -q '^verdict: regression' "$TMP/out" || fail "wakee flips: no regression"
row "tbench clients=64" | grep -q -- '-11.74% .* regressed$' || fail "wakee flips: tbench 64 clients"
grep -q '^improve hackbench-process-\* time (expected ~10%): improved, 9 of 15' "$TMP/out" ||
	fail "wakee flips: hackbench should improve at 9 group counts"
# With no minimum effect, significance alone decides: it must match MMTests' markers.
expect_rc 1 v wakee-flips-heavy-wakers wakee-flips --min-effect 0
for g in 1 4 7 12 21 30; do
	row "hackbench-process-pipes groups=$g" | grep -q 'neutral$' ||
		fail "wakee flips: $g groups is not marked significant in the thread"
done
for g in 48 79 110 141 172 203 234 265 296; do
	row "hackbench-process-pipes groups=$g" | grep -q 'improved$' ||
		fail "wakee flips: $g groups is marked significant in the thread"
done
# Every tbench row is marked significant; losses count only beyond the guard's 3% tolerance.
grep -q 'Holm-adjusted p over 26 tested entries' "$TMP/out" || fail "wakee flips: 26 tests expected"
for c in 1 2 4 8 16 32 64 128 256 512 1024; do
	p=$(row "tbench clients=$c" | sed -n 's/.* p=\([^ ]*\) .*/\1/p')
	awk -v p="$p" 'BEGIN { exit !(p != "" && p < 0.05) }' ||
		fail "wakee flips: tbench $c clients is marked significant in the thread (p=$p)"
done
for c in 2 4 8 16 32 128 256 512; do
	row "tbench clients=$c" | grep -q 'improved$' || fail "wakee flips: tbench $c clients"
done
for c in 1 1024; do
	row "tbench clients=$c" | grep -q 'neutral$' || fail "wakee flips: tbench $c clients loses less than its 3% tolerance"
done
# A far stricter level leaves nothing significant: no effect, exit 0.
expect_rc 0 v wakee-flips-heavy-wakers wakee-flips --alpha 1e-30
grep -q '^verdict: no effect' "$TMP/out" || fail "wakee flips at alpha 1e-30"

# idle cpumask on Kunpeng 920: within 1% at every group count, no gain (10-run averages, a
# single value each: inconclusive, no effect by the effects alone).
expect_rc 3 v idle-cpumask idle-cpumask
grep -q '^verdict: inconclusive: .*by their effects alone: no effect$' "$TMP/out" || fail "idle cpumask: expected no effect by effect"
grep -q '0 of 10 entries improved, 0 regressed, median gain +0.30%' "$TMP/out" ||
	fail "idle cpumask: median gain"

# Real documents from `schedlens run` (the wakelist suite's groups, scaled to seconds): their
# entry ids and metric names are the manifest's. Two runs of the same kernel, 3 iterations each,
# on a noisy machine: Welch's t can reach significance at n=3 (a rank test cannot go below
# p=0.1 there, so it said "no effect" whatever the data), so the verdict is whatever the data
# says (no effect, or a regression at the family-wise 5% of an A/A pair); the document against
# itself has no effect.
for i in 1 2; do
	"$SCHEDLENS" run -q --suite "$D/tiny-wakelist-suite.json" -o "$TMP/run$i.json" ||
		fail "schedlens run failed"
done
"$SCHEDLENS" validate "$K/wakelist-idle-cpu" "$TMP/run1.json" "$TMP/run2.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -le 1 ] || { cat "$TMP/out" "$TMP/err"; fail "run: A/A exited $rc"; }
grep -q 'Holm-adjusted p over 6 tested entries' "$TMP/out" || fail "run: six metrics expected"
grep -qE '^verdict: (no effect|regression|validated)' "$TMP/out" || fail "run: no verdict"
grep -q "comes from suite 'tiny-wakelist', not 'wakelist'" "$TMP/err" || fail "run: no suite warning"
# documents of a suite that does not measure what the manifest needs: exit 2, naming it
expect_rc 2 "$SCHEDLENS" validate "$K/prefetch-curr-exec-start" "$TMP/run1.json" "$TMP/run2.json"
grep -q "the manifest's 'pound-\*' cycles is absent from $TMP/run1.json and $TMP/run2.json (suite 'prefetch' measures it: run --suite prefetch)" "$TMP/err" ||
	fail "absent metrics not named: $(cat "$TMP/err")"
expect_rc 0 "$SCHEDLENS" validate "$K/wakelist-idle-cpu" "$TMP/run1.json" "$TMP/run1.json"
[ "$(grep -c '+0.00%  p=1 ' "$TMP/out")" -eq 6 ] || fail "run: a document against itself"

# A document `run` made of another suite, which lacks what the manifest needs: exit 2; two
# documents of different suites: exit 2.
sed 's/^  "kind": "seed-table",$/&\n  "run": {"suite": "wakelist"},/' "$D/idle-cpumask-base.json" >"$TMP/other-suite.json"
expect_rc 2 "$SCHEDLENS" validate "$K/idle-cpumask" "$TMP/other-suite.json" "$D/idle-cpumask-new.json"
grep -q "the manifest's 'schbench\*' wakeup_p99 is absent from $TMP/other-suite.json and " \
	"$TMP/err" || fail "no error for a document of another suite: $(cat "$TMP/err")"
sed 's/^  "kind": "seed-table",$/&\n  "run": {"suite": "idle-cpumask"},/' "$D/idle-cpumask-new.json" >"$TMP/new-suite.json"
expect_rc 2 "$SCHEDLENS" validate "$K/idle-cpumask" "$TMP/other-suite.json" "$TMP/new-suite.json"
grep -q "not results of the same suite" "$TMP/err" || fail "different suites: $(cat "$TMP/err")"

# The lab's wakelist A/B (scripts/kernel-ab.sh --lab): documents from the lab's 6.1 kernels
# without and with the series, under QEMU TCG, 4 CPUs of one LLC; the lab-sized suite's and
# three `sched --bench pipe` runs a kernel. The share of the wakeups to an idle CPU of the LLC
# that went by the wakelist is the mechanism; the timings of an emulated CPU mean nothing.
L=$D/lab-wakelist
# lab RUN-BASE RUN-NEW SCHED-BASE.json SCHED-NEW.json: validate those lab documents
lab() { "$SCHEDLENS" validate "$K/wakelist-idle-cpu" "$L-$1-run.json" "$L-$2-run.json" "$3" "$4"; }
# s KERNEL: the lab's sched document of that kernel
s() { echo "$L-$1-sched.json"; }
expect_rc 0 lab before after "$(s before)" "$(s after)"
grep -q '^mechanism seen: ' "$TMP/out" || fail "lab: mechanism not seen"
grep -Eq '^    sched-pipe: 0\.[0-9]+% \(.*, 3 runs, [0-9]+ wakeups\) -> (99\.[0-9]+|100\.00)% \(.*, 3 runs, [0-9]+ wakeups\): \+9[0-9]\.[0-9]+pt, run-to-run spread 0\.[0-9]+pt: seen$' \
	"$TMP/out" || fail "lab: the figures of the mechanism: $(grep sched-pipe "$TMP/out")"
grep -q "^  (not meaningful: '$L-before-run.json' ran on an emulated CPU, a QEMU TCG guest" \
	"$TMP/out" || fail "lab: the performance verdict is not marked as not meaningful"
grep -q '^lab: the lab shows the mechanism' "$TMP/out" || fail "lab: no lab line"
# The same kernel on both sides: within the run-to-run spread, not seen (exit 1).
expect_rc 1 lab before after "$(s before)" "$(s before)"
grep -q '^mechanism not seen: ' "$TMP/out" || fail "lab, same kernel: seen"
grep -q ': +0.00pt, run-to-run spread .*: not seen$' "$TMP/out" || fail "lab, same kernel: figures"
# The kernels the other way round: the share falls where a rise is expected.
expect_rc 1 lab after before "$(s after)" "$(s before)"
grep -q ': -9[0-9]\.[0-9]*pt, .*: not seen$' "$TMP/out" || fail "lab, reversed: figures"
# One run a side gives no spread: unjudged, which on an emulated CPU exits 3.
for k in before after; do
	jq '.entries[0].iterations |= .[:1]' "$(s $k)" >"$TMP/one-$k.json"
done
expect_rc 3 lab before after "$TMP/one-before.json" "$TMP/one-after.json"
grep -q '^mechanism unjudged: ' "$TMP/out" || fail "lab, one run a side: not unjudged"
# The same documents as if measured on real hardware: the performance verdict decides (no
# effect), nothing is marked not meaningful; a mechanism not seen still fails.
for k in before after; do
	jq '.machine.kernel_cmdline = "ro" | .machine.cpu_model = "Xeon"' "$L-$k-run.json" \
		>"$TMP/hw-$k.json"
done
expect_rc 0 "$SCHEDLENS" validate "$K/wakelist-idle-cpu" "$TMP/hw-before.json" \
	"$TMP/hw-after.json" "$(s before)" "$(s after)"
grep -q '^verdict: no effect' "$TMP/out" || fail "lab as hardware: not 'no effect'"
grep -q 'not meaningful' "$TMP/out" && fail "lab as hardware: marked not meaningful"
expect_rc 1 "$SCHEDLENS" validate "$K/wakelist-idle-cpu" "$TMP/hw-before.json" \
	"$TMP/hw-after.json" "$(s before)" "$(s before)"
# The seeds' tables hold no wakeup paths: the mechanism is absent, the exit the verdict's.
expect_rc 3 v wakelist-idle-cpu wakelist-x86
grep -q "^mechanism absent: no sched document with wakeup paths" "$TMP/out" ||
	fail "seed tables: the mechanism should be absent"

# Unusable input: nothing of the manifest in the documents, bad files, bad options.
expect_rc 2 "$SCHEDLENS" validate "$K/idle-cpumask" "$D/prefetch-base.json" "$D/prefetch-new.json"
grep -q '^verdict: unusable' "$TMP/out" || fail "no common metric should be unusable"
expect_rc 2 "$SCHEDLENS" validate "$K/idle-cpumask" "$TMP/none.json" "$D/idle-cpumask-new.json"
grep -q "cannot read '$TMP/none.json'" "$TMP/err" || fail "missing file message"
echo '{"schema": "schedlens-results", "schema_version": 1, "entries": [' >"$TMP/cut.json"
expect_rc 2 "$SCHEDLENS" validate "$K/idle-cpumask" "$D/idle-cpumask-base.json" "$TMP/cut.json"
grep -q "is not valid JSON" "$TMP/err" || fail "truncated JSON message"
expect_rc 2 "$SCHEDLENS" validate "$TMP" "$D/idle-cpumask-base.json" "$D/idle-cpumask-new.json"
grep -q "cannot open '$TMP/manifest'" "$TMP/err" || fail "missing manifest message"
printf 'name = x\nbogus = 1\n' >"$TMP/manifest"
expect_rc 2 "$SCHEDLENS" validate "$TMP/manifest" "$D/idle-cpumask-base.json" \
	"$D/idle-cpumask-new.json"
grep -q "line 2: unknown key 'bogus'" "$TMP/err" || fail "bad manifest message"
expect_rc 2 "$SCHEDLENS" validate "$K/idle-cpumask" "$D/idle-cpumask-base.json"
expect_rc 2 "$SCHEDLENS" validate --alpha 2 "$K/idle-cpumask" "$D/idle-cpumask-base.json" \
	"$D/idle-cpumask-new.json"
expect_rc 2 "$SCHEDLENS" validate --min-effect x "$K/idle-cpumask" "$D/idle-cpumask-base.json" \
	"$D/idle-cpumask-new.json"
expect_rc 0 "$SCHEDLENS" validate --help
echo "all checks passed"
