// SPDX-License-Identifier: GPL-2.0
#include "schedlens/topology.h"

#include <dirent.h>
#include <errno.h>
#include <perf/cpumap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 8192

struct node_info {
	int id;
	uint64_t total_kb, free_kb;
	int *dist;
	int nr_dist;
};

struct topology {
	int nr;
	bool *online;
	int *core, *llc, *node, *pkg;
	int llc_level;
	bool llc_from_cache;
	struct node_info *nodes;
	int nr_nodes;
	char root[256];
};

/* The lowest CPU of a cpu list ("0-3,8"), or -1; all of them through @each when given. */
static int cpulist_parse(const char *list, void (*each)(int cpu, void *arg), void *arg)
{
	struct perf_cpu_map *m;
	int i, lowest = -1;

	if (!list || !list[0])
		return -1;
	m = perf_cpu_map__new(list);
	if (!m)
		return -1;
	for (i = 0; i < perf_cpu_map__nr(m); i++) {
		int c = perf_cpu_map__cpu(m, i).cpu;

		if (c < 0 || c >= MAX_CPUS)
			continue;
		if (lowest < 0 || c < lowest)
			lowest = c;
		if (each)
			each(c, arg);
	}
	perf_cpu_map__put(m);
	return lowest;
}

/* cpulist_parse() of the file at @path */
static int cpulist_read(const char *path, void (*each)(int cpu, void *arg), void *arg)
{
	char buf[4096];

	if (read_file_str(path, buf, sizeof(buf)))
		return -1;
	return cpulist_parse(buf, each, arg);
}

static void mark_online(int cpu, void *arg)
{
	struct topology *t = arg;

	if (cpu < t->nr)
		t->online[cpu] = true;
}

static int read_int(const char *path, int *v)
{
	char buf[64];
	long l;

	if (read_file_str(path, buf, sizeof(buf)) || parse_long(buf, -1, 1 << 30, &l))
		return -1;
	*v = (int)l;
	return 0;
}

static int cpu_llc(const struct topology *t, int cpu, int *level)
{
	char path[512], buf[64];
	int idx, lv, best = -1, best_level = -1;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/type",
			 t->root, cpu, idx);
		if (read_file_str(path, buf, sizeof(buf)))
			break;
		if (strcmp(buf, "Unified"))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/level",
			 t->root, cpu, idx);
		if (read_int(path, &lv) || lv <= best_level)
			continue;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", t->root, cpu, idx);
		best = cpulist_read(path, NULL, NULL);
		best_level = lv;
	}
	*level = best_level;
	return best;
}

/* no cache information (for @all CPUs, else where it is missing): one LLC per package, named
 * by its lowest CPU */
static void llc_by_package(struct topology *t, bool all)
{
	int cpu, c;

	for (cpu = 0; cpu < t->nr; cpu++) {
		if (!t->online[cpu] || (!all && t->llc[cpu] >= 0))
			continue;
		for (c = 0; c <= cpu; c++)
			if (t->online[c] && t->pkg[c] == t->pkg[cpu])
				break;
		t->llc[cpu] = c;
	}
}

static void topology__cpus(struct topology *t)
{
	char path[512];
	int cpu, level;

	t->llc_from_cache = true;
	for (cpu = 0; cpu < t->nr; cpu++) {
		t->core[cpu] = t->llc[cpu] = t->pkg[cpu] = t->node[cpu] = -1;
		if (!t->online[cpu])
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/core_cpus_list",
			 t->root, cpu);
		t->core[cpu] = cpulist_read(path, NULL, NULL);
		if (t->core[cpu] < 0) {
			snprintf(path, sizeof(path),
				 "%s/devices/system/cpu/cpu%d/topology/thread_siblings_list", t->root,
				 cpu);
			t->core[cpu] = cpulist_read(path, NULL, NULL);
		}
		if (t->core[cpu] < 0)
			t->core[cpu] = cpu;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/topology/physical_package_id", t->root, cpu);
		if (read_int(path, &t->pkg[cpu]))
			t->pkg[cpu] = 0;
		t->llc[cpu] = cpu_llc(t, cpu, &level);
		if (t->llc[cpu] < 0)
			t->llc_from_cache = false;
		else if (level > t->llc_level)
			t->llc_level = level;
	}
	if (!t->llc_from_cache) {
		llc_by_package(t, true);
		t->llc_level = -1;
	}
}

