// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report: a perf.data file as perf report shows it: histograms by sort keys per
 * event (shares by period and by sample count), --stats (records by type), --header.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "schedlens/commands.h"
#include "schedlens/focus.h"
#include "schedlens/hist.h"
#include "schedlens/perfdata.h"
#include "schedlens/symbols.h"
#include "schedlens/threads.h"
#include "schedlens/util.h"

struct report_opts {
	const char *input;
	bool header, stats;
	enum hist_sort sorts[HIST_SORT_MAX];
	size_t nr_sorts;
	const char *sep;		/* -t: machine-readable fields */
	/* symbols: the sort keys again with srcline, and what goes through callchains */
	struct symrep_config sym;
	const char *symfs, *kallsyms, *vmlinux, *focus;
	bool no_symbols, no_cache;
	double percent_limit;
};

struct report {
	const struct report_opts *o;
	const struct stream_info *info;
	struct threads *threads;
	struct hist **hists;		/* one per event */
	uint64_t *lost;			/* LOST_SAMPLES per event */
	uint64_t *nr_samples, *period;	/* per event */
	bool need_comm;			/* rows by label: the comm is a key or folded stacks */
	size_t nr;
	const char *unknown;		/* interned "[unknown]" */
	struct perf_file *f;
	struct symbols *syms;		/* NULL with --no-symbols */
	struct symrep *symrep;
	struct focus *focus;
	char note[256];			/* what schedlens record noted in the file */
	uint16_t misc;			/* header.misc of the record being delivered */
};

static int sym_begin(struct report *r, const struct stream_info *info)
{
	const struct report_opts *o = r->o;
	struct symbols_config cfg = { .symfs = o->symfs, .vmlinux = o->vmlinux };
	struct symrep_config sc = o->sym;
	char kbuf[4096], cbuf[4096];
	size_t i;

	symbols__record_note(info->cmdline, r->note, sizeof(r->note));
	if (o->no_symbols)
		return 0;
	for (i = 0; i < sc.nr_keys; i++) {
		cfg.lines |= sc.keys[i] == SYMREP_SRCLINE;
		r->need_comm |= sc.keys[i] == SYMREP_COMM;
	}
	r->need_comm |= sc.folded;
	cfg.kallsyms = symbols__pick_kallsyms(o->input, o->kallsyms, info->os_release, kbuf,
					      sizeof(kbuf));
	cfg.elsewhere = !o->symfs && symbols__recorded_elsewhere(info->hostname, info->os_release);
	cfg.cache_dir = o->no_cache ? NULL : symbols__cache_dir(cbuf, sizeof(cbuf));
	sc.nr_events = info->nr_evsels;
	sc.focus = r->focus;
	r->syms = symbols__new(&cfg, NULL);
	r->symrep = r->syms ? symrep__new(r->syms, &sc) : NULL;
	if (!r->symrep)
		return -ENOMEM;
	for (i = 0; r->f && i < perf_file__header(r->f)->nr_build_ids; i++) {
		const struct perf_build_id *b = &perf_file__header(r->f)->build_ids[i];

		if (symbols__build_id(r->syms, b->filename, b->id, b->size))
			return -ENOMEM;
	}
	return 0;
}

/* the symbol of the frame symrep attributes @s to; the map again if the skid rule moved it */
static int sym_sample(struct report *r, const struct stream_sample *s, struct taddr *al,
		      struct hist_key *k)
{
	const struct sym_loc *self;
	int ret;

	ret = symrep__sample(r->symrep, s, s->evsel->idx, al->comm, &self);
	if (ret || !self)
		return ret;
	if (self->ip != s->ip) {
		ret = threads__resolve(r->threads, s->pid, s->tid,
				       self->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
				       self->ip, al);
		k->dso = al->map ? al->map->dso : r->unknown;
		k->addr = al->addr;
		k->level = al->level;
	}
	k->sym = self->sym;
	k->sym_name = self->sym;
	return ret;
}

static int label_sample(struct report *r, const struct stream_sample *s)
{
	const struct sym_loc *self;
	struct taddr al = { 0 };
	int ret;

	if (r->need_comm) {
		ret = threads__resolve(r->threads, s->pid, s->tid, s->misc, s->ip, &al);
		if (ret)
			return ret;
	}
	return symrep__sample(r->symrep, s, s->evsel->idx, al.comm, &self);
}

