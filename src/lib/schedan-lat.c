// SPDX-License-Identifier: GPL-2.0
/* Latency vectors: exact nearest-rank percentiles over radix-sorted nanoseconds. */
#include <errno.h>
#include <gsl/gsl_sort.h>
#include <stdlib.h>
#include <string.h>

#include "schedan-int.h"

_Static_assert(sizeof(unsigned long) == sizeof(uint64_t), "gsl_sort_ulong sorts u64");

int u64vec__push(struct u64vec *v, uint64_t x)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;
		uint64_t *nv = realloc(v->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = x;
	return 0;
}

static uint64_t nearest_rank(const uint64_t *sorted, size_t n, double pct)
{
	double r = pct / 100.0 * (double)n;
	size_t k = (size_t)r;

	if ((double)k < r)
		k++;
	if (k < 1)
		k = 1;
	return sorted[(k > n ? n : k) - 1];
}

/*
 * LSD radix sort, 16-bit digits (8-bit below 256k values, where clearing and summing 64k
 * counters would cost more than the extra passes); passes over digits that are all equal are
 * skipped
 */
static int u64_sort(uint64_t *v, size_t n)
{
	uint64_t *tmp, *src = v, *dst, all_or = 0, all_and = ~0ull;
	size_t i, *count, radix = n < (1u << 18) ? 256 : 65536;
	unsigned int bits = radix == 256 ? 8 : 16, shift;

	if (n < 64) {
		for (i = 1; i < n; i++) {
			uint64_t x = v[i];
			size_t j = i;

			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return 0;
	}
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(radix * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	dst = tmp;
	for (i = 0; i < n; i++) {
		all_or |= v[i];
		all_and &= v[i];
	}
	for (shift = 0; shift < 64; shift += bits) {
		size_t sum = 0, c;
		uint64_t *t;

		if ((((all_or ^ all_and) >> shift) & (radix - 1)) == 0)
			continue;
		memset(count, 0, radix * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(src[i] >> shift) & (radix - 1)]++;
		for (i = 0; i < radix; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & (radix - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
	return 0;
}

void u64vec__lat(struct u64vec *v, struct schedan_lat *out)
{
	memset(out, 0, sizeof(*out));
	if (!v->n)
		return;
	if (!v->sorted || v->sorted != v->n) {
		if (u64_sort(v->v, v->n))
			gsl_sort_ulong((unsigned long *)v->v, 1, v->n);
		v->sorted = v->n;
	}
	out->count = v->n;
	out->p50 = nearest_rank(v->v, v->n, 50);
	out->p90 = nearest_rank(v->v, v->n, 90);
	out->p99 = nearest_rank(v->v, v->n, 99);
	out->p999 = nearest_rank(v->v, v->n, 99.9);
	out->max = v->v[v->n - 1];
}
