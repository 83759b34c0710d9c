// SPDX-License-Identifier: GPL-2.0
#include "schedlens/hugebuf.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_SIZE (2ul << 20)

int hugebuf__reserve(struct hugebuf *b, size_t bytes)
{
	size_t cap = b->cap ? b->cap : b->first ? b->first : HUGE_SIZE;
	void *p;

	if (bytes <= b->cap)
		return 0;
	while (cap < bytes) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	if (cap < HUGE_SIZE) {
		p = malloc(cap);
		if (!p)
			return -ENOMEM;
	} else if (posix_memalign(&p, HUGE_SIZE, cap)) {
		return -ENOMEM;
	} else {
		/* only advice: without THP it stays 4 kB pages */
		madvise(p, cap, MADV_HUGEPAGE);
	}
	if (b->p)
		memcpy(p, b->p, b->cap);
	free(b->p);
	b->p = p;
	b->cap = cap;
	return 0;
}

void hugebuf__free(struct hugebuf *b)
{
	free(b->p);
	b->p = NULL;
	b->cap = 0;
}

/*
 * glibc's heap grows by brk; the part of it past a 2 MB boundary can be advised as huge pages
 * only while none of its 4 kB pages is there yet. So: take M_TOP_PAD more at the next growth,
 * hold a block that ends below the boundary (what is left of the first 2 MB, untouched past its
 * header), advise the rest. Allocations then come from above the boundary. Big blocks stay in
 * the heap (M_MMAP_THRESHOLD) and freed ones are not given back (M_TRIM_THRESHOLD). Anything not
 * as expected (another allocator, the heap elsewhere) leaves it plain 4 kB pages.
 */
static void *heap_head;		/* held for good: reachable, so no leak checker reports it */

void hugebuf__heap(size_t pad)
{
	uintptr_t top, lo, hi;
	size_t chunk;
	void *q;

	if (heap_head)
		return;
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 2 * pad);
	mallopt(M_TOP_PAD, pad);
	q = malloc(32);			/* glibc: the chunk ends where the top chunk begins */
	if (!q)
		return;
	top = (uintptr_t)q + 32;
	lo = (top + 4096 + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
	chunk = (lo - 16 - top) & ~(size_t)15;	/* the next top's 16-byte header below lo */
	heap_head = malloc(chunk - 16);
	hi = (uintptr_t)sbrk(0);
	free(q);
	if (heap_head && (uintptr_t)heap_head + chunk - 8 <= lo && hi > lo + HUGE_SIZE)
		madvise((void *)lo, (hi - lo) & ~(HUGE_SIZE - 1), MADV_HUGEPAGE);
}
