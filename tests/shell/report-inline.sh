#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Inlined functions in callchains (report --children, -g, --folded, --focus) on the clones
# program (tests/data/clones.c: chase() inlined into main and cloned as chase.constprop.0,
# walk() as walk.isra.0):
#   - a --call-graph dwarf recording: the --children rows (children share, self share, name)
#     are perf 6.1's, "chase (inlined)" rows included, one per function it is inlined into;
#     with --no-inline, perf --no-inline's; -g caller's tree under the top entries is perf's;
#   - a frame-pointer recording: no inlined rows by default (perf has none there), and with
#     --inline the frames' inlined functions too (chase inlined into main);
#   - --focus with a list naming chase and walk: each one's self share is what annotate sums
#     for it (its clones and its inlined copies), walk's also perf's walk.isra.0 self share.
source "$(dirname "$0")/lib.sh"
need_perf
need_root
for t in gcc nm; do
	command -v $t >/dev/null || skip "$t is not installed"
done

cp "$SCHEDLENS_TOP/tests/data/clones.c" "$TMP/"
gcc -O2 -g -no-pie -fno-omit-frame-pointer -o "$TMP/clones" "$TMP/clones.c" ||
	fail "cannot build clones.c"
grep -q " chase.constprop.0\$" <(nm "$TMP/clones") ||
	skip "$(gcc --version | head -1) made no chase.constprop.0 of clones.c"
perf record -q -e cpu-clock --call-graph dwarf -o "$TMP/d.data" -- "$TMP/clones" 1 \
	>/dev/null 2>"$TMP/rec.err" || { cat "$TMP/rec.err"; fail "perf record --call-graph dwarf failed"; }
perf record -q -e cpu-clock -g -o "$TMP/g.data" -- "$TMP/clones" 1 \
	>/dev/null 2>"$TMP/rec.err" || { cat "$TMP/rec.err"; fail "perf record -g failed"; }
perf script -i "$TMP/d.data" 2>/dev/null | grep -qE " chase\+0x[0-9a-f]+ \(inlined\)" ||
	skip "perf script shows no inlined chase in the DWARF recording (no libdw unwinding?)"

# within A B D: |A - B| <= D
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; exit !(x <= d && -x <= d) }'; }

# the rows of a --children table, sorted: "CHILDREN SELF NAME" (equal
# shares come in another order in perf's, which puts a caller above its callee; below, a
# sample in ld.so's assembly mprotect is __GI_mprotect (inlined) in perf's, whose addr2line
# finds the assembler's DWARF function there, where libdw's lookup by address does not)
rows() { awk '/^ +[0-9.]+% +[0-9.]+% /' | sed -E 's/^ +//; s/  +/ /g' | sort; }
# the shares by name, of at least 0.5% (the program's rows: ld.so's start-up has a sample or
# three, named otherwise where noted above): perf 6.1 sometimes has one symbol twice (the
# program's _start as 19.84% and 80.08% in one run under taskset -c 0, 99.92% in others;
# walk.isra.0 as 18.44% and a row below 0.1%), and equal names sum alike on both sides; each
# sum within 0.02 (rounded shares)
by_name() {
	awk '{ c = $1; s = $2; sub("%", "", c); sub("%", "", s); $1 = $2 = ""; sub(/^ +/, "")
	       ch[$0] += c; se[$0] += s }
	     END { for (n in ch) if (ch[n] >= 0.5) printf "%s|%.2f|%.2f\n", n, ch[n], se[n] }' "$1" |
		sort
}
children() { # FILE WHAT [OPTIONS]
	local in=$1 what=$2
	shift 2
	perf report -i "$in" --children --stdio --sort sym -g none "$@" 2>/dev/null | rows >"$TMP/want"
	"$SCHEDLENS" report -i "$in" --children --sort sym --no-cache "$@" 2>"$TMP/err" |
		rows >"$TMP/have"
	[ -s "$TMP/have" ] || { cat "$TMP/err"; fail "$what: no rows"; }
	join -t'|' -a1 -a2 -e NONE -o 0,1.2,1.3,2.2,2.3 <(by_name "$TMP/want") <(by_name "$TMP/have") |
		awk -F'|' '$2 == "NONE" || $4 == "NONE" || $2 - $4 > 0.02 || $4 - $2 > 0.02 ||
			   $3 - $5 > 0.02 || $5 - $3 > 0.02' >"$TMP/diff"
	[ ! -s "$TMP/diff" ] || { head -20 "$TMP/diff"; fail "$what: the rows differ from perf's"; }
	echo "    $what: $(wc -l <"$TMP/have") rows, perf's"
}

