// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup latency percentiles, exact nearest rank, for every group at once: all wakeups, each
 * path class, each task and each command name. The latencies are kept once, tagged with their
 * task and class, and sorted once (radix); a single walk over the sorted values then meets
 * each group's values in order, so the k-th one of a group is its k-th smallest. Past
 * LATVEC_EXACT latencies the vector is a sketch (schedan-int.h) and the walk counts records
 * of many: the same ranks, each the largest value of its bucket.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/histogram.h"
#include "schedan-int.h"

#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)
#define DIGITS ((64 + RADIX_BITS - 1) / RADIX_BITS)

int latvec__grow(struct latvec *v)
{
	if (hugebuf__reserve(&v->buf, (v->cap + 1) * sizeof(*v->v)))
		return -ENOMEM;
	v->v = v->buf.p;
	v->cap = v->buf.cap / sizeof(*v->v);
	return 0;
}

void latvec__free(struct latvec *v)
{
	hugebuf__free(&v->buf);
	free(v->idx);
	memset(v, 0, sizeof(*v));
}

#define COUNT_MAX ((1u << 24) - 1)

static size_t sk_slot(const struct latvec *v, size_t b, uint32_t task, uint32_t cls)
{
	uint64_t h = ((uint64_t)b << 40 ^ (uint64_t)task << 8 ^ cls) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & v->idx_mask;
}

/* the slot of (@b, @task, @cls): the record it holds, or a free one */
static uint32_t *sk_find(struct latvec *v, size_t b, uint32_t task, uint32_t cls)
{
	size_t i = sk_slot(v, b, task, cls);

	for (;; i = (i + 1) & v->idx_mask) {
		const struct lat_rec *r;

		if (!v->idx[i])
			return &v->idx[i];
		r = &v->v[v->idx[i] - 1];
		if (r->task == task && r->cls == cls && histogram__bucket_of(r->ns) == b)
			return &v->idx[i];
	}
}

/* the index with room for twice the keys it holds; a later record of a key wins its slot */
static int sk_rehash(struct latvec *v, size_t mask)
{
	uint32_t *old = v->idx;
	size_t i;

	v->idx = calloc(mask + 1, sizeof(*v->idx));
	if (!v->idx) {
		v->idx = old;
		return -ENOMEM;
	}
	free(old);
	v->idx_mask = mask;
	v->idx_used = 0;
	for (i = 0; i < v->n; i++) {
		const struct lat_rec *r = &v->v[i];
		uint32_t *sl = sk_find(v, histogram__bucket_of(r->ns), r->task, r->cls);

		v->idx_used += !*sl;
		*sl = (uint32_t)i + 1;
	}
	return 0;
}

/* one latency into the sketch: its key's record, or a new one (a full one stays, unindexed) */
static int sk_add(struct latvec *v, const struct lat_rec *x)
{
	size_t b = histogram__bucket_of(x->ns);
	uint32_t *sl = sk_find(v, b, x->task, x->cls);
	struct lat_rec *r = *sl ? &v->v[*sl - 1] : NULL;

	if (r && (uint32_t)r->count + x->count <= COUNT_MAX) {
		r->count += x->count;
		if (x->ns > r->ns)
			r->ns = x->ns;
		return 0;
	}
	if (v->n == v->cap && latvec__grow(v))
		return -ENOMEM;
	v->v[v->n++] = *x;
	v->idx_used += !*sl;
	*sl = (uint32_t)v->n;
	if (v->idx_used * 2 > v->idx_mask)
		return sk_rehash(v, v->idx_mask * 2 + 1);
	return 0;
}

int latvec__sketch(struct latvec *v, uint64_t ns, uint32_t task, uint32_t cls)
{
	struct lat_rec x = { ns, task, cls, 1 };
	size_t i, n;

	if (!v->idx) {	/* past LATVEC_EXACT: the exact records merged in place */
		n = v->n;
		v->n = 0;
		v->idx_mask = (1u << 16) - 1;
		v->idx = calloc(v->idx_mask + 1, sizeof(*v->idx));
		if (!v->idx)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			struct lat_rec r = v->v[i];

			if (sk_add(v, &r))	/* no growth: n never passes i here */
				return -ENOMEM;
		}
	}
	v->total++;
	return sk_add(v, &x);
}

static int rec_cmp(const void *x, const void *y)
{
	const struct lat_rec *a = x, *b = y;

	return a->ns < b->ns ? -1 : a->ns > b->ns;
}

/*
 * LSD radix sort of @lv by ns, all digit counts in one pass; digits that never differ are
 * skipped. The sorted records may end up in another buffer, which @lv then takes.
 */
