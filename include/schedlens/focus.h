/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Focus lists: a named set of functions (data/focus/NAME.list, or any file of that shape: one
 * name a line, '#' comments) and, for each, the share of samples taken in it (self) and the
 * share whose callchain passes through it (through: counted once per sample however often the
 * function appears in the chain, e.g. under recursion).
 */
#ifndef SCHEDLENS_FOCUS_H
#define SCHEDLENS_FOCUS_H

#include <stddef.h>
#include <stdint.h>

#include "schedlens/util.h"

struct focus;

struct focus_row {
	const char *name;
	uint64_t self_samples, self_period;
	uint64_t through_samples, through_period;
};

/*
 * Load @what: a path (contains '/' or ends in ".list") or the name of a list under @datadir/focus
 * ("sched"). NULL with the reason in @err (-ENOENT unknown list, -EINVAL empty list).
 */
struct focus *focus__load(const char *what, const char *datadir, struct errbuf *err);
void focus__delete(struct focus *f);

/* index of @sym in the list, or -1; a clone suffix (".isra.0", ".constprop.0") is ignored */
int focus__find(const struct focus *f, const char *sym);

/*
 * Count one sample whose frames are @syms[0] (where it was taken) .. @syms[nr - 1] (outermost);
 * the first @nself are where it was taken (the functions inlined there, then the one they are
 * in: each is self); NULL entries are unresolved frames. Returns 0 or -ENOMEM.
 */
int focus__add(struct focus *f, const char *const *syms, size_t nr, size_t nself,
	       uint64_t period);

/*
 * Count one sample taken in listed function @idx (focus__find()) at source line @line
 * ("core.c:4190", copied; in code inlined into it, the inlined function's line, as
 * annotate shows them). 0 or -ENOMEM.
 */
int focus__add_line(struct focus *f, int idx, const char *line, uint64_t period);

struct focus_line {
	char *line;
	uint64_t samples, period;
};

/* the source lines counted for function @idx, hottest (by period) first */
size_t focus__lines(struct focus *f, int idx, const struct focus_line **lines);

/* rows in list order; @any gets the union: self in any listed function, through any of them */
size_t focus__rows(const struct focus *f, const struct focus_row **rows);
void focus__totals(const struct focus *f, struct focus_row *any, uint64_t *nr_samples,
		   uint64_t *period);

#endif
