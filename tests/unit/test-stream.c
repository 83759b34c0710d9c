// SPDX-License-Identifier: GPL-2.0
/* The record stream's one decoder (stream/decode.c) and one ordered-events queue (queue.c). */
#include <byteswap.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../src/lib/stream/stream-int.h"

struct seen {
	int nr_mmap, nr_comm, nr_task, nr_lost, nr_switch;
	struct stream_mmap m;
	char filename[64], comm[64];
	uint32_t pid, tid, cpu, np_pid, np_tid;
	uint64_t lost_id, lost_nr, time;
	bool out, exec;
	struct stream_task t;
};

static int on_mmap(void *ctx, const struct stream_mmap *m)
{
	struct seen *s = ctx;

	s->nr_mmap++;
	s->m = *m;
	snprintf(s->filename, sizeof(s->filename), "%s", m->filename);
	return 0;
}

static int on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		   uint64_t time)
{
	struct seen *s = ctx;

	s->nr_comm++;
	s->pid = pid;
	s->tid = tid;
	s->exec = exec;
	s->time = time;
	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	return 0;
}

static int on_task(void *ctx, const struct stream_task *t)
{
	struct seen *s = ctx;

	s->nr_task++;
	s->t = *t;
	return 0;
}

static int on_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	struct seen *s = ctx;

	s->nr_lost++;
	s->lost_id = id;
	s->lost_nr = nr;
	s->time = time;
	return 0;
}

static int on_switch(void *ctx, uint32_t pid, uint32_t tid, uint32_t cpu, bool out,
		     uint32_t np_pid, uint32_t np_tid, uint64_t time)
{
	struct seen *s = ctx;

	s->nr_switch++;
	s->pid = pid;
	s->tid = tid;
	s->cpu = cpu;
	s->out = out;
	s->np_pid = np_pid;
	s->np_tid = np_tid;
	s->time = time;
	return 0;
}

/* a record builder: u64 words, then the header's size; @swap writes the other byte order */
struct rec {
	uint64_t w[64];
	size_t n;
	bool swap;
};

static void put64(struct rec *r, uint64_t v)
{
	r->w[r->n++] = r->swap ? bswap_64(v) : v;
}

static void put32x2(struct rec *r, uint32_t a, uint32_t b)
{
	uint32_t v[2] = { r->swap ? bswap_32(a) : a, r->swap ? bswap_32(b) : b };

	memcpy(&r->w[r->n++], v, 8);
}

static void put_str(struct rec *r, const char *s)
{
	size_t len = (strlen(s) + 8) & ~7ul;

	memset(&r->w[r->n], 0, len);
	memcpy(&r->w[r->n], s, strlen(s));
	r->n += len / 8;
}

static void begin(struct rec *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };

	memset(r->w, 0, sizeof(r->w));
	memcpy(&r->w[0], &h, 8);
	r->n = 1;
}

/* the sample_id trailer of an attr with TID | TIME | CPU | IDENTIFIER */
static const struct perf_event_header *end(struct rec *r, uint64_t time, uint64_t id)
{
	struct perf_event_header *h = (void *)r->w;

	put32x2(r, 41, 42);
	put64(r, time);
	put32x2(r, 3, 0);
	put64(r, id);
	h->size = (uint16_t)(8 * r->n);
	return h;
}

static const struct perf_event_attr trailer_attr = {
	.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
		       PERF_SAMPLE_IDENTIFIER,
	.sample_id_all = 1,
};

static void decoder(struct stream_decoder *d, struct stream_ops *o, struct stream_stats *st,
		    struct seen *s, bool swap)
{
	memset(s, 0, sizeof(*s));
	memset(st, 0, sizeof(*st));
	*o = (struct stream_ops){ .ctx = s, .mmap = on_mmap, .comm = on_comm, .task = on_task,
				  .lost = on_lost, .switch_ = on_switch };
	d->ops = o;
	d->stats = st;
	d->swap = swap;
}

