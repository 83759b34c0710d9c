/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing results documents (results.h): aligning their entries, the statistics that decide
 * whether NEW differs from BASE, and the tables that kernel developers post (MMTests compare,
 * perf stat -r before/after, medians with intervals). Used by `compare`, `gate` and `validate`.
 *
 * Sign convention everywhere: a percentage change is positive when NEW is better than BASE,
 * given the metric's "better" direction (lower: 100 * (base - new) / base; higher: 100 *
 * (new - base) / base). A metric whose direction is "none" gets the plain relative change
 * 100 * (new - base) / base and no better/worse verdict.
 *
 * Statistics, all through GSL:
 *  - The verdict: Welch's t-test (unequal variances) on the logarithms of the values when all
 *    are positive, so on the ratio of the geometric means (timings and rates are positive and
 *    their noise multiplicative), else on the values. Its interval at 1 - alpha is the one
 *    shown beside the verdict, so the two never disagree. Unlike a rank test it can reach
 *    significance at the sample sizes kernel developers post (3 to 10 runs a side): the exact
 *    Mann-Whitney test of 3 against 3 cannot go below p = 0.1.
 *  - Mann-Whitney U, two-sided, reported beside it: the exact null distribution when neither
 *    sample has ties and both have at most COMPARE_MWU_EXACT_MAX values (R's wilcox.test
 *    rule), otherwise the normal approximation with tie correction and continuity correction.
 *  - Bootstrap percentile interval of median(NEW) / median(BASE): resamples both sides with
 *    replacement, gsl_rng_mt19937 seeded from compare_opts.seed, so a run is reproducible.
 *  - MMTests' summaries and significance marker (compare__mmtests_*), as compare-kernels.sh
 *    prints them.
 *  - Holm-Bonferroni adjustment of p-values for the gate (family-wise error rate).
 */
#ifndef SCHEDLENS_COMPARE_H
#define SCHEDLENS_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "schedlens/results.h"
#include "schedlens/stats.h"
#include "schedlens/util.h"

#define COMPARE_MWU_EXACT_MAX 50

struct compare_opts {
	double alpha;		/* significance level, default 0.05; intervals are at 1 - alpha */
	unsigned int resamples;	/* bootstrap resamples of the median ratio, default 10000;
				   0: none (median_lo/median_hi stay NAN) */
	unsigned long seed;	/* bootstrap RNG seed, default 1 */
};

/* The defaults above. */
void compare_opts__init(struct compare_opts *o);

/* Which test decided a verdict. */
enum cmp_test {
	CMP_TEST_NONE,		/* too few values on a side (n < 2): no verdict */
	CMP_TEST_WELCH_LOG,	/* Welch's t on the logs: the ratio of geometric means */
	CMP_TEST_WELCH,		/* Welch's t on the values (some are <= 0): the difference */
};

enum cmp_verdict {
	CMP_NA,			/* a side has no value */
	CMP_SAME,		/* no significant difference */
	CMP_BETTER,
	CMP_WORSE,
	CMP_CHANGED,		/* significant, but the metric has no better direction */
	CMP_INCONCLUSIVE,	/* the test cannot reach significance with these n (n < 2), and
				   the values are not one and the same */
};

/* Welch's t-test of NEW against BASE, on the logs when every value is positive. */
struct cmp_welch {
	bool log;
	double base_mean;	/* mean of BASE (of its logs when log) */
	double est;		/* mean(NEW) - mean(BASE) (of the logs when log) */
	double se, df;		/* its standard error, Welch-Satterthwaite degrees of freedom */
	double sd_base, sd_new;	/* the sample standard deviations (of the logs when log) */
	double p;		/* two-sided p-value */
};

/* 0, or -EINVAL when a side has fewer than 2 values. */
int compare__welch_t(const double *base, size_t nb, const double *new, size_t nn,
		     struct cmp_welch *w);
/* Student's t quantile for a one-sided tail @q (0 < q < 1) at @w's degrees of freedom. */
double compare__welch_tq(const struct cmp_welch *w, double q);
/* The change in % (sign convention above) that the difference @d on @w's scale means. */
double compare__welch_change(const struct cmp_welch *w, double d, enum better better);

/* NEW against BASE for one metric of one entry. */
struct metric_cmp {
	enum better better;
	struct summary base, new;	/* of each side's iteration values */
	double ratio;			/* median(new) / median(base); NAN when base median is 0 */
	double median_change_pct;	/* of the medians, sign as above */
	double median_lo, median_hi;	/* bootstrap interval of the median ratio; NAN if none */
	double change_pct;		/* what the test estimates (geometric means, or means) */
	double change_lo, change_hi;	/* its interval at 1 - alpha: change_lo <= change_hi */
	double mean_change_pct;		/* of the arithmetic means, sign as above */
	double u;			/* Mann-Whitney U of NEW */
	double mwu_p;			/* Mann-Whitney two-sided p; NAN when n < 2 */
	bool mwu_exact;
	double p_value;			/* the verdict's (Welch's) two-sided p; NAN when n < 2 */
	struct cmp_welch welch;		/* valid when test != CMP_TEST_NONE */
	enum cmp_test test;		/* the test behind verdict */
	bool significant;		/* p_value < alpha: the interval excludes no change */
	enum cmp_verdict verdict;
};

/*
 * Compare @metric between two entries of results documents: the verdict from Welch's t at
 * opts->alpha (above), with the interval of the change at 1 - alpha. Returns 0, -ENOENT when
 * a side has no value of @metric, -EINVAL when the two entries declare different directions
 * for it, -ENOMEM; detail in @err.
 */
int compare__metric(const json_t *base_entry, const json_t *new_entry, const char *metric,
		    const struct compare_opts *opts, struct metric_cmp *out, struct errbuf *err);
