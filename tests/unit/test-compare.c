// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics of compare against published values: the seeds' MMTests and perf stat tables
 * (typed into tests/data/compare by make-seed-docs.py), R/SciPy reference p-values, and the
 * textbook Holm example.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/compare.h"
#include "schedlens/plot.h"
#include "schedlens/table.h"

#define DATA "tests/data/compare/"

/* @name under the source tree: tests/run.sh exports SCHEDLENS_TOP */
static json_t *load(const char *name)
{
	struct errbuf err = { "" };
	char path[4096];
	json_t *d;

	snprintf(path, sizeof(path), "%s/%s", getenv("SCHEDLENS_TOP") ?: ".", name);
	d = results__read(path, &err);

	ck_assert_msg(d, "%s", err.msg);
	return d;
}

/* scipy.stats.mannwhitneyu(x, y, method="exact") on R's wilcox.test example: U=35, p=0.2544 */
START_TEST(test_mwu_exact)
{
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double u, p;
	bool exact;

	p = compare__mwu(x, 10, y, 5, &u, &exact);
	ck_assert(exact);
	ck_assert_double_eq_tol(u, 35, 1e-12);
	ck_assert_double_eq_tol(p, 0.2544122544122544, 1e-12);
	/* symmetric in its arguments */
	p = compare__mwu(y, 5, x, 10, &u, &exact);
	ck_assert_double_eq_tol(u, 15, 1e-12);
	ck_assert_double_eq_tol(p, 0.2544122544122544, 1e-12);
}
END_TEST

/* scipy mannwhitneyu(method="asymptotic", use_continuity=True) with ties: p=0.015413399675980257 */
START_TEST(test_mwu_normal_ties)
{
	double a[] = { 1, 2, 2, 3, 4, 5, 5, 5, 6 };
	double b[] = { 3, 4, 4, 6, 7, 7, 8, 9, 9, 10 };
	double u, p;
	bool exact;

	p = compare__mwu(a, 9, b, 10, &u, &exact);
	ck_assert(!exact);
	ck_assert_double_eq_tol(u, 15, 1e-12);
	ck_assert_double_eq_tol(p, 0.015413399675980257, 1e-9);
	/* identical samples: no evidence at all */
	p = compare__mwu(a, 9, a, 9, &u, &exact);
	ck_assert_double_eq_tol(p, 1, 1e-12);
	ck_assert(isnan(compare__mwu(a, 0, b, 10, &u, &exact)));
}
END_TEST

/* the smallest exact two-sided p of 10 against 10 separated values is 2 / C(20, 10) */
START_TEST(test_mwu_separated)
{
	double a[10], b[10];
	bool exact;
	int i;

	for (i = 0; i < 10; i++) {
		a[i] = i;
		b[i] = 100 + i;
	}
	ck_assert_double_eq_tol(compare__mwu(a, 10, b, 10, NULL, &exact), 2.0 / 184756, 1e-15);
	ck_assert(exact);
}
END_TEST

/*
 * scipy.stats.ttest_ind(x, y, equal_var=False): p=0.06210134378107843. Values with one <= 0
 * are tested as they are (the shift below leaves the p-value as it is); positive ones on their
 * logs, which is the same as testing the logs as values.
 */
START_TEST(test_welch)
{
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double xs[10], ys[5], lx[10], ly[5];
	struct cmp_welch w, wl;
	int i;

	for (i = 0; i < 10; i++) {
		xs[i] = x[i] - 1;
		lx[i] = log(x[i]);
	}
	for (i = 0; i < 5; i++) {
		ys[i] = y[i] - 1;
		ly[i] = log(y[i]);
	}
	ck_assert_int_eq(compare__welch_t(ys, 5, xs, 10, &w), 0);
	ck_assert(!w.log);
	ck_assert_double_eq_tol(w.p, 0.06210134378107843, 1e-9);
	ck_assert_double_eq_tol(w.est, 1.313 - 0.976, 1e-9);	/* mean(x) - mean(y) */
	ck_assert_int_eq(compare__welch_t(y, 5, x, 10, &w), 0);
	ck_assert(w.log);
	ck_assert_int_eq(compare__welch_t(ly, 5, lx, 10, &wl), 0);
	ck_assert(!wl.log);	/* log(0.73) < 0 */
	ck_assert_double_eq_tol(w.p, wl.p, 1e-12);
	ck_assert_double_eq_tol(w.est, wl.est, 1e-12);
	ck_assert_double_eq_tol(w.se, wl.se, 1e-12);
	ck_assert_int_eq(compare__welch_t(x, 1, y, 5, &w), -EINVAL);
	ck_assert(isnan(w.p));
}
END_TEST

