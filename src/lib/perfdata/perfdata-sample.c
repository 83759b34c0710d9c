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

struct sid {
	uint32_t pid, tid, cpu;
	uint64_t time, id;
	size_t len;		/* bytes of the trailer */
};

/* the sample_id trailer of a non-sample record */
static void parse_sid(struct perf_file *f, const struct perf_event_header *h, struct sid *s)
{
	struct pd_evsel *e = evsel_of_other(f, h);
	struct sample_trailer tr = { (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, ~0ULL, 0 };

	memset(s, 0, sizeof(*s));
	if (e && e->ev.attr.sample_id_all && !sample_trailer_parse(&e->ev.attr, f->swap, h, &tr))
		s->len = e->sid_len;
	s->pid = tr.pid;
	s->tid = tr.tid;
	s->cpu = tr.cpu;
	s->time = tr.time;
	s->id = tr.id;
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

/* a NUL-terminated string at p, at most len bytes, or a truncated copy */
static const char *str_at(struct perf_file *f, const uint8_t *p, size_t len)
{
	if (memchr(p, 0, len))
		return (const char *)p;
	if (len >= sizeof(f->strbuf))
		len = sizeof(f->strbuf) - 1;
	memcpy(f->strbuf, p, len);
	f->strbuf[len] = 0;
	return f->strbuf;
}

static int deliver_mmap(struct perf_file *f, const struct perf_event_header *h,
			const struct sid *sid, uint64_t off)
{
	const uint8_t *p = (const uint8_t *)(h + 1);
	size_t fixed = h->type == PERF_RECORD_MMAP2 ? 64 : 32;
	struct stream_mmap m = { 0 };

	if (h->size < 8 + fixed + sid->len)
		return pd_bad(f, off, "%s record of %u bytes is too short",
			      perf_record__name(h->type), h->size);
	m.pid = pd_get32(f, p);
	m.tid = pd_get32(f, p + 4);
	m.start = pd_get64(f, p + 8);
	m.len = pd_get64(f, p + 16);
	m.pgoff = pd_get64(f, p + 24);
	m.time = sid->time;
	m.misc = h->misc;
	if (h->type == PERF_RECORD_MMAP2) {
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m.has_build_id = true;
			m.build_id_size = p[32] > 20 ? 20 : p[32];
			memcpy(m.build_id, p + 36, 20);
		} else {
			m.maj = pd_get32(f, p + 32);
			m.min = pd_get32(f, p + 36);
			m.ino = pd_get64(f, p + 40);
			m.ino_generation = pd_get64(f, p + 48);
		}
		m.prot = pd_get32(f, p + 56);
		m.flags = pd_get32(f, p + 60);
	}
	m.filename = str_at(f, p + fixed, h->size - 8 - fixed - sid->len);
	return f->ops->mmap ? f->ops->mmap(f->ops->ctx, &m) : 0;
}

static int deliver_other(struct perf_file *f, const struct perf_event_header *h, uint64_t off)
{
	const uint8_t *p = (const uint8_t *)(h + 1);
	const struct stream_ops *o = f->ops;
	size_t len = h->size - 8;
	struct stream_task tk;
	struct sid sid;
	uint64_t id, n;

	parse_sid(f, h, &sid);
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return deliver_mmap(f, h, &sid, off);
	case PERF_RECORD_COMM:
		if (len < 8 + sid.len)
			break;
		return o->comm ? o->comm(o->ctx, pd_get32(f, p), pd_get32(f, p + 4),
					 str_at(f, p + 8, len - 8 - sid.len),
					 h->misc & PERF_RECORD_MISC_COMM_EXEC, sid.time) : 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (len < 24)
			break;
		tk = (struct stream_task){ h->type == PERF_RECORD_FORK, pd_get32(f, p),
					   pd_get32(f, p + 4), pd_get32(f, p + 8),
					   pd_get32(f, p + 12), pd_get64(f, p + 16), h->misc };
		return o->task ? o->task(o->ctx, &tk) : 0;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		if (len < (h->type == PERF_RECORD_LOST ? 16u : 8u))
			break;
		id = h->type == PERF_RECORD_LOST ? pd_get64(f, p) : sid.id;
		n = pd_get64(f, h->type == PERF_RECORD_LOST ? p + 8 : p);
		f->stats.nr_lost += n;
		f->stats.nr_lost_records++;
		return o->lost ? o->lost(o->ctx, id, n, sid.time) : 0;
	case PERF_RECORD_SWITCH:
		return o->switch_ ? o->switch_(o->ctx, sid.pid, sid.tid, sid.cpu,
					       h->misc & PERF_RECORD_MISC_SWITCH_OUT, 0, 0,
					       sid.time) : 0;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (len < 8)
			break;
		return o->switch_ ? o->switch_(o->ctx, sid.pid, sid.tid, sid.cpu,
					       h->misc & PERF_RECORD_MISC_SWITCH_OUT,
					       pd_get32(f, p), pd_get32(f, p + 4), sid.time) : 0;
	default:
		return 0;
	}
	return pd_bad(f, off, "%s record of %u bytes is too short", perf_record__name(h->type),
		      h->size);
}

static inline int deliver_sample(struct perf_file *f, const struct perf_event_header *h,
				 struct pd_evsel *e, uint64_t off,
				 int (*to)(void *ctx, const struct stream_sample *s))
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
	return to ? to(o->ctx, sp) : 0;
}

int pd_deliver_any_order(struct perf_file *f, const struct perf_event_header *h,
			 struct pd_evsel *e, uint64_t off)
{
	return deliver_sample(f, h, e, off, f->ops->sample_any_order);
}

int pd_deliver(struct perf_file *f, const struct perf_event_header *h, struct pd_evsel *e,
	       uint64_t off)
{
	const struct stream_ops *o = f->ops;
	int ret;

	if (h->type == PERF_RECORD_SAMPLE)
		return deliver_sample(f, h, e, off, o->sample);
	if (o->raw && (ret = o->raw(o->ctx, h, h + 1)))
		return ret;
	return deliver_other(f, h, off);
}
