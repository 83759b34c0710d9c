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
	SYM_DSO_NO_JIT_MAP,	/* JIT code whose /tmp/perf-PID.map is not here */
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
	bool at_ip;		/* without sym: addr is the ip as sampled (a report's children
				   entry), not an address in the DSO */
	uint32_t ident;		/* what the frame resolved to, by number (symbols__resolve()
				   through its memo): two frames of one number have the same
				   sym, dso and kernel, and sym_start (with sym) or ip and addr
				   (without); 0 where not numbered */
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
/*
 * The version of the address space an ip of @pid in @cpumode is read in
 * (threads__map_space(): the kernel's for kernel modes, whatever the pid): locating an ip
 * gives the same in every space of one version. 0 where it has none (no machine, a pid
 * without maps): then symbols__generation() and the pid say it.
 */
uint64_t symbols__space(struct symbols *s, uint32_t pid, uint16_t cpumode);

/*
 * The user frames of sample @smp unwound from its registers and its copy of the stack
 * (--call-graph dwarf) through the machine's maps and the files behind them (the vDSO's
 * image too, as symbols__resolve() finds it): at most @max return addresses into @ips, frame
 * 0 the user ip, callers already at ip - 1 (unwinder__unwind()'s). How many; 0 where the
 * sample has no user registers or stack, or nothing could be unwound.
 */
size_t symbols__unwind(struct symbols *s, const struct stream_sample *smp, uint64_t *ips,
		       size_t max);
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
 * Whether perf reads @smp's callchain: it discards one with a context marker it does not know
 * (machine.c's add_callchain_ip(): "invalid callchain context"), as a corrupted one.
 */
bool symbols__chain_ok(const struct stream_sample *smp);
/* the same as far as perf's walk reads with --max-stack @max: the markers before the
 * @max-th address */
bool symbols__chain_ok_upto(const struct stream_sample *smp, size_t max);
/*
 * Resolve the frames of @smp: frame 0 where it was taken, then its callchain (PERF_CONTEXT_*
 * markers switch the mode; the kernel's copy of the sample ip is skipped; the rest are return
 * addresses, looked up as they are) and a DWARF unwinding's frames, unless the callchain is
 * not symbols__chain_ok(). Up to @max frames into @out; returns how many.
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
 * Printable names as perf report shows them: the symbol, else "%#.16llx" (perf's
 * "%-#.*llx": 0x and 16 digits, 16 zeros for 0) of the address, a user DSO's as the
 * offset in its file (perf's map-relative address);
 * the source line as "file.c:LINE" (basename), else "sym+OFFSET" (decimal), else "??:0".
 * Return @buf.
 */
const char *sym_loc__name(const struct sym_loc *l, char *buf, size_t len);
/* the address sym_loc__name() prints for a frame without a symbol */
uint64_t sym_loc__name_addr(const struct sym_loc *l);
const char *sym_loc__srcline(const struct sym_loc *l, char *buf, size_t len);

#endif
