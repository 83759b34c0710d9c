// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/manifest.h"
#include "schedlens/results.h"
#include "schedlens/validation.h"

/* A manifest built in memory: improve lines first, then guards. */
static struct manifest *manifest_of(const char *const *lines, size_t n)
{
	struct manifest *m = calloc(1, sizeof(*m));
	size_t i;

	m->name = strdup("t");
	m->metrics = calloc(n, sizeof(*m->metrics));
	m->nr_metrics = n;
	for (i = 0; i < n; i++) {
		char glob[64], metric[64], pct[16];

		ck_assert_int_eq(sscanf(lines[i] + 1, "%63s %63s %15s", glob, metric, pct), 3);
		m->metrics[i].guard = lines[i][0] == 'g';
		m->metrics[i].glob = strdup(glob);
		m->metrics[i].metric = strdup(metric);
		m->metrics[i].pct = strtod(pct, NULL);
		m->metrics[i].better = strstr(lines[i], " lower") ? BETTER_LOWER : BETTER_NONE;
	}
	return m;
}

static json_t *doc_new(void)
{
	return json_pack("{s:[]}", "entries");
}

/* Entry @id with @n values of @metric spread evenly over mean * (1 +- spread). */
static void put(json_t *doc, const char *id, const char *metric, enum better b, size_t n,
		double mean, double spread)
{
	json_t *e = results__entry(doc, id, "w", NULL), *it;
	size_t i;

	results__declare(e, metric, "s", b);
	for (i = 0; i < n; i++) {
		double off = n > 1 ? spread * (2.0 * i / (n - 1) - 1) : 0;

		if (json_array_size(json_object_get(e, "iterations")) > i)
			it = json_array_get(json_object_get(e, "iterations"), i);
		else
			it = results__add_iteration(e);
		results__set(it, metric, mean * (1 + off));
	}
}

static void release(json_t *base, json_t *new, struct manifest *m)
{
	json_decref(base);
	json_decref(new);
	manifest__delete(m);
}

static struct validation *run(const struct manifest *m, json_t *base, json_t *new,
			      double alpha, double min_effect)
{
	struct validation_opts o;
	struct validation *v = NULL;
	struct errbuf err = { "" };

	validation_opts__init(&o);
	o.alpha = alpha;
	o.min_effect = min_effect;
	ck_assert_int_eq(validation__run(m, base, new, &o, &v, &err), 0);
	return v;
}

START_TEST(test_improved_and_neutral)
{
	static const char *const lines[] = { "i a* time 10%" };
	struct manifest *m = manifest_of(lines, 1);
	json_t *base = doc_new(), *new = doc_new();
	struct validation *v;

	/* a1: 10% faster, tight; a2: 1% faster (below min effect); a3: 10% but noisy */
	put(base, "a1", "time", BETTER_LOWER, 10, 1.0, 0.01);
	put(new, "a1", "time", BETTER_LOWER, 10, 0.9, 0.01);
	put(base, "a2", "time", BETTER_LOWER, 10, 1.0, 0.001);
	put(new, "a2", "time", BETTER_LOWER, 10, 0.99, 0.001);
	put(base, "a3", "time", BETTER_LOWER, 10, 1.0, 0.6);
	put(new, "a3", "time", BETTER_LOWER, 10, 0.9, 0.6);
	put(base, "b1", "time", BETTER_LOWER, 10, 1.0, 0.01);	/* not matched by a* */
	put(new, "b1", "time", BETTER_LOWER, 10, 2.0, 0.01);
	v = run(m, base, new, 0.05, 3);
	ck_assert_uint_eq(v->nr_rows, 3);
	ck_assert_uint_eq(v->nr_tests, 3);
	ck_assert(fabs(v->rows[0].gain_pct - 10) < 1e-9);
	ck_assert_int_eq(v->rows[0].status, VSTATUS_IMPROVED);
	ck_assert(v->rows[1].significant);
	ck_assert_int_eq(v->rows[1].status, VSTATUS_NEUTRAL);
	ck_assert(!v->rows[2].significant);
	ck_assert_int_eq(v->rows[2].status, VSTATUS_NEUTRAL);
	ck_assert_int_eq(v->lines[0].status, VSTATUS_IMPROVED);
	ck_assert(fabs(v->lines[0].median_gain - 10) < 1e-9);
	ck_assert_int_eq(v->verdict, VERDICT_VALIDATED);
	validation__delete(v);
	/* the same with the min effect above 10%: nothing counts */
	v = run(m, base, new, 0.05, 11);
	ck_assert_int_eq(v->verdict, VERDICT_NO_EFFECT);
	validation__delete(v);
	release(base, new, m);
}
END_TEST

