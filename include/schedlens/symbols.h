/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbolization of sample and callchain addresses: the address spaces of the recorded
 * processes (built from MMAP/MMAP2, FORK and COMM-exec records of a struct stream_ops source),
 * user DSOs through libdwfl (ELF symbols, .debug_line, separate debug files found by build-id
 * or debuglink under SYMFS/usr/lib/debug, inline frames), the kernel through a kallsyms text
 * and, with a debug vmlinux, through libdw as well.
 *
 * Every lookup is cached per DSO and per address, so asking for source lines costs little more
 * than asking for symbols. Strings handed out (DSO names, symbol names, source files) stay
 * valid until symbols__delete(); symbol names, source files and inline names are interned
 * (equal strings are equal pointers).
 *
 * A DSO whose recorded file is not here (gone, rebuilt since, or recorded elsewhere) is
 * looked for by its build-id in perf's build-id cache too ($PERF_BUILDID_DIR, else ~/.debug:
 * what perf record keeps of every DSO a recording hit), and [vdso] in the recording's
 * FILE.vdso, that cache, or this process's own vDSO when recorded on this boot.
 *
 * With a cache directory, the lookups also persist: one file per DSO under
 * CACHE_DIR/srcline/, named by the build-id of the file read (the kernel: by the kallsyms
 * file), so that the next session on the same binaries answers without their symbol tables
 * and DWARF. symbols__cache_save() writes what is new; a cache file that does not check out
 * is ignored and rewritten.
 */
#ifndef SCHEDLENS_SYMBOLS_H
#define SCHEDLENS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/stream.h"
#include "schedlens/util.h"

struct symbols;
struct sym_dso;
struct threads;

struct symbols_config {
	const char *symfs;	/* prefix for every user path and debug directory, as perf --symfs */
	const char *kallsyms;	/* kallsyms text for kernel addresses (NULL: kernel unresolved) */
	const char *vmlinux;	/* ELF vmlinux: kernel symbols, and lines with its DWARF */
	const char *vdso;	/* ELF image of the recording's [vdso] (record's FILE.vdso) */
	bool lines;		/* resolve source lines */
	bool inlines;		/* report the innermost inlined function at an address */
	bool no_demangle;	/* C++ names as the symbol table has them (perf --no-demangle) */
	bool elsewhere;		/* recorded on another machine: leave this one's files alone */
	bool this_kernel;	/* recorded on the running kernel's build: its [vdso] is ours */
	const char *cache_dir;	/* persistent lookups (symbols__cache_dir()), NULL: none */
	/*
	 * The machine model the caller feeds with the stream's COMM, FORK and MMAP records
	 * (threads.h): the session observes it and resolves user addresses through its maps.
	 * NULL: kernel addresses only. It must outlive the session (delete the session first).
	 */
	struct threads *machine;
};

/* What is known about one DSO; each note is reported once per DSO, not per sample. */
enum sym_dso_status {
	SYM_DSO_OK,		/* symbols and (when asked) lines */
	SYM_DSO_NO_DEBUGINFO,	/* symbols, no DWARF: no source lines (known after a line lookup) */
	SYM_DSO_STRIPPED,	/* no .symtab and no debug file: dynamic symbols at best */
	SYM_DSO_MISSING,	/* the file is gone (or never was on this machine) */
	SYM_DSO_BUILD_ID_MISMATCH, /* the file there is not the one recorded */
	SYM_DSO_NOT_ELF,	/* [anon], [heap], [vdso] without a file, or not an ELF */
	SYM_DSO_KERNEL_NO_MAP,	/* kernel addresses and no kallsyms/vmlinux to resolve them */
	SYM_DSO_KALLSYMS,	/* kernel symbols from kallsyms: lines need --vmlinux */
	SYM_DSO_ELSEWHERE,	/* recorded on another machine and no --symfs: not looked up */
};

struct sym_loc {
	struct sym_dso *dso;	/* NULL when no map covers the address */
	const char *dso_name;	/* "/usr/bin/x", "[kernel.kallsyms]", "[unknown]" */
	const char *sym;	/* function, or NULL when unresolved */
	uint64_t addr;		/* user: ELF address in the DSO (file offset when the file is
				   not read); kernel: the ip itself; unmapped: the ip */
	uint64_t sym_start;	/* start of sym in the same space as addr */
	const char *srcfile;	/* source file, or NULL (lines not asked for or not known) */
	unsigned int line;
	const char *inl;	/* innermost inlined function containing addr, or NULL */
	bool kernel;
	bool unwound;		/* a frame of a DWARF unwinding (symbols__chain()) */
	bool inlined;		/* a function inlined at the frame's address: sym is its name
				   (symbols__inlines()), the rest the frame's */
	uint64_t ip;		/* the address as sampled (runtime) */
};

