// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens annotate FUNC -i FILE: the share of FUNC's samples per source line (with the
 * source text when the file is found), or per address where lines are not known.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/commands.h"
#include "schedlens/perfdata.h"
#include "schedlens/symbols.h"

struct annotate_opts {
	const char *func;
	const char *input;
	const char *symfs, *kallsyms, *vmlinux;
	bool by_samples;
	bool addresses, no_cache;
	double hot_pct;		/* lines at or above this share are marked */
};

struct annotate_ctx {
	const struct annotate_opts *o;
	struct symbols *syms;
	struct sym_lines lines;
	uint64_t nr_samples, period;
	const char *dso_name;
	char note[256];
	bool has_note;
	char event[128];
	struct errbuf err;
};

static int ann_begin(void *ctx, const struct stream_info *info)
{
	struct annotate_ctx *a = ctx;
	struct symbols_config cfg = { .lines = !a->o->addresses, .inlines = !a->o->addresses };
	char kbuf[4096], cbuf[4096];

	cfg.symfs = a->o->symfs;
	cfg.cache_dir = a->o->no_cache ? NULL : symbols__cache_dir(cbuf, sizeof(cbuf));
	cfg.vmlinux = a->o->vmlinux;
	cfg.kallsyms = symbols__pick_kallsyms(a->o->input, a->o->kallsyms, &info->origin, kbuf,
					      sizeof(kbuf));
	cfg.elsewhere = !a->o->symfs && !origin__same_machine(&info->origin);
	a->has_note = symbols__record_note(info->cmdline, a->note, sizeof(a->note)) != NULL;
	if (info->nr_evsels)
		snprintf(a->event, sizeof(a->event), "%s", info->evsels[0].name);
	a->syms = symbols__new(&cfg, &a->err);
	return a->syms ? 0 : -ENOMEM;
}

static int ann_mmap(void *ctx, const struct stream_mmap *m)
{
	struct annotate_ctx *a = ctx;

	return symbols__mmap(a->syms, m);
}

static int ann_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		    uint64_t time)
{
	struct annotate_ctx *a = ctx;

	return exec && pid == tid ? symbols__exec(a->syms, pid) : 0;
}

static int ann_task(void *ctx, const struct stream_task *t)
{
	struct annotate_ctx *a = ctx;

	return t->fork ? symbols__fork(a->syms, t->pid, t->ppid) : 0;
}

static int ann_sample(void *ctx, const struct stream_sample *s)
{
	struct annotate_ctx *a = ctx;
	uint16_t mode = s->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t period = s->period ? s->period : 1;
	struct sym_loc loc;

	a->nr_samples++;
	a->period += period;
	symbols__resolve(a->syms, s->pid, s->ip, mode, 0, &loc);
	if (!loc.sym || strcmp(loc.sym, a->o->func))
		return 0;
	if (!a->o->addresses)
		symbols__resolve(a->syms, s->pid, s->ip, mode, SYM_LINES, &loc);
	if (!a->dso_name)
		a->dso_name = loc.dso_name;
	return sym_lines__add(&a->lines, &loc, period);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void print_lines(struct annotate_ctx *a)
{
	const struct annotate_opts *o = a->o;
	const struct sym_lines *l = &a->lines;
	uint64_t fw = o->by_samples ? l->nr_samples : l->period;
	uint64_t tw = o->by_samples ? a->nr_samples : a->period;
	char src[512], where[256];
	size_t i;

	printf("# %s in %s (%s), event %s: %llu samples, %.2f%% of all %llu\n", o->func,
	       a->dso_name, o->input, a->event, (unsigned long long)l->nr_samples,
	       pct(fw, tw), (unsigned long long)a->nr_samples);
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
			if (symbols__source_line(a->syms, e->srcfile, e->line, src, sizeof(src)))
				src[0] = '\0';
		} else {
			snprintf(where, sizeof(where), "0x%llx", (unsigned long long)e->addr);
		}
		printf("%c %7.2f%% %7.2f%% %8llu   %-28s %s%s%s%s\n",
		       share >= o->hot_pct || !i ? '*' : ' ', share, pct(w, tw),
		       (unsigned long long)e->nr_samples, where, src + strspn(src, " \t"),
		       e->inl ? "   [inlined " : "", e->inl ? e->inl : "", e->inl ? "]" : "");
	}
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

	rc = perf_file__process(o->input, &ops, &a.err);
	if (rc) {
		fprintf(stderr, "annotate: %s\n", a.err.msg[0] ? a.err.msg : strerror(-rc));
		goto out_free;
	}
	if (a.has_note)
		fprintf(stderr, "annotate: note: %s\n", a.note);
	if (!a.lines.nr_samples) {
		fprintf(stderr, "annotate: no samples in '%s' in %s (%llu samples)\n", o->func,
			o->input, (unsigned long long)a.nr_samples);
		goto out_free;
	}
	symbols__for_each_dso(a.syms, dso_note, &a);
	sym_lines__sort(&a.lines, o->by_samples);
	print_lines(&a);
	ret = fflush(stdout) ? 1 : 0;
	symbols__cache_save(a.syms);	/* a cache: what cannot be written is looked up again */
out_free:
	sym_lines__exit(&a.lines);
	symbols__delete(a.syms);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlens annotate FUNC [-i FILE] [--symfs DIR] [--kallsyms FILE]\n"
		   "                          [--vmlinux FILE] [-n] [--addresses] [--hot PCT]\n"
		   "                          [--no-cache]\n"
		   "  -i, --input FILE   perf.data to read (default perf.data)\n"
		   "  -n, --samples      shares by sample count instead of period\n"
		   "      --addresses    per address, not per source line\n"
		   "      --hot PCT      mark lines with at least PCT%% of the function (default 10)\n"
		   "      --no-cache     do not use or fill the lookup cache (see report --help)\n");
}

int cmd_annotate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "symfs", required_argument, NULL, 'S' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "samples", no_argument, NULL, 'n' },
		{ "addresses", no_argument, NULL, 'A' },
		{ "hot", required_argument, NULL, 'H' },
		{ "no-cache", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct annotate_opts o = { .input = "perf.data", .hot_pct = 10.0 };
	int c;

	while ((c = getopt_long(argc, argv, "i:k:nh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 'S':
			o.symfs = optarg;
			break;
		case 'K':
			o.kallsyms = optarg;
			break;
		case 'k':
			o.vmlinux = optarg;
			break;
		case 'n':
			o.by_samples = true;
			break;
		case 'A':
			o.addresses = true;
			break;
		case 'C':
			o.no_cache = true;
			break;
		case 'H':
			if (parse_double(optarg, &o.hot_pct) || o.hot_pct < 0 || o.hot_pct > 100) {
				fprintf(stderr, "annotate: '%s' is not a percentage\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	o.func = argv[optind];
	return run_annotate(&o);
}
