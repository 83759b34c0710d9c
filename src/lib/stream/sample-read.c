// SPDX-License-Identifier: GPL-2.0
/* Samples that read counters as one sample per value read (sample-read.h). */
#include <errno.h>
#include <stdlib.h>

#include "schedlens/sample-read.h"

struct read_id {
	uint64_t id, last;
	const struct stream_evsel *evsel;
};

struct sample_read {
	struct read_id *ids;	/* by id */
	size_t nr;
	uint64_t nr_unknown;
};

bool sample_read__reads(const struct stream_evsel *e)
{
	return e && (e->attr.sample_type & PERF_SAMPLE_READ);
}

static int cmp_id(const void *a, const void *b)
{
	const struct read_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

struct sample_read *sample_read__new(const struct stream_info *info, int *err)
{
	struct sample_read *sr = NULL;
	size_t i, j, n = 0;
	bool reads = false;

	*err = 0;
	for (i = 0; i < info->nr_evsels; i++) {
		reads |= sample_read__reads(&info->evsels[i]);
		n += info->evsels[i].nr_ids;
	}
	if (!reads)
		return NULL;
	sr = calloc(1, sizeof(*sr));
	if (sr)
		sr->ids = calloc(n ?: 1, sizeof(*sr->ids));
	if (!sr || !sr->ids) {
		sample_read__delete(sr);
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < info->nr_evsels; i++)
		for (j = 0; j < info->evsels[i].nr_ids; j++)
			sr->ids[sr->nr++] = (struct read_id){ .id = info->evsels[i].ids[j],
							      .evsel = &info->evsels[i] };
	qsort(sr->ids, sr->nr, sizeof(*sr->ids), cmp_id);
	return sr;
}

void sample_read__delete(struct sample_read *sr)
{
	if (!sr)
		return;
	free(sr->ids);
	free(sr);
}

uint64_t sample_read__nr_unknown(const struct sample_read *sr)
{
	return sr ? sr->nr_unknown : 0;
}

static int one_value(struct sample_read *sr, const struct stream_sample *s, uint64_t value,
		     uint64_t id, int (*fn)(void *ctx, const struct stream_sample *s), void *ctx)
{
	struct read_id key = { .id = id };
	struct read_id *e = sr ? bsearch(&key, sr->ids, sr->nr, sizeof(*sr->ids), cmp_id) : NULL;
	struct stream_sample v = *s;

	if (!e) {
		if (sr)
			sr->nr_unknown++;
		return 0;
	}
	v.id = id;
	v.period = value - e->last;
	v.evsel = e->evsel;
	e->last = value;
	return v.period ? fn(ctx, &v) : 0;
}

int sample_read__deliver(struct sample_read *sr, const struct stream_sample *s,
			 int (*fn)(void *ctx, const struct stream_sample *s), void *ctx)
{
	uint64_t rf, hdr, per, i, n;
	const uint64_t *v = s->read;
	int ret = 0;

	if (!sample_read__reads(s->evsel))
		return fn(ctx, s);
	if (!v)
		return 0;
	rf = s->evsel->attr.read_format;
	hdr = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	if (!(rf & PERF_FORMAT_GROUP))	/* value, times, id */
		return one_value(sr, s, v[0], rf & PERF_FORMAT_ID ? v[1 + hdr] : 0, fn, ctx);
	n = v[0];
	for (i = 0; i < n && !ret; i++) {
		const uint64_t *e = v + 1 + hdr + i * per;

		ret = one_value(sr, s, e[0], rf & PERF_FORMAT_ID ? e[1] : 0, fn, ctx);
	}
	return ret;
}
