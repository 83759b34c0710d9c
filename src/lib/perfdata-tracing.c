// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing data perf records with tracepoints (tools/perf/util/trace-event-info.c):
 *   "\027\010\104tracing", "0.6\0", u8 big endian, u8 sizeof(long), u32 page size,
 *   "header_page\0" u64 size + text, "header_event\0" u64 size + text,
 *   u32 nr ftrace formats (u64 size + text each), u32 nr systems (name\0, u32 nr, formats),
 *   u32 kallsyms size + text (left empty here), u32 printk size + text,
 *   u64 saved_cmdlines size + text.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata-int.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

struct tbuf {
	char *p;
	size_t len, alloc;
	int err;
};

static void put(struct tbuf *b, const void *p, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > b->alloc) {
		size_t a = (b->len + n) * 2;
		char *q = realloc(b->p, a);

		if (!q) {
			b->err = -ENOMEM;
			return;
		}
		b->p = q;
		b->alloc = a;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* a whole tracefs file (their stat size is 0) into *out */
static int slurp(const char *path, char **out, size_t *len)
{
	struct tbuf b = { 0 };
	char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		put(&b, chunk, n);
	if (n < 0)
		b.err = -errno;
	close(fd);
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

static int put_file(struct tbuf *b, const char *path, int width)
{
	char *s = NULL;
	size_t n = 0;
	uint64_t v64;
	uint32_t v32;
	int ret = slurp(path, &s, &n);

	if (ret)
		return ret;
	v64 = n;
	v32 = n;
	put(b, width == 8 ? (void *)&v64 : (void *)&v32, width);
	put(b, s, n);
	free(s);
	return b->err;
}

static const char *tracefs(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/events/header_page", tracefs_dirs[i]);
		if (!access(p, R_OK))
			return tracefs_dirs[i];
	}
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int perf_tracing_data__generate(const char *const *tps, void **out, size_t *size,
				struct errbuf *err)
{
	static const char magic[] = "\027\010\104tracing";
	const char *dir = tracefs(), **v = NULL;
	struct tbuf b = { 0 };
	char path[512];
	size_t n = 0, i, j;
	uint32_t u32;
	uint64_t u64 = 0;
	uint8_t c;
	int ret = 0;

	if (!dir)
		return err__set(err, -ENOENT, "tracefs is not mounted at /sys/kernel/tracing");
	while (tps[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, tps, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_str);
	put(&b, magic, 10);
	put(&b, "0.6", 4);
	c = __BYTE_ORDER == __BIG_ENDIAN;
	put(&b, &c, 1);
	c = sizeof(long);
	put(&b, &c, 1);
	u32 = sysconf(_SC_PAGESIZE);
	put(&b, &u32, 4);
	put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	ret = put_file(&b, path, 8);
	put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	ret = ret ?: put_file(&b, path, 8);
	if (ret)
		ret = err__set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
	u32 = 0;			/* no ftrace formats */
	put(&b, &u32, 4);
	/* systems: the distinct "sys" of the sorted "sys:name" list */
	for (i = 0, u32 = 0; i < n; i++)
		if (!i || strcspn(v[i], ":") != strcspn(v[i - 1], ":") ||
		    strncmp(v[i], v[i - 1], strcspn(v[i], ":")))
			u32++;
	put(&b, &u32, 4);
	for (i = 0; i < n && !ret; i = j) {
		size_t sl = strcspn(v[i], ":");

		for (j = i; j < n && strcspn(v[j], ":") == sl && !strncmp(v[j], v[i], sl); j++)
			;
		put(&b, v[i], sl);
		put(&b, "", 1);
		u32 = j - i;
		put(&b, &u32, 4);
		for (; i < j && !ret; i++) {
			if (!v[i][sl]) {
				ret = err__set(err, -EINVAL, "'%s' is not a tracepoint", v[i]);
				break;
			}
			snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", dir, (int)sl, v[i],
				 v[i] + sl + 1);
			ret = put_file(&b, path, 8);
			if (ret)
				ret = err__set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
		}
		j = i;
	}
	u32 = 0;			/* kallsyms: left out, as perf does when it cannot read them */
	put(&b, &u32, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (!ret && put_file(&b, path, 4))
		put(&b, &u32, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	if (!ret && put_file(&b, path, 8))
		put(&b, &u64, 8);
	free(v);
	ret = ret ?: b.err;
	if (ret) {
		free(b.p);
		return ret;
	}
	*out = b.p;
	*size = b.len;
	return 0;
}
