/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event names as perf users write them, turned into perf_event_attr:
 *   generic hardware   cycles, instructions, cache-references, cache-misses, branches, ...
 *   hardware cache     L1-dcache-loads, L1-dcache-load-misses, LLC-loads, dTLB-load-misses, ...
 *   software           task-clock, cpu-clock, context-switches, cpu-migrations, page-faults, ...
 *   tracepoints        sched:sched_switch (id from tracefs)
 *   raw                rNNNN (hex)
 *   native             L1D:REPLACEMENT, snb::L1D:REPLACEMENT (libpfm4, this machine's PMU or
 *                      the one LIBPFM_FORCE_PMU names, read once per process)
 * with the modifiers :u :k :h (and :p/:pp/:ppp precise) after perf names.
 *
 * Per-microarchitecture maps (data/events/<arch>.map) name, for the abstract metrics cycles,
 * instructions, l1d-loads, l1d-misses, llc-loads, llc-misses, the native event and encoding.
 */
#ifndef SCHEDLENS_EVENTS_H
#define SCHEDLENS_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/util.h"

#define EVENT_NAME_MAX 128

struct event_desc {
	char name[EVENT_NAME_MAX];	/* as the user wrote it */
	struct perf_event_attr attr;
};

/*
 * Parse one event into @ev (zeroed first; attr.size set, read_format asks for enabled and
 * running times). 0, -ENOENT for an unknown name (message says where names come from),
 * -EINVAL for a malformed one.
 */
int events__parse(const char *name, struct event_desc *ev, struct errbuf *err);
/* Parse a comma-separated list; *out is malloc'd (free() it). 0 or -errno with detail. */
int events__parse_list(const char *list, struct event_desc **out, size_t *n, struct errbuf *err);

/*
 * The i-th name this parser knows without tracefs or libpfm4 (generic hardware, software,
 * then every hardware-cache combination), or NULL past the end.
 */
const char *events__known_name(size_t i, char *buf, size_t len);

/* Try to open @attr on this process for counting: 0, or -errno (-ENOENT/-EOPNOTSUPP: absent). */
int events__probe(const struct perf_event_attr *attr);
/*
 * Advice for a failed perf_event_open of @name with -@errnum: which event, why, and what to
 * do (EACCES -> kernel.perf_event_paranoid and CAP_PERFMON; ENOENT/EOPNOTSUPP -> this
 * machine has no such counter; ...). Into @buf.
 */
void events__open_advice(const char *name, int errnum, char *buf, size_t len);
/* True when the event counts on the hardware PMU (generic, cache, raw or native). */
bool events__is_hardware(const struct perf_event_attr *attr);

/* One line of a per-microarchitecture map. */
struct evmap_entry {
	char metric[32];	/* cycles, instructions, l1d-loads, l1d-misses, llc-loads, llc-misses */
	char native[96];	/* the native event name ("-" when the core PMU has none) */
	uint64_t config;	/* its encoding (raw config) */
	bool has_config;
	char note[160];
};

struct evmap {
	char arch[32];		/* snb, clx, icx, zen2, neoverse-n1, kunpeng920 */
	char pmu[48];		/* libpfm4 PMU name, or "armv8" where libpfm4 has no table */
	char libpfm[48];	/* with "armv8": the core's table in libpfm4's arm64 build
				 * ("arm_n1"), which x86 builds lack; "" none */
	char desc[160];
	bool pfm;		/* encodings can be checked with libpfm4 */
	struct evmap_entry entries[16];
	size_t nr;
};

/* Whether this libpfm4 was built with the PMU table @name (initialises libpfm4). */
bool evmap__pfm_has(const char *name);

/* Load data/events/@arch.map ($SCHEDLENS_DATADIR overrides the data folder). 0 or -errno. */
int evmap__load(const char *arch, struct evmap *m, struct errbuf *err);
/* The names of every map in data/events, NULL-terminated static list. */
extern const char *const evmap_arches[];
/* Entry for @metric or NULL. */
const struct evmap_entry *evmap__find(const struct evmap *m, const char *metric);
/*
 * Encode @native with libpfm4 for the PMU of this process (set LIBPFM_FORCE_PMU before the
 * first call to encode another model's events; libpfm4 reads it once per process).
 */
int events__pfm_encode(const char *native, struct perf_event_attr *attr, struct errbuf *err);
/* The map of this machine's core PMU as libpfm4 detects it, or -ENOENT (a VM without PMU). */
int evmap__this_machine(struct evmap *m, struct errbuf *err);
/*
 * The L1D miss event to sample by default: this machine's map entry, else the generic
 * L1-dcache-load-misses, whichever opens. 0, or -EOPNOTSUPP when neither does (no PMU).
 */
int events__default_l1d_miss(struct event_desc *ev, struct errbuf *err);

#endif
