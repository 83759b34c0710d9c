// SPDX-License-Identifier: GPL-2.0
#include <byteswap.h>
#include <check.h>

#include "skip.h"
#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schedlens/sampler.h"
#include "../../src/lib/stream/stream-int.h"

START_TEST(test_parse_sample)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
						    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
						    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW };
	uint64_t buf[16] = { 0 };
	struct perf_event_header *h = (void *)buf;
	struct stream_sample s;
	uint32_t *u;

	h->type = PERF_RECORD_SAMPLE;
	buf[1] = 77;			/* identifier */
	buf[2] = 0xffffffff81000000ull;	/* ip */
	u = (uint32_t *)&buf[3];
	u[0] = 10;
	u[1] = 11;
	buf[4] = 123456789;		/* time */
	u = (uint32_t *)&buf[5];
	u[0] = 3;			/* cpu */
	buf[6] = 1;			/* period */
	buf[7] = 2;			/* callchain nr */
	buf[8] = 0xa;
	buf[9] = 0xb;
	u = (uint32_t *)&buf[10];
	u[0] = 12;			/* raw size: 4 + 12 = 16 */
	u[1] = 0xdeadbeef;
	h->size = 8 * 12;
	ck_assert_int_eq(sample__parse(&a, h, &s), 0);
	ck_assert(s.id == 77 && s.ip == 0xffffffff81000000ull);
	ck_assert(s.pid == 10 && s.tid == 11 && s.time == 123456789 && s.cpu == 3);
	ck_assert(s.period == 1 && s.nr_callchain == 2 && s.callchain[1] == 0xb);
	ck_assert_int_eq(s.raw_size, 12);
	ck_assert_uint_eq(*(const uint32_t *)s.raw, 0xdeadbeef);
	/* one u64 short: the raw payload does not fit */
	h->size = 8 * 11;
	ck_assert_int_eq(sample__parse(&a, h, &s), -EINVAL);
	/* a callchain that claims more entries than the record holds */
	h->size = 8 * 12;
	buf[7] = 1000;
	ck_assert_int_eq(sample__parse(&a, h, &s), -EINVAL);
}
END_TEST

START_TEST(test_sample_id)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
				     .sample_id_all = 1 };
	uint64_t buf[8] = { 0 };
	struct perf_event_header *h = (void *)buf;
	uint32_t pid, tid, cpu, *u;
	uint64_t t, id;

	h->type = PERF_RECORD_COMM;
	h->size = 8 * 7;
	u = (uint32_t *)&buf[3];
	u[0] = 5;
	u[1] = 6;
	buf[4] = 999;
	u = (uint32_t *)&buf[5];
	u[0] = 1;
	buf[6] = 42;
	ck_assert_int_eq(sample_id__parse(&a, h, &pid, &tid, &t, &cpu, &id), 0);
	ck_assert(pid == 5 && tid == 6 && t == 999 && cpu == 1 && id == 42);
	h->size = 8 * 3;
	ck_assert_int_eq(sample_id__parse(&a, h, &pid, &tid, &t, &cpu, &id), -EINVAL);
}
END_TEST

#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)

/* the record of test-sampler's test_parse_sample, u32 pairs as given, in either byte order */
static void fill(uint64_t *buf, bool swap)
{
	const uint64_t w[] = { 77, 0xffffffff81000000ull, 0, 123456789, 0, 1, 2, 0xa, 0xb };
	const uint32_t pairs[][2] = { { 10, 11 }, { 3, 0 }, { 12, 0xdeadbeef } };
	const int at[] = { 3, 5, 10 };
	uint32_t *u;
	size_t i;

	memset(buf, 0, 16 * 8);
	for (i = 0; i < 9; i++)
		buf[1 + i] = swap ? bswap_64(w[i]) : w[i];
	for (i = 0; i < 3; i++) {
		u = (uint32_t *)&buf[at[i]];
		u[0] = swap ? bswap_32(pairs[i][0]) : pairs[i][0];
		u[1] = swap ? bswap_32(pairs[i][1]) : pairs[i][1];
	}
	((struct perf_event_header *)buf)->type = PERF_RECORD_SAMPLE;
	((struct perf_event_header *)buf)->size = 8 * 12;
}

