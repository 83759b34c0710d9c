// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader: what the file says about the kernel it was recorded on (the BUILD_ID
 * entry of [kernel.kallsyms], the address of its text, its release and host), decided
 * against the running kernel once, before the first record is handed over (origin.h).
 */
#include <string.h>

#include "perfdata-int.h"
#include "schedlens/origin.h"

#define KERNEL_MAP "[kernel.kallsyms]"

static const struct perf_build_id *kernel_build_id(const struct perf_file_header *h)
{
	size_t i;

	for (i = 0; i < h->nr_build_ids; i++)
		if (!strcmp(h->build_ids[i].filename, KERNEL_MAP) && h->build_ids[i].size)
			return &h->build_ids[i];
	return NULL;
}

/*
 * The pgoff of the kernel's MMAP/MMAP2 (perf and schedlens record synthesize it, named
 * "[kernel.kallsyms]_text", with the address of _text), among the first records of a file
 * whose data is not compressed; 0 where it is not found there.
 */
static uint64_t kernel_text(const struct perf_file *f)
{
	const uint8_t *p, *end;
	size_t name_off;
	int n;

	if (f->pipe || !f->map || f->hdr.data_offset >= f->file_size)
		return 0;
	p = f->map + f->hdr.data_offset;
	end = p + (f->hdr.data_size < f->file_size - f->hdr.data_offset ?
		   f->hdr.data_size : f->file_size - f->hdr.data_offset);
	for (n = 0; n < 4096 && end - p >= 8; n++) {
		struct perf_event_header h;

		memcpy(&h, p, sizeof(h));
		h.type = pd_u32(f, h.type);
		h.size = pd_u16(f, h.size);
		if (h.size < 8 || h.size > end - p)
			break;
		/* MMAP: pid, tid, start, len, pgoff, filename; MMAP2: 32 bytes more before it */
		name_off = h.type == PERF_RECORD_MMAP ? 8 + 32 : h.type == PERF_RECORD_MMAP2 ? 8 + 64 : 0;
		if (name_off && h.size > name_off + strlen(KERNEL_MAP) &&
		    !strncmp((const char *)p + name_off, KERNEL_MAP, strlen(KERNEL_MAP)))
			return pd_get64(f, p + 8 + 24);
		p += h.size;
	}
	return 0;
}

void pd_origin(struct perf_file *f)
{
	const struct perf_build_id *b = kernel_build_id(&f->hdr);
	struct origin_facts in = {
		.hostname = f->info.hostname,
		.os_release = f->info.os_release,
		.build_id = b ? b->id : NULL,
		.build_id_size = b ? b->size : 0,
		.kernel_text = kernel_text(f),
	};

	origin__of_input(&f->info.origin, &in);
}
