/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suites: which workloads `schedlens run` runs, over which parameter ranges, how often, with
 * which counters, and which direction is better per metric. A suite is a JSON file in
 * data/suites/<name>.json (format in data/suites/README.md):
 *
 * { "suite": "quick", "description": "...", "iterations": 10,
 *   "events": ["context-switches", "cpu-migrations"],     perf event names (events.h)
 *   "tracepoints": ["sched:sched_wakeup"],                 counted like events
 *   "better": { "cpu-migrations": "lower" },               directions of events/metrics
 *   "vmstat": ["pgfault", "numa_hit"],                     /proc/vmstat deltas (optional)
 *   "gate": ["time", "requests_per_s"],                    what `gate` judges by default
 *   "entries": [ { "workload": "messaging", "group": "hackbench-process-pipes",
 *                  "args": ["-p", "-l", "100"],
 *                  "range": { "param": "groups", "option": "-g", "values": [1, 2, "ncpu"] },
 *                  "events": [...], "better": {...}, "iterations": 5 } ] }
 *
 * Range values are positive integers or "ncpu", "K*ncpu" (online CPUs of this machine).
 */
#ifndef SCHEDLENS_SUITE_H
#define SCHEDLENS_SUITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "schedlens/results.h"
#include "schedlens/util.h"

struct suite_better {
	char name[128];
	enum better better;
};

struct suite_entry {
	char workload[64];
	char group[128];
	char **args;			/* the workload's options, without its name */
	size_t nargs;
	char param[64];			/* the range: its name ("groups") and option ("-g") */
	char option[64];
	long *values;			/* resolved; one run of the entry without a range */
	size_t nvalues;
	char **events;			/* the suite's events and tracepoints, then the entry's */
	size_t nevents;
	struct suite_better *better;	/* the entry's directions, then the suite's */
	size_t nbetter;
	char **gate;			/* metrics the gate judges (the suite's and the entry's) */
	size_t ngate;
	unsigned int iterations;
};

struct suite {
	char name[64];
	char description[512];
	char **vmstat;
	size_t nvmstat;
	struct suite_entry *entries;
	size_t nentries;
};

/*
 * Load suite @name: a path when it contains '/' or ends in ".json", else
 * <datadir>/suites/@name.json ($SCHEDLENS_DATADIR overrides the data folder). Range values
 * "ncpu" resolve to @ncpu. NULL with @err set ("'x.json': entries[2]: ...").
 */
struct suite *suite__load(const char *name, long ncpu, struct errbuf *err);
/* The same from a parsed document; @origin names it in messages. */
struct suite *suite__parse(const json_t *j, const char *origin, long ncpu, struct errbuf *err);
void suite__delete(struct suite *s);

/* "12", "ncpu", "4*ncpu" -> value. 0 or -EINVAL. */
int suite__value(const char *tok, long ncpu, long *out);
/* The direction @e declares for @metric, or @dflt. */
enum better suite_entry__better(const struct suite_entry *e, const char *metric, enum better dflt);
/* Whether @metric is one of @e's gate metrics. */
bool suite_entry__gated(const struct suite_entry *e, const char *metric);
/* Total iterations of the suite (every entry, every range value). */
size_t suite__total_iterations(const struct suite *s);

#endif
