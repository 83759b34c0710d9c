// SPDX-License-Identifier: GPL-2.0
/* stats (against values computed by hand) and results documents (round trip, bad input). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/results.h"
#include "schedlens/stats.h"

START_TEST(test_summary)
{
	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7) */
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct summary s;

	ck_assert_int_eq(stats__summarize(v, 8, &s), 0);
	ck_assert_double_eq_tol(s.mean, 5.0, 1e-12);
	ck_assert_double_eq_tol(s.stddev, sqrt(32.0 / 7.0), 1e-12);
	ck_assert_double_eq_tol(s.sem, sqrt(32.0 / 7.0) / sqrt(8.0), 1e-12);
	ck_assert_double_eq_tol(s.sem_pct, 100.0 * s.sem / 5.0, 1e-12);
	ck_assert_double_eq_tol(s.median, 4.5, 1e-12);
	ck_assert_double_eq(s.min, 2);
	ck_assert_double_eq(s.max, 9);
	ck_assert_double_eq_tol(s.hmean, 8.0 / (1 / 2.0 + 3 / 4.0 + 2 / 5.0 + 1 / 7.0 + 1 / 9.0),
				1e-12);
	ck_assert_double_eq_tol(stats__quantile(v, 8, 0.25), 4.0, 1e-12);
	ck_assert_int_eq(stats__summarize(v, 0, &s), -EINVAL);
}
END_TEST

START_TEST(test_single_value)
{
	const double v[] = { 3 };
	struct summary s;

	ck_assert_int_eq(stats__summarize(v, 1, &s), 0);
	ck_assert_double_eq(s.stddev, 0);
	ck_assert_double_eq(s.sem_pct, 0);
}
END_TEST

static char *tmpname(const char *content)
{
	char *p = strdup("/tmp/schedlens-test-XXXXXX");
	int fd = mkstemp(p);

	ck_assert_int_ge(fd, 0);
	if (content)
		ck_assert_int_eq(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return p;
}

START_TEST(test_round_trip)
{
	struct errbuf err = { "" };
	json_t *doc = results__new("bench"), *e, *it, *back;
	char *path = tmpname(NULL);
	double vals[4];
	size_t i;

	ck_assert_ptr_nonnull(doc);
	e = results__entry(doc, "pipe loops=10", "pipe", NULL);
	ck_assert_ptr_eq(results__entry(doc, "pipe loops=10", "pipe", NULL), e);
	ck_assert_int_eq(results__declare(e, "rt/s", "ops/s", BETTER_HIGHER), 0);
	for (i = 0; i < 3; i++) {
		it = results__add_iteration(e);
		ck_assert_int_eq(results__set(it, "rt/s", 1000.0 + (double)i + 0.1), 0);
	}
	ck_assert_int_eq(results__set(it, "bad", NAN), -EINVAL);
	ck_assert_int_eq(results__write(doc, path, stdout, &err), 0);
	back = results__read(path, &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	e = json_array_get(json_object_get(back, "entries"), 0);
	ck_assert_uint_eq(results__values(e, "rt/s", vals, 4), 3);
	ck_assert_double_eq(vals[2], 1002.1);
	ck_assert_int_eq(results__better(e, "rt/s"), BETTER_HIGHER);
	ck_assert_str_eq(results__unit(e, "rt/s"), "ops/s");
	json_decref(doc);
	json_decref(back);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_bad_documents)
{
	struct errbuf err = { "" };
	char *p;

	p = tmpname("{\"schema\": \"schedlens-results\", \"schema_version\": 1, \"entries\": [");
	ck_assert_ptr_null(results__read(p, &err));
	ck_assert_msg(strstr(err.msg, "not valid JSON: line 1"), "%s", err.msg);
	unlink(p);
	free(p);
	p = tmpname("{\"schema\": \"other\"}");
	ck_assert_ptr_null(results__read(p, &err));
	ck_assert_msg(strstr(err.msg, "not a schedlens results document"), "%s", err.msg);
	unlink(p);
	free(p);
	p = tmpname("{\"schema\": \"schedlens-results\", \"schema_version\": 99, \"entries\": []}");
	ck_assert_ptr_null(results__read(p, &err));
	ck_assert_msg(strstr(err.msg, "schema version 99"), "%s", err.msg);
	unlink(p);
	free(p);
	p = tmpname("{\"schema\": \"schedlens-results\", \"schema_version\": 1, \"entries\": [{}]}");
	ck_assert_ptr_null(results__read(p, &err));
	ck_assert_msg(strstr(err.msg, "entry 0"), "%s", err.msg);
	unlink(p);
	free(p);
	ck_assert_ptr_null(results__read("/nonexistent/x.json", &err));
	ck_assert_msg(strstr(err.msg, "cannot read '/nonexistent/x.json'"), "%s", err.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_single_value);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad_documents);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
