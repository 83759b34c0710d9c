/* SPDX-License-Identifier: GPL-2.0 */
/* annotate's table: one function's samples by source line (or address), from symbols.h's loci. */
#ifndef SCHEDLENS_SYMLINES_H
#define SCHEDLENS_SYMLINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/symbols.h"

/*
 * Per-line attribution of one function's samples, for annotate: hits are added per
 * (srcfile, line) or, where lines are not known, per address; sym_lines__sort() orders them
 * by weight, hottest first.
 */
struct sym_line {
	const char *srcfile;	/* NULL: by address */
	unsigned int line;
	uint64_t addr;		/* lowest address seen for the line; the key without lines */
	uint64_t nr_samples, period;
	const char *inl;	/* the inlined function the line belongs to, or NULL */
	struct sym_dso *dso;	/* where the line's first sample was */
};

struct sym_lines {
	struct sym_line *v;
	size_t nr, alloc;
	uint64_t nr_samples, period;	/* the function's totals */
};

int sym_lines__add(struct sym_lines *l, const struct sym_loc *loc, uint64_t period);
/*
 * The source text of line @e into @buf, from its file as recorded (as
 * symbols__source_line()) or, with @dir, under @dir: the path relative to the compilation
 * directory (DW_AT_comp_dir of @e's unit), then with leading components cut until a file
 * exists. *@path: the file read, NULL when none was found. 0, -ENOENT (no file), -ERANGE (no
 * such line in it), -ENOMEM. One @dir per session: files are looked for once.
 */
int sym_line__source(struct symbols *s, const char *dir, const struct sym_line *e, char *buf,
		     size_t len, const char **path);
/* by period (by sample count when @by_samples), hottest first; ties by file, line, addr */
void sym_lines__sort(struct sym_lines *l, bool by_samples);
void sym_lines__exit(struct sym_lines *l);

#endif
