/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology from sysfs, or from a perf.data file's header: each CPU's core (SMT siblings), last-level cache (the highest-level
 * Unified cache in cpuN/cache/index*), package and NUMA node (/sys/devices/system/node), and
 * the class of a task migration from one CPU to another.
 */
#ifndef SCHEDLENS_TOPOLOGY_H
#define SCHEDLENS_TOPOLOGY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "schedlens/util.h"

struct topology;

enum migr_class {
	MIGR_SAME_CORE,		/* an SMT sibling */
	MIGR_SAME_LLC,		/* another core that shares the last-level cache */
	MIGR_OTHER_LLC,		/* another LLC in the same NUMA node */
	MIGR_OTHER_NODE,	/* another NUMA node */
	MIGR_UNKNOWN,		/* a CPU the topology does not know */
	MIGR__NR,
};

/*
 * Read the topology under @sysfs (NULL: "/sys"; tests pass a fake tree). NULL with @err set
 * when the online CPUs cannot be read.
 */
struct topology *topology__read(const char *sysfs, struct errbuf *err);
/*
 * A recorded machine's topology from cpu lists ("0-3,8"), as perf.data's CPU_TOPOLOGY, CACHE
 * and NUMA_TOPOLOGY features keep them: @cores the SMT sibling groups (together, the CPUs
 * online), @llcs the groups that share the last-level cache (none: one per package), @pkgs the
 * packages, @nodes the NUMA nodes (none: node 0). No node distances. NULL with @err set when
 * the lists name no CPU.
 */
struct topology_node {
	int id;
	uint64_t total_kb, free_kb;
	const char *cpus;
};

struct topology_lists {
	const char *const *cores, *const *llcs, *const *pkgs;
	size_t nr_cores, nr_llcs, nr_pkgs;
	int llc_level;			/* the cache level of @llcs */
	const struct topology_node *nodes;
	size_t nr_nodes;
};

struct topology *topology__from_lists(const struct topology_lists *l, struct errbuf *err);
void topology__delete(struct topology *t);

/* One past the highest online CPU. */
int topology__nr_cpus(const struct topology *t);
bool topology__online(const struct topology *t, int cpu);
/* Ids (the lowest CPU of the group for core and llc); -1 for an unknown CPU. */
int topology__core(const struct topology *t, int cpu);
int topology__llc(const struct topology *t, int cpu);
int topology__node(const struct topology *t, int cpu);
/* false when sysfs has no cache information and LLCs were taken to be the packages */
bool topology__llc_from_cache(const struct topology *t);

/* The class of a migration from @src to @dst (@src != @dst). */
enum migr_class topology__classify(const struct topology *t, int src, int dst);
/* "same-core", "same-llc", "other-llc", "other-node", "unknown" */
const char *migr_class__name(enum migr_class c);

/*
 * The topology as text, like `numactl --hardware` (nodes, cpus, sizes, distances) followed by
 * the LLC groups. Newly allocated; NULL on ENOMEM.
 */
char *topology__describe(const struct topology *t);
/* { "cpus": [ {"cpu", "core", "llc", "node"} ... ], "nodes": [...], "llc_from_cache": b } */
json_t *topology__json(const struct topology *t);

#endif
