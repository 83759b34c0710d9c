#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A --call-graph dwarf recording made here, parsed in the mapping with the pages behind given
# back every 8 MB (its queued records fault in again when delivered: SCHEDLENS_MMAP=stacks) or
# read in chunks (SCHEDLENS_MMAP=0), the way left unset taken by what a page costs on the
# machine (either one), gives the same outputs; and either way it is read in memory that does
# not grow with the file. Split from perfdata-mmap.sh, which needs the fixtures: a clone without
# ../shared skipped all of it, so CI never ran this half.
source "$(dirname "$0")/lib.sh"
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
