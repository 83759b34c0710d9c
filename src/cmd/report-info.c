// SPDX-License-Identifier: GPL-2.0
/* schedlens report --stats (records by type, samples per event) and --header. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report-int.h"

/* --stats */
struct stats_ctx {
	const struct stream_info *info;
	struct perf_file *f;
	uint64_t *samples, *lost;
};

static int st_begin(void *ctx, const struct stream_info *info)
{
	struct stats_ctx *c = ctx;

	c->info = info;
	c->samples = calloc(info->nr_evsels + 1, sizeof(uint64_t));
	c->lost = calloc(info->nr_evsels + 1, sizeof(uint64_t));
	return c->samples && c->lost ? 0 : -ENOMEM;
}

static int st_sample(void *ctx, const struct stream_sample *s)
{
	struct stats_ctx *c = ctx;

	c->samples[s->evsel->idx]++;
	return 0;
}

static int st_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	struct stats_ctx *c = ctx;
	const struct stream_evsel *e = perf_file__evsel_by_id(c->f, id);

	if (e)
		c->lost[e->idx]++;
	return 0;
}

static void print_stats(const struct stats_ctx *c, const struct stream_stats *st)
{
	size_t i;

	printf("\nAggregated stats:\n%16s events: %10llu\n", "TOTAL",
	       (unsigned long long)st->nr_records);
	for (i = 0; i < 128; i++) {
		const char *name = perf_record__name(i);

		if (!st->nr_by_type[i])
			continue;
		printf("%16s events: %10llu  (%4.1f%%)\n", name ?: "UNKNOWN",
		       (unsigned long long)st->nr_by_type[i],
		       100.0 * st->nr_by_type[i] / (st->nr_records ?: 1));
	}
	if (st->nr_unknown)
		printf("%16s records: %10llu (skipped)\n", "unknown",
		       (unsigned long long)st->nr_unknown);
	if (st->nr_unknown_id)
		printf("%16s samples: %10llu (skipped)\n", "unknown id",
		       (unsigned long long)st->nr_unknown_id);
	for (i = 0; c->info && i < c->info->nr_evsels; i++) {
		const struct stream_evsel *e = &c->info->evsels[i];
		char name[128];

		if (!c->samples[i] && !c->lost[i])
			continue;	/* perf skips empty events */
		/* perf names a pipe's events from their attrs here, before EVENT_DESC */
		if (c->info->pipe_mode && e->attr.type != PERF_TYPE_TRACEPOINT)
			perf_attr__name(&e->attr, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s", e->name);
		printf("%s stats:\n", name);
		printf("%16s events: %10llu\n", "SAMPLE", (unsigned long long)c->samples[i]);
		if (c->lost[i])
			printf("%16s events: %10llu\n", "LOST_SAMPLES",
			       (unsigned long long)c->lost[i]);
	}
}

static void print_cpu_list(const char *what, char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("# %s : %s\n", what, v[i]);
}

static void print_lines(const char *prefix, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n");

		printf("%s%.*s\n", prefix, (int)n, s);
		s += n + (s[n] != 0);
	}
}

/* a feature perf prints only with -I says so instead (perf's feat_ops full_only) */
static bool brief(const struct perf_file_header *h, int feat, bool full)
{
	if (full || !(h->features[feat / 64] & (1ULL << (feat % 64))))
		return false;
	printf("# %s info available, use -I to display\n", perf_feat__name(feat));
	return true;
}

