// SPDX-License-Identifier: GPL-2.0
/* The tests behind compare and gate: Welch's t (on logs), Mann-Whitney U, bootstrap, Holm. */
#include "schedlens/compare.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double v;
	int side;	/* 0: a, 1: b */
};

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;

	return a < b ? -1 : a > b;
}

/*
 * Probability that the rank sum of @m values drawn without replacement from ranks 1..N is
 * <= @r (lower) or >= @r (upper): subsets counted by size and sum, all additions, so no
 * cancellation.
 */
static double rank_sum_tail(size_t m, size_t N, long r, bool upper)
{
	long smax = (long)(N * (N + 1) / 2), s;
	double *dp = calloc((m + 1) * (size_t)(smax + 1), sizeof(*dp)), tail = 0;
	size_t k, j;

	if (!dp)
		return NAN;
#define DP(j, s) dp[(j) * (size_t)(smax + 1) + (size_t)(s)]
	DP(0, 0) = 1;
	for (k = 1; k <= N; k++)
		for (j = k < m ? k : m; j >= 1; j--)
			for (s = smax; s >= (long)k; s--)
				DP(j, s) += DP(j - 1, s - (long)k);
	for (s = 0; s <= smax; s++)
		if (upper ? s >= r : s <= r)
			tail += DP(m, s);
#undef DP
	free(dp);
	return tail / gsl_sf_choose((unsigned int)N, (unsigned int)m);
}

double compare__mwu(const double *a, size_t na, const double *b, size_t nb, double *u,
		    bool *exact)
{
	size_t N = na + nb, i, j;
	struct ranked *r;
	double ra = 0, ties = 0, mu, z, sigma, p, U;
	bool has_ties = false;

	if (u)
		*u = NAN;
	if (exact)
		*exact = false;
	if (!na || !nb)
		return NAN;
	r = malloc(N * sizeof(*r));
	if (!r)
		return NAN;
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, N, sizeof(*r), cmp_ranked);
	for (i = 0; i < N; i = j) {
		double rank, t;

		for (j = i + 1; j < N && r[j].v == r[i].v; j++)
			;
		rank = (double)(i + 1 + j) / 2;	/* mean of ranks i+1 .. j */
		t = (double)(j - i);
		if (t > 1) {
			has_ties = true;
			ties += t * t * t - t;
		}
		for (size_t k = i; k < j; k++)
			if (!r[k].side)
				ra += rank;
	}
	free(r);
	U = ra - (double)na * (na + 1) / 2;
	if (u)
		*u = U;
	mu = (double)na * nb / 2;
	if (!has_ties && na <= COMPARE_MWU_EXACT_MAX && nb <= COMPARE_MWU_EXACT_MAX) {
		long rsum = lround(ra);

		p = U > mu ? rank_sum_tail(na, N, rsum, true) : rank_sum_tail(na, N, rsum, false);
		if (exact)
			*exact = true;
		return fmin(1, 2 * p);
	}
	sigma = sqrt((double)na * nb / 12 * ((N + 1) - ties / ((double)N * (N - 1))));
	if (sigma == 0)
		return 1;
	z = U - mu;
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sigma;
	p = 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
	return fmin(1, p);
}

/* mean and sample standard deviation of @v, of its logs when @log */
static void mean_sd(const double *v, size_t n, bool log_scale, double *mean, double *sd)
{
	double m = 0, ss = 0, x;
	size_t i;

	for (i = 0; i < n; i++)
		m += log_scale ? log(v[i]) : v[i];
	m /= (double)n;
	for (i = 0; i < n; i++) {
		x = (log_scale ? log(v[i]) : v[i]) - m;
		ss += x * x;
	}
	*mean = m;
	*sd = sqrt(ss / (double)(n - 1));
}

static bool all_positive(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0) || !isfinite(v[i]))
			return false;
	return true;
}

int compare__welch_t(const double *base, size_t nb, const double *new, size_t nn,
		     struct cmp_welch *w)
{
	double mn, vb, vn, se2;