/* Where an address is, before any symbol is looked up (see symbols__locate()). */
struct sym_addr {
	struct sym_dso *dso;	/* NULL when no map covers the address */
	uint64_t key;		/* the address looked up in the DSO (sym_loc.addr - back) */
	uint64_t ip;
	uint8_t back;		/* 1 for a return address */
	bool kernel;
};

/* Flags for symbols__resolve() */
#define SYM_RETADDR	(1u << 0)	/* a return address from a callchain: look up at ip - 1 */
#define SYM_LINES	(1u << 1)	/* resolve the source line as well */

/* Return a new session, or NULL with the reason in @err. @cfg is copied. */
struct symbols *symbols__new(const struct symbols_config *cfg, struct errbuf *err);
void symbols__delete(struct symbols *s);

/*
 * The build-id a file's header (HEADER_BUILD_ID) gives for @filename: a local file by that
 * name with another build-id is then not used. 0 or -ENOMEM.
 */
int symbols__build_id(struct symbols *s, const char *filename, const uint8_t *id, size_t size);

/*
 * Resolve @ip of process @pid; @cpumode is header.misc & PERF_RECORD_MISC_CPUMODE_MASK (or the
 * mode of a PERF_CONTEXT_* marker in a callchain). Never fails: what is not known is left NULL
 * (sym, srcfile) and @out->addr says where the sample was.
 */
void symbols__resolve(struct symbols *s, uint32_t pid, uint64_t ip, uint16_t cpumode,
		      unsigned int flags, struct sym_loc *out);

/*
 * symbols__resolve() in two steps: where @ip is (cheap: no symbol table is read), then what
 * is there. Equal (dso, key, kernel) give equal answers, so a caller can count by them and
 * look up each once.
 */
void symbols__locate(struct symbols *s, uint32_t pid, uint64_t ip, uint16_t cpumode,
		     unsigned int flags, struct sym_addr *out);
void symbols__lookup(struct symbols *s, const struct sym_addr *a, unsigned int flags,
		     struct sym_loc *out);

/* The machine's generation (threads__generation()): locating a pid's ip gives the same while
 * it stays. */
uint64_t symbols__generation(const struct symbols *s);
/* Why kallsyms could not be read (or read on), "" when nothing failed so far. */
const char *symbols__kernel_error(const struct symbols *s);

/*
 * The persistent cache directory: $SCHEDLENS_CACHE_DIR, else $XDG_CACHE_HOME/schedlens, else
 * ~/.cache/schedlens; NULL when $SCHEDLENS_NO_CACHE is set (not "0") or there is no home.
 */
const char *symbols__cache_dir(char *buf, size_t len);
/* Write the lookups the cache does not have yet. 0 or the first -errno. */
int symbols__cache_save(struct symbols *s);

/*
 * Resolve the frames of @smp: frame 0 where it was taken, then its callchain (PERF_CONTEXT_*
 * markers switch the mode; the kernel's copy of the sample ip is skipped; the rest are return
 * addresses, looked up at ip - 1). Up to @max frames into @out; returns how many.
 */
size_t symbols__chain(struct symbols *s, const struct stream_sample *smp, unsigned int flags,
		      struct sym_loc *out, size_t max);

/*
 * The frames binutils' `addr2line -i -f` gives for @l (an address symbols__resolve() found
 * in a DSO, or in the kernel with a vmlinux, as perf 6.1 asks for the frames of a
 * DWARF-unwound callchain and perf report --inline for every frame): the
 * functions inlined there, innermost first, then the one they are inlined into, as DWARF
 * names them (where DWARF has no function, the symbol table's). Up to @max names into
 * @names, interned and valid until symbols__delete() (a name equal to @l->sym is the same
 * pointer); returns how many, 0 where the address has no line information.
 */
size_t symbols__inlines(struct symbols *s, const struct sym_loc *l, const char **names,
			size_t max);

/* True when @sym is an interrupt-enable function that hrtimer/NMI-less sampling piles up on. */
bool symbols__is_skid(const char *sym);

/* The DSO's status (loads it if not yet loaded), name, and a one-line note when not OK. */
enum sym_dso_status sym_dso__status(struct sym_dso *d);
const char *sym_dso__name(const struct sym_dso *d);
const char *sym_dso__status_str(enum sym_dso_status st);

/* Visit every DSO that resolve() touched; stop when @fn returns non-zero and return that. */
int symbols__for_each_dso(struct symbols *s, int (*fn)(void *ctx, struct sym_dso *d), void *ctx);

/* Source text of @file line @line (1-based) into @buf, trailing newline cut. 0 or -errno. */
int symbols__source_line(struct symbols *s, const char *file, unsigned int line, char *buf,
			 size_t len);

