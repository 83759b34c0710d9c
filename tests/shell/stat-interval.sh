#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens stat -I against perf stat -I: the header, the lines of each interval (text and -x
# CSV) shape by shape, the deltas of a count both tools know exactly (execs) summing to the
# total counted without -I, --interval-count, Ctrl-C, and the options perf refuses.
source "$(dirname "$0")/lib.sh"
need_perf
export LC_ALL=C
perf stat -x, -e task-clock -- true 2>&1 | grep -q ',task-clock,' ||
	skip "perf stat cannot count task-clock here (kernel.perf_event_paranoid)"
ev=task-clock,context-switches,cycles
tp=
if [ -r /sys/kernel/tracing/events/sched/sched_process_exec/id ] &&
	perf stat -x, -e sched:sched_process_exec -- true 2>&1 | grep -q ',sched:sched_process_exec,'; then
	tp=sched:sched_process_exec
	ev+=,$tp
fi

# wait_for FILE REGEX: until the tool running in the background has printed a line matching
# REGEX (bounded: 60 s), or fail
wait_for() {
	timeout 60 bash -c 'until grep -Eq -- "$2" "$1" 2>/dev/null; do :; done' _ "$1" "$2" ||
		fail "no line matching '$2' in $1 after 60 s: $(cat "$1")"
}

# run TOOL MODE OUT: TOOL stat -I 20 over a shell that waits on a FIFO until TOOL has printed an
# interval in which the shell did not run (<not counted>), then runs /bin/true 20 times; so
# every tool prints counted, <not counted> and <not supported> lines whatever the machine's speed
run() {
	local tool=$1 mode=$2 out=$3 sep=()
	[ "$mode" = csv ] && sep=(-x,)
	rm -f "$TMP/go"
	mkfifo "$TMP/go"
	"$tool" stat -I 20 "${sep[@]}" -e "$ev" -o "$out" -- \
		sh -c "read x <'$TMP/go'; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done" &
	local pid=$!
	wait_for "$out" '<not counted>'
	echo go >"$TMP/go"
	wait $pid || fail "$tool stat -I exited $?"
	# perf -o starts with '# started on DATE' and a blank line
	sed -i -e '/^# started on /d' -e '/^$/d' "$out"
}
for mode in text csv; do
	run perf $mode "$TMP/perf.$mode"
	run "$SCHEDLENS" $mode "$TMP/sl.$mode"
done
"$SCHEDLENS" stat -x, -e "$ev" -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done' \
	2>"$TMP/sl.total" || fail "stat without -I failed"

python3 - "$TMP" "$ev" "$tp" <<'PY' || fail "stat -I differs from perf stat -I"
import re, sys
t, events, tp = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
bad = []
def shape(line):
    # each number (with the blanks that right-align it) as an N as wide, and the K/M/G step
    # of a rate out (each tool's own rate decides it) with the padding after it
    if "," in line:
        line = re.sub(r"\d+(\.\d+)?", "N", line)
    else:
        line = re.sub(r" *\d+(\.\d+)?", lambda m: "N".rjust(len(m.group(0))), line)
    return re.sub(r"[KMG]?/sec *", "/sec", line).rstrip()
