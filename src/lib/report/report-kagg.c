// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report: kernel samples counted outside time order. With sort keys of symbol and
 * DSO only, no callchains and no rows by label, where a kernel sample lands depends on the
 * kernel maps alone, not on the comms, forks and user maps around it: such samples are
 * counted by place (event, ip) as they are read, each place resolved once. So the time queue
 * can be skipped for them, as long as the kernel maps do not change once the first one is
 * counted; when they do (a kernel map recorded mid-run), the file is read again in time
 * order.
 *
 * With the comm a key too (by_thread; perf's default keys, comm,dso,sym), a sample's row
 * also depends on the comm a lookup of its thread gives in time order (its string: the text
 * of a thread's first one may change in place later, for every sample alike). Comms change
 * with COMM and FORK records, which come in time order: each change is noted with where it
 * was delivered (struct kagg_change) and the thread's comm before and after. A sample waits
 * (struct kagg_pend, not queued and read again as in time order) until the source says every
 * record up to its time has come (stream_ops.flushed); then its comm is the one after its
 * thread's last change before it, or, with none, the one before the first after it, or, with
 * no change at all, the thread's as it is; and its row is kept by event, ip and comm (struct
 * kagg_row). Where that cannot be told (a change delivered where the sample was; a thread
 * that a change after the sample made), the file is read again in time order. On the bench
 * corpus's sched.data (419,116 tracepoint samples of 800 tasks) `report --sort comm,dso,sym`
 * went from 36.6 to 29.3 ms, on its syswide.data from 153.5 to 127.6 ms.
 */
#include <errno.h>
#include <stdlib.h>

#include "report-int.h"

struct kagg_place {
	uint64_t ip, nr, period, with_caller;
	uint64_t first;			/* the earliest time: places are resolved in that order */
	const struct stream_evsel *evsel;
	uint32_t pid, tid, cpu;
	uint16_t misc;
};

/* a kernel sample waiting for the records around it (by_thread): 40 bytes, as two rounds of
 * a system-wide recording hold hundreds of thousands (its cpu is no key here) */
struct kagg_pend {
	uint64_t at, time, ip;
	uint32_t period;
	uint32_t pid, tid;
	uint16_t misc;
	uint8_t ev;			/* its event's number: evs[ev] */
	bool with_caller;
};

#define COMM_MEMO 256		/* pend_comm()'s answers kept */
#define PEND_BLOCK 8192		/* waiting samples a block (struct pend_block) */
#define MAX_EVS 255

/* the waiting samples in blocks of PEND_BLOCK: no copy of all of them to grow */
struct pend_block {
	struct pend_block *next;
	size_t nr;
	struct kagg_pend v[PEND_BLOCK];
};

/*
 * Where a record was delivered among the others (struct kagg_pend, kagg_change: @at): at its
 * time, times four; a record without a time was delivered as it was read, after those up to
 * the last flush, at F * 4 + 1 (F: that flush's time); one that came late (not newer than
 * the last flush) waited for the next flush, which delivers it before the records newer than
 * F: at F * 4 + 2. Records at one place go in time order (@time, their own).
 */
#define AT_MAX (~0ULL / 4 - 1)

/* a thread's comm changed: what a lookup gave before (NULL: no thread) and after */
struct kagg_change {
	uint64_t at, time;
	const char *before, *after;
	uint32_t tid;
	uint32_t prev;			/* the thread's change before, index + 1; 0: none */
};

struct report_kagg {
	uint32_t *slots;		/* open addressing: index + 1 in v, 0: free */
	size_t mask;
	struct kagg_place *v;		/* in order of arrival */
	size_t nr, alloc;
	size_t last;			/* index + 1 of the previous sample's place */
	uint64_t kmaps_gen;		/* when the first sample came */
	bool any;
	bool by_thread;			/* the comm is a key */
	bool unsure;			/* a sample's comm could not be told: read in order */
	uint64_t flushed;		/* F: the last flush's time (report__kagg_flushed()) */
	struct pend_block *pend, *pend_last;	/* in order of arrival */
	struct pend_block *spare;		/* one emptied block kept */
	const struct stream_evsel *evs[MAX_EVS];	/* the waiting samples' events, by number */
	struct comm_memo {			/* pend_comm()'s answers by tid (direct mapped): */
		uint32_t tid;			/* the thread's comm between changes lo and hi */
		uint32_t lo, hi;		/* (index + 1, 0: none) */
		const char *comm;		/* NULL: empty */
	} memo[COMM_MEMO];
	struct kagg_change *changes;
	size_t nr_changes, alloc_changes;
	uint32_t *heads;		/* by tid (open addressing): its last change, index + 1 */
	size_t heads_mask, nr_heads;
	struct kagg_row {		/* by_thread: a settled sample's row by its event, ip and
					   comm (direct mapped, ev NULL: empty) */
		uint64_t ip;
		const char *comm, *sym;
		const struct stream_evsel *ev;
		size_t idx;		/* in the event's hist */
	} *rows;
};

#define KAGG_ROWS 4096

/* whether every event's samples have times (a change is placed among them by its time) */
static bool samples_timed(const struct stream_info *info)
{
	size_t i;

	if (!info)
		return false;
	for (i = 0; i < info->nr_evsels; i++)
		if (!(info->evsels[i].attr.sample_type & PERF_SAMPLE_TIME))
			return false;
	return true;
}

/* the keys' kind: 0 not eligible, 1 symbol and DSO, 2 with the comm */
static int keys_kind(const struct report *r)
{
	const struct report_opts *o = r->o;
	bool comm = false;
	size_t i;

	for (i = 0; i < o->nr_sorts; i++) {
		if (o->sorts[i] == HIST_SORT_COMM)
			comm = true;
		else if (o->sorts[i] != HIST_SORT_SYM && o->sorts[i] != HIST_SORT_DSO)
			return 0;
	}
	for (i = 0; i < o->sym.nr_keys; i++) {
		if (o->sym.keys[i] == SYMREP_COMM)
			comm = true;
		else if (o->sym.keys[i] != SYMREP_SYM && o->sym.keys[i] != SYMREP_DSO)
			return 0;
	}
	if (comm && !samples_timed(r->info))
		return 0;
	return comm ? 2 : 1;
}

bool report__kagg_eligible(const struct report *r, bool pipe)
{
	/* samples that read counters get their periods from the previous one's: in order */
	if (pipe || !r->memo || r->focus || r->o->sym.folded || r->labels || r->sread || r->filter)
		return false;
	return keys_kind(r) != 0;
}

int report__kagg_new(struct report *r)
{
	r->kagg = calloc(1, sizeof(*r->kagg));
	if (!r->kagg)
		return -ENOMEM;
	r->kagg->by_thread = keys_kind(r) == 2;
	if (r->kagg->by_thread && !(r->kagg->rows = calloc(KAGG_ROWS, sizeof(*r->kagg->rows))))
		return -ENOMEM;
	r->kagg->mask = 1023;
	r->kagg->slots = calloc(r->kagg->mask + 1, sizeof(*r->kagg->slots));
	return r->kagg->slots ? 0 : -ENOMEM;
}

void report__kagg_delete(struct report *r)
{
	if (r->kagg) {
		free(r->kagg->slots);
		free(r->kagg->v);
		while (r->kagg->pend) {
			struct pend_block *b = r->kagg->pend;

			r->kagg->pend = b->next;
			free(b);
		}
		free(r->kagg->spare);
		free(r->kagg->changes);
		free(r->kagg->heads);
		free(r->kagg->rows);
	}
	free(r->kagg);
	r->kagg = NULL;
}

bool report__kagg_by_thread(const struct report *r)
{
	return r->kagg && r->kagg->by_thread;
}

static inline bool place_is(const struct kagg_place *p, const struct stream_evsel *ev,
			    uint64_t ip)
{
	return p->ip == ip && p->evsel == ev;
}

/* the slot of the place (@ev, @ip), or the free one where it would go */
static size_t slot_of(const struct report_kagg *a, const struct stream_evsel *ev, uint64_t ip)
{
	uint64_t h = (ip ^ (uintptr_t)ev * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
	size_t i = (size_t)(h >> 32) & a->mask;

	while (a->slots[i] && !place_is(&a->v[a->slots[i] - 1], ev, ip))
		i = (i + 1) & a->mask;
	return i;
}

static int grow(struct report_kagg *a)
{
	size_t nmask = a->mask * 2 + 1, i;
	uint32_t *n = calloc(nmask + 1, sizeof(*n)), *o = a->slots;

	if (!n)
		return -ENOMEM;
	a->slots = n;
	a->mask = nmask;
	for (i = 0; i < a->nr; i++)
		n[slot_of(a, a->v[i].evsel, a->v[i].ip)] = (uint32_t)(i + 1);
	free(o);
	return 0;
}

/* kernel sample @s at its place */
static int place_add(struct report *r, const struct stream_sample *s)
{
	struct report_kagg *a = r->kagg;
	struct kagg_place *p = a->last ? &a->v[a->last - 1] : NULL;

	if (!p || !place_is(p, s->evsel, s->ip)) {
		size_t i = slot_of(a, s->evsel, s->ip);

		if (a->slots[i]) {
			p = &a->v[a->slots[i] - 1];
		} else {
			if (a->nr == a->alloc) {
				size_t n = a->alloc ? a->alloc * 2 : 1024;
				struct kagg_place *v = n >= UINT32_MAX ? NULL :
						       realloc(a->v, n * sizeof(*v));

				if (!v)
					return -ENOMEM;
				a->v = v;
				a->alloc = n;
			}
			if (2 * (a->nr + 1) > a->mask + 1) {
				if (grow(a))
					return -ENOMEM;
				i = slot_of(a, s->evsel, s->ip);
			}
			a->slots[i] = (uint32_t)(a->nr + 1);
			p = &a->v[a->nr++];
			*p = (struct kagg_place){ .ip = s->ip, .first = s->time, .evsel = s->evsel,
						  .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
						  .misc = s->misc };
		}
	}
	if (s->time < p->first)
		p->first = s->time;
	p->nr++;
	p->period += s->period;
	p->with_caller += s->nr_callchain > 2;
	a->last = (size_t)(p - a->v) + 1;
	return 0;
}

int report__kagg_sample(void *ctx, const struct stream_sample *s)
{
	struct report *r = ctx;
	struct report_kagg *a = r->kagg;
	struct pend_block *b;

	if (!s->evsel || (size_t)s->evsel->idx >= r->nr)
		return 0;
	if (!a->any) {
		a->any = true;
		a->kmaps_gen = threads__kmaps_gen(r->threads);
	}
	if (!a->by_thread)
		return place_add(r, s);
	if (a->unsure)
		return 0;	/* (the file is read again in order) */
	/* (more events, a larger period or a later time than a waiting sample holds: in order) */
	if (s->evsel->idx >= MAX_EVS || s->period > UINT32_MAX || s->time >= AT_MAX)
		return a->unsure = true, 0;
	b = a->pend_last;
	if (!b || b->nr == PEND_BLOCK) {
		struct pend_block *n = a->spare ?: malloc(sizeof(*n));

		if (!n)
			return -ENOMEM;
		a->spare = NULL;
		n->next = NULL;
		n->nr = 0;
		if (b)
			b->next = n;
		else
			a->pend = n;
		a->pend_last = b = n;
	}
	a->evs[s->evsel->idx] = s->evsel;
	b->v[b->nr++] = (struct kagg_pend){
		.at = s->time > a->flushed ? 4 * s->time : 4 * a->flushed + 2,	/* (late) */
		.time = s->time, .ip = s->ip, .period = (uint32_t)s->period, .pid = s->pid,
		.tid = s->tid, .misc = s->misc, .ev = (uint8_t)s->evsel->idx,
		.with_caller = s->nr_callchain > 2 };
	return 0;
}

static uint32_t *head_slot(struct report_kagg *a, uint32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & a->heads_mask;

	while (a->heads[i] && a->changes[a->heads[i] - 1].tid != tid)
		i = (i + 1) & a->heads_mask;
	return &a->heads[i];
}

/* the thread's last change, index + 1 in changes; 0: none */
static uint32_t head_of(struct report_kagg *a, uint32_t tid)
{
	return a->heads ? *head_slot(a, tid) : 0;
}

static int heads_grow(struct report_kagg *a)
{
	size_t nmask = a->heads_mask ? a->heads_mask * 2 + 1 : 255, i;
	uint32_t *o = a->heads, omask = (uint32_t)a->heads_mask;

	a->heads = calloc(nmask + 1, sizeof(*a->heads));
	if (!a->heads) {
		a->heads = o;
		return -ENOMEM;
	}
	a->heads_mask = nmask;
	for (i = 0; o && i <= omask; i++)
		if (o[i])
			*head_slot(a, a->changes[o[i] - 1].tid) = o[i];
	free(o);
	return 0;
}

void report__kagg_watch(struct report *r, const uint32_t *tids, size_t n, const char **before)
{
	size_t i;

	for (i = 0; i < n; i++)
		before[i] = threads__comm_now(r->threads, tids[i]);
}

int report__kagg_changed(struct report *r, const uint32_t *tids, size_t n,
			 const char *const *before, uint64_t time)
{
	struct report_kagg *a = r->kagg;
	uint64_t at;
	size_t i, j;

	for (i = 0; i < n; i++) {
		const char *now = threads__comm_now(r->threads, tids[i]);
		uint32_t *h;

		for (j = 0; j < i && tids[j] != tids[i]; j++)
			;
		if (j < i || now == before[i])
			continue;	/* the same thread twice, or no change */
		if (a->memo[tids[i] % COMM_MEMO].tid == tids[i])
			a->memo[tids[i] % COMM_MEMO].comm = NULL;	/* (an answer had no end) */
		if (!time || time == ~0ULL)
			at = 4 * a->flushed + 1;
		else if (time <= a->flushed)
			at = 4 * a->flushed + 2;
		else if (time < AT_MAX)
			at = 4 * time;
		else
			a->unsure = true, at = 0;	/* (a time no place can be found for) */
		if (a->nr_changes == a->alloc_changes) {
			size_t na = a->alloc_changes ? a->alloc_changes * 2 : 256;
			struct kagg_change *v = na >= UINT32_MAX ? NULL :
						realloc(a->changes, na * sizeof(*v));

			if (!v)
				return -ENOMEM;
			a->changes = v;
			a->alloc_changes = na;
		}
		if (2 * (a->nr_heads + 1) > a->heads_mask + 1 && heads_grow(a))
			return -ENOMEM;
		h = head_slot(a, tids[i]);
		a->nr_heads += !*h;
		a->changes[a->nr_changes] = (struct kagg_change){ at, time, before[i], now, tids[i],
								   *h };
		*h = (uint32_t)++a->nr_changes;
	}
	return 0;
}

/* where change @c (index + 1) was delivered against sample @p: < 0 before, 0 as one */
static inline int change_vs(const struct report_kagg *a, uint32_t c, const struct kagg_pend *p)
{
	const struct kagg_change *x = &a->changes[c - 1];

	if (x->at != p->at)
		return x->at < p->at ? -1 : 1;
	return x->time < p->time ? -1 : x->time > p->time;
}

/*
 * The comm time order would have given @p, into *@comm; false where it cannot be told.
 * Valid until the thread's next change (a->memo[], emptied by one).
 */
static bool pend_comm(struct report *r, const struct kagg_pend *p, const char **comm)
{
	struct report_kagg *a = r->kagg;
	struct comm_memo *m = &a->memo[p->tid % COMM_MEMO];
	uint32_t c, after = 0;

	if (m->comm && m->tid == p->tid && (!m->lo || change_vs(a, m->lo, p) < 0) &&
	    (!m->hi || change_vs(a, m->hi, p) > 0)) {
		*comm = m->comm;
		return true;
	}
	c = head_of(a, p->tid);
	if (!c) {	/* a thread no change named yet: as a lookup finds it, or makes it */
		*comm = threads__comm_of(r->threads, p->pid, p->tid);
	} else {
		while (c && change_vs(a, c, p) > 0) {
			after = c;
			c = a->changes[c - 1].prev;
		}
		if (c && !change_vs(a, c, p))
			return false;	/* which came first is the queue's choice */
		*comm = c ? a->changes[c - 1].after : a->changes[after - 1].before;
	}
	*m = (struct comm_memo){ p->tid, c, after, *comm };
	return *comm != NULL;	/* (NULL: the thread was made after the sample) */
}

/*
 * A settled sample @p with comm @comm into its row (kept by its event, ip and comm: the row
 * is a function of them, the kernel maps not changing) or, the first of them, as a sample in
 * time order is: report__place() and its comm
 */
static int count_settled(struct report *r, const struct stream_evsel *ev,
			 const struct kagg_pend *p, const char *comm)
{
	struct kagg_row *w = &r->kagg->rows[(p->ip ^ p->ip >> 12 ^ (uintptr_t)comm >> 4 ^
					     (uintptr_t)ev) & (KAGG_ROWS - 1)];
	size_t idx = (size_t)ev->idx;
	struct stream_sample s;
	struct hist_key k;
	int ret;

	r->nr_samples[idx]++;
	r->period[idx] += p->period;
	if (w->ev == ev && w->ip == p->ip && w->comm == comm) {
		if (r->symrep)
			symrep__repeat_n(r->symrep, w->sym, 1, p->period, p->with_caller);
		hist__add_at(r->hists[idx], w->idx, p->period);
		return 0;
	}
	s = (struct stream_sample){ .evsel = ev, .ip = p->ip, .pid = p->pid, .tid = p->tid,
				    .misc = p->misc, .time = p->time, .period = p->period };
	ret = report__place(r, &s, &k, NULL);
	if (ret)
		return ret;
	if (r->symrep)	/* (its callchain, counted where its symbol is a skid one) */
		symrep__repeat_n(r->symrep, k.sym_name, 0, 0, p->with_caller);
	k.comm = comm;
	ret = hist__add_idx(r->hists[idx], &k, p->period, &w->idx);
	*w = (struct kagg_row){ p->ip, comm, k.sym_name, ret ? NULL : ev, w->idx };
	return ret;
}

/* the waiting samples not newer than @limit counted at their places, the others kept in
 * order (into the blocks from the first on: a block emptied goes) */
static int settle(struct report *r, uint64_t limit)
{
	struct report_kagg *a = r->kagg;
	struct pend_block *b, *to = a->pend, *next;
	size_t i, k = 0;
	int ret = 0;

	for (b = a->pend; b; b = b->next) {
		for (i = 0; i < b->nr; i++) {
			const struct kagg_pend *p = &b->v[i];
			const char *comm;

			if (limit != ~0ULL && p->at > 4 * limit + 2) {
				if (to == b && k == i) {
					k++;
				} else {
					to->v[k++] = *p;
				}
				if (k == PEND_BLOCK) {
					to->nr = k;
					to = to->next;
					k = 0;
				}
				continue;
			}
			if (ret || a->unsure)
				continue;
			if (!pend_comm(r, p, &comm))
				a->unsure = true;
			else
				ret = count_settled(r, a->evs[p->ev], p, comm);
		}
	}
	/* the blocks past the last kept one go (one kept for the next samples) */
	if (!to) {
		return ret;	/* (every block full of kept samples) */
	}
	to->nr = k;
	for (b = to->next; b; b = next) {
		next = b->next;
		if (!a->spare)
			a->spare = b;
		else
			free(b);
	}
	to->next = NULL;
	a->pend_last = to;
	if (!k && to == a->pend) {	/* none kept */
		if (!a->spare)
			a->spare = to;
		else
			free(to);
		a->pend = a->pend_last = NULL;
	}
	return ret;
}

int report__kagg_flushed(struct report *r, uint64_t limit)
{
	if (!r->kagg || !r->kagg->by_thread)
		return 0;
	if (limit != ~0ULL && limit > r->kagg->flushed)
		r->kagg->flushed = limit;
	return r->kagg->pend ? settle(r, limit) : 0;
}

static int cmp_first(const void *x, const void *y)
{
	const struct kagg_place *a = *(struct kagg_place *const *)x;
	const struct kagg_place *b = *(struct kagg_place *const *)y;

	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return a < b ? -1 : a > b;	/* (in order of arrival) */
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
	size_t i;
	int ret = a->by_thread ? settle(r, ~0ULL) : 0;

	*again = a->any && (threads__kmaps_gen(r->threads) != a->kmaps_gen || a->unsure);
	if (ret || !a->nr || *again)
		return ret;
	order = malloc(a->nr * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < a->nr; i++)
		order[i] = &a->v[i];
	/* as time order would have met them: the first skid symbol is named in a note */
	qsort(order, a->nr, sizeof(*order), cmp_first);
	for (i = 0; i < a->nr && !ret; i++)
		ret = add_place(r, order[i]);
	free(order);
	return ret;
}
