// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup latency percentiles, exact nearest rank, for every group at once: all wakeups, each
 * path class, each task and each command name. The latencies are kept once, tagged with their
 * task and class, and sorted once (radix); a single walk over the sorted values then meets
 * each group's values in order, so the k-th one of a group is its k-th smallest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	memset(v, 0, sizeof(*v));
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

/* the count of @st reached its next rank: @ns is the value of it and of the equal ranks after */
static void grp__hit(struct grp *g, struct step *st, uint64_t ns)
{
	while (g->rank[g->slot] == st->seen)
		g->val[g->slot++] = ns;
	st->next = g->rank[g->slot];
}

static inline void grp__step(struct grp *g, struct step *st, uint64_t ns)
{
	if (++st->seen == st->next)
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
	grp__init(&g[0], &st[0], &a->lat_all, a->lats.n);
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
	/* all wakeups: the k-th smallest is at k - 1 */
	for (c = 0; c < 5 && a->lats.n; c++)
		g[0].val[c] = a->lats.v[g[0].rank[c] - 1].ns;
	for (i = 0; i < a->lats.n; i++) {
		const struct lat_rec *r = &a->lats.v[i];

		grp__step(&g[1 + r->cls], &st[1 + r->cls], r->ns);
		grp__step(&g[task0 + r->task], &st[task0 + r->task], r->ns);
		grp__step(&g[task_comm[r->task]], &st[task_comm[r->task]], r->ns);
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
