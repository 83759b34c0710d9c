#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens script prints what perf script 6.1 printed for the fixtures (refs: the first
# lines of each, all of the local one, whose tracepoint payloads go through libtraceevent).
source "$(dirname "$0")/lib.sh"
need_fixtures
refs=$FIXTURES/real/refs
n=0
for f in "$FIXTURES"/real/*.data; do
	b=$(basename "$f")
	case $b in
	corrupt-*) continue ;;
	piped-features-6.12.data) continue ;;	# perf 6.1 names its event from a pipe feature
	esac
	r=$refs/$b.script_head.txt
	[ -f "$refs/$b.script_head.via-attr128-copy.txt" ] && r=$refs/$b.script_head.via-attr128-copy.txt
	lines=$(wc -l <"$r")
	"$SCHEDLENS" script -i "$f" | head -n "$lines" >"$TMP/out"
	diff -u "$r" "$TMP/out" || fail "$b: schedlens script differs from perf script"
	n=$((n + 1))
done
[ $n -ge 10 ] || fail "only $n fixtures compared"

# the whole of each fixture against perf script run here, line for line, symbols included.
# A file of another machine keeps its addresses unresolved here (the origin rules: neither
# this machine's /proc/kallsyms nor its files stand in for the recording machine's), which
# is what perf prints with an empty --symfs (without one perf names them from this
# machine's kallsyms and files: garbage). schedlens prints the same with and without that
# --symfs. One thing perf does besides: with --symfs it drops the callchain entries of a
# user DSO it cannot find (zen2's parallel_static_gcc); those are the only lines allowed to
# differ, and they are counted. Kernel modules are named as perf names them: [mod], or the
# file a build-id in the header names (snb-callgraph has both)
if command -v perf >/dev/null; then
	m=0 dropped=0
	mkdir -p "$TMP/nosymfs"
	for f in "$FIXTURES"/real/*.data; do
		b=$(basename "$f")
		case $b in corrupt-*) continue ;; esac
		perf script --symfs "$TMP/nosymfs" -i "$f" 2>/dev/null >"$TMP/perf.full"
		perf script -i "$f" 2>/dev/null >>"$TMP/perf.all"
		# perf 6.1 reads no file of a newer attr size (the arm64 6.5 ones): the heads above
		# compare those with refs made from a copy it could read
		[ -s "$TMP/perf.full" ] || { echo "  $b: perf script reads nothing of it, skipped"; continue; }
		"$SCHEDLENS" script -i "$f" 2>/dev/null >"$TMP/ours.full"
		"$SCHEDLENS" script --symfs "$TMP/nosymfs" -i "$f" 2>/dev/null |
			cmp -s - "$TMP/ours.full" || fail "$b: --symfs EMPTY changes what schedlens prints"
		diff "$TMP/perf.full" "$TMP/ours.full" >"$TMP/diff"
		if grep '^[<>]' "$TMP/diff" | grep -qvE '^> 	 +[0-9a-f]{1,12} \[unknown\] \(/'; then
			head -20 "$TMP/diff"
			fail "$b: schedlens script differs from perf script --symfs EMPTY run here"
		fi
		dropped=$((dropped + $(grep -c '^>' "$TMP/diff")))
		m=$((m + $(wc -l <"$TMP/perf.full")))
	done
	echo "every fixture's whole script equals perf script --symfs EMPTY's here ($m lines; $dropped" \
		"callchain entries of DSOs not found that perf drops with --symfs)"
	grep -q '(\[usbnet\])' "$TMP/perf.all" && grep -q '(/lib/modules/.*/ath9k.ko)' "$TMP/perf.all" ||
		fail "no module named both ways: the check above means less"
fi

f=$FIXTURES/local/sched-pingpong.data
ref=$FIXTURES/local/refs/sched-pingpong.script.txt
expect_rc 0 "$SCHEDLENS" script -i "$f"
# kernel addresses in ipi payloads are named only by the kernel that recorded them: all but
# those lines equal the ref made there; all of it equals perf script run here, which decides
# from the file's build-id, as schedlens does, whether this machine's kallsyms names them
diff -u <(grep -v ipi_send_cpu "$ref") <(grep -v ipi_send_cpu "$TMP/out") >"$TMP/diff" ||
	{ head -20 "$TMP/diff"; fail "sched-pingpong: script differs from the ref"; }