/* The same on plain arrays (either side may be empty: the result is then CMP_NA). */
int compare__values(const double *base, size_t nb, const double *new, size_t nn,
		    enum better better, const struct compare_opts *opts, struct metric_cmp *out);

const char *cmp_test__name(enum cmp_test t);	/* "welch-log", "welch", "none" */
const char *cmp_verdict__name(enum cmp_verdict v);	/* "better", "worse", "same", ... */
/* What a + change means for a metric of direction @better, as table titles say it. */
const char *compare__sign_note(enum better better);
/*
 * Percentage change of @new against @base with the sign convention above: 0 from 0 to 0, NAN
 * from 0 to anything else.
 */
double compare__change_pct(double base, double new, enum better better);

/* --- alignment --- */

/* The entry of @doc whose id is @id, or NULL. Borrowed. */
const json_t *compare__find_entry(const json_t *doc, const char *id);
/*
 * Check that @other can be compared with @base: at least one entry id in common, and no
 * common metric declared with opposite directions. Names are for messages. 0 or -EINVAL.
 */
int compare__check(const json_t *base, const char *base_name, const json_t *other,
		   const char *other_name, struct errbuf *err);
/*
 * The table an entry belongs to ("group" key, else its workload) and its row label within
 * that table: when the entries of @doc in the same group differ in exactly one parameter,
 * that parameter's value (and its name in @key), else the entry id (and "entry"). Writes
 * into the buffers; returns the group name (borrowed from @entry).
 */
const char *compare__row(const json_t *doc, const json_t *entry, char *label, size_t llen,
			 char *key, size_t klen);

/* --- the tests themselves --- */

/* Two-sided Mann-Whitney U test; *u is U of @a, *exact says which distribution. NAN if n==0. */
double compare__mwu(const double *a, size_t na, const double *b, size_t nb, double *u,
		    bool *exact);
/*
 * Bootstrap percentile interval at @confidence of median(b) / median(a), @resamples draws from
 * gsl_rng_mt19937 seeded with @seed. 0, -EINVAL (n == 0, a median of 0) or -ENOMEM.
 */
int compare__bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			     double confidence, unsigned int resamples, unsigned long seed,
			     double *lo, double *hi);
/* Holm-Bonferroni adjusted p-values of @p into @adj (may alias); NAN entries stay NAN. */
void compare__holm(const double *p, size_t m, double *adj);

/* --- MMTests (compare-kernels.sh) --- */

/*
 * MMTests' per-metric summary, as its Summarise/Stat modules compute it (alpha 0.05):
 * the mean is the arithmetic mean when lower is better and the harmonic mean when higher is
 * better; stddev is the sample standard deviation for Amean, and for Hmean MMTests' delta-method
 * estimate sqrt(sum((1/x - 1/H)^2) * H^4 / n); coeffvar = 100 * stddev / mean; bmean95 is the
 * same mean over the best int(n * 95 / 100) values (at least 1); the interval is
 * mean -/+ qnorm(0.975) * stddev, i.e. mean -/+ 1.96 SD.
 */
struct mmtests_summary {
	size_t n;
	enum better better;
	bool hmean;
	double min, mean, stddev, coeffvar, max, bmean95;
	double ci_lo, ci_hi;	/* NAN when n < 2 */
};
int compare__mmtests_summary(const double *v, size_t n, enum better better,
			     struct mmtests_summary *s);
/*
 * MMTests' marker rule: NEW's mean differs significantly from BASE's when their mean -/+ 1.96
 * SD intervals do not overlap. False when either interval is unknown.
 */
bool compare__mmtests_significant(const struct mmtests_summary *base,
				  const struct mmtests_summary *new);
/* MMTests' pdiff (higher is better) and pndiff (lower is better), edge cases included. */
double compare__mmtests_pdiff(double new, double base);
double compare__mmtests_pndiff(double new, double base);

/* --- rendering --- */

enum compare_style { COMPARE_STYLE_DEFAULT, COMPARE_STYLE_MMTESTS, COMPARE_STYLE_PERF_STAT };
enum table_format;

struct compare_render {
	const json_t *const *docs;	/* docs[0] is BASE */
	const char *const *labels;	/* one column title per document */
	size_t ndocs;
	enum compare_style style;
	int precision;			/* decimals of values; < 0 picks per table */
	const char *const *metrics;	/* only these metrics; NULL for all */
	size_t nmetrics;
	struct compare_opts opts;
};

/*
 * Print every table of @r in @fmt to @out (one document: the MMTests summary, or perf-stat
 * style's "before" columns). 0, -ENOMEM or -EIO with detail in @err.
 */
int compare__render(const struct compare_render *r, enum table_format fmt, FILE *out,
		    struct errbuf *err);
/*
 * The comparison as one tidy table, a JSON document: {"base": label, "sign": the convention,
 * "comparisons": [{"suite", "group", "entry", "metric", "unit", "better", "base", "new",
 * "n_base", "n_new", "base_median", "new_median", "base_mean", "new_mean", "change_pct",
 * "change_lo", "change_hi", "p_value", "test", "verdict", and the medians' bootstrap
 * interval, Mann-Whitney p and median ratio}], one object per (entry, metric, NEW document).
 * New reference, NULL on ENOMEM.
 */
json_t *compare__to_json(const struct compare_render *r);
/* The same table as CSV: a header line, then one row per comparison. 0 or -errno. */
int compare__tidy_csv(const struct compare_render *r, FILE *out, struct errbuf *err);
/* Whether @metric of @entry is selected by @r->metrics. */
bool compare__selected(const struct compare_render *r, const char *metric);

#endif
