// SPDX-License-Identifier: GPL-2.0
/* perf.data reader: the recording machine's CPU topology from the header's features. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/perfdata.h"
#include "schedlens/topology.h"

struct topology *perf_file__topology(const struct perf_file *f, struct errbuf *err)
{
	const struct perf_file_header *h = perf_file__header(f);
	struct topology_lists l = { (const char *const *)h->sibling_threads, NULL,
				    (const char *const *)h->sibling_sockets, h->nr_sibling_threads,
				    0, h->nr_sibling_sockets, -1, NULL, 0 };
	struct topology_node *nodes = NULL;
	const char **llcs = NULL;
	struct topology *t;
	size_t i;

	if (!(h->features[0] >> PERF_FEAT_CPU_TOPOLOGY & 1) || !h->nr_sibling_threads) {
		err__set(err, -ENOENT, "'%s' has no CPU topology (CPU_TOPOLOGY feature)",
			 perf_file__info(f)->path);
		return NULL;
	}
	/* the LLCs: the highest-level unified caches */
	for (i = 0; i < h->nr_caches; i++)
		if (!strcmp(h->caches[i].type, "Unified") && (int)h->caches[i].level > l.llc_level)
			l.llc_level = (int)h->caches[i].level;
	llcs = calloc(h->nr_caches ?: 1, sizeof(*llcs));
	nodes = calloc(h->nr_numa ?: 1, sizeof(*nodes));
	if (!llcs || !nodes) {
		t = NULL;
		err__set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < h->nr_caches; i++)
		if (!strcmp(h->caches[i].type, "Unified") && (int)h->caches[i].level == l.llc_level)
			llcs[l.nr_llcs++] = h->caches[i].map;
	for (i = 0; i < h->nr_numa; i++)
		nodes[i] = (struct topology_node){ (int)h->numa[i].node, h->numa[i].mem_total,
						   h->numa[i].mem_free, h->numa[i].cpus };
	l.llcs = llcs;
	l.nodes = nodes;
	l.nr_nodes = h->nr_numa;
	t = topology__from_lists(&l, err);
out:
	free(llcs);
	free(nodes);
	return t;
}
