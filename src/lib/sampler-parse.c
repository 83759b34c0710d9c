// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE layout (include/uapi/linux/perf_event.h), in this order, each present when
 * its PERF_SAMPLE_* bit is set: IDENTIFIER, IP, TID (pid, tid u32), TIME, ADDR, ID, STREAM_ID,
 * CPU (cpu, res u32), PERIOD, READ (read_format), CALLCHAIN (nr, ips), RAW (u32 size, data,
 * padded to 8), BRANCH_STACK (nr, [hw_idx], entries), REGS_USER (abi, regs), STACK_USER (size,
 * data, dyn_size), WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR, ...
 * The sample_id_all trailer of other records: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER.
 */
#include "schedlens/sampler.h"

#include <errno.h>
#include <string.h>

struct cursor {
	const uint8_t *p, *end;
};

static int take(struct cursor *c, size_t n, const void **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -EINVAL;
	*out = c->p;
	c->p += n;
	return 0;
}

static int take_u64(struct cursor *c, uint64_t *v)
{
	const void *q;

	if (take(c, 8, &q))
		return -EINVAL;
	memcpy(v, q, 8);
	return 0;
}

static int take_u32x2(struct cursor *c, uint32_t *a, uint32_t *b)
{
	const uint32_t *q;

	if (take(c, 8, (const void **)&q))
		return -EINVAL;
	*a = q[0];
	*b = q[1];
	return 0;
}

static size_t read_format_size(uint64_t rf, uint64_t nr)
{
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t hdr = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & PERF_FORMAT_GROUP)
		return 8 * (1 + hdr + nr * per);
	return 8 * (hdr + per);
}

static int take_read(struct cursor *c, uint64_t rf, const void **out)
{
	uint64_t nr = 0;

	if (rf & PERF_FORMAT_GROUP) {
		if ((size_t)(c->end - c->p) < 8)
			return -EINVAL;
		memcpy(&nr, c->p, 8);
		if (nr > 65536)
			return -EINVAL;
	}
	return take(c, read_format_size(rf, nr), out);
}

static int take_regs(struct cursor *c, uint64_t mask, uint64_t *abi, const uint64_t **regs)
{
	if (take_u64(c, abi))
		return -EINVAL;
	*regs = NULL;
	if (!*abi)
		return 0;
	return take(c, 8 * (size_t)__builtin_popcountll(mask), (const void **)regs);
}

static int parse_tail(const struct perf_event_attr *attr, struct cursor *c,
		      struct stream_sample *out)
{
	uint64_t t = attr->sample_type, v, abi;
	const uint64_t *regs;
	const void *q;

	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (take_u64(c, &out->nr_branches) || out->nr_branches > 65536)
			return -EINVAL;
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && take_u64(c, &v))
			return -EINVAL;
		if (take(c, out->nr_branches * sizeof(struct perf_branch_entry), &q))
			return -EINVAL;
		out->branches = q;
	}
	if ((t & PERF_SAMPLE_REGS_USER) &&
	    take_regs(c, attr->sample_regs_user, &out->user_regs_abi, &out->user_regs))
		return -EINVAL;
	if (t & PERF_SAMPLE_REGS_USER)
		out->user_regs_mask = attr->sample_regs_user;
	if (t & PERF_SAMPLE_STACK_USER) {
		if (take_u64(c, &v) || take(c, v, &q))
			return -EINVAL;
		out->user_stack = q;
		if (v && take_u64(c, &out->user_stack_size))
			return -EINVAL;
		if (out->user_stack_size > v)
			return -EINVAL;
	}
	if ((t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && take_u64(c, &out->weight))
		return -EINVAL;
	if ((t & PERF_SAMPLE_DATA_SRC) && take_u64(c, &out->data_src))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TRANSACTION) && take_u64(c, &out->transaction))
		return -EINVAL;
	if ((t & PERF_SAMPLE_REGS_INTR) && take_regs(c, attr->sample_regs_intr, &abi, &regs))
		return -EINVAL;
	if ((t & PERF_SAMPLE_PHYS_ADDR) && take_u64(c, &out->phys_addr))
		return -EINVAL;
	return 0;
}

int sample__parse(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct stream_sample *out)
{
	struct cursor c = { (const uint8_t *)(h + 1), (const uint8_t *)h + h->size };
	uint64_t t = attr->sample_type, v;
	uint32_t u;
	const void *q;

	memset(out, 0, sizeof(*out));
	out->misc = h->misc;
	if (h->size < sizeof(*h))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &out->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IP) && take_u64(&c, &out->ip))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TID) && take_u32x2(&c, &out->pid, &out->tid))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TIME) && take_u64(&c, &out->time))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ADDR) && take_u64(&c, &out->addr))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && take_u64(&c, &out->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &out->stream_id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CPU) && take_u32x2(&c, &out->cpu, &u))
		return -EINVAL;
	if ((t & PERF_SAMPLE_PERIOD) && take_u64(&c, &out->period))
		return -EINVAL;
	if ((t & PERF_SAMPLE_READ) && take_read(&c, attr->read_format, &out->read))
		return -EINVAL;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(&c, &v) || v > 65536 || take(&c, 8 * v, &q))
			return -EINVAL;
		out->nr_callchain = v;
		out->callchain = q;
	}
	if (t & PERF_SAMPLE_RAW) {
		const uint32_t *sz;

		if (take(&c, 4, (const void **)&sz) || take(&c, *sz, &out->raw))
			return -EINVAL;
		out->raw_size = *sz;
		c.p += (8 - ((4 + *sz) & 7)) & 7;
		if (c.p > c.end)
			return -EINVAL;
	}
	return parse_tail(attr, &c, out);
}

int sample_id__parse(const struct perf_event_attr *attr, const struct perf_event_header *h,
		     uint32_t *pid, uint32_t *tid, uint64_t *time, uint32_t *cpu, uint64_t *id)
{
	uint64_t t = attr->sample_type;
	const uint64_t *end = (const uint64_t *)((const uint8_t *)h + h->size);
	const uint64_t *p = end;
	const uint64_t *start = (const uint64_t *)(h + 1);
	size_t n = !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
		   !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
		   !!(t & PERF_SAMPLE_IDENTIFIER);

	*pid = *tid = *cpu = 0;
	*time = *id = 0;
	if (!attr->sample_id_all)
		return 0;
	if (h->size < sizeof(*h) || (size_t)(end - start) < n)
		return -EINVAL;
	p = end - n;
	if (t & PERF_SAMPLE_TID) {
		memcpy(pid, p, 4);
		memcpy(tid, (const uint8_t *)p + 4, 4);
		p++;
	}
	if (t & PERF_SAMPLE_TIME)
		*time = *p++;
	if (t & PERF_SAMPLE_ID)
		*id = *p++;
	if (t & PERF_SAMPLE_STREAM_ID)
		p++;
	if (t & PERF_SAMPLE_CPU)
		memcpy(cpu, p++, 4);
	if (t & PERF_SAMPLE_IDENTIFIER)
		*id = *p++;
	return 0;
}
