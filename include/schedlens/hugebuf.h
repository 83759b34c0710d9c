/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Big growing buffers: from 2 MB on, 2 MB aligned and advised as transparent huge pages
 * (MADV_HUGEPAGE): where THP is on in "madvise" mode, filling one costs a fault per 2 MB
 * instead of one per 4 kB page (about 13 us each in a VM, more than the work on the data).
 * Below 2 MB (where the first size asked for is less) plain heap memory, which
 * hugebuf__heap() advises as a whole. Contents kept on growth; new bytes are not initialized.
 */
#ifndef SCHEDLENS_HUGEBUF_H
#define SCHEDLENS_HUGEBUF_H

#include <stddef.h>

struct hugebuf {
	void *p;		/* NULL until the first hugebuf__reserve() */
	size_t cap;		/* bytes usable */
	size_t first;		/* the size of the first reservation, doubled from (0: 2 MB):
				   a buffer that may stay small takes no huge page of its own */
};

/* Room for at least @bytes, growing by doubling; 0 or -ENOMEM (the buffer left as it was). */
int hugebuf__reserve(struct hugebuf *b, size_t bytes);
void hugebuf__free(struct hugebuf *b);

/*
 * For a process about to allocate megabytes in small pieces (a file's threads, tasks, tables):
 * the malloc heap grows @pad bytes at a time, in huge pages where the kernel gives them. Here
 * (`sched -i`, 444,000 records) 275 page faults became 109 and 2 ms of 30 went. Not for a
 * process that forks workers: their writes to the heap would split or copy its huge pages.
 */
void hugebuf__heap(size_t pad);

#endif