for mode in ("text", "csv"):
    p, s = [open(f"{t}/{w}.{mode}").read().splitlines() for w in ("perf", "sl")]
    ps, ss = {shape(l) for l in p}, {shape(l) for l in s}
    if ps != ss:
        bad.append(f"{mode}: line shapes only schedlens prints: {sorted(ss - ps)}; only perf: {sorted(ps - ss)}")
    for tool, lines in (("perf", p), ("schedlens", s)):
        if mode == "text":
            heads = [i for i, l in enumerate(lines) if l.startswith("#")]
            if not heads or heads[0] != 0 or any(l != "#           time             counts unit events" for l in (lines[i] for i in heads)):
                bad.append(f"{tool} text: header lines {heads}")
            # perf's header again every 25 intervals
            if [h // (1 + 25 * len(events)) for h in heads] != list(range(len(heads))):
                bad.append(f"{tool} text: headers at {heads}")
            rows = [l.split()[0::1] for l in lines if not l.startswith("#")]
            stamps = [r[0] for r in rows]
            names = [next(w for w in r[1:] if w in events) for r in rows]
        else:
            rows = [l.split(",") for l in lines]
            if any(len(r) != 8 for r in rows):
                bad.append(f"{tool} csv: lines not of 8 fields: {[r for r in rows if len(r) != 8][:3]}")
                continue
            stamps = [r[0].strip() for r in rows]
            names = [r[3] for r in rows]
            if any(not re.fullmatch(r" *\d+\.\d{9}", r[0]) or len(r[0]) < 16 for r in rows):
                bad.append(f"{tool} csv: time not as perf's '%6lu.%09lu'")
        n = len(events)
        if len(names) % n or names != events * (len(names) // n):
            bad.append(f"{tool} {mode}: not every interval has the events in order: {names[:8]}")
            continue
        iv = [float(x) for x in stamps[::n]]
        if any(stamps[i] != stamps[i - i % n] for i in range(len(stamps))):
            bad.append(f"{tool} {mode}: one interval's lines have different times")
        if any(b <= a for a, b in zip(iv, iv[1:])) or len(iv) < 2:
            bad.append(f"{tool} {mode}: interval times not increasing: {iv}")
        if mode == "csv" and tp:
            execs = sum(int(r[1]) for r in rows if r[3] == tp and r[1][0] != "<")
            total = [int(r.split(",")[0]) for r in open(f"{t}/sl.total") if f",{tp}," in r]
            # the same command counted without -I, by schedlens: exec counts are exact
            print(f"{tool}: {tp} over {len(iv)} intervals sums to {execs}; without -I: {total}")
            if [execs] != total:
                bad.append(f"{tool}: {tp} deltas sum to {execs}, without -I {total}")
        if mode == "csv":
            # deltas: the task-clock of each interval is its run time, as perf prints it
            for r in rows:
                if r[3] == "task-clock" and r[1][0] != "<" and abs(float(r[1]) - int(r[4]) / 1e6) > 0.0051 + 0.01 * float(r[1]):
                    bad.append(f"{tool}: task-clock {r[1]} ms with run time {r[4]} ns")
for b in bad:
    print(b)
print(f"stat -I: text and csv compared with perf, {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
sed -n 1,6p "$TMP/perf.text" | sed 's/^/    perf:      /'
sed -n 1,6p "$TMP/sl.text" | sed 's/^/    schedlens: /'

# -a with --interval-count: system-wide intervals, perf's fields, both tools stopping at N
perf stat -a -I 20 --interval-count 2 -x, -e task-clock,context-switches 2>"$TMP/perf.a" ||
	fail "perf stat -a -I failed"
expect_rc 0 "$SCHEDLENS" stat -a -I 20 --interval-count 2 -x, -e task-clock,context-switches
python3 - "$TMP/perf.a" "$TMP/err" <<'PY' || fail "stat -a -I differs from perf's"
import re, sys
shape = lambda l: re.sub(r"[KMG]?/sec", "/sec", re.sub(r"\d+(\.\d+)?", "N", l.strip()))
p, s = ([l for l in open(f).read().splitlines() if l] for f in sys.argv[1:])
bad = []
if [shape(l) for l in s] != [shape(l) for l in p]:
    bad.append(f"lines {s}, perf {p}")
# system-wide: each interval's task-clock is the CPUs' time, its run time about the same
# (the clock's count and the context's running time are kept apart: within 1%, as stat.sh)
for l in s:
    f = l.split(",")
    if f[3] == "task-clock" and abs(float(f[1]) - int(f[4]) / 1e6) > 0.0051 + 0.01 * float(f[1]):
        bad.append(f"task-clock {f[1]} ms, run time {f[4]} ns")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# --interval-count N: N intervals, then the workload runs to its end unprinted (perf waits for
# it too) and its exit status passes through
mkfifo "$TMP/go2"
"$SCHEDLENS" stat -I 10 --interval-count 2 -x, -e task-clock,context-switches -o "$TMP/cnt" -- \
	sh -c "read x <'$TMP/go2'; exit 3" &
pid=$!
wait_for "$TMP/cnt" '^ *[0-9.]+,[^,]*,[^,]*,context-switches,'
# the second interval is the last: wait for it, then let the workload end
timeout 60 bash -c 'until [ "$(grep -c context-switches "$1")" -ge 2 ]; do :; done' _ "$TMP/cnt" ||
	fail "--interval-count 2: no second interval"
echo go >"$TMP/go2"
wait $pid
rc=$?
[ $rc -eq 3 ] || fail "--interval-count: exit $rc, expected the workload's 3"
[ "$(grep -c ',task-clock,' "$TMP/cnt")" -eq 2 ] || fail "--interval-count 2 printed: $(cat "$TMP/cnt")"

# Ctrl-C: system-wide, once an interval is printed: the interval under way is printed at once,
# nothing after it, and the exit is SIGINT's (perf stat re-raises it: 130)
for target in -a workload; do
	args=(-a)
	[ $target = workload ] && { rm -f "$TMP/ready"; mkfifo "$TMP/ready"; args=(-- sh -c "echo up >'$TMP/ready'; exec sleep 600"); }
	# timeout(1) a watchdog, not a synchronisation: a stat that never ends fails instead of
	# hanging. It passes the SIGINT on and ends as its command did. (It was a subshell `(sleep
	# 60; kill ...) &`: bash ran the EXIT trap of lib.sh in it when it was killed, and now and
	# then $TMP went with it, despite the trap's BASHPID check: 3 runs of 4 here.)
	timeout -s KILL 60 "$SCHEDLENS" stat -I 30 -x, -e task-clock,context-switches -o "$TMP/int" \
		"${args[@]}" &
	pid=$!
	[ $target = workload ] && read -r _ <"$TMP/ready"
	wait_for "$TMP/int" ',task-clock,'
	# the intervals printed before the signal, counted just before it without a fork (an
	# interval is 30 ms: a fork or two on a loaded machine can take as long, and an interval
	# printed between the count and the signal would count as one after it)
	before=0
	while IFS= read -r line; do
		[[ $line == *,task-clock,* ]] && before=$((before + 1))
	done <"$TMP/int"
	t0=${EPOCHREALTIME/./}
	kill -INT $pid
	wait $pid
	rc=$?
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	[ $rc -eq 130 ] || fail "Ctrl-C ($target): exit $rc, expected 130"
	[ -f "$TMP/int" ] || fail "Ctrl-C ($target): $TMP/int is gone after SIGINT: $(ls -la "$TMP" 2>&1)"
	after=$(grep -c ',task-clock,' "$TMP/int")
	# the one under way, and at most one that ended as the signal came
	[ "$after" -ge $((before + 1)) ] && [ "$after" -le $((before + 2)) ] ||
		fail "Ctrl-C ($target): $before intervals before, $after after"
	echo "Ctrl-C ($target): ended ${ms} ms after SIGINT, $after intervals printed"
done

# perf's checks and limits: -I 0 is no interval, --interval-count wants -I; perf 6.1 takes -I
# with -r but prints the first run's intervals only: refused here
expect_rc 0 "$SCHEDLENS" stat -I 0 -x, -e task-clock -- true
grep -Eq '^[0-9.]+,msec,task-clock,' "$TMP/err" || fail "-I 0: not the plain output"
expect_rc 0 "$SCHEDLENS" stat -I 5 -x, -e task-clock -- true
grep -Eq '^ +[0-9]+\.[0-9]{9},[0-9.]+,msec,task-clock,' "$TMP/err" || fail "-I 5: no interval line (perf 6.1 has no minimum)"
expect_rc 2 "$SCHEDLENS" stat --interval-count 2 -e task-clock -- true
grep -q 'interval-count goes with -I' "$TMP/err" || fail "--interval-count alone: no clear message"
expect_rc 2 "$SCHEDLENS" stat -I 100 -r 2 -e task-clock -- true
grep -q -- '-I cannot be combined with -r' "$TMP/err" || fail "-I with -r: no clear message"
for badv in x -1 1.5 ""; do
	expect_rc 2 "$SCHEDLENS" stat -I "$badv" -e task-clock -- true
done
expect_rc 2 "$SCHEDLENS" stat -I 100 --interval-count -1 -e task-clock -- true
expect_rc 2 "$SCHEDLENS" stat -I 100 --json -e task-clock -- true
echo ok
