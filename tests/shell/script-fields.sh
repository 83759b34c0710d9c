#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# script -F: perf script's fields, chosen as perf chooses them (-F LIST, +f, -f, TYPE:LIST),
# and the fields perf prints by default that only some events carry (addr, data_src, weight
# of raw events), compared line for line with perf script run here: on every fixture perf
# reads, and on a file made here with two raw events (WEIGHT, WEIGHT_STRUCT) and page faults,
# whose data_src values go through every name of every field perf decodes. Symbols are
# compared too: a file of another machine (the fixtures, the file made up here) against perf
# script with an empty --symfs, as without one perf names its addresses from this machine's
# kallsyms and files, which the origin rules leave alone (see script.sh).
source "$(dirname "$0")/lib.sh"

# a field perf does not have, or one schedlens does not print, or a bad form: exit 2 before
# the input is opened
for bad in bogus "comm,+tid" "+tid,comm" "xx:comm" "hw:trace" "brstack" "" "comm,nope"; do
	expect_rc 2 "$SCHEDLENS" script -F "$bad" -i "$TMP/none.data"
	grep -q "^schedlens script: -F '$bad': " "$TMP/err" || fail "-F '$bad': $(cat "$TMP/err")"
	grep -q "none.data" "$TMP/err" && fail "-F '$bad' opened the input first"
done
grep -q "unknown field 'nope'" "$TMP/err" || fail "the unknown field is not named: $(cat "$TMP/err")"

