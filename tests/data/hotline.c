// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for annotate and report --sort srcline: one named function chases pointers
 * through an array far larger than the caches, so nearly every sample lands on one line.
 * Usage: hotline [SECONDS] (default 1). Build with -g -O1 at test time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NR_SLOTS (16u << 20)

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t *build_ring(uint32_t n)
{
	uint32_t *next = malloc(sizeof(*next) * n);
	uint32_t i;

	if (!next)
		return NULL;
	/* a full-period LCG modulo a power of two: one cycle through every slot */
	for (i = 0; i < n; i++)
		next[i] = (i * 2654435761u + 12345u) & (n - 1);
	return next;
}

__attribute__((noinline)) uint32_t chase(const uint32_t *next, uint32_t start, long steps)
{
	uint32_t p = start;

	/* one line, so the instructions after the load that take the skid are on it too */
	while (steps-- > 0) p = next[p]; /* HOT */
	return p;
}

int main(int argc, char **argv)
{
	double limit = argc > 1 ? strtod(argv[1], NULL) : 1.0;
	uint32_t *next = build_ring(NR_SLOTS);
	uint32_t p = 0;
	double t0;

	if (!next) {
		fprintf(stderr, "hotline: out of memory\n");
		return 1;
	}
	t0 = seconds();
	while (seconds() - t0 < limit)
		p = chase(next, p, 1 << 20);
	printf("%u\n", p);
	free(next);
	return 0;
}