if command -v perf >/dev/null; then
	perf script -i "$f" 2>/dev/null | diff -u - "$TMP/out" >"$TMP/diff" ||
		{ head -20 "$TMP/diff"; fail "sched-pingpong: script differs from perf script here"; }
fi
# a file of another kernel gets the one warning that says what was not used; --kallsyms
# names the addresses and silences it
if ! grep -q 'ttwu_queue_wakelist+0x11d' "$TMP/out"; then
	grep -q "recorded on kernel .*: /proc/kallsyms not used.*(give --kallsyms FILE)" "$TMP/err" ||
		fail "another kernel's file without the origin warning: $(cat "$TMP/err")"
fi
printf 'ffffffff813aca00 t ttwu_queue_wakelist\nffffffff81450a50 T generic_smp_call_function_single_interrupt\n' >"$TMP/ks"
expect_rc 0 "$SCHEDLENS" script -i "$f" --kallsyms "$TMP/ks"
grep -q 'callsite=ttwu_queue_wakelist+0x2d callback=generic_smp_call_function_single_interrupt+0x0' "$TMP/out" ||
	fail "--kallsyms does not name the ipi payload addresses"
grep -q warning "$TMP/err" && fail "--kallsyms given and still a warning: $(cat "$TMP/err")"
# a recording made here, this boot: this machine's kallsyms names its payload addresses, as
# perf script names them
if [ "$(id -u)" -eq 0 ] && command -v perf >/dev/null &&
	[ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	ev=sched:sched_switch,sched:sched_waking
	[ -e /sys/kernel/tracing/events/ipi/ipi_send_cpu ] && ev=$ev,ipi:ipi_send_cpu
	perf record -q -a -e "$ev" -o "$TMP/here.data" -- \
		"$SCHEDLENS" bench pipe -l 300 >/dev/null 2>&1 || fail "perf record failed"
	expect_rc 0 "$SCHEDLENS" script -i "$TMP/here.data"
	grep -q warning "$TMP/err" && fail "a recording of this boot warns: $(cat "$TMP/err")"
	perf script -i "$TMP/here.data" 2>/dev/null | diff -u - "$TMP/out" >"$TMP/diff" ||
		{ head -20 "$TMP/diff"; fail "a recording of this boot: script differs from perf script"; }
	echo "a recording of this boot prints as perf script prints it"
	# a fixed period (-c) leaves PERF_SAMPLE_PERIOD out: perf prints the attr's period
	perf record -q -e cpu-clock -c 100000 -o "$TMP/np.data" -- ls -R /usr/share/doc >/dev/null 2>&1 ||
		fail "perf record -c failed"
	perf evlist -v -i "$TMP/np.data" 2>/dev/null | head -1 | grep -q 'PERIOD' &&
		fail "perf recorded PERIOD with -c: the check below means nothing"
	perf script -i "$TMP/np.data" 2>/dev/null >"$TMP/np.perf"
	"$SCHEDLENS" script -i "$TMP/np.data" | diff -u "$TMP/np.perf" - >"$TMP/diff" ||
		{ head -10 "$TMP/diff"; fail "a fixed-period recording: script differs from perf script"; }
	grep -q ' 100000 cpu-clock: ' "$TMP/np.perf" || fail "no attr period in perf's output"
else
	echo "note: no recording of this boot compared (needs root, perf and tracefs)"
fi
echo "$n fixtures and sched-pingpong ($(wc -l <"$ref") lines) print as perf script prints them"

# --all shows the other records; bad input fails with the byte offset
"$SCHEDLENS" script --all -i "$FIXTURES/real/celeron-hwevents-3.4.data" >"$TMP/all"
grep -q "PERF_RECORD_MMAP" "$TMP/all" && grep -q "PERF_RECORD_COMM" "$TMP/all" ||
	fail "--all does not show MMAP and COMM records"
expect_rc 1 "$SCHEDLENS" script -i "$FIXTURES/real/corrupt-zero-size-3.2.data"
grep -q "at byte offset 49104" "$TMP/err" || fail "corrupt file: $(cat "$TMP/err")"
expect_rc 2 "$SCHEDLENS" script --bogus