/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02 */
START_TEST(test_holm)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, adj[5];

	compare__holm(p, 5, adj);
	ck_assert_double_eq_tol(adj[0], 0.03, 1e-12);
	ck_assert_double_eq_tol(adj[1], 0.06, 1e-12);
	ck_assert_double_eq_tol(adj[2], 0.06, 1e-12);
	ck_assert_double_eq_tol(adj[3], 0.02, 1e-12);
	ck_assert(isnan(adj[4]));
}
END_TEST

START_TEST(test_bootstrap)
{
	double a[] = { 10, 11, 9, 10.5, 9.5, 10.2, 9.8, 10.1, 10.3, 9.7 };
	double b[10], lo, hi, lo2, hi2;
	int i;

	for (i = 0; i < 10; i++)
		b[i] = a[i] * 1.2;
	ck_assert_int_eq(compare__bootstrap_ratio(a, 10, b, 10, 0.95, 5000, 7, &lo, &hi), 0);
	ck_assert(lo <= 1.2 && hi >= 1.2 && lo > 1 && hi < 1.45);
	/* seeded: the same interval again */
	ck_assert_int_eq(compare__bootstrap_ratio(a, 10, b, 10, 0.95, 5000, 7, &lo2, &hi2), 0);
	ck_assert(lo == lo2 && hi == hi2);
	/* a wider confidence gives a wider interval */
	ck_assert_int_eq(compare__bootstrap_ratio(a, 10, b, 10, 0.99, 5000, 7, &lo2, &hi2), 0);
	ck_assert(lo2 <= lo && hi2 >= hi);
	ck_assert_int_eq(compare__bootstrap_ratio(a, 0, b, 10, 0.95, 5000, 7, &lo, &hi), -EINVAL);
}
END_TEST

START_TEST(test_pdiff)
{
	/* MMTests' edge cases */
	ck_assert_double_eq(compare__mmtests_pndiff(5, 5), 0);
	ck_assert_double_eq(compare__mmtests_pndiff(0, 5), 100);
	ck_assert_double_eq(compare__mmtests_pndiff(5, 0), -99);
	ck_assert_double_eq(compare__mmtests_pdiff(0, 5), 0);
	ck_assert_double_eq(compare__mmtests_pdiff(5, 0), 100);
	/* the seed: hackbench-process-pipes 48 groups 1.3977 -> 1.2400 is 11.28% better */
	ck_assert_double_eq_tol(compare__mmtests_pndiff(1.2400, 1.3977), 11.28, 0.005);
	/* tbench4 64 clients 27313.67 -> 24107.81 is 11.74% worse */
	ck_assert_double_eq_tol(compare__mmtests_pdiff(24107.81, 27313.67), -11.74, 0.005);
	ck_assert_double_eq_tol(compare__change_pct(1.3977, 1.2400, BETTER_LOWER), 11.283, 0.001);
	ck_assert_double_eq_tol(compare__change_pct(100, 90, BETTER_HIGHER), -10, 1e-12);
	ck_assert(isnan(compare__change_pct(0, 1, BETTER_LOWER)));
}
END_TEST

