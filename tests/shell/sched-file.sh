#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens sched -i on the ping-pong fixture:
#  - switches and run time per task agree with `perf sched timehist -s` (refs);
#  - wakeup latency per task (count exactly, p50/p90/p99/max within 1 us, the resolution of
#    perf script's timestamps) agrees with an independent awk computation over the fixture's
#    `perf script` output, with the same rule: from sched_waking (or sched_wakeup_new) of a task
#    not on a CPU to its next switch in; a switch out first drops the wakeup; a sched_waking of
#    a task on a CPU is held until its sched_wakeup there (dropped) or its switch out (a sleep:
#    the wakeup runs from the waking; running: dropped);
#  - the wakeup path classes add up to the total, and the IPIs match perf script's count;
#  - --topology shows the recording machine's topology, from the file.
source "$(dirname "$0")/lib.sh"
need_fixtures
data=$FIXTURES/local/sched-pingpong.data
refs=$FIXTURES/local/refs
[ -f "$data" ] || skip "no '$data'"
"$SCHEDLENS" sched -i "$data" --top 0 >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'no perf.data reader' "$TMP/err"; then
	skip "this build has no perf.data reader"
fi
[ $rc -eq 0 ] || { cat "$TMP/err"; fail "schedlens sched -i exited $rc"; }

# 1. runtime summary against perf sched timehist -s: "comm[tid] parent sched-in run-time ..."
awk '/^Runtime summary/ { on = 1; next } on && /\[[0-9]+\]/ {
	name = $1; sub(/.*\[/, "", name); sub(/\].*/, "", name); print name, $3, $4 }' \
	"$TMP/out" | sort -n >"$TMP/ours"
awk '/\[[0-9]+\] +[0-9]+ +[0-9]+ +[0-9.]+ / {
	for (i = 1; i <= NF; i++) if ($i ~ /\[[0-9]+\]$/) break
	name = $i; sub(/.*\[/, "", name); sub(/\].*/, "", name); print name, $(i + 2), $(i + 3) }' \
	"$refs/sched-pingpong.timehist-summary.txt" | sort -n >"$TMP/perf"
[ -s "$TMP/perf" ] || fail "no tasks parsed from the perf reference"
n=0
while read -r tid sw run; do
	read -r otid osw orun < <(awk -v t="$tid" '$1 == t' "$TMP/ours")
	[ -n "${otid:-}" ] || fail "task $tid of perf sched timehist is missing"
	[ "$osw" = "$sw" ] || fail "task $tid: $osw switches, perf sched timehist says $sw"
	# perf truncates to microseconds, schedlens rounds
	awk -v a="$orun" -v b="$run" 'BEGIN { d = a - b; exit !(d >= -0.0011 && d <= 0.0011) }' ||
		fail "task $tid: run time $orun ms, perf sched timehist says $run ms"
	n=$((n + 1))
done <"$TMP/perf"
echo "runtime: $n tasks agree with perf sched timehist -s (switches exactly, run time within 1 us)"

# 2. wakeup latency per task from perf script, computed independently
awk -v heldf="$TMP/held" '
function us(s,   p) { p = index(s, "."); return substr(s, 1, p - 1) * 1000000 + substr(s, p + 1, 6) }
function field(name,   i) { for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2); return "" }
{
	for (i = 1; i <= NF; i++) if ($i ~ /^sched:|^ipi:/) break
	ev = $i; t = $(i - 1); sub(/:$/, "", t); t = us(t)
	if (ev == "sched:sched_waking:" || ev == "sched:sched_wakeup_new:") {
		p = field("pid")
		if (p != 0 && !(p in pend) && !oncpu[p]) pend[p] = t
		else if (p != 0 && !(p in pend) && !(p in held) && ev == "sched:sched_waking:") held[p] = t
	} else if (ev == "sched:sched_wakeup:") {
		p = field("pid")
		if (oncpu[p]) delete held[p]
	} else if (ev == "sched:sched_switch:") {
		a = field("prev_pid"); b = field("next_pid")
		if (a != 0) {
			delete pend[a]; oncpu[a] = 0
			if ((a in held) && field("prev_state") !~ /^R/) { pend[a] = held[a]; nheld++ }
			delete held[a]
		}
		if (b != 0) {
			delete held[b]
			if (b in pend) { lat[b] = lat[b] " " (t - pend[b]); n[b]++; delete pend[b] }
			oncpu[b] = 1
		}
	}
}
END { for (p in n) print p, substr(lat[p], 2); print nheld + 0 > heldf }' "$refs/sched-pingpong.script.txt" |
while read -r tid rest; do
	# count p50 p90 p99 max, nearest rank, in us
	echo "$rest" | tr ' ' '\n' | sort -n | awk -v tid="$tid" '{ v[NR] = $1 }
	function rank(p,   k) { k = p / 100 * NR; if (k > int(k)) k = int(k) + 1; if (k < 1) k = 1; return v[k] }
	END { print tid, NR, rank(50), rank(90), rank(99), v[NR] }'
