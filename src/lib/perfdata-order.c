// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader: time ordering. Records queue in arrival order; they come as sorted runs
 * (one per CPU ring buffer in a round), so a flush merges the runs as it delivers (a
 * k-way merge over the run heads: O(n log runs), no copying) what is not newer than the
 * limit, and moves what is left down. A
 * FINISHED_ROUND delivers what is older than the previous round's newest record (perf's
 * ordered_events), the end of the input delivers the rest. Past the queue limit the oldest
 * half is delivered early, so memory stays bounded on files without rounds.
 */
#include <errno.h>
#include <stdlib.h>

#include "perfdata-int.h"

#define QUEUE_DEFAULT_LIMIT (4u << 20)

static int grow(void **p, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc ? *alloc : 4096;
	void *q;

	while (n < need)
		n *= 2;
	if (n == *alloc)
		return 0;
	q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}

/* run heads in a min-heap on (head time, run index): ties go to the older run */
static bool head_before(const struct pd_queue *q, size_t x, size_t y)
{
	uint64_t tx = q->v[q->cur[x]].time, ty = q->v[q->cur[y]].time;

	return tx < ty || (tx == ty && x < y);
}

static void heap_down(struct pd_queue *q, size_t *h, size_t n, size_t i)
{
	size_t e = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && head_before(q, h[c + 1], h[c]))
			c++;
		if (!head_before(q, h[c], e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

static size_t run_end(const struct pd_queue *q, size_t r)
{
	return r + 1 < q->nr_runs ? q->runs[r + 1] : q->nr;
}

/*
 * Deliver the oldest entries, those not newer than limit, at most max of them: a k-way
 * merge straight from the runs (no copy), then what is left of each run moves down.
 */
static int deliver(struct perf_file *f, uint64_t limit, size_t max)
{
	struct pd_queue *q = &f->q;
	size_t k = q->nr_runs, n = 0, r, done = 0, out = 0, nr_runs = 0;
	int ret = 0;

	if (grow((void **)&q->cur, &q->cur_alloc, 2 * k, sizeof(*q->cur)))
		return -ENOMEM;
	for (r = 0; r < k; r++) {
		q->cur[r] = q->runs[r];
		q->cur[k + n++] = r;	/* the heap lives after the cursors */
	}
	for (r = n / 2; r-- > 0;)
		heap_down(q, q->cur + k, n, r);
	while (n && done < max) {
		size_t top = q->cur[k], i = q->cur[top];

		if (q->v[i].time > limit)
			break;
		ret = pd_deliver(f, q->v[i].rec, q->v[i].off);
		pd_chunk_put(q->v[i].chunk);
		done++;
		if (++q->cur[top] == run_end(q, top))
			q->cur[k] = q->cur[k + --n];
		if (n)
			heap_down(q, q->cur + k, n, 0);
		if (ret)
			break;
	}
	/* compact: the rest of each run, in run order; runs that now follow in order join */
	for (r = 0; r < k; r++) {
		size_t from = q->cur[r], len = run_end(q, r) - from;

		if (!len)
			continue;
		if (!nr_runs || q->v[from].time < q->v[out - 1].time)
			q->runs[nr_runs++] = out;
		if (from != out)
			memmove(&q->v[out], &q->v[from], len * sizeof(*q->v));
		out += len;
	}
	q->nr = out;
	q->nr_runs = nr_runs;
	q->last = out ? q->v[out - 1].time : 0;
	return ret;
}

int pd_queue_flush(struct perf_file *f, uint64_t limit)
{
	return f->q.nr ? deliver(f, limit, SIZE_MAX) : 0;
}

int pd_queue_push(struct perf_file *f, const struct perf_event_header *h, uint64_t time,
		  struct pd_chunk *chunk, uint64_t off)
{
	struct pd_queue *q = &f->q;
	size_t limit = q->limit ?: QUEUE_DEFAULT_LIMIT;
	int ret;

	if (q->nr >= limit) {
		ret = deliver(f, ~0ULL, q->nr / 2);
		if (ret)
			return ret;
	}
	if (grow((void **)&q->v, &q->alloc, q->nr + 1, sizeof(*q->v)))
		return -ENOMEM;
	if (!q->nr || time < q->last) {
		if (grow((void **)&q->runs, &q->runs_alloc, q->nr_runs + 1, sizeof(*q->runs)))
			return -ENOMEM;
		q->runs[q->nr_runs++] = q->nr;
	}
	q->v[q->nr++] = (struct pd_qent){ time, h, chunk, off };
	q->last = time;
	if (chunk)
		chunk->refs++;
	if (time > q->max_time)
		q->max_time = time;
	return 0;
}

void pd_queue_free(struct perf_file *f)
{
	size_t i;

	for (i = 0; i < f->q.nr; i++)
		pd_chunk_put(f->q.v[i].chunk);
	free(f->q.v);
	free(f->q.cur);
	free(f->q.runs);
	memset(&f->q, 0, sizeof(f->q));
}
