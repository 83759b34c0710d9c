// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens annotate FUNC -i FILE: the share of FUNC's samples per source line (with the
 * source text when the file is found), or per address where lines are not known. FUNC
 * stands for the function, its clones and its inlined copies (symmatch.h), summed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/perfdata.h"
#include "schedlens/symbols.h"
#include "schedlens/symlines.h"
#include "schedlens/symstacks.h"
#include "schedlens/threads.h"
#include "schedlens/symmatch.h"

#define MAX_SUGGEST 5
#define MAX_NOTED 16

struct annotate_opts {
	const char *func;
	const char *input;
	const char *symfs, *kallsyms, *vmlinux;
	const char *source;	/* --source DIR */
	bool by_samples;
	bool addresses, no_cache, no_demangle;
	double hot_pct;		/* lines at or above this share are marked */
};

struct annotate_ctx {
	const struct annotate_opts *o;
	struct perf_file *file;
	struct symbols *syms;
	struct threads *machine;	/* the address spaces the symbols resolve through */
	struct sym_lines lines;
	struct sym_stacks *pieces;	/* FUNC's samples by clone or inlined copy */
	struct sym_stacks *seen;	/* every function sampled, inlined ones too */
	uint64_t nr_samples, period;
	const char *dso_name;
	bool other_dsos;
	const char *noted[MAX_NOTED];	/* source files said to be missing */
	size_t nr_noted;
	char note[256];
	bool has_note;
	char event[128];
	struct errbuf err;
};

static int ann_begin(void *ctx, const struct stream_info *info)
{
	struct annotate_ctx *a = ctx;
	const struct perf_file_header *h = perf_file__header(a->file);
	struct symbols_config cfg = { .lines = true, .inlines = true };
	char cbuf[4096];

	cfg.symfs = a->o->symfs;
	cfg.cache_dir = a->o->no_cache ? NULL : symbols__cache_dir(cbuf, sizeof(cbuf));
	cfg.no_demangle = a->o->no_demangle;
	cfg.vmlinux = a->o->vmlinux;
	cfg.kallsyms = a->o->kallsyms;
	cfg.machine = a->machine = threads__new();
	if (!a->machine)
		return -ENOMEM;
	a->has_note = symbols__record_note(info->cmdline, a->note, sizeof(a->note)) != NULL;
	if (info->nr_evsels)
		snprintf(a->event, sizeof(a->event), "%s", info->evsels[0].name);
	a->syms = symbols__new_input(&cfg, a->o->input, info, h->build_ids, h->nr_build_ids,
				     &a->err);
	if (!a->syms)
		return -EINVAL;
	a->pieces = sym_stacks__new();
	a->seen = sym_stacks__new();
	return a->syms && a->pieces && a->seen ? 0 : -ENOMEM;
}

static int ann_mmap(void *ctx, const struct stream_mmap *m)
{
	struct annotate_ctx *a = ctx;

	return threads__mmap(a->machine, m);
}

static int ann_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		    uint64_t time)
{
	struct annotate_ctx *a = ctx;

	return threads__comm(a->machine, pid, tid, comm, exec);
}

static int ann_task(void *ctx, const struct stream_task *t)
{
	struct annotate_ctx *a = ctx;

	return threads__task(a->machine, t, t->misc);
}

/* the piece of FUNC @loc is in: the symbol (FUNC or a clone), or FUNC inlined into it */
static const char *piece(struct annotate_ctx *a, const struct sym_loc *loc, char *buf,
			 size_t len)
{
	if (symmatch__is(a->o->func, loc->sym))
		return loc->sym;
	if (!loc->sym || !symmatch__is(a->o->func, loc->inl))
		return NULL;
	snprintf(buf, len, "%s inlined into %s", loc->inl, loc->sym);
	return buf;
}

/* count the sampled function by the name that matches it, and the inlined one at @loc */
static int seen(struct annotate_ctx *a, const struct sym_loc *loc, uint64_t period)
{
	char base[256];
	int n, ret = 0;

	if (!loc->sym)
		return 0;
	n = (int)symmatch__base_len(loc->sym);
	snprintf(base, sizeof(base), "%.*s", n, loc->sym);
	if (loc->inl && strcmp(loc->inl, base))
		ret = sym_stacks__add(a->seen, loc->inl, period);
	return ret ? ret : sym_stacks__add(a->seen, base, period);
}