done | sort -n >"$TMP/awk"
awk '/^ per task:/ { on = 1; next } /^$/ { on = 0 } on && /\[[0-9]+\]/ {
	name = $1; sub(/.*\[/, "", name); sub(/\].*/, "", name); print name, $2, $3, $4, $5, $7 }' \
	"$TMP/out" | sort -n >"$TMP/ourlat"
[ -s "$TMP/awk" ] || fail "no wakeups computed from perf script"
cmp -s <(cut -d' ' -f1,2 "$TMP/awk") <(cut -d' ' -f1,2 "$TMP/ourlat") || {
	diff <(cut -d' ' -f1,2 "$TMP/awk") <(cut -d' ' -f1,2 "$TMP/ourlat") >&2
	fail "wakeup counts per task differ from the perf script computation"
}
paste -d' ' "$TMP/awk" "$TMP/ourlat" | awk '{
	for (i = 3; i <= 6; i++) { d = $(i + 6) - $i; if (d < 0) d = -d; if (d > 1.0005) { print "task " $1 " column " i ": " $(i + 6) " us vs " $i " us"; bad = 1 } }
	total += $2 }
	END { print total " wakeups in " NR " tasks agree with perf script (p50/p90/p99/max within 1 us)" > "/dev/stderr"; exit bad }' ||
	fail "wakeup latency differs from the perf script computation"
# the fixture has one wakeup whose waking came while its wakee was switching out
[ "$(cat "$TMP/held")" -ge 1 ] || fail "no held waking in the fixture: the rule is not exercised"
echo "$(cat "$TMP/held") of them from a waking that came while the wakee was still on its CPU"

# 3. classes add up; IPIs as many as perf script shows
"$SCHEDLENS" sched -i "$data" --json >"$TMP/json" || fail "--json failed"
grep -q '"schema": "schedlens-results"' "$TMP/json" || fail "--json is not a results document"
# the entry is named by what the file recorded, so two kernels' recordings (here: two copies of
# one) compare metric by metric, with no change in any; --name sets it
[ "$(jq -r '.entries[0].id' "$TMP/json")" = "sched ./pp 3000" ] || fail "entry id: $(jq -r '.entries[0].id' "$TMP/json")"
cp "$data" "$TMP/copy.data"
"$SCHEDLENS" sched -i "$TMP/copy.data" --json >"$TMP/json2" 2>/dev/null || fail "--json of the copy failed"
"$SCHEDLENS" compare -f json "$TMP/json" "$TMP/json2" >"$TMP/cmp" || fail "the two analyses do not compare"
[ "$(jq '[.comparisons[] | select(.verdict != "same")] | length' "$TMP/cmp")" -eq 0 ] &&
	[ "$(jq '.comparisons | length' "$TMP/cmp")" -ge 10 ] || fail "two copies of a recording differ: $(cat "$TMP/cmp")"
"$SCHEDLENS" sched -i "$TMP/copy.data" --json --name "pingpong 6.1" 2>/dev/null |
	jq -e '.entries[0].id == "pingpong 6.1"' >/dev/null || fail "--name"
total=$(awk '/^  total / { print $2 }' "$TMP/out")
sum=$(awk '/^Wakeup paths/ { on = 1; next } on && /^  total/ { on = 0 } on && $2 ~ /^[0-9]+$/ { s += $2 } END { print s }' "$TMP/out")
[ "$total" = "$sum" ] || fail "wakeup classes add up to $sum, total says $total"
awktotal=$(awk '{ s += $2 } END { print s }' "$TMP/awk")
[ "$total" = "$awktotal" ] || fail "total $total wakeups, perf script computation $awktotal"
ipis=$(awk '/^IPIs/ { on = 1; next } /^$/ { on = 0 } on && $1 ~ /^[0-9]+$/ { s += $1 } END { print s }' "$TMP/out")
want=$(grep -c 'ipi:ipi_send_cpu:' "$refs/sched-pingpong.script.txt")
[ "$ipis" = "$want" ] || fail "$ipis IPIs, perf script shows $want"
grep -q 'ttwu_queue_wakelist+0x11d -> generic_smp_call_function_single_interrupt' "$TMP/out" ||
	echo "note: IPI call sites not symbolized as in perf script (another kernel's kallsyms?)"
echo "classes add up to $total wakeups; $ipis IPIs as in perf script"

# 4. --topology with -i: the recording machine's (its header: 2 CPUs, one node of 5,728,032 kB,
# no cache information), not this machine's
"$SCHEDLENS" sched -i "$data" --topology >"$TMP/topo" 2>"$TMP/topo.err" ||
	fail "sched -i --topology failed"