static void check_records(bool swap)
{
	struct stream_decoder d;
	struct stream_stats st;
	struct stream_ops o;
	struct seen s;
	struct rec r = { .swap = swap };
	struct perf_event_header *h;

	decoder(&d, &o, &st, &s, swap);
	ck_assert_uint_eq(stream_trailer_len(&trailer_attr), 32);

	begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32x2(&r, 100, 101);
	put64(&r, 0x400000);
	put64(&r, 0x1000);
	put64(&r, 0x2000);
	put32x2(&r, 8, 1);		/* maj, min */
	put64(&r, 1234);		/* ino */
	put64(&r, 5);			/* ino_generation */
	put32x2(&r, 5, 2);		/* prot, flags */
	put_str(&r, "/usr/bin/true");
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 777, 9), &trailer_attr), 0);
	ck_assert_int_eq(s.nr_mmap, 1);
	ck_assert(s.m.pid == 100 && s.m.tid == 101 && s.m.start == 0x400000 && s.m.len == 0x1000);
	ck_assert(s.m.pgoff == 0x2000 && s.m.maj == 8 && s.m.min == 1 && s.m.ino == 1234);
	ck_assert(s.m.prot == 5 && s.m.flags == 2 && s.m.time == 777 && !s.m.has_build_id);
	ck_assert_str_eq(s.filename, "/usr/bin/true");

	/* a build id in place of the device and inode: 20 bytes whatever the size says */
	begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	put32x2(&r, 100, 101);
	put64(&r, 0x400000);
	put64(&r, 0x1000);
	put64(&r, 0);
	r.w[r.n] = 0;
	((uint8_t *)&r.w[r.n])[0] = 40;	/* build_id_size, capped at 20 */
	memset((uint8_t *)&r.w[r.n] + 4, 0xab, 20);
	r.n += 3;
	put32x2(&r, 5, 2);
	put_str(&r, "/lib/libc.so.6");
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 778, 9), &trailer_attr), 0);
	ck_assert(s.m.has_build_id && s.m.build_id_size == 20 && s.m.build_id[19] == 0xab);

	begin(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32x2(&r, 7, 8);
	put_str(&r, "pinger");
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 900, 9), &trailer_attr), 0);
	ck_assert(s.nr_comm == 1 && s.pid == 7 && s.tid == 8 && s.exec && s.time == 900);
	ck_assert_str_eq(s.comm, "pinger");

	begin(&r, PERF_RECORD_FORK, 0);
	put32x2(&r, 10, 1);
	put32x2(&r, 11, 1);
	put64(&r, 950);
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 950, 9), &trailer_attr), 0);
	ck_assert(s.nr_task == 1 && s.t.fork && s.t.pid == 10 && s.t.ppid == 1 && s.t.tid == 11);
	ck_assert(s.t.time == 950);

	/* LOST_SAMPLES: the event is the trailer's id, as for every other record */
	begin(&r, PERF_RECORD_LOST_SAMPLES, 0);
	put64(&r, 13);
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 960, 55), &trailer_attr), 0);
	ck_assert(s.nr_lost == 1 && s.lost_id == 55 && s.lost_nr == 13 && s.time == 960);
	begin(&r, PERF_RECORD_LOST, 0);
	put64(&r, 66);
	put64(&r, 2);
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 961, 55), &trailer_attr), 0);
	ck_assert(s.lost_id == 66 && s.lost_nr == 2);
	ck_assert(st.nr_lost == 15 && st.nr_lost_records == 2);

	begin(&r, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT);
	put32x2(&r, 20, 21);
	ck_assert_int_eq(stream_decode_other(&d, end(&r, 970, 9), &trailer_attr), 0);
	ck_assert(s.nr_switch == 1 && s.out && s.np_pid == 20 && s.np_tid == 21);
	ck_assert(s.pid == 41 && s.tid == 42 && s.cpu == 3 && s.time == 970);

	/* too short for its type: the source says where */
	begin(&r, PERF_RECORD_FORK, 0);
	put64(&r, 1);
	h = (void *)r.w;
	h->size = 16;
	ck_assert_int_eq(stream_decode_other(&d, h, NULL), STREAM_DECODE_SHORT);
	/* a type it does not know: counted, skipped */
	begin(&r, 99, 0);
	h = (void *)r.w;
	h->size = 8;
	ck_assert_int_eq(stream_decode_other(&d, h, NULL), 0);
	ck_assert_uint_eq(st.nr_unknown, 1);
	ck_assert(stream_record_known(PERF_RECORD_MMAP2) && !stream_record_known(0) &&
		  !stream_record_known(99));
}

START_TEST(test_decode_native)
{
	check_records(false);
}
END_TEST

START_TEST(test_decode_swapped)
{
	check_records(true);
}
END_TEST

