// SPDX-License-Identifier: GPL-2.0
/*
 * The one ordered-events queue, for the perf.data reader and the live sampler alike (perf's
 * ordered_events). Records queue in arrival order; they come as sorted runs (one per CPU
 * ring buffer in a round, or in one read pass of the live rings), so a flush merges the runs as it delivers (a k-way
 * merge over the run heads: O(n log runs), no copying) what is not newer than the limit; the
 * rest stays where it is until the dead space is worth a compaction. A file's FINISHED_ROUND
 * delivers what is older than the previous round's newest record, a live poll what is older
 * than the newest record of the pass before; the end of the input delivers the rest. Past the queue limit the oldest half goes early,
 * so memory stays bounded on files without rounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "stream-int.h"

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

/*
 * The entries live in memory aligned to and advised as 2 MB pages: their 4 kB pages would
 * fault one by one, ~13 us each on a VM, and a queue of two rounds touches megabytes. Past a
 * huge page, in a reservation of address space (QUEUE_RESERVE, no memory until used) opened
 * up as they grow: no copy, and no moment when the old array and the twice larger one are
 * both there (on the bench's sched recording, the step from 4 to 8 MB was the peak of
 * `report --sort comm,dso,sym`). Where the reservation cannot be had (an address-space
 * limit) or is full, a new block and a copy each time.
 */
#define HUGE_PAGE (2u << 20)
#define QUEUE_RESERVE (1ul << 30)	/* 32M entries: 8 times the default limit's 4M */