START_TEST(test_mmtests_summary)
{
	double v[] = { 1, 2, 3, 4 }, h[] = { 1, 2, 4 };
	struct mmtests_summary s, s2;

	ck_assert_int_eq(compare__mmtests_summary(v, 4, BETTER_LOWER, &s), 0);
	ck_assert(!s.hmean);
	ck_assert_double_eq_tol(s.mean, 2.5, 1e-12);
	ck_assert_double_eq_tol(s.stddev, sqrt(5.0 / 3), 1e-12);
	ck_assert_double_eq_tol(s.coeffvar, 100 * sqrt(5.0 / 3) / 2.5, 1e-12);
	/* best int(4 * 0.95) = 3 of the lowest */
	ck_assert_double_eq_tol(s.bmean95, 2, 1e-12);
	ck_assert_double_eq_tol(s.ci_hi - s.mean, 1.959963984540054 * s.stddev, 1e-9);
	ck_assert_int_eq(compare__mmtests_summary(h, 3, BETTER_HIGHER, &s), 0);
	ck_assert(s.hmean);
	ck_assert_double_eq_tol(s.mean, 3 / 1.75, 1e-12);
	/* MMTests' Hmean deviation: sqrt(sum((1/x - 1/H)^2) * H^4 / n) */
	ck_assert_double_eq_tol(s.stddev,
				sqrt((pow(1 - 1.75 / 3, 2) + pow(0.5 - 1.75 / 3, 2) +
				      pow(0.25 - 1.75 / 3, 2)) * pow(3 / 1.75, 4) / 3),
				1e-12);
	/* best two of the highest */
	ck_assert_double_eq_tol(s.bmean95, 2 / 0.75, 1e-12);
	/* a single value has no interval: never marked */
	ck_assert_int_eq(compare__mmtests_summary(v, 1, BETTER_LOWER, &s), 0);
	ck_assert_int_eq(compare__mmtests_summary(v + 3, 1, BETTER_LOWER, &s2), 0);
	ck_assert(!compare__mmtests_significant(&s, &s2));
}
END_TEST

/* Every Amean/Hmean row of the wakee-flips seed: percentage and marker as published. */
START_TEST(test_seed_wakee_flips)
{
	static const struct {
		const char *id, *metric;
		double pct;
		bool marked;
	} rows[] = {
		{ "hackbench-process-pipes groups=1", "time", -6.09, false },
		{ "hackbench-process-pipes groups=4", "time", 2.37, false },
		{ "hackbench-process-pipes groups=30", "time", 6.41, false },
		{ "hackbench-process-pipes groups=48", "time", 11.28, true },
		{ "hackbench-process-pipes groups=79", "time", 8.03, true },
		{ "hackbench-process-pipes groups=296", "time", 27.87, true },
		{ "tbench4 clients=1", "throughput", -2.61, true },
		{ "tbench4 clients=4", "throughput", 0.87, true },
		{ "tbench4 clients=64", "throughput", -11.74, true },
		{ "tbench4 clients=1024", "throughput", -2.99, true },
	};
	json_t *b = load(DATA "wakee-flips-vanilla.json"), *n = load(DATA "wakee-flips-patched.json");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const json_t *eb = compare__find_entry(b, rows[i].id), *en = compare__find_entry(n, rows[i].id);
		enum better better = results__better(eb, rows[i].metric);
		struct mmtests_summary sb, sn;
		double vb[16], vn[16], pct;
		size_t nb = results__values(eb, rows[i].metric, vb, 16);
		size_t nn = results__values(en, rows[i].metric, vn, 16);
		char buf[32], want[32];

		ck_assert_int_eq(compare__mmtests_summary(vb, nb, better, &sb), 0);
		ck_assert_int_eq(compare__mmtests_summary(vn, nn, better, &sn), 0);
		pct = better == BETTER_LOWER ? compare__mmtests_pndiff(sn.mean, sb.mean)
					     : compare__mmtests_pdiff(sn.mean, sb.mean);
		snprintf(buf, sizeof(buf), "%.2f", pct);
		snprintf(want, sizeof(want), "%.2f", rows[i].pct);
		ck_assert_msg(!strcmp(buf, want), "%s: %s%% != %s%%", rows[i].id, buf, want);
		ck_assert_msg(compare__mmtests_significant(&sb, &sn) == rows[i].marked, "%s",
			      rows[i].id);
	}
	json_decref(b);
	json_decref(n);
}
END_TEST

