#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gate: exit 0 pass, 1 regression, 2 unusable input, 3 inconclusive; --min-effect, --alpha,
# --metric, --junit, --accept-inconclusive; verdicts that can fail at small n.
# Data: the prefetch seed (perf stat -r 10 cycles and L1 misses per thread count).
source "$(dirname "$0")/lib.sh"
data=$SCHEDLENS_TOP/tests/data/compare
before=$data/prefetch-before.json after=$data/prefetch-after.json

# the patch made things faster: no regression; but the L1 miss counts are too noisy at 10 runs
# to rule out a 5% regression in each: inconclusive (exit 3), with the runs that would tell
expect_rc 3 "$SCHEDLENS" gate "$before" "$after"
grep -q '^gate: INCONCLUSIVE: 20 metrics tested, 0 regressions, [1-9][0-9]* inconclusive (welch t on logs, holm-bonferroni at alpha 0.01, min effect 5%)$' "$TMP/out" || fail "inconclusive line"
grep -qE "^INCONCLUSIVE '[^']+' L1-dcache-load-misses: .*may be [0-9.]+% worse \(one-sided 95%\): about [0-9]+ runs a side would tell$" "$TMP/out" || fail "inconclusive metric named without the runs needed"
grep -q "^improved 'pound-clock-gettime threads=128' cycles" "$TMP/out" || fail "improvements listed"
# a smoke run accepts it; a minimum effect the data can resolve passes
expect_rc 0 "$SCHEDLENS" gate --accept-inconclusive "$before" "$after"
grep -q '^gate: pass (inconclusive accepted): ' "$TMP/out" || fail "accepted inconclusive line"
expect_rc 0 "$SCHEDLENS" gate --min-effect 25% "$before" "$after"
grep -q '^gate: pass: 20 metrics tested, 0 regressions, 0 inconclusive' "$TMP/out" || fail "pass line"

# reverting it is a regression; the message names metric, effect, interval and test
expect_rc 1 "$SCHEDLENS" gate --junit "$TMP/junit.xml" "$after" "$before"
grep -qE "^REGRESSION 'pound-clock-gettime threads=128' cycles: geometric mean [0-9.e+]+ -> [0-9.e+]+, 1[0-9]\.[0-9]+% worse \([0-9.]+% CI [0-9.]+% \.\. [0-9.]+% worse\); welch t on logs p=[0-9.e-]+, holm-adjusted p=[0-9.e-]+ < alpha 0.01; n=10/10$" "$TMP/out" || fail "regression message"
grep -q '^gate: FAIL: 20 metrics tested, ' "$TMP/out" || fail "fail line"
# 12 threads changed by 1.74%: significant but under the minimum effect
grep -q "^REGRESSION .*threads=12' cycles" "$TMP/out" && fail "1.74% is below --min-effect 5%"
nreg=$(grep -c '^REGRESSION' "$TMP/out")
nunsure=$(grep -c '^INCONCLUSIVE' "$TMP/out")
grep -q "<testsuite name=\"schedlens gate\" tests=\"20\" failures=\"$((nreg + nunsure))\"" "$TMP/junit.xml" || fail "junit counts"
grep -q '<failure message="regression">' "$TMP/junit.xml" || fail "junit failure"
# a larger minimum effect lets the smaller regressions through
expect_rc 1 "$SCHEDLENS" gate --min-effect 12% "$after" "$before"
[ "$(grep -c '^REGRESSION' "$TMP/out")" -lt "$nreg" ] || fail "--min-effect 12% should catch fewer"
# one metric only
expect_rc 1 "$SCHEDLENS" gate -m cycles "$after" "$before"
grep -q '^gate: FAIL: 10 metrics tested' "$TMP/out" || fail "--metric"
grep -q 'L1-dcache-load-misses' "$TMP/out" && fail "--metric cycles gated on L1 too"
# the largest regressions are significant even at a very strict alpha; the interval is at
# the level each metric was tested at
expect_rc 1 "$SCHEDLENS" gate --alpha 0.00001 "$after" "$before"
grep -qE "threads=128' cycles: .* \(99\.9999[0-9]*% CI " "$TMP/out" || fail "the interval's level at alpha 1e-5"