static int rep_begin(void *ctx, const struct stream_info *info)
{
	struct report *r = ctx;
	size_t i;

	r->info = info;
	r->nr = info->nr_evsels;
	r->hists = calloc(r->nr ?: 1, sizeof(*r->hists));
	r->lost = calloc(r->nr ?: 1, sizeof(*r->lost));
	r->nr_samples = calloc(r->nr ?: 1, sizeof(*r->nr_samples));
	r->period = calloc(r->nr ?: 1, sizeof(*r->period));
	if (!r->hists || !r->lost || !r->nr_samples || !r->period)
		return -ENOMEM;
	for (i = 0; i < r->nr; i++) {
		r->hists[i] = hist__new(r->o->sorts, r->o->nr_sorts);
		if (!r->hists[i])
			return -ENOMEM;
	}
	return sym_begin(r, info);
}

static int rep_sample(void *ctx, const struct stream_sample *s)
{
	struct report *r = ctx;
	struct hist_key k = { 0 };
	struct taddr al;
	int ret;

	if (!s->evsel || (size_t)s->evsel->idx >= r->nr)
		return 0;
	r->nr_samples[s->evsel->idx]++;
	r->period[s->evsel->idx] += s->period;
	if (r->symrep && r->o->sym.labels)	/* rows by label: the hists are not shown */
		return label_sample(r, s);
	ret = threads__resolve(r->threads, s->pid, s->tid, s->misc, s->ip, &al);
	if (ret)
		return ret;
	k.comm = al.comm;
	k.dso = al.map ? al.map->dso : r->unknown;
	k.addr = al.addr;
	k.level = al.level;
	k.pid = s->pid;
	k.tid = s->tid;
	k.cpu = s->cpu;
	if (r->symrep && (ret = sym_sample(r, s, &al, &k)))
		return ret;
	return hist__add(r->hists[s->evsel->idx], &k, s->period);
}

static int rep_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		    uint64_t time)
{
	struct report *r = ctx;

	if (r->syms && exec && pid == tid && symbols__exec(r->syms, pid))
		return -ENOMEM;
	return threads__comm(r->threads, pid, tid, comm, exec);
}

static int rep_mmap(void *ctx, const struct stream_mmap *m)
{
	struct report *r = ctx;

	if (r->syms && symbols__mmap(r->syms, m))
		return -ENOMEM;
	return threads__mmap(r->threads, m);
}

static int rep_task(void *ctx, const struct stream_task *t)
{
	struct report *r = ctx;

	if (r->syms && t->fork && symbols__fork(r->syms, t->pid, t->ppid))
		return -ENOMEM;
	return threads__task(r->threads, t, r->misc);
}

static int rep_raw(void *ctx, const struct perf_event_header *h, const void *rec)
{
	struct report *r = ctx;

	r->misc = h->misc;
	return 0;
}

static int rep_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	return 0;
}

static int col_width(const struct hist_entry *v, size_t n, enum hist_sort s, const char *title)
{
	size_t w = strlen(title), i, l;

	for (i = 0; i < n; i++) {
		switch (s) {
		case HIST_SORT_COMM:
			l = strlen(v[i].key.comm);
			break;
		case HIST_SORT_DSO:
			l = strlen(v[i].key.dso);
			break;
		case HIST_SORT_SYM:
			l = v[i].key.sym_name ? strlen(v[i].key.sym_name) + 4 : 22;
			break;
		default:
			l = 7;
			break;
		}
		if (l > w)
			w = l;
	}
	return w;
}

static const char *col_title(enum hist_sort s)
{
	static const char *const t[] = { "Command", "Shared Object", "Symbol", "Pid", "CPU" };

	return s < ARRAY_SIZE(t) ? t[s] : "?";
}

static void print_key(const struct hist_key *k, enum hist_sort s, int w, const char *sep)
{
	char b[64];

	switch (s) {
	case HIST_SORT_COMM:
		printf("%-*s", w, k->comm);
		break;
	case HIST_SORT_DSO:
		printf("%-*s", w, k->dso);
		break;
	case HIST_SORT_SYM:
		if (k->sym_name)
			snprintf(b, sizeof(b), "[%c] %s", k->level, k->sym_name);
		else
			snprintf(b, sizeof(b), "[%c] 0x%016llx", k->level,
				 (unsigned long long)k->addr);
		printf("%-*s", w, b);
		break;
	case HIST_SORT_PID:
		printf("%*d", w, k->pid);
		break;
	case HIST_SORT_CPU:
		printf("%*d", w, k->cpu);
		break;
	default:
		break;
	}
}

