#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens bench: the workloads run, usage errors exit 2, results documents are well formed,
# and `schedlens stat -- schedlens bench pipe` counts only the measured phase.
source "$(dirname "$0")/lib.sh"

expect_rc 0 "$SCHEDLENS" bench --list
cp "$TMP/out" "$TMP/list"
for w in pipe messaging wakeup pound-times pound-clock-gettime tcp; do
	grep -q "^  $w " "$TMP/list" || fail "--list lacks $w"
	expect_rc 0 "$SCHEDLENS" bench "$w" --help
	grep -q "^usage: schedlens bench" "$TMP/out" || fail "$w --help prints no usage"
done

# usage errors: a clear message, exit 2, never a crash
bad() {
	local want=$1; shift
	expect_rc 2 "$SCHEDLENS" bench "$@"
	grep -q -- "$want" "$TMP/err" || { cat "$TMP/err" >&2; fail "bench $*: no '$want'"; }
}
bad "invalid --loops '0'" pipe -l 0
bad "invalid --loops '-5'" pipe -l -5
bad "unknown pin mode 'numa'" pipe --pin numa
bad "invalid --groups '0'" messaging -g 0
bad "invalid --loops '-1'" messaging -l -1
bad "invalid --threads '0'" wakeup -t 0
bad "invalid --message-threads '0'" wakeup -m 0
bad "invalid --threads '0'" pound-times -t 0
bad "invalid --clients '0'" tcp -c 0
bad "unknown option '-x'" pipe -x
bad "'nope' is not a workload" nope
bad "'' is not a workload" ""
expect_rc 2 "$SCHEDLENS" bench
grep -q 'which workload' "$TMP/err" || fail "bench without a name: no message"
bad "which workload" -r 2
bad "invalid --repeat '0'" pipe -r 0
# --pin cross-llc runs where two online CPUs of this machine are in different LLCs (the
# highest-level unified cache each shares, else its package, as sysfs tells), else says why
llcs() {
	local c d best lvl list
	# the CPUs this test may run on (taskset narrows them, and so the workload's)
	for c in $(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))'); do
		d=/sys/devices/system/cpu/cpu$c
		best=-1 list=
		for i in "$d"/cache/index*; do
			[ "$(cat "$i/type" 2>/dev/null)" = Unified ] || continue
			lvl=$(cat "$i/level")
			[ "$lvl" -gt "$best" ] && best=$lvl list=$(cat "$i/shared_cpu_list")
		done
		echo "${list:-pkg$(cat "$d/topology/physical_package_id" 2>/dev/null)}"
	done | sort -u | wc -l
}
if [ "$(llcs)" -ge 2 ]; then
	expect_rc 0 "$SCHEDLENS" bench pipe --pin cross-llc -l 100
	echo "--pin cross-llc: ran ($(llcs) LLCs)"
else
	expect_rc 1 "$SCHEDLENS" bench pipe --pin cross-llc -l 100
	grep -q "pin 'cross-llc' is unavailable" "$TMP/err" || fail "cross-llc on one LLC: no reason"
	echo "--pin cross-llc: unavailable on one LLC, with the reason"
fi

# a results document: kind bench, one entry, one iteration per repeat, declared metrics
expect_rc 0 "$SCHEDLENS" bench pipe -l 2000 -T -r 3 -o "$TMP/p.json"
[ "$(grep -c '^pipe: 2000 round trips (threads' "$TMP/out")" -eq 3 ] || fail "3 human lines expected"
python3 - "$TMP/p.json" <<'PY' || fail "pipe results document is malformed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "schedlens-results" and d["kind"] == "bench"
[e] = d["entries"]
assert e["id"] == "pipe loops=2000 mode=threads pin=none", e["id"]
assert e["params"] == {"loops": 2000, "mode": "threads", "pin": "none"}
assert e["metrics"]["round_trips_per_s"] == {"unit": "ops/s", "better": "higher"}
assert e["metrics"]["us_per_round_trip"]["better"] == "lower"
assert len(e["iterations"]) == 3
for it in e["iterations"]:
    v = it["values"]
    assert abs(v["round_trips_per_s"] * v["us_per_round_trip"] - 1e6) < 1
