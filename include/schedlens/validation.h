/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validation of a kernel-patches/ series: a manifest's "improve" and "guard" lines judged on
 * two results documents (BASE = the kernel without the series, NEW = with it).
 *
 * Each line is matched against the entries of BASE whose id fits its glob and that NEW also
 * has, giving one row per entry. A metric "A/B" that a document lacks is computed per iteration
 * from its metrics A and B (a miss ratio from two counters). The direction is the one the
 * documents declare, else the line's own (counters are declared "none"). A row is tested when
 * both sides hold at least two values: compare.h's Mann-Whitney U (as gate), Holm-adjusted
 * over every tested row of the run. It
 * then counts as improved (regressed) when significant and its gain is at least the minimum
 * effect (at least the guard's tolerance). A row with a single value on a side is judged by
 * its effect alone and marked untested. Gains follow compare.h's sign: positive is better, in
 * the direction the results document declares for the metric.
 *
 * A line regressed when any of its rows regressed, improved when some row improved and none
 * regressed, else it is neutral; absent when no entry has its metric on both sides. The
 * verdict: regression when any line regressed; validated when an improve line improved;
 * no effect otherwise; unusable when no line found anything to compare.
 */
#ifndef SCHEDLENS_VALIDATION_H
#define SCHEDLENS_VALIDATION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "schedlens/manifest.h"
#include "schedlens/util.h"

enum vstatus { VSTATUS_ABSENT, VSTATUS_NEUTRAL, VSTATUS_IMPROVED, VSTATUS_REGRESSED };

/*
 * INCONCLUSIVE: some entries have a single value a side, which no test can judge, and no
 * tested entry regressed; by_effect then says what the effects alone point to.
 */
enum verdict { VERDICT_VALIDATED, VERDICT_NO_EFFECT, VERDICT_REGRESSION, VERDICT_UNUSABLE,
	       VERDICT_INCONCLUSIVE };

struct validation_opts {
	double alpha;		/* family-wise significance level, default 0.05 */
	double min_effect;	/* percent, default 3 */
};

/* One entry judged for one manifest line. */
struct validation_row {
	size_t line;		/* index into manifest->metrics */
	const char *entry;	/* entry id, borrowed from BASE */
	const char *unit;	/* borrowed from BASE */
	size_t n_base, n_new;
	double base, new;	/* medians (the value itself for a single one) */
	double gain_pct;	/* of the medians, compare.h's sign: positive = better */
	double p;		/* Mann-Whitney U p-value; NAN when untested */
	double p_adj;		/* Holm-adjusted over every tested row; NAN when untested */
	bool tested, significant;
	enum vstatus status;
};

/* One manifest line, summed over its rows. */
struct validation_line {
	size_t first, nr_rows;	/* its rows: rows[first .. first + nr_rows) */
	size_t improved, neutral, regressed, untested;
	size_t no_direction;	/* entries skipped: the metric has no better direction */
	double median_gain;	/* over its rows; NAN when none */
	enum vstatus status;
};

/*
 * Mechanism lines (manifest "mechanism"): judged on `schedlens sched` documents, whose
 * iterations hold the wakeup-path tables ("sched": "wakeup_paths", "wakeup_paths_idle_llc").
 * Per iteration, the share of the scope's wakeups whose path matches the line's glob, in
 * percent; iterations with fewer than VALIDATION_MECH_MIN_WAKEUPS in scope are left out. The
 * mechanism is seen in an entry when both sides have at least two iterations, the medians moved
 * in the expected direction by at least the line's points, every NEW iteration lies beyond
 * every BASE one, and the move is more than VALIDATION_MECH_SPREADS times the run-to-run spread
 * (the larger range of the two sides' iterations); not seen otherwise; unjudged with fewer
 * than two iterations a side.
 */
#define VALIDATION_MECH_MIN_WAKEUPS 200
#define VALIDATION_MECH_SPREADS 3.0

enum mstatus { MSTATUS_ABSENT, MSTATUS_UNJUDGED, MSTATUS_SEEN, MSTATUS_NOT_SEEN };

struct validation_mech {
	size_t line;		/* index into manifest->mechanisms */
	const char *entry;	/* entry id, borrowed from BASE */
	size_t n_base, n_new;	/* iterations judged */
	size_t few_base, few_new;	/* iterations left out: too few wakeups in scope */
	double base, new;	/* median shares, percent */
	double base_min, base_max, new_min, new_max;
	double wakeups_base, wakeups_new;	/* in scope, summed over the iterations judged */
	double change;		/* new - base, percentage points */
	double spread;		/* the larger of the two ranges, points */
	enum mstatus status;
};

struct validation {
	size_t nr_mechs;
	struct validation_mech *mechs;
	enum mstatus mechanism;		/* NOT_SEEN if an entry's is, else UNJUDGED if one is,
					 * else SEEN; ABSENT: no line, or no sched document */
	size_t nr_rows;
	struct validation_row *rows;
	size_t nr_lines;		/* == manifest->nr_metrics */
	struct validation_line *lines;
	size_t nr_tests;		/* tested rows, over which p-values are adjusted */
	size_t missing_in_new;		/* matching BASE entries that NEW lacks */
	const char *test;		/* the test's name, for the report */
	enum verdict verdict;
	enum verdict by_effect;		/* the verdict the effects alone give, tested or not */
};

void validation_opts__init(struct validation_opts *o);

/*
 * Judge @m on @base and @new (results documents as results__read() returns them). The
 * documents must outlive the result. 0 and a new validation in *@out (verdict possibly
 * VERDICT_UNUSABLE), or -ENOMEM.
 */
int validation__run(const struct manifest *m, const json_t *base, const json_t *new,
		    const struct validation_opts *o, struct validation **out, struct errbuf *err);
void validation__delete(struct validation *v);

/*
 * Judge @m's mechanism lines on @base and @new (sched documents; they may be the documents
 * validation__run() was given), filling @v's mechs and mechanism. 0 or -ENOMEM.
 */
int validation__mechanisms(struct validation *v, const struct manifest *m, const json_t *base,
			   const json_t *new, struct errbuf *err);

/*
 * Whether @doc was measured on an emulated CPU, from its machine description: a kernel command
 * line holding "schedlens.accel=tcg" (what `schedlens vm` boots TCG guests with) or a CPU
 * model naming QEMU's TCG. Its timings then say nothing of real hardware. @why gets the
 * evidence.
 */
bool validation__emulated(const json_t *doc, char *why, size_t len);

const char *mstatus__name(enum mstatus s);	/* "absent", "unjudged", "seen", "not seen" */

const char *vstatus__name(enum vstatus s);	/* "absent", "neutral", "improved", ... */
const char *verdict__name(enum verdict v);	/* "validated", "no effect", ... */

#endif
