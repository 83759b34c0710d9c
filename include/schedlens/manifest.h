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

/* Read-only for callers; every string is owned by the manifest. */
struct manifest {
	char *path;	/* the manifest file */
	char *dir;	/* the series folder */
	char *name, *summary, *source, *suite, *base, *revert, *kernel;
	bool in_61;
	size_t nr_patches;	/* subjects, commits and patches all have this many */
	char **subjects, **commits, **patches;
	size_t nr_metrics;
	struct manifest_metric *metrics;
	size_t nr_focus;
	char **focus;
};

/*
 * Read @path: a manifest file, or a series folder holding one named "manifest". Checks the
 * format and the consistency rules of kernel-patches/README.md (known keys, single keys once,
 * one subject and commit per patch, base agreeing with revert and in-6.1, metric lines
 * "GLOB METRIC PCT% [lower|higher]"). New manifest, or NULL with "'PATH' line N: ..." in @err (errno in
 * *@errp when @errp is not NULL: -ENOENT, -EINVAL, -ENOMEM).
 */
struct manifest *manifest__read(const char *path, int *errp, struct errbuf *err);
void manifest__delete(struct manifest *m);

/* The short form of commit @i: the first 12 hex digits, or the word ("none", "unknown"). */
const char *manifest__short_commit(const struct manifest *m, size_t i, char *buf, size_t len);

#endif
