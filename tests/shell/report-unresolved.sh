#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Frames without a symbol, as perf 6.1 reports them: a program linked at 0x400000 and
# stripped (tests/data/deepstack.c, frame pointers), so its frames have a map and no symbol
# (nor its PLT entries: perf names those only in a file with a symbol of its own).
# The sample's own row is at the frame's offset in the file, its callers' --children rows
# and the call graph at the address as sampled (perf's hist entry ip against its callchain
# node's ip). Checked against perf report on the same file: --children rows of at least
# 0.5% (by name: equal shares may come in another order), each program address in both
# forms, and the -g caller tree of the top entry.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"
command -v strip >/dev/null || skip "strip is not installed"

gcc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -no-pie -o "$TMP/ds" \
	"$SCHEDLENS_TOP/tests/data/deepstack.c" || fail "cannot build deepstack"
strip --strip-all "$TMP/ds" || fail "cannot strip deepstack"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 200000 -g -o "$TMP/u.data" -- "$TMP/ds" 0.4
export SCHEDLENS_NO_CACHE=1

# ROWS: "share name" of the rows of at least 0.5%, by name (dso and symbol columns)
rows() {
	awk '/^ +[0-9.]+%/ { c = $1; sub(/%/, "", c); if (c + 0 < 0.5) next
		$1 = ""; $2 = ""; sub(/^ +/, ""); print $0 "\t" c }' | sort
}
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --children --sort dso,sym
rows <"$TMP/out" >"$TMP/ours"
perf report -i "$TMP/u.data" --stdio --children -g none --sort dso,sym 2>/dev/null |
	rows >"$TMP/perf"
[ -s "$TMP/perf" ] || fail "perf report printed no rows"
cut -f1 "$TMP/ours" >"$TMP/ours.names"
cut -f1 "$TMP/perf" >"$TMP/perf.names"
cmp -s "$TMP/ours.names" "$TMP/perf.names" ||
	{ diff "$TMP/perf.names" "$TMP/ours.names" | head -20; fail "--children rows differ from perf's"; }
paste "$TMP/ours" "$TMP/perf" | awk -F'\t' '{ d = $2 - $4; if (d < 0) d = -d
	if (d > 0.02) { print; exit 1 } }' || fail "--children shares differ from perf's"
# the sampled frames in both forms: offsets below the link address, addresses above it
grep -qE '^ds \[\.\] 0x00000000000[0-9a-f]{5}	' "$TMP/ours" || fail "no row at a file offset"
grep -qE '^ds \[\.\] 0x00000000004[0-9a-f]{5}	' "$TMP/ours" || fail "no row at an address"
echo "    --children: $(wc -l <"$TMP/ours") rows equal, $(grep -c '^ds ' "$TMP/ours") of them ds's"

# the -g caller tree under the top entry, line for line
tree() { awk '/^ +[0-9.]+%/ { e++; next } e == 1 && /^$/ { exit } e == 1 { print }'; }
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --no-children -g caller --sort dso,sym
tree <"$TMP/out" | sed 's/ *$//' >"$TMP/ours.tree"
perf report -i "$TMP/u.data" --stdio --no-children -g caller --sort dso,sym 2>/dev/null |
	tree | sed 's/ *$//' >"$TMP/perf.tree"
grep -qE '[- ]0x4[0-9a-f]{5}$' "$TMP/ours.tree" ||
	{ cat "$TMP/ours.tree"; fail "no graph frame at an address"; }
cmp -s "$TMP/ours.tree" "$TMP/perf.tree" ||
	{ diff "$TMP/perf.tree" "$TMP/ours.tree" | head -20; fail "-g caller tree differs from perf's"; }
echo "    -g caller: $(wc -l <"$TMP/ours.tree") lines equal"