static void print_dots(int w)
{
	while (w--)
		putchar('.');
}

static void print_hist(struct report *r, size_t idx)
{
	const struct report_opts *o = r->o;
	const struct hist_entry *v;
	uint64_t tp = hist__total_period(r->hists[idx]);
	uint64_t ts = hist__total_samples(r->hists[idx]);
	int w[HIST_SORT_MAX];
	size_t n, i, j;

	hist__collapse(r->hists[idx]);
	v = hist__sorted(r->hists[idx], &n);
	if (!o->sep) {
		printf("# Samples: %llu  of event '%s'\n", (unsigned long long)ts,
		       r->info->evsels[idx].name);
		printf("# Event count (approx.): %llu\n#\n", (unsigned long long)tp);
		printf("# Overhead   Samples");
		for (j = 0; j < o->nr_sorts; j++) {
			w[j] = col_width(v, n, o->sorts[j], col_title(o->sorts[j]));
			printf("  %-*s", w[j], col_title(o->sorts[j]));
		}
		printf("\n# ........  ........");
		for (j = 0; j < o->nr_sorts; j++) {
			printf("  ");
			print_dots(w[j]);
		}
		printf("\n#\n");
	}
	for (i = 0; i < n; i++) {
		double pp = tp ? 100.0 * v[i].period / tp : 0;
		double sp = ts ? 100.0 * v[i].nr_samples / ts : 0;

		if (pp < o->percent_limit)
			continue;
		if (o->sep)
			printf("%s%s%.4f%s%.4f", r->info->evsels[idx].name, o->sep, pp, o->sep, sp);
		else
			printf("%9.2f%% %8.2f%%", pp, sp);
		for (j = 0; j < o->nr_sorts; j++) {
			fputs(o->sep ?: "  ", stdout);
			print_key(&v[i].key, o->sorts[j], o->sep ? 0 : w[j], o->sep);
		}
		putchar('\n');
	}
	if (!o->sep)
		printf("\n\n");
}

