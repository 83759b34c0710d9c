#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report with symbols: the snb fixture without symbols against perf's refs (addresses and
# shares); the hotline program by symbol and by source line against perf on the same file;
# per-DSO notes for missing debug info, a stripped binary and a vanished file with the rest
# still attributed; --focus, --folded, --children, -g, --percent-limit and the skid note; a
# --vmlinux of another kernel's build refused.
source "$(dirname "$0")/lib.sh"
need_fixtures

# 1. snb-callgraph-3.8.data --sort sym without symbols: every row of perf's ref (its top
#    rows) at the same address with the same share, to 0.01
snb=$FIXTURES/real/snb-callgraph-3.8.data
ref=$FIXTURES/real/refs/snb-callgraph-3.8.data.report_sym.txt
mkdir -p "$TMP/empty"
expect_rc 0 "$SCHEDLENS" report -i "$snb" --sort sym --symfs "$TMP/empty" -t '|'
awk -F'|' '{ print $4 "|" $2 }' "$TMP/out" >"$TMP/snb.ours"
awk '/^ +[0-9.]+%/ { p = $1; sub("%", "", p); print $2 " " $3 "|" p }' "$ref" >"$TMP/snb.ref"
rows=$(wc -l <"$TMP/snb.ref")
[ "$rows" -gt 30 ] || fail "ref has only $rows rows"
bad=$(awk -F'|' 'NR == FNR { ours[$1] = $2; next }
	!($1 in ours) || (ours[$1] - $2 > 0.0051 || $2 - ours[$1] > 0.0051) { n++; if (n < 5) print "  " $0 " ours " ours[$1] > "/dev/stderr" }
	END { print n + 0 }' "$TMP/snb.ours" "$TMP/snb.ref")
echo "snb --sort sym: $rows rows of perf's ref, $bad differ"
[ "$bad" -eq 0 ] || fail "$bad of $rows rows differ from perf's ref"
[ "$(wc -l <"$TMP/snb.ours")" -ge "$rows" ] || fail "fewer rows than perf's ref ($rows)"
grep -q "note: .*no kallsyms or vmlinux" "$TMP/err" || fail "no note for the unresolved kernel"

need_perf
need_root
command -v gcc >/dev/null || skip "gcc is not installed"
src=$SCHEDLENS_TOP/tests/data/hotline.c
hot=$(grep -n 'HOT' "$src" | cut -d: -f1)
gcc -g -O1 -fno-omit-frame-pointer -o "$TMP/hotline" "$src" || fail "cannot build hotline"

# 2. hotline by symbol and by line, against perf on the same file
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -g -o "$TMP/hl.data" -- "$TMP/hotline" 0.5
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort sym -t '|'
ours=$(awk -F'|' '$4 == "[.] chase" { print $2 }' "$TMP/out")
theirs=$(perf report -i "$TMP/hl.data" --sort sym --stdio --no-children -g none 2>/dev/null |
	awk '$2 == "[.]" && $3 == "chase" { sub("%", "", $1); print $1 }')
echo "chase: schedlens $ours%, perf $theirs%"
[ -n "$ours" ] && [ -n "$theirs" ] || fail "chase missing (schedlens '$ours', perf '$theirs')"
awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; exit !(d < 0.0051 && d > -0.0051) }' ||
	fail "chase share $ours% is not perf's $theirs%"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline -t '|'
first=$(head -1 "$TMP/out")
[[ $first == *"|hotline.c:$hot" ]] || fail "top srcline is not hotline.c:$hot: $first"
ours=$(cut -d'|' -f2 <<<"$first")
theirs=$(perf report -i "$TMP/hl.data" --sort srcline --stdio --no-children -g none 2>/dev/null |
	awk -v l="hotline.c:$hot" '$2 == l { sub("%", "", $1); print $1 }')
echo "hotline.c:$hot: schedlens $ours%, perf $theirs%"
awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; exit !(d <= 0.5 && d >= -0.5) }' ||
	fail "srcline share $ours% differs from perf's $theirs%"

# 3. options over the callchains
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --folded
total=$(awk '{ s += $NF } END { print s }' "$TMP/out")
grep -q '^hotline;.*main;chase [0-9]*$' "$TMP/out" || fail "no hotline;...;main;chase stack"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --stats
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort sym --children
awk '/^ +[0-9.]+%/ { c = $1; s = $2; sub("%", "", c); sub("%", "", s); if (c + 0.001 < s + 0) { print; exit 1 } }' \
	"$TMP/out" || fail "a children share is below its self share"
