// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader: samples counted by place. A consumer that takes some samples in any
 * order and only needs how many landed where (stream_ops.place: report's kernel samples by
 * symbol) gets them counted here, by (event, ip), as they are read: no call per sample.
 */
#include <errno.h>
#include <stdlib.h>

#include "perfdata-int.h"

static struct pd_place *slot_of(const struct pd_places *t, const struct pd_evsel *e,
				uint64_t ip)
{
	uint64_t h = (ip ^ (uintptr_t)e * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
	size_t i = (size_t)(h >> 32) & t->mask;

	while (t->v[i].evsel && (t->v[i].ip != ip || t->v[i].evsel != e))
		i = (i + 1) & t->mask;
	return &t->v[i];
}

static int grow(struct perf_file *f)
{
	struct pd_places n = { .mask = f->places.v ? f->places.mask * 2 + 1 : 255 };
	size_t i;

	n.v = calloc(n.mask + 1, sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (i = 0; f->places.v && i <= f->places.mask; i++)
		if (f->places.v[i].evsel)
			*slot_of(&n, f->places.v[i].evsel, f->places.v[i].ip) = f->places.v[i];
	n.used = f->places.used;
	free(f->places.v);
	f->places = n;
	for (i = 0; i < f->nr_evsels; i++)	/* the last places moved */
		f->evsels[i]->place = NULL;
	return 0;
}

int pd_place_add_slow(struct perf_file *f, struct pd_evsel *e, const struct stream_sample *s)
{
	struct pd_place *p;

	if ((!f->places.v || 2 * (f->places.used + 1) > f->places.mask + 1) && grow(f))
		return -ENOMEM;
	p = slot_of(&f->places, e, s->ip);
	if (!p->evsel) {
		*p = (struct pd_place){ .ip = s->ip, .time = s->time, .evsel = e, .pid = s->pid,
					.tid = s->tid, .cpu = s->cpu, .misc = s->misc };
		f->places.used++;
	}
	e->place = p;
	return pd_place_add(f, e, s);
}

int pd_places_deliver(struct perf_file *f)
{
	struct pd_places t = f->places;
	size_t i;
	int ret = 0;

	f->places = (struct pd_places){ 0 };
	for (i = 0; i < f->nr_evsels; i++)
		f->evsels[i]->place = NULL;
	for (i = 0; t.v && i <= t.mask && !ret; i++) {
		const struct pd_place *p = &t.v[i];
		struct stream_sample s;

		if (!p->evsel)
			continue;
		s = p->evsel->tmpl;
		s.ip = p->ip;
		s.time = p->time;
		s.pid = p->pid;
		s.tid = p->tid;
		s.cpu = p->cpu;
		s.misc = p->misc;
		s.period = p->period;
		ret = f->ops->place(f->ops->ctx, &s, p->nr, p->period);
	}
	free(t.v);
	return ret;
}

void pd_places_free(struct perf_file *f)
{
	free(f->places.v);
	f->places = (struct pd_places){ 0 };
}
