#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Names binutils' addr2line gives where libdw's DWARF names differ, sampled with DWARF stacks
# (tests/data/asmalias.S and asmalias-main.c): a function of an assembly file under several
# names (gas gives each a DWARF subprogram over one range, as glibc's syscall stubs have) is
# named by the last of them, "spin_c (inlined)" (libdw's scopes give the first); a C function
# inlined into main that an asm label renames (DW_AT_linkage_name, as glibc's hidden aliases)
# by its linkage name, "labelled_batch (inlined)". script prints both frames as perf 6.1 does.
source "$(dirname "$0")/lib.sh"
need_perf
command -v gcc >/dev/null || skip "gcc is not installed"
command -v addr2line >/dev/null || skip "addr2line is not installed"
gcc -g -O1 -o "$TMP/al" "$SCHEDLENS_TOP/tests/data/asmalias-main.c" \
	"$SCHEDLENS_TOP/tests/data/asmalias.S" || fail "cannot build asmalias"
want=$(addr2line -f -e "$TMP/al" "$(nm "$TMP/al" | awk '$3 == "spin_a" { print $1 }')" | head -1)
[ "$want" = spin_c ] || skip "this addr2line names the stub '$want', not by its last subprogram"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -c 1000000 --call-graph dwarf -o "$TMP/al.data" \
	-- "$TMP/al" 0.3
export SCHEDLENS_NO_CACHE=1
# the frames of the stub and of the inlined function, as printed, in both tools
stub() { grep -E ' (spin_[abc]|batch|labelled_batch)\+' | sed 's/^[[:space:]]*//' | sort | uniq -c; }
"$SCHEDLENS" script -i "$TMP/al.data" 2>"$TMP/err" | stub >"$TMP/ours" ||
	fail "script failed: $(cat "$TMP/err")"
perf script -i "$TMP/al.data" 2>/dev/null | stub >"$TMP/perf"
[ -s "$TMP/perf" ] || skip "perf script printed no frame of the stub"
grep -q 'spin_c+0x[0-9a-f]* (inlined)' "$TMP/ours" || { cat "$TMP/ours"; fail "no frame named spin_c (inlined)"; }
grep -q 'labelled_batch+0x[0-9a-f]* (inlined)' "$TMP/ours" ||
	{ cat "$TMP/ours"; fail "no frame named labelled_batch (inlined)"; }
cmp -s "$TMP/ours" "$TMP/perf" ||
	{ diff "$TMP/perf" "$TMP/ours" | head; fail "the stub's frames differ from perf script's"; }
echo "    $(awk '{ n += $1 } END { print n }' "$TMP/ours") frames of the stub and the inlined function as perf names them"
