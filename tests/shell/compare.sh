#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compare on the seeds' tables typed into results documents (tests/data/compare) reproduces
# the published rows: MMTests' Amean/Hmean lines byte for byte (markers included), perf stat's
# cycles and L1 miss-ratio tables, UnixBench's percentage; formats, plot and bad input.
source "$(dirname "$0")/lib.sh"
data=$SCHEDLENS_TOP/tests/data/compare
seeds=$SCHEDLENS_TOP/../shared/seeds
[ -d "$seeds" ] || skip "seeds not found at '$seeds'"

# MMTests style: the seed's Amean and Hmean rows, identical (the mail has no-break spaces)
expect_rc 0 "$SCHEDLENS" compare --style mmtests "$data/wakee-flips-vanilla.json" "$data/wakee-flips-patched.json"
grep -E '^(Amean|Hmean) ' "$TMP/out" >"$TMP/ours"
sed 's/\xc2\xa0/ /g; s/^> //' "$seeds/wakee-flips-heavy-wakers.txt" | grep -E '^(Amean|Hmean) ' >"$TMP/seed"
[ "$(wc -l <"$TMP/seed")" -eq 26 ] || fail "expected 26 seed rows"
diff "$TMP/ours" "$TMP/seed" || fail "mmtests rows differ from the seed"
grep -q '^Amean     48       1.3977 (   0.00%)      1.2400 \*  11.28%\*$' "$TMP/ours" || fail "48 groups row"
grep -qE '^(Stddev|CoeffVar|Max|Min|BAmean-95|HStddev|BHmean-95) ' "$TMP/out" || fail "summary rows missing"

# perf stat style: the cycles and L1 miss-ratio tables of the prefetch thread
expect_rc 0 "$SCHEDLENS" compare --style perf-stat "$data/prefetch-before.json" "$data/prefetch-after.json"
tr -s ' ' <"$TMP/out" >"$TMP/ours"
seedtxt=$(tr -s ' \n' '  ' <"$seeds/cputime-prefetch-update-curr.txt")
cyc=$(grep -oE 'cycles before cycles after gain( [0-9]+ [0-9,]+ \+-[0-9.]+% [0-9,]+ \+-[0-9.]+% -?[0-9.]+%){10}' <<<"$seedtxt" | head -1)
[ -n "$cyc" ] || fail "cycles table not found in the seed"
n=0
while read -r row; do
	grep -qxF "$row" "$TMP/ours" || fail "cycles row '$row' not reproduced"
	n=$((n + 1))
done < <(grep -oE '[0-9]+ [0-9,]+ \+-[0-9.]+% [0-9,]+ \+-[0-9.]+% -?[0-9.]+%' <<<"$cyc")
[ $n -eq 10 ] || fail "expected 10 cycles rows, got $n"
l1=$(grep -oE 'gain before after( [0-9]+ [0-9.]+ \+-[0-9.]+% [0-9.]+ \+-[0-9.]+% -?[0-9.]+%){10}' <<<"$seedtxt" | head -1)
n=0
while read -r row; do
	grep -qxF "$row" "$TMP/ours" || fail "L1 miss-ratio row '$row' not reproduced"
	n=$((n + 1))
done < <(grep -oE '[0-9]+ [0-9.]+ \+-[0-9.]+% [0-9.]+ \+-[0-9.]+% -?[0-9.]+%' <<<"$l1")
[ $n -eq 10 ] || fail "expected 10 L1 rows, got $n"
grep -q '^threads L1 misses/total\*100 before L1 misses/total\*100 after gain$' "$TMP/ours" || fail "L1 header"

# default style: medians, the test behind each verdict; UnixBench +11.87% (x86), +7.47% (arm64)
expect_rc 0 "$SCHEDLENS" compare "$data/wakelist-before.json" "$data/wakelist-after.json"
grep -qE '^x86 .* \+11\.87% ' "$TMP/out" || fail "unixbench x86 +11.87%"
grep -qE '^arm64 .* \+7\.47% ' "$TMP/out" || fail "unixbench arm64 +7.47%"
# (the change of the geometric means, which the test and its interval are about: +11.96% for
# 2 threads where perf stat's means give +11.88%)
expect_rc 0 "$SCHEDLENS" compare -m cycles "$data/prefetch-before.json" "$data/prefetch-after.json"
grep -q '^pound-clock-gettime cycles, lower is better (a + change is better)$' "$TMP/out" || fail "title with the sign convention"
grep -qE '^2 .* \+11\.96% +\+7\.74% \.\. \+15\.99% .* welch-log +better$' "$TMP/out" || fail "2 threads: +11.96%, better"
grep -qE '^128 .* welch-log +better$' "$TMP/out" || fail "128 threads verdict"
grep -qE '^5 .* 0\.169 +welch-log +same$' "$TMP/out" || fail "5 threads (4.85% +-2.96%) should be the same"
# no row shows an interval and a verdict that disagree
awk '/welch/ { v = $NF; lo = $6 + 0; hi = $8 + 0
		excl = (lo > 0 || hi < 0); if (excl != (v != "same")) { print; bad = 1 } }
	END { exit bad }' "$TMP/out" || fail "an interval and a verdict disagree"

