#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --children by keys other than the symbol, as perf 6.1 reports them: a sample counts once
# in each row its callchain passes through (perf's he_cache, by the sort keys), so a DSO's
# or a thread's children share is at most 100%; the pid key is perf's thread ("TID:COMM",
# the comm it has at the end), the cpu three digits; --show-total-period's Period column is
# the row's own period. A file without callchains has no
# children column: perf drops --children there. Compared with perf report on the same files
# (rows and graph lines as sets: perf may order equal shares otherwise; the column heads
# line for line). -g on a file without callchains is refused, as perf refuses it.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"

gcc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$TMP/ds" \
	"$SCHEDLENS_TOP/tests/data/deepstack.c" || fail "cannot build deepstack"
# two processes of the program and a shell: three threads, four DSOs and the kernel
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 200000 -g -o "$TMP/g.data" -- \
	sh -c "'$TMP/ds' 0.2 & '$TMP/ds' 0.2; wait"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 200000 -o "$TMP/n.data" -- "$TMP/ds" 0.2
export SCHEDLENS_NO_CACHE=1

# the rows and call-graph lines as a set, the graph's without their tree drawing (branches
# of equal shares may come in another order: lines of '|' alone left out)
rows() { grep -v '^#' | grep -v '^$' | sed 's/ *$//; /^[ |]*$/d; s/^ *[ |-]*\([0-9.]*%--\)/\1/; /^ *[ |]*[^ |0-9-]/s/^[ |]*//' | sort; }
# the column heads: the line above the dots
heads() { grep -B1 '^# \.\.\.' | grep -v '^# \.' | sed 's/ *$//'; }
# compare FILE ARGS...: schedlens's rows and column heads against perf's
compare() {
	local f=$1
	shift
	expect_rc 0 "$SCHEDLENS" report -i "$f" "$@"
	rows <"$TMP/out" >"$TMP/ours"
	heads <"$TMP/out" >"$TMP/ours.h"
	perf report -i "$f" --stdio "$@" 2>/dev/null >"$TMP/perf.out"
	rows <"$TMP/perf.out" >"$TMP/perf"
	heads <"$TMP/perf.out" >"$TMP/perf.h"
	[ -s "$TMP/perf" ] || fail "perf report $* printed no rows"
	cmp -s "$TMP/ours" "$TMP/perf" ||
		{ diff "$TMP/perf" "$TMP/ours" | head -20; fail "report $*: rows differ from perf's"; }
	cmp -s "$TMP/ours.h" "$TMP/perf.h" ||
		{ diff "$TMP/perf.h" "$TMP/ours.h"; fail "report $*: column heads differ from perf's"; }
	echo "    $*: $(wc -l <"$TMP/ours") rows equal"
}

compare "$TMP/g.data" --children -g none --sort dso
awk '$1 + 0 > 100 { bad = 1 } END { exit bad }' "$TMP/ours" || fail "a DSO's children share over 100%"
grep -q '\[kernel.kallsyms\]' "$TMP/ours" || fail "no kernel row"
compare "$TMP/g.data" --children -g none --sort pid
[ "$(grep -c ':ds$' "$TMP/ours")" -ge 2 ] || fail "fewer than two TID:ds rows"
compare "$TMP/g.data" --children -g none --sort comm
compare "$TMP/g.data" --children -g none --sort cpu,dso
# perf's Period column: each row's own period (0 in a row of callers alone)
compare "$TMP/g.data" --children -g none --sort dso,sym --show-total-period -n
grep -q '^ *[0-9.]*% *0\.00% *0 *0  ' "$TMP/ours" || fail "--show-total-period: no caller row of period 0"
compare "$TMP/g.data" --no-children -g none --sort pid,dso --show-total-period
compare "$TMP/g.data" --no-children -g caller --sort pid
compare "$TMP/g.data" --children -g caller --sort dso
compare "$TMP/g.data" --no-children -G --sort dso,sym	# perf's alias of -g caller
compare "$TMP/n.data" --children -g none --sort pid
grep -q 'Children' "$TMP/ours.h" && fail "a children column without callchains"
expect_rc 1 "$SCHEDLENS" report -i "$TMP/n.data" -g caller
grep -q 'no callchains' "$TMP/err" || fail "-g without callchains: no reason given"
exit 0
