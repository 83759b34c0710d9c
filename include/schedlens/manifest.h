/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The manifest of a kernel-patches/ series: what the patches are, what they apply to, which
 * suite validates them, the metrics expected to improve or that must not regress, and the
 * functions to focus attribution on. Format: kernel-patches/README.md ("key = value" lines).
 */
#ifndef SCHEDLENS_MANIFEST_H
#define SCHEDLENS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "schedlens/results.h"
#include "schedlens/util.h"

/* One "improve" or "guard" line. */
struct manifest_metric {
	char *glob;	/* fnmatch pattern over results entry ids */
	char *metric;	/* metric name inside those entries */
	double pct;	/* improve: expected gain; guard: tolerated loss; percent, NAN for "?" */
	enum better better;	/* optional 4th word: for metrics the documents leave "none" */
	bool guard;
	int line;	/* in the manifest, for messages */
};

/*
 * One "mechanism" line: what the series changes mechanically, as a share of wakeup paths in
 * `schedlens sched` documents (each iteration's "sched" tables): of the wakeups in @scope, the
 * share whose path matches @paths is expected to move by @points percentage points.
 */
struct manifest_mechanism {
	char *glob;	/* fnmatch pattern over the sched documents' entry ids */
	char *scope;	/* "all" (wakeup_paths) or "idle-llc" (wakeup_paths_idle_llc) */
	char *paths;	/* fnmatch pattern over path names: "wakelist-*" */
	double points;	/* signed: +50 expects the share to rise by at least 50 points */
	int line;
};

/* Read-only for callers; every string is owned by the manifest. */
struct manifest {
	char *path;	/* the manifest file */
	char *dir;	/* the series folder */
	char *name, *summary, *source, *suite, *base, *revert, *kernel;
	char *lab;	/* what the kernel lab (an emulated CPU) can show of the series, or NULL */
	bool in_61;
	size_t nr_patches;	/* subjects, commits and patches all have this many */
	char **subjects, **commits, **patches;
	size_t nr_metrics;
	struct manifest_metric *metrics;
	size_t nr_focus;
	char **focus;
	size_t nr_mechanisms;
	struct manifest_mechanism *mechanisms;
};

/*
 * Read @path: a manifest file, or a series folder holding one named "manifest". Checks the
 * format and the consistency rules of kernel-patches/README.md (known keys, single keys once,
 * one subject and commit per patch, base agreeing with revert and in-6.1, metric lines
 * "GLOB METRIC PCT% [lower|higher]", mechanism lines "GLOB all|idle-llc PATHS +Npt"). New manifest, or NULL with "'PATH' line N: ..." in @err (errno in
 * *@errp when @errp is not NULL: -ENOENT, -EINVAL, -ENOMEM).
 */
struct manifest *manifest__read(const char *path, int *errp, struct errbuf *err);
void manifest__delete(struct manifest *m);

/* The short form of commit @i: the first 12 hex digits, or the word ("none", "unknown"). */
const char *manifest__short_commit(const struct manifest *m, size_t i, char *buf, size_t len);

#endif