# formats
# csv: one tidy table whatever the style, read back by a program: one header, a row per
# (entry, metric), every row as wide as the header, the same verdicts as the text table
expect_rc 0 "$SCHEDLENS" compare -f csv --style mmtests "$data/wakee-flips-vanilla.json" "$data/wakee-flips-patched.json"
python3 - "$TMP/out" <<'PY' || fail "csv does not read back as one table"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
head = open(sys.argv[1]).readline().strip().split(",")
assert head[:4] == ["suite", "group", "entry", "metric"] and "verdict" in head, head
assert len(rows) > 20 and all(None not in r and len(r) == len(head) for r in rows)
keys = {(r["group"], r["entry"], r["metric"]) for r in rows}
assert len(keys) == len(rows), "rows that cannot be told apart"
assert sum(r["suite"] == "suite" for r in rows) == 0, "a header repeated"
r = next(r for r in rows if r["entry"] == "hackbench-process-pipes groups=48" and r["metric"] == "time")
assert r["better"] == "lower" and r["verdict"] == "better" and float(r["change_lo"]) > 0, r
print("csv: %d rows, %d columns, one header" % (len(rows), len(head)))
PY
expect_rc 0 "$SCHEDLENS" compare -f markdown -m time "$data/wakee-flips-vanilla.json" "$data/wakee-flips-patched.json"
grep -q '^| --- |' "$TMP/out" || fail "markdown separator"
expect_rc 0 "$SCHEDLENS" compare -f json -m cycles "$data/prefetch-before.json" "$data/prefetch-after.json"
[ "$(jq '.comparisons | length' "$TMP/out")" -eq 10 ] || fail "json comparisons"
jq -e '.comparisons[0] | .group == "pound-clock-gettime" and .entry and .metric == "cycles" and .unit != null and .n_base == 10' "$TMP/out" >/dev/null || fail "json rows are not tidy"
[ "$(jq -r '.comparisons[9].verdict' "$TMP/out")" = better ] || fail "json verdict"
# three documents: the base against each
expect_rc 0 "$SCHEDLENS" compare --style mmtests -m time "$data/wakee-flips-vanilla.json" \
	"$data/wakee-flips-patched.json" "$data/wakee-flips-vanilla.json"
grep -q '^Amean     48       1.3977 (   0.00%)      1.2400 \*  11.28%\*      1.3977 (   0.00%)$' "$TMP/out" || fail "3 documents"

# plot: an SVG gnuplot drew
if command -v gnuplot >/dev/null; then
	expect_rc 0 "$SCHEDLENS" compare -m time --plot "$TMP/p.svg" "$data/wakee-flips-vanilla.json" "$data/wakee-flips-patched.json"
	grep -q '<svg' "$TMP/p.svg" || fail "no svg"
	grep -q 'hackbench-process-pipes: time' "$TMP/p.svg" || fail "panel title"
	if command -v rsvg-convert >/dev/null; then
		rsvg-convert -o "$TMP/p.png" "$TMP/p.svg" || fail "svg does not render"
	fi
fi

# bad input: usage 2, unreadable or mismatched documents 1 with a clear message
expect_rc 2 "$SCHEDLENS" compare
# one document: its summary
expect_rc 0 "$SCHEDLENS" compare -m time "$data/wakee-flips-vanilla.json"
grep -q '^Amean     48       1.3977$' "$TMP/out" || fail "one-document summary"
expect_rc 2 "$SCHEDLENS" compare --style nonesuch a b
expect_rc 2 "$SCHEDLENS" compare -m nosuchmetric "$data/prefetch-before.json" "$data/prefetch-after.json"
grep -q "no selected metric 'nosuchmetric' in any entry of '$data/prefetch-before.json'" "$TMP/err" || fail "unknown -m metric message"
printf '{"schema": "schedlens-results", "schema_version": 1, "entries": [\n' >"$TMP/bad.json"
expect_rc 1 "$SCHEDLENS" compare "$TMP/bad.json" "$data/wakee-flips-vanilla.json"
grep -q "'$TMP/bad.json' is not valid JSON: line" "$TMP/err" || fail "corrupt json message"
expect_rc 1 "$SCHEDLENS" compare "$data/wakelist-before.json" "$data/prefetch-after.json"
grep -q 'have no entry in common' "$TMP/err" || fail "mismatch message"
expect_rc 1 "$SCHEDLENS" compare "$TMP/none.json" "$data/prefetch-after.json"
grep -q "cannot read '$TMP/none.json'" "$TMP/err" || fail "missing file message"
echo ok