struct node_ctx {
	struct topology *t;
	int node;
};

static void mark_node(int cpu, void *arg)
{
	struct node_ctx *n = arg;

	if (cpu < n->t->nr)
		n->t->node[cpu] = n->node;
}

static int node_cmp(const void *a, const void *b)
{
	return ((const struct node_info *)a)->id - ((const struct node_info *)b)->id;
}

static void node_meminfo(struct topology *t, struct node_info *ni)
{
	char path[512], line[256];
	unsigned long long v;
	int id;
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/meminfo", t->root, ni->id);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d MemTotal: %llu kB", &id, &v) == 2)
			ni->total_kb = v;
		else if (sscanf(line, "Node %d MemFree: %llu kB", &id, &v) == 2)
			ni->free_kb = v;
	}
	fclose(f);
}

static void node_distance(struct topology *t, struct node_info *ni)
{
	char path[512], buf[1024], *p, *end;
	long v;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/distance", t->root, ni->id);
	if (read_file_str(path, buf, sizeof(buf)))
		return;
	ni->dist = calloc(256, sizeof(int));
	if (!ni->dist)
		return;
	for (p = buf; *p && ni->nr_dist < 256; p = end) {
		v = strtol(p, &end, 10);
		if (end == p)
			break;
		ni->dist[ni->nr_dist++] = (int)v;
	}
}

/* the nodes in id order; an online CPU no node lists is on the first */
static void nodes_sort(struct topology *t)
{
	int cpu;

	qsort(t->nodes, t->nr_nodes, sizeof(*t->nodes), node_cmp);
	for (cpu = 0; cpu < t->nr; cpu++)
		if (t->online[cpu] && t->node[cpu] < 0)
			t->node[cpu] = t->nodes[0].id;
}

static int topology__nodes(struct topology *t)
{
	char path[512];
	struct dirent *d;
	DIR *dir;
	int id;
	char tail;

	snprintf(path, sizeof(path), "%s/devices/system/node", t->root);
	dir = opendir(path);
	if (dir) {
		while ((d = readdir(dir))) {
			struct node_info *nn;
			struct node_ctx ctx = { t, 0 };

			if (sscanf(d->d_name, "node%d%c", &id, &tail) != 1)
				continue;
			nn = realloc(t->nodes, (t->nr_nodes + 1) * sizeof(*nn));
			if (!nn) {
				closedir(dir);
				return -ENOMEM;
			}
			t->nodes = nn;
			memset(&nn[t->nr_nodes], 0, sizeof(*nn));
			nn[t->nr_nodes].id = id;
			ctx.node = id;
			snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", t->root,
				 id);
			cpulist_read(path, mark_node, &ctx);
			node_meminfo(t, &nn[t->nr_nodes]);
			node_distance(t, &nn[t->nr_nodes]);
			t->nr_nodes++;
		}
		closedir(dir);
	}
	if (!t->nr_nodes) {
		t->nodes = calloc(1, sizeof(*t->nodes));
		if (!t->nodes)
			return -ENOMEM;
		t->nr_nodes = 1;
	}
	nodes_sort(t);
	return 0;
}

struct topology *topology__read(const char *sysfs, struct errbuf *err)
{
	struct topology *t = calloc(1, sizeof(*t));
	char path[512];
	int max = -1, cpu;

