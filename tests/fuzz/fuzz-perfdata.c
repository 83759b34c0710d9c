// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the perf.data reader (file and pipe mode, features, tracing data,
 * compressed records, ordering) feeding what report builds on (threads, maps, histograms).
 * Any input must end in 0 or a clean error, never a crash, hang or unbounded allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "schedlens/hist.h"
#include "schedlens/perfdata.h"
#include "schedlens/threads.h"

struct sink {
	struct threads *t;
	struct hist *h;
	uint64_t n;
};

static int f_sample(void *ctx, const struct stream_sample *s)
{
	struct sink *k = ctx;
	struct hist_key key = { 0 };
	struct taddr al;
	uint64_t i;

	if (threads__resolve(k->t, s->pid, s->tid, s->misc, s->ip, &al))
		return -1;
	key.comm = al.comm;
	key.dso = al.map ? al.map->dso : "[unknown]";
	key.addr = al.addr;
	for (i = 0; i < s->nr_callchain; i++)
		k->n += s->callchain[i];
	for (i = 0; i < s->nr_branches; i++)
		k->n += s->branches[i].from;
	if (s->raw_size)
		k->n += ((const uint8_t *)s->raw)[s->raw_size - 1];
	return hist__add(k->h, &key, s->period);
}

static int f_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		  uint64_t time)
{
	return threads__comm(((struct sink *)ctx)->t, pid, tid, comm, exec);
}

static int f_mmap(void *ctx, const struct stream_mmap *m)
{
	return threads__mmap(((struct sink *)ctx)->t, m);
}

static int f_task(void *ctx, const struct stream_task *tk)
{
	return threads__task(((struct sink *)ctx)->t, tk, tk->misc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum hist_sort sorts[] = { HIST_SORT_COMM, HIST_SORT_DSO, HIST_SORT_SYM };
	struct sink k = { threads__new(), hist__new(sorts, 3), 0 };
	/* kernel samples also through the reader's out-of-order path (report's) */
	struct stream_ops ops = { .ctx = &k, .sample = f_sample, .comm = f_comm,
				  .mmap = f_mmap, .task = f_task,
				  .unordered = 1u << PERF_RECORD_MISC_KERNEL };
	struct errbuf err = { "" };
	char path[64];
	size_t n;
	int fd = memfd_create("fuzz.data", 0);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size || !k.t || !k.h)
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	perf_file__process(path, &ops, &err);
	hist__collapse(k.h);
	hist__sorted(k.h, &n);
out:
	if (fd >= 0)
		close(fd);
	hist__delete(k.h);
	threads__delete(k.t);
	return 0;
}
