#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens stat against perf stat on the same command, and its edge cases.
source "$(dirname "$0")/lib.sh"
need_perf
# perf runs in the C locale (lib.sh): so does everything here, so that the program both tools
# count is the same one (ls loads the locale's files, 20 page faults more, outside it)
export LC_ALL=C

cmd=(ls -R /usr/share)
"${cmd[@]}" >/dev/null 2>&1 # warm the page cache for both tools

# perf stat -x, prints: value,unit,event,variance,... Interleave single runs of both tools so
# that load from elsewhere on the machine hits both alike.
for i in 1 2 3 4 5; do
	perf stat -x, -e task-clock,page-faults,context-switches -- "${cmd[@]}" >/dev/null 2>"$TMP/perf.$i" ||
		skip "perf stat cannot count software events here"
	"$SCHEDLENS" stat -x, -e task-clock,page-faults,context-switches -- "${cmd[@]}" >/dev/null 2>"$TMP/sl.$i" ||
		fail "schedlens stat failed"
done
python3 - "$TMP" <<'PY' || fail "schedlens and perf disagree"
import statistics as st, sys
def col(prefix, ev):
    out = []
    for i in range(1, 6):
        for line in open(f"{sys.argv[1]}/{prefix}.{i}"):
            f = line.strip().split(",")
            if len(f) > 2 and f[2] == ev:
                out.append(float(f[0]))
    return out
ok = True
# page faults of one program vary a little from run to run (what it reads, where its heap
# grows): the medians agree within 1%, or within the spread the runs themselves showed
fp, fs = col("perf", "page-faults"), col("sl", "page-faults")
pf_p, pf_s = st.median(fp), st.median(fs)
lim = max(0.01 * pf_p, max(fp) - min(fp), max(fs) - min(fs))
print(f"page-faults median: perf {pf_p} schedlens {pf_s} ({100 * (pf_s - pf_p) / pf_p:+.2f}%, limit {lim:.0f}; perf {fp}, schedlens {fs})")
ok &= abs(pf_s - pf_p) <= lim
tp, ts = col("perf", "task-clock"), col("sl", "task-clock")
lim = max(4 * max(st.stdev(tp), st.stdev(ts)), 0.10 * st.median(tp))
print(f"task-clock ms median: perf {st.median(tp):.2f} schedlens {st.median(ts):.2f} (limit {lim:.2f})")
ok &= abs(st.median(ts) - st.median(tp)) <= lim
sys.exit(0 if ok else 1)
PY
expect_rc 0 "$SCHEDLENS" stat -r 5 -e task-clock,page-faults,context-switches --json -o "$TMP/s.json" \
	-- "${cmd[@]}"

# JSON: schema, five iterations with raw counters, machine
python3 - "$TMP/s.json" <<'PY' || fail "results document is malformed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "schedlens-results" and d["schema_version"] == 1
assert d["kind"] == "stat"
assert d["machine"]["cpus_online"] >= 1 and d["machine"]["kernel_release"]
e = d["entries"][0]
assert len(e["iterations"]) == 5
for it in e["iterations"]:
    c = it["counters"]["page-faults"]
    assert c["supported"] and c["time_enabled_ns"] >= c["time_running_ns"] > 0
    assert it["exit_status"] == 0
s = e["summary"]["task-clock"]
assert abs(s["sem"] - s["stddev"] / 5 ** 0.5) < 1e-6 * s["stddev"] + 1e-9
PY

# no hardware PMU: every hardware event is <not supported>, the command still succeeds
expect_rc 0 "$SCHEDLENS" stat -ddd -- true
if perf stat -e cycles true 2>&1 | grep -q 'not supported'; then
	for ev in cycles instructions branches L1-dcache-loads L1-dcache-load-misses LLC-loads \
		LLC-load-misses dTLB-load-misses L1-dcache-prefetches; do
		grep -Eq "<not supported> +$ev\$" "$TMP/err" || fail "$ev is not marked <not supported>"
	done
fi
grep -Eq 'msec task-clock' "$TMP/err" || fail "task-clock missing from -ddd output"

# the workload's exit status passes through; a missing command says so
expect_rc 3 "$SCHEDLENS" stat -e task-clock -- sh -c 'exit 3'
expect_rc 127 "$SCHEDLENS" stat -e task-clock -- /nonexistent/cmd
grep -q "cannot run '/nonexistent/cmd'" "$TMP/err" || fail "no message for a missing command"
# bad input: usage errors
expect_rc 2 "$SCHEDLENS" stat -e no-such-event -- true
grep -q "event 'no-such-event' is not known" "$TMP/err" || fail "unknown event message"
expect_rc 2 "$SCHEDLENS" stat -r 0 -- true
expect_rc 2 "$SCHEDLENS" stat -r 3x -- true
expect_rc 2 "$SCHEDLENS" stat
expect_rc 2 "$SCHEDLENS" stat -p 1 -- true

# CSV like perf stat -x
expect_rc 0 "$SCHEDLENS" stat -x, -e task-clock,page-faults -- true
grep -Eq '^[0-9.]+,msec,task-clock,' "$TMP/err" || fail "CSV task-clock line"
grep -Eq '^[0-9.]+,,page-faults,' "$TMP/err" || fail "CSV page-faults line"

# Ctrl-C stops the workload and prints what was counted: sent once the workload says it runs
mkfifo "$TMP/ready"
"$SCHEDLENS" stat -e task-clock,context-switches -- \
	sh -c "echo running >'$TMP/ready'; exec sleep 600" 2>"$TMP/int.err" &
pid=$!
read -r _ <"$TMP/ready"
kill -INT $pid
timeout 60 tail --pid=$pid -f /dev/null || { kill -KILL $pid; fail "Ctrl-C: stat still runs after 60 s"; }
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "Ctrl-C: exit $rc, expected 130 (SIGINT of the workload)"
grep -q 'interrupted after 1 run' "$TMP/int.err" || fail "Ctrl-C: no interruption note"
grep -q 'msec task-clock' "$TMP/int.err" || fail "Ctrl-C: counts not printed"
# -a without a command counts system-wide until Ctrl-C: sent once its counters are open (its
# Ctrl-C handler is set before), after a few processes this test starts and ends
"$SCHEDLENS" stat -a -e context-switches,task-clock 2>"$TMP/sw.err" &
pid=$!
for _ in $(seq 1 100000); do
	ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'perf_event' && break
done
ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'perf_event' || fail "stat -a opened no counter"
for _ in 1 2 3 4 5; do /bin/true; done
kill -INT $pid
wait $pid || fail "stat -a: exit $?"
grep -q "for 'system wide'" "$TMP/sw.err" || fail "stat -a: no system-wide table"
cs=$(awk '$2 == "context-switches" { print $1 }' "$TMP/sw.err")
[ -n "$cs" ] && [ "$cs" -gt 0 ] || fail "stat -a: no context switches counted around 5 processes"
echo ok
