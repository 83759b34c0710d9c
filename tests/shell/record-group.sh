#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record -e '{A,B}': the group opened as perf record opens one (members on the leader's fd,
# disabled on the leader only) and described in the file (GROUP_DESC), so that perf evlist -g,
# perf report --header-only and perf report show the group as they do for perf's own file.
source "$(dirname "$0")/lib.sh"
need_perf
export LC_ALL=C
loop=(sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done')
perf record -q -o "$TMP/perf.data" -e '{cpu-clock,task-clock}' -- "${loop[@]}" 2>"$TMP/perf.err" ||
	skip "perf record cannot sample cpu-clock here: $(cat "$TMP/perf.err")"
expect_rc 0 "$SCHEDLENS" record -o "$TMP/sl.data" -e '{cpu-clock,task-clock}' -- "${loop[@]}"
written=$(sed -n 's/^record: \([0-9]*\) samples written.*/\1/p' "$TMP/err")

# perf evlist -g: the same group line (schedlens's file has its tracking event besides)
for f in perf sl; do
	perf evlist -g -i "$TMP/$f.data" >"$TMP/$f.g" 2>&1 || fail "perf evlist -g cannot read $f.data"
	perf report --header-only -i "$TMP/$f.data" 2>&1 | grep '^# group:' >"$TMP/$f.hdr"
	perf evlist -v -i "$TMP/$f.data" >"$TMP/$f.v" 2>&1
	perf report --stdio -i "$TMP/$f.data" 2>&1 | grep '^# Samples:' >"$TMP/$f.samples"
done
diff <(grep '^{' "$TMP/perf.g") <(grep '^{' "$TMP/sl.g") || fail "perf evlist -g: groups differ"
grep -qx '{cpu-clock,task-clock}' "$TMP/sl.g" || fail "perf evlist -g: no group: $(cat "$TMP/sl.g")"
diff "$TMP/perf.hdr" "$TMP/sl.hdr" || fail "perf report --header-only: group lines differ"
[ -s "$TMP/sl.hdr" ] || fail "perf report --header-only: no group line"
# perf report groups the columns: its 'anon group' line, with every sample schedlens wrote
# (perf prints the count as '996 ' or '1K': either is N)
sed -E 's/: [0-9]+[KMG ]? of /: N of /' "$TMP/perf.samples" |
	diff - <(sed -E 's/: [0-9]+[KMG ]? of /: N of /' "$TMP/sl.samples") ||
	fail "perf report: the group is not shown as perf's is"
# shown N: N as perf's report header prints a count (convert_unit(): over 1000 it divides by
# 1000 and says K, then M, G; else a blank), so that the count may be any size
shown() {
	awk -v n="$1" 'BEGIN { u = " "; split("K M G", us, " ");
		for (i = 1; i <= 3 && n > 1000; i++) { n = int(n / 1000); u = us[i] } printf "%d%s", n, u }'
}
grep -qF "# Samples: $(shown "$written") of events 'anon group { cpu-clock, task-clock }'" "$TMP/sl.samples" ||
	fail "perf report: $(cat "$TMP/sl.samples"), record wrote $written"
# schedlens report --header reads the group back as perf does
"$SCHEDLENS" report --header -i "$TMP/sl.data" | grep '^# group:' | diff "$TMP/sl.hdr" - ||
	fail "schedlens report --header: the group line differs from perf's"

# the attrs: the leader disabled, its member not (it counts when the leader does), ids (and
# LOST where the kernel has it) in read_format, no GROUP without sample reads (:S): as perf
# sets them. perf 6.1 puts sample ids as ID where schedlens uses IDENTIFIER.
# attrs.py PERF_V SL_V SAMPLE_READ: the group's attrs in perf evlist -v of perf's file and of
# schedlens's, field by field
cat >"$TMP/attrs.py" <<'PY'
import sys
def attrs(path):
    out = {}
    for line in open(path):
        name, _, rest = line.partition(": ")
        rest = rest.strip().replace("{ sample_period, sample_freq }", "period")
        out[name] = dict(kv.split(": ", 1) for kv in rest.split(", "))
    return out