static void note(const struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* with -t or --folded stdout holds data only: notes go to stderr */
static void note(const struct report *r, const char *fmt, ...)
{
	bool data_only = r->o->sep || r->o->sym.folded;
	FILE *f = data_only ? stderr : stdout;
	va_list ap;

	fputs(data_only ? "schedlens report: note: " : "# note: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static int dso_note(void *ctx, struct sym_dso *d)
{
	struct report *r = ctx;
	enum sym_dso_status st = sym_dso__status(d);
	bool lines = false;
	size_t i;

	for (i = 0; i < r->o->sym.nr_keys; i++)
		lines |= r->o->sym.keys[i] == SYMREP_SRCLINE;
	if (st != SYM_DSO_OK && (st != SYM_DSO_KALLSYMS || lines))
		note(r, "%s: %s", sym_dso__name(d), sym_dso__status_str(st));
	return 0;
}

static void print_notes(struct report *r)
{
	uint64_t ns, period, total, moved;
	const char *sym;

	if (r->note[0])
		note(r, "%s", r->note);
	if (!r->symrep)
		return;
	symbols__for_each_dso(r->syms, dso_note, r);
	symrep__skid(r->symrep, &ns, &period, &total, &sym, &moved);
	if (ns && !r->o->sym.skid_caller)
		note(r, "%.2f%% of the period landed on interrupt-enable instructions (%s and "
			"the like): sampling skid, as with hrtimer sampling in a VM; --skid-caller "
			"attributes it to the caller frame%s",
		     total ? 100.0 * period / total : 0.0, sym,
		     moved ? "" : " (needs callchains: record -g)");
	else if (ns)
		note(r, "%llu of %llu samples on interrupt-enable instructions (%s and the like) "
			"attributed to their caller frame (the rest had no callchain)",
		     (unsigned long long)moved, (unsigned long long)ns, sym);
}

static void print_paths(struct report *r, const char *label, uint64_t tp)
{
	const struct sym_stack *v;
	size_t n, i, len = strlen(label), shown = 0;

	v = sym_stacks__sorted(symrep__paths(r->symrep), &n);
	for (i = 0; i < n && shown < 8; i++) {
		if (strncmp(v[i].key, label, len) || v[i].key[len] != SYMREP_PATH_SEP)
			continue;
		printf("            |--%.2f%%-- %s\n", tp ? 100.0 * v[i].period / tp : 0.0,
		       v[i].key + len + 1);
		shown++;
	}
	if (shown)
		printf("\n");
}

static const char *key_title(enum symrep_key k)
{
	static const char *const t[] = { "Command", "Shared Object", "Symbol", "Pid", "CPU",
					 "Source:Line" };

	return t[k];
}

/* rows by label: source lines, --children (children and self shares), -g call paths */
static void print_labels(struct report *r, size_t idx)
{
	const struct report_opts *o = r->o;
	bool children = o->sym.children;
	struct sym_stacks *self = symrep__rows(r->symrep, idx, false);
	uint64_t tp = r->period[idx], ts = r->nr_samples[idx];
	size_t n, i, j, nk, w[SYMREP_MAX_KEYS] = { 0 };
	char *f[SYMREP_MAX_KEYS], lab[1024];
	const struct sym_stack *v;

	v = sym_stacks__sorted(symrep__rows(r->symrep, idx, children), &n);
	for (j = 0; j < o->sym.nr_keys; j++)
		w[j] = strlen(key_title(o->sym.keys[j]));
	for (i = 0; i < n; i++) {
		snprintf(lab, sizeof(lab), "%s", v[i].key);
		nk = symrep__split(lab, f, SYMREP_MAX_KEYS);
		for (j = 0; j < nk; j++)
			w[j] = strlen(f[j]) > w[j] ? strlen(f[j]) : w[j];
	}
	if (!o->sep) {
		printf("# Samples: %llu  of event '%s'\n", (unsigned long long)ts,
		       r->info->evsels[idx].name);
		printf("# Event count (approx.): %llu\n#\n", (unsigned long long)tp);
		printf(children ? "#  Children      Self" : "# Overhead   Samples");
		for (j = 0; j < o->sym.nr_keys; j++)
			printf("  %-*s", (int)w[j], key_title(o->sym.keys[j]));
		printf("\n#\n");
	}
	for (i = 0; i < n; i++) {
		double pp = tp ? 100.0 * v[i].period / tp : 0;
		double sp = ts ? 100.0 * v[i].nr_samples / ts : 0;

		if (children) {
			const struct sym_stack *e = sym_stacks__get(self, v[i].key);

			sp = tp && e ? 100.0 * e->period / tp : 0;
		}
		if (pp < o->percent_limit)
			continue;
		if (o->sep)
			printf("%s%s%.4f%s%.4f", r->info->evsels[idx].name, o->sep, pp, o->sep, sp);
		else
			printf(children ? "%10.2f%% %8.2f%%" : "%9.2f%% %8.2f%%", pp, sp);
		snprintf(lab, sizeof(lab), "%s", v[i].key);
		nk = symrep__split(lab, f, SYMREP_MAX_KEYS);
		for (j = 0; j < nk; j++)
			printf("%s%-*s", o->sep ?: "  ", o->sep || j + 1 == nk ? 0 : (int)w[j], f[j]);
		putchar('\n');
		if (symrep__paths(r->symrep) && !o->sep)
			print_paths(r, v[i].key, tp);
	}
	if (!o->sep)
		printf("\n\n");
}

static void print_focus(struct report *r)
{
	const struct focus_row *rows;
	struct focus_row any;
	uint64_t ns, tp;
	size_t n = focus__rows(r->focus, &rows), i;

	focus__totals(r->focus, &any, &ns, &tp);
	printf("# focus '%s': %zu functions; shares of all %llu samples, by period\n",
	       r->o->focus, n, (unsigned long long)ns);
	printf("# self: taken in the function; through: its callchain passes through it\n#\n");
	printf("#     Self   Through   Samples  Function\n");
	for (i = 0; i <= n; i++) {
		const struct focus_row *e = i < n ? &rows[i] : &any;

		if (i < n && !e->through_samples)
			continue;
		printf("%9.2f%% %8.2f%% %9llu  %s\n", tp ? 100.0 * e->self_period / tp : 0.0,
		       tp ? 100.0 * e->through_period / tp : 0.0,
		       (unsigned long long)e->through_samples, e->name);
	}
}

static void print_folded(struct report *r)
{
	const struct sym_stack *v;
	size_t n, i;

	v = sym_stacks__sorted(symrep__folded(r->symrep), &n);
	for (i = 0; i < n; i++)
		printf("%s %llu\n", v[i].key, (unsigned long long)v[i].nr_samples);
}

static int print_report(struct report *r, const struct stream_stats *st)
{
	size_t i;

	print_notes(r);
	if (r->o->sym.folded) {
		print_folded(r);
		return 0;
	}
	if (r->focus) {
		print_focus(r);
		return 0;
	}
	if (!r->o->sep)
		printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)st->nr_lost);
	for (i = 0; i < r->nr; i++) {
		const struct perf_event_attr *a = &r->info->evsels[i].attr;
		bool dummy = a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;

		if (!r->nr_samples[i] && (r->o->sep || dummy))
			continue;
		if (r->symrep && r->o->sym.labels)
			print_labels(r, i);
		else
			print_hist(r, i);
	}
	return 0;
}

/* --stats */
struct stats_ctx {
	const struct stream_info *info;
	struct perf_file *f;
	uint64_t *samples, *lost;
};

static int st_begin(void *ctx, const struct stream_info *info)
{
	struct stats_ctx *c = ctx;

	c->info = info;
	c->samples = calloc(info->nr_evsels + 1, sizeof(uint64_t));
	c->lost = calloc(info->nr_evsels + 1, sizeof(uint64_t));
	return c->samples && c->lost ? 0 : -ENOMEM;
}

static int st_sample(void *ctx, const struct stream_sample *s)
{
	struct stats_ctx *c = ctx;

	c->samples[s->evsel->idx]++;
	return 0;
}

static int st_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	struct stats_ctx *c = ctx;
	const struct stream_evsel *e = perf_file__evsel_by_id(c->f, id);

	if (e)
		c->lost[e->idx]++;
	return 0;
}