/* perf stat -r 10 "+-" is the standard error of the mean: the prefetch seed's cycles rows */
START_TEST(test_seed_prefetch)
{
	json_t *b = load(DATA "prefetch-before.json"), *n = load(DATA "prefetch-after.json");
	const json_t *eb = compare__find_entry(b, "pound-clock-gettime threads=2");
	const json_t *en = compare__find_entry(n, "pound-clock-gettime threads=2");
	struct compare_opts o;
	struct metric_cmp mc;
	struct errbuf err;

	compare_opts__init(&o);
	ck_assert_int_eq(compare__metric(eb, en, "cycles", &o, &mc, &err), 0);
	ck_assert_double_eq_tol(mc.base.mean, 19699563964.0, 0.5);
	ck_assert_double_eq_tol(mc.base.sem_pct, 1.19, 0.005);
	ck_assert_double_eq_tol(mc.new.sem_pct, 1.85, 0.005);
	ck_assert_double_eq_tol(mc.mean_change_pct, 11.88, 0.005);
	ck_assert_int_eq(mc.verdict, CMP_BETTER);
	ck_assert_int_eq(mc.test, CMP_TEST_WELCH_LOG);
	ck_assert(mc.mwu_exact && mc.mwu_p < 0.001);
	ck_assert_int_eq(compare__metric(eb, en, "nonesuch", &o, &mc, &err), -ENOENT);
	json_decref(b);
	json_decref(n);
}
END_TEST

START_TEST(test_verdicts)
{
	double a[] = { 10, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.01 }, b[8], c[8], b3[3], d[8];
	struct compare_opts o;
	struct metric_cmp mc;
	int i;

	compare_opts__init(&o);
	for (i = 0; i < 8; i++) {
		b[i] = a[i] * 1.1;
		c[i] = a[(i + 3) % 8];
		d[i] = a[(i + 5) % 8] * 1.002;
		if (i < 3)
			b3[i] = 2 * a[i];
	}
	ck_assert_int_eq(compare__values(a, 8, b, 8, BETTER_LOWER, &o, &mc), 0);
	ck_assert_int_eq(mc.verdict, CMP_WORSE);
	ck_assert_int_eq(mc.test, CMP_TEST_WELCH_LOG);
	/* 10% slower: the ratio of the geometric means is exactly 1.1 */
	ck_assert_double_eq_tol(mc.change_pct, -10, 1e-9);
	ck_assert(mc.change_lo <= mc.change_pct && mc.change_hi >= mc.change_pct && mc.change_hi < 0);
	ck_assert_int_eq(compare__values(a, 8, b, 8, BETTER_HIGHER, &o, &mc), 0);
	ck_assert_int_eq(mc.verdict, CMP_BETTER);
	ck_assert_int_eq(compare__values(a, 8, b, 8, BETTER_NONE, &o, &mc), 0);
	ck_assert_int_eq(mc.verdict, CMP_CHANGED);
	/* the same values in another order */
	ck_assert_int_eq(compare__values(a, 8, c, 8, BETTER_LOWER, &o, &mc), 0);
	ck_assert_int_eq(mc.verdict, CMP_SAME);
	ck_assert(mc.change_lo < 0 && mc.change_hi > 0);
	/* one run a side cannot be tested: inconclusive, not "same" */
	ck_assert_int_eq(compare__values(a, 1, b, 8, BETTER_LOWER, &o, &mc), 0);
	ck_assert_int_eq(mc.verdict, CMP_INCONCLUSIVE);
	ck_assert_int_eq(mc.test, CMP_TEST_NONE);
	/* 3 runs a side, twice as slow: a rank test cannot go below p = 0.1 there, this one can */
	ck_assert_int_eq(compare__values(a, 3, b3, 3, BETTER_LOWER, &o, &mc), 0);
	ck_assert_int_eq(mc.verdict, CMP_WORSE);
	ck_assert(mc.p_value < 0.001 && mc.mwu_p >= 0.1);
	/* the interval and the verdict never disagree, whatever the level */
	for (i = 0; i < 8; i++) {
		double lv[] = { 0.5, 0.2, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6 };

		o.alpha = lv[i];
		ck_assert_int_eq(compare__values(a, 8, d, 8, BETTER_LOWER, &o, &mc), 0);
		ck_assert_int_eq(mc.significant, mc.change_lo > 0 || mc.change_hi < 0);
	}
}
END_TEST

