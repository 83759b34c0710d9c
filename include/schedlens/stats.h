/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptive statistics over repeated measurements (GSL underneath). Every name says what it
 * is: perf's "( +- x% )" is the standard error of the mean over the mean (sem_pct here), not
 * the standard deviation.
 */
#ifndef SCHEDLENS_STATS_H
#define SCHEDLENS_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double mean;
	double stddev;		/* sample standard deviation (n - 1); 0 when n < 2 */
	double sem;		/* standard error of the mean: stddev / sqrt(n) */
	double sem_pct;		/* 100 * sem / |mean|; 0 when mean is 0 */
	double cv;		/* coefficient of variation: stddev / |mean| */
	double min, max, median;
	double hmean;		/* harmonic mean; 0 unless every value is > 0 */
};

/* Summarise @n values (n >= 1). 0, or -EINVAL for n == 0 or a non-finite value. */
int stats__summarize(const double *v, size_t n, struct summary *s);
/* Quantile @q in [0, 1] of @n values, linear interpolation (GSL's rule); @v is not modified. */
double stats__quantile(const double *v, size_t n, double q);

#endif
