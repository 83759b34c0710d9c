// SPDX-License-Identifier: GPL-2.0
/*
 * What perf record synthesizes for tasks that already run when recording starts: the kernel
 * reports COMM and MMAP only as they happen, so a system-wide or attached recording would
 * otherwise leave the samples of running processes without a name or a map. For each task
 * a COMM record from /proc/PID/task/TID/comm, for each process an MMAP2 record per
 * executable mapping in /proc/PID/maps (perf's default, without --data), with the
 * device, inode and protection perf writes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "schedlens/perfdata.h"

#define TRAILER_MAX 8

struct synth {
	struct perf_writer *w;
	const uint64_t *trailer;
	size_t nt;
	size_t nr_comm, nr_mmap;
};

static int put(struct synth *s, void *rec, size_t body, uint32_t type, uint16_t misc)
{
	struct perf_event_header *h = rec;
	size_t len = (body + 7) & ~(size_t)7;

	memset((char *)rec + body, 0, len - body);
	memcpy((char *)rec + len, s->trailer, s->nt * 8);
	h->type = type;
	h->misc = misc;
	h->size = len + s->nt * 8;
	return perf_writer__write(s->w, h);
}

/* contents of a small /proc file without the trailing newline; -errno when gone */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	return 0;
}

static int synth_comm(struct synth *s, uint32_t pid, uint32_t tid)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16 + 8 + TRAILER_MAX * 8];
	} rec;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	if (read_small(path, rec.comm, 17))
		return 0;	/* exited meanwhile */
	rec.pid = pid;
	rec.tid = tid;
	s->nr_comm++;
	return put(s, &rec, offsetof(typeof(rec), comm) + strlen(rec.comm) + 1, PERF_RECORD_COMM,
		   0);
}

/* one line of /proc/PID/maps: "start-end perms offset maj:min inode   path" */
static int synth_map_line(struct synth *s, uint32_t pid, const char *line)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
		char filename[4096 + 8 + TRAILER_MAX * 8];
	} rec;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];
	int pos = 0;
	const char *name;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &pos) < 7 || strlen(perms) < 4 || perms[2] != 'x')
		return 0;
	name = line + pos;
	while (isspace((unsigned char)*name))
		name++;
	memset(&rec, 0, offsetof(typeof(rec), filename));
	rec.pid = rec.tid = pid;
	rec.start = start;
	rec.len = end - start;
	rec.pgoff = pgoff;
	rec.maj = maj;
	rec.min = min;
	rec.ino = ino;
	rec.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		   PROT_EXEC;
	rec.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	snprintf(rec.filename, 4096, "%s", *name ? name : "//anon");
	s->nr_mmap++;
	return put(s, &rec, offsetof(typeof(rec), filename) + strlen(rec.filename) + 1,
		   PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
}

static int synth_maps(struct synth *s, uint32_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!ret && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		ret = synth_map_line(s, pid, line);
	}
	free(line);
	fclose(f);
	return ret;
}

static int synth_process(struct synth *s, uint32_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!ret && (d = readdir(dir))) {
		uint64_t tid;

		if (!parse_u64(d->d_name, &tid) && tid <= UINT32_MAX)
			ret = synth_comm(s, pid, tid);
	}
	closedir(dir);
	return ret ?: synth_maps(s, pid);
}

int perf_writer__synthesize_tasks(struct perf_writer *w, int pid, const uint64_t *trailer,
				  size_t nt, size_t *nr_comm, size_t *nr_mmap)
{
	struct synth s = { w, trailer, nt > TRAILER_MAX ? TRAILER_MAX : nt, 0, 0 };
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	if (pid > 0) {
		ret = synth_process(&s, pid);
	} else if ((dir = opendir("/proc"))) {
		while (!ret && (d = readdir(dir))) {
			uint64_t p;

			if (!parse_u64(d->d_name, &p) && p && p <= UINT32_MAX)
				ret = synth_process(&s, p);
		}
		closedir(dir);
	} else {
		ret = -errno;
	}
	if (nr_comm)
		*nr_comm = s.nr_comm;
	if (nr_mmap)
		*nr_mmap = s.nr_mmap;
	return ret;
}