grep -E '^ +[0-9.]+% +[0-9.]+% +\[\.\] main$' "$TMP/out" >/dev/null || fail "no children row for main"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort dso,sym -g caller
awk '/\[\.\] chase$/ { e = 1; next } e && /^$/ { exit } e && /__libc_start_call_main$/ { c = 1 }
     e && c && /[ -]chase$/ { f = 1 } END { exit !f }' "$TMP/out" ||
	fail "no caller tree __libc_start_call_main ... chase under chase"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort sym --percent-limit 5 -t '|'
awk -F'|' '$2 < 5 { exit 1 }' "$TMP/out" || fail "--percent-limit 5 let a smaller row through"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --focus sched
grep -q '(any listed)' "$TMP/out" || fail "no focus totals"
awk '/^ +[0-9.]+% +[0-9.]+%/ { s = $1; t = $2; sub("%", "", s); sub("%", "", t); if (s + 0 > t + 0.001) exit 1 }' \
	"$TMP/out" || fail "a focus self share exceeds its through share"
if grep -q 'pvm_irq_enable' <("$SCHEDLENS" report -i "$TMP/hl.data" --sort sym 2>/dev/null); then
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort sym
	grep -q '# note: .*interrupt-enable' "$TMP/out" || fail "no skid note"
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort sym --skid-caller
	grep -qE '^ +[0-9.]+%.*irq_enable' "$TMP/out" && fail "--skid-caller kept pvm_irq_enable"
fi

# 4. missing debug info, stripped, vanished: noted per DSO, the rest still attributed
objcopy --strip-debug "$TMP/hotline" "$TMP/hl-nodebug"
objcopy --strip-all "$TMP/hotline" "$TMP/hl-stripped"
cp "$TMP/hotline" "$TMP/hl-vanished"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -o "$TMP/dso.data" -- sh -c \
	"'$TMP/hl-nodebug' 0.2; '$TMP/hl-stripped' 0.2; '$TMP/hl-vanished' 0.2"
rm "$TMP/hl-vanished"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/dso.data" --sort dso,sym
cat "$TMP/out" | head -30
grep -q "$TMP/hl-stripped: stripped" "$TMP/out" || fail "no note for the stripped binary"
grep -q "$TMP/hl-vanished: file not found" "$TMP/out" || fail "no note for the vanished file"
grep -qE '^ +[0-9.]+% +hl-nodebug +\[\.\] chase' "$TMP/out" ||
	fail "hl-nodebug's chase not attributed"
grep -qE 'hl-stripped +\[\.\] 0x' "$TMP/out" || fail "hl-stripped not shown by address"
grep -qE 'hl-vanished +\[\.\] 0x' "$TMP/out" || fail "hl-vanished not shown by address"
grep -qE '\[kernel\.kallsyms\] +\[k\] [a-z_]' "$TMP/out" || fail "kernel symbols not attributed"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/dso.data" --sort srcline
grep -qE ' chase\+[0-9]+$' "$TMP/out" || fail "no sym+offset for lines without debug info"
grep -q "$TMP/hl-nodebug: no debug info" "$TMP/out" || fail "no note for missing debug info"
grep -qE ' hotline\.c:[0-9]+$' "$TMP/out" && fail "source lines for binaries without debug info"

# 5. a vmlinux of another build than the recording's kernel (the file's BUILD_ID entry for
#    [kernel.kallsyms], from /sys/kernel/notes) is refused by report, annotate and script
kid=$(perf buildid-list -i "$TMP/hl.data" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
if [ -n "$kid" ]; then
	echo 'void _text(void) {} int main(void) { return 0; }' > "$TMP/vml.c"
	gcc -g -Wl,--build-id -o "$TMP/vmlinux" "$TMP/vml.c" || fail "cannot build a vmlinux"
	for c in "report --sort srcline" "annotate chase" script; do
		expect_rc 1 "$SCHEDLENS" $c -i "$TMP/hl.data" --vmlinux "$TMP/vmlinux"
		grep -q "'$TMP/vmlinux' is not the recorded kernel's vmlinux: build-id [0-9a-f]*, the recording's $kid" "$TMP/err" ||
			fail "$c: no refusal naming both build-ids: $(cat "$TMP/err")"
	done
else
	echo "skip: hl.data has no build-id for the kernel (/sys/kernel/notes unreadable): no refusal to check"
fi

# bad input
expect_rc 2 "$SCHEDLENS" report -i "$TMP/hl.data" --sort nosuchkey
expect_rc 2 "$SCHEDLENS" report -i "$TMP/hl.data" -g sideways
expect_rc 2 "$SCHEDLENS" report -i "$TMP/hl.data" --percent-limit x
expect_rc 1 "$SCHEDLENS" report -i "$TMP/hl.data" --focus no-such-list
grep -q 'no-such-list' "$TMP/err" || fail "unknown focus list not named"
exit 0