need_perf
need_fixtures
mkdir -p "$TMP/nosymfs"
elsewhere=(--symfs "$TMP/nosymfs")	# perf's options for a file of another machine
# compare FILE -F...: the same lines, or both refuse (perf exits 255, schedlens 2)
compare() {
	local f=$1 prc orc
	shift
	perf script "${elsewhere[@]}" "$@" -i "$f" 2>"$TMP/perr" >"$TMP/perf"
	prc=$?
	"$SCHEDLENS" script "$@" -i "$f" 2>"$TMP/oerr" >"$TMP/ours"
	orc=$?
	if [ "$prc" -ne 0 ] && [ ! -s "$TMP/perf" ]; then
		[ "$orc" -eq 2 ] || fail "$(basename "$f") $*: perf refuses ($(head -1 "$TMP/perr")), schedlens exits $orc"
		[ -s "$TMP/ours" ] && fail "$(basename "$f") $*: refused after printing"
		refused=$((refused + 1))
		return 0
	fi
	[ "$orc" -eq 0 ] || { cat "$TMP/oerr" >&2; fail "$(basename "$f") $*: schedlens exits $orc, perf 0"; }
	# with --symfs perf drops the callchain entries of user DSOs it cannot find (script.sh)
	diff "$TMP/perf" "$TMP/ours" >"$TMP/diff"
	if grep '^[<>]' "$TMP/diff" | grep -qvE "^> 	 +[0-9a-f]{1,12}( \[unknown\])?( \(/.*\))?$" ||
		{ [ ${#elsewhere[@]} -eq 0 ] && [ -s "$TMP/diff" ]; }; then
		head -20 "$TMP/diff"
		fail "$(basename "$f") $*: schedlens script differs from perf script"
	fi
	dropped=$((dropped + $(grep -c '^>' "$TMP/diff")))
	lines=$((lines + $(wc -l <"$TMP/perf")))
}

python3 - "$TMP/mem.data" <<'PY' || fail "cannot make the test file"
import struct, sys, random

random.seed(18)
KERNEL, USER = 1, 2
IDENT, IP, TID, TIME, ADDR, CPU, PERIOD = 1 << 16, 1, 2, 4, 8, 0x80, 0x100
WEIGHT, DATA_SRC, WEIGHT_STRUCT = 1 << 14, 1 << 15, 1 << 24
BASE = IDENT | IP | TID | TIME | ADDR | CPU | PERIOD
# (type, config, sample_type): two raw events (a plain WEIGHT, a WEIGHT_STRUCT), page faults
EVENTS = [(4, 0x1cd, BASE | WEIGHT | DATA_SRC), (4, 0x82d0, BASE | WEIGHT_STRUCT | DATA_SRC),
          (1, 2, BASE)]

def rec(typ, misc, body):
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body
def trailer(pid, tid, time, ident):
    return struct.pack('<IIQIIQ', pid, tid, time, 0, 0, ident)
def cstr(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)
def comm(pid, name, time):
    return rec(3, 0, struct.pack('<II', pid, pid) + cstr(name) + trailer(pid, pid, time, 1))
def mmap(misc, pid, start, length, pgoff, name, time):
    return rec(1, misc, struct.pack('<iiQQQ', pid, pid, start, length, pgoff) + cstr(name) +
               trailer(pid if pid > 0 else 0, pid if pid > 0 else 0, time, 1))

# data_src values: every name of every field, one field varied at a time around a load that
# hit L1 (lvl one bit at a time, tlb and snoop up to two: perf's decoding overruns its
# buffer for longer ones)
F = dict(op=(0, 5), lvl=(5, 14), snoop=(19, 5), lock=(24, 2), tlb=(26, 7), lvlnum=(33, 4),
         remote=(37, 1), snoopx=(38, 2), blk=(40, 3), hops=(43, 3))
def ds(**kw):
    v = dict(op=2, lvl=0x8 | 0x2, snoop=2, lock=0, tlb=0x8 | 0x2, lvlnum=0, remote=0,
             snoopx=0, blk=0, hops=0)
    v.update(kw)
    return sum(x << F[k][0] for k, x in v.items())
def bits(n, most):
    return [x for x in range(1 << n) if bin(x).count('1') <= most]
srcs = [0, ds()]
srcs += [ds(op=x) for x in range(32)]
srcs += [ds(lvl=(1 << b) | hm) for b in range(14) for hm in (0, 2, 4)]
srcs += [ds(snoop=x) for x in bits(5, 2)] + [ds(snoopx=x, snoop=s) for x in range(4) for s in (0, 2)]
srcs += [ds(lock=x) for x in range(4)] + [ds(blk=x) for x in range(8)]
srcs += [ds(tlb=x) for x in bits(7, 2)]
srcs += [ds(lvlnum=x, lvl=l) for x in range(16) for l in (0, 0xa, 1)]
srcs += [ds(hops=h, remote=r, lvlnum=n) for h in range(5) for r in (0, 1) for n in (0, 3)]
srcs += [ds(remote=1, lvl=l) for l in (0, 0x100, 0x402)]

PID = 4242
data = comm(PID, 'memhog', 1)
data += mmap(KERNEL, -1, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
             '[kernel.kallsyms]_text', 0)
data += mmap(KERNEL, -1, 0xffffffffc0000000, 0x10000, 0, '/lib/modules/6.1.0/kernel/usb-net.ko', 0)
data += mmap(KERNEL, -1, 0xffffffffc0010000, 0x10000, 0, '/lib/modules/6.1.0/kernel/nf.ko.xz', 0)
data += mmap(USER, PID, 0x400000, 0x10000, 0, '/usr/bin/memhog', 2)
data += mmap(USER, PID, 0x7f0000000000, 0x20000, 0x1000, '/usr/lib/libhog.so', 2)
places = [(USER, 0x400123), (USER, 0x7f0000000456), (USER, 0x123), (KERNEL, 0xffffffff81234567),
          (KERNEL, 0xffffffffc0001234), (KERNEL, 0xffffffffc0011234), (KERNEL, 0xffffffff00000010)]
t = 100
for i, src in enumerate(srcs * 2):
    ev = i % 3
    t += 1000
    misc, ip = places[i % len(places)]
    addr = [0, 0x400010, 0x7f0000000010, 0xffffffff81000100, 0xffffffffc0000100,
            random.getrandbits(64)][(i // 3) % 6]
    period = random.randrange(1, 1 << 20)
    body = struct.pack('<QQIIQQIIQ', ev + 1, ip, PID, PID, t, addr, i % 4, 0, period)
    if ev == 0:
        body += struct.pack('<QQ', random.getrandbits(random.choice((8, 20, 40))), src)
    elif ev == 1:  # WEIGHT_STRUCT: var1_dw, var2_w, var3_w
        body += struct.pack('<IHHQ', random.getrandbits(32), random.getrandbits(16),
                            random.getrandbits(16), src)
    data += rec(9, misc, body)
data += rec(68, 0, b'')

attrs = b''
for typ, config, st in EVENTS:
    # type, size, config, period, sample_type, read_format, flags (sample_id_all),
    # wakeup_events, bp_type, config1, config2, branch_sample_type, regs_user, stack_user,
    # clockid, regs_intr, aux_watermark, max_stack, reserved
    attrs += struct.pack('<IIQQQQQIIQQQQIiQIHH', typ, 112, config, 1, st, 0, 1 << 18, 0, 0,
                         0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
hdr_size, entry = 104, 112 + 16
ids_off = hdr_size + entry * len(EVENTS)
data_off = ids_off + 8 * len(EVENTS)
table = b''.join(attrs[112 * i:112 * (i + 1)] + struct.pack('<QQ', ids_off + 8 * i, 8)
                 for i in range(len(EVENTS)))
ids = b''.join(struct.pack('<Q', i + 1) for i in range(len(EVENTS)))
hdr = struct.pack('<8sQQQQQQQQ', b'PERFILE2', hdr_size, entry, hdr_size, len(table),
                  data_off, len(data), 0, 0) + b'\0' * 32
open(sys.argv[1], 'wb').write(hdr + table + ids + data)
PY
lines=0 refused=0 dropped=0
forms=("" "+addr" "sw:+addr" "sw:addr,ip,sym,dso" "+addr,-ip" "raw:data_src" "addr,sym"
	"-data_src" "raw:-weight,-addr" "pid,tid,event,period" "+pid" "hw:comm" "ip,dso,callindent"
	"sw:ip,sym,symoff" "comm,tid,time,event,ip,sym,symoff,dso,addr,period,data_src,weight"
	"trace:comm" "raw:comm,addr" "-ip,-sym")
for F in "${forms[@]}"; do
	compare "$TMP/mem.data" ${F:+-F "$F"}
done
# every data_src value decoded, the padding to the widest so far included
"$SCHEDLENS" script -F raw:data_src -i "$TMP/mem.data" | sort -u | wc -l >"$TMP/n"
[ "$(cat "$TMP/n")" -ge 150 ] || fail "only $(cat "$TMP/n") data_src decodings compared"
echo "a file of raw and page-fault events: ${#forms[@]} forms of -F print as perf prints them ($lines lines)"

# a recording made here: page faults with their data addresses (perf record -d), which perf
# resolves to the data maps (anon, heap, libraries) as it resolves an ip
if [ "$(id -u)" -eq 0 ]; then
	perf record -q -d -e page-faults -c 1 -o "$TMP/pf.data" -- ls -R /usr/share/doc >/dev/null 2>&1 ||
		fail "perf record -d failed"
	elsewhere=()	# a file of this boot: perf looks its symbols up as schedlens does
	for F in "" "+addr" "sw:comm,tid,addr,ip,sym,dso" "+weight" "-ip,+addr" "ip,sym" "+addr,-symoff"; do
		compare "$TMP/pf.data" ${F:+-F "$F"}
	done
	"$SCHEDLENS" script -i "$TMP/pf.data" | grep -qE ' [0-9a-f]+ [a-z_][a-zA-Z0-9_.@]*\+0x[0-9a-f]+ \(/' ||
		fail "no user symbol named: the check above means less"
	elsewhere=(--symfs "$TMP/nosymfs")
	"$SCHEDLENS" script -F +addr -i "$TMP/pf.data" | grep -q ' \[unknown\] (\[heap\]) ' ||
		fail "no page fault's address resolved to the heap: the check above means less"
	echo "page faults recorded here: their data addresses print as perf prints them"
else
	echo "note: no recording of page-fault addresses made here (needs root)"
fi

fixture_forms=("comm,tid,time,event,ip,dso" "+addr" "-cpu,-period" "+data_src" "hw:comm,ip"
	"pid,tid,cpu,event,period,ip,sym,symoff" "trace:comm,trace" "comm,tid,trace" "dso"
	"+weight" "-ip" "sw:-dso")
m=0
for f in "$FIXTURES"/real/*.data; do
	case $(basename "$f") in corrupt-*) continue ;; esac
	perf script -i "$f" >/dev/null 2>&1 && [ -n "$(perf script -i "$f" 2>/dev/null | head -1)" ] ||
		continue	# perf 6.1 reads no file of a newer attr size (arm64 6.5)
	for F in "${fixture_forms[@]}"; do
		compare "$f" -F "$F"
	done
	m=$((m + 1))
done
[ $m -ge 8 ] || fail "only $m fixtures compared"
echo "$m fixtures: every -F form prints as perf script prints it ($lines lines in all, $refused refused by both," \
	"$dropped callchain entries perf drops with --symfs)"