static void print_stats(const struct stats_ctx *c, const struct stream_stats *st)
{
	size_t i;

	printf("\nAggregated stats:\n%16s events: %10llu\n", "TOTAL",
	       (unsigned long long)st->nr_records);
	for (i = 0; i < 128; i++) {
		const char *name = perf_record__name(i);

		if (!st->nr_by_type[i])
			continue;
		printf("%16s events: %10llu  (%4.1f%%)\n", name ?: "UNKNOWN",
		       (unsigned long long)st->nr_by_type[i],
		       100.0 * st->nr_by_type[i] / (st->nr_records ?: 1));
	}
	if (st->nr_unknown)
		printf("%16s records: %10llu (skipped)\n", "unknown",
		       (unsigned long long)st->nr_unknown);
	if (st->nr_unknown_id)
		printf("%16s samples: %10llu (skipped)\n", "unknown id",
		       (unsigned long long)st->nr_unknown_id);
	for (i = 0; c->info && i < c->info->nr_evsels; i++) {
		if (!c->samples[i] && !c->lost[i])
			continue;	/* perf skips empty events */
		printf("%s stats:\n", c->info->evsels[i].name);
		printf("%16s events: %10llu\n", "SAMPLE", (unsigned long long)c->samples[i]);
		if (c->lost[i])
			printf("%16s events: %10llu\n", "LOST_SAMPLES",
			       (unsigned long long)c->lost[i]);
	}
}

static void print_cpu_list(const char *what, char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("# %s : %s\n", what, v[i]);
}

static void print_lines(const char *prefix, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n");

		printf("%s%.*s\n", prefix, (int)n, s);
		s += n + (s[n] != 0);
	}
}

