#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --call-graph dwarf: a program built without frame pointers (main -> outer -> middle ->
# inner) is recorded with user stacks; schedlens script unwinds them through the CFI, and
# each sample's frames in the program equal perf script's unwinding of the same file, and
# report --children gives the callers perf's shares (within a point). perf
# can unwind the file at all only because record asks for the read-only mappings too.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"
gcc -g -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$TMP/deepstack" \
	"$SCHEDLENS_TOP/tests/data/deepstack.c" || fail "cannot build deepstack"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 1000000 --call-graph dwarf -o "$TMP/ds.data" \
	-- "$TMP/deepstack" 0.5

# one line per sample, keyed by its time: the frames in deepstack, innermost first (a sample
# whose frames one tool finds and the other not must not shift the others)
frames() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { if (t) print t c; t = $i; c = ""; next } }
	/deepstack\)$/ { c = c " " $1 } END { if (t) print t c }' | sort; }
"$SCHEDLENS" script -i "$TMP/ds.data" 2>"$TMP/err" | frames >"$TMP/ours" ||
	{ cat "$TMP/err"; fail "script failed"; }
perf script -i "$TMP/ds.data" -F time,ip,dso 2>/dev/null | frames >"$TMP/perf"
n=$(awk 'NF > 1' "$TMP/perf" | wc -l)
[ "$n" -ge 100 ] || skip "only $n samples in the program (perf could not unwind or too few)"
[ "$(wc -l <"$TMP/ours")" = "$(wc -l <"$TMP/perf")" ] ||
	fail "$(wc -l <"$TMP/ours") samples in schedlens script, $(wc -l <"$TMP/perf") in perf script"
same=$(paste -d'|' "$TMP/ours" "$TMP/perf" | awk -F'|' 'NF == 2 && $1 == $2 && split($1, a, " ") > 1' | wc -l)
deep=$(awk 'NF >= 5' "$TMP/ours" | wc -l)
awk -v s="$same" -v n="$n" 'BEGIN { exit !(s >= 0.95 * n) }' ||
	fail "only $same of $n samples unwound as perf does"
awk -v d="$deep" -v n="$n" 'BEGIN { exit !(d >= 0.9 * n) }' ||
	fail "only $deep of $n samples reach main (4 frames or more)"
# the common chain is inner <- middle <- outer <- main, by perf's names for those addresses
chain=$(cut -d' ' -f2- "$TMP/ours" | sort | uniq -c | sort -rn | awk 'NR == 1 { $1 = ""; print }')
names=$(perf script -i "$TMP/ds.data" -F ip,sym 2>/dev/null | awk '{ print $1, $2 }' | sort -u |
	awk -v c="$chain" 'BEGIN { n = split(c, a, " "); for (i = 1; i <= n; i++) want[a[i]] = i }
		$1 in want { name[want[$1]] = $2 } END { for (i = 1; i <= 4; i++) printf "%s ", name[i] }')
[ "$names" = "inner middle outer main " ] || fail "most common chain is '$names'"

# report --children: the callers get their shares through the unwound frames, as in perf
"$SCHEDLENS" report -i "$TMP/ds.data" --children --sort sym >"$TMP/rep" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "report --children failed"; }
perf report -i "$TMP/ds.data" --children --sort sym --stdio -g none 2>/dev/null >"$TMP/prep"
for fn in inner middle outer main; do
	o=$(awk -v f="$fn" '$4 == f { sub("%", "", $1); print $1; exit }' "$TMP/rep")
	p=$(awk -v f="$fn" '$4 == f { sub("%", "", $1); print $1; exit }' "$TMP/prep")
	[ -n "$o" ] && [ -n "$p" ] || fail "$fn: schedlens '${o:-}' perf '${p:-}' children share"
	awk -v o="$o" -v p="$p" 'BEGIN { d = o - p; exit !(d <= 1 && d >= -1) }' ||
		fail "$fn: children share $o% here, $p% in perf"
	echo "$fn: children $o% (perf $p%)"
done
echo "dwarf unwinding: $same of $n samples equal perf's, $deep reach main; chain: $names"

# vdso_samples PROGRAM CALLERS_RE [SCRIPT ARGS...]: PROGRAM (tests/data/PROGRAM.c, -O2, its
# own gcc flags in $cflags) recorded with DWARF stacks; the frames under its vDSO samples as
# script prints them in $TMP (the input by a relative path, as the default perf.data is)
# against perf script's, where perf unwinds them through CALLERS_RE
vdso() { awk '/\[vdso\]\)$/ { v = 1; n++; next } v && /^\t/ { c[n] = c[n] " " $2; next }
	{ v = 0 } END { for (i = 1; i <= n; i++) print c[i] }' | sort | uniq -c; }
vdso_samples() {
	local prog=$1 re=$2 nv
	shift 2
	gcc -g -O2 $cflags -o "$TMP/$prog" "$SCHEDLENS_TOP/tests/data/$prog.c" || fail "cannot build $prog"
	expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 1000000 --call-graph dwarf \
		-o "$TMP/$prog.data" -- "$TMP/$prog" 0.3
	(cd "$TMP" && "$SCHEDLENS" script -i "$prog.data" "$@" 2>/dev/null) | vdso >"$TMP/ours"
	perf script -i "$TMP/$prog.data" "$@" 2>/dev/null | vdso >"$TMP/perf"
	nv=$(awk '{ n += $1 } END { print n + 0 }' "$TMP/perf")
	if [ "$nv" -lt 5 ]; then
		echo "$prog: only $nv samples in the vDSO (its clock a system call here?): not compared"
		return
	fi
	grep -Eq "$re" "$TMP/perf" || fail "$prog: perf does not unwind the vDSO samples: $(head -3 "$TMP/perf")"
	cmp -s "$TMP/ours" "$TMP/perf" ||
		{ diff "$TMP/ours" "$TMP/perf" | head; fail "$prog $*: vDSO samples unwound otherwise than perf's"; }
	echo "$prog $*: $nv vDSO samples unwound into their callers as perf's"
}
# a sample in the vDSO unwinds into its callers through the vDSO image's CFI, as perf's: the
# first vDSO sample too, before anything else looked the vDSO up; the vDSO's copy beside the
# recording (FILE.vdso) by a relative path where the input is (no vDSO sample was unwound)
cflags= vdso_samples vdsoloop ' now'
# where no walk went through libc before: the vDSO samples alone (-S) of a program whose
# frame pointer leads astray, so the first one's walk reports libc (its module is reported
# before libdw is asked whether the frame is an activation, which unwinds it: before, that
# caller came from the frame pointer: "[unknown]")
cflags=-fomit-frame-pointer vdso_samples vdsodeep ' tick\+0x[0-9a-f]* spin\+' -S __vdso_clock_gettime
