// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report: a perf.data file as perf report shows it, through the report library
 * (include/schedlens/report.h, src/lib/report/): histograms by sort keys per event, symbols,
 * call graphs, focus, folded stacks; report-info.c --stats and --header.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/report.h"
#include "report-int.h"

/*
 * The report of @f. With @unordered, kernel samples may be counted outside time order
 * (report.h); *@again when that turned out not to hold: nothing was printed, read @f again
 * without.
 */
static int report_file(const struct report_opts *o, struct perf_file *f, bool unordered,
		       bool *again, struct errbuf *err)
{
	struct cmd_progress progress;
	struct report *r;
	int ret, fin;

	*again = false;
	ret = report__new(&r, o, f, unordered, err);
	if (ret)
		return ret;
	cmd_progress__attach(&progress, f, o->input);
	ret = perf_file__run(f, report__ops(r), err);
	cmd_progress__end(&progress);
	/* after a bad record too: what was read before it is reported */
	fin = report__finish(r, again);
	ret = ret ?: fin;
	if (!*again) {
		fin = report__print(r, perf_file__stats(f), stdout, stderr);
		ret = ret ?: fin;
	}
	/* as perf says it (on stderr, not an error) */
	if (!ret && !*again && !report__nr_samples(r))
		fprintf(stderr, "schedlens report: '%s' has no samples%s\n", o->input,
			perf_file__stats(f)->nr_samples ? " in the time slices or CPUs asked for" : "");
	report__save_cache(r);
	report__delete(r);
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
	"                        [--group|--no-group] [-C CPUS] [--pid PIDS] [--tid TIDS]",
	"                        [--comms COMMS] [--dsos DSOS] [--symbols SYMBOLS]",
	NULL
};

/* -g caller|callee|none */
static int opt_graph(const struct option *opt, const char *arg, struct errbuf *err)
{
	if (report__parse_graph(arg, opt->data))
		return err__set(err, -EINVAL, "expected caller, callee or none");
	return 0;
}

/* --percentage absolute|relative (perf's: the shares of filtered tables) */
static int opt_percentage(const struct option *opt, const char *arg, struct errbuf *err)
{
	if (strcmp(arg, "absolute") && strcmp(arg, "relative"))
		return err__set(err, -EINVAL, "expected absolute or relative");
	*(bool *)opt->data = !strcmp(arg, "relative");
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
	bool stdio = false, inverted = false;
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
		OPT_FLAG(0, "show-total-period", &o.show_period,
			 "a Period column: each row's period (with --children\n"
			 "its own, as perf)"),
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
		CMD_SAMPLE_FILTER_OPTS(&o.filter),
		OPT_STRING('d', "dsos", &o.filter.dsos, "DSOS",
			   "rows of samples in these DSOs only (libc.so.6,\n"
			   "[kernel.kallsyms]; a short or recorded name)"),
		OPT_STRING('S', "symbols", &o.filter.symbols, "SYMBOLS",
			   "rows of samples in these functions only"),
		OPT_CALLBACK(0, "percentage", &o.relative, opt_percentage, "HOW",
			     "shares of a filtered table (--pid, --tid, --comms,\n"
			     "--dsos, --symbols): of all samples (absolute, the\n"
			     "default, as perf) or of those shown (relative)"),
		OPT_FLAG(0, "ordered", &o.ordered,
			 "every sample in time order (by default, with sort keys\n"
			 "sym, dso and comm only, kernel samples are counted as\n"
			 "read; the same figures, and read again in order when a\n"
			 "kernel map changes or a comm cannot be told)"),
		OPT_TEXT("symbols: sort keys sym and srcline; user DSOs through libdwfl, "
			 "the kernel through"),
		OPT_TEXT("FILE.kallsyms, /proc/kallsyms when recorded on this kernel, "
			 "or --kallsyms"),
		OPT_STRING(0, "symfs", &o.symfs, "DIR", "look for DSOs and debug files under DIR"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "FILE", "kernel symbols from FILE"),
		OPT_STRING(0, "vmlinux", &o.vmlinux, "FILE",
			   "kernel symbols and lines from a debug vmlinux"),
		OPT_FLAG(0, "no-demangle", &o.no_demangle,
			 "C++ names as the symbol table has them"),
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
		OPT_FLAG('G', "inverted", &inverted, "perf's alias of -g caller"),
		OPT_SET(0, "inline", &o.sym.inlines, SYMREP_INLINE_ALL,
			"callchains show the functions inlined at every frame with\n"
			"DWARF lines, the kernel's with --vmlinux (default: those of\n"
			"a DWARF unwinding, as perf)"),
		OPT_SET(0, "no-inline", &o.sym.inlines, SYMREP_INLINE_NONE,
			"callchains without inlined functions"),
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
	struct errbuf err = { "" };
	int c;

	if (cmd_options__parse(&cmd, argc, argv, &c) < 0)
		return c;
	if (inverted)
		o.sym.graph = SYMREP_GRAPH_CALLER;
	if (report__set_sort(&o, sort, &err))
		return cmd_options__error(&cmd, "%s", err.msg);
	/* the place filters take each sample's own row: with --children perf's entries of the
	 * callchain follow rules of its own, not copied */
	if ((o.filter.dsos || o.filter.symbols) &&
	    (o.sym.children || o.sym.folded || o.focus || (o.filter.symbols && o.no_symbols)))
		return cmd_options__error(&cmd, "--dsos and --symbols go with the self rows only "
					  "(not --children, --folded, --focus; --symbols not "
					  "--no-symbols)");
	if (o.no_symbols && (o.sym.labels || o.sym.folded || o.focus || o.sym.skid_caller)) {
		fprintf(stderr, "schedlens report: --no-symbols excludes srcline, --children, -g, "
				"--folded, --focus and --skid-caller\n");
		return 2;
	}
	return run_report(&o);
}