p, s, sread = attrs(sys.argv[1]), attrs(sys.argv[2]), sys.argv[3] == "1"
bad = []
for ev in ("cpu-clock", "task-clock"):
    pf, sf = p.get(ev), s.get(ev)
    if not pf or not sf:
        bad.append(f"{ev}: missing (perf {list(p)}, schedlens {list(s)})")
        continue
    for k in ("type", "config", "period", "disabled", "inherit", "freq", "sample_id_all"):
        if pf.get(k) != sf.get(k):
            bad.append(f"{ev}: {k} '{sf.get(k)}', perf '{pf.get(k)}'")
    if sread and "READ" not in sf["sample_type"].split("|"):
        bad.append(f"{ev}: no READ in sample_type {sf['sample_type']}")
    rp = set(pf.get("read_format", "").split("|"))
    rs = set(sf.get("read_format", "").split("|"))
    # with :S the member's own read_format has no GROUP here (the leader's shapes the samples)
    if sread and ev == "task-clock":
        rp -= {"GROUP"}
    if rp != rs:
        bad.append(f"{ev}: read_format {rs}, perf {rp}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
python3 "$TMP/attrs.py" "$TMP/perf.v" "$TMP/sl.v" 0 || fail "group attrs differ from perf's"

# the kernel sees one group: the member opened on the leader's fd (perf_event_open's group_fd)
if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer cannot run under ptrace (the sanitizer build's test): leaks unchecked here
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=perf_event_open -o "$TMP/trace" \
		"$SCHEDLENS" record -o "$TMP/st.data" -e '{cpu-clock,task-clock}' -- true 2>/dev/null ||
		fail "record under strace failed"
	python3 - "$TMP/trace" <<'PY' || fail "the group is not opened as one"
import re, sys
lead, bad, n = {}, [], 0
for line in open(sys.argv[1]):
    m = re.search(r"config=PERF_COUNT_SW_(CPU_CLOCK|TASK_CLOCK).*\}, (-?\d+), (-?\d+), (-?\d+), \S+\) = (\d+)", line)
    if not m:
        continue
    ev, pid, cpu, group, fd = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))
    if ev == "CPU_CLOCK":
        lead[cpu] = fd
        if group != -1:
            bad.append(f"leader on cpu {cpu} opened in group {group}")
    else:
        n += 1
        if lead.get(cpu) != group:
            bad.append(f"task-clock on cpu {cpu}: group_fd {group}, leader's fd {lead.get(cpu)}")
print(f"strace: {n} task-clock fds, each on its cpu-clock leader's fd")
for b in bad:
    print(b)
sys.exit(1 if bad or not n else 0)
PY
else
	echo "group_fd not checked: no strace"
fi

# groups among other events, and several -e: GROUP_DESC names the leader's index and the size
expect_rc 0 "$SCHEDLENS" record -o "$TMP/mix.data" -e 'cpu-clock,{task-clock,page-faults}' \
	-e context-switches -- true
perf evlist -g -i "$TMP/mix.data" 2>&1 | grep -v '^dummy:tracking$' >"$TMP/mix.g"
printf 'cpu-clock\n{task-clock,page-faults}\ncontext-switches\n' | diff - "$TMP/mix.g" ||
	fail "perf evlist -g of a group among events"
expect_rc 0 "$SCHEDLENS" record -o "$TMP/two.data" -e '{cpu-clock,task-clock},{page-faults,context-switches}' -- true
perf report --header-only -i "$TMP/two.data" 2>&1 | grep '^# group:' >"$TMP/two.hdr"
printf '# group: {cpu-clock,task-clock}\n# group: {page-faults,context-switches}\n' |
	diff - "$TMP/two.hdr" || fail "two groups in one -e"

# what is not taken, with the reason (exit 2)
for bad in '{cpu-clock' 'cpu-clock}' '{}' '{cpu-clock,{task-clock}}' '{cpu-clock,task-clock}:u'; do
	expect_rc 2 "$SCHEDLENS" record -o "$TMP/bad.data" -e "$bad" -- true
	grep -qF "record: '$bad': " "$TMP/err" ||
		fail "-e '$bad': no message naming it: $(cat "$TMP/err")"
done
grep -q 'group modifiers' "$TMP/err" || fail "'}:u': no reason given"

# {A,B}:S: the leader samples and reads the group with each sample, the member only counts,
# as perf sets them up; perf report and perf script read the members' counts from the samples
perf record -q -o "$TMP/perf-s.data" -e '{cpu-clock,task-clock}:S' -- "${loop[@]}" 2>/dev/null ||
	fail "perf record of {cpu-clock,task-clock}:S failed"
expect_rc 0 "$SCHEDLENS" record -o "$TMP/sl-s.data" -e '{cpu-clock,task-clock}:S' -- "${loop[@]}"
written=$(sed -n 's/^record: \([0-9]*\) samples written.*/\1/p' "$TMP/err")
for f in perf-s sl-s; do
	perf evlist -v -i "$TMP/$f.data" >"$TMP/$f.v" 2>&1
	perf report --stdio -i "$TMP/$f.data" 2>&1 | grep '^# Samples:' >"$TMP/$f.samples"
done
# perf counts a sample per member read: the leader's samples times the group's size
grep -qxF "# Samples: $(shown $((2 * written))) of events 'anon group { cpu-clock, task-clock }'" "$TMP/sl-s.samples" ||
	fail "perf report of {..}:S: $(cat "$TMP/sl-s.samples"), record wrote $written samples"
perf script -i "$TMP/sl-s.data" -F event 2>&1 | sort | uniq -c >"$TMP/sl-s.script"
[ "$(awk '$2 == "cpu-clock:" { print $1 }' "$TMP/sl-s.script")" = "$written" ] &&
	[ "$(awk '$2 == "task-clock:" { print $1 }' "$TMP/sl-s.script")" = "$written" ] ||
	fail "perf script of {..}:S: $(cat "$TMP/sl-s.script"), record wrote $written samples"
python3 "$TMP/attrs.py" "$TMP/perf-s.v" "$TMP/sl-s.v" 1 || fail "{..}:S attrs differ from perf's"
echo ok
