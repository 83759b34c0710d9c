// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader: the feature sections (tools/perf/util/header.c layouts) and the tracing
 * data (trace-event-read.c), which goes to libtraceevent.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "perfdata-int.h"

static const char *const feat_names[] = {
	[PERF_FEAT_TRACING_DATA] = "TRACING_DATA", [PERF_FEAT_BUILD_ID] = "BUILD_ID",
	[PERF_FEAT_HOSTNAME] = "HOSTNAME", [PERF_FEAT_OSRELEASE] = "OSRELEASE",
	[PERF_FEAT_VERSION] = "VERSION", [PERF_FEAT_ARCH] = "ARCH", [PERF_FEAT_NRCPUS] = "NRCPUS",
	[PERF_FEAT_CPUDESC] = "CPUDESC", [PERF_FEAT_CPUID] = "CPUID",
	[PERF_FEAT_TOTAL_MEM] = "TOTAL_MEM", [PERF_FEAT_CMDLINE] = "CMDLINE",
	[PERF_FEAT_EVENT_DESC] = "EVENT_DESC", [PERF_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PERF_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY", [PERF_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[PERF_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS", [PERF_FEAT_GROUP_DESC] = "GROUP_DESC",
	[PERF_FEAT_AUXTRACE] = "AUXTRACE", [PERF_FEAT_STAT] = "STAT", [PERF_FEAT_CACHE] = "CACHE",
	[PERF_FEAT_SAMPLE_TIME] = "SAMPLE_TIME", [PERF_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PERF_FEAT_CLOCKID] = "CLOCKID", [PERF_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[PERF_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO", [PERF_FEAT_BPF_BTF] = "BPF_BTF",
	[PERF_FEAT_COMPRESSED] = "COMPRESSED", [PERF_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[PERF_FEAT_CLOCK_DATA] = "CLOCK_DATA", [PERF_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PERF_FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *perf_feat__name(int feat)
{
	return feat > 0 && (size_t)feat < ARRAY_SIZE(feat_names) ? feat_names[feat] : NULL;
}

/* perf's do_read_string: u32 length, then the NUL-padded string */
static char *rstr(struct rd *r)
{
	uint32_t len = r32(r);
	const uint8_t *p = rbytes(r, len);
	char *s;

	if (!p)
		return NULL;
	s = strndup((const char *)p, len);
	if (!s)
		r->bad = true;
	return s;
}

/* u32 count, then count strings */
static char **rstrs(struct rd *r, size_t *nr, size_t max)
{
	uint32_t n = r32(r), i;
	char **v;

	*nr = 0;
	if (r->bad || n > max || n > (uint64_t)(r->end - r->p) / 4) {
		r->bad = true;
		return NULL;
	}
	v = calloc(n + 1, sizeof(*v));
	if (!v) {
		r->bad = true;
		return NULL;
	}
	for (i = 0; i < n && !r->bad; i++)
		v[i] = rstr(r);
	*nr = r->bad ? 0 : n;
	if (r->bad) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return NULL;
	}
	return v;
}

static void free_strs(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void set_str(char **dst, char *s)
{
	free(*dst);
	*dst = s;
}

static void free_event_descs(struct perf_file_header *h)
{
	size_t i;

	for (i = 0; i < h->nr_event_descs; i++) {
		free(h->event_descs[i].name);
		free(h->event_descs[i].ids);
	}
	free(h->event_descs);
	h->event_descs = NULL;
	h->nr_event_descs = 0;
}

static int event_desc(struct rd *r, struct perf_file *f)
{
	uint32_t nre = r32(r), sz = r32(r), i, j;
	struct perf_file_header *h = &f->hdr;

	if (r->bad || nre > 4096 || sz < PERF_ATTR_SIZE_VER0 || sz > 4096)
		return -EINVAL;
	free_event_descs(h);
	h->event_descs = calloc(nre ?: 1, sizeof(*h->event_descs));
	if (!h->event_descs)
		return -ENOMEM;
	for (i = 0; i < nre && !r->bad; i++) {
		struct perf_event_desc *d = &h->event_descs[i];
		const uint8_t *ap = rbytes(r, sz), *ip;
		struct pd_evsel *e;
		uint32_t nr;
		size_t used;

		if (!ap)
			break;
		h->nr_event_descs++;
		if (pd_attr_read(f, ap, sz, &d->attr, &used, 0))
			return -EINVAL;
		nr = r32(r);
		d->name = rstr(r);
		ip = rbytes(r, 8ull * nr);
		if (!ip || !d->name)
			break;
		d->ids = calloc(nr ?: 1, 8);
		if (!d->ids)
			return -ENOMEM;
		for (j = 0; j < nr; j++)
			d->ids[j] = pd_get64(f, ip + 8 * j);
		d->nr_ids = nr;
		/* a file lists the events in attr order; a pipe's FEATURE record comes after
		 * its ATTR records, matched by id (before the data: names are final there) */
		e = !f->pipe ? (i < f->nr_evsels ? f->evsels[i] : NULL)
			     : !f->begun && nr ? pd_evsel_by_id(f, d->ids[0]) : NULL;
		if (e) {
			snprintf(e->ev.name, sizeof(e->ev.name), "%s", d->name);
			e->named = true;
		}
	}
	return r->bad ? -1 : 0;
}

static void free_caches(struct perf_file_header *h)
{
	size_t i;

	for (i = 0; i < h->nr_caches; i++) {
		free(h->caches[i].type);
		free(h->caches[i].map);
	}
	free(h->caches);
	h->caches = NULL;
	h->nr_caches = 0;
}

/* CACHE: u32 version, u32 nr, then level, line size, sets, ways (u32), type, size, map */
static int cache_info(struct rd *r, struct perf_file_header *h)
{
	uint32_t n, i;
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	r32(r);
	n = r32(r);
	if (r->bad || n > 65536)
		return -EINVAL;
	m = open_memstream(&s, &len);
	if (!m)
		return -ENOMEM;
	free_caches(h);
	h->caches = calloc(n ?: 1, sizeof(*h->caches));
	if (!h->caches) {
		fclose(m);
		free(s);
		return -ENOMEM;
	}
	for (i = 0; i < n && !r->bad; i++) {
		uint32_t level = r32(r);
		char *type, *size, *map;

		r32(r);
		r32(r);
		r32(r);
		type = rstr(r);
		size = rstr(r);
		map = rstr(r);
		if (type && size && map) {
			fprintf(m, "L%u %-15s %8s [%s]\n", level, type, size, map);
			h->caches[h->nr_caches++] = (struct perf_cache_level){ level, type, map };
			type = map = NULL;
		}
		free(type);
		free(size);
		free(map);
	}
	fclose(m);
	set_str(&h->cache_lines, s);
	return r->bad ? -1 : 0;
}

/* a bitmap (u64 nr bits, u64 words) as a cpu-list style "0-17,32-269" */
static uint64_t bitmap_list(struct rd *r, FILE *m)
{
	uint64_t weight = 0;
	uint64_t bits = r64(r), i, start = 0;
	uint64_t words = (bits + 63) / 64;
	const uint8_t *p = bits < (1ull << 32) ? rbytes(r, 8 * words) : NULL;
	bool in = false, first = true;

	if (!p)
		return 0;
	for (i = 0; i <= bits; i++) {
		bool set = i < bits && (pd_get64(r->f, p + 8 * (i / 64)) >> (i % 64)) & 1;

		weight += set;
		if (set && !in) {
			start = i;
			in = true;
		} else if (!set && in) {
			fprintf(m, "%s%llu", first ? "" : ",", (unsigned long long)start);
			if (i - 1 > start)
				fprintf(m, "-%llu", (unsigned long long)(i - 1));
			first = false;
			in = false;
		}
	}
	return weight;
}

/* MEM_TOPOLOGY: u64 version, block size, nr; per node: u64 node, u64 blocks, bitmap */
static int mem_topology(struct rd *r, struct perf_file_header *h)
{
	uint64_t bsize, n, i;
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	r64(r);
	bsize = r64(r);
	n = r64(r);
	if (r->bad || n > 65536)
		return -EINVAL;
	m = open_memstream(&s, &len);
	if (!m)
		return -ENOMEM;
	fprintf(m, "memory nodes (nr %llu, block size 0x%llx):\n", (unsigned long long)n,
		(unsigned long long)bsize);
	for (i = 0; i < n && !r->bad; i++) {
		uint64_t node = r64(r), size, w;
		char *map = NULL;
		size_t mlen = 0;
		FILE *bm = open_memstream(&map, &mlen);
		int unit = 0;

		r64(r);
		if (!bm)
			break;
		w = bitmap_list(r, bm);
		fclose(bm);
		/* perf's unit_number__scnprintf of block size times blocks */
		for (size = bsize * w; size / 1024 > 1 && unit < 3; unit++)
			size /= 1024;
		fprintf(m, " %3llu [%llu%c]: %s\n", (unsigned long long)node,
			(unsigned long long)size, "BKMG"[unit], map ?: "");
		free(map);
	}
	fclose(m);
	set_str(&h->mem_topology, s);
	return r->bad ? -1 : 0;
}

/* CPU_PMU_CAPS: u32 nr, name/value strings; PMU_CAPS: u32 nr pmus, each u32 nr, caps, pmu */
static int pmu_caps(struct rd *r, struct perf_file_header *h, bool cpu_only)
{
	uint32_t npmu = cpu_only ? 1 : r32(r), p, i;
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	if (r->bad || npmu > 4096)
		return -EINVAL;
	m = open_memstream(&s, &len);
	if (!m)
		return -ENOMEM;
	if (h->pmu_caps)
		fputs(h->pmu_caps, m);
	for (p = 0; p < npmu && !r->bad; p++) {
		uint32_t n = r32(r);
		char *caps = NULL, *pmu;
		size_t clen = 0;
		FILE *c;

		if (n > 65536)
			break;
		c = open_memstream(&caps, &clen);
		if (!c)
			break;
		for (i = 0; i < n && !r->bad; i++) {
			char *name = rstr(r), *value = rstr(r);

			if (name && value)
				fprintf(c, "%s%s=%s", i ? ", " : "", name, value);
			free(name);
			free(value);
		}
		fclose(c);
		pmu = cpu_only ? strdup("cpu") : rstr(r);
		if (pmu && !r->bad)
			fprintf(m, "%s pmu capabilities: %s\n", pmu, caps ?: "");
		free(pmu);
		free(caps);
	}
	fclose(m);
	set_str(&h->pmu_caps, s);
	return r->bad ? -1 : 0;
}

static int cpu_topology(struct rd *r, struct perf_file_header *h)
{
	uint32_t i, n;

	free_strs(h->sibling_sockets, h->nr_sibling_sockets);
	free_strs(h->sibling_threads, h->nr_sibling_threads);
	free_strs(h->sibling_dies, h->nr_sibling_dies);
	h->sibling_dies = NULL;
	h->nr_sibling_dies = 0;
	free(h->cpu_topo);
	h->cpu_topo = NULL;
	h->nr_cpu_topo = 0;
	h->sibling_sockets = rstrs(r, &h->nr_sibling_sockets, 1 << 16);
	h->sibling_threads = rstrs(r, &h->nr_sibling_threads, 1 << 16);
	if (r->bad)
		return -EINVAL;
	n = h->nr_cpus_avail;
	if (!n || r->end - r->p < 8 * (int64_t)n)
		return 0;
	h->cpu_topo = calloc(n, sizeof(*h->cpu_topo));
	if (!h->cpu_topo)
		return -ENOMEM;
	h->nr_cpu_topo = n;
	for (i = 0; i < n; i++) {
		h->cpu_topo[i].core_id = r32(r);
		h->cpu_topo[i].socket_id = r32(r);
		h->cpu_topo[i].die_id = -1;
	}
	if (r->end - r->p < 4)
		return 0;
	h->sibling_dies = rstrs(r, &h->nr_sibling_dies, 1 << 16);
	if (r->bad)
		return -EINVAL;
	if (r->end - r->p < 4 * (int64_t)n)
		return 0;
	for (i = 0; i < n; i++)
		h->cpu_topo[i].die_id = r32(r);
	return 0;
}

static int numa_topology(struct rd *r, struct perf_file_header *h)
{
	uint32_t n = r32(r), i;

	if (r->bad || n > 4096 || h->numa)
		return -EINVAL;
	h->numa = calloc(n ?: 1, sizeof(*h->numa));
	if (!h->numa)
		return -ENOMEM;
	h->nr_numa = n;
	for (i = 0; i < n && !r->bad; i++) {
		h->numa[i].node = r32(r);
		h->numa[i].mem_total = r64(r);
		h->numa[i].mem_free = r64(r);
		h->numa[i].cpus = rstr(r);
	}
	return r->bad ? -1 : 0;
}

static int pmu_mappings(struct rd *r, struct perf_file_header *h)
{
	uint32_t n = r32(r), i;
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	if (r->bad || n > 65536)
		return -EINVAL;
	m = open_memstream(&s, &len);
	if (!m)
		return -ENOMEM;
	for (i = 0; i < n && !r->bad; i++) {
		uint32_t type = r32(r);
		char *name = rstr(r);

		if (name)
			fprintf(m, "%s%s = %u", i ? ", " : "", name, type);
		free(name);
	}
	fclose(m);
	set_str(&h->pmu_mappings, s);
	return r->bad ? -1 : 0;
}

static int group_desc(struct rd *r, struct perf_file_header *h)
{
	uint32_t n = r32(r), i;

	if (r->bad || n > 4096 || h->groups)
		return -EINVAL;
	h->groups = calloc(n ?: 1, sizeof(*h->groups));
	if (!h->groups)
		return -ENOMEM;
	h->nr_groups = n;
	for (i = 0; i < n && !r->bad; i++) {
		h->groups[i].name = rstr(r);
		h->groups[i].leader_idx = r32(r);
		h->groups[i].nr_members = r32(r);
	}
	return r->bad ? -1 : 0;
}

/* a sequence of perf_record_header_build_id: header, pid, build_id[24], filename */
static int build_ids(struct rd *r, struct perf_file_header *h)
{
	while (r->end - r->p >= 8 + 4 + 24 && h->nr_build_ids < (1u << 20)) {
		struct perf_event_header eh;
		struct perf_build_id *b;
		const uint8_t *p = r->p;
		void *n;

		memcpy(&eh, p, 8);
		if (r->swap) {
			eh.misc = bswap_16(eh.misc);
			eh.size = bswap_16(eh.size);
		}
		if (eh.size < 8 + 4 + 24 || eh.size > r->end - r->p)
			return -EINVAL;
		n = realloc(h->build_ids, (h->nr_build_ids + 1) * sizeof(*h->build_ids));
		if (!n)
			return -ENOMEM;
		h->build_ids = n;
		b = &h->build_ids[h->nr_build_ids++];
		memcpy(&b->pid, p + 8, 4);
		if (r->swap)
			b->pid = bswap_32(b->pid);
		b->misc = eh.misc;
		memcpy(b->id, p + 12, 20);
		b->size = (eh.misc & (1 << 15)) && p[32] <= 20 ? p[32] : 20;
		b->filename = strndup((const char *)p + 36, eh.size - 36);
		r->p += eh.size;
	}
	return 0;
}

int pd_feature(struct perf_file *f, int feat, const uint8_t *p, size_t size, uint64_t off)
{
	struct rd r = { f, p, p + size, false, f->swap };
	struct perf_file_header *h = &f->hdr;
	int ret = 0;

	if (feat == -PERF_FEAT_BUILD_ID)
		feat = PERF_FEAT_BUILD_ID;
	else if (feat <= 0 || feat >= PERF_FEAT_MAX)
		return 0;
	h->features[feat / 64] |= 1ULL << (feat % 64);
	switch (feat) {
	case PERF_FEAT_TRACING_DATA:
		return pd_tracing_data(f, p, size, off);
	case PERF_FEAT_HOSTNAME:
		set_str(&h->hostname, rstr(&r));
		break;
	case PERF_FEAT_OSRELEASE:
		set_str(&h->os_release, rstr(&r));
		break;
	case PERF_FEAT_VERSION:
		set_str(&h->perf_version, rstr(&r));
		break;
	case PERF_FEAT_ARCH:
		set_str(&h->arch, rstr(&r));
		break;
	case PERF_FEAT_CPUDESC:
		set_str(&h->cpu_desc, rstr(&r));
		break;
	case PERF_FEAT_CPUID:
		set_str(&h->cpuid, rstr(&r));
		break;
	case PERF_FEAT_NRCPUS:
		h->nr_cpus_avail = r32(&r);
		h->nr_cpus_online = r32(&r);
		break;
	case PERF_FEAT_TOTAL_MEM:
		h->total_mem = r64(&r);
		break;
	case PERF_FEAT_CMDLINE: {
		size_t n, i, len = 0;
		char **v = rstrs(&r, &n, 65536), *s;

		for (i = 0; i < n; i++)
			len += strlen(v[i]) + 1;
		s = malloc(len + 1);
		if (s) {
			s[0] = 0;
			for (i = 0, len = 0; i < n; i++)
				len += sprintf(s + len, "%s ", v[i]);
		}
		free_strs(v, n);
		set_str(&h->cmdline, s);
		break;
	}
	case PERF_FEAT_EVENT_DESC:
		ret = event_desc(&r, f);
		break;
	case PERF_FEAT_CPU_TOPOLOGY:
		ret = cpu_topology(&r, h);
		break;
	case PERF_FEAT_NUMA_TOPOLOGY:
		ret = numa_topology(&r, h);
		break;
	case PERF_FEAT_PMU_MAPPINGS:
		ret = pmu_mappings(&r, h);
		break;
	case PERF_FEAT_GROUP_DESC:
		ret = group_desc(&r, h);
		break;
	case PERF_FEAT_BUILD_ID:
		ret = build_ids(&r, h);
		break;
	case PERF_FEAT_COMPRESSED:
		h->comp_ver = r32(&r);
		h->comp_type = r32(&r);
		h->comp_level = r32(&r);
		h->comp_ratio = r32(&r);
		h->comp_mmap_len = r32(&r);
		if (h->comp_mmap_len > (16u << 20))
			h->comp_mmap_len = 0;
		break;
	case PERF_FEAT_SAMPLE_TIME:
		h->first_sample_time = r64(&r);
		h->last_sample_time = r64(&r);
		break;
	case PERF_FEAT_CLOCKID:
		h->clockid_res_ns = r64(&r);
		break;
	case PERF_FEAT_CACHE:
		ret = cache_info(&r, h);
		break;
	case PERF_FEAT_MEM_TOPOLOGY:
		ret = mem_topology(&r, h);
		break;
	case PERF_FEAT_CPU_PMU_CAPS:
		ret = pmu_caps(&r, h, true);
		break;
	case PERF_FEAT_PMU_CAPS:
		ret = pmu_caps(&r, h, false);
		break;
	default:
		break;
	}
	if (ret == -ENOMEM)
		return err__set(f->err, -ENOMEM, "'%s': out of memory reading the %s feature section",
				f->path, perf_feat__name(feat));
	if (ret || r.bad)
		return pd_bad(f, off, "bad %s feature section", perf_feat__name(feat));
	f->info.hostname = h->hostname;
	f->info.os_release = h->os_release;
	f->info.arch = h->arch;
	f->info.cpu_desc = h->cpu_desc;
	f->info.cpuid = h->cpuid;
	f->info.perf_version = h->perf_version;
	f->info.cmdline = h->cmdline;
	f->info.nr_cpus_online = h->nr_cpus_online;
	f->info.nr_cpus_avail = h->nr_cpus_avail;
	return 0;
}

void pd_header_free(struct perf_file_header *h)
{
	size_t i;

	free(h->hostname);
	free(h->os_release);
	free(h->perf_version);
	free(h->arch);
	free(h->cpu_desc);
	free(h->cpuid);
	free(h->cmdline);
	free_strs(h->sibling_sockets, h->nr_sibling_sockets);
	free_strs(h->sibling_dies, h->nr_sibling_dies);
	free_strs(h->sibling_threads, h->nr_sibling_threads);
	free(h->cpu_topo);
	for (i = 0; i < h->nr_numa; i++)
		free(h->numa[i].cpus);
	free(h->numa);
	free(h->pmu_mappings);
	for (i = 0; i < h->nr_groups; i++)
		free(h->groups[i].name);
	free(h->groups);
	for (i = 0; i < h->nr_build_ids; i++)
		free(h->build_ids[i].filename);
	free(h->build_ids);
	free_event_descs(h);
	free(h->cache_lines);
	free_caches(h);
	free(h->mem_topology);
	free(h->pmu_caps);
}