void report__print_header(const struct perf_file *f, const char *path, bool full)
{
	const struct perf_file_header *h = perf_file__header(f);
	const struct stream_info *info = perf_file__info(f);
	char buf[4096], tbuf[64] = "";
	struct stat st;
	const char *p;
	size_t i, j;
	int feat;

	if (strcmp(path, "-") && !stat(path, &st))
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", localtime(&st.st_mtime));
	printf("# ========\n# captured on    : %s\n# header version : 1\n", tbuf);
	printf("# data offset    : %llu\n# data size      : %llu\n# feat offset    : %llu\n",
	       (unsigned long long)h->data_offset, (unsigned long long)h->data_size,
	       (unsigned long long)h->feat_offset);
	if (h->pipe_mode)
		printf("# ========\n#\n");
#define STR(field, label)                               \
	do {                                            \
		if (h->field)                           \
			printf("# %s : %s\n", label, h->field); \
	} while (0)
	STR(hostname, "hostname");
	STR(os_release, "os release");
	STR(perf_version, "perf version");
	STR(arch, "arch");
#undef STR
	if (h->nr_cpus_avail)
		printf("# nrcpus online : %u\n# nrcpus avail : %u\n", h->nr_cpus_online,
		       h->nr_cpus_avail);
	if (h->cpu_desc)
		printf("# cpudesc : %s\n", h->cpu_desc);
	if (h->cpuid)
		printf("# cpuid : %s\n", h->cpuid);
	if (h->total_mem)
		printf("# total memory : %llu kB\n", (unsigned long long)h->total_mem);
	if (h->cmdline) {	/* perf's print_cmdline(): a quote as \' */
		fputs("# cmdline : ", stdout);
		for (p = h->cmdline; *p; p++)
			fputs(*p == '\'' ? "\\'" : (char[]){ *p, 0 }, stdout);
		putchar('\n');
	}
	for (i = 0; i < h->nr_event_descs; i++) {
		const struct perf_event_desc *e = &h->event_descs[i];

		printf("# event : name = %s, , id = {", e->name);
		for (j = 0; j < e->nr_ids; j++)
			printf("%s %llu", j ? "," : "", (unsigned long long)e->ids[j]);
		perf_attr__snprintf(&e->attr, buf, sizeof(buf), " = ");
		printf(" }, %s\n", buf);
	}
	if (brief(h, PERF_FEAT_CPU_TOPOLOGY, full))
		goto numa;
	print_cpu_list("sibling sockets", h->sibling_sockets, h->nr_sibling_sockets);
	print_cpu_list("sibling dies   ", h->sibling_dies, h->nr_sibling_dies);
	print_cpu_list("sibling threads", h->sibling_threads, h->nr_sibling_threads);
	for (i = 0; i < h->nr_cpu_topo; i++) {
		if (h->cpu_topo[i].die_id >= 0)
			printf("# CPU %zu: Core ID %d, Die ID %d, Socket ID %d\n", i,
			       h->cpu_topo[i].core_id, h->cpu_topo[i].die_id,
			       h->cpu_topo[i].socket_id);
		else
			printf("# CPU %zu: Core ID %d, Socket ID %d\n", i, h->cpu_topo[i].core_id,
			       h->cpu_topo[i].socket_id);
	}
	if (h->nr_sibling_sockets && !h->nr_cpu_topo)
		printf("# Core ID and Socket ID information is not available\n");
numa:
	for (i = 0; !brief(h, PERF_FEAT_NUMA_TOPOLOGY, full) && i < h->nr_numa; i++) {
		printf("# node%u meminfo  : total = %llu kB, free = %llu kB\n", h->numa[i].node,
		       (unsigned long long)h->numa[i].mem_total,
		       (unsigned long long)h->numa[i].mem_free);
		printf("# node%u cpu list : %s\n", h->numa[i].node, h->numa[i].cpus ?: "");
	}
	if (h->pmu_mappings)
		printf("# pmu mappings: %s\n", h->pmu_mappings);
	for (i = 0; i < h->nr_groups; i++) {
		size_t l = h->groups[i].leader_idx;

		const char *name = h->groups[i].name;

		if (!name || !strcmp(name, "{anon_group}"))
			name = "";
		printf("# group: %s{", name);
		for (j = 0; j < h->groups[i].nr_members && l + j < info->nr_evsels; j++)
			printf("%s%s", j ? "," : "", info->evsels[l + j].name);
		printf("}\n");
	}
	if (!brief(h, PERF_FEAT_CACHE, full) && h->cache_lines) {
		printf("# CPU cache info:\n");
		print_lines("#  ", h->cache_lines);
	}
	if (h->features[0] & (1ULL << PERF_FEAT_SAMPLE_TIME)) {
		printf("# time of first sample : %llu.%06llu\n# time of last sample : %llu.%06llu\n",
		       (unsigned long long)(h->first_sample_time / 1000000000),
		       (unsigned long long)(h->first_sample_time % 1000000000 / 1000),
		       (unsigned long long)(h->last_sample_time / 1000000000),
		       (unsigned long long)(h->last_sample_time % 1000000000 / 1000));
		printf("# sample duration : %10.3f ms\n",
		       (h->last_sample_time - h->first_sample_time) / 1e6);
	}
	if (!brief(h, PERF_FEAT_MEM_TOPOLOGY, full) && h->mem_topology)
		print_lines("# ", h->mem_topology);
	if (h->clockid_res_ns)
		printf("# clockid frequency: %llu MHz\n",
		       (unsigned long long)(1000 / h->clockid_res_ns));
	if (h->features[0] & (1ULL << PERF_FEAT_COMPRESSED))
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       h->comp_type == 1 ? "Zstd" : "Unknown", h->comp_level, h->comp_ratio);
	if (h->pmu_caps)
		print_lines("# ", h->pmu_caps);
	if (!h->pipe_mode) {
		printf("# missing features:");
		for (feat = 1; feat <= PERF_FEAT_PMU_CAPS; feat++)
			if (!(h->features[feat / 64] & (1ULL << (feat % 64))))
				printf(" %s", perf_feat__name(feat));
		printf(" \n# ========\n#\n");
	}
}

int report__stats(struct perf_file *f, struct errbuf *err)
{
	struct stats_ctx sc = { .f = f };
	struct stream_ops ops = { .ctx = &sc, .begin = st_begin, .sample = st_sample,
				  .lost = st_lost };
	int ret = perf_file__run(f, &ops, err);

	print_stats(&sc, perf_file__stats(f));
	free(sc.samples);
	free(sc.lost);
	return ret;
}
