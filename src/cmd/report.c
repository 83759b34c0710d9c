// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report: a perf.data file as perf report shows it: histograms by sort keys per
 * event (shares by period and by sample count), --stats (records by type), --header.
 * report-sym.c holds the symbol side (rows by label, notes, focus, folded stacks),
 * report-info.c --stats and --header.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/commands.h"
#include "schedlens/focus.h"
#include "report-int.h"

static int rep_begin(void *ctx, const struct stream_info *info)
{
	struct report *r = ctx;
	size_t i;
	int ret;

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
	ret = report__sym_begin(r, info);
	if (ret || (r->symrep && !symrep__per_place(r->symrep)))
		return ret;
	r->memo = calloc(REPORT_MEMO_SIZE, sizeof(*r->memo));
	r->gen = 1;
	if (!r->memo)
		return -ENOMEM;
	if (r->kagg_allowed && report__kagg_eligible(r, info->pipe_mode)) {
		ret = report__kagg_new(r);
		if (!ret) {
			r->ops->sample_any_order = report__kagg_sample;
			r->ops->place = report__kagg_place;
			r->ops->any_order = 1u << PERF_RECORD_MISC_KERNEL;
		}
	}
	return ret;
}

int report__place(struct report *r, const struct stream_sample *s, struct hist_key *k)
{
	struct taddr al;
	int ret = threads__resolve(r->threads, s->pid, s->tid, s->misc, s->ip, &al);

	if (ret)
		return ret;
	*k = (struct hist_key){ .comm = al.comm, .dso = al.map ? al.map->dso : r->unknown,
				.addr = al.addr, .level = al.level, .pid = s->pid, .tid = s->tid,
				.cpu = s->cpu };
	return r->symrep ? report__sym_sample(r, s, &al, k) : 0;
}

