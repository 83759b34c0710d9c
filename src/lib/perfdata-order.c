// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader: time ordering. Records are queued in a min-heap on (time, arrival); a
 * FINISHED_ROUND delivers what is older than the previous round's newest record (perf's
 * ordered_events), the end of the input delivers the rest. Past the queue limit the oldest
 * half is delivered early, so memory stays bounded on files without rounds.
 */
#include <errno.h>
#include <stdlib.h>

#include "perfdata-int.h"

#define QUEUE_DEFAULT_LIMIT (4u << 20)

static inline bool before(const struct pd_qent *a, const struct pd_qent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void sift_up(struct pd_qent *h, size_t i)
{
	struct pd_qent e = h[i];

	while (i) {
		size_t p = (i - 1) / 2;

		if (!before(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

static void sift_down(struct pd_qent *h, size_t n, size_t i)
{
	struct pd_qent e = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

static int pop_deliver(struct perf_file *f)
{
	struct pd_queue *q = &f->q;
	struct pd_qent e = q->heap[0];
	int ret;

	q->heap[0] = q->heap[--q->nr];
	if (q->nr)
		sift_down(q->heap, q->nr, 0);
	ret = pd_deliver(f, e.rec, e.off);
	pd_chunk_put(e.chunk);
	return ret;
}

int pd_queue_flush(struct perf_file *f, uint64_t limit)
{
	struct pd_queue *q = &f->q;
	int ret = 0;

	while (q->nr && q->heap[0].time <= limit) {
		ret = pop_deliver(f);
		if (ret)
			break;
	}
	return ret;
}

int pd_queue_push(struct perf_file *f, const struct perf_event_header *h, uint64_t time,
		  struct pd_chunk *chunk, uint64_t off)
{
	struct pd_queue *q = &f->q;
	size_t limit = q->limit ?: QUEUE_DEFAULT_LIMIT;
	int ret;

	if (q->nr >= limit) {
		size_t half = q->nr / 2;

		while (q->nr > half) {
			ret = pop_deliver(f);
			if (ret)
				return ret;
		}
	}
	if (q->nr == q->alloc) {
		size_t n = q->alloc ? q->alloc * 2 : 4096;
		struct pd_qent *hp = realloc(q->heap, n * sizeof(*hp));

		if (!hp)
			return -ENOMEM;
		q->heap = hp;
		q->alloc = n;
	}
	q->heap[q->nr] = (struct pd_qent){ time, q->seq++, h, chunk, off };
	sift_up(q->heap, q->nr++);
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
		pd_chunk_put(f->q.heap[i].chunk);
	free(f->q.heap);
	f->q.heap = NULL;
	f->q.nr = 0;
}
