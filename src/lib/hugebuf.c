// SPDX-License-Identifier: GPL-2.0
#include "schedlens/hugebuf.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_SIZE (2ul << 20)

/* @bytes (a multiple of HUGE_SIZE) of zeroes at a HUGE_SIZE aligned address, or NULL */
static void *huge_map(size_t bytes)
{
	char *p = mmap(NULL, bytes + HUGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *q;
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	q = (char *)(((uintptr_t)p + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1));
	head = (size_t)(q - p);
	if (head)
		munmap(p, head);
	munmap(q + bytes, HUGE_SIZE - head);
	/* only advice: without THP it stays 4 kB pages */
	madvise(q, bytes, MADV_HUGEPAGE);
	return q;
}

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
	p = huge_map(cap);
	if (!p)
		return -ENOMEM;
	if (b->p) {
		memcpy(p, b->p, b->cap);
		munmap(b->p, b->cap);
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void hugebuf__free(struct hugebuf *b)
{
	if (b->p)
		munmap(b->p, b->cap);
	b->p = NULL;
	b->cap = 0;
}
