// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report: a perf.data file as perf report shows it: histograms by sort keys per
 * event (shares by period and by sample count), --stats (records by type), --header.
 * report-sym.c holds the symbol side (rows by label, notes, focus, folded stacks),
 * report-info.c --stats and --header.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-options.h"
#include "cmd-progress.h"
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
	r->sread = sample_read__new(info, &ret);
	if (ret)
		return ret;
	ret = report__sym_begin(r, info);
	if (ret || (r->symrep && !symrep__per_place(r->symrep)))
		return ret;
	r->memo = calloc(REPORT_MEMO_SIZE, sizeof(*r->memo));
	r->gen = 1;
	if (!r->memo)
		return -ENOMEM;
	if (r->kagg_allowed && report__kagg_eligible(r, info->pipe_mode)) {
		ret = report__kagg_new(r);
		if (!ret)	/* they come to rep_sample as they are read */
			r->ops->unordered = 1u << PERF_RECORD_MISC_KERNEL;
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

static int rep_one_sample(void *ctx, const struct stream_sample *s)
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

/* a sample that read its group's counters (:S) stands for one sample per value, as in perf */
static int rep_sample(void *ctx, const struct stream_sample *s)
{
	struct report *r = ctx;

	if (r->sread && sample_read__reads(s->evsel))
		return sample_read__deliver(r->sread, s, rep_one_sample, r);
	return rep_one_sample(r, s);
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

/*
 * The histograms of @f. With @kagg_allowed, kernel samples may be counted outside time order
 * (report-kagg.c); *@again when that turned out not to hold: nothing was printed, read @f
 * again without.
 */
static int report_file(const struct report_opts *o, struct perf_file *f, bool kagg_allowed,
		       bool *again, struct errbuf *err)
{
	struct report r = { .o = o, .f = f, .kagg_allowed = kagg_allowed, .err = err };
	struct stream_ops ops = { .ctx = &r, .begin = rep_begin, .sample = rep_sample,
				  .comm = rep_comm, .mmap = rep_mmap, .task = rep_task,
				  .lost = rep_lost, .no_formats = true };
	struct cmd_progress progress;
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
	cmd_progress__attach(&progress, f, o->input);
	ret = perf_file__run(f, &ops, err);
	cmd_progress__end(&progress);
	if (r.kagg) {	/* after a bad record too: what was read before it is reported */
		int fin = report__kagg_finish(&r, again);

		ret = ret ?: fin;
	}
	if (r.symrep && !*again) {
		int fin = symrep__finish(r.symrep);

		ret = ret ?: fin;
	}
	if (r.hists && !*again) {	/* after a bad record too */
		int pr = report__print(&r, perf_file__stats(f));

		ret = ret ?: pr;
	}
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
	free(r.groups);
	sample_read__delete(r.sread);
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

static const char *const report_usage[] = {
	"usage: schedlens report [-i FILE] [--sort KEYS] [--stats] [--header] [-t SEP] [-n]",
	"                        [--group|--no-group]",
	NULL
};

/* -g caller|callee|none */
static int opt_graph(const struct option *opt, const char *arg, struct errbuf *err)
{
	if (report__parse_graph(arg, opt->data))
		return err__set(err, -EINVAL, "expected caller, callee or none");
	return 0;
}

/* --group, --no-group: the entry's set */
static int opt_group(const struct option *opt, const char *arg, struct errbuf *err)
{
	*(enum report_group *)opt->data = (enum report_group)opt->set;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = "perf.data" };
	const char *sort = "comm,dso,sym";
	bool stdio = false;
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "FILE",
			   "perf.data file, '-' for stdin (default perf.data)"),
		OPT_STRING('s', "sort", &sort, "KEYS",
			   "comma-separated: comm, dso, sym, pid, cpu (default comm,dso,sym)"),
		OPT_FLAG(0, "stats", &o.stats, "record counts by type and samples per event"),
		OPT_FLAG(0, "header", &o.header,
			 "the header and feature sections (perf --header-only)"),
		{ .kind = OPTION_FLAG, .long_name = "header-only", .value = &o.header, .set = 1,
		  .flags = OPTION_HIDDEN },
		OPT_FLAG('I', "show-info", &o.show_info,
			 "with --header: the CPU topology, NUMA, cache and memory\n"
			 "features in full"),
		OPT_STRING('t', "field-separator", &o.sep, "SEP",
			   "one line per entry: event, %period, %samples, keys"),
		OPT_FLAG('n', "show-nr-samples", &o.show_nr,
			 "a Samples column: each entry's count"),
		OPT_FLAG(0, "stdio", &stdio, "the text tables (the only interface: perf's default\n"
			 "where there is no TUI)"),
		{ .kind = OPTION_CALLBACK, .long_name = "group", .data = &o.group,
		  .callback = opt_group, .flags = OPTION_NOARG, .set = REPORT_GROUP_ON,
		  .help = "an event group's members side by side (the default where\n"
			  "the file describes groups; without: all events one group)" },
		{ .kind = OPTION_CALLBACK, .long_name = "no-group", .data = &o.group,
		  .callback = opt_group, .flags = OPTION_NOARG, .set = REPORT_GROUP_OFF,
		  .help = "a table per event" },
		OPT_FLAG(0, "no-skip-empty", &o.no_skip_empty,
			 "tables of events without samples too (perf hides them)"),
		{ .kind = OPTION_FLAG, .long_name = "skip-empty", .value = &o.no_skip_empty,
		  .set = 0, .flags = OPTION_HIDDEN },
		OPT_DOUBLE(0, "percent-limit", &o.percent_limit, 0, 100, "P",
			   "hide entries below P%"),
		OPT_FLAG(0, "ordered", &o.ordered,
			 "every sample in time order (by default, with sort keys\n"
			 "sym and dso only, kernel samples are counted as read;\n"
			 "the same figures, and read again in order when a kernel\n"
			 "map changes)"),
		OPT_TEXT("symbols: sort keys sym and srcline; user DSOs through libdwfl, "
			 "the kernel through"),
		OPT_TEXT("FILE.kallsyms, /proc/kallsyms when recorded on this kernel, "
			 "or --kallsyms"),
		OPT_STRING(0, "symfs", &o.symfs, "DIR", "look for DSOs and debug files under DIR"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "FILE", "kernel symbols from FILE"),
		OPT_STRING(0, "vmlinux", &o.vmlinux, "FILE",
			   "kernel symbols and lines from a debug vmlinux"),
		OPT_FLAG(0, "no-symbols", &o.no_symbols, "addresses only"),
		OPT_FLAG(0, "no-cache", &o.no_cache,
			 "do not use or fill the lookup cache (SCHEDLENS_CACHE_DIR,\n"
			 "default ~/.cache/schedlens; SCHEDLENS_NO_CACHE=1: none)"),
		OPT_BOOL(0, "children", &o.sym.children,
			 "add each sample to every function of its callchain\n"
			 "(--no-children, the default: self shares only)"),
		OPT_CALLBACK('g', "call-graph", &o.sym.graph, opt_graph, "M",
			     "caller, callee or none: perf's call-graph tree under each\n"
			     "entry (graph,0.5: shares of the total, below 0.5% hidden)"),
		OPT_FLAG(0, "folded", &o.sym.folded,
			 "collapsed stacks (comm;outer;...;inner COUNT), flame graphs"),
		OPT_STRING(0, "focus", &o.focus, "LIST",
			   "self and through-callchain shares of a function list\n"
			   "('sched', or a file of names)"),
		OPT_FLAG(0, "skid-caller", &o.sym.skid_caller,
			 "samples on interrupt-enable instructions go to the caller"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens report", report_usage, opts,
					 OPTIONS_NO_ARGUMENTS };
	char *copy, *tok, *save;
	int c;

	if (cmd_options__parse(&cmd, argc, argv, &c) < 0)
		return c;
	copy = strdup(sort);
	if (!copy)
		return 1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int s = hist_sort__parse(tok);

		if (!strcmp(tok, "srcline") && !report__add_key(&o, tok, s))
			continue;
		if (s < 0 || o.nr_sorts >= HIST_SORT_MAX || report__add_key(&o, tok, s)) {
			c = cmd_options__error(&cmd, "'%s' is not a sort key", tok);
			free(copy);
			return c;
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
