/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plots of compared results with gnuplot (SVG terminal): one panel per (table, metric) of
 * the base document. Each entry is a position on the x axis; every document draws its
 * per-iteration values there as points, side by side, and its median with the distribution-
 * free 95% order-statistic interval of the median as an error bar.
 */
#ifndef SCHEDLENS_PLOT_H
#define SCHEDLENS_PLOT_H

#include <stddef.h>

#include "schedlens/compare.h"
#include "schedlens/util.h"

/*
 * The gnuplot script that draws @r into @svg_path, as a string the caller frees. NULL on
 * ENOMEM or when there is nothing to draw (detail in @err).
 */
char *plot__script(const struct compare_render *r, const char *svg_path, struct errbuf *err);

/* Run gnuplot on plot__script() output. 0, -ENOENT (no gnuplot) or -EIO, detail in @err. */
int plot__svg(const struct compare_render *r, const char *svg_path, struct errbuf *err);

/*
 * Order-statistic interval of the median of @n values (sorted copy inside): the k-th lowest
 * and k-th highest values, k the largest rank with P(Binomial(n, 1/2) < k) <= (1 - conf) / 2;
 * with too few values the extremes. 0 or -EINVAL / -ENOMEM.
 */
int plot__median_interval(const double *v, size_t n, double conf, double *lo, double *hi);

#endif
