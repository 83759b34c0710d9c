/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear histogram of u64 values (latencies in ns, sizes, ...), HDR-style: values below
 * 128 have a bucket each; above, every power of two [2^k, 2^(k+1)) is split into 64 equal
 * buckets. A bucket is therefore never wider than 1/64 of its lower bound, and a percentile
 * reported as its bucket's midpoint is within HISTOGRAM_REL_ERROR (1/128, 0.79%) of the exact
 * nearest-rank percentile of the recorded values. The whole u64 range is covered (3776
 * counters, ~30 KiB). Min, max, count and sum are kept exactly.
 *
 * Not thread-safe: give each thread its own histogram and histogram__merge() them at the end.
 */
#ifndef SCHEDLENS_HISTOGRAM_H
#define SCHEDLENS_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define HISTOGRAM_REL_ERROR (1.0 / 128)

struct histogram;

/* A new empty histogram, or NULL on ENOMEM. */
struct histogram *histogram__new(void);
void histogram__delete(struct histogram *h);
void histogram__reset(struct histogram *h);

void histogram__record(struct histogram *h, uint64_t v);
void histogram__record_n(struct histogram *h, uint64_t v, uint64_t n);
/* Add every value of @src to @dst. */
void histogram__merge(struct histogram *dst, const struct histogram *src);

uint64_t histogram__count(const struct histogram *h);
/* 0 when empty. */
uint64_t histogram__min(const struct histogram *h);
uint64_t histogram__max(const struct histogram *h);
double histogram__mean(const struct histogram *h);
/*
 * The nearest-rank @pct percentile (0 < pct <= 100; 0 gives the minimum): the midpoint of the
 * bucket holding the ceil(pct/100 * count)-th smallest value, clamped to [min, max]. 0 when
 * empty. Monotone in @pct.
 */
double histogram__percentile(const struct histogram *h, double pct);

/* The index of the bucket @v falls in (increasing with @v): equal indexes, one bucket. */
size_t histogram__bucket_of(uint64_t v);

/* Non-empty buckets in increasing order: [lo, hi] inclusive and how many values fell there. */
struct histogram_bucket {
	uint64_t lo, hi, count;
};
/*
 * Fill @b with the first non-empty bucket at index >= *@pos and advance *@pos past it;
 * 0 when there is none left. Start with *@pos = 0.
 */
int histogram__next_bucket(const struct histogram *h, size_t *pos, struct histogram_bucket *b);

#endif
