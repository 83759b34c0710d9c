/* SPDX-License-Identifier: GPL-2.0 */
/* The one PERF_RECORD_SAMPLE parser, shared by the live sampler and the perf.data reader. */
#ifndef SCHEDLENS_SAMPLE_PARSE_H
#define SCHEDLENS_SAMPLE_PARSE_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