START_TEST(test_both_orders)
{
	struct perf_event_attr a = { .sample_type = TYPE };
	uint64_t buf[16], scratch[16];
	struct perf_event_header *h = (void *)buf;
	struct stream_sample s;
	int swap;

	for (swap = 0; swap < 2; swap++) {
		fill(buf, swap);
		ck_assert_int_eq(sample_parse(&a, swap, h, scratch, &s), 0);
		ck_assert(s.id == 77 && s.ip == 0xffffffff81000000ull);
		ck_assert(s.pid == 10 && s.tid == 11 && s.time == 123456789 && s.cpu == 3);
		ck_assert(s.period == 1 && s.nr_callchain == 2);
		ck_assert(s.callchain[0] == 0xa && s.callchain[1] == 0xb);
		ck_assert(swap ? s.callchain == scratch : s.callchain == &buf[8]);
		ck_assert_int_eq(s.raw_size, 12);
		ck_assert_ptr_eq(s.raw, (const uint8_t *)&buf[10] + 4);
		h->size = 8 * 11;
		ck_assert_int_eq(sample_parse(&a, swap, h, scratch, &s), -EINVAL);
	}
}
END_TEST

START_TEST(test_trailer_both_orders)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU };
	uint64_t buf[8] = { 0 };
	struct perf_event_header *h = (void *)buf;
	struct sample_trailer t;
	uint32_t *u = (uint32_t *)&buf[3];
	int swap;

	h->type = PERF_RECORD_COMM;
	h->size = 8 * 7;
	memset(&t, 0xff, sizeof(t));
	ck_assert_int_eq(sample_trailer_parse(&a, false, h, &t), 0);
	ck_assert(t.pid == (uint32_t)-1 && t.time == ~0ULL);	/* no sample_id_all: untouched */
	a.sample_id_all = 1;
	for (swap = 0; swap < 2; swap++) {
		u[0] = swap ? bswap_32(5) : 5;
		u[1] = swap ? bswap_32(6) : 6;
		buf[4] = swap ? bswap_64(999) : 999;
		u[4] = swap ? bswap_32(1) : 1;
		buf[6] = swap ? bswap_64(42) : 42;
		ck_assert_int_eq(sample_trailer_parse(&a, swap, h, &t), 0);
		ck_assert(t.pid == 5 && t.tid == 6 && t.time == 999 && t.cpu == 1 && t.id == 42);
	}
	h->size = 8 * 4;
	memset(&t, 0xff, sizeof(t));
	ck_assert_int_eq(sample_trailer_parse(&a, false, h, &t), -EINVAL);
	ck_assert(t.pid == (uint32_t)-1 && t.id == ~0ULL);
}
END_TEST

START_TEST(test_tracepoint_errors)
{
	struct perf_event_attr a;
	struct errbuf e = { "" };

	ck_assert_int_eq(tracepoint__attr(NULL, "nocolon", &a, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "nocolon"));
	ck_assert_int_eq(tracepoint__attr("/nonexistent", "sched:sched_switch", &a, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "mount -t tracefs"));
	if (tracefs__find(NULL, (char[256]){ 0 }, 256, NULL) == 0) {
		ck_assert_int_eq(tracepoint__attr(NULL, "sched:no_such_event", &a, &e), -ENOENT);
		ck_assert_ptr_nonnull(strstr(e.msg, "unknown tracepoint 'sched:no_such_event'"));
		ck_assert_int_eq(tracepoint__attr(NULL, "sched:sched_switch", &a, &e), 0);
		ck_assert_int_eq(a.type, PERF_TYPE_TRACEPOINT);
		ck_assert_uint_gt(a.config, 0);
	}
}
END_TEST

struct collect {
	uint64_t last_time, nr_switch, nr_samples, nr_comm, nr_fork;
	int unordered, begun, ended;
	uint32_t child;
	struct tep_format_field *prev_pid;
};

static int c_begin(void *ctx, const struct stream_info *info)
{
	struct collect *c = ctx;
	size_t i;

	c->begun++;
	for (i = 0; i < info->nr_evsels; i++)
		if (info->evsels[i].tp)
			c->prev_pid = tep_find_field(info->evsels[i].tp, "prev_pid");
	return 0;
}

static int c_sample(void *ctx, const struct stream_sample *s)
{
	struct collect *c = ctx;
	unsigned long long v;

	if (s->time < c->last_time)
		c->unordered++;
	c->last_time = s->time;
	c->nr_samples++;
	if (s->evsel->tp && c->prev_pid &&
	    !tep_read_number_field(c->prev_pid, s->raw, &v) && v == c->child)
		c->nr_switch++;
	return 0;
}

static int c_task(void *ctx, const struct stream_task *t)
{
	struct collect *c = ctx;

	c->nr_fork += t->fork;
	return 0;
}

static int c_end(void *ctx, const struct stream_stats *st)
{
	((struct collect *)ctx)->ended++;
	return 0;
}