grep -q '^node 0 size: 5593 MB$' "$TMP/topo" || { head -9 "$TMP/topo"; fail "not the file's node size"; }
grep -q '^llc 0 node 0 cpus: 0 1$' "$TMP/topo" || fail "not the file's LLC group"
# the one warning allowed is the input's: recorded on another kernel or boot than this one
grep -v ': /proc/kallsyms not used, IPI call sites left as addresses' "$TMP/topo.err" |
	grep -q warning && fail "a warning with the file's topology: $(cat "$TMP/topo.err")"
[ "$(grep -c 'kallsyms not used' "$TMP/topo.err")" -le 1 ] || fail "the input's origin warned twice"
echo "--topology -i: the recording machine's topology, from the file's header"

# the IPI call sites through the persistent lookup cache: the same report from a cold cache,
# a warm one (kallsyms not read again), a corrupt one, and none; --no-cache writes nothing
ks=$TMP/kallsyms
{ [ -r /proc/kallsyms ] && cp /proc/kallsyms "$ks" && [ -s "$ks" ]; } ||
	skip "cannot copy /proc/kallsyms for the cache check"
run_cached() { SCHEDLENS_CACHE_DIR=$TMP/cache "$SCHEDLENS" sched -i "$data" --kallsyms "$ks" "$@"; }
run_cached >"$TMP/cold" 2>/dev/null || fail "cold cache run failed"
ls "$TMP"/cache/srcline/kallsyms-* >/dev/null 2>&1 || fail "no cache file for the kallsyms"
run_cached >"$TMP/warm" 2>/dev/null || fail "warm cache run failed"
cmp -s "$TMP/cold" "$TMP/warm" || fail "a warm cache changes the report"
if command -v strace >/dev/null; then
	SCHEDLENS_CACHE_DIR=$TMP/cache strace -f -e trace=openat -o "$TMP/trace" \
		"$SCHEDLENS" sched -i "$data" --kallsyms "$ks" >/dev/null 2>&1
	grep -q "\"$ks\"" "$TMP/trace" && fail "kallsyms read again with a warm cache"
fi
for c in "$TMP"/cache/srcline/kallsyms-*; do printf 'garbage' >"$c"; done
run_cached >"$TMP/bad" 2>/dev/null || fail "corrupt cache run failed"
cmp -s "$TMP/cold" "$TMP/bad" || fail "a corrupt cache changes the report"
SCHEDLENS_CACHE_DIR=$TMP/nocache "$SCHEDLENS" sched -i "$data" --kallsyms "$ks" --no-cache \
	>"$TMP/none" 2>/dev/null || fail "--no-cache run failed"
cmp -s "$TMP/cold" "$TMP/none" || fail "--no-cache changes the report"
[ ! -e "$TMP/nocache" ] || fail "--no-cache wrote a cache"
echo "IPI call sites: the same report from a cold, warm, corrupt and no cache"


# past its exact limit (2M latencies; here 100) the latencies are a sketch: every group's
# count the same, each percentile at or up to 1/64 above the exact one, max exact, and said
SCHEDLENS_LAT_EXACT=100 "$SCHEDLENS" sched -i "$data" --json >"$TMP/sketch.json" 2>/dev/null ||
	fail "sched --json with a sketch failed"
"$SCHEDLENS" sched -i "$data" --json >"$TMP/exact.json" 2>/dev/null || fail "sched --json failed"
python3 - "$TMP/exact.json" "$TMP/sketch.json" <<'PY' || fail "the sketch's percentiles are off"
import json, sys
a, b = (json.load(open(p))["entries"][0]["iterations"][0]["sched"] for p in sys.argv[1:3])
assert a["wakeup_latency_exact"] and not b["wakeup_latency_exact"], "exactness not said"
groups = [(a["wakeup_latency"], b["wakeup_latency"])]
groups += [(a["wakeup_paths"][c], b["wakeup_paths"][c]) for c in a["wakeup_paths"]]
groups += [(a["comms"][c], b["comms"][c]) for c in a["comms"]]
groups += [(t["wakeup_latency"], u["wakeup_latency"]) for t, u in zip(a["tasks"], b["tasks"])]
n = 0
for x, y in groups:
    if x is None:
        continue
    n += 1
    assert x["count"] == y["count"], (x, y)
    assert x["max_us"] == y["max_us"], (x, y)
    for k in ("p50_us", "p90_us", "p99_us", "p99.9_us"):
        assert x[k] - 1e-9 <= y[k] <= x[k] * (1 + 1 / 64) + 0.002, (k, x, y)
print(f"sketch: {n} groups' percentiles within 1/64 of the exact ones")
PY
SCHEDLENS_LAT_EXACT=100 "$SCHEDLENS" sched -i "$data" 2>/dev/null | grep -q "a sketch past 100 wakeups" ||
	fail "the text report does not say the percentiles are a sketch's"
