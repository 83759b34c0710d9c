#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# annotate on the hotline program recorded here: the pointer-chasing line comes first, with
# the share `perf report --sort srcline` gives it on the same file (within 1 point).
source "$(dirname "$0")/lib.sh"
need_perf
need_root
command -v gcc >/dev/null || skip "gcc is not installed"

src=$SCHEDLENS_TOP/tests/data/hotline.c
gcc -g -O1 -fno-omit-frame-pointer -o "$TMP/hotline" "$src" || fail "cannot build hotline"
hot=$(grep -n 'HOT' "$src" | cut -d: -f1)

expect_rc 0 "$SCHEDLENS" record -o "$TMP/hl.data" -- "$TMP/hotline" 0.5
expect_rc 0 "$SCHEDLENS" annotate chase -i "$TMP/hl.data"
cp "$TMP/out" "$TMP/ann"
cat "$TMP/ann"
first=$(grep -v '^#' "$TMP/ann" | head -1)
[[ $first == \** ]] || fail "hottest line is not marked: $first"
[[ $first == *"hotline.c:$hot "* ]] || fail "first line is not hotline.c:$hot: $first"
[[ $first == *'p = next[p];'* ]] || fail "source text missing: $first"
ours=$(awk '{ sub("%", "", $3); print $3 }' <<<"$first")

perf report -i "$TMP/hl.data" --sort srcline --stdio --no-children -g none 2>/dev/null >"$TMP/perf"
theirs=$(awk -v l="hotline.c:$hot" '$2 == l { sub("%", "", $1); print $1 }' "$TMP/perf")
[ -n "$theirs" ] || { cat "$TMP/perf"; fail "perf shows no hotline.c:$hot"; }
echo "hotline.c:$hot: schedlens $ours%, perf $theirs%"
awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }' ||
	fail "share $ours% differs from perf's $theirs% by more than 1 point"

# lines of an inlined function are marked with it (build_ring is static and called once)
expect_rc 0 "$SCHEDLENS" annotate main -i "$TMP/hl.data"
grep -q 'hotline.c:[0-9]* .*\[inlined build_ring\]' "$TMP/out" || { cat "$TMP/out"; fail "no inlined lines"; }

# per address where lines are not asked for; by sample count
expect_rc 0 "$SCHEDLENS" annotate chase -i "$TMP/hl.data" --addresses -n
grep -v '^#' "$TMP/out" | head -1 | grep -q ' 0x[0-9a-f]' || fail "no per-address rows"

# bad input
expect_rc 2 "$SCHEDLENS" annotate no_such_function -i "$TMP/hl.data"
grep -q "no samples in 'no_such_function'" "$TMP/err" || fail "no message for an absent function"
expect_rc 1 "$SCHEDLENS" annotate chase -i "$TMP/nonexistent.data"
grep -q "nonexistent.data" "$TMP/err" || fail "error does not name the file"
expect_rc 2 "$SCHEDLENS" annotate
expect_rc 2 "$SCHEDLENS" annotate chase --hot x
exit 0