static void print_header(const struct perf_file *f, const char *path)
{
	const struct perf_file_header *h = perf_file__header(f);
	const struct stream_info *info = perf_file__info(f);
	char buf[4096], tbuf[64] = "";
	struct stat st;
	size_t i, j;
	int feat;

	if (strcmp(path, "-") && !stat(path, &st))
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", localtime(&st.st_mtime));
	printf("# ========\n# captured on    : %s\n# header version : 1\n", tbuf);
	printf("# data offset    : %llu\n# data size      : %llu\n# feat offset    : %llu\n",
	       (unsigned long long)h->data_offset, (unsigned long long)h->data_size,
	       (unsigned long long)h->feat_offset);
	if (h->pipe_mode)
		printf("# ========\n#\n");
#define STR(field, label)                               \
	do {                                            \
		if (h->field)                           \
			printf("# %s : %s\n", label, h->field); \
	} while (0)
	STR(hostname, "hostname");
	STR(os_release, "os release");
	STR(perf_version, "perf version");
	STR(arch, "arch");
#undef STR
	if (h->nr_cpus_avail)
		printf("# nrcpus online : %u\n# nrcpus avail : %u\n", h->nr_cpus_online,
		       h->nr_cpus_avail);
	if (h->cpu_desc)
		printf("# cpudesc : %s\n", h->cpu_desc);
	if (h->cpuid)
		printf("# cpuid : %s\n", h->cpuid);
	if (h->total_mem)
		printf("# total memory : %llu kB\n", (unsigned long long)h->total_mem);
	if (h->cmdline)
		printf("# cmdline : %s\n", h->cmdline);
	for (i = 0; i < h->nr_event_descs; i++) {
		const struct perf_event_desc *e = &h->event_descs[i];

		printf("# event : name = %s, , id = {", e->name);
		for (j = 0; j < e->nr_ids; j++)
			printf("%s %llu", j ? "," : "", (unsigned long long)e->ids[j]);
		perf_attr__snprintf(&e->attr, buf, sizeof(buf), " = ");
		printf(" }, %s\n", buf);
	}
	print_cpu_list("sibling sockets", h->sibling_sockets, h->nr_sibling_sockets);
	print_cpu_list("sibling dies   ", h->sibling_dies, h->nr_sibling_dies);
	print_cpu_list("sibling threads", h->sibling_threads, h->nr_sibling_threads);
	for (i = 0; i < h->nr_cpu_topo; i++) {
		if (h->cpu_topo[i].die_id >= 0)
			printf("# CPU %zu: Core ID %d, Die ID %d, Socket ID %d\n", i,
			       h->cpu_topo[i].core_id, h->cpu_topo[i].die_id,
			       h->cpu_topo[i].socket_id);
		else
			printf("# CPU %zu: Core ID %d, Socket ID %d\n", i, h->cpu_topo[i].core_id,
			       h->cpu_topo[i].socket_id);
	}
	if (h->nr_sibling_sockets && !h->nr_cpu_topo)
		printf("# Core ID and Socket ID information is not available\n");
	for (i = 0; i < h->nr_numa; i++) {
		printf("# node%u meminfo  : total = %llu kB, free = %llu kB\n", h->numa[i].node,
		       (unsigned long long)h->numa[i].mem_total,
		       (unsigned long long)h->numa[i].mem_free);
		printf("# node%u cpu list : %s\n", h->numa[i].node, h->numa[i].cpus ?: "");
	}
	if (h->pmu_mappings)
		printf("# pmu mappings: %s\n", h->pmu_mappings);
	for (i = 0; i < h->nr_groups; i++) {
		size_t l = h->groups[i].leader_idx;

		const char *name = h->groups[i].name;

		if (!name || !strcmp(name, "{anon_group}"))
			name = "";
		printf("# group: %s{", name);
		for (j = 0; j < h->groups[i].nr_members && l + j < info->nr_evsels; j++)
			printf("%s%s", j ? "," : "", info->evsels[l + j].name);
		printf("}\n");
	}
	if (h->cache_lines) {
		printf("# CPU cache info:\n");
		print_lines("#  ", h->cache_lines);
	}
	if (h->features[0] & (1ULL << PERF_FEAT_SAMPLE_TIME)) {
		printf("# time of first sample : %llu.%06llu\n# time of last sample : %llu.%06llu\n",
		       (unsigned long long)(h->first_sample_time / 1000000000),
		       (unsigned long long)(h->first_sample_time % 1000000000 / 1000),
		       (unsigned long long)(h->last_sample_time / 1000000000),
		       (unsigned long long)(h->last_sample_time % 1000000000 / 1000));
		printf("# sample duration : %10.3f ms\n",
		       (h->last_sample_time - h->first_sample_time) / 1e6);
	}
	if (h->mem_topology)
		print_lines("# ", h->mem_topology);
	if (h->clockid_res_ns)
		printf("# clockid frequency: %llu MHz\n",
		       (unsigned long long)(1000 / h->clockid_res_ns));
	if (h->features[0] & (1ULL << PERF_FEAT_COMPRESSED))
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       h->comp_type == 1 ? "Zstd" : "Unknown", h->comp_level, h->comp_ratio);
	if (h->pmu_caps)
		print_lines("# ", h->pmu_caps);
	if (!h->pipe_mode) {
		printf("# missing features:");
		for (feat = 1; feat <= PERF_FEAT_PMU_CAPS; feat++)
			if (!(h->features[feat / 64] & (1ULL << (feat % 64))))
				printf(" %s", perf_feat__name(feat));
		printf(" \n# ========\n#\n");
	}
}