static int rep_sample(void *ctx, const struct stream_sample *s)
{
	struct report *r = ctx;
	struct report_memo *m = NULL;
	struct hist_key k = { 0 };
	int ret;

	if (!s->evsel || (size_t)s->evsel->idx >= r->nr)
		return 0;
	if (r->kagg && (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
		return report__kagg_sample(r, s);
	r->nr_samples[s->evsel->idx]++;
	r->period[s->evsel->idx] += s->period;
	if (r->symrep && r->o->sym.labels)	/* rows by label: the hists are not shown */
		return report__label_sample(r, s);
	if (r->memo) {
		m = &r->memo[(s->ip ^ s->ip >> 12 ^ s->tid * 0x9e3779b1u ^ s->cpu << 5) &
			     (REPORT_MEMO_SIZE - 1)];
		if (m->gen == r->gen && m->ip == s->ip && m->tid == s->tid && m->pid == s->pid &&
		    m->cpu == s->cpu && m->misc == s->misc && m->evidx == (uint32_t)s->evsel->idx) {
			if (r->symrep)
				symrep__repeat(r->symrep, s, m->sym);
			hist__add_at(r->hists[s->evsel->idx], m->idx, s->period);
			return 0;
		}
	}
	ret = report__place(r, s, &k);
	if (ret)
		return ret;
	if (!m)
		return hist__add(r->hists[s->evsel->idx], &k, s->period);
	ret = hist__add_idx(r->hists[s->evsel->idx], &k, s->period, &m->idx);
	*m = (struct report_memo){ .ip = s->ip, .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
				   .gen = ret ? 0 : r->gen, .misc = s->misc,
				   .evidx = (uint32_t)s->evsel->idx, .idx = m->idx,
				   .sym = k.sym_name };
	return ret;
}

static int rep_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		    uint64_t time)
{
	struct report *r = ctx;

	r->gen++;
	if (r->syms && exec && pid == tid && symbols__exec(r->syms, pid))
		return -ENOMEM;
	return threads__comm(r->threads, pid, tid, comm, exec);
}

static int rep_mmap(void *ctx, const struct stream_mmap *m)
{
	struct report *r = ctx;

	r->gen++;
	if (r->syms && symbols__mmap(r->syms, m))
		return -ENOMEM;
	return threads__mmap(r->threads, m);
}

static int rep_task(void *ctx, const struct stream_task *t)
{
	struct report *r = ctx;

	r->gen++;
	if (r->syms && t->fork && symbols__fork(r->syms, t->pid, t->ppid))
		return -ENOMEM;
	return threads__task(r->threads, t, t->misc);
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

void report__print_rule(const size_t *w, size_t n)
{
	size_t i, d;

	printf("\n# ........  ........");
	for (i = 0; i < n; i++) {
		printf("  ");
		for (d = 0; d < w[i]; d++)
			putchar('.');
	}
	printf("\n#\n");
}

void report__print_shares(const struct report *r, size_t idx, double period_pct,
			  double samples_pct)
{
	const char *sep = r->o->sep;

	if (sep)
		printf("%s%s%.4f%s%.4f", r->info->evsels[idx].name, sep, period_pct, sep,
		       samples_pct);
	else
		printf("%9.2f%% %8.2f%%", period_pct, samples_pct);
}

static void print_hist(struct report *r, size_t idx)
{
	const struct report_opts *o = r->o;
	const struct hist_entry *v;
	uint64_t tp = hist__total_period(r->hists[idx]);
	uint64_t ts = hist__total_samples(r->hists[idx]);
	size_t w[HIST_SORT_MAX];
	size_t n, i, j;

	hist__collapse(r->hists[idx]);
	v = hist__sorted(r->hists[idx], &n);
	if (!o->sep) {
		printf("# Samples: %llu  of event '%s'\n", (unsigned long long)ts,
		       r->info->evsels[idx].name);
		printf("# Event count (approx.): %llu\n#\n", (unsigned long long)tp);
		printf("# Overhead   Samples");
		for (j = 0; j < o->nr_sorts; j++) {
			w[j] = (size_t)col_width(v, n, o->sorts[j], col_title(o->sorts[j]));
			printf("  %-*s", (int)w[j], col_title(o->sorts[j]));
		}
		report__print_rule(w, o->nr_sorts);
	}
	for (i = 0; i < n; i++) {
		double pp = tp ? 100.0 * v[i].period / tp : 0;
		double sp = ts ? 100.0 * v[i].nr_samples / ts : 0;

		if (pp < o->percent_limit)
			continue;
		report__print_shares(r, idx, pp, sp);
		for (j = 0; j < o->nr_sorts; j++) {
			fputs(o->sep ?: "  ", stdout);
			print_key(&v[i].key, o->sorts[j], o->sep ? 0 : (int)w[j], o->sep);
		}
		putchar('\n');
	}
	if (!o->sep)
		printf("\n\n");
}

static int print_report(struct report *r, const struct stream_stats *st)
{
	size_t i;

	report__print_notes(r);
	if (r->o->sym.folded) {
		report__print_folded(r);
		return 0;
	}
	if (r->focus) {
		report__print_focus(r);
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
			report__print_labels(r, i);
		else
			print_hist(r, i);
	}
	return 0;
}

/*
 * The histograms of @f. With @kagg_allowed, kernel samples may be counted outside time order
 * (report-kagg.c); *@again when that turned out not to hold: nothing was printed, read @f
 * again without.
 */
static int report_file(const struct report_opts *o, struct perf_file *f, bool kagg_allowed,
		       bool *again, struct errbuf *err)
{
	struct report r = { .o = o, .f = f, .kagg_allowed = kagg_allowed };
	struct stream_ops ops = { .ctx = &r, .begin = rep_begin, .sample = rep_sample,
				  .comm = rep_comm, .mmap = rep_mmap, .task = rep_task,
				  .lost = rep_lost, .no_formats = true };
	size_t i;
	int ret;

	*again = false;
	r.ops = &ops;
	r.threads = threads__new();
	if (!r.threads || !(r.unknown = threads__intern(r.threads, "[unknown]"))) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (o->focus && !(r.focus = focus__load(o->focus, SCHEDLENS_DATADIR, err))) {
		ret = -ENOENT;
		goto out_free;
	}
	ret = perf_file__run(f, &ops, err);
	if (r.kagg) {	/* after a bad record too: what was read before it is reported */
		int fin = report__kagg_finish(&r, again);

		ret = ret ?: fin;
	}
	if (r.symrep && !*again) {
		int fin = symrep__finish(r.symrep);

		ret = ret ?: fin;
	}
	if (r.hists && !*again)
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
	free(r.memo);
	report__kagg_delete(&r);
	threads__delete(r.threads);
	symrep__delete(r.symrep);
	symbols__delete(r.syms);
	focus__delete(r.focus);
	return ret;
}

static int run_report(const struct report_opts *o)
{
	struct perf_file *f = NULL;
	struct errbuf err = { "" };
	bool again = false;
	int ret;

	ret = perf_file__open(&f, o->input, &err);
	if (ret)
		goto out_err;
	if (o->header) {
		if (perf_file__header(f)->pipe_mode)
			ret = perf_file__run(f, NULL, &err);
		report__print_header(f, o->input, o->show_info);
		goto out_err;
	}
	if (o->stats) {
		ret = report__stats(f, &err);
		goto out_err;
	}
	ret = report_file(o, f, !o->ordered, &again, &err);
	if (again) {	/* nothing was printed: read it again in time order */
		perf_file__delete(f);
		f = NULL;
		ret = perf_file__open(&f, o->input, &err) ?: report_file(o, f, false, &again, &err);
	}
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
		    "      --header        the header and feature sections (perf --header-only)\n"
		    "  -I, --show-info     with --header: the CPU topology, NUMA, cache and memory\n"
		    "                      features in full\n"
		    "  -t, --field-separator SEP  one line per entry: event, %%period, %%samples, keys\n"
		    "      --percent-limit P  hide entries below P%%\n"
		    "      --ordered       every sample in time order (by default, with sort keys\n"
		    "                      sym and dso only, kernel samples are counted as read;\n"
		    "                      the same figures, and read again in order when a kernel\n"
		    "                      map changes)\n"
		    "symbols: sort keys sym and srcline; user DSOs through libdwfl, the kernel through\n"
		    "FILE.kallsyms, /proc/kallsyms when recorded on this kernel, or --kallsyms\n"
		    "      --symfs DIR     look for DSOs and debug files under DIR\n"
		    "      --kallsyms FILE kernel symbols from FILE\n"
		    "      --vmlinux FILE  kernel symbols and lines from a debug vmlinux\n"
		    "      --no-symbols    addresses only\n"
		    "      --no-cache      do not use or fill the lookup cache (SCHEDLENS_CACHE_DIR,\n"
		    "                      default ~/.cache/schedlens; SCHEDLENS_NO_CACHE=1: none)\n"
		    "      --children      add each sample to every function of its callchain\n"
		    "      --no-children   self shares only (the default)\n"
		    "  -g, --call-graph M  caller, callee or none: perf's call-graph tree under each\n"
		    "                      entry (graph,0.5: shares of the total, below 0.5%% hidden)\n"
		    "      --folded        collapsed stacks (comm;outer;...;inner COUNT), flame graphs\n"
		    "      --focus LIST    self and through-callchain shares of a function list\n"
		    "                      ('sched', or a file of names)\n"
		    "      --skid-caller   samples on interrupt-enable instructions go to the caller\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "stats", no_argument, NULL, 'S' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'H' },
		{ "show-info", no_argument, NULL, 'I' },
		{ "field-separator", required_argument, NULL, 't' },
		{ "symfs", required_argument, NULL, 1000 },
		{ "kallsyms", required_argument, NULL, 1001 },
		{ "vmlinux", required_argument, NULL, 1002 },
		{ "no-symbols", no_argument, NULL, 1003 },
		{ "children", no_argument, NULL, 1004 },
		{ "no-children", no_argument, NULL, 1010 },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "percent-limit", required_argument, NULL, 1005 },
		{ "folded", no_argument, NULL, 1006 },
		{ "focus", required_argument, NULL, 1007 },
		{ "skid-caller", no_argument, NULL, 1008 },
		{ "no-cache", no_argument, NULL, 1009 },
		{ "ordered", no_argument, NULL, 1011 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .input = "perf.data" };
	const char *sort = "comm,dso,sym";
	char *copy, *tok, *save;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:t:g:hI", longopts, NULL)) != -1) {
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
		case 'I':
			o.show_info = true;
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
		case 1010:
			o.sym.children = false;
			break;
		case 'g':
			if (report__parse_graph(optarg, &o.sym.graph))
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
		case 1011:
			o.ordered = true;
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

		if (!strcmp(tok, "srcline") && !report__add_key(&o, tok, s))
			continue;
		if (s < 0 || o.nr_sorts >= HIST_SORT_MAX || report__add_key(&o, tok, s)) {
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
