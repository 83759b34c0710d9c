#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fast walk of DWARF stacks (src/lib/symbols/unwind.c: libdw's CFI rows kept by pc, a frame
# stepped by its row, libdwfl's walk where a row is of another kind) gives the frames libdwfl's
# own walk gives (SCHEDLENS_UNWIND=libdw): the whole of script and of report -g caller and
# --children, on a --call-graph dwarf recording of processes that start and exec (ld.so's
# start-up), call libc through lazily bound PLT entries (LD_BIND_NOT=1: the trampoline, whose
# CFA is %rbx-based, and PLT rows that are DWARF expressions) and have deep stacks without
# frame pointers; and again on a copy whose samples' stacks and registers have bytes changed (a
# fixed seed): the walks then read garbage return addresses, into data mappings too, and still
# agree.
source "$(dirname "$0")/lib.sh"
need_perf
need_root
[ "$(uname -m)" = x86_64 ] || skip "the fast walk is x86-64's (this is $(uname -m))"
command -v gcc >/dev/null || skip "gcc is not installed"
export SCHEDLENS_CACHE_DIR=$TMP/cache
gcc -g -O2 -o "$TMP/lazybind" "$SCHEDLENS_TOP/tests/data/lazybind.c" || fail "cannot build lazybind"
gcc -g -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$TMP/deepstack" \
	"$SCHEDLENS_TOP/tests/data/deepstack.c" || fail "cannot build deepstack"
LD_BIND_NOT=1 perf record -q --call-graph dwarf -e cpu-clock -c 200000 -o "$TMP/mix.data" -- \
	sh -c "for i in 1 2 3 4 5 6 7 8; do ls -R /usr/share/doc >/dev/null; done
		'$TMP/lazybind' 100; '$TMP/deepstack' 0.3" >/dev/null 2>&1 ||
	fail "perf record --call-graph dwarf failed"
for args in "script" "report -g caller" "report --children --sort dso,sym"; do
	# shellcheck disable=SC2086 # the words of args are the command's
	"$SCHEDLENS" $args -i "$TMP/mix.data" >"$TMP/fast" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "$args failed"; }
	# shellcheck disable=SC2086
	SCHEDLENS_UNWIND=libdw "$SCHEDLENS" $args -i "$TMP/mix.data" >"$TMP/libdw" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "$args (libdwfl's walk) failed"; }
	cmp -s "$TMP/fast" "$TMP/libdw" ||
		fail "$args: the fast walk differs from libdwfl's: $(diff "$TMP/libdw" "$TMP/fast" | head -5)"
done
# the same on a copy whose DWARF samples have bytes of their stacks and registers changed: in
# the record, after its callchain, the registers (20 words, perf's x86-64 mask), the stack size
# and copy (8 kB) and its dynamic size, then DATA_SRC
command -v python3 >/dev/null || skip "python3 is not installed (the corrupted copy)"
python3 - "$TMP/mix.data" "$TMP/bad.data" <<'PY' || fail "cannot make the corrupted copy"
import random, struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', data, 40)
rnd, p = random.Random(7), off
while p < off + size:
    typ, misc, sz = struct.unpack_from('<IHH', data, p)
    if sz < 8:
        break
    end = p + sz - 8
    if typ == 9 and sz > 8192 + 200:
        stack = end - 8 - 8192
        # (16 bytes in from either end, 8 from the registers': the same bytes whether or not
        # DATA_SRC follows the stack)
        for _ in range(rnd.randrange(0, 20)):
            data[rnd.randrange(stack + 16, end - 16)] = rnd.randrange(256)
        if rnd.random() < 0.2:
            data[rnd.randrange(stack - 160, stack - 16)] = rnd.randrange(256)
    p += sz
open(sys.argv[2], 'wb').write(data)
PY
"$SCHEDLENS" script -i "$TMP/bad.data" >"$TMP/fast" 2>"$TMP/err" || { cat "$TMP/err"; fail "script of the corrupted copy failed"; }
SCHEDLENS_UNWIND=libdw "$SCHEDLENS" script -i "$TMP/bad.data" >"$TMP/libdw" 2>&1 ||
	fail "script of the corrupted copy (libdwfl's walk) failed"
cmp -s "$TMP/fast" "$TMP/libdw" ||
	fail "corrupted stacks: the fast walk differs from libdwfl's: $(diff "$TMP/libdw" "$TMP/fast" | head -5)"
"$SCHEDLENS" script -i "$TMP/mix.data" >"$TMP/out" 2>/dev/null
[ "$(grep -c 'cpu-clock:' "$TMP/out")" -ge 200 ] || fail "too few samples: the comparison means little"
frames=$(grep -c '^	' "$TMP/out")
echo "fast walk: script ($frames frames), report -g caller and --children equal libdwfl's walk; script of a corrupted copy too"