/* queue: what was delivered, in order */
struct got {
	uint64_t t[64];
	size_t n;
	int stop_at;
};

static int collect(void *ctx, const struct stream_qent *e)
{
	struct got *g = ctx;

	g->t[g->n++] = e->time;
	return (int)g->n == g->stop_at ? 42 : 0;
}

static void push_run(struct stream_queue *q, struct perf_event_header *recs, const uint64_t *t,
		     size_t n, uint64_t *off)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ck_assert_int_eq(stream_queue__push(q, &recs[i], t[i], 0, *off), 0);
		*off += 8;
	}
}

/* an entry keeps its offset and tag whole (offsets to 2^48 - 1); an offset past that is refused */
struct tagged {
	uint64_t off[4];
	unsigned int tag[4];
	size_t n;
};

static int collect_tagged(void *ctx, const struct stream_qent *e)
{
	struct tagged *g = ctx;

	g->off[g->n] = stream_qent__off(e);
	g->tag[g->n++] = stream_qent__tag(e);
	return 0;
}

START_TEST(test_queue_offset_tag)
{
	static const uint64_t offs[3] = { 0, 123456789, STREAM_QENT_OFF_MAX - 1 };
	static const uint16_t tags[3] = { 0, 4096, 65535 };
	struct perf_event_header rec = { PERF_RECORD_COMM, 0, 8 };
	struct tagged g = { .n = 0 };
	struct stream_queue q;
	size_t i;

	stream_queue__init(&q, collect_tagged, &g);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(stream_queue__push_inl(&q, &rec, 10 + i, tags[i], offs[i]), 0);
	ck_assert_int_eq(stream_queue__push(&q, &rec, 20, 1, STREAM_QENT_OFF_MAX), -EFBIG);
	ck_assert_int_eq(stream_queue__push_inl(&q, &rec, 20, 1, STREAM_QENT_OFF_MAX), -EFBIG);
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_uint_eq(g.n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(g.off[i], offs[i]);
		ck_assert_uint_eq(g.tag[i], tags[i]);
	}
	stream_queue__exit(&q);
}
END_TEST

START_TEST(test_queue_merges_runs)
{
	static const uint64_t a[] = { 1, 4, 7, 10 }, b[] = { 2, 3, 8, 11 }, c[] = { 5, 6, 9 };
	struct perf_event_header recs[16] = { 0 };
	struct got g = { .stop_at = -1 };
	struct stream_queue q;
	uint64_t off = 0;
	size_t i;

	stream_queue__init(&q, collect, &g);
	push_run(&q, recs, a, 4, &off);		/* three sorted runs, as three CPUs' rings */
	push_run(&q, recs + 4, b, 4, &off);
	push_run(&q, recs + 8, c, 3, &off);
	ck_assert_int_eq(stream_queue__flush(&q, 6), 0);	/* a round: up to 6 */
	ck_assert_uint_eq(g.n, 6);
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_uint_eq(g.n, 11);
	for (i = 0; i < g.n; i++)
		ck_assert_uint_eq(g.t[i], i + 1);
	stream_queue__exit(&q);
}
END_TEST

START_TEST(test_queue_ties_and_stop)
{
	static const uint64_t a[] = { 5, 5 }, b[] = { 5, 6 };
	struct perf_event_header recs[4] = { 0 };
	struct got g = { .stop_at = 3 };
	struct stream_queue q;
	uint64_t off = 0;

	stream_queue__init(&q, collect, &g);
	push_run(&q, recs, a, 2, &off);
	push_run(&q, recs + 2, b, 2, &off);
	/* a consumer's non-zero value stops the delivery and comes back */
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 42);
	ck_assert_uint_eq(g.n, 3);
	g.stop_at = -1;
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_uint_eq(g.n, 4);
	ck_assert_uint_eq(g.t[3], 6);
	stream_queue__exit(&q);
}
END_TEST

/* the queue limit: past it the oldest half goes early, so memory stays bounded */
START_TEST(test_queue_limit)
{
	struct perf_event_header recs[100] = { 0 };
	struct got g = { .stop_at = -1 };
	struct stream_queue q;
	uint64_t t[1], off = 0;
	size_t i;

	stream_queue__init(&q, collect, &g);
	q.limit = 8;
	for (i = 0; i < 20; i++) {
		t[0] = i;
		push_run(&q, recs + i, t, 1, &off);
	}
	ck_assert_uint_ge(g.n, 8);	/* delivered before any flush */
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_uint_eq(g.n, 20);
	for (i = 0; i < 20; i++)
		ck_assert_uint_eq(g.t[i], i);
	stream_queue__exit(&q);
}
END_TEST

