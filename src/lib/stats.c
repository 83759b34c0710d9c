// SPDX-License-Identifier: GPL-2.0
#include "schedlens/stats.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double *sorted_copy(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, v, n * sizeof(*c));
	gsl_sort(c, 1, n);
	return c;
}

int stats__summarize(const double *v, size_t n, struct summary *s)
{
	double *sorted, inv = 0;
	size_t i;
	int positive = 1;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return -EINVAL;
		if (v[i] > 0)
			inv += 1.0 / v[i];
		else
			positive = 0;
	}
	sorted = sorted_copy(v, n);
	if (!sorted)
		return -ENOMEM;
	s->n = n;
	s->mean = gsl_stats_mean(v, 1, n);
	s->stddev = n > 1 ? gsl_stats_sd_m(v, 1, n, s->mean) : 0;
	s->sem = s->stddev / sqrt((double)n);
	s->sem_pct = s->mean != 0 ? 100.0 * s->sem / fabs(s->mean) : 0;
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : 0;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	s->hmean = positive ? (double)n / inv : 0;
	free(sorted);
	return 0;
}

double stats__quantile(const double *v, size_t n, double q)
{
	double *sorted, r;

	if (n == 0)
		return NAN;
	sorted = sorted_copy(v, n);
	if (!sorted)
		return NAN;
	r = gsl_stats_quantile_from_sorted_data(sorted, 1, n, q < 0 ? 0 : q > 1 ? 1 : q);
	free(sorted);
	return r;
}
