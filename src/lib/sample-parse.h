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