children "$TMP/d.data" "dwarf --children"
n=$(grep -c " \[\.\] chase (inlined)\$" "$TMP/have")
[ "$n" -eq 2 ] || fail "dwarf --children: $n rows of chase (inlined), want 2 (main's, the clone's)"
grep -q " \[\.\] walk (inlined)\$" "$TMP/have" || fail "dwarf --children: no walk (inlined) row"
children "$TMP/d.data" "dwarf --children --no-inline" --no-inline
grep -q "(inlined)" "$TMP/have" && fail "--no-inline: inlined rows"

# -g caller: the tree under each entry of at least 1% equals perf's
perf report -i "$TMP/d.data" --no-children --stdio --sort sym -g caller 2>/dev/null |
	awk '/^ +[0-9.]+%/ { on = $1 + 0 >= 1 } on && !/^#/' >"$TMP/want"
"$SCHEDLENS" report -i "$TMP/d.data" --sort sym -g caller --no-cache 2>/dev/null |
	awk '/^ +[0-9.]+%/ { on = $1 + 0 >= 1 } on && !/^#/' >"$TMP/have"
grep -q -- "--chase (inlined)" "$TMP/have" || fail "-g caller: no chase (inlined) branch"
diff "$TMP/want" "$TMP/have" >"$TMP/diff" || { head -20 "$TMP/diff"; fail "-g caller: the trees differ"; }
echo "    dwarf -g caller: $(wc -l <"$TMP/have") lines, perf's"

# frame pointers: perf shows no inlined frames; --inline asks for them
children "$TMP/g.data" "fp --children"
grep -q "(inlined)" "$TMP/have" && fail "fp --children: inlined rows without --inline"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/g.data" --children --inline --sort sym --no-cache
cp "$TMP/out" "$TMP/fp-inline"
grep -q " \[\.\] chase (inlined) *\$" "$TMP/fp-inline" || fail "fp --inline: no chase (inlined) row"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/g.data" --folded --inline --no-cache
grep -q ";main;chase " "$TMP/out" || fail "fp --folded --inline: no main;chase stack"

# --focus: self of chase and walk, clones and inlined copies summed, as annotate sums them
printf 'chase\nwalk\n' >"$TMP/fns.list"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/g.data" --focus "$TMP/fns.list" --no-cache
cp "$TMP/out" "$TMP/focus"
cat "$TMP/focus"
focus_self() { awk -v f="$1" '/^# hottest/ { exit } $NF == f && /%/ { sub("%", "", $1); print $1 }' "$TMP/focus"; }
for fn in chase walk; do
	expect_rc 0 "$SCHEDLENS" annotate "$fn" -i "$TMP/g.data" --no-cache
	want=$(sed -n 2p "$TMP/out" | grep -oE '\(([0-9.]+)% of all' | awk '{ gsub(/[(%]/, ""); s += $1 } END { printf "%.2f", s }')
	have=$(focus_self "$fn")
	echo "    focus $fn self: $have%, annotate's pieces: $want%"
	within "${have:-0}" "$want" 0.03 || fail "focus $fn: self $have%, annotate sums $want%"
done
perf report -i "$TMP/g.data" --no-children --stdio --sort sym -g none 2>/dev/null >"$TMP/perf-sym"
want=$(awk '$3 == "walk.isra.0" { sub("%", "", $1); print $1 }' "$TMP/perf-sym")
have=$(focus_self walk)
echo "    focus walk self: $have%, perf walk.isra.0: $want%"
within "${have:-0}" "$want" 0.011 || fail "focus walk: $have%, perf's walk.isra.0 $want%"
exit 0
