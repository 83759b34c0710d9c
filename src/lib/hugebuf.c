// SPDX-License-Identifier: GPL-2.0
#include "schedlens/hugebuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_SIZE (2ul << 20)

int hugebuf__reserve(struct hugebuf *b, size_t bytes)
{
	size_t cap = b->cap ? b->cap : HUGE_SIZE;
	void *p;

	if (bytes <= b->cap)
		return 0;
	while (cap < bytes) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	if (posix_memalign(&p, HUGE_SIZE, cap))
		return -ENOMEM;
	/* only advice: without THP it stays 4 kB pages */
	madvise(p, cap, MADV_HUGEPAGE);
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