PY

# --json alone: the document on stdout, the human line on stderr
expect_rc 0 "$SCHEDLENS" bench messaging -g 1 -f 4 -l 20 --json
grep -q '^messaging: 1 group of 4 senders' "$TMP/err" || fail "messaging line not on stderr"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["entries"][0]["iterations"][0]["values"]["time"] > 0' \
	"$TMP/out" || fail "messaging --json is not a results document"

# wakeup -m 2 -t 8 (the seeds' shape) runs; its percentiles are monotone
expect_rc 0 "$SCHEDLENS" bench wakeup -m 2 -t 8 -n 1 -F 64 -d 500ms -w 100ms -o "$TMP/w.json"
python3 - "$TMP/w.json" <<'PY' || fail "wakeup percentiles are not monotone"
import json, sys
v = json.load(open(sys.argv[1]))["entries"][0]["iterations"][0]["values"]
for what in ("wakeup", "request"):
    seq = [v[f"{what}_{k}"] for k in ("min", "p20", "p50", "p90", "p99", "p99.9", "max")]
    assert seq == sorted(seq), (what, seq)
    assert v[f"{what}_samples"] > 0
print("wakeup p50 %.1f us, p99 %.1f us, %d samples" % (v["wakeup_p50"], v["wakeup_p99"], v["wakeup_samples"]))
PY

# stat over `schedlens bench pipe`: context switches follow the round trips (2 per round trip)
# and nothing else, because stat counts only between the workload's phase messages.
# Both ends run on one CPU: there each end blocks once a round trip. On two CPUs a reader
# may find its reply already written and not block (1170 switches for 1000 round trips on
# one machine, 7995 for 4000), so the count would follow the machine, not stat.
"$SCHEDLENS" stat --help >/dev/null 2>&1 || skip "schedlens stat is not built in"
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cs() {
	taskset -c "$cpu" "$SCHEDLENS" stat -r 5 -e context-switches -x, -- "$SCHEDLENS" bench pipe "$@" \
		>/dev/null 2>"$TMP/stat.csv" || { cat "$TMP/stat.csv" >&2; fail "stat failed"; }
	awk -F, '$3 == "context-switches" { print $1 }' "$TMP/stat.csv"
}
small=$(cs -l 1000)
big=$(cs --loops 4000)
echo "stat -r 5 -- bench pipe: context-switches ${small} at 1000 round trips, ${big} at 4000"
[ -n "$small" ] && [ -n "$big" ] || fail "no context-switches count"
awk -v s="$small" 'BEGIN { exit !(s >= 1000 && s <= 3000) }' || fail "$small switches for 1000 round trips"
awk -v s="$small" -v b="$big" 'BEGIN { r = b / s; exit !(r > 3.6 && r < 4.4) }' ||
	fail "switches do not scale with round trips: $small vs $big"

# the in-process form (stat --bench) counts the same way
cs_in() {
	taskset -c "$cpu" "$SCHEDLENS" stat -e context-switches -x, --bench pipe "$@" >/dev/null 2>"$TMP/stat.csv" ||
		{ cat "$TMP/stat.csv" >&2; fail "stat --bench failed"; }
	awk -F, '$3 == "context-switches" { print $1 }' "$TMP/stat.csv"
}
small=$(cs_in -l 1000 -T)
big=$(cs_in -l 4000 -T)
echo "stat --bench pipe -T: context-switches ${small} at 1000 round trips, ${big} at 4000"
awk -v s="$small" -v b="$big" 'BEGIN { r = b / s; exit !(s >= 1000 && s <= 3000 && r > 3.6 && r < 4.4) }' ||
	fail "in-process switches do not scale with round trips: $small vs $big"
exit 0