static int count_only(void *ctx, const struct stream_qent *e)
{
	(*(int *)ctx)++;
	return 0;
}

/* a chunk goes back once it is filled and no queued record lies in it */
START_TEST(test_queue_chunks)
{
	struct stream_chunk *pool = NULL, *c1, *c2;
	struct stream_queue q;
	int n = 0;

	stream_queue__init(&q, count_only, &n);
	c1 = stream_chunk__new(64);
	c2 = stream_chunk__new(64);
	ck_assert(c1 && c2);
	c1->pool = &pool;
	c2->pool = &pool;
	stream_queue__track(&q, c1, 0);
	memset(c1->data, 0, 64);
	ck_assert_int_eq(stream_queue__push(&q, (void *)c1->data, 10, 0, 0), 0);
	ck_assert_int_eq(stream_queue__push(&q, (void *)(c1->data + 8), 20, 0, 8), 0);
	stream_queue__done(&q, c1, 16);
	ck_assert_ptr_null(pool);		/* two records still queued in it */
	stream_queue__track(&q, c2, 16);
	ck_assert_int_eq(stream_queue__push(&q, (void *)c2->data, 30, 0, 16), 0);
	ck_assert_int_eq(stream_queue__flush(&q, 20), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_eq(pool, c1);		/* delivered: back to its pool */
	ck_assert_ptr_null(pool->next);
	stream_queue__done(&q, c2, 24);
	ck_assert_ptr_eq(pool, c1);		/* c2 still holds a record */
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_ptr_eq(pool, c2);
	stream_queue__exit(&q);
	free(c1);
	free(c2);
}
END_TEST

struct repack_seen {
	int n;
	uint64_t t[8];
	uint8_t fill[8];	/* the first body byte of each record delivered */
};

static int repack_collect(void *ctx, const struct stream_qent *e)
{
	struct repack_seen *g = ctx;

	if (g->n < 8) {
		g->t[g->n] = e->time;
		g->fill[g->n] = ((const uint8_t *)(e->rec + 1))[0];
	}
	g->n++;
	return 0;
}

/* a record of @size bytes at @at in @c, its body filled with @fill, queued at @time */
static void push_filled(struct stream_queue *q, struct stream_chunk *c, size_t at, uint16_t size,
			uint8_t fill, uint64_t time)
{
	struct perf_event_header *h = (void *)(c->data + at);

	h->type = PERF_RECORD_COMM;
	h->misc = 0;
	h->size = size;
	memset(h + 1, fill, size - sizeof(*h));
	ck_assert_int_eq(stream_queue__push(q, h, time, 0, c->lo + at), 0);
}

/*
 * A big pooled chunk with few queued records goes back at once, its records copied: they
 * come out whole and in order after the chunk is reused; one with many stays pinned.
 */
START_TEST(test_queue_repack)
{
	static const uint64_t want_t[] = { 10, 20, 30, 40 };
	static const uint8_t want_fill[] = { 0x11, 0x33, 0x22, 0x44 };
	const size_t big = 256u << 10;
	struct stream_chunk *pool = NULL, *c1, *c2;
	int i;
	struct repack_seen g = { 0 };
	struct stream_queue q;

	stream_queue__init(&q, repack_collect, &g);
	c1 = stream_chunk__new(big);
	c2 = stream_chunk__new(big);
	ck_assert(c1 && c2);
	c1->pool = c2->pool = &pool;
	/* c1: a record of 24 bytes and one of 36 (rounded to 40 in the copy) */
	stream_queue__track(&q, c1, 0);
	push_filled(&q, c1, 0, 24, 0x11, 10);
	push_filled(&q, c1, 4096, 36, 0x22, 30);
	stream_queue__done(&q, c1, big);
	ck_assert_ptr_eq(pool, c1);		/* copied out: back to its pool */
	/* c2: one record older than c1's second (a new run) */
	pool = NULL;
	stream_queue__track(&q, c2, big);
	push_filled(&q, c2, 8, 32, 0x33, 20);
	memset(c1->data, 0xee, big);		/* c1 reused: the copies must not see it */
	/* c2 dense: records over 1/32 of it stay where they are */
	push_filled(&q, c2, 64, (uint16_t)(big / 32), 0x44, 40);
	stream_queue__done(&q, c2, 2 * big);
	ck_assert_ptr_null(pool);		/* pinned */
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_int_eq(g.n, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(g.t[i], want_t[i]);
		ck_assert_uint_eq(g.fill[i], want_fill[i]);
	}
	ck_assert_ptr_eq(pool, c2);		/* delivered: back */
	stream_queue__exit(&q);
	free(c1);
	free(c2);
}
END_TEST

struct order {
	uint64_t last;
	size_t n;
	bool bad;
};

static int check_order(void *ctx, const struct stream_qent *e)
{
	struct order *o = ctx;

	o->bad |= o->n && e->time < o->last;
	o->last = e->time;
	o->n++;
	return 0;
}

/* @n records in two runs that interleave in time, flushed at the end: all back in order */
static void queue_many(struct stream_queue *q, struct order *o, size_t n)
{
	static struct perf_event_header rec = { PERF_RECORD_COMM, 0, 8 };
	size_t i;

	for (i = 0; i < n; i++)	/* run one: 0, 2, 4, ...; run two: 1, 3, 5, ... */
		ck_assert_int_eq(stream_queue__push(q, &rec, i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1,
						    0, i * 8), 0);
	ck_assert_int_eq(stream_queue__flush(q, ~0ULL), 0);
	ck_assert_uint_eq(o->n, n);
	ck_assert(!o->bad);
}

/*
 * Entries past a huge page grow in a reservation of address space, without a copy; where
 * none can be had (an address-space limit), in blocks copied as before
 */
START_TEST(test_queue_reserve)
{
	static struct perf_event_header rec = { PERF_RECORD_COMM, 0, 8 };
	struct order o = { 0 };
	struct stream_queue q;
	const void *first = NULL;
	size_t i;
	int n = 0, bad = 0;

	stream_queue__init(&q, check_order, &o);
	queue_many(&q, &o, 300000);		/* 7.2 MB of entries */
	ck_assert_ptr_nonnull(q.v_res);
	ck_assert_ptr_eq(q.v, q.v_res);
	stream_queue__exit(&q);
	/* each growth opens whole huge pages where the entries are: no block beside it, no copy
	 * (checked in plain C: a ck_assert a push is a message to the runner each, slow under ASan) */
	stream_queue__init(&q, count_only, &n);
	for (i = 0; i < 200000 && !bad; i++) {	/* 4.8 MB: three openings */
		bad |= stream_queue__push(&q, &rec, i, 0, i * 8) != 0;
		if (q.v_res && !first)
			first = q.v_res;
		bad |= (q.v_res != first) << 1 | (q.v_open % (2u << 20) != 0) << 2;
	}
	ck_assert_msg(!bad, "push %zu: %s", i, bad & 1 ? "failed" : bad & 2 ?
		      "the reservation moved" : "an opening not a whole huge page");
	ck_assert_ptr_eq(q.v, first);
	ck_assert_int_eq(stream_queue__flush(&q, ~0ULL), 0);
	ck_assert_int_eq(n, 200000);
	stream_queue__exit(&q);
}
END_TEST

START_TEST(test_queue_no_reserve)
{
#if defined(__SANITIZE_ADDRESS__)
	/* its shadow memory takes terabytes of address space: no limit can be set */
#else
	struct rlimit rl = { 512ul << 20, 512ul << 20 };	/* under QUEUE_RESERVE (1 GB) */
	struct order o = { 0 };
	struct stream_queue q;

	ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);	/* (this test's own process) */
	stream_queue__init(&q, check_order, &o);
	queue_many(&q, &o, 300000);
	ck_assert_ptr_null(q.v_res);
	stream_queue__exit(&q);
#endif
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	/* (the queue tests push hundreds of thousands of records: seconds under ASan) */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_decode_native);
	tcase_add_test(tc, test_decode_swapped);
	tcase_add_test(tc, test_queue_merges_runs);
	tcase_add_test(tc, test_queue_offset_tag);
	tcase_add_test(tc, test_queue_ties_and_stop);
	tcase_add_test(tc, test_queue_limit);
	tcase_add_test(tc, test_queue_chunks);
	tcase_add_test(tc, test_queue_repack);
	tcase_add_test(tc, test_queue_reserve);
	tcase_add_test(tc, test_queue_no_reserve);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
