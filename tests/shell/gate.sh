#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gate: exit 0 pass, 1 regression, 2 unusable input; --min-effect, --alpha, --metric, --junit.
# Data: the prefetch seed (perf stat -r 10 cycles and L1 misses per thread count).
source "$(dirname "$0")/lib.sh"
data=$SCHEDLENS_TOP/tests/data/compare
before=$data/prefetch-before.json after=$data/prefetch-after.json

# the patch made things faster: no regression
expect_rc 0 "$SCHEDLENS" gate "$before" "$after"
grep -q '^gate: pass: 20 metrics tested, 0 regressions (mann-whitney u, holm-bonferroni at alpha 0.01, min effect 3%)$' "$TMP/out" || fail "pass line"
grep -q "^improved 'pound-clock-gettime threads=128' cycles" "$TMP/out" || fail "improvements listed"

# reverting it is a regression; the message names metric, effect, interval and test
expect_rc 1 "$SCHEDLENS" gate --junit "$TMP/junit.xml" "$after" "$before"
grep -qE "^REGRESSION 'pound-clock-gettime threads=128' cycles: median [0-9.e+]+ -> [0-9.e+]+, 1[0-9]\.[0-9]+% worse \(95% CI [0-9.]+% \.\. [0-9.]+% worse\); mann-whitney u \(exact\) p=[0-9.e-]+, holm-adjusted p=[0-9.e-]+ < alpha 0.01; n=10/10$" "$TMP/out" || fail "regression message"
grep -q '^gate: FAIL: 20 metrics tested, ' "$TMP/out" || fail "fail line"
# 12 threads changed by 1.74%: significant but under the minimum effect
grep -q "threads=12' cycles" "$TMP/out" && fail "1.74% is below --min-effect 3%"
nreg=$(grep -c '^REGRESSION' "$TMP/out")
grep -q "<testsuite name=\"schedlens gate\" tests=\"20\" failures=\"$nreg\"" "$TMP/junit.xml" || fail "junit counts"
grep -q '<failure message="regression">' "$TMP/junit.xml" || fail "junit failure"
# a larger minimum effect lets the smaller regressions through
expect_rc 1 "$SCHEDLENS" gate --min-effect 12% "$after" "$before"
[ "$(grep -c '^REGRESSION' "$TMP/out")" -lt "$nreg" ] || fail "--min-effect 12% should catch fewer"
expect_rc 0 "$SCHEDLENS" gate --min-effect 50 "$after" "$before"
# one metric only, and a stricter alpha
expect_rc 1 "$SCHEDLENS" gate -m cycles "$after" "$before"
grep -q '^gate: FAIL: 10 metrics tested' "$TMP/out" || fail "--metric"
grep -q 'L1-dcache-load-misses' "$TMP/out" && fail "--metric cycles gated on L1 too"
expect_rc 0 "$SCHEDLENS" gate --alpha 0.00001 "$after" "$before"
# the same document twice: nothing to see
expect_rc 0 "$SCHEDLENS" gate "$before" "$before"

# unusable input: exit 2 with a reason
expect_rc 2 "$SCHEDLENS" gate "$data/wakelist-before.json" "$data/wakelist-after.json"
grep -q 'nothing to gate on: no metric with a better direction has at least 2 iterations on both sides' "$TMP/err" || fail "n=1 message"
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