	memset(w, 0, sizeof(*w));
	w->p = NAN;
	if (nb < 2 || nn < 2)
		return -EINVAL;
	w->log = all_positive(base, nb) && all_positive(new, nn);
	mean_sd(base, nb, w->log, &w->base_mean, &w->sd_base);
	mean_sd(new, nn, w->log, &mn, &w->sd_new);
	w->est = mn - w->base_mean;
	vb = w->sd_base * w->sd_base / (double)nb;
	vn = w->sd_new * w->sd_new / (double)nn;
	se2 = vb + vn;
	w->se = sqrt(se2);
	if (se2 == 0) {
		/* no spread on either side: a difference is certain, its absence too */
		w->df = (double)(nb + nn - 2);
		w->p = w->est == 0 ? 1 : 0;
		return 0;
	}
	w->df = se2 * se2 / (vb * vb / (double)(nb - 1) + vn * vn / (double)(nn - 1));
	w->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(w->est) / w->se, w->df));
	return 0;
}

double compare__welch_tq(const struct cmp_welch *w, double q)
{
	return gsl_cdf_tdist_Qinv(q, w->df > 0 ? w->df : 1);
}

double compare__welch_change(const struct cmp_welch *w, double d, enum better better)
{
	if (w->log)
		return compare__change_pct(1, exp(d), better);
	return compare__change_pct(w->base_mean, w->base_mean + d, better);
}

static double resampled_median(gsl_rng *rng, const double *v, size_t n, double *scratch)
{
	size_t i;

	for (i = 0; i < n; i++)
		scratch[i] = v[gsl_rng_uniform_int(rng, n)];
	gsl_sort(scratch, 1, n);
	return gsl_stats_median_from_sorted_data(scratch, 1, n);
}

int compare__bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			     double confidence, unsigned int resamples, unsigned long seed,
			     double *lo, double *hi)
{
	double *ratios = NULL, *scratch = NULL, q = (1 - confidence) / 2;
	gsl_rng *rng = NULL;
	size_t k = 0;
	unsigned int i;
	int ret = -ENOMEM;

	*lo = *hi = NAN;
	if (!na || !nb || !resamples || !(confidence > 0 && confidence < 1))
		return -EINVAL;
	ratios = malloc(resamples * sizeof(*ratios));
	scratch = malloc((na > nb ? na : nb) * sizeof(*scratch));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!ratios || !scratch || !rng)
		goto out_free;
	gsl_rng_set(rng, seed);
	for (i = 0; i < resamples; i++) {
		double ma = resampled_median(rng, a, na, scratch);
		double mb = resampled_median(rng, b, nb, scratch);

		if (ma != 0)
			ratios[k++] = mb / ma;
	}
	ret = -EINVAL;
	/* a base whose medians are mostly 0 has no ratio worth an interval */
	if (k < resamples / 2)
		goto out_free;
	gsl_sort(ratios, 1, k);
	*lo = gsl_stats_quantile_from_sorted_data(ratios, 1, k, q);
	*hi = gsl_stats_quantile_from_sorted_data(ratios, 1, k, 1 - q);
	ret = 0;
out_free:
	gsl_rng_free(rng);
	free(scratch);
	free(ratios);
	return ret;
}

void compare__holm(const double *p, size_t m, double *adj)
{
	size_t *idx = malloc((m ?: 1) * sizeof(*idx)), n = 0, i, j;
	double *tmp = malloc((m ?: 1) * sizeof(*tmp)), run = 0;

	if (!idx || !tmp) {
		/* Bonferroni is never less conservative than Holm */
		for (i = 0; i < m; i++)
			adj[i] = isnan(p[i]) ? NAN : fmin(1, p[i] * m);
		goto out_free;
	}
	for (i = 0; i < m; i++) {
		tmp[i] = p[i];
		if (!isnan(p[i]))
			idx[n++] = i;
	}
	/* insertion sort by p: m is the number of metrics, small */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && tmp[idx[j]] < tmp[idx[j - 1]]; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (i = 0; i < m; i++)
		adj[i] = NAN;
	for (i = 0; i < n; i++) {
		double v = fmin(1, (double)(n - i) * tmp[idx[i]]);

		run = fmax(run, v);
		adj[idx[i]] = run;
	}
out_free:
	free(idx);
	free(tmp);
}