# the whole --children table and -g caller report, line for line: rows of equal shares in
# perf's order (a symbol's by its name, rows without one after and by address), unresolved
# callers at the level perf's walk leaves them (the frame's before it, outermost first), and
# the child's samples before its exec under the name exec gives it (comm__override(): the
# recorder forks it before the events are on, so its first comm is the exec's)
body() { grep -v '^#' | grep -v '^$' | sed 's/ *$//'; }
# (rows of garbage addresses without a map, "[unknown]", as a set: perf orders those by a
# difference that wraps past 2^63, not by a total order)
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --children -g none -n
body <"$TMP/out" >"$TMP/ours.all"
perf report -i "$TMP/u.data" --stdio --children -g none -n 2>/dev/null | body >"$TMP/perf.all"
for t in ours perf; do
	grep -v ' \[unknown\] ' "$TMP/$t.all" >"$TMP/$t.known"
	grep ' \[unknown\] ' "$TMP/$t.all" | sort >"$TMP/$t.unknown"
done
cmp -s "$TMP/ours.known" "$TMP/perf.known" && cmp -s "$TMP/ours.unknown" "$TMP/perf.unknown" ||
	{ diff "$TMP/perf.all" "$TMP/ours.all" | head -20; fail "--children table differs from perf's"; }
echo "    --children -g none -n: $(wc -l <"$TMP/ours.all") lines equal"
# (-g caller as sets of lines: perf orders equal shares of one thread by the depth of their
# chains, not transitively with the rest, so the order can follow the sort's algorithm; and
# the graph's lines without their tree drawing, as branches of equal shares may come in
# another order)
graphset() { sed '/^[ |]*$/d; s/^ *[ |-]*\([0-9.]*%--\)/\1/; /^ *[ |]*[^ |0-9-]/s/^[ |]*//' | sort; }
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --children -g caller
body <"$TMP/out" | graphset >"$TMP/ours.all"
perf report -i "$TMP/u.data" --stdio --children -g caller 2>/dev/null | body | graphset >"$TMP/perf.all"
cmp -s "$TMP/ours.all" "$TMP/perf.all" ||
	{ diff "$TMP/perf.all" "$TMP/ours.all" | head -20; fail "--children -g caller differs from perf's"; }
grep -q '^ *[0-9.]*% *[0-9.]*% *:[0-9]' "$TMP/ours.all" && fail "rows under a placeholder comm"
echo "    --children -g caller: $(wc -l <"$TMP/ours.all") lines equal as a set"

# --sort srcline: an address without a symbol or a line in a known DSO is perf's
# "SHORTNAME[ADDR]" (get_srcline() with show_addr), one row each, not all one "??:0"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --no-children -g none --sort srcline
grep -F '[' "$TMP/out" | body | sort >"$TMP/ours.sl"
perf report -i "$TMP/u.data" --stdio --no-children -g none --sort srcline 2>/dev/null |
	body | grep -F '[' | sort >"$TMP/perf.sl"
grep -q '  ds\[4[0-9a-f]*\]$' "$TMP/ours.sl" || { cat "$TMP/out"; fail "no srcline row at ds[ADDR]"; }
cmp -s "$TMP/ours.sl" "$TMP/perf.sl" ||
	{ diff "$TMP/perf.sl" "$TMP/ours.sl" | head; fail "srcline rows without a line differ from perf's"; }
echo "    --sort srcline: $(wc -l <"$TMP/ours.sl") rows at DSO[ADDR] equal"

# a report by dso (or comm, pid, cpu) alone reads no symbol table: the --no-symbols table,
# and none of the notes about symbols that a report by sym has (the stripped ds's)
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --sort dso,sym
grep -q '^# note: .*ds: stripped' "$TMP/out" || { cat "$TMP/out"; fail "--sort dso,sym: no note"; }
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --sort dso --no-symbols
mv "$TMP/out" "$TMP/dso.nosym"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/u.data" --sort dso
cmp -s "$TMP/out" "$TMP/dso.nosym" ||
	{ diff "$TMP/dso.nosym" "$TMP/out" | head; fail "--sort dso reads symbols"; }
grep -q '^ *[0-9.]*% *ds *$' "$TMP/out" || { cat "$TMP/out"; fail "--sort dso: no ds row"; }
echo "    --sort dso: the --no-symbols table, no notes about symbols"