/* a child that sleeps 20 times, sampled live; @unordered: stream_ops.unordered */
static void live(uint32_t unordered)
{
	struct sampler_event ev = { .name = "sched:sched_switch" };
	struct sampler_opts o = { .events = &ev, .nr_events = 1, .tracking = true,
				  .mmap_pages = 64 };
	struct collect c = { 0 };
	struct stream_ops ops = { .ctx = &c, .begin = c_begin, .sample = c_sample,
				  .task = c_task, .end = c_end, .unordered = unordered };
	struct errbuf e = { "" };
	struct sampler *s;
	int i, status = -1;
	pid_t pid;

	if (geteuid() != 0 || tracepoint__attr(NULL, ev.name, &ev.attr, &e)) {
		ck_skip("%s", e.msg[0] ? e.msg : "needs root");
	}
	s = sampler__new(&o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 20; i++)
			usleep(1000);
		_exit(3);
	}
	c.child = (uint32_t)pid;
	while (waitpid(pid, &status, WNOHANG) != pid)
		ck_assert_int_eq(sampler__poll(s, 10, &ops), 0);
	ck_assert_int_eq(sampler__drain(s, &ops), 0);
	ck_assert_int_eq(WEXITSTATUS(status), 3);
	ck_assert_int_eq(c.begun, 1);
	ck_assert_int_eq(c.ended, 1);
	if (!unordered)
		ck_assert_int_eq(c.unordered, 0);
	/*
	 * 20 sleeps: the child is switched out at least 20 times (counted at switch out: some
	 * VMs never record switches from the idle task of a CPU); its fork was seen
	 */
	ck_assert_uint_ge(c.nr_switch, 20);	/* none lost on the way that skips the queue */
	ck_assert_uint_ge(c.nr_fork, 1);
	ck_assert_uint_eq(sampler__stats(s)->nr_samples, c.nr_samples);
	ck_assert_ptr_nonnull(sampler__info(s)->tep);
	sampler__delete(s);
}

START_TEST(test_live)
{
	live(0);
}
END_TEST

/* the kernel's samples (tracepoints) delivered as read, outside the queue */
START_TEST(test_live_unordered)
{
	live(1u << PERF_RECORD_MISC_KERNEL);
}
END_TEST

/* follow one task: inherited per-CPU buffers, or per-thread buffers without inherit */
static void follow(bool no_inherit)
{
	struct sampler_event ev = { .name = "sched:sched_switch" };
	struct sampler_opts o = { .events = &ev, .nr_events = 1, .mmap_pages = 64,
				  .no_inherit = no_inherit };
	struct collect c = { 0 };
	struct stream_ops ops = { .ctx = &c, .begin = c_begin, .sample = c_sample };
	struct errbuf e = { "" };
	struct sampler *s;
	int go[2], i, status;
	pid_t pid;
	char b;

	if (geteuid() != 0 || tracepoint__attr(NULL, ev.name, &ev.attr, &e)) {
		ck_skip("%s", e.msg[0] ? e.msg : "needs root");
	}
	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		for (i = 0; i < 20; i++)
			usleep(1000);
		_exit(0);
	}
	close(go[0]);
	o.pid = pid;
	s = sampler__new(&o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	c.child = (uint32_t)pid;
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	while (waitpid(pid, &status, WNOHANG) != pid)
		ck_assert_int_eq(sampler__poll(s, 10, &ops), 0);
	ck_assert_int_eq(sampler__drain(s, &ops), 0);
	ck_assert_uint_ge(c.nr_switch, 20);
	/* only the followed task's switches */
	ck_assert_uint_eq(c.nr_switch, c.nr_samples);
	sampler__delete(s);
}

START_TEST(test_follow_pid)
{
	follow(false);
	follow(true);
}
END_TEST

START_TEST(test_bad_opts)
{
	struct sampler_event ev = { .attr = { .type = PERF_TYPE_SOFTWARE,
					      .config = PERF_COUNT_SW_CPU_CLOCK,
					      .sample_period = 100000 },
				    .name = "cpu-clock" };
	struct sampler_opts o = { .events = &ev, .nr_events = 1, .mmap_pages = 3 };
	struct errbuf e = { "" };

	ck_assert_ptr_null(sampler__new(&o, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "power of two"));
	o.mmap_pages = 0;
	o.cpus = "zz";
	ck_assert_ptr_null(sampler__new(&o, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "cpu list"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sampler");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_parse_sample);
	tcase_add_test(tc, test_sample_id);
	tcase_add_test(tc, test_both_orders);
	tcase_add_test(tc, test_trailer_both_orders);
	tcase_add_test(tc, test_tracepoint_errors);
	tcase_add_test(tc, test_live);
	tcase_add_test(tc, test_live_unordered);
	tcase_add_test(tc, test_follow_pid);
	tcase_add_test(tc, test_bad_opts);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