/*
 * The kallsyms for analysing @data (a perf.data path): @given when set; else DATA.kallsyms
 * (what `schedlens record` keeps beside its file) when it exists; else /proc/kallsyms when
 * it names the input's kernel addresses (origin__kallsyms_apply()); else NULL (kernel
 * addresses stay unresolved).
 */
const char *symbols__pick_kallsyms(const char *data, const char *given,
				   const struct origin *origin, char *buf, size_t len);

/*
 * A session for analysing the input @data (a perf.data path) that @info describes, as report,
 * annotate and script set one up: @cfg with its kallsyms picked by symbols__pick_kallsyms()
 * (@cfg->kallsyms: the one given), elsewhere when the input was recorded on another machine
 * and no symfs is given, and the @nr build-ids of the file's header (@ids). NULL with the
 * reason in @err.
 */
struct perf_build_id;
struct symbols *symbols__new_input(const struct symbols_config *cfg, const char *data,
				   const struct stream_info *info, const struct perf_build_id *ids,
				   size_t nr, struct errbuf *err);

/*
 * Notes `schedlens record` leaves in a file's command line (CMDLINE feature) as one argument
 * "schedlens-note: TEXT", e.g. the cpu-clock fallback. The first note of @cmdline into @buf,
 * or NULL when there is none.
 */
#define SYMBOLS_NOTE_PREFIX "schedlens-note: "
const char *symbols__record_note(const char *cmdline, char *buf, size_t len);

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

/*
 * Printable names as perf report shows them: the symbol, else "0x%016llx" of the address;
 * the source line as "file.c:LINE" (basename), else "sym+OFFSET" (decimal), else "??:0".
 * Return @buf.
 */
const char *sym_loc__name(const struct sym_loc *l, char *buf, size_t len);
const char *sym_loc__srcline(const struct sym_loc *l, char *buf, size_t len);

/*
 * Counts keyed by a string (collapsed stacks for --folded, call paths for -g): each key sums
 * samples and period. Keys are copied.
 */
struct sym_stack {
	const char *key;
	uint64_t nr_samples, period;
};

struct sym_stacks;

struct sym_stacks *sym_stacks__new(void);
void sym_stacks__delete(struct sym_stacks *st);
int sym_stacks__add(struct sym_stacks *st, const char *key, uint64_t period);
int sym_stacks__add_n(struct sym_stacks *st, const char *key, uint64_t nr_samples,
		      uint64_t period);
/* the entry for @key, or NULL */
const struct sym_stack *sym_stacks__get(const struct sym_stacks *st, const char *key);
/* by period descending, then key; valid until the next add */
const struct sym_stack *sym_stacks__sorted(struct sym_stacks *st, size_t *nr);

/*
 * The symbol half of `schedlens report`: per sample, the frames (through the callchain when
 * asked), the skid rule, and what the printing needs: rows by label (source lines,
 * --children, -g), call paths, collapsed stacks and a focus list's shares.
 * A label is the row's keys rendered as perf shows them, SYMREP_SEP between keys (a symbol's
 * followed by SYMREP_ID and what tells equal names apart, as perf's rows are by symbol: its
 * DSO and address; symrep__split() leaves it out); a call
 * path key is the label, SYMREP_PATH_SEP, then the frames joined by SYMREP_FRAME_SEP, outermost
 * first for SYMREP_GRAPH_CALLER, innermost first for SYMREP_GRAPH_CALLEE.
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
#define SYMREP_PATH_SEP '\x1e'
#define SYMREP_FRAME_SEP '\x1d'
#define SYMREP_ID '\x1c'
#define SYMREP_MAX_KEYS 8

struct symrep_config {
	enum symrep_key keys[SYMREP_MAX_KEYS];
	size_t nr_keys;
	bool labels;		/* rows by label (needed for srcline, children, graph) */
	bool children, folded, skid_caller;
	enum symrep_graph graph;
	enum symrep_inline inlines;
	struct focus *focus;	/* the caller's; NULL: none */
	size_t nr_events;
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
/* call paths of event @idx (-g); NULL without */
struct sym_stacks *symrep__paths(struct symrep *r, size_t idx);
struct sym_stacks *symrep__folded(struct symrep *r);
/*
 * Samples and period that landed on interrupt-enable instructions, the first such symbol,
 * and how many of those samples had a caller frame to move to.
 */
void symrep__skid(const struct symrep *r, uint64_t *samples, uint64_t *period,
		  uint64_t *total_period, const char **sym, uint64_t *with_caller);
/* Split a label in place into @f (up to @max keys, as printed); returns how many. */
size_t symrep__split(char *label, char **f, size_t max);

#endif
