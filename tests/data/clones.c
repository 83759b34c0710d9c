// SPDX-License-Identifier: GPL-2.0
/*
 * A program whose hot function exists three ways, for annotate's name matching: chase() as
 * the clone chase.constprop.0 (its callers pass a constant step count), inlined into main
 * (main is flatten), and walk() as walk.isra.0 (an unused argument dropped). Build it with
 * gcc -O2 -g -no-pie; `nm` says which clones this gcc made.  Usage: clones [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>

struct ring {
	unsigned int *next;
	size_t n;
};

static unsigned int chase(const unsigned int *next, unsigned long steps, unsigned int p)
{
	unsigned int q = p;

	while (steps--) {
		p = next[p];			/* CHASE */
		q += p * 3 + (q >> 7);
		if (q == 0x12345)
			q ^= next[q & 1023] + next[p & 511];
	}
	return p + (q & 1);
}

static __attribute__((noinline)) unsigned int walk(const struct ring *r, unsigned long steps,
						      unsigned int p)
{
	const unsigned int *next = r->next;

	while (steps--)
		p = next[p] ^ (unsigned int)(steps & 1);	/* WALK */
	return p;
}

static __attribute__((noinline)) unsigned int fixed(const unsigned int *next, unsigned int p)
{
	return chase(next, 1000000, p);
}

static __attribute__((noinline)) unsigned int fixed2(const unsigned int *next, unsigned int p)
{
	return chase(next, 1000000, p + 1);
}

__attribute__((flatten)) int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 50;
	struct ring *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	size_t n = 1u << 22, i;
	unsigned int p = 0;

	if (!a || !b || !(a->next = malloc(n * sizeof(*a->next))))
		return 1;
	for (i = 0; i < n; i++)
		a->next[i] = (unsigned int)((i * 2654435761u + 1) % n);
	*b = *a;
	a->n = b->n = n;
	for (i = 0; i < rounds; i++) {
		p = fixed(a->next, p);
		p = fixed2(a->next, p);
		p = chase(a->next, (unsigned long)argc * 1000000, p);
		p = walk(i & 1 ? a : b, (unsigned long)argc * 500000, p);
		p = walk(i & 1 ? b : a, i * 1000, p);
	}
	printf("%u\n", p);
	return 0;
}