static void *reserve(void)
{
	char *p = mmap(NULL, QUEUE_RESERVE + HUGE_PAGE, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t at;

	if (p == MAP_FAILED)
		return NULL;
	at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (at > (uintptr_t)p)
		munmap(p, at - (uintptr_t)p);
	munmap((char *)at + QUEUE_RESERVE, (uintptr_t)p + HUGE_PAGE - at);
	return (void *)at;
}

/* the entries' reservation opened up to @bytes, the entries moved there once; false: none */
static bool grow_reserved(struct stream_queue *q, size_t bytes)
{
	char *res;

	if (bytes > QUEUE_RESERVE || (!q->v_res && !(q->v_res = reserve())))
		return false;
	res = q->v_res;
	if (mprotect(res + q->v_open, bytes - q->v_open, PROT_READ | PROT_WRITE))
		return false;
	madvise(res + q->v_open, bytes - q->v_open, MADV_HUGEPAGE);
	q->v_open = bytes;
	if (q->v != q->v_res) {
		if (q->nr)
			memcpy(res, q->v, q->nr * sizeof(*q->v));
		free(q->v);
		q->v = q->v_res;
	}
	return true;
}

static int grow_entries(struct stream_queue *q, size_t need)
{
	size_t n = q->alloc ? q->alloc * 2 : 1024, bytes;
	void *mem;

	while (n < need)
		n *= 2;
	if (n * sizeof(*q->v) < HUGE_PAGE / 16)	/* small files stay small */
		return grow((void **)&q->v, &q->alloc, n, sizeof(*q->v));
	/* whole huge pages (an entry is not a power of two): the reservation opens by pages */
	bytes = (n * sizeof(*q->v) + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	n = bytes / sizeof(*q->v);
	if (grow_reserved(q, bytes)) {
		q->alloc = n;
		return 0;
	}
	if (posix_memalign(&mem, HUGE_PAGE, bytes))
		return -ENOMEM;
	madvise(mem, bytes, MADV_HUGEPAGE);
	if (q->nr)
		memcpy(mem, q->v, q->nr * sizeof(*q->v));
	if (q->v && q->v == q->v_res) {	/* it is full: blocks from here on */
		munmap(q->v_res, QUEUE_RESERVE);
		q->v_res = NULL;
		q->v_open = 0;
	} else {
		free(q->v);
	}
	q->v = mem;
	q->alloc = n;
	return 0;
}

/* run heads in a min-heap on (head time, run index), the time cached: ties go to the older run */
struct stream_qhead {
	uint64_t time;
	size_t run;
};

static inline bool head_before(const struct stream_qhead *x, const struct stream_qhead *y)
{
	return x->time < y->time || (x->time == y->time && x->run < y->run);
}

static inline void heap_down(struct stream_qhead *h, size_t n, size_t i)
{
	struct stream_qhead e = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && head_before(&h[c + 1], &h[c]))
			c++;
		if (!head_before(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

/* drop empty runs; move the live entries down when most of the array is dead */
static void compact(struct stream_queue *q)
{
	size_t r, nr = 0, live = 0, out = 0;

	for (r = 0; r < q->nr_runs; r++) {
		if (q->runs[r].start == q->runs[r].end)
			continue;
		live += q->runs[r].end - q->runs[r].start;
		q->runs[nr++] = q->runs[r];
	}
	q->nr_runs = nr;
	if (!live) {
		q->nr = 0;
		return;
	}
	if (live * 2 > q->nr)
		return;
	for (r = 0; r < nr; r++) {
		size_t len = q->runs[r].end - q->runs[r].start;

		if (q->runs[r].start != out)
			memmove(&q->v[out], &q->v[q->runs[r].start], len * sizeof(*q->v));
		q->runs[r].start = out;
		q->runs[r].end = out + len;
		out += len;
	}
	q->nr = out;
}

/* whether a queued record lies in @c (see struct stream_chunk) */
static bool chunk_pinned(const struct stream_queue *q, const struct stream_chunk *c)
{
	size_t r;

	for (r = 0; r < q->nr_runs; r++) {
		const struct stream_run *run = &q->runs[r];

		if (run->start < run->end && stream_qent__off(&q->v[run->start]) < c->hi &&
		    stream_qent__off(&q->v[run->end - 1]) >= c->lo)
			return true;
	}
	return false;
}

void stream_queue__release(struct stream_queue *q, bool all)
{
	struct stream_chunk **pp = &q->chunks, *c;

	q->chunks_last = NULL;
	while ((c = *pp)) {
		if (!all && (c->live || chunk_pinned(q, c))) {
			q->chunks_last = c;
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		stream_chunk__free(c);
	}
}

struct stream_chunk *stream_chunk__new(size_t len)
{
	struct stream_chunk *c = malloc(sizeof(*c) + len);

	if (c) {
		c->live = true;
		c->len = len;
		c->pool = NULL;
	}
	return c;
}

void stream_queue__track(struct stream_queue *q, struct stream_chunk *c, uint64_t lo)
{
	c->lo = lo;
	c->hi = UINT64_MAX;
	c->next = NULL;
	if (q->chunks_last)
		q->chunks_last->next = c;
	else
		q->chunks = c;
	q->chunks_last = c;
}

/* bytes a record takes in a repacked chunk: records stay 8-byte aligned */
static size_t rec_room(const struct perf_event_header *h)
{
	return (h->size + 7u) & ~(size_t)7;
}

/*
 * The queued records of pooled chunk @c, when they are few (a tracepoint recording's COMM and
 * FORK records among samples delivered as they are read), move to a chunk of their own size:
 * @c then goes back to its pool at once, instead of holding megabytes of fresh memory for
 * kilobytes until the round after next is delivered. Entries are in arrival order, so in
 * offset order, and @c's are among the last ones: the walk stops at the first one older than
 * @c, or at 1/32 of @c in records (then nothing moves). A chunk under REPACK_MIN is not
 * worth the copy.
 */
#define REPACK_MIN (64u << 10)

static void repack(struct stream_queue *q, struct stream_chunk *c)
{
	const char *lo = c->data, *hi = c->data + c->len;
	struct stream_chunk *n, **pp;
	size_t r, i, bytes = 0;
	char *to;

	for (r = q->nr_runs; r-- > 0;)
		for (i = q->runs[r].end; i-- > q->runs[r].start;) {
			const struct stream_qent *e = &q->v[i];

			if (stream_qent__off(e) < c->lo)
				goto counted;
			if ((const char *)e->rec >= lo && (const char *)e->rec < hi &&
			    (bytes += rec_room(e->rec)) > c->len / 32)
				return;
		}
counted:
	for (pp = &q->chunks; *pp && *pp != c; pp = &(*pp)->next)
		;
	if (!*pp || !(n = stream_chunk__new(bytes)))
		return;		/* not tracked, or no memory: @c stays as it is */
	to = n->data;
	for (r = q->nr_runs; r-- > 0;)
		for (i = q->runs[r].end; i-- > q->runs[r].start;) {
			struct stream_qent *e = &q->v[i];

			if (stream_qent__off(e) < c->lo)
				goto moved;
			if ((const char *)e->rec >= lo && (const char *)e->rec < hi) {
				memcpy(to, e->rec, e->rec->size);
				e->rec = (const struct perf_event_header *)to;
				to += rec_room(e->rec);
			}
		}
moved:
	n->lo = c->lo;
	n->hi = c->hi;
	n->live = false;
	n->next = c->next;
	*pp = n;
	if (q->chunks_last == c)
		q->chunks_last = n;
	stream_chunk__free(c);
}

void stream_queue__done(struct stream_queue *q, struct stream_chunk *c, uint64_t hi)
{
	c->hi = hi;
	c->live = false;
	if (c->pool && c->len >= REPACK_MIN && chunk_pinned(q, c))
		repack(q, c);
	stream_queue__release(q, false);
}

/*
 * The first kB of the record after @e asked for while @e is delivered: a sample with a user
 * stack (--call-graph dwarf) is read where the file is mapped, and its registers and the
 * stack words by its stack pointer, read first by the unwinder, were cache misses in a row
 * (the bench corpus's dwarf.data, least of 7 runs: `report -g caller` 55.9 -> 32.6 ms,
 * `--children` 51.1 -> 32.7 ms, `script` 42.4 -> 31.4 ms; 16 lines of 64 bytes did better than
 * 8 or 32, the record after next no better than the next).
 */
#define PREFETCH_LINES 16

/* always_inline: GCC 12 finds a function of prefetches alone without side effects, and drops
 * the calls (ipa-pure-const) */
static inline __attribute__((always_inline)) void prefetch_next(const struct stream_run *run,
							 const struct stream_qent *v)
{
	if (run->start + 1 < run->end && v[run->start + 1].rec) {
		const char *p = (const char *)v[run->start + 1].rec;
		int i;

		for (i = 0; i < PREFETCH_LINES; i++)
			__builtin_prefetch(p + 64 * i);
	}
}

/* deliver the oldest entries, those not newer than limit, at most max of them */
static int deliver(struct stream_queue *q, uint64_t limit, size_t max)
{
	size_t k = q->nr_runs, n = k, r, done = 0;
	struct stream_qhead *h;
	int ret = 0;

	if (k == 1) {	/* one sorted run: no merge */
		struct stream_run *run = &q->runs[0];

		while (run->start < run->end && done < max && q->v[run->start].time <= limit) {
			prefetch_next(run, q->v);
			ret = q->deliver(q->ctx, &q->v[run->start++]);
			done++;
			if (ret)
				break;
		}
		compact(q);
		stream_queue__release(q, false);
		return ret;
	}
	if (grow((void **)&q->heap, &q->heap_alloc, k, sizeof(*q->heap)))
		return -ENOMEM;
	h = q->heap;
	for (r = 0; r < k; r++)
		h[r] = (struct stream_qhead){ q->v[q->runs[r].start].time, r };
	for (r = n / 2; r-- > 0;)
		heap_down(h, n, r);
	while (n && done < max && !ret) {
		struct stream_run *run = &q->runs[h[0].run];
		struct stream_qhead next = { ~0ULL, SIZE_MAX };	/* the smaller child: what to beat */

		if (n > 1)
			next = h[1];
		if (n > 2 && head_before(&h[2], &next))
			next = h[2];
		/* a run's records go out in a row until another run's head is older */
		do {
			if (h[0].time > limit)
				goto out;
			prefetch_next(run, q->v);
			ret = q->deliver(q->ctx, &q->v[run->start]);
			done++;
			if (++run->start == run->end) {
				h[0] = h[--n];
				break;
			}
			h[0].time = q->v[run->start].time;
		} while (!ret && done < max && head_before(&h[0], &next));
		if (n > 1)
			heap_down(h, n, 0);
	}
out:
	compact(q);
	stream_queue__release(q, false);
	return ret;
}

void stream_queue__init(struct stream_queue *q, int (*fn)(void *ctx, const struct stream_qent *e),
			void *ctx)
{
	memset(q, 0, sizeof(*q));
	q->deliver = fn;
	q->ctx = ctx;
}

int stream_queue__flush(struct stream_queue *q, uint64_t limit)
{
	int ret = q->nr_runs ? deliver(q, limit, SIZE_MAX) : 0;

	return ret || !q->flushed ? ret : q->flushed(q->ctx, limit);
}

int stream_queue__push(struct stream_queue *q, const struct perf_event_header *h, uint64_t time,
		       uint16_t tag, uint64_t off)
{
	size_t limit = q->limit ?: STREAM_QUEUE_DEFAULT_LIMIT;
	struct stream_run *last;
	int ret;

	if (off >= STREAM_QENT_OFF_MAX)
		return -EFBIG;
	if (q->nr - (q->nr_runs ? q->runs[0].start : q->nr) >= limit) {
		ret = deliver(q, ~0ULL, limit / 2);
		if (ret)
			return ret;
	}
	if (q->nr == q->alloc && grow_entries(q, q->nr + 1))
		return -ENOMEM;
	last = q->nr_runs ? &q->runs[q->nr_runs - 1] : NULL;
	if (!last || last->end != q->nr || time < q->last) {
		if (q->nr_runs == q->runs_alloc &&
		    grow((void **)&q->runs, &q->runs_alloc, q->nr_runs + 1, sizeof(*q->runs)))
			return -ENOMEM;
		last = &q->runs[q->nr_runs++];
		last->start = last->end = q->nr;
	}
	stream_queue__append(q, last, h, time, tag, off);
	return 0;
}

void stream_queue__exit(struct stream_queue *q)
{
	stream_queue__release(q, true);
	if (q->v != q->v_res)
		free(q->v);
	if (q->v_res)
		munmap(q->v_res, QUEUE_RESERVE);
	free(q->heap);
	free(q->runs);
	stream_queue__init(q, q->deliver, q->ctx);
}