static int run_report(const struct report_opts *o)
{
	struct report r = { .o = o };
	struct stats_ctx sc = { 0 };
	struct stream_ops ops = { 0 };
	struct perf_file *f = NULL;
	struct errbuf err = { "" };
	size_t i;
	int ret;

	ret = perf_file__open(&f, o->input, &err);
	if (ret)
		goto out_err;
	if (o->header) {
		if (perf_file__header(f)->pipe_mode)
			ret = perf_file__run(f, NULL, &err);
		print_header(f, o->input);
		goto out_err;
	}
	if (o->stats) {
		sc.f = f;
		ops = (struct stream_ops){ .ctx = &sc, .begin = st_begin, .sample = st_sample,
					   .lost = st_lost };
		ret = perf_file__run(f, &ops, &err);
		print_stats(&sc, perf_file__stats(f));
		free(sc.samples);
		free(sc.lost);
		goto out_err;
	}
	r.f = f;
	r.threads = threads__new();
	if (!r.threads || !(r.unknown = threads__intern(r.threads, "[unknown]"))) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (o->focus && !(r.focus = focus__load(o->focus, SCHEDLENS_DATADIR, &err))) {
		ret = -ENOENT;
		goto out_free;
	}
	ops = (struct stream_ops){ .ctx = &r, .begin = rep_begin, .sample = rep_sample,
				   .comm = rep_comm, .mmap = rep_mmap, .task = rep_task,
				   .lost = rep_lost, .raw = rep_raw };
	ret = perf_file__run(f, &ops, &err);
	if (!ret && r.symrep)
		ret = symrep__finish(r.symrep);
	if (r.hists)
		print_report(&r, perf_file__stats(f));
	if (r.syms)
		symbols__cache_save(r.syms);	/* a cache: what cannot be written is looked up again */
out_free:
	for (i = 0; r.hists && i < r.nr; i++)
		hist__delete(r.hists[i]);
	free(r.hists);
	free(r.lost);
	free(r.nr_samples);
	free(r.period);
	threads__delete(r.threads);
	symrep__delete(r.symrep);
	symbols__delete(r.syms);
	focus__delete(r.focus);
out_err:
	perf_file__delete(f);
	if (fflush(stdout))
		ret = ret ?: -EIO;
	if (ret < 0)
		fprintf(stderr, "schedlens report: %s\n", err.msg[0] ? err.msg : strerror(-ret));
	return ret ? 1 : 0;
}

static void usage(FILE *fp)
{
	fprintf(fp, "usage: schedlens report [-i FILE] [--sort KEYS] [--stats] [--header] [-t SEP]\n"
		    "  -i, --input FILE    perf.data file, '-' for stdin (default perf.data)\n"
		    "  -s, --sort KEYS     comma-separated: comm, dso, sym, pid, cpu (default comm,dso,sym)\n"
		    "      --stats         record counts by type and samples per event\n"
		    "      --header        the header and feature sections\n"
		    "  -t, --field-separator SEP  one line per entry: event, %%period, %%samples, keys\n"
		    "      --percent-limit P  hide entries below P%%\n"
		    "symbols: sort keys sym and srcline; user DSOs through libdwfl, the kernel through\n"
		    "FILE.kallsyms, /proc/kallsyms when recorded on this kernel, or --kallsyms\n"
		    "      --symfs DIR     look for DSOs and debug files under DIR\n"
		    "      --kallsyms FILE kernel symbols from FILE\n"
		    "      --vmlinux FILE  kernel symbols and lines from a debug vmlinux\n"
		    "      --no-symbols    addresses only\n"
		    "      --no-cache      do not use or fill the lookup cache (SCHEDLENS_CACHE_DIR,\n"
		    "                      default ~/.cache/schedlens; SCHEDLENS_NO_CACHE=1: none)\n"
		    "      --children      add each sample to every function of its callchain\n"
		    "  -g, --call-graph M  caller, callee or none: call paths under each entry\n"
		    "      --folded        collapsed stacks (comm;outer;...;inner COUNT), flame graphs\n"
		    "      --focus LIST    self and through-callchain shares of a function list\n"
		    "                      ('sched', or a file of names)\n"
		    "      --skid-caller   samples on interrupt-enable instructions go to the caller\n");
}

