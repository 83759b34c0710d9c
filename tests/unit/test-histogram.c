// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "schedlens/histogram.h"

static const double pcts[] = { 1, 20, 50, 75, 90, 99, 99.9, 99.99, 100 };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* exact nearest-rank percentile of sorted @v */
static double exact(const uint64_t *v, size_t n, double pct)
{
	size_t rank = (size_t)ceil(pct / 100.0 * (double)n - 1e-9);

	if (rank < 1)
		rank = 1;
	return (double)v[rank - 1];
}

static void check_against_exact(uint64_t *v, size_t n)
{
	struct histogram *h = histogram__new();
	double prev = 0, got, want;
	size_t i;

	ck_assert_ptr_nonnull(h);
	for (i = 0; i < n; i++)
		histogram__record(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	ck_assert_uint_eq(histogram__count(h), n);
	ck_assert_uint_eq(histogram__min(h), v[0]);
	ck_assert_uint_eq(histogram__max(h), v[n - 1]);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		got = histogram__percentile(h, pcts[i]);
		want = exact(v, n, pcts[i]);
		ck_assert_msg(fabs(got - want) <= HISTOGRAM_REL_ERROR * want,
			      "p%g: histogram %g, exact %g, beyond %g relative", pcts[i], got, want,
			      HISTOGRAM_REL_ERROR);
		ck_assert(got >= prev);
		prev = got;
	}
	histogram__delete(h);
}

START_TEST(test_lognormal_sample)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t n = 200000, i;
	uint64_t *v = malloc(n * sizeof(*v));

	ck_assert_ptr_nonnull(v);
	gsl_rng_set(r, 42);
	/* latency-like: median ~20 us in ns, long tail */
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)gsl_ran_lognormal(r, log(20000), 1.2);
	check_against_exact(v, n);
	free(v);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_uniform_wide_sample)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t n = 100000, i;
	uint64_t *v = malloc(n * sizeof(*v));

	ck_assert_ptr_nonnull(v);
	gsl_rng_set(r, 7);
	/* spread over 2^0 .. 2^60 so every bucket shape is exercised */
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)ldexp(1.0 + gsl_rng_uniform(r), (int)gsl_rng_uniform_int(r, 60));
	check_against_exact(v, n);
	free(v);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_small_values_exact)
{
	struct histogram *h = histogram__new();
	uint64_t v;

	for (v = 1; v <= 100; v++)
		histogram__record(h, v);
	ck_assert(histogram__percentile(h, 50) == 50);
	ck_assert(histogram__percentile(h, 99) == 99);
	ck_assert(histogram__percentile(h, 99.9) == 100);
	ck_assert(histogram__percentile(h, 0) == 1);
	ck_assert(fabs(histogram__mean(h) - 50.5) < 1e-9);
	histogram__delete(h);
}
END_TEST

START_TEST(test_extremes_and_empty)
{
	struct histogram *h = histogram__new();

	ck_assert(histogram__percentile(h, 50) == 0);
	ck_assert_uint_eq(histogram__min(h), 0);
	histogram__record(h, 0);
	histogram__record(h, UINT64_MAX);
	ck_assert_uint_eq(histogram__min(h), 0);
	ck_assert_uint_eq(histogram__max(h), UINT64_MAX);
	ck_assert(histogram__percentile(h, 50) == 0);
	ck_assert(histogram__percentile(h, 100) == (double)UINT64_MAX);
	ck_assert(histogram__percentile(h, 51) >= (1 - HISTOGRAM_REL_ERROR) * (double)UINT64_MAX);
	histogram__delete(h);
}
END_TEST

START_TEST(test_merge_and_buckets)
{
	struct histogram *a = histogram__new(), *b = histogram__new(), *all = histogram__new();
	struct histogram_bucket bk;
	uint64_t v, total = 0, prev_hi = 0;
	size_t pos = 0;
	double p;

	for (v = 1; v < 1000000; v += 37) {
		histogram__record(v & 1 ? a : b, v);
		histogram__record(all, v);
	}
	histogram__merge(a, b);
	ck_assert_uint_eq(histogram__count(a), histogram__count(all));
	ck_assert_uint_eq(histogram__min(a), histogram__min(all));
	ck_assert_uint_eq(histogram__max(a), histogram__max(all));
	for (p = 0; p <= 100; p += 0.5)
		ck_assert(histogram__percentile(a, p) == histogram__percentile(all, p));
	while (histogram__next_bucket(a, &pos, &bk)) {
		ck_assert(bk.lo <= bk.hi);
		ck_assert(total == 0 || bk.lo > prev_hi);
		ck_assert(bk.hi - bk.lo <= bk.lo / 64);
		prev_hi = bk.hi;
		total += bk.count;
	}
	ck_assert_uint_eq(total, histogram__count(all));
	histogram__delete(a);
	histogram__delete(b);
	histogram__delete(all);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("histogram");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_lognormal_sample);
	tcase_add_test(tc, test_uniform_wide_sample);
	tcase_add_test(tc, test_small_values_exact);
	tcase_add_test(tc, test_extremes_and_empty);
	tcase_add_test(tc, test_merge_and_buckets);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