static void recs_sort(struct latvec *lv)
{
	struct lat_rec *v = lv->v;
	size_t n = lv->n;
	struct hugebuf tb = { 0 };
	struct lat_rec *tmp, *src = v, *dst, *t;
	uint64_t all_or = 0, all_and = ~0ull;
	size_t (*count)[RADIX], i, d, nr_used = 0;
	unsigned int used[DIGITS];

	if (n < 64) {
		for (i = 1; i < n; i++) {
			struct lat_rec x = v[i];
			size_t j = i;

			for (; j > 0 && v[j - 1].ns > x.ns; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	tmp = hugebuf__reserve(&tb, n * sizeof(*tmp)) ? NULL : tb.p;
	count = calloc(DIGITS, sizeof(*count));
	if (!tmp || !count) {
		hugebuf__free(&tb);
		free(count);
		qsort(v, n, sizeof(*v), rec_cmp);
		return;
	}
	for (i = 0; i < n; i++) {
		all_or |= v[i].ns;
		all_and &= v[i].ns;
	}
	/* count only the digits that differ somewhere */
	for (d = 0; d < DIGITS; d++)
		if (((all_or ^ all_and) >> (d * RADIX_BITS)) & (RADIX - 1))
			used[nr_used++] = (unsigned int)d;
	for (i = 0; i < n; i++) {
		uint64_t x = v[i].ns;

		for (d = 0; d < nr_used; d++)
			count[d][(x >> (used[d] * RADIX_BITS)) & (RADIX - 1)]++;
	}
	dst = tmp;
	for (d = 0; d < nr_used; d++) {
		unsigned int shift = used[d] * RADIX_BITS;
		size_t sum = 0, c, *cnt = count[d];

		for (i = 0; i < RADIX; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(src[i].ns >> shift) & (RADIX - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v) {
		/* the sorted ones are in tmp: the vector takes it */
		struct hugebuf old = lv->buf;

		lv->buf = tb;
		tb = old;
		lv->v = lv->buf.p;
		lv->cap = lv->buf.cap / sizeof(*lv->v);
	}
	hugebuf__free(&tb);
	free(count);
}

static uint64_t nearest_rank(size_t n, double pct)
{
	double r = pct / 100.0 * (double)n;
	size_t k = (size_t)r;

	if ((double)k < r)
		k++;
	if (k < 1)
		k = 1;
	return k > n ? n : k;
}

/*
 * One group's walk: the ranks it wants (p50, p90, p99, p99.9, max) and what it met. The walk
 * touches only the small struct step of each group (all of them fit in L1); the values are
 * stored when the count reaches the next rank wanted.
 */
struct step {
	uint64_t seen, next;		/* next: the next rank wanted, 0 when none */
};

struct grp {
	uint64_t rank[6], val[5];	/* rank[] ends with 0 */
	int slot;
	struct schedan_lat *out;
};

static void grp__init(struct grp *g, struct step *st, struct schedan_lat *out, uint64_t n)
{
	static const double pct[] = { 50, 90, 99, 99.9 };
	int i;

	memset(g, 0, sizeof(*g));
	memset(out, 0, sizeof(*out));
	st->seen = st->next = 0;
	g->out = out;
	out->count = n;
	if (!n)
		return;
	for (i = 0; i < 4; i++)
		g->rank[i] = nearest_rank(n, pct[i]);
	g->rank[4] = n;
	st->next = g->rank[0];
}

/* the count of @st reached its next rank: @ns is the value of the ranks up to the count */
static void grp__hit(struct grp *g, struct step *st, uint64_t ns)
{
	while (g->rank[g->slot] && g->rank[g->slot] <= st->seen)
		g->val[g->slot++] = ns;
	st->next = g->rank[g->slot];
}

/* @nr values of @ns (one, or a sketch's record of @nr) */
static inline void grp__step(struct grp *g, struct step *st, uint64_t ns, uint64_t nr)
{
	st->seen += nr;
	if (st->next && st->seen >= st->next)
		grp__hit(g, st, ns);
}

static void grp__done(const struct grp *g)
{
	if (!g->out->count)
		return;
	g->out->p50 = g->val[0];
	g->out->p90 = g->val[1];
	g->out->p99 = g->val[2];
	g->out->p999 = g->val[3];
	g->out->max = g->val[4];
}

static int cmp_task_comm(const void *x, const void *y)
{
	const struct task *a = *(struct task *const *)x, *b = *(struct task *const *)y;

	return strcmp(a->comm, b->comm);
}

static int cmp_group(const void *x, const void *y)
{
	const struct comm_group *a = x, *b = y;

	if (a->lat.count != b->lat.count)
		return a->lat.count < b->lat.count ? 1 : -1;
	return strcmp(a->comm, b->comm);
}

/* the command names of the tasks with wakeups, most wakeups first; t->comm_group set */
static int comm_groups(struct schedan *a)
{
	struct task **v = malloc((a->nr_tasks ? a->nr_tasks : 1) * sizeof(*v));
	struct comm_group *g = calloc(a->nr_tasks ? a->nr_tasks : 1, sizeof(*g));
	size_t n = 0, i, ng = 0;
	uint32_t *map;

	if (!v || !g) {
		free(v);
		free(g);
		return -ENOMEM;
	}
	for (i = 0; i < a->nr_tasks; i++)
		if (a->tasks[i]->included && a->tasks[i]->nr_lat)
			v[n++] = a->tasks[i];
	qsort(v, n, sizeof(*v), cmp_task_comm);
	for (i = 0; i < n; i++) {
		if (!ng || strcmp(g[ng - 1].comm, v[i]->comm)) {
			memcpy(g[ng].comm, v[i]->comm, sizeof(g->comm));
			g[ng].id = (uint32_t)ng;
			ng++;
		}
		g[ng - 1].tasks++;
		g[ng - 1].lat.count += v[i]->nr_lat;
		v[i]->comm_group = (uint32_t)ng - 1;
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	/* the tasks' group numbers, from name order to this order */
	map = malloc((ng ? ng : 1) * sizeof(*map));
	if (!map) {
		free(v);
		free(g);
		return -ENOMEM;
	}
	for (i = 0; i < ng; i++)
		map[g[i].id] = (uint32_t)i;
	for (i = 0; i < n; i++)
		v[i]->comm_group = map[v[i]->comm_group];
	free(map);
	free(v);
	free(a->comms);
	a->comms = g;
	a->nr_comms = ng;
	return 0;
}

int schedan__percentiles(struct schedan *a)
{
	size_t nr_grp, i, c, task0 = 1 + WAKE__NR, comm0;
	uint32_t *task_comm;
	struct step *st;
	struct grp *g;
	int ret;

	if (a->lat_gen == a->gen && a->lat_done)
		return 0;
	ret = comm_groups(a);
	if (ret)
		return ret;
	comm0 = task0 + a->nr_tasks;
	nr_grp = comm0 + a->nr_comms;
	g = malloc(nr_grp * sizeof(*g));
	st = malloc(nr_grp * sizeof(*st));
	task_comm = malloc((a->nr_tasks ? a->nr_tasks : 1) * sizeof(*task_comm));
	if (!g || !st || !task_comm) {
		free(g);
		free(st);
		free(task_comm);
		return -ENOMEM;
	}
	grp__init(&g[0], &st[0], &a->lat_all, a->lats.total);
	for (c = 0; c < WAKE__NR; c++)
		grp__init(&g[1 + c], &st[1 + c], &a->lat_class[c], a->class_count[c]);
	for (i = 0; i < a->nr_tasks; i++) {
		grp__init(&g[task0 + i], &st[task0 + i], &a->tasks[i]->lat, a->tasks[i]->nr_lat);
		/* the group of a task with no wakeups is never met */
		task_comm[i] = (uint32_t)(comm0 + a->tasks[i]->comm_group);
	}
	for (i = 0; i < a->nr_comms; i++)
		grp__init(&g[comm0 + i], &st[comm0 + i], &a->comms[i].lat, a->comms[i].lat.count);
	recs_sort(&a->lats);
	/* all wakeups, exact: the k-th smallest is at k - 1 */
	for (c = 0; c < 5 && a->lats.n && !a->lats.idx; c++)
		g[0].val[c] = a->lats.v[g[0].rank[c] - 1].ns;
	for (i = 0; i < a->lats.n; i++) {
		const struct lat_rec *r = &a->lats.v[i];

		if (a->lats.idx)
			grp__step(&g[0], &st[0], r->ns, r->count);
		grp__step(&g[1 + r->cls], &st[1 + r->cls], r->ns, r->count);
		grp__step(&g[task0 + r->task], &st[task0 + r->task], r->ns, r->count);
		grp__step(&g[task_comm[r->task]], &st[task_comm[r->task]], r->ns, r->count);
	}
	for (i = 0; i < nr_grp; i++)
		grp__done(&g[i]);
	free(task_comm);
	free(st);
	free(g);
	a->lat_gen = a->gen;
	a->lat_done = true;
	return 0;
}