START_TEST(test_guard_and_direction)
{
	static const char *const lines[] = { "i * time 5%", "g * tput 5%" };
	struct manifest *m = manifest_of(lines, 2);
	json_t *base = doc_new(), *new = doc_new();
	struct validation *v;

	put(base, "x", "time", BETTER_LOWER, 8, 2.0, 0.01);
	put(new, "x", "time", BETTER_LOWER, 8, 1.5, 0.01);
	/* throughput, higher is better: -4% is within the guard's 5%, -6% is not */
	put(base, "x", "tput", BETTER_HIGHER, 8, 100, 0.001);
	put(new, "x", "tput", BETTER_HIGHER, 8, 96, 0.001);
	v = run(m, base, new, 0.05, 3);
	ck_assert(fabs(v->rows[0].gain_pct - 25) < 1e-9);
	ck_assert(fabs(v->rows[1].gain_pct + 4) < 1e-9);
	ck_assert_int_eq(v->rows[1].status, VSTATUS_NEUTRAL);
	ck_assert_int_eq(v->verdict, VERDICT_VALIDATED);
	validation__delete(v);
	put(new, "x", "tput", BETTER_HIGHER, 8, 94, 0.001);
	v = run(m, base, new, 0.05, 3);
	ck_assert_int_eq(v->rows[1].status, VSTATUS_REGRESSED);
	ck_assert_int_eq(v->lines[1].status, VSTATUS_REGRESSED);
	ck_assert_int_eq(v->verdict, VERDICT_REGRESSION);
	validation__delete(v);
	release(base, new, m);
}
END_TEST

START_TEST(test_untested_absent_unusable)
{
	static const char *const lines[] = { "i * time 5%", "i * other 5%" };
	struct manifest *m = manifest_of(lines, 2);
	json_t *base = doc_new(), *new = doc_new();
	struct validation *v;

	/* single values: their effect, never tested */
	put(base, "one", "time", BETTER_LOWER, 1, 3.246, 0);
	put(new, "one", "time", BETTER_LOWER, 1, 2.251, 0);
	put(base, "only-base", "time", BETTER_LOWER, 1, 1, 0);
	put(base, "nodir", "other", BETTER_NONE, 3, 1, 0.1);
	put(new, "nodir", "other", BETTER_NONE, 3, 2, 0.1);
	v = run(m, base, new, 0.05, 3);
	ck_assert_uint_eq(v->nr_rows, 1);
	ck_assert_uint_eq(v->nr_tests, 0);
	ck_assert(!v->rows[0].tested);
	ck_assert(isnan(v->rows[0].p));
	ck_assert(fabs(v->rows[0].gain_pct - 30.6531) < 1e-3);
	ck_assert_int_eq(v->rows[0].status, VSTATUS_IMPROVED);
	ck_assert_uint_eq(v->lines[0].untested, 1);
	ck_assert_uint_eq(v->missing_in_new, 2);	/* "only-base", once per line */
	ck_assert_int_eq(v->lines[1].status, VSTATUS_ABSENT);
	ck_assert_uint_eq(v->lines[1].no_direction, 1);
	/* a single value a side: no test, so no verdict; its effect points to validated */
	ck_assert_int_eq(v->verdict, VERDICT_INCONCLUSIVE);
	ck_assert_int_eq(v->by_effect, VERDICT_VALIDATED);
	validation__delete(v);
	json_decref(base);
	json_decref(new);
	/* nothing in common */
	base = doc_new();
	new = doc_new();
	put(base, "z", "unrelated", BETTER_LOWER, 3, 1, 0.1);
	put(new, "z", "unrelated", BETTER_LOWER, 3, 1, 0.1);
	v = run(m, base, new, 0.05, 3);
	ck_assert_int_eq(v->verdict, VERDICT_UNUSABLE);
	ck_assert_int_eq(v->lines[0].status, VSTATUS_ABSENT);
	validation__delete(v);
	release(base, new, m);
}
END_TEST

START_TEST(test_ratio_of_counters)
{
	static const char *const lines[] = { "i * misses/loads 5% lower" };
	struct manifest *m = manifest_of(lines, 1);
	json_t *base = doc_new(), *new = doc_new();
	struct validation *v;

	/* counters as stat declares them, without a direction: the line gives it */
	put(base, "c", "loads", BETTER_NONE, 10, 1000, 0.001);
	put(base, "c", "misses", BETTER_NONE, 10, 150, 0.001);
	put(new, "c", "loads", BETTER_NONE, 10, 1000, 0.001);
	put(new, "c", "misses", BETTER_NONE, 10, 120, 0.001);
	v = run(m, base, new, 0.05, 3);
	ck_assert_uint_eq(v->nr_rows, 1);
	ck_assert(fabs(v->rows[0].base - 0.15) < 1e-6);
	ck_assert(fabs(v->rows[0].gain_pct - 20) < 1e-3);
	ck_assert_int_eq(v->rows[0].status, VSTATUS_IMPROVED);
	validation__delete(v);
	release(base, new, m);
}
END_TEST

