// SPDX-License-Identifier: GPL-2.0
#include "schedlens/histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Index layout: values 0..127 map to 0..127. A value whose top bit is k >= 7 has shift
 * s = k - 6 and sub = v >> s in [64, 128): index = s * 64 + sub, contiguous with the linear part.
 */
#define SUB_BITS 6
#define SUB_HALF (1u << SUB_BITS)
#define NR_BUCKETS ((64 - SUB_BITS + 1) * SUB_HALF)

struct histogram {
	uint64_t count, min, max;
	double sum;
	uint64_t buckets[NR_BUCKETS];
};

static size_t bucket_of(uint64_t v)
{
	unsigned int shift;

	if (v < 2 * SUB_HALF)
		return (size_t)v;
	shift = (unsigned int)(63 - __builtin_clzll(v)) - SUB_BITS;
	return (size_t)shift * SUB_HALF + (size_t)(v >> shift);
}

size_t histogram__bucket_of(uint64_t v)
{
	return bucket_of(v);
}

static void bucket_range(size_t i, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;

	if (i < 2 * SUB_HALF) {
		*lo = *hi = i;
		return;
	}
	shift = (unsigned int)(i / SUB_HALF) - 1;
	*lo = (uint64_t)(i - (size_t)shift * SUB_HALF) << shift;
	*hi = *lo + ((1ull << shift) - 1);
}

struct histogram *histogram__new(void)
{
	struct histogram *h = malloc(sizeof(*h));

	if (h)
		histogram__reset(h);
	return h;
}

void histogram__delete(struct histogram *h)
{
	free(h);
}

void histogram__reset(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void histogram__record_n(struct histogram *h, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	h->buckets[bucket_of(v)] += n;
	h->count += n;
	h->sum += (double)v * (double)n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void histogram__record(struct histogram *h, uint64_t v)
{
	histogram__record_n(h, v, 1);
}

void histogram__merge(struct histogram *dst, const struct histogram *src)
{
	size_t i;

	if (!src->count)
		return;
	for (i = 0; i < NR_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t histogram__count(const struct histogram *h)
{
	return h->count;
}

uint64_t histogram__min(const struct histogram *h)
{
	return h->count ? h->min : 0;
}

uint64_t histogram__max(const struct histogram *h)
{
	return h->max;
}

double histogram__mean(const struct histogram *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}

double histogram__percentile(const struct histogram *h, double pct)
{
	uint64_t rank, seen = 0, lo, hi;
	double mid;
	size_t i;

	if (!h->count)
		return 0;
	if (pct <= 0)
		return (double)h->min;
	if (pct >= 100)
		return (double)h->max;
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->count - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < NR_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	bucket_range(i, &lo, &hi);
	mid = (double)lo + (double)(hi - lo) / 2;
	if (mid < (double)h->min)
		mid = (double)h->min;
	if (mid > (double)h->max)
		mid = (double)h->max;
	return mid;
}

int histogram__next_bucket(const struct histogram *h, size_t *pos, struct histogram_bucket *b)
{
	size_t i;

	for (i = *pos; i < NR_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		bucket_range(i, &b->lo, &b->hi);
		b->count = h->buckets[i];
		*pos = i + 1;
		return 1;
	}
	*pos = NR_BUCKETS;
	return 0;
}
