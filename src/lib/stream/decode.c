// SPDX-License-Identifier: GPL-2.0
/*
 * The one decoder of the kernel's non-sample records into stream_ops callbacks, shared by the
 * live sampler and the perf.data reader (stream-int.h): one place for each rule.
 *
 * Layouts (include/uapi/linux/perf_event.h), each record followed by the sample_id trailer
 * when the event has sample_id_all:
 *   MMAP         u32 pid, tid; u64 addr, len, pgoff; char filename[]
 *   MMAP2        u32 pid, tid; u64 addr, len, pgoff; u32 maj, min; u64 ino, ino_generation
 *                (or u8 build_id_size, u8[3], u8 build_id[20] with MISC_MMAP_BUILD_ID);
 *                u32 prot, flags; char filename[]
 *   COMM         u32 pid, tid; char comm[]
 *   FORK, EXIT   u32 pid, ppid, tid, ptid; u64 time
 *   LOST         u64 id, lost
 *   LOST_SAMPLES u64 lost (the event: the trailer's id)
 *   SWITCH       nothing; SWITCH_CPU_WIDE u32 next_prev_pid, next_prev_tid
 */
#include <string.h>

#include "stream-int.h"

static inline uint64_t g64(const struct stream_decoder *d, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return d->swap ? bswap_64(v) : v;
}

static inline uint32_t g32(const struct stream_decoder *d, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return d->swap ? bswap_32(v) : v;
}

bool stream_record_known(uint32_t type)
{
	return type > 0 && type <= PERF_RECORD_AUX_OUTPUT_HW_ID;
}

size_t stream_trailer_len(const struct perf_event_attr *attr)
{
	if (!attr || !attr->sample_id_all)
		return 0;
	return 8 * __builtin_popcountll(attr->sample_type & STREAM_TRAILER_BITS);
}

/* a NUL-terminated string at @p of at most @len bytes, or a cut copy */
static const char *str_at(struct stream_decoder *d, const uint8_t *p, size_t len)
{
	if (memchr(p, 0, len))
		return (const char *)p;
	if (len >= sizeof(d->strbuf))
		len = sizeof(d->strbuf) - 1;
	memcpy(d->strbuf, p, len);
	d->strbuf[len] = 0;
	return d->strbuf;
}

static int decode_mmap(struct stream_decoder *d, const struct perf_event_header *h,
		       const struct sample_trailer *tr, size_t sid_len)
{
	const struct stream_ops *o = d->ops;
	const uint8_t *p = (const uint8_t *)(h + 1);
	size_t fixed = h->type == PERF_RECORD_MMAP2 ? 64 : 32;
	struct stream_mmap m = { 0 };

	if (h->size < sizeof(*h) + fixed + sid_len)
		return STREAM_DECODE_SHORT;
	m.pid = g32(d, p);
	m.tid = g32(d, p + 4);
	m.start = g64(d, p + 8);
	m.len = g64(d, p + 16);
	m.pgoff = g64(d, p + 24);
	m.time = tr->time;
	m.misc = h->misc;
	if (h->type == PERF_RECORD_MMAP2) {
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m.has_build_id = true;
			m.build_id_size = p[32] > 20 ? 20 : p[32];
			memcpy(m.build_id, p + 36, 20);
		} else {
			m.maj = g32(d, p + 32);
			m.min = g32(d, p + 36);
			m.ino = g64(d, p + 40);
			m.ino_generation = g64(d, p + 48);
		}
		m.prot = g32(d, p + 56);
		m.flags = g32(d, p + 60);
	}
	m.filename = str_at(d, p + fixed, h->size - sizeof(*h) - fixed - sid_len);
	return o->mmap ? o->mmap(o->ctx, &m) : 0;
}

static int decode_lost(struct stream_decoder *d, uint64_t id, uint64_t n, uint64_t time)
{
	const struct stream_ops *o = d->ops;

	d->stats->nr_lost += n;
	d->stats->nr_lost_records++;
	return o->lost ? o->lost(o->ctx, id, n, time) : 0;
}

int stream_decode_other(struct stream_decoder *d, const struct perf_event_header *h,
			const struct perf_event_attr *attr)
{
	const uint8_t *p = (const uint8_t *)(h + 1);
	const struct stream_ops *o = d->ops;
	struct sample_trailer tr = { (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, ~0ULL, 0 };
	size_t len = h->size - sizeof(*h), sid_len = 0;
	struct stream_task tk;

	if (!stream_record_known(h->type)) {
		d->stats->nr_unknown++;
		return 0;
	}
	if (attr && attr->sample_id_all && !sample_trailer_parse(attr, d->swap, h, &tr))
		sid_len = stream_trailer_len(attr);
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_mmap(d, h, &tr, sid_len);
	case PERF_RECORD_COMM:
		if (len < 8 + sid_len)
			return STREAM_DECODE_SHORT;
		return o->comm ? o->comm(o->ctx, g32(d, p), g32(d, p + 4),
					 str_at(d, p + 8, len - 8 - sid_len),
					 h->misc & PERF_RECORD_MISC_COMM_EXEC, tr.time) : 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (len < 24)
			return STREAM_DECODE_SHORT;
		tk = (struct stream_task){ h->type == PERF_RECORD_FORK, g32(d, p), g32(d, p + 4),
					   g32(d, p + 8), g32(d, p + 12), g64(d, p + 16),
					   h->misc };
		return o->task ? o->task(o->ctx, &tk) : 0;
	case PERF_RECORD_LOST:
		if (len < 16)
			return STREAM_DECODE_SHORT;
		return decode_lost(d, g64(d, p), g64(d, p + 8), tr.time);
	case PERF_RECORD_LOST_SAMPLES:
		if (len < 8)
			return STREAM_DECODE_SHORT;
		return decode_lost(d, tr.id, g64(d, p), tr.time);
	case PERF_RECORD_SWITCH:
		return o->switch_ ? o->switch_(o->ctx, tr.pid, tr.tid, tr.cpu,
					       h->misc & PERF_RECORD_MISC_SWITCH_OUT, 0, 0,
					       tr.time) : 0;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (len < 8)
			return STREAM_DECODE_SHORT;
		return o->switch_ ? o->switch_(o->ctx, tr.pid, tr.tid, tr.cpu,
					       h->misc & PERF_RECORD_MISC_SWITCH_OUT,
					       g32(d, p), g32(d, p + 4), tr.time) : 0;
	default:	/* THROTTLE, KSYMBOL, BPF_EVENT, CGROUP, TEXT_POKE, AUX, ...: no callback */
		return 0;
	}
}