START_TEST(test_holm)
{
	static const char *const lines[] = { "i * time 1%" };
	struct manifest *m = manifest_of(lines, 1);
	json_t *base = doc_new(), *new = doc_new();
	struct validation *v;
	char id[16];
	double p;
	int i;

	/* one row with p just under 0.05 alone; with 20 null rows, Holm makes it not significant */
	put(base, "e", "time", BETTER_LOWER, 10, 1.0, 0.05);
	put(new, "e", "time", BETTER_LOWER, 10, 0.96, 0.05);
	v = run(m, base, new, 0.05, 1);
	p = v->rows[0].p;
	ck_assert(p < 0.05 && p > 0.0025);
	ck_assert(v->rows[0].p_adj == p);
	ck_assert_int_eq(v->rows[0].status, VSTATUS_IMPROVED);
	validation__delete(v);
	for (i = 0; i < 20; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		put(base, id, "time", BETTER_LOWER, 10, 1.0, 0.05);
		put(new, id, "time", BETTER_LOWER, 10, 1.0, 0.05);
	}
	v = run(m, base, new, 0.05, 1);
	ck_assert_uint_eq(v->nr_tests, 21);
	ck_assert(v->rows[0].p == p);
	ck_assert(v->rows[0].p_adj == fmin(1, 21 * p));	/* the smallest p of 21: times 21 */
	ck_assert(!v->rows[0].significant);
	ck_assert_int_eq(v->verdict, VERDICT_NO_EFFECT);
	validation__delete(v);
	release(base, new, m);
}
END_TEST

/* A manifest with the wakelist series' mechanism line alone. */
static struct manifest *mech_manifest(void)
{
	struct manifest *m = calloc(1, sizeof(*m));

	m->name = strdup("t");
	m->mechanisms = calloc(1, sizeof(*m->mechanisms));
	m->nr_mechanisms = 1;
	m->mechanisms[0] = (struct manifest_mechanism){ .glob = strdup("sched*"),
							.scope = strdup("idle-llc"),
							.paths = strdup("wakelist-*"), .points = 50 };
	return m;
}

/* An iteration of sched entry @id: @wakelist wakeups of @total to an idle CPU of the LLC took
 * the wakelist (split over its IPI and poll paths), the rest the direct paths */
static void put_paths(json_t *doc, const char *id, double wakelist, double total)
{
	json_t *e = NULL, *x, *it;
	size_t i;

	json_array_foreach(json_object_get(doc, "entries"), i, x)
		if (!strcmp(json_string_value(json_object_get(x, "id")), id))
			e = x;
	if (!e)
		e = results__entry(doc, id, "pipe", NULL);
	it = results__add_iteration(e);
	results__set(it, "wakeups", total * 2);
	json_object_set_new(it, "sched",
			    json_pack("{s:{s:{s:f},s:{s:f}},s:{s:f,s:f,s:f,s:f,s:f}}",
				      "wakeup_paths", "same-cpu", "count", total,
				      "wakelist-ipi", "count", total,
				      "wakeup_paths_idle_llc", "same-cpu", 0.0, "wakelist-ipi",
				      wakelist - 1, "wakelist-poll", 1.0, "direct-ipi",
				      total - wakelist, "unknown", 0.0));
}

/* @n iterations of put_paths(), @wakelist[i] of @total each */
static void put_runs(json_t *doc, const double *wakelist, size_t n, double total)
{
	size_t i;

	for (i = 0; i < n; i++)
		put_paths(doc, "sched pipe", wakelist[i], total);
}

static struct validation *run_mech(const struct manifest *m, json_t *base, json_t *new)
{
	struct validation *v = calloc(1, sizeof(*v));
	struct errbuf err = { "" };

	ck_assert_int_eq(validation__mechanisms(v, m, base, new, &err), 0);
	return v;
}

START_TEST(test_mechanism_seen)
{
	struct manifest *m = mech_manifest();
	json_t *base = doc_new(), *new = doc_new();
	struct validation *v;

	/* before: 4-6% of 1000 on the wakelist (WF_ON_CPU); after: 96-98% */
	put_runs(base, (const double[]){ 50, 40, 60 }, 3, 1000);
	put_runs(new, (const double[]){ 970, 960, 980 }, 3, 1000);
	v = run_mech(m, base, new);
	ck_assert_uint_eq(v->nr_mechs, 1);
	ck_assert_uint_eq(v->mechs[0].n_base, 3);
	ck_assert(fabs(v->mechs[0].base - 5) < 1e-9);
	ck_assert(fabs(v->mechs[0].new - 97) < 1e-9);
	ck_assert(fabs(v->mechs[0].change - 92) < 1e-9);
	ck_assert(fabs(v->mechs[0].spread - 2) < 1e-9);
	ck_assert(v->mechs[0].wakeups_base == 3000);
	ck_assert_int_eq(v->mechs[0].status, MSTATUS_SEEN);
	ck_assert_int_eq(v->mechanism, MSTATUS_SEEN);
	ck_assert_str_eq(mstatus__name(v->mechanism), "seen");
	validation__delete(v);
	/* the other way round: the share fell, a rise was expected */
	v = run_mech(m, new, base);
	ck_assert_int_eq(v->mechanism, MSTATUS_NOT_SEEN);
	validation__delete(v);
	release(base, new, m);
}
END_TEST

