#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report counts kernel samples as it reads them, outside time order, when the sort keys are
# sym, dso and comm only (report-kagg.c). That must give what time order gives on files made
# here: one whose kernel maps change mid-run (a module mapped at time 300, samples in its
# range before and after), where it has to read the file again in order, and ones whose
# threads change comms around their samples (below). report-order.sh checks the fixtures.
. "$(dirname "$0")/lib.sh"

# perf.data files made here (mk.py): a header, one cpu-clock attr (IP|TID|TIME|PERIOD,
# sample_id_all, period 1) and the records a test gives
cat >"$TMP/mk.py" <<'PY'
import struct

KERNEL, EXEC = 1, 0x2000
def rec(typ, misc, body):
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body
def name(s):
    fn = s.encode() + b'\0'
    return fn + b'\0' * (-len(fn) % 8)
def trailer(pid, tid, time):
    return struct.pack('<IIQ', pid, tid, time)
def mmap(start, length, path, time):
    return rec(1, KERNEL, struct.pack('<iiQQQ', -1, 0, start, length, 0) + name(path) +
               trailer(0xffffffff, 0, time))
def comm(pid, tid, s, time, misc=0):
    return rec(3, misc, struct.pack('<II', pid, tid) + name(s) + trailer(pid, tid, time))
def fork(pid, ppid, tid, ptid, time):
    return rec(7, 0, struct.pack('<IIIIQ', pid, ppid, tid, ptid, time) + trailer(pid, tid, time))
def sample(ip, pid, tid, time):
    return rec(9, KERNEL, struct.pack('<QIIQQ', ip, pid, tid, time, 1))
ROUND = rec(68, 0, b'')
KMAP = mmap(0xffffffff80000000, 0x7fffffff, '[kernel.kallsyms]_text', 0)
def write(path, data):
    attr = struct.pack('<IIQQQQQIIQQQQIiQIHH', 1, 112, 0, 1, 0x1 | 0x2 | 0x4 | 0x100, 0,
                       1 << 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(attr) == 112
    hdr_size, attr_size = 104, 112 + 16
    data_off = hdr_size + attr_size
    hdr = struct.pack('<8sQQQQQQQQ', b'PERFILE2', hdr_size, attr_size, hdr_size, attr_size,
                      data_off, len(data), 0, 0) + b'\0' * 32
    open(path, 'wb').write(hdr + attr + struct.pack('<QQ', 0, 0) + data)
PY
# the kernel map at time 0; round 1: two samples at 0xffffffffc0001000 (times 100, 200);
# round 2: the map of module foo over that address (time 300), two more samples there
python3 - "$TMP" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mk import *
ip = 0xffffffffc0001000
write(sys.argv[1] + '/kmod.data',
      KMAP + sample(ip, 1, 1, 100) + sample(ip, 1, 1, 200) + ROUND +
      mmap(0xffffffffc0000000, 0x10000, '/lib/modules/foo.ko', 300) +
      sample(ip, 1, 1, 400) + sample(ip, 1, 1, 500) + ROUND)
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

# The comm a key too (report-kagg.c, by_thread): kernel samples wait for the comms around
# them. Thread 10 is renamed (exec) at time 150 while its sample of time 200 was read before
# the COMM; a sample comes late (time 130, a round after the flush up to 210: time order
# delivers it at the next flush, after the rename); a COMM without a time is read mid-run
# (thread 11); a fork at 250 (thread 12 takes 10's comm); and, in the second file, a sample
# at the very time of a rename (thread 13 at 500: read again in order).
for variant in plain tie; do
python3 - "$TMP" "$variant" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mk import *
K1, K2 = 0xffffffff81000100, 0xffffffff81000200
data = (KMAP + comm(10, 10, 'old', 0) + comm(11, 11, 'eleven', 0) +
        comm(13, 13, 'thirteen', 0) +
        sample(K1, 10, 10, 100) + sample(K1, 10, 10, 200) + sample(K2, 11, 11, 210) +
        comm(10, 10, 'new', 150, EXEC) + ROUND +
        sample(K1, 10, 10, 220) + sample(K2, 11, 11, 230) + ROUND +
        sample(K1, 10, 10, 130) + comm(11, 11, 'untimed', 0) + sample(K2, 11, 11, 240) +
        fork(12, 10, 12, 10, 250) + sample(K1, 12, 12, 260) + ROUND)
if sys.argv[2] == 'tie':
    data += sample(K2, 13, 13, 500) + comm(13, 13, 'renamed', 500, EXEC) + ROUND
write(sys.argv[1] + '/comm.' + sys.argv[2] + '.data', data)
PY
[ -s "$TMP/comm.$variant.data" ] || fail "cannot make the comm test file"
for keys in comm "comm,dso,sym --no-symbols" dso,comm; do
	# shellcheck disable=SC2086
	expect_rc 0 "$SCHEDLENS" report --sort $keys -i "$TMP/comm.$variant.data"
	cp "$TMP/out" "$TMP/any"
	# shellcheck disable=SC2086
	expect_rc 0 "$SCHEDLENS" report --sort $keys --ordered -i "$TMP/comm.$variant.data"
	cmp -s "$TMP/any" "$TMP/out" ||
		{ diff "$TMP/out" "$TMP/any" >&2; fail "$variant, --sort $keys: comm changes"; }
done
done
# of 8 samples: thread 10 one as old, three as new (200, 220 and the late one), 12's as new;
# 11's first as eleven, the two after the COMM without a time read as untimed
expect_rc 0 "$SCHEDLENS" report --sort comm -i "$TMP/comm.plain.data"
grep -q "12.50%  old *$" "$TMP/out" && grep -q "50.00%  new *$" "$TMP/out" &&
	grep -q "12.50%  eleven *$" "$TMP/out" && grep -q "25.00%  untimed *$" "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "the renamed threads' samples are not split at their COMMs"; }
exit 0
