#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# annotate FUNC sums the function, its compiler clones and its inlined copies. The program
# (tests/data/clones.c, gcc -O2 -g -no-pie) has chase() as chase.constprop.0 and inlined into
# main, and walk() as walk.isra.0, checked with nm. On a perf record of it: each piece's share
# against perf report --sort sym, each piece's samples and each line's against addr2line -i -f
# on the sampled addresses (the innermost frame, and the frame it is inlined into); unknown
# names and their suggestions; --source with the source moved elsewhere.
source "$(dirname "$0")/lib.sh"
need_perf
need_root
for t in gcc nm addr2line; do
	command -v $t >/dev/null || skip "$t is not installed"
done

mkdir -p "$TMP/proj/src" "$TMP/moved" "$TMP/flat" "$TMP/empty"
cp "$SCHEDLENS_TOP/tests/data/clones.c" "$TMP/proj/src/"
(cd "$TMP/proj" && gcc -O2 -g -no-pie -o clones src/clones.c) || fail "cannot build clones.c"
bin=$TMP/proj/clones
nm "$bin" >"$TMP/nm"
for sym in chase.constprop.0 walk.isra.0; do
	grep -q " $sym\$" "$TMP/nm" || skip "$(gcc --version | head -1) made no $sym of clones.c"
done

perf record -q -e cpu-clock -o "$TMP/p.data" -- "$bin" 1 >/dev/null 2>"$TMP/rec.err" ||
	{ cat "$TMP/rec.err"; fail "perf record failed"; }

# every sampled address of the binary, with perf's symbol, and addr2line's inline chain
perf script -i "$TMP/p.data" -F ip,sym,dso 2>/dev/null |
	awk -v b="($bin)" '$NF == b { print $1, $2 }' >"$TMP/ips"
[ -s "$TMP/ips" ] || fail "perf script shows no samples in $bin"
awk '{ print "0x" $1 }' "$TMP/ips" | addr2line -a -i -f -e "$bin" |
	awk '/^0x/ { if (n) print rec; rec = ""; n = 0; next }
	     { sub(/ \(discriminator [0-9]+\)/, ""); if (n % 2) sub(/.*\//, "");
	       rec = rec (n ? " " : "") $0; n++ }
	     END { if (n) print rec }' >"$TMP/a2l"
[ "$(wc -l <"$TMP/a2l")" -eq "$(wc -l <"$TMP/ips")" ] || fail "addr2line answered $(wc -l <"$TMP/a2l") of $(wc -l <"$TMP/ips") addresses"
# per sample: perf's symbol, then addr2line's innermost function, its line, outer function...
paste -d' ' <(awk '{ print $2 }' "$TMP/ips") "$TMP/a2l" >"$TMP/chain"
awk '$2 == "chase" && $4 == "main"' "$TMP/chain" | grep -q . ||
	skip "no sample of chase inlined into main: $(gcc --version | head -1) did not inline it"

perf report -i "$TMP/p.data" --sort sym --stdio 2>/dev/null >"$TMP/perf-sym"
perf_share() { awk -v s="$1" '$3 == s { sub("%", "", $1); print $1 }' "$TMP/perf-sym"; }

for fn in chase walk; do
	expect_rc 0 "$SCHEDLENS" annotate "$fn" -i "$TMP/p.data" --no-cache
	cp "$TMP/out" "$TMP/ann-$fn"
	cat "$TMP/out"
	sed -n 2p "$TMP/out" | grep -q "^# [0-9] pieces\? summed: " || fail "no pieces line for $fn"
done

# shares of the clones against perf report --sort sym (period shares; both round to 0.01)
for sym in chase.constprop.0 walk.isra.0; do
	cp "$TMP/ann-${sym%%.*}" "$TMP/out"
	line=$(sed -n 2p "$TMP/out" | tr ';' '\n' | grep -F " $sym ") || fail "$sym is not named as a piece"
	ours=$(sed -E 's/.*\(([0-9.]+)% of all.*/\1/' <<<"$line")
	theirs=$(perf_share "$sym")
	[ -n "$theirs" ] || fail "perf report shows no $sym"
	echo "$sym: schedlens $ours% of all, perf report --sort sym $theirs%"
	awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; exit !(d <= 0.011 && d >= -0.011) }' ||
		fail "$sym: $ours% differs from perf's $theirs%"
done
grep -q "chase inlined into main " "$TMP/ann-chase" || fail "chase inlined into main is not named"

