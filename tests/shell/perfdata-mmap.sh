#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The ways of reading a file's data section give the same answers: read in chunks (the
# default, SCHEDLENS_MMAP=0 for every file) and parsed in place in the mapping (SCHEDLENS_MMAP=1,
# zero copy), on every fixture, the corrupt one's error included; and a --call-graph dwarf
# recording, parsed in the mapping with the pages behind given back every 8 MB (its queued
# records fault in again when delivered: SCHEDLENS_MMAP=stacks) or read in chunks, the way
# left unset taken by what a page costs on the machine (either one), gives the same outputs.
source "$(dirname "$0")/lib.sh"
need_fixtures
n=0
for f in "$FIXTURES"/real/*.data "$FIXTURES"/local/*.data; do
	for args in "report --stats" "report --sort comm,dso,sym --no-symbols" "sched --top 3"; do
		case $args in sched*) [[ $f == */local/* ]] || continue ;; esac
		# shellcheck disable=SC2086
		"$SCHEDLENS" $args -i "$f" >"$TMP/a" 2>&1
		a=$?
		# shellcheck disable=SC2086
		SCHEDLENS_MMAP=1 "$SCHEDLENS" $args -i "$f" >"$TMP/b" 2>&1
		b=$?
		[ "$a" = "$b" ] || fail "$(basename "$f") $args: exit $a read, $b mapped"
		diff -u "$TMP/a" "$TMP/b" >/dev/null ||
			{ diff -u "$TMP/a" "$TMP/b" | head -20; fail "$(basename "$f") $args: read and mapped differ"; }
		n=$((n + 1))
	done
done
echo "$n reads of the fixtures equal in chunks and in place"

command -v gcc >/dev/null || skip "gcc is not installed (the user-stack recording)"
gcc -g -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$TMP/deepstack" \
	"$SCHEDLENS_TOP/tests/data/deepstack.c" || fail "cannot build deepstack"
"$SCHEDLENS" record -e cpu-clock -c 100000 --call-graph dwarf -o "$TMP/ds.data" \
	-- "$TMP/deepstack" 1 >/dev/null 2>"$TMP/rec" || { cat "$TMP/rec"; skip "cannot record here"; }
size=$(stat -c %s "$TMP/ds.data")
# past three steps of pages given back (PD_DROP_STEP, 8 MB): 1 s at 100 us gave ~5,000 samples here
[ "$size" -gt $((24 << 20)) ] || skip "the recording is $size bytes, too small to give pages back"
for args in "script" "report -g caller --stdio" "report --children --sort dso,sym" "report --stats"; do
	# shellcheck disable=SC2086
	SCHEDLENS_MMAP=0 "$SCHEDLENS" $args -i "$TMP/ds.data" >"$TMP/a" 2>&1 || fail "$args: chunks failed"
	[ "$(wc -l <"$TMP/a")" -gt 10 ] || fail "dwarf recording, $args: $(wc -l <"$TMP/a") lines"
	for way in stacks ""; do
		# shellcheck disable=SC2086
		SCHEDLENS_MMAP=$way "$SCHEDLENS" $args -i "$TMP/ds.data" >"$TMP/b" 2>&1 ||
			fail "$args: SCHEDLENS_MMAP='$way' failed"
		diff -u "$TMP/a" "$TMP/b" >/dev/null || { diff -u "$TMP/a" "$TMP/b" | head -20
			fail "dwarf recording, $args: chunks and SCHEDLENS_MMAP='$way' differ"; }
	done
done
echo "a $((size >> 20)) MB --call-graph dwarf recording: chunks, the mapping and the default equal on 4 outputs"

# memory that does not grow with the file, either way: the recording three times over (a valid
# perf.data, tests/test-perfdata --replicate) read in about the peak RSS of one copy: it may
# grow by less than one copy's size. Mapped, with both CPUs busy it grew by up to 11 MB for
# 38 MB, the pages of up to two 8 MB steps and huge pages; alone by 3-7 MB; without the pages
# given back the 2 more copies are all resident at the end (86 MB more). Read, the chunks kept
# for queued records are bounded (8 MB).
rep=$(dirname "$SCHEDLENS")/tests/test-perfdata
[ -x "$rep" ] || { echo "no $rep: the memory check left out (make unit-bins)"; exit 0; }
"$rep" --replicate "$TMP/ds.data" "$TMP/ds3.data" 3 >/dev/null || fail "cannot replicate the recording"
peak_kb() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
for way in stacks 0; do
	export SCHEDLENS_MMAP=$way
	one=$(peak_kb "$SCHEDLENS" report --sort sym -i "$TMP/ds.data") || fail "report of one copy failed ($way)"
	three=$(peak_kb "$SCHEDLENS" report --sort sym -i "$TMP/ds3.data") ||
		fail "report of three copies failed ($way)"
	[ $((three - one)) -lt $((size >> 10)) ] || fail "SCHEDLENS_MMAP=$way: peak RSS $one kB for \
$((size >> 20)) MB, $three kB for three times that: it grows with the file"
	echo "SCHEDLENS_MMAP=$way: peak RSS $one kB for one copy, $three kB for three ($((3 * size >> 20)) MB)"
done
