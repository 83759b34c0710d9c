#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report -g caller|callee prints perf's call-graph tree (graph,0.5,percent): the tree under an
# entry equals perf report --stdio's on the same file line for line. The DWARF recording may
# name one frame differently (perf: the inlined __libc_start_main_impl, schedlens: the ELF
# alias perf picks for it elsewhere, __libc_start_main@@GLIBC_2.34), which is normalized;
# the frame-pointer one allows 0.01 in each percentage.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"

# the tree under entry N (1: the top one) of a report, or under the entry ending in $2
tree() {
	awk -v n="$1" -v name="${2:-}" '
		/^ +[0-9.]+%/ { e++; on = name == "" ? e == n : substr($0, length($0) - length(name) + 1) == name; next }
		on && /^$/ { exit }
		on { print }'
}

# same FILE_A FILE_B TOLERANCE WHAT: equal lines, percentages within TOLERANCE
same() {
	paste "$1" "$2" | awk -F'\t' -v tol="$3" '
		{ a = $1; b = $2
		  while (match(a, /[0-9]+\.[0-9][0-9]%/) && match(b, /[0-9]+\.[0-9][0-9]%/)) {
			match(a, /[0-9]+\.[0-9][0-9]%/); x = substr(a, RSTART, RLENGTH - 1)
			a = substr(a, 1, RSTART - 1) "P" substr(a, RSTART + RLENGTH)
			match(b, /[0-9]+\.[0-9][0-9]%/); y = substr(b, RSTART, RLENGTH - 1)
			b = substr(b, 1, RSTART - 1) "P" substr(b, RSTART + RLENGTH)
			d = x - y; if (d < 0) d = -d; if (d > tol + 1e-9) bad = 1
		  }
		  if (a != b || bad) { print NR ": " $1 " | " $2; exit 1 } }' ||
		fail "$4: trees differ"
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] || fail "$4: $(wc -l <"$1") lines, perf $(wc -l <"$2")"
	echo "    $4: $(wc -l <"$1") lines equal"
}

# 1, 2. DWARF unwinding, no frame pointers: main -> outer -> middle -> inner
gcc -g -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$TMP/deepstack" \
	"$SCHEDLENS_TOP/tests/data/deepstack.c" || fail "cannot build deepstack"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 1000000 --call-graph dwarf -o "$TMP/ds.data" \
	-- "$TMP/deepstack" 0.5
for g in caller callee; do
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/ds.data" --no-children -g $g --sort sym
	grep -q '^ *[0-9.]*% .*inner$' "$TMP/out" || fail "inner is not an entry"
	tree 1 <"$TMP/out" >"$TMP/ours"
	perf report -i "$TMP/ds.data" --stdio --no-children -g $g --sort sym 2>/dev/null |
		tree 1 >"$TMP/perf"
	# unwound through main, outer and middle (whether _start is reached as well depends on
	# where the stack lies for this run, for perf as for schedlens)
	frames=$(awk '{ print $NF }' "$TMP/ours" | sed 's/.*--//' | grep -xE 'main|outer|middle' | tr '\n' ' ')
	case $g in
	caller) want="main outer middle " ;;
	callee) want="middle outer main " ;;
	esac
	[ "$frames" = "$want" ] || { head -30 "$TMP/out"; fail "-g $g: not unwound through main, outer, middle: $frames"; }
	same "$TMP/ours" "$TMP/perf" 0 "deepstack -g $g, top entry"
done

# 3. frame pointers, branching trees: the top five entries, with and without --children, each
# found in perf's report by its name (entries of equal share may come in another order)
gcc -g -O1 -fno-omit-frame-pointer -o "$TMP/hotline" "$SCHEDLENS_TOP/tests/data/hotline.c" ||
	fail "cannot build hotline"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 100000 -g -o "$TMP/hl.data" -- "$TMP/hotline" 1
branches=0
for mode in --no-children --children; do
	for g in caller callee; do
		expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" $mode -g $g --sort sym
		cp "$TMP/out" "$TMP/rep"
		perf report -i "$TMP/hl.data" --stdio $mode -g $g --sort sym 2>/dev/null >"$TMP/prep"
		names=$(awk '/^ +[0-9.]+%/ { sub(/^ +[0-9.]+%( +[0-9.]+%)?  /, ""); print }' "$TMP/rep")
		[ -n "$names" ] || fail "$mode -g $g: no entries"
		while read -r name; do
			[ "$(grep -c -F -x -e "$name" <<<"$names")" -eq 1 ] || continue
			tree 0 "$name" <"$TMP/rep" >"$TMP/ours"
			tree 0 "$name" <"$TMP/prep" >"$TMP/perf"
			branches=$((branches + $(grep -c -- '--[0-9.]*%--' "$TMP/ours")))
			same "$TMP/ours" "$TMP/perf" 0.01 "hotline $mode -g $g, '$name'"
		done < <(head -5 <<<"$names")
	done
done
[ "$branches" -ge 4 ] || fail "only $branches branches in the trees compared"

# 4. -n with --children: the Samples column is each entry's own (self) samples, as perf's,
# entry by entry (by name: equal shares may come in another order)
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --children -g none -n --sort sym
samples() { awk '/^ +[0-9.]+% +[0-9.]+% +[0-9]+ / { n = $3; sub(/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +/, ""); print $0 "\t" n }' | sort; }
samples <"$TMP/out" >"$TMP/ours"
perf report -i "$TMP/hl.data" --stdio --children -g none -n --sort sym 2>/dev/null | samples >"$TMP/perf"
[ "$(wc -l <"$TMP/ours")" -ge 5 ] || fail "--children -n: $(wc -l <"$TMP/ours") entries"
awk -F '\t' '$2 == 0' "$TMP/ours" | grep -q . || fail "--children -n: no entry without samples of its own"
cmp -s "$TMP/ours" "$TMP/perf" || { diff "$TMP/ours" "$TMP/perf" | head; fail "--children -n: samples differ from perf's"; }
