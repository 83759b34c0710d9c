// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report: kernel samples counted by place (event, ip) as they are read, outside
 * time order, then resolved once per place. With sort keys of symbol and DSO only, no
 * callchains and no rows by label, where a kernel sample lands depends on the kernel maps
 * alone, not on the comms, forks and user maps around it. So the time queue can be skipped
 * for them, as long as the kernel maps do not change once the first one is counted; when
 * they do (a kernel map recorded mid-run), the file is read again in time order.
 */
#include <errno.h>
#include <stdlib.h>

#include "report-int.h"

struct kagg_place {
	uint64_t ip, nr, period, with_caller;
	uint64_t first;			/* the earliest time: places are resolved in that order */
	uint64_t seq;			/* order of arrival, for ties */
	const struct stream_evsel *evsel;
	uint32_t pid, tid, cpu;
	uint16_t misc;
};

struct report_kagg {
	struct kagg_place *v;		/* open addressing, nr == 0: free */
	struct kagg_place *last;	/* the place of the previous sample: most often the next's */
	size_t mask, used;
	uint64_t kmaps_gen;		/* when the first sample came */
	bool any;
};

bool report__kagg_eligible(const struct report *r, bool pipe)
{
	const struct report_opts *o = r->o;
	size_t i;

	/* samples that read counters get their periods from the previous one's: in order */
	if (pipe || !r->memo || r->focus || o->sym.folded || r->labels || r->sread || r->filter)
		return false;
	for (i = 0; i < o->nr_sorts; i++)
		if (o->sorts[i] != HIST_SORT_SYM && o->sorts[i] != HIST_SORT_DSO)
			return false;
	for (i = 0; i < o->sym.nr_keys; i++)
		if (o->sym.keys[i] != SYMREP_SYM && o->sym.keys[i] != SYMREP_DSO)
			return false;
	return true;
}

int report__kagg_new(struct report *r)
{
	r->kagg = calloc(1, sizeof(*r->kagg));
	if (!r->kagg)
		return -ENOMEM;
	r->kagg->mask = 1023;
	r->kagg->v = calloc(r->kagg->mask + 1, sizeof(*r->kagg->v));
	return r->kagg->v ? 0 : -ENOMEM;
}

void report__kagg_delete(struct report *r)
{
	if (r->kagg)
		free(r->kagg->v);
	free(r->kagg);
	r->kagg = NULL;
}

static size_t slot_of(const struct report_kagg *a, const struct stream_evsel *ev, uint64_t ip)
{
	uint64_t h = (ip ^ (uintptr_t)ev * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
	size_t i = (size_t)(h >> 32) & a->mask;

	while (a->v[i].nr && (a->v[i].ip != ip || a->v[i].evsel != ev))
		i = (i + 1) & a->mask;
	return i;
}

static int grow(struct report_kagg *a)
{
	struct report_kagg n = { .mask = a->mask * 2 + 1 };
	size_t i;

	n.v = calloc(n.mask + 1, sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (i = 0; i <= a->mask; i++)
		if (a->v[i].nr)
			n.v[slot_of(&n, a->v[i].evsel, a->v[i].ip)] = a->v[i];
	free(a->v);
	a->v = n.v;
	a->mask = n.mask;
	a->last = NULL;
	return 0;
}

/* @nr samples at @s's place, @period in all, @with_caller of them with callchains */
static int kagg_add(struct report *r, const struct stream_sample *s, uint64_t nr,
		    uint64_t period, uint64_t with_caller)
{
	struct report_kagg *a = r->kagg;
	struct kagg_place *p;

	if (!s->evsel || (size_t)s->evsel->idx >= r->nr)
		return 0;
	if (!a->any) {
		a->any = true;
		a->kmaps_gen = threads__kmaps_gen(r->threads);
	}
	p = a->last;
	if (!p || p->ip != s->ip || p->evsel != s->evsel)
		p = &a->v[slot_of(a, s->evsel, s->ip)];
	if (!p->nr) {
		if (2 * (a->used + 1) > a->mask + 1) {
			if (grow(a))
				return -ENOMEM;
			p = &a->v[slot_of(a, s->evsel, s->ip)];
		}
		*p = (struct kagg_place){ .ip = s->ip, .first = s->time, .seq = a->used++,
					  .evsel = s->evsel, .pid = s->pid, .tid = s->tid,
					  .cpu = s->cpu, .misc = s->misc };
	}
	if (s->time < p->first)
		p->first = s->time;
	p->nr += nr;
	p->period += period;
	p->with_caller += with_caller;
	a->last = p;
	return 0;
}

int report__kagg_sample(void *ctx, const struct stream_sample *s)
{
	return kagg_add(ctx, s, 1, s->period, s->nr_callchain > 2);
}

static int cmp_first(const void *x, const void *y)
{
	const struct kagg_place *a = *(struct kagg_place *const *)x;
	const struct kagg_place *b = *(struct kagg_place *const *)y;

	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* the @p->nr samples of a place into the per-event counts, the hist and symrep */
static int add_place(struct report *r, const struct kagg_place *p)
{
	struct stream_sample s = { .evsel = p->evsel, .ip = p->ip, .pid = p->pid, .tid = p->tid,
				   .cpu = p->cpu, .misc = p->misc, .time = p->first,
				   .period = p->period };
	size_t idx = (size_t)p->evsel->idx, at;
	struct hist_key k;
	int ret;

	r->nr_samples[idx] += p->nr;
	r->period[idx] += p->period;
	/* one sample of all the period (no callchain), then the others */
	ret = report__place(r, &s, &k, NULL);
	if (ret)
		return ret;
	if (r->symrep)
		symrep__repeat_n(r->symrep, k.sym_name, p->nr - 1, 0, p->with_caller);
	ret = hist__add_idx(r->hists[idx], &k, s.period, &at);
	if (!ret)
		hist__add_more(r->hists[idx], at, p->nr - 1, 0);
	return ret;
}

int report__kagg_finish(struct report *r, bool *again)
{
	struct report_kagg *a = r->kagg;
	struct kagg_place **order;
	size_t i, n = 0;
	int ret = 0;

	*again = a->any && threads__kmaps_gen(r->threads) != a->kmaps_gen;
	if (!a->used || *again)
		return 0;
	order = malloc(a->used * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i <= a->mask; i++)
		if (a->v[i].nr)
			order[n++] = &a->v[i];
	/* as time order would have met them: the first skid symbol is named in a note */
	qsort(order, n, sizeof(*order), cmp_first);
	for (i = 0; i < n && !ret; i++)
		ret = add_place(r, order[i]);
	free(order);
	return ret;
}
