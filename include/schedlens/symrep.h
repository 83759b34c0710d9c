/* SPDX-License-Identifier: GPL-2.0 */
/* The symbol half of report: rows by label, call paths, folded stacks, focus shares. */
#ifndef SCHEDLENS_SYMREP_H
#define SCHEDLENS_SYMREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/stream.h"
#include "schedlens/symbols.h"
#include "schedlens/symstacks.h"

struct focus;

/*
 * The symbol half of `schedlens report`: per sample, the frames (through the callchain when
 * asked), the skid rule, and what the printing needs: rows by label (source lines,
 * --children, -g), call paths, collapsed stacks and a focus list's shares.
 * A label is the row's keys rendered as perf shows them, SYMREP_SEP between keys (a symbol's
 * followed by SYMREP_ID and what tells equal names apart, as perf's rows are by symbol: its
 * DSO and address; symrep__split() leaves it out); a call path is a label and frame names,
 * outermost first for SYMREP_GRAPH_CALLER, innermost first for SYMREP_GRAPH_CALLEE.
 */
enum symrep_key { SYMREP_COMM, SYMREP_DSO, SYMREP_SYM, SYMREP_PID, SYMREP_CPU, SYMREP_SRCLINE };
enum symrep_graph { SYMREP_GRAPH_NONE, SYMREP_GRAPH_CALLER, SYMREP_GRAPH_CALLEE };
/*
 * Which frames of a callchain (--children, -g, --folded) are also their inlined functions
 * ("update_curr (inlined)", innermost first, then the function itself unless DWARF names it
 * otherwise, as perf's append_inlines()): those of a DWARF unwinding, as perf (the default),
 * every frame with DWARF lines (the kernel's with a vmlinux too), or none. --focus always
 * counts inlined functions.
 */
enum symrep_inline { SYMREP_INLINE_UNWOUND, SYMREP_INLINE_ALL, SYMREP_INLINE_NONE };

#define SYMREP_SEP '\x1f'
#define SYMREP_ID '\x1c'
#define SYMREP_MAX_KEYS 8

struct symrep_config {
	enum symrep_key keys[SYMREP_MAX_KEYS];
	size_t nr_keys;
	bool labels;		/* rows by label (needed for srcline, children, graph) */
	bool children, folded, skid_caller;
	enum symrep_graph graph;
	int inlines;		/* enum symrep_inline (an OPTION_SET value) */
	struct focus *focus;	/* the caller's; NULL: none */
	size_t nr_events;
	/* rows by label of the samples whose frame @self this says yes to (report's --dsos,
	 * --symbols): asked once a sample, or once a place for @nr samples of event @idx and
	 * @period in all where rows are counted by place; NULL: all */
	bool (*wants)(void *ctx, const struct sym_loc *self, size_t idx, uint64_t nr,
		      uint64_t period);
	void *wants_ctx;
};

struct symrep;

/* @syms stays the caller's. NULL on ENOMEM. */
struct symrep *symrep__new(struct symbols *syms, const struct symrep_config *cfg);
void symrep__delete(struct symrep *r);
/*
 * Account @s of event @idx whose thread is @comm. *@self: the frame the sample is attributed
 * to (the caller frame when the skid rule moved it; valid until the next call), or NULL when
 * rows by label need no callchain: samples are then counted by where they landed and looked
 * up once per place by symrep__finish(). 0 or -ENOMEM.
 */
int symrep__sample(struct symrep *r, const struct stream_sample *s, size_t idx,
		   const char *comm, const struct sym_loc **self);
/*
 * Whether what symrep__sample() does with a sample depends only on where it landed (no
 * callchains, no rows by label): then a sample at the place of an earlier one, with nothing
 * mapped or exec'd between, may be counted with symrep__repeat(@sym: the earlier *self's).
 */
bool symrep__per_place(const struct symrep *r);
void symrep__repeat(struct symrep *r, const struct stream_sample *s, const char *sym);
/* symrep__repeat() for @nr samples at once: @period in all, @with_caller of them with a
 * callchain past the sample's own frames (nr_callchain > 2) */
void symrep__repeat_n(struct symrep *r, const char *sym, uint64_t nr, uint64_t period,
		      uint64_t with_caller);
/* After the last sample, before rows and skid figures are read. 0 or -ENOMEM. */
int symrep__finish(struct symrep *r);
/* rows of event @idx: self (@children false) or children; NULL without labels */
struct sym_stacks *symrep__rows(struct symrep *r, size_t idx, bool children);
/* a call path of -g: its row's label (as symrep__rows() keys it) and its counts */
struct symrep_path {
	const char *label;
	uint64_t nr_samples, period;
	uint32_t node;		/* (its names: symrep__path_frames()) */
};

struct symrep_name {
	const char *s;
	size_t len;		/* of the name printed */
	size_t key_len;		/* of the name and what tells equal names apart (perf's
				 * match_chain(): DSO and symbol start, or ip), from @s */
};

/* the call paths of event @idx (-g), *@nr of them, once finished; NULL without */
const struct symrep_path *symrep__paths(const struct symrep *r, size_t idx, size_t *nr);
/*
 * The frame names of path @p of event @idx into @v (@max at most): the outermost first with
 * SYMREP_GRAPH_CALLER, the innermost first with SYMREP_GRAPH_CALLEE; how many
 */
size_t symrep__path_frames(const struct symrep *r, size_t idx, const struct symrep_path *p,
			   struct symrep_name *v, size_t max);
struct sym_stacks *symrep__folded(struct symrep *r);
/*
 * Samples and period that landed on interrupt-enable instructions, the first such symbol,
 * and how many of those samples had a caller frame to move to.
 */
void symrep__skid(const struct symrep *r, uint64_t *samples, uint64_t *period,
		  uint64_t *total_period, const char **sym, uint64_t *with_caller);
/* the DSO of frame @f as rows name it: its short name, "[kernel.kallsyms]", "[unknown]" */
const char *symrep__dso(const struct sym_loc *f);
/* Split a label in place into @f (up to @max keys, as printed); returns how many. */
size_t symrep__split(char *label, char **f, size_t max);

#endif