START_TEST(test_rows_and_check)
{
	json_t *b = load(DATA "wakee-flips-vanilla.json"), *w = load(DATA "wakelist-before.json");
	const json_t *e = compare__find_entry(b, "tbench4 clients=64");
	char label[64], key[64];
	struct errbuf err;

	ck_assert_str_eq(compare__row(b, e, label, sizeof(label), key, sizeof(key)), "tbench4");
	ck_assert_str_eq(label, "64");
	ck_assert_str_eq(key, "clients");
	ck_assert_int_eq(compare__check(b, "b", b, "b", &err), 0);
	ck_assert_int_eq(compare__check(b, "b.json", w, "w.json", &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "no entry in common"), "%s", err.msg);
	json_decref(b);
	json_decref(w);
}
END_TEST

START_TEST(test_table)
{
	struct table *t = table__new(3);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_ptr_nonnull(t);
	table__set_align(t, 1, TABLE_RIGHT);
	ck_assert_int_eq(table__add_header(t), 0);
	table__cell(t, 0, "name");
	table__cell(t, 1, "value");
	ck_assert_int_eq(table__add_row(t), 0);
	table__cell(t, 0, "a,b");
	table__cell(t, 1, "1.5");
	table__csv(t, 1, "1.50");
	table__cell(t, 2, "x|y");
	ck_assert_int_eq(table__cell(t, 3, "bad"), -EINVAL);
	f = open_memstream(&buf, &len);
	table__print(t, TABLE_TEXT, f);
	table__print(t, TABLE_CSV, f);
	table__print(t, TABLE_MARKDOWN, f);
	fclose(f);
	ck_assert_str_eq(buf, "name  value\n"
			      "a,b     1.5  x|y\n"
			      "name,value,\r\n"
			      "\"a,b\",1.50,x|y\r\n"
			      "| name | value |  |\n"
			      "| --- | ---: | --- |\n"
			      "| a,b | 1.5 | x\\|y |\n");
	free(buf);
	table__delete(t);
}
END_TEST

/* order-statistic interval of the median: n=10 gives x(2)..x(9) (P(Bin(10,1/2) <= 1) = 0.0107) */
START_TEST(test_plot)
{
	double v[] = { 10, 1, 9, 2, 8, 3, 7, 4, 6, 5 }, lo, hi;
	json_t *b = load(DATA "wakee-flips-vanilla.json"), *n = load(DATA "wakee-flips-patched.json");
	const json_t *docs[2] = { b, n };
	const char *labels[2] = { "base", "it's new" }, *metrics[1] = { "time" };
	struct compare_render r = { .docs = docs, .labels = labels, .ndocs = 2,
				    .metrics = metrics, .nmetrics = 1 };
	struct errbuf err;
	char *script;

	ck_assert_int_eq(plot__median_interval(v, 10, 0.95, &lo, &hi), 0);
	ck_assert_double_eq(lo, 2);
	ck_assert_double_eq(hi, 9);
	ck_assert_int_eq(plot__median_interval(v, 2, 0.95, &lo, &hi), 0);
	ck_assert(lo == 1 && hi == 10);
	script = plot__script(&r, "/tmp/x'y.svg", &err);
	ck_assert_ptr_nonnull(script);
	ck_assert_msg(strstr(script, "set output '/tmp/x''y.svg'"), "quoting");
	ck_assert(strstr(script, "hackbench-process-pipes: time [s] (lower is better)"));
	ck_assert(strstr(script, "title 'it''s new'"));
	/* one panel: time of hackbench; 15 group counts on the axis */
	ck_assert(strstr(script, "'296' 14)"));
	ck_assert(!strstr(script, "tbench4"));
	free(script);
	json_decref(b);
	json_decref(n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_mwu_exact);
	tcase_add_test(tc, test_mwu_normal_ties);
	tcase_add_test(tc, test_mwu_separated);
	tcase_add_test(tc, test_welch);
	tcase_add_test(tc, test_holm);
	tcase_add_test(tc, test_bootstrap);
	tcase_add_test(tc, test_pdiff);
	tcase_add_test(tc, test_mmtests_summary);
	tcase_add_test(tc, test_seed_wakee_flips);
	tcase_add_test(tc, test_seed_prefetch);
	tcase_add_test(tc, test_verdicts);
	tcase_add_test(tc, test_rows_and_check);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_plot);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
