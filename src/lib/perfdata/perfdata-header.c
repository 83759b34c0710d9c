// SPDX-License-Identifier: GPL-2.0
/* perf.data reader: a file-mode header, its attrs, event types and feature sections. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata-int.h"

static int read_section(struct perf_file *f, const uint8_t *p, uint64_t *off, uint64_t *size)
{
	*off = pd_get64(f, p);
	*size = pd_get64(f, p + 8);
	return *off > f->file_size || *size > f->file_size - *off;
}

static int read_attrs(struct perf_file *f, const uint8_t *hp)
{
	uint64_t aoff, asize, esize = f->hdr.attr_size, i, n;
	int ret = 0;

	if (read_section(f, hp + 24, &aoff, &asize))
		return pd_bad(f, 24, "attr section past the end of the file");
	if (esize < PERF_ATTR_SIZE_VER0 + 16 || esize > 4096)
		return pd_bad(f, 16, "bad attr size %llu", (unsigned long long)esize);
	n = asize / esize;
	for (i = 0; i < n && !ret; i++) {
		const uint8_t *p = f->map + aoff + i * esize;
		struct perf_event_attr attr;
		uint64_t ioff, isize;
		size_t used;

		ret = pd_attr_read(f, p, esize - 16, &attr, &used, aoff + i * esize);
		if (ret)
			break;
		if (read_section(f, p + esize - 16, &ioff, &isize)) {
			ret = pd_bad(f, aoff + i * esize + esize - 16, "ids past the end of the file");
			break;
		}
		ret = pd_evsel_add(f, &attr, (const uint64_t *)(f->map + ioff), isize / 8, true);
		if (ret == -E2BIG)
			ret = pd_bad(f, ioff, "too many events or ids");
	}
	return ret;
}

static int read_event_types(struct perf_file *f, const uint8_t *hp)
{
	uint64_t off, size, i, n;

	if (read_section(f, hp + 56, &off, &size))
		return 0;
	n = size / 72;
	if (n > 4096)
		n = 4096;
	f->event_types = calloc(n ?: 1, sizeof(*f->event_types));
	if (!f->event_types)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		f->event_types[i].id = pd_get64(f, f->map + off + i * 72);
		memcpy(f->event_types[i].name, f->map + off + i * 72 + 8, 63);
	}
	f->nr_event_types = n;
	return 0;
}

static int read_features(struct perf_file *f)
{
	uint64_t toff = f->hdr.data_offset + f->hdr.data_size;
	int feat, ret = 0;

	f->hdr.feat_offset = toff;
	for (feat = 1; feat < PERF_FEAT_MAX && !ret; feat++) {
		uint64_t off, size;

		if (!(f->hdr.features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		if (toff + 16 > f->file_size)
			return pd_bad(f, toff, "feature table past the end of the file");
		if (read_section(f, f->map + toff, &off, &size))
			return pd_bad(f, toff, "feature %s section past the end of the file",
				      perf_feat__name(feat) ?: "?");
		toff += 16;
		ret = pd_feature(f, feat, f->map + off, size, off);
	}
	return ret;
}

int pd_open_file_mode(struct perf_file *f)
{
	const uint8_t *hp = f->map;
	uint64_t doff, dsize;
	int i, ret;

	if (f->file_size < PERF_FILE_HDR_SZ)
		return pd_bad(f, 0, "file header truncated");
	f->hdr.attr_size = pd_get64(f, hp + 16);
	if (read_section(f, hp + 40, &doff, &dsize)) {
		if (doff > f->file_size)
			return pd_bad(f, 40, "data section past the end of the file");
		/* a cut file: read what is there, without features, and fail at the end */
		f->truncated = dsize;
		dsize = f->file_size - doff;
	}
	if (!dsize && doff)
		dsize = f->file_size - doff;	/* perf record killed before it wrote the header */
	f->hdr.data_offset = doff;
	f->hdr.data_size = dsize;
	for (i = 0; i < 4; i++)
		f->hdr.features[i] = pd_get64(f, hp + 72 + 8 * i);
	ret = read_attrs(f, hp);
	if (!ret)
		ret = read_event_types(f, hp);
	if (!ret && !f->truncated)
		ret = read_features(f);
	if (!ret)
		pd_evsels_finish(f);
	return ret;
}

int pd_map_file(struct perf_file *f)
{
	const char *mmap_env = getenv("SCHEDLENS_MMAP");
	uint64_t magic = 0;
	struct stat st;

	if (fstat(f->fd, &st))
		return err__set(f->err, -errno, "cannot stat '%s': %s", f->path, strerror(errno));
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return 1;
	f->file_size = st.st_size;
	f->chunks_only = mmap_env && !strcmp(mmap_env, "0");
	f->stacks_mapped = mmap_env && !strcmp(mmap_env, "stacks");
	f->in_place = mmap_env && !f->chunks_only && !f->stacks_mapped;
	if (!f->in_place) {
		/* the headers and features: the data section is read in chunks (run_file) */
		f->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, f->fd, 0);
	} else if (pread(f->fd, &magic, 8, 0) == 8 && magic == PERF_MAGIC2_SW) {
		/* records parsed in place: a byte-swapped file gets its headers swapped there */
		f->map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, f->fd, 0);
	} else {
		f->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, f->fd, 0);
	}
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return err__set(f->err, -errno, "cannot map '%s': %s", f->path, strerror(errno));
	}
	f->map_len = st.st_size;
	return 0;
}
