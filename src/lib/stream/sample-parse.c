// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE layout (include/uapi/linux/perf_event.h), in this order, each present when
 * its PERF_SAMPLE_* bit is set: IDENTIFIER, IP, TID (pid, tid u32), TIME, ADDR, ID, STREAM_ID,
 * CPU (cpu, res u32), PERIOD, READ (read_format), CALLCHAIN (nr, ips), RAW (u32 size, data,
 * padded to 8), BRANCH_STACK (nr, [hw_idx], entries), REGS_USER (abi, regs), STACK_USER (size,
 * data, dyn_size), WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR, ...
 * The sample_id_all trailer of other records: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>

#include "schedlens/sampler.h"
#include "stream-int.h"

#define FIXED_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
		    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define RARE_TAIL_BITS (PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
			PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | \
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
			PERF_SAMPLE_PHYS_ADDR)

struct cur {
	const uint8_t *p, *end;
	bool swap;
	uint64_t *scr;		/* next free scratch slot for swapped arrays */
};

static inline bool avail(const struct cur *c, uint64_t n)
{
	return (uint64_t)(c->end - c->p) >= n;
}

static inline uint64_t peek64(const struct cur *c)
{
	uint64_t v;

	memcpy(&v, c->p, 8);
	return c->swap ? bswap_64(v) : v;
}

static inline uint32_t peek32(const struct cur *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->p + off, 4);
	return c->swap ? bswap_32(v) : v;
}

static inline uint64_t g64(struct cur *c)
{
	uint64_t v = peek64(c);

	c->p += 8;
	return v;
}

/* a pid/tid or cpu/res pair */
static inline void g32x2(struct cur *c, uint32_t *a, uint32_t *b)
{
	*a = peek32(c, 0);
	if (b)
		*b = peek32(c, 4);
	c->p += 8;
}

/* n u64s: in place when native, else swapped into scratch */
static const uint64_t *arr64(struct cur *c, uint64_t n)
{
	const uint64_t *r = (const uint64_t *)c->p;
	uint64_t i;

	if (c->swap) {
		uint64_t *d = c->scr;

		for (i = 0; i < n; i++, c->p += 8)
			d[i] = peek64(c);
		c->scr += n;
		return d;
	}
	c->p += 8 * n;
	return r;
}

/* TID, TIME, ADDR, ID, STREAM_ID, CPU: in a sample and (but ADDR) in the trailer */
static void take_ids(struct cur *c, uint64_t t, struct stream_sample *out)
{
	if (t & PERF_SAMPLE_TID)
		g32x2(c, &out->pid, &out->tid);
	if (t & PERF_SAMPLE_TIME)
		out->time = g64(c);
	if (t & PERF_SAMPLE_ADDR)
		out->addr = g64(c);
	if (t & PERF_SAMPLE_ID)
		out->id = g64(c);
	if (t & PERF_SAMPLE_STREAM_ID)
		out->stream_id = g64(c);
	if (t & PERF_SAMPLE_CPU)
		g32x2(c, &out->cpu, NULL);
}

static size_t read_size(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

static int sample_read(struct cur *c, uint64_t rf, struct stream_sample *s)
{
	size_t hdr = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t n;

	if (rf & PERF_FORMAT_GROUP) {
		if (!avail(c, 8))
			return -EINVAL;
		n = peek64(c);
		if (n > 4096)
			return -EINVAL;
		n = 1 + hdr + n * read_size(rf);
	} else {
		n = hdr + read_size(rf);
	}
	if (!avail(c, 8 * n))
		return -EINVAL;
	s->read = arr64(c, n);
	return 0;
}

/* REGS_USER / REGS_INTR: abi, then one u64 per bit of @mask unless abi is 0 */
static int sample_regs(struct cur *c, uint64_t mask, uint64_t *abi, const uint64_t **regs)
{
	uint64_t n = __builtin_popcountll(mask);

	if (!avail(c, 8))
		return -EINVAL;
	*abi = g64(c);
	if (!*abi)
		return 0;
	if (!avail(c, 8 * n))
		return -EINVAL;
	*regs = arr64(c, n);
	return 0;
}

static int sample_u64(struct cur *c, uint64_t *v)
{
	if (!avail(c, 8))
		return -EINVAL;
	*v = g64(c);
	return 0;
}

static int sample_tail(struct cur *c, const struct perf_event_attr *a, struct stream_sample *s)
{
	uint64_t t = a->sample_type, n, abi;
	const uint64_t *regs;

	if ((t & PERF_SAMPLE_READ) && sample_read(c, a->read_format, s))
		return -EINVAL;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (sample_u64(c, &n) || n > (uint64_t)(c->end - c->p) / 8)
			return -EINVAL;
		s->nr_callchain = n;
		s->callchain = arr64(c, n);
	}
	if (t & PERF_SAMPLE_RAW) {
		if (!avail(c, 4))
			return -EINVAL;
		s->raw_size = peek32(c, 0);
		if (!avail(c, 4 + (uint64_t)s->raw_size))
			return -EINVAL;
		s->raw = c->p + 4;
		c->p += (4 + (uint64_t)s->raw_size + 7) & ~7ULL;
		if (c->p > c->end)
			return -EINVAL;
	}
	if (!(t & RARE_TAIL_BITS))
		return 0;
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (sample_u64(c, &n))
			return -EINVAL;
		if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && sample_u64(c, &abi))
			return -EINVAL;
		if (n > (uint64_t)(c->end - c->p) / sizeof(struct perf_branch_entry))
			return -EINVAL;
		s->nr_branches = n;
		s->branches = (const struct perf_branch_entry *)arr64(c, 3 * n);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		if (sample_regs(c, a->sample_regs_user, &s->user_regs_abi, &s->user_regs))
			return -EINVAL;
		if (s->user_regs_abi)
			s->user_regs_mask = a->sample_regs_user;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		if (sample_u64(c, &n))
			return -EINVAL;
		if (n) {
			if (n > (uint64_t)(c->end - c->p) || !avail(c, n + 8))
				return -EINVAL;
			s->user_stack = c->p;
			c->p += n;
			s->user_stack_size = g64(c);
			if (s->user_stack_size > n)
				s->user_stack_size = n;
		}
	}
	if ((t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && sample_u64(c, &s->weight))
		return -EINVAL;
	if ((t & PERF_SAMPLE_DATA_SRC) && sample_u64(c, &s->data_src))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TRANSACTION) && sample_u64(c, &s->transaction))
		return -EINVAL;
	if ((t & PERF_SAMPLE_REGS_INTR) && sample_regs(c, a->sample_regs_intr, &abi, &regs))
		return -EINVAL;
	if ((t & PERF_SAMPLE_PHYS_ADDR) && sample_u64(c, &s->phys_addr))
		return -EINVAL;
	return 0;
}

