// SPDX-License-Identifier: GPL-2.0
/* perf.data reader: kernel records (SAMPLE and the others) into stream.h callbacks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "perfdata-int.h"
#include "stream/stream-int.h"

static struct pd_evsel *evsel_of_other(struct perf_file *f, const struct perf_event_header *h)
{
	struct pd_evsel *e;

	if (!f->nr_evsels)
		return NULL;
	if (f->nr_evsels == 1 || f->is_pos < 0 || !f->evsels[0]->ev.attr.sample_id_all ||
	    (uint64_t)f->is_pos * 8 + 8 > h->size)
		return f->evsels[0];
	e = pd_evsel_by_id(f, pd_get64(f, (const uint8_t *)h + h->size - 8 * f->is_pos));
	return e ?: f->evsels[0];
}

uint64_t pd_record_time(struct perf_file *f, const struct perf_event_header *h,
			const struct pd_evsel *e)
{
	if (h->type == PERF_RECORD_SAMPLE) {
		if (e && e->time_off >= 0 && e->time_off + 8 <= h->size)
			return pd_get64(f, (const uint8_t *)h + e->time_off);
		return ~0ULL;
	}
	e = evsel_of_other(f, h);
	if (e && e->sid_time_off >= 0 && e->sid_len + 8u <= h->size)
		return pd_get64(f, (const uint8_t *)h + h->size - e->sid_len + e->sid_time_off);
	return ~0ULL;
}

/* a sample in host byte order: the event's template, then the fields its layout places */
static int parse_native(const struct pd_evsel *e, const struct perf_event_header *h,
			struct stream_sample *s)
{
	*s = e->tmpl;
	return pd_parse_fixed(e, h, s);
}

static int bad_sample(struct perf_file *f, const struct pd_evsel *e,
		      const struct perf_event_header *h, uint64_t off)
{
	return pd_bad(f, off, "%s sample of %u bytes is too short for its sample_type 0x%llx",
		      e->tmpl.evsel->name, h->size, (unsigned long long)e->sample_type);
}

int pd_sample_parse(struct perf_file *f, struct pd_evsel *e, const struct perf_event_header *h,
		    struct stream_sample *s, uint64_t off)
{
	int ret;

	if (!e) {
		memset(s, 0, sizeof(*s));
		return 1;
	}
	if (!f->swap) {
		ret = parse_native(e, h, s);
		goto out;
	}
	if (f->scratch_len < h->size / 8u) {
		free(f->scratch);
		f->scratch = malloc(PERF_MAX_REC);
		if (!f->scratch)
			return -ENOMEM;
		f->scratch_len = PERF_MAX_REC / 8;
	}
	ret = sample_parse_layout(&e->layout, &e->ev.attr, true, h, f->scratch, s);
	s->evsel = e->tmpl.evsel;
	pd_sample_defaults(e, s);
out:
	return ret ? bad_sample(f, e, h, off) : 0;
}

/* a record other than SAMPLE through the stream's one decoder */
static int deliver_other(struct perf_file *f, const struct perf_event_header *h, uint64_t off)
{
	struct pd_evsel *e = evsel_of_other(f, h);
	int ret;

	f->dec.ops = f->ops;
	f->dec.stats = &f->stats;
	f->dec.swap = f->swap;
	ret = stream_decode_other(&f->dec, h, e ? &e->ev.attr : NULL);
	if (ret == STREAM_DECODE_SHORT)
		return pd_bad(f, off, "%s record of %u bytes is too short",
			      perf_record__name(h->type), h->size);
	return ret;
}

static inline int deliver_sample(struct perf_file *f, const struct perf_event_header *h,
				 struct pd_evsel *e, uint64_t off)
{
	const struct stream_ops *o = f->ops;
	const struct stream_sample *sp;
	struct stream_sample s;
	int ret;

	if (e && pd_parse_over(f, e)) {
		if (!e->cur_ready) {
			e->cur = e->tmpl;
			e->cur_ready = true;
		}
		if (pd_parse_fixed(e, h, &e->cur))
			return bad_sample(f, e, h, off);
		sp = &e->cur;
	} else {
		ret = pd_sample_parse(f, e, h, &s, off);
		if (ret > 0) {
			f->stats.nr_unknown_id++;
			return 0;
		}
		if (ret)
			return ret;
		sp = &s;
	}
	f->stats.nr_samples++;
	if (o->raw && (ret = o->raw(o->ctx, h, h + 1)))
		return ret;
	return o->sample ? o->sample(o->ctx, sp) : 0;
}

int pd_deliver(struct perf_file *f, const struct perf_event_header *h, struct pd_evsel *e,
	       uint64_t off)
{
	const struct stream_ops *o = f->ops;
	int ret;

	if (h->type == PERF_RECORD_SAMPLE)
		return deliver_sample(f, h, e, off);
	if (o->raw && (ret = o->raw(o->ctx, h, h + 1)))
		return ret;
	return deliver_other(f, h, off);
}

int pd_flushed(void *ctx, uint64_t limit)
{
	struct perf_file *f = ctx;

	return f->ops && f->ops->flushed ? f->ops->flushed(f->ops->ctx, limit) : 0;
}

int pd_deliver_queued(void *ctx, const struct stream_qent *q)
{
	struct perf_file *f = ctx;
	unsigned int tag = stream_qent__tag(q);
	struct pd_evsel *e = tag ? f->evsels[tag - 1] : NULL;
	const struct perf_event_header *h = q->rec ?: pd_fetch(f, stream_qent__off(q));

	if (!h)
		return -EIO;
	if (f->map_drop && (f->drop_count += h->size) >= PD_DROP_STEP)
		pd_drop_behind(f);
	if (h->type == PERF_RECORD_SAMPLE && pd_parse_common(f, e, h))
		return f->ops->sample ? f->ops->sample(f->ops->ctx, &e->cur) : 0;
	return pd_deliver(f, h, e, stream_qent__off(q));
}
