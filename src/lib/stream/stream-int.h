/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the record stream's sources (the stream and perfdata folders): the one PERF_RECORD_SAMPLE
 * parser, shared by the live sampler and the perf.data reader, and the sampler's tracefs half. */
#ifndef SCHEDLENS_STREAM_INT_H
#define SCHEDLENS_STREAM_INT_H

#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "schedlens/sampler.h"
#include "schedlens/stream.h"

/* the sample_id_all trailer of a non-sample record */
struct sample_trailer {
	uint32_t pid, tid, cpu;
	uint64_t time, id;
};

/* Where the fixed-size fields of a sample_type sit, in u64s from the start of the body
 * (-1 when absent), computed once per event so each sample is read without walking the bits. */
struct sample_layout {
	uint64_t sample_type;
	int8_t ip, tid, time, addr, id, stream_id, cpu, period;
	uint16_t fixed_len;		/* bytes before the first variable-size field */
	bool has_tail;			/* fields past the fixed ones (READ, CALLCHAIN, RAW, ...) */
	bool raw_only;			/* and those are just RAW (tracepoints) */
};

void sample_layout__init(struct sample_layout *l, const struct perf_event_attr *attr);

static inline uint64_t sample_slot64(const uint8_t *b, int i, bool swap)
{
	uint64_t v;

	memcpy(&v, b + 8 * i, 8);
	return swap ? bswap_64(v) : v;
}

/* the u32 at half @half of slot @i into *@to (a memcpy: the compiler then loads each of the
 * layout's slots where it is used, not all at once in callee-saved registers) */
static inline void sample_slot32(const uint8_t *b, int i, int half, bool swap, uint32_t *to)
{
	uint32_t v;

	memcpy(&v, b + 8 * i + 4 * half, 4);
	if (swap)
		v = bswap_32(v);
	memcpy(to, &v, 4);
}

/*
 * misc and the fixed-size fields @l places into @out; the fields it does not place are left
 * as they are (zero, an event's template, or its previous sample). -EINVAL when @h is too
 * short for them.
 */
static inline int sample_parse_fixed(const struct sample_layout *l, bool swap,
				     const struct perf_event_header *h, struct stream_sample *out)
{
	const uint8_t *b = (const uint8_t *)(h + 1);

	out->misc = h->misc;
	if (h->size < sizeof(*h) + l->fixed_len)
		return -EINVAL;
	if (l->ip >= 0)
		out->ip = sample_slot64(b, l->ip, swap);
	if (l->tid >= 0) {
		sample_slot32(b, l->tid, 0, swap, &out->pid);
		sample_slot32(b, l->tid, 1, swap, &out->tid);
	}
	if (l->time >= 0)
		out->time = sample_slot64(b, l->time, swap);
	if (l->addr >= 0)
		out->addr = sample_slot64(b, l->addr, swap);
	if (l->id >= 0)
		out->id = sample_slot64(b, l->id, swap);
	if (l->stream_id >= 0)
		out->stream_id = sample_slot64(b, l->stream_id, swap);
	if (l->cpu >= 0)
		sample_slot32(b, l->cpu, 0, swap, &out->cpu);
	if (l->period >= 0)
		out->period = sample_slot64(b, l->period, swap);
	return 0;
}

/* sample_parse() with the layout of @attr computed beforehand */
int sample_parse_layout(const struct sample_layout *l, const struct perf_event_attr *attr,
			bool swap, const struct perf_event_header *h, uint64_t *scratch,
			struct stream_sample *out);

/* The variable-size fields of a sample from @p (past the fixed ones) to @end into @out. */
int sample_parse_tail(const struct perf_event_attr *attr, bool swap, const uint8_t *p,
		      const uint8_t *end, uint64_t *scratch, struct stream_sample *out);

/*
 * Parse SAMPLE record @h (header in host order, body in host order or, with @swap, the other
 * one) as laid out by @attr into @out (zeroed first, evsel left NULL). With @swap, arrays are
 * byte-swapped into @scratch, which must hold h->size bytes. 0, or -EINVAL when @h is too short.
 */
int sample_parse(const struct perf_event_attr *attr, bool swap, const struct perf_event_header *h,
		 uint64_t *scratch, struct stream_sample *out);

/* Fill only the fields present in the trailer of @h; 0 without sample_id_all, -EINVAL when
 * @h is too short to hold it. */
int sample_trailer_parse(const struct perf_event_attr *attr, bool swap,
			 const struct perf_event_header *h, struct sample_trailer *out);

/* A tep_handle with the header page and the format of each tracepoint in @evsels, whose tp
 * fields are set. NULL with @err set. (sampler-tep.c) */
struct tep_handle *sampler_tep__load(const char *tracefs, struct stream_evsel *evsels, size_t nr,
				     struct errbuf *err);

#endif