static int ann_sample(void *ctx, const struct stream_sample *s)
{
	struct annotate_ctx *a = ctx;
	uint16_t mode = s->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t period = s->period ? s->period : 1;
	struct sym_loc loc;
	const char *pc;
	char buf[512];
	int ret;

	a->nr_samples++;
	a->period += period;
	symbols__resolve(a->syms, s->pid, s->ip, mode, SYM_LINES, &loc);
	ret = seen(a, &loc, period);
	pc = piece(a, &loc, buf, sizeof(buf));
	if (ret || !pc)
		return ret;
	if (symmatch__is(a->o->func, loc.inl))
		loc.inl = NULL;		/* FUNC's own lines: not marked as inlined */
	if (a->o->addresses)
		loc.srcfile = NULL;
	if (!a->dso_name)
		a->dso_name = loc.dso_name;
	a->other_dsos |= loc.dso_name != a->dso_name &&
			 (!loc.dso_name || strcmp(loc.dso_name, a->dso_name));
	ret = sym_stacks__add(a->pieces, pc, period);
	return ret ? ret : sym_lines__add(&a->lines, &loc, period);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* one line naming each piece summed, with its share of the function and of all */
static void print_pieces(struct annotate_ctx *a, uint64_t fw, uint64_t tw)
{
	const struct sym_stack *v;
	size_t nr, i;

	v = sym_stacks__sorted(a->pieces, &nr);
	printf("# %zu piece%s summed:", nr, nr == 1 ? "" : "s");
	for (i = 0; i < nr; i++) {
		uint64_t w = a->o->by_samples ? v[i].nr_samples : v[i].period;

		printf("%s %s %.2f%% (%.2f%% of all, %llu samples)", i ? ";" : "", v[i].key,
		       pct(w, fw), pct(w, tw), (unsigned long long)v[i].nr_samples);
	}
	printf("\n");
}

/* the source text of @e into @src ("" when not found; a missing file is said once) */
static void source_text(struct annotate_ctx *a, const struct sym_line *e, char *src,
			size_t len)
{
	const char *path;
	size_t i;
	int rc = sym_line__source(a->syms, a->o->source, e, src, len, &path);

	if (rc)
		src[0] = '\0';
	if (rc != -ENOENT || !e->srcfile)
		return;
	for (i = 0; i < a->nr_noted; i++)
		if (a->noted[i] == e->srcfile)
			return;
	if (a->nr_noted < MAX_NOTED)
		a->noted[a->nr_noted++] = e->srcfile;
	else if (a->nr_noted++ > MAX_NOTED)
		return;
	if (a->o->source)
		fprintf(stderr, "annotate: no file for '%s' under '%s' (tried its path relative "
				"to the compilation directory and each of its suffixes): "
				"source text left out\n", e->srcfile, a->o->source);
	else
		fprintf(stderr, "annotate: cannot read '%s': source text left out (--source "
				"DIR reads it from another tree)\n", e->srcfile);
}

static void print_lines(struct annotate_ctx *a)
{
	const struct annotate_opts *o = a->o;
	const struct sym_lines *l = &a->lines;
	uint64_t fw = o->by_samples ? l->nr_samples : l->period;
	uint64_t tw = o->by_samples ? a->nr_samples : a->period;
	char src[512], where[256];
	size_t i;

	printf("# %s in %s%s (%s), event %s: %llu samples, %.2f%% of all %llu\n", o->func,
	       a->dso_name, a->other_dsos ? " and other DSOs" : "", o->input, a->event,
	       (unsigned long long)l->nr_samples, pct(fw, tw),
	       (unsigned long long)a->nr_samples);
	print_pieces(a, fw, tw);
	printf("# share of the function's %s; '*' marks lines at or above %.0f%%\n#\n",
	       o->by_samples ? "samples" : "period", o->hot_pct);
	printf("# %8s %8s %8s   %-28s %s\n", "func%", "all%", "samples", "line", "source");
	for (i = 0; i < l->nr; i++) {
		const struct sym_line *e = &l->v[i];
		uint64_t w = o->by_samples ? e->nr_samples : e->period;
		double share = pct(w, fw);
		const char *base;

		src[0] = '\0';
		if (e->srcfile) {
			base = strrchr(e->srcfile, '/');
			snprintf(where, sizeof(where), "%s:%u", base ? base + 1 : e->srcfile,
				 e->line);
			source_text(a, e, src, sizeof(src));
		} else {
			snprintf(where, sizeof(where), "0x%llx", (unsigned long long)e->addr);
		}
		printf("%c %7.2f%% %7.2f%% %8llu   %-28s %s%s%s%s\n",
		       share >= o->hot_pct || !i ? '*' : ' ', share, pct(w, tw),
		       (unsigned long long)e->nr_samples, where, src + strspn(src, " \t"),
		       e->inl ? "   [inlined " : "", e->inl ? e->inl : "", e->inl ? "]" : "");
	}
}

/* FUNC has no samples: say so, with the nearest names that have some */
static void no_samples(struct annotate_ctx *a)
{
	const struct sym_stack *v;
	const char **names;
	size_t nr, n = 0, i, near[MAX_SUGGEST];

	fprintf(stderr, "annotate: no samples in '%s' in %s (%llu samples)", a->o->func,
		a->o->input, (unsigned long long)a->nr_samples);
	v = sym_stacks__sorted(a->seen, &nr);
	names = nr ? malloc(nr * sizeof(*names)) : NULL;
	for (i = 0; names && i < nr; i++)
		names[i] = v[i].key;
	if (names)
		n = symmatch__nearest(a->o->func, names, nr, near, MAX_SUGGEST);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s (%llu)", i ? ", " : "; nearest sampled: ", names[near[i]],
			(unsigned long long)v[near[i]].nr_samples);
	fprintf(stderr, "\n");
	free(names);
}

