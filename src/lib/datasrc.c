// SPDX-License-Identifier: GPL-2.0
/*
 * perf's data_src decoding (tools/perf/util/mem-events.c, perf 6.1), field by field, with its
 * quirks kept: an operation or lock field of 0 prints "No", a level whose hops are set prints
 * the hops instead of the PERF_MEM_LVL bits, the block field has a leading space.
 */
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schedlens/datasrc.h"

#define PERF_DECODE_MAX 100	/* perf decodes into a char[100] */

struct out {
	char buf[512];
	size_t len;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(o->buf) - 1 - o->len)
		n = sizeof(o->buf) - 1 - o->len;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = 0;
}

static unsigned field(uint64_t v, unsigned shift, unsigned bits)
{
	return (v >> shift) & ((1u << bits) - 1);
}

/* the names of the set bits of @m, " or " between them; returns how many */
static int put_bits(struct out *o, unsigned m, const char *const *names, size_t nr, int printed)
{
	size_t i;

	for (i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			put(o, " or ");
		put(o, names[i]);
	}
	return printed;
}

/* the hit and miss bits, at the same places in the level and the TLB fields */
static void put_hit_miss(struct out *o, unsigned m)
{
	if (m & PERF_MEM_LVL_HIT)
		put(o, " hit");
	if (m & PERF_MEM_LVL_MISS)
		put(o, " miss");
}

static void put_op(struct out *o, unsigned op)
{
	if (op & PERF_MEM_OP_NA)
		put(o, "N/A");
	else if (op & PERF_MEM_OP_LOAD)
		put(o, "LOAD");
	else if (op & PERF_MEM_OP_STORE)
		put(o, "STORE");
	else if (op & PERF_MEM_OP_PFETCH)
		put(o, "PFETCH");
	else if (op & PERF_MEM_OP_EXEC)
		put(o, "EXEC");
	else
		put(o, "No");
}

static void put_lvl(struct out *o, uint64_t v)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const lvlnum[16] = {
		[PERF_MEM_LVLNUM_CXL] = "CXL", [PERF_MEM_LVLNUM_IO] = "I/O",
		[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache", [PERF_MEM_LVLNUM_LFB] = "LFB/MAB",
		[PERF_MEM_LVLNUM_RAM] = "RAM", [PERF_MEM_LVLNUM_PMEM] = "PMEM",
		[PERF_MEM_LVLNUM_NA] = "N/A",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	unsigned m = field(v, PERF_MEM_LVL_SHIFT, 14);
	unsigned hop = field(v, PERF_MEM_HOPS_SHIFT, 3);
	unsigned num = field(v, PERF_MEM_LVLNUM_SHIFT, 4);
	size_t start = o->len;
	int printed = 0;
	char tmp[32];

	if (field(v, PERF_MEM_REMOTE_SHIFT, 1))
		put(o, "Remote ");
	if (hop) {
		/* perf indexes past its table for hops 5-7; those print as N/A here */
		put(o, hop < sizeof(hops) / sizeof(hops[0]) ? hops[hop] : "N/A");
		put(o, " ");
	} else {
		printed = put_bits(o, m & ~(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS), lvl,
				   sizeof(lvl) / sizeof(lvl[0]), 0);
	}
	if (num) {
		if (printed++)
			put(o, " or ");
		if (lvlnum[num]) {
			put(o, lvlnum[num]);
		} else {
			snprintf(tmp, sizeof(tmp), "L%u", num);
			put(o, tmp);
		}
	}
	if (o->len == start)
		put(o, "N/A");
	put_hit_miss(o, m);
}

static void put_snoop(struct out *o, uint64_t v)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	int printed;

	printed = put_bits(o, field(v, PERF_MEM_SNOOP_SHIFT, 5), snoop, 5, 0);
	printed = put_bits(o, field(v, PERF_MEM_SNOOPX_SHIFT, 2), snoopx, 2, printed);
	if (!printed)
		put(o, "N/A");
}

static void put_tlb(struct out *o, unsigned m)
{
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };

	if (!put_bits(o, m & ~(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS), tlb, 7, 0))
		put(o, "N/A");
	put_hit_miss(o, m);
}

static void put_lock_blk(struct out *o, uint64_t v)
{
	unsigned lck = field(v, PERF_MEM_LOCK_SHIFT, 2), blk = field(v, PERF_MEM_BLK_SHIFT, 3);

	put(o, "|LCK ");
	put(o, lck & PERF_MEM_LOCK_NA ? "N/A" : lck & PERF_MEM_LOCK_LOCKED ? "Yes" : "No");
	put(o, "|BLK ");
	if (!blk || (blk & PERF_MEM_BLK_NA)) {
		put(o, " N/A");
		return;
	}
	if (blk & PERF_MEM_BLK_DATA)
		put(o, " Data");
	if (blk & PERF_MEM_BLK_ADDR)
		put(o, " Addr");
}

size_t data_src__scnprintf(char *buf, size_t size, uint64_t v)
{
	struct out o = { .len = 0 };
	size_t n;

	o.buf[0] = 0;
	put(&o, "|OP ");
	put_op(&o, field(v, PERF_MEM_OP_SHIFT, 5));
	put(&o, "|LVL ");
	put_lvl(&o, v);
	put(&o, "|SNP ");
	put_snoop(&o, v);
	put(&o, "|TLB ");
	put_tlb(&o, field(v, PERF_MEM_TLB_SHIFT, 7));
	put_lock_blk(&o, v);
	if (!size)
		return 0;
	n = o.len < PERF_DECODE_MAX - 1 ? o.len : PERF_DECODE_MAX - 1;
	if (n > size - 1)
		n = size - 1;
	memcpy(buf, o.buf, n);
	buf[n] = 0;
	return n;
}
