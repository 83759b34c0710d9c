#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report counts kernel samples as it reads them, outside time order, when the sort keys are
# sym and dso only (report-kagg.c). That must give what time order gives: on the fixtures,
# and on a file made here whose kernel maps change mid-run (a module mapped at time 300,
# samples in its range before and after), where it has to read the file again in order.
. "$(dirname "$0")/lib.sh"
need_fixtures

for f in "$FIXTURES"/real/*.data "$FIXTURES"/local/*.data; do
	case $f in *corrupt*) continue ;; esac
	for keys in sym dso dso,sym; do
		"$SCHEDLENS" report --sort "$keys" -i "$f" >"$TMP/any" 2>&1
		"$SCHEDLENS" report --sort "$keys" --ordered -i "$f" >"$TMP/ordered" 2>&1
		cmp -s "$TMP/any" "$TMP/ordered" ||
			fail "$(basename "$f") --sort $keys: differs from --ordered"
	done
done

# a file cut short: what was read before the bad record is reported, the same either way
head -c 1200000 "$FIXTURES/local/sched-pingpong.data" >"$TMP/cut.data"
"$SCHEDLENS" report --sort sym -i "$TMP/cut.data" >"$TMP/any" 2>&1
"$SCHEDLENS" report --sort sym --ordered -i "$TMP/cut.data" >"$TMP/ordered" 2>&1
cmp -s "$TMP/any" "$TMP/ordered" || { diff "$TMP/ordered" "$TMP/any" >&2; fail "cut file: differs from --ordered"; }
grep -q "^ *[1-9][0-9.]*% .*\[k\]" "$TMP/any" || { cat "$TMP/any" >&2; fail "cut file: no samples reported"; }

# header, one cpu-clock attr (IP|TID|TIME|PERIOD, sample_id_all), then: the kernel map at
# time 0; round 1: two samples at 0xffffffffc0001000 (times 100, 200); round 2: the map of
# module foo over that address (time 300), two more samples there (400, 500)
python3 - "$TMP/kmod.data" <<'PY'
import struct, sys

KERNEL = 1
def rec(typ, misc, body):
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body
def mmap(start, length, name, time):
    fn = name.encode() + b'\0'
    fn += b'\0' * (-len(fn) % 8)
    return rec(1, KERNEL, struct.pack('<iiQQQ', -1, 0, start, length, 0) + fn +
               struct.pack('<iiQ', -1, 0, time))
def sample(ip, time):
    return rec(9, KERNEL, struct.pack('<QIIQQ', ip, 1, 1, time, 1))
ROUND = rec(68, 0, b'')
data = (mmap(0xffffffff80000000, 0x7fffffff, '[kernel.kallsyms]_text', 0) +
        sample(0xffffffffc0001000, 100) + sample(0xffffffffc0001000, 200) + ROUND +
        mmap(0xffffffffc0000000, 0x10000, '/lib/modules/foo.ko', 300) +
        sample(0xffffffffc0001000, 400) + sample(0xffffffffc0001000, 500) + ROUND)
# perf_event_attr (112 bytes): software cpu-clock, period 1, IP|TID|TIME|PERIOD, sample_id_all
attr = struct.pack('<IIQQQQQIIQQQQIiQIHH', 1, 112, 0, 1, 0x1 | 0x2 | 0x4 | 0x100, 0,
                   1 << 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
assert len(attr) == 112
hdr_size, attr_size = 104, 112 + 16
attr_off = hdr_size
data_off = attr_off + attr_size
hdr = struct.pack('<8sQQQQQQQQ', b'PERFILE2', hdr_size, attr_size, attr_off, attr_size,
                  data_off, len(data), 0, 0) + b'\0' * 32
open(sys.argv[1], 'wb').write(hdr + attr + struct.pack('<QQ', 0, 0) + data)
PY
[ -s "$TMP/kmod.data" ] || fail "cannot make the test file"
for keys in dso "dso,sym --no-symbols"; do
	# shellcheck disable=SC2086
	expect_rc 0 "$SCHEDLENS" report --sort $keys -i "$TMP/kmod.data"
	cp "$TMP/out" "$TMP/any"
	# shellcheck disable=SC2086
	expect_rc 0 "$SCHEDLENS" report --sort $keys --ordered -i "$TMP/kmod.data"
	cmp -s "$TMP/any" "$TMP/out" || { diff "$TMP/out" "$TMP/any" >&2; fail "--sort $keys: kernel map change"; }
done
# two samples before the module map, two after
grep -q "50.00%.*\[kernel.kallsyms\]" "$TMP/any" && grep -q "50.00%.*\[foo\]" "$TMP/any" ||
	{ cat "$TMP/any" >&2; fail "the module's samples are not split at its map"; }
exit 0