START_TEST(test_mechanism_not_seen)
{
	struct manifest *m = mech_manifest();
	json_t *base = doc_new(), *new = doc_new(), *b2 = doc_new(), *n2 = doc_new();
	struct validation *v;

	/* the same kernel twice: 4-6% both times */
	put_runs(base, (const double[]){ 50, 40 }, 2, 1000);
	put_runs(new, (const double[]){ 60, 45 }, 2, 1000);
	v = run_mech(m, base, new);
	ck_assert_int_eq(v->mechs[0].status, MSTATUS_NOT_SEEN);
	ck_assert_int_eq(v->mechanism, MSTATUS_NOT_SEEN);
	ck_assert_str_eq(mstatus__name(v->mechanism), "not seen");
	validation__delete(v);
	/* +55 points, the runs apart, but a spread of 40 points: not clear of it */
	put_runs(b2, (const double[]){ 100, 500, 300 }, 3, 1000);
	put_runs(n2, (const double[]){ 800, 850, 900 }, 3, 1000);
	v = run_mech(m, b2, n2);
	ck_assert(fabs(v->mechs[0].change - 55) < 1e-9);
	ck_assert(fabs(v->mechs[0].spread - 40) < 1e-9);
	ck_assert_int_eq(v->mechanism, MSTATUS_NOT_SEEN);
	validation__delete(v);
	release(base, new, m);
	json_decref(b2);
	json_decref(n2);
}
END_TEST

START_TEST(test_mechanism_unjudged_absent)
{
	struct manifest *m = mech_manifest();
	json_t *base = doc_new(), *new = doc_new(), *plain = doc_new();
	struct validation *v;

	/* one run a side, and one with too few wakeups to count */
	put_paths(base, "sched pipe", 50, 1000);
	put_paths(new, "sched pipe", 970, 1000);
	put_paths(new, "sched pipe", 10, VALIDATION_MECH_MIN_WAKEUPS - 1);
	v = run_mech(m, base, new);
	ck_assert_uint_eq(v->mechs[0].n_new, 1);
	ck_assert_uint_eq(v->mechs[0].few_new, 1);
	ck_assert_int_eq(v->mechanism, MSTATUS_UNJUDGED);
	validation__delete(v);
	/* documents without wakeup-path tables (run --suite's) */
	put(plain, "sched pipe", "time", BETTER_LOWER, 3, 1.0, 0.01);
	v = run_mech(m, plain, plain);
	ck_assert_uint_eq(v->nr_mechs, 0);
	ck_assert_int_eq(v->mechanism, MSTATUS_ABSENT);
	validation__delete(v);
	release(base, new, m);
	json_decref(plain);
}
END_TEST

START_TEST(test_emulated)
{
	json_t *doc = json_pack("{s:{s:s,s:s}}", "machine", "kernel_cmdline",
				"console=ttyS0 quiet schedlens.accel=tcg", "cpu_model", "x");
	char why[256];

	ck_assert(validation__emulated(doc, why, sizeof(why)));
	ck_assert(strstr(why, "schedlens.accel=tcg"));
	json_object_set_new(json_object_get(doc, "machine"), "kernel_cmdline",
			    json_string("console=ttyS0 schedlens.accel=kvm"));
	ck_assert(!validation__emulated(doc, why, sizeof(why)));
	json_object_set_new(json_object_get(doc, "machine"), "cpu_model",
			    json_string("QEMU TCG CPU version 2.5+"));
	ck_assert(validation__emulated(doc, why, sizeof(why)));
	json_decref(doc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("validation");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_improved_and_neutral);
	tcase_add_test(tc, test_guard_and_direction);
	tcase_add_test(tc, test_untested_absent_unusable);
	tcase_add_test(tc, test_ratio_of_counters);
	tcase_add_test(tc, test_holm);
	tcase_add_test(tc, test_mechanism_seen);
	tcase_add_test(tc, test_mechanism_not_seen);
	tcase_add_test(tc, test_mechanism_unjudged_absent);
	tcase_add_test(tc, test_emulated);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