# Verdicts that can fail, on documents made from the seed's iterations (python, seeded):
# 3 runs a side, every value doubled (lower is better): never a pass, and what is not a
# regression is named with the runs that would tell
mk() {	# mk IN OUT N FACTOR SEED: N iterations an entry, drawn with replacement (SEED > 0), the
	# first N in a shuffled order (SEED < 0), or the first N (0), each value times FACTOR
	python3 - "$@" <<'PY'
import json, random, sys
src, out, n, factor, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
d = json.load(open(src))
rng = random.Random(seed)
for e in d["entries"]:
    its = e["iterations"]
    its = [rng.choice(its) for _ in range(n)] if seed > 0 else its[:n]
    if seed < 0:
        rng.shuffle(its)
    e["iterations"] = [{**it, "values": {k: v * factor for k, v in it["values"].items()}} for it in its]
json.dump(d, open(out, "w"))
PY
}
mk "$before" "$TMP/a3.json" 3 1 0
mk "$before" "$TMP/a3x2.json" 3 2 0
"$SCHEDLENS" gate "$TMP/a3.json" "$TMP/a3x2.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || [ $rc -eq 3 ] || { cat "$TMP/out" "$TMP/err"; fail "2x slower at n=3 exited $rc"; }
grep -q '^gate: pass' "$TMP/out" && fail "2x slower at n=3 passed"
[ "$(grep -cE '^(REGRESSION|INCONCLUSIVE) ' "$TMP/out")" -eq 20 ] || fail "2x slower at n=3: not every metric named"
grep -q '^INCONCLUSIVE .*runs a side' "$TMP/out" && echo "2x at n=3: inconclusive ones name the runs needed"
echo "2x slower at n=3: exit $rc, $(grep -c '^REGRESSION' "$TMP/out") regressions"
# 10 runs a side resampled from the seed's, twice as slow: a regression
mk "$before" "$TMP/a10.json" 10 1 1
mk "$before" "$TMP/a10x2.json" 10 2 2
expect_rc 1 "$SCHEDLENS" gate "$TMP/a10.json" "$TMP/a10x2.json"
# A/A pairs on the cycles, whose spread reaches a CV of 9% at some thread counts (the seed's
# +-2.96% of the mean at 5 threads): at 10 runs a side they cannot rule out a 5% regression
# there (inconclusive, as the data says), a 10% one they can. The same 10 runs in another
# order pass, and so do two resamples of them with 20 runs a side.
mk "$before" "$TMP/s10.json" 10 1 -1
expect_rc 3 "$SCHEDLENS" gate -m cycles "$before" "$TMP/s10.json"
expect_rc 0 "$SCHEDLENS" gate -m cycles --min-effect 10% "$before" "$TMP/s10.json"
grep -q '^gate: pass: 10 metrics tested, 0 regressions, 0 inconclusive' "$TMP/out" || fail "A/A line"
mk "$before" "$TMP/a20.json" 20 1 3
mk "$before" "$TMP/b20.json" 20 1 4
expect_rc 0 "$SCHEDLENS" gate -m cycles --min-effect 10% "$TMP/a20.json" "$TMP/b20.json"
echo "at n=10: 2x slower is a regression; A/A passes at a 10% minimum effect (10 runs reordered, 20 resampled)"

# unusable input: exit 2 with a reason
# one run a side cannot be tested: inconclusive, not a pass
expect_rc 3 "$SCHEDLENS" gate "$data/wakelist-before.json" "$data/wakelist-after.json"
grep -q "^INCONCLUSIVE .*n=1/1, a test needs at least 2 runs a side$" "$TMP/out" || fail "n=1 message"
# a metric the gate needs that NEW lacks: exit 2, naming it, its entry and the file
jq 'del(.entries[0].iterations[].values.cycles)' "$after" >"$TMP/nocyc.json"
expect_rc 2 "$SCHEDLENS" gate "$before" "$TMP/nocyc.json"
grep -q "'$TMP/nocyc.json' has no value of 'cycles' in entry 'pound-clock-gettime threads=2'" "$TMP/err" || fail "missing metric message: $(cat "$TMP/err")"
expect_rc 2 "$SCHEDLENS" gate "$before" "$data/wakee-flips-patched.json"
grep -q 'have no entry in common' "$TMP/err" || fail "mismatch message"
echo '{"schema": "other"}' >"$TMP/other.json"
expect_rc 2 "$SCHEDLENS" gate "$TMP/other.json" "$after"
grep -q "is not a schedlens results document" "$TMP/err" || fail "schema message"
head -c 300 "$before" >"$TMP/cut.json"
expect_rc 2 "$SCHEDLENS" gate "$before" "$TMP/cut.json"
grep -q "is not valid JSON: line" "$TMP/err" || fail "truncated message"
expect_rc 2 "$SCHEDLENS" gate --min-effect lots "$before" "$after"
expect_rc 2 "$SCHEDLENS" gate "$before"
expect_rc 2 "$SCHEDLENS" gate -m nonesuch "$before" "$after"
grep -q 'no selected metric' "$TMP/err" || fail "unknown metric message"
echo ok
