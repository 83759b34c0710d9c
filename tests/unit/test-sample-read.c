// SPDX-License-Identifier: GPL-2.0
/* sample-read: samples that read their group's counters, one sample per value, as perf. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/sample-read.h"

struct got {
	int n;
	int evidx[8];
	uint64_t period[8], id[8];
};

static int collect(void *ctx, const struct stream_sample *s)
{
	struct got *g = ctx;

	g->evidx[g->n] = s->evsel->idx;
	g->period[g->n] = s->period;
	g->id[g->n++] = s->id;
	return 0;
}

static int stop(void *ctx, const struct stream_sample *s)
{
	(void)ctx;
	(void)s;
	return 7;
}

START_TEST(test_group_values)
{
	uint64_t ids0[] = { 101, 103 }, ids1[] = { 102, 104 };
	struct stream_evsel ev[3] = {
		{ .ids = ids0, .nr_ids = 2, .idx = 0 },
		{ .ids = ids1, .nr_ids = 2, .idx = 1 },
		{ .idx = 2 },	/* samples without READ */
	};
	struct stream_info info = { .evsels = ev, .nr_evsels = 3 };
	/* GROUP|ID|LOST|TOTAL_TIME_ENABLED: nr, enabled, { value, id, lost } x nr */
	uint64_t r1[] = { 2, 999, 1000, 101, 0, 400, 102, 0 };
	uint64_t r2[] = { 2, 999, 1250, 101, 0, 400, 102, 0 };	/* the member did not grow */
	uint64_t r3[] = { 2, 999, 50, 103, 0, 10, 555, 0 };	/* another CPU's ids; 555: none */
	struct stream_sample s = { .evsel = &ev[0], .period = 1, .read = r1 };
	struct sample_read *sr;
	struct got g = { 0 };
	int err;

	for (int i = 0; i < 2; i++) {
		ev[i].attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD;
		ev[i].attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
					 PERF_FORMAT_TOTAL_TIME_ENABLED;
	}
	sr = sample_read__new(&info, &err);
	ck_assert_ptr_nonnull(sr);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(sample_read__deliver(sr, &s, collect, &g), 0);
	ck_assert_int_eq(g.n, 2);
	ck_assert_int_eq(g.evidx[0], 0);
	ck_assert_uint_eq(g.period[0], 1000);	/* the first: since 0 */
	ck_assert_int_eq(g.evidx[1], 1);
	ck_assert_uint_eq(g.period[1], 400);
	ck_assert_uint_eq(g.id[1], 102);
	s.read = r2;
	ck_assert_int_eq(sample_read__deliver(sr, &s, collect, &g), 0);
	ck_assert_int_eq(g.n, 3);		/* no sample of a value that did not grow */
	ck_assert_uint_eq(g.period[2], 250);
	s.read = r3;
	ck_assert_int_eq(sample_read__deliver(sr, &s, collect, &g), 0);
	ck_assert_int_eq(g.n, 4);
	ck_assert_int_eq(g.evidx[3], 0);
	ck_assert_uint_eq(g.period[3], 50);	/* each id its own */
	ck_assert_uint_eq(sample_read__nr_unknown(sr), 1);
	/* an event without READ: the sample itself */
	s = (struct stream_sample){ .evsel = &ev[2], .period = 33 };
	ck_assert_int_eq(sample_read__deliver(sr, &s, collect, &g), 0);
	ck_assert_int_eq(g.n, 5);
	ck_assert_uint_eq(g.period[4], 33);
	/* the callback's error stops the delivery */
	s = (struct stream_sample){ .evsel = &ev[0], .read = r1 };
	ck_assert_int_eq(sample_read__deliver(sr, &s, stop, NULL), 7);
	sample_read__delete(sr);
}
END_TEST

START_TEST(test_single_value_and_none)
{
	uint64_t ids[] = { 7 };
	struct stream_evsel ev = { .ids = ids, .nr_ids = 1 };
	struct stream_info info = { .evsels = &ev, .nr_evsels = 1 };
	/* no GROUP: value, enabled, running, id */
	uint64_t r1[] = { 300, 1, 1, 7 }, r2[] = { 500, 2, 2, 7 };
	struct stream_sample s = { .evsel = &ev, .read = r1 };
	struct sample_read *sr;
	struct got g = { 0 };
	int err;

	/* no event reads counters: nothing to do */
	ck_assert_ptr_null(sample_read__new(&info, &err));
	ck_assert_int_eq(err, 0);
	ev.attr.sample_type = PERF_SAMPLE_READ;
	ev.attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			      PERF_FORMAT_TOTAL_TIME_RUNNING;
	sr = sample_read__new(&info, &err);
	ck_assert_ptr_nonnull(sr);
	ck_assert_int_eq(sample_read__deliver(sr, &s, collect, &g), 0);
	s.read = r2;
	ck_assert_int_eq(sample_read__deliver(sr, &s, collect, &g), 0);
	ck_assert_int_eq(g.n, 2);
	ck_assert_uint_eq(g.period[0], 300);
	ck_assert_uint_eq(g.period[1], 200);
	sample_read__delete(sr);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sample-read");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_group_values);
	tcase_add_test(tc, test_single_value_and_none);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