	if (!t) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(t->root, sizeof(t->root), "%s", sysfs ? sysfs : "/sys");
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", t->root);
	t->nr = MAX_CPUS;
	t->online = calloc(MAX_CPUS, sizeof(bool));
	if (!t->online) {
		err__set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	if (cpulist_read(path, mark_online, t) < 0) {
		err__set(err, -ENOENT, "cannot read the online cpus from '%s'", path);
		goto out_free;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (t->online[cpu])
			max = cpu;
	t->nr = max + 1;
	t->core = calloc(t->nr, sizeof(int));
	t->llc = calloc(t->nr, sizeof(int));
	t->node = calloc(t->nr, sizeof(int));
	t->pkg = calloc(t->nr, sizeof(int));
	if (!t->core || !t->llc || !t->node || !t->pkg) {
		err__set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	topology__cpus(t);
	if (topology__nodes(t)) {
		err__set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	return t;
out_free:
	topology__delete(t);
	return NULL;
}

struct group_ctx {
	int *group, id, nr;
};

static void mark_group(int cpu, void *arg)
{
	struct group_ctx *g = arg;

	if (cpu < g->nr)
		g->group[cpu] = g->id;
}

/* each CPU of each list in @group (-1 elsewhere), named by its list's lowest CPU */
static void groups_of(struct topology *t, int *group, const char *const *lists, size_t nr)
{
	struct group_ctx g = { group, 0, t->nr };
	size_t i;
	int cpu;

	for (cpu = 0; cpu < t->nr; cpu++)
		group[cpu] = -1;
	for (i = 0; i < nr; i++) {
		g.id = cpulist_parse(lists[i], NULL, NULL);
		if (g.id >= 0)
			cpulist_parse(lists[i], mark_group, &g);
	}
}

static void mark_max(int cpu, void *arg)
{
	int *max = arg;

	if (cpu > *max)
		*max = cpu;
}

struct topology *topology__from_lists(const struct topology_lists *l, struct errbuf *err)
{
	struct topology *t = calloc(1, sizeof(*t));
	int max = -1, cpu;
	size_t k;

	if (!t)
		goto nomem;
	for (k = 0; k < l->nr_cores; k++)
		cpulist_parse(l->cores[k], mark_max, &max);
	if (max < 0) {
		err__set(err, -EINVAL, "the CPU topology lists no CPU");
		goto out_free;
	}
	t->nr = max + 1;
	t->online = calloc(t->nr, sizeof(bool));
	t->core = calloc(t->nr, sizeof(int));
	t->llc = calloc(t->nr, sizeof(int));
	t->node = calloc(t->nr, sizeof(int));
	t->pkg = calloc(t->nr, sizeof(int));
	t->nodes = calloc(l->nr_nodes ?: 1, sizeof(*t->nodes));
	if (!t->online || !t->core || !t->llc || !t->node || !t->pkg || !t->nodes)
		goto nomem;
	groups_of(t, t->core, l->cores, l->nr_cores);
	for (cpu = 0; cpu < t->nr; cpu++)
		t->online[cpu] = t->core[cpu] >= 0;
	groups_of(t, t->pkg, l->pkgs, l->nr_pkgs);
	for (cpu = 0; cpu < t->nr; cpu++) {
		if (t->pkg[cpu] < 0)
			t->pkg[cpu] = 0;
		t->node[cpu] = -1;
	}
	groups_of(t, t->llc, l->llcs, l->nr_llcs);
	t->llc_from_cache = l->nr_llcs > 0;
	t->llc_level = t->llc_from_cache ? l->llc_level : -1;
	llc_by_package(t, false);
	for (k = 0; k < l->nr_nodes; k++) {
		struct group_ctx g = { t->node, l->nodes[k].id, t->nr };

		t->nodes[k].id = l->nodes[k].id;
		t->nodes[k].total_kb = l->nodes[k].total_kb;
		t->nodes[k].free_kb = l->nodes[k].free_kb;
		cpulist_parse(l->nodes[k].cpus, mark_group, &g);
	}
	t->nr_nodes = l->nr_nodes ?: 1;
	nodes_sort(t);
	return t;
nomem:
	err__set(err, -ENOMEM, "out of memory");
out_free:
	topology__delete(t);
	return NULL;
}

void topology__delete(struct topology *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nr_nodes; i++)
		free(t->nodes[i].dist);
	free(t->nodes);
	free(t->online);
	free(t->core);
	free(t->llc);
	free(t->node);
	free(t->pkg);
	free(t);
}

int topology__nr_cpus(const struct topology *t)
{
	return t->nr;
}

bool topology__online(const struct topology *t, int cpu)
{
	return cpu >= 0 && cpu < t->nr && t->online[cpu];
}

#define TOPO_GET(what)                                            \
	int topology__##what(const struct topology *t, int cpu)   \
	{                                                         \
		return topology__online(t, cpu) ? t->what[cpu] : -1; \
	}
TOPO_GET(core)
TOPO_GET(llc)
TOPO_GET(node)

bool topology__llc_from_cache(const struct topology *t)
{
	return t->llc_from_cache;
}

enum migr_class topology__classify(const struct topology *t, int src, int dst)
{
	if (!topology__online(t, src) || !topology__online(t, dst))
		return MIGR_UNKNOWN;
	if (t->node[src] != t->node[dst])
		return MIGR_OTHER_NODE;
	if (t->llc[src] != t->llc[dst])
		return MIGR_OTHER_LLC;
	if (t->core[src] != t->core[dst])
		return MIGR_SAME_LLC;
	return MIGR_SAME_CORE;
}

const char *migr_class__name(enum migr_class c)
{
	static const char *const names[] = { "same-core", "same-llc", "other-llc", "other-node",
					     "unknown" };

	return c < MIGR__NR ? names[c] : "unknown";
}

static void print_cpus(FILE *f, const struct topology *t, const int *group, int id)
{
	int cpu;

	for (cpu = 0; cpu < t->nr; cpu++)
		if (t->online[cpu] && group[cpu] == id)
			fprintf(f, " %d", cpu);
}

char *topology__describe(const struct topology *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, j, cpu;

	if (!f)
		return NULL;
	fprintf(f, "available: %d nodes (%d-%d)\n", t->nr_nodes, t->nodes[0].id,
		t->nodes[t->nr_nodes - 1].id);
	for (i = 0; i < t->nr_nodes; i++) {
		fprintf(f, "node %d cpus:", t->nodes[i].id);
		print_cpus(f, t, t->node, t->nodes[i].id);
		fprintf(f, "\nnode %d size: %llu MB\nnode %d free: %llu MB\n", t->nodes[i].id,
			(unsigned long long)t->nodes[i].total_kb / 1024, t->nodes[i].id,
			(unsigned long long)t->nodes[i].free_kb / 1024);
	}
	fprintf(f, "node distances:\nnode ");
	for (i = 0; i < t->nr_nodes; i++)
		fprintf(f, "%4d", t->nodes[i].id);
	fprintf(f, "\n");
	for (i = 0; i < t->nr_nodes; i++) {
		fprintf(f, "%4d:", t->nodes[i].id);
		for (j = 0; j < t->nr_nodes; j++)
			if (t->nodes[i].nr_dist > t->nodes[j].id)
				fprintf(f, "%4d", t->nodes[i].dist[t->nodes[j].id]);
			else
				fprintf(f, "%4s", "-");
		fprintf(f, "\n");
	}
	if (t->llc_from_cache)
		fprintf(f, "llc groups (L%d):\n", t->llc_level);
	else
		fprintf(f, "llc groups (no cache information: one per package):\n");
	for (cpu = 0; cpu < t->nr; cpu++) {
		if (!t->online[cpu] || t->llc[cpu] != cpu)
			continue;
		fprintf(f, "llc %d node %d cpus:", cpu, t->node[cpu]);
		print_cpus(f, t, t->llc, cpu);
		fprintf(f, "\n");
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

json_t *topology__json(const struct topology *t)
{
	json_t *o = json_object(), *cpus = json_array(), *nodes = json_array();
	int cpu, i;

	if (!o || !cpus || !nodes) {
		json_decref(o);
		json_decref(cpus);
		json_decref(nodes);
		return NULL;
	}
	for (cpu = 0; cpu < t->nr; cpu++)
		if (t->online[cpu])
			json_array_append_new(cpus, json_pack("{s:i,s:i,s:i,s:i}", "cpu", cpu, "core",
							      t->core[cpu], "llc", t->llc[cpu],
							      "node", t->node[cpu]));
	for (i = 0; i < t->nr_nodes; i++)
		json_array_append_new(nodes, json_pack("{s:i,s:I,s:I}", "node", t->nodes[i].id,
						       "total_kb", (json_int_t)t->nodes[i].total_kb,
						       "free_kb", (json_int_t)t->nodes[i].free_kb));
	json_object_set_new(o, "cpus", cpus);
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "llc_from_cache", json_boolean(t->llc_from_cache));
	if (t->llc_from_cache)
		json_object_set_new(o, "llc_level", json_integer(t->llc_level));
	return o;
}