static int parse_graph(const char *arg, enum symrep_graph *g)
{
	if (!strcmp(arg, "caller"))
		*g = SYMREP_GRAPH_CALLER;
	else if (!strcmp(arg, "callee"))
		*g = SYMREP_GRAPH_CALLEE;
	else if (!strcmp(arg, "none"))
		*g = SYMREP_GRAPH_NONE;
	else {
		fprintf(stderr, "schedlens report: '%s' is not caller, callee or none\n", arg);
		return -EINVAL;
	}
	return 0;
}

/* the sort keys for symrep: the hist keys in order, srcline among them */
static int add_key(struct report_opts *o, const char *tok, int hs)
{
	if (o->sym.nr_keys >= SYMREP_MAX_KEYS)
		return -EINVAL;
	if (!strcmp(tok, "srcline"))
		o->sym.keys[o->sym.nr_keys++] = SYMREP_SRCLINE;
	else if (hs == HIST_SORT_COMM)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_COMM;
	else if (hs == HIST_SORT_DSO)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_DSO;
	else if (hs == HIST_SORT_SYM)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_SYM;
	else if (hs == HIST_SORT_PID)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_PID;
	else if (hs == HIST_SORT_CPU)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_CPU;
	else
		return -EINVAL;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "stats", no_argument, NULL, 'S' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'H' },
		{ "field-separator", required_argument, NULL, 't' },
		{ "symfs", required_argument, NULL, 1000 },
		{ "kallsyms", required_argument, NULL, 1001 },
		{ "vmlinux", required_argument, NULL, 1002 },
		{ "no-symbols", no_argument, NULL, 1003 },
		{ "children", no_argument, NULL, 1004 },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "percent-limit", required_argument, NULL, 1005 },
		{ "folded", no_argument, NULL, 1006 },
		{ "focus", required_argument, NULL, 1007 },
		{ "skid-caller", no_argument, NULL, 1008 },
		{ "no-cache", no_argument, NULL, 1009 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .input = "perf.data" };
	const char *sort = "comm,dso,sym";
	char *copy, *tok, *save;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:t:g:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 's':
			sort = optarg;
			break;
		case 'S':
			o.stats = true;
			break;
		case 'H':
			o.header = true;
			break;
		case 't':
			o.sep = optarg;
			break;
		case 1000:
			o.symfs = optarg;
			break;
		case 1001:
			o.kallsyms = optarg;
			break;
		case 1002:
			o.vmlinux = optarg;
			break;
		case 1003:
			o.no_symbols = true;
			break;
		case 1004:
			o.sym.children = true;
			break;
		case 'g':
			if (parse_graph(optarg, &o.sym.graph))
				return 2;
			break;
		case 1005:
			if (parse_double(optarg, &o.percent_limit) || o.percent_limit < 0 ||
			    o.percent_limit > 100) {
				fprintf(stderr, "schedlens report: '%s' is not a percentage\n", optarg);
				return 2;
			}
			break;
		case 1006:
			o.sym.folded = true;
			break;
		case 1007:
			o.focus = optarg;
			break;
		case 1008:
			o.sym.skid_caller = true;
			break;
		case 1009:
			o.no_cache = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "schedlens report: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	copy = strdup(sort);
	if (!copy)
		return 1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int s = hist_sort__parse(tok);

		if (!strcmp(tok, "srcline") && !add_key(&o, tok, s))
			continue;
		if (s < 0 || o.nr_sorts >= HIST_SORT_MAX || add_key(&o, tok, s)) {
			fprintf(stderr, "schedlens report: '%s' is not a sort key\n", tok);
			free(copy);
			usage(stderr);
			return 2;
		}
		o.sorts[o.nr_sorts++] = s;
	}
	free(copy);
	if (!o.sym.nr_keys) {
		fprintf(stderr, "schedlens report: --sort needs at least one key\n");
		return 2;
	}
	for (c = 0; c < (int)o.sym.nr_keys; c++)
		o.sym.labels |= o.sym.keys[c] == SYMREP_SRCLINE;
	o.sym.labels |= o.sym.children || o.sym.graph;
	if (o.no_symbols && (o.sym.labels || o.sym.folded || o.focus || o.sym.skid_caller)) {
		fprintf(stderr, "schedlens report: --no-symbols excludes srcline, --children, -g, "
				"--folded, --focus and --skid-caller\n");
		return 2;
	}
	return run_report(&o);
}