# samples per piece and per line against addr2line: annotate -n counts samples
expect_rc 0 "$SCHEDLENS" annotate chase -i "$TMP/p.data" -n
sed -n 2p "$TMP/out" | tr ';' '\n' | sed -E 's/^ *(# [0-9]+ pieces? summed: )?//' |
	sed -E 's/^(.*) [0-9.]+% \([0-9.]+% of all, ([0-9]+) samples\)$/\1|\2/' >"$TMP/pieces"
cat "$TMP/pieces"
while IFS="|" read -r name n; do
	case $name in
	"chase inlined into "*)
		host=${name#chase inlined into }
		want=$(awk -v h="$host" '$1 == h && $2 == "chase"' "$TMP/chain" | wc -l) ;;
	*)
		want=$(awk -v s="$name" '$1 == s && $2 == "chase"' "$TMP/chain" | wc -l) ;;
	esac
	echo "piece '$name': schedlens $n samples, addr2line $want"
	[ "$n" -eq "$want" ] || fail "piece '$name': $n samples, addr2line says $want"
done <"$TMP/pieces"
total=$(awk '$2 == "chase"' "$TMP/chain" | wc -l)
head -1 "$TMP/out" | grep -q ": $total samples," || fail "annotate chase does not count addr2line's $total samples"
# the lines: addr2line's innermost line of each sample whose innermost function is chase
awk '$2 == "chase" { n[$3]++ } END { for (l in n) print l, n[l] }' "$TMP/chain" | sort >"$TMP/a2l-lines"
grep -v '^#' "$TMP/out" | sed 's/^\*/ /' | awk '{ print $4, $3 }' | sort >"$TMP/our-lines"
diff "$TMP/a2l-lines" "$TMP/our-lines" || fail "annotate chase -n lines differ from addr2line's (< addr2line, > annotate)"
echo "chase: $total samples in $(wc -l <"$TMP/our-lines") lines, each as addr2line -i -f"

# a clone typed as such is that clone alone
expect_rc 0 "$SCHEDLENS" annotate chase.constprop.0 -i "$TMP/p.data"
sed -n 2p "$TMP/out" | grep -q '^# 1 piece summed: chase.constprop.0 100.00%' || fail "chase.constprop.0 is not alone"

# unknown names: exit 2 with the nearest sampled names
expect_rc 2 "$SCHEDLENS" annotate chas -i "$TMP/p.data"
grep -q "no samples in 'chas'.*nearest sampled: chase (" "$TMP/err" || { cat "$TMP/err"; fail "no suggestion for chas"; }
expect_rc 2 "$SCHEDLENS" annotate wlak -i "$TMP/p.data"
grep -q "nearest sampled: walk (" "$TMP/err" || { cat "$TMP/err"; fail "no suggestion for wlak"; }

# --source: the tree moved away; relative to the compilation directory, then a suffix
hot=$(grep -v '^#' "$TMP/ann-chase" | head -1 | sed 's/^\*/ /' | awk '{ print $4 }')
want=$(sed -n "${hot#*:}p" "$TMP/proj/src/clones.c" | sed 's/^[ \t]*//')
mv "$TMP/proj/src" "$TMP/moved/"
cp "$TMP/moved/src/clones.c" "$TMP/flat/"
expect_rc 0 "$SCHEDLENS" annotate chase -i "$TMP/p.data"
[ "$(grep -c "cannot read 'src/clones.c'" "$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "missing source not said once"; }
for dir in "$TMP/moved" "$TMP/flat"; do
	expect_rc 0 "$SCHEDLENS" annotate chase -i "$TMP/p.data" --source "$dir"
	got=$(grep -v '^#' "$TMP/out" | head -1)
	[[ $got == *"$hot "*"$want"* ]] || fail "--source $dir: '$got' lacks '$want'"
	[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "--source $dir: unexpected messages"; }
done
expect_rc 0 "$SCHEDLENS" annotate chase -i "$TMP/p.data" --source "$TMP/empty"
[ "$(grep -c "no file for 'src/clones.c' under '$TMP/empty'" "$TMP/err")" -eq 1 ] ||
	{ cat "$TMP/err"; fail "a file missing under --source is not said once"; }

# schedlens record gives the same pieces
expect_rc 0 "$SCHEDLENS" record -o "$TMP/s.data" -- "$TMP/proj/clones" 1
expect_rc 0 "$SCHEDLENS" annotate walk -i "$TMP/s.data" --source "$TMP/moved"
grep -q '^# 1 piece summed: walk.isra.0 100.00%' "$TMP/out" || { cat "$TMP/out"; fail "schedlens record: no walk.isra.0"; }
exit 0