static int dso_note(void *ctx, struct sym_dso *d)
{
	struct annotate_ctx *a = ctx;
	enum sym_dso_status st = sym_dso__status(d);

	if (st != SYM_DSO_OK && a->dso_name && !strcmp(sym_dso__name(d), a->dso_name))
		fprintf(stderr, "annotate: '%s': %s\n", sym_dso__name(d), sym_dso__status_str(st));
	return 0;
}

static int run_annotate(const struct annotate_opts *o)
{
	struct annotate_ctx a = { .o = o };
	struct stream_ops ops = {
		.ctx = &a, .begin = ann_begin, .sample = ann_sample, .mmap = ann_mmap,
		.comm = ann_comm, .task = ann_task,
	};
	int ret = 1, rc;

	rc = perf_file__open(&a.file, o->input, &a.err) ?: perf_file__run(a.file, &ops, &a.err);
	perf_file__delete(a.file);
	if (rc) {
		fprintf(stderr, "annotate: %s\n", a.err.msg[0] ? a.err.msg : strerror(-rc));
		goto out_free;
	}
	if (a.has_note)
		fprintf(stderr, "annotate: note: %s\n", a.note);
	if (!a.lines.nr_samples) {
		no_samples(&a);
		ret = 2;
		goto out_free;
	}
	symbols__for_each_dso(a.syms, dso_note, &a);
	sym_lines__sort(&a.lines, o->by_samples);
	print_lines(&a);
	ret = fflush(stdout) ? 1 : 0;
	symbols__cache_save(a.syms);	/* a cache: what cannot be written is looked up again */
out_free:
	sym_lines__exit(&a.lines);
	sym_stacks__delete(a.pieces);
	sym_stacks__delete(a.seen);
	symbols__delete(a.syms);
	threads__delete(a.machine);
	return ret;
}

static const char *const annotate_usage[] = {
	"usage: schedlens annotate FUNC [-i FILE] [--symfs DIR] [--kallsyms FILE]",
	"                          [--vmlinux FILE] [-n] [--addresses] [--hot PCT]",
	"                          [--source DIR] [--no-cache]",
	NULL
};

int cmd_annotate(int argc, char **argv)
{
	bool stdio = false;
	struct annotate_opts o = { .input = "perf.data", .hot_pct = 10.0 };
	const struct option opts[] = {
		OPT_TEXT("  FUNC                  "
			 "a function: its clones (FUNC.isra.0, .constprop.N, .part.N,"),
		OPT_TEXT("                        "
			 ".cold, .llvm.N) and inlined copies are summed with it"),
		OPT_STRING('i', "input", &o.input, "FILE", "perf.data to read (default perf.data)"),
		OPT_STRING(0, "symfs", &o.symfs, "DIR", "look for DSOs and debug files under DIR"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "FILE", "kernel symbols from FILE"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "FILE",
			   "kernel symbols and lines from a debug vmlinux"),
		OPT_FLAG(0, "no-demangle", &o.no_demangle,
			 "C++ names as the symbol table has them"),
		OPT_FLAG('n', "samples", &o.by_samples, "shares by sample count instead of period"),
		OPT_FLAG(0, "addresses", &o.addresses, "per address, not per source line"),
		OPT_FLAG(0, "stdio", &stdio, "text output (the only interface, as perf's --stdio)"),
		OPT_STRING(0, "source", &o.source, "DIR",
			   "source text from the tree DIR (the compilation directory\n"
			   "mapped onto it)"),
		OPT_DOUBLE(0, "hot", &o.hot_pct, 0, 100, "PCT",
			   "mark lines with at least PCT% of the function (default 10)"),
		OPT_FLAG(0, "no-cache", &o.no_cache,
			 "do not use or fill the lookup cache (see report --help)"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "annotate", annotate_usage, opts, 0 };
	int n, code;

	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0)
		return code;
	if (n != 1)
		return cmd_options__error(&cmd, "give one FUNC (%d given)", n);
	o.func = argv[1];
	return run_annotate(&o);
}