void sample_layout__init(struct sample_layout *l, const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	int8_t n = 0;

	memset(l, 0, sizeof(*l));
	l->sample_type = t;
#define SLOT(bit, field) (l->field = (t & (bit)) ? n++ : -1)
	l->id = -1;
	if (t & PERF_SAMPLE_IDENTIFIER)
		l->id = n++;
	SLOT(PERF_SAMPLE_IP, ip);
	SLOT(PERF_SAMPLE_TID, tid);
	SLOT(PERF_SAMPLE_TIME, time);
	SLOT(PERF_SAMPLE_ADDR, addr);
	if (t & PERF_SAMPLE_ID)
		l->id = n++;
	SLOT(PERF_SAMPLE_STREAM_ID, stream_id);
	SLOT(PERF_SAMPLE_CPU, cpu);
	SLOT(PERF_SAMPLE_PERIOD, period);
#undef SLOT
	l->fixed_len = 8 * n;
	switch (t & ~FIXED_BITS) {
	case 0:
		l->tail = TAIL_NONE;
		break;
	case PERF_SAMPLE_RAW:
		l->tail = TAIL_RAW;
		break;
	case PERF_SAMPLE_CALLCHAIN:
		l->tail = TAIL_CALLCHAIN;
		break;
	case PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW:
		l->tail = TAIL_CALLCHAIN_RAW;
		break;
	default:
		l->tail = TAIL_OTHER;
		break;
	}
}

int sample_parse_tail(const struct perf_event_attr *attr, bool swap, const uint8_t *p,
		      const uint8_t *end, uint64_t *scratch, struct stream_sample *out)
{
	struct cur c = { p, end, swap, scratch };

	return sample_tail(&c, attr, out);
}

int sample_parse_layout(const struct sample_layout *l, const struct perf_event_attr *attr,
			bool swap, const struct perf_event_header *h, uint64_t *scratch,
			struct stream_sample *out)
{
	const uint8_t *b = (const uint8_t *)(h + 1);
	struct cur c = { b + l->fixed_len, (const uint8_t *)h + h->size, swap, scratch };

	memset(out, 0, sizeof(*out));
	if (sample_parse_fixed(l, swap, h, out))
		return -EINVAL;
	return l->tail != TAIL_NONE ? sample_tail(&c, attr, out) : 0;
}

int sample_parse(const struct perf_event_attr *attr, bool swap, const struct perf_event_header *h,
		 uint64_t *scratch, struct stream_sample *out)
{
	struct sample_layout l;

	sample_layout__init(&l, attr);
	return sample_parse_layout(&l, attr, swap, h, scratch, out);
}

int sample_trailer_parse(const struct perf_event_attr *attr, bool swap,
			 const struct perf_event_header *h, struct sample_trailer *out)
{
	uint64_t t = attr->sample_type & STREAM_TRAILER_BITS;
	size_t len = 8 * __builtin_popcountll(t);
	struct cur c = { NULL, NULL, swap, NULL };
	struct stream_sample s = { 0 };

	if (!attr->sample_id_all)
		return 0;
	if (h->size < sizeof(*h) || len + sizeof(*h) > h->size)
		return -EINVAL;
	c.p = (const uint8_t *)h + h->size - len;
	take_ids(&c, t, &s);
	if (t & PERF_SAMPLE_IDENTIFIER)
		s.id = g64(&c);
	if (t & PERF_SAMPLE_TID) {
		out->pid = s.pid;
		out->tid = s.tid;
	}
	if (t & PERF_SAMPLE_TIME)
		out->time = s.time;
	if (t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		out->id = s.id;
	if (t & PERF_SAMPLE_CPU)
		out->cpu = s.cpu;
	return 0;
}

/* the live sampler's records are in host order */
int sample__parse(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct stream_sample *out)
{
	return sample_parse(attr, false, h, NULL, out);
}

int sample_id__parse(const struct perf_event_attr *attr, const struct perf_event_header *h,
		     uint32_t *pid, uint32_t *tid, uint64_t *time, uint32_t *cpu, uint64_t *id)
{
	struct sample_trailer s = { 0 };
	int ret = sample_trailer_parse(attr, false, h, &s);

	*pid = s.pid;
	*tid = s.tid;
	*cpu = s.cpu;
	*time = s.time;
	*id = s.id;
	return ret;
}
