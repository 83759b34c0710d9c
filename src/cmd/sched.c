// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens sched: wakeup latency, wakeup paths, IPIs, migrations, wakee flips and run time
 * from scheduler tracepoints, live (system-wide around a command) or from a perf.data file.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/results.h"
#include "schedlens/sampler.h"
#include "schedlens/schedan.h"
#include "schedlens/target.h"
#include "schedlens/topology.h"
#include "schedlens/symbols.h"
#include "schedlens/util.h"
#include "schedlens/workload.h"
#if __has_include("schedlens/perfdata.h")
#include "schedlens/perfdata.h"
#define HAVE_PERFDATA 1
#endif

struct sched_opts {
	const char *input;		/* -i perf.data */
	bool all;			/* -a: every task, not only the command's */
	const char *cpus;		/* -C */
	bool json;
	const char *kallsyms;
	bool no_cache;
	const char *tracefs;
	const char *name;		/* --name: the results entry's id */
	bool topology;
	bool phase;
	long top;
	long mmap_pages;
	char **argv;			/* the command after -- */
	const struct workload *wl;	/* --bench NAME: a built-in workload, in-process */
	void *wl_cfg;
};

static volatile sig_atomic_t sched_stop;

static const char *const sched_usage[] = {
	"usage: schedlens sched [OPTIONS] -- COMMAND [ARGS...]",
	"       schedlens sched [OPTIONS] --bench NAME [WORKLOAD OPTIONS...]",
	"       schedlens sched [OPTIONS] -i perf.data",
	"",
	"Wakeup latency and paths, IPIs, migrations, wakee flips and run time from the",
	"scheduler tracepoints, recorded system-wide while COMMAND runs, or read from a file",
	"recorded with `perf sched record` or `perf record -e sched:...`.",
	NULL
};

static void on_sigint(int sig)
{
	sched_stop++;
}

static bool opened(const struct sampler_event *ev, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(ev[i].name, name))
			return true;
	return false;
}

static int open_events(const struct sched_opts *o, struct sampler_event *ev, size_t *nr)
{
	struct errbuf err = { "" };
	size_t i, ntp;
	const struct schedan_tracepoint *sched_events = schedan__tracepoints(&ntp);
	int ret;

	*nr = 0;
	for (i = 0; i < ntp; i++) {
		if (sched_events[i].instead_of && opened(ev, *nr, sched_events[i].instead_of))
			continue;
		ret = tracepoint__attr(o->tracefs, sched_events[i].name, &ev[*nr].attr, &err);
		if (ret == -ENOENT && sched_events[i].instead_of)
			continue;	/* the one it stands in for was said to be missing */
		if (ret == -ENOENT && !sched_events[i].required &&
		    !strstr(err.msg, "tracefs")) {
			fprintf(stderr, "schedlens sched: warning: %s: left out\n", err.msg);
			continue;
		}
		if (ret) {
			fprintf(stderr, "schedlens sched: %s\n", err.msg);
			return 1;
		}
		ev[*nr].attr.sample_type |= PERF_SAMPLE_RAW;
		ev[*nr].name = sched_events[i].name;
		(*nr)++;
	}
	return 0;
}

struct live {
	const struct sched_opts *o;
	struct sampler_opts so;
	struct schedan_opts *ao;
	struct sampler *s;
	struct schedan *an;
	struct stream_ops ops;
	struct errbuf err;
};

static int live_attach(void *ctx, pid_t pid)
{
	struct live *l = ctx;

	l->s = sampler__new(&l->so, &l->err);
	if (!l->s)
		return -1;
	if (!l->o->all)
		l->ao->root_pid = pid;
	l->an = schedan__new(l->ao, &l->err);
	if (!l->an)
		return -1;
	schedan__ops(l->an, &l->ops);
	return 0;
}

static int live_phase(void *ctx, bool enable, uint64_t t_ns)
{
	struct live *l = ctx;

	return enable ? sampler__enable(l->s) : sampler__disable(l->s);
}

static int live_tick(void *ctx)
{
	struct live *l = ctx;

	return sampler__poll(l->s, 0, &l->ops);
}

static int sched_live(const struct sched_opts *o, struct schedan_opts *ao, struct schedan **an,
		      int *code)
{
	struct sampler_event ev[SCHEDAN_MAX_TRACEPOINTS];
	struct live l = { .o = o, .ao = ao,
			  .so = { .events = ev, .cpus = o->cpus, .tracking = true,
				  .mmap_pages = (int)o->mmap_pages, .tracefs = o->tracefs } };
	struct target t = { .argv = o->wl ? NULL : o->argv, .wl = o->wl, .wl_cfg = o->wl_cfg };
	struct target_hooks h = { .ctx = &l, .attach = live_attach, .phase = live_phase,
				  .tick = live_tick, .poll_ms = 10 };
	struct target_result res;
	int ret;

	if (open_events(o, ev, &l.so.nr_events))
		return 1;
	l.so.start_disabled = o->wl || o->phase || target__is_own_bench(o->argv);
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	ret = target__run(&t, &h, &sched_stop, &res, &l.err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (l.s) {
		/* also after a failure: ops->end() sees what was read */
		int dr = sampler__drain(l.s, &l.ops);

		if (!ret)
			ret = dr;
	}
	json_decref(res.metrics);
	*an = l.an;
	*code = target__exit_code(&res);
	if (ret && l.an && schedan__error(l.an)[0])
		fprintf(stderr, "schedlens sched: %s\n", schedan__error(l.an));
	else if (ret)
		fprintf(stderr, "schedlens sched: %s\n",
			l.err.msg[0] ? l.err.msg : strerror(ret < 0 ? -ret : EIO));
	sampler__delete(l.s);
	return ret ? 1 : 0;
}

#ifdef HAVE_PERFDATA
/*
 * Migrations are classified on the recording machine's topology: the file's CPU_TOPOLOGY
 * (and CACHE, NUMA_TOPOLOGY), else this machine's when the file was recorded here or comes
 * through a pipe (its features arrive after the records that need them), else none.
 */
static struct topology *file_topology(struct perf_file *f)
{
	struct errbuf err = { "" }, lerr = { "" };
	struct topology *t = perf_file__topology(f, &err);

	if (t)
		return t;
	if (perf_file__info(f)->pipe_mode || origin__same_machine(&perf_file__info(f)->origin))
		t = topology__read(NULL, &lerr);
	if (!t)
		fprintf(stderr, "schedlens sched: warning: %s: migrations left unclassified\n",
			lerr.msg[0] ? lerr.msg : err.msg);
	return t;
}
#endif

static int sched_file(const struct sched_opts *o, struct schedan_opts *ao, struct schedan **an,
		      struct topology **topo, char *cmdline, size_t len)
{
#ifdef HAVE_PERFDATA
	struct cmd_progress progress;
	struct errbuf err = { "" };
	struct stream_ops ops;
	struct perf_file *f;
	int ret;

	ret = perf_file__open(&f, o->input, &err);
	if (ret) {
		fprintf(stderr, "schedlens sched: %s\n", err.msg);
		return 1;
	}
	*topo = file_topology(f);
	ao->topo = *topo;
	*an = schedan__new(ao, &err);
	if (!*an) {
		fprintf(stderr, "schedlens sched: %s\n", err.msg);
		perf_file__delete(f);
		return 1;
	}
	schedan__ops(*an, &ops);
	cmd_progress__attach(&progress, f, o->input);
	ret = perf_file__run(f, &ops, &err);
	cmd_progress__end(&progress);
	snprintf(cmdline, len, "%s", perf_file__info(f)->cmdline ?: "");
	perf_file__delete(f);
	if (ret) {
		fprintf(stderr, "schedlens sched: %s\n",
			schedan__error(*an)[0] ? schedan__error(*an) : err.msg);
		return 1;
	}
	return 0;
#else
	(void)ao;
	(void)an;
	(void)topo;
	fprintf(stderr, "schedlens sched: cannot read '%s': this build has no perf.data reader\n",
		o->input);
	return 1;
#endif
}

/*
 * What a recording analysed: the command `perf record ... -- CMD` or `schedlens record ...
 * -- CMD` ran (the file's CMDLINE), else "recording", as "sched CMD" in @id.
 */
static void recorded_what(const char *cmdline, char *id, size_t len)
{
	const char *p = cmdline ? strstr(cmdline, " -- ") : NULL;
	size_t n;

	if (!p) {
		snprintf(id, len, "sched recording");
		return;
	}
	p += 4;
	/* schedlens record's own notes follow as one more argument */
	n = strstr(p, " " SYMBOLS_NOTE_PREFIX) ? (size_t)(strstr(p, " " SYMBOLS_NOTE_PREFIX) - p)
					       : strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	snprintf(id, len, "sched %.*s", (int)n, p);
}

static int sched_json(const struct sched_opts *o, struct schedan *an, const char *cmdline,
		      int code)
{
	static const char *const paths[] = { "same_cpu", "wakelist_ipi", "wakelist_poll",
					     "direct_ipi", "direct_poll", "direct_noipi",
					     "unknown" };
	json_t *doc = results__new("sched"), *params = json_object(), *entry, *it, *detail;
	struct errbuf err = { "" };
	struct schedan_lat l;
	char id[512], name[64];
	uint64_t total = 0, migr = 0;
	int c, ret = 1;

	if (!doc || !params)
		goto out;
	if (o->input) {
		recorded_what(cmdline, id, sizeof(id));
		json_object_set_new(params, "input", json_string(o->input));
	} else if (o->wl) {
		json_t *wp = o->wl->params ? o->wl->params(o->wl_cfg) : NULL;

		snprintf(id, sizeof(id), "sched bench %s", o->wl->name);
		if (wp)
			json_object_set_new(params, "workload", wp);
		json_object_set_new(params, "all_tasks", json_boolean(o->all));
	} else {
		size_t n = 0, i;

		n += snprintf(id + n, sizeof(id) - n, "sched");
		for (i = 0; o->argv[i] && n < sizeof(id); i++)
			n += snprintf(id + n, sizeof(id) - n, " %s", o->argv[i]);
		json_object_set_new(params, "command", json_string(id + 6));
		json_object_set_new(params, "all_tasks", json_boolean(o->all));
		if (o->cpus)
			json_object_set_new(params, "cpus", json_string(o->cpus));
	}
	if (o->name)
		snprintf(id, sizeof(id), "%s", o->name);
	entry = results__entry(doc, id, o->input ? "file" : o->wl ? o->wl->name : "command", params);
	it = entry ? results__add_iteration(entry) : NULL;
	detail = schedan__json(an);
	if (!it || !detail)
		goto out;
	schedan__latency(an, &l);
	for (c = 0; c < WAKE__NR; c++) {
		snprintf(name, sizeof(name), "wakeups_%s", paths[c]);
		results__declare(entry, name, "count", BETTER_NONE);
		results__set(it, name, (double)schedan__wakeups(an, c));
		total += schedan__wakeups(an, c);
	}
	for (c = 0; c < MIGR__NR; c++)
		migr += schedan__migrations(an, c);
	results__declare(entry, "wakeups", "count", BETTER_NONE);
	results__set(it, "wakeups", (double)total);
	results__declare(entry, "wakeup_p50", "us", BETTER_LOWER);
	results__set(it, "wakeup_p50", (double)l.p50 / 1e3);
	results__declare(entry, "wakeup_p99", "us", BETTER_LOWER);
	results__set(it, "wakeup_p99", (double)l.p99 / 1e3);
	results__declare(entry, "wakeup_max", "us", BETTER_LOWER);
	results__set(it, "wakeup_max", (double)l.max / 1e3);
	results__declare(entry, "migrations", "count", BETTER_LOWER);
	results__set(it, "migrations", (double)migr);
	json_object_set_new(it, "sched", detail);
	if (!o->input)
		json_object_set_new(it, "exit_status", json_integer(code));
	if (results__write(doc, "-", stdout, &err)) {
		fprintf(stderr, "schedlens sched: %s\n", err.msg);
		goto out;
	}
	ret = 0;
out:
	if (ret && !err.msg[0])
		fprintf(stderr, "schedlens sched: out of memory\n");
	json_decref(params);
	json_decref(doc);
	return ret;
}

static int sched_print(const struct sched_opts *o, struct schedan *an, struct topology *topo)
{
	struct schedan_report_opts ro = { .top = (size_t)o->top };
	char *text;

	if (o->topology && topo) {
		text = topology__describe(topo);
		if (text)
			printf("%s\n", text);
		free(text);
	}
	text = schedan__report(an, &ro);
	if (!text) {
		fprintf(stderr, "schedlens sched: out of memory\n");
		return 1;
	}
	fputs(text, stdout);
	free(text);
	if (fflush(stdout)) {
		fprintf(stderr, "schedlens sched: cannot write the report: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

static int run_sched(const struct sched_opts *o)
{
	struct schedan_opts ao = { 0 };
	struct errbuf err = { "" };
	char cache_dir[4096], cmdline[4096] = "";
	struct topology *topo = NULL;
	struct schedan *an = NULL;
	const char *w, *nl;
	int ret, code = 0;

	if (!o->input) {	/* a file brings its own (sched_file) */
		topo = topology__read(NULL, &err);
		if (!topo)
			fprintf(stderr, "schedlens sched: warning: %s: migrations left unclassified\n",
				err.msg);
	}
	ao.topo = topo;
	ao.kallsyms_path = o->kallsyms;
	ao.cache_dir = o->no_cache ? NULL : symbols__cache_dir(cache_dir, sizeof(cache_dir));
	ret = o->input ? sched_file(o, &ao, &an, &topo, cmdline, sizeof(cmdline))
		       : sched_live(o, &ao, &an, &code);
	if (ret)
		goto out;
	for (w = schedan__warnings(an); *w; w = nl + 1) {
		nl = strchr(w, '\n');
		if (!nl)
			break;
		fprintf(stderr, "schedlens sched: warning: %.*s\n", (int)(nl - w), w);
	}
	ret = o->json ? sched_json(o, an, cmdline, code) : sched_print(o, an, topo);
	if (!ret && code)
		ret = code;
out:
	schedan__delete(an);
	topology__delete(topo);
	return ret;
}

/* -m N: a power of two */
static int opt_mmap_pages(const struct option *opt, const char *arg, struct errbuf *err)
{
	long *pages = opt->data;

	if (parse_long(arg, 1, 1 << 20, pages) || (*pages & (*pages - 1)))
		return err__set(err, -EINVAL, "not a power of two from 1 to %d", 1 << 20);
	return 0;
}

int cmd_sched(int argc, char **argv)
{
	struct sched_opts o = { .top = 20, .mmap_pages = 1024 };
	struct errbuf err = { "" };
	const char *bench = NULL;
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "FILE", "read a perf.data file"),
		OPT_STRING_STOP(0, "bench", &bench, "NAME",
				"run a built-in workload in-process (see 'schedlens bench\n"
				"--list'); records only its measured phase"),
		OPT_FLAG('a', "all", &o.all,
			 "report every task (default with COMMAND: its tasks only)"),
		OPT_STRING('C', "cpus", &o.cpus, "LIST",
			   "record on these CPUs only (default: all online)"),
		OPT_CALLBACK('m', "mmap-pages", &o.mmap_pages, opt_mmap_pages, "N",
			     "ring buffer pages per CPU, a power of two (default 1024)"),
		OPT_FLAG(0, "json", &o.json,
			 "a results document (JSON) on stdout instead of tables"),
		OPT_STRING(0, "name", &o.name, "NAME",
			   "the document's entry id (default: what was analysed:\n"
			   "the workload, or with -i the command the file recorded,\n"
			   "so that two kernels' recordings compare)"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "FILE",
			   "symbols for IPI call sites (default /proc/kallsyms)"),
		OPT_FLAG(0, "no-cache", &o.no_cache,
			 "look IPI call sites up anew, not in the persistent cache\n"
			 "(see schedlens report)"),
		OPT_INT(0, "top", &o.top, 0, 1000000, "N",
			"rows per per-task table (default 20, 0: all)"),
		OPT_FLAG(0, "topology", &o.topology,
			 "print the CPU topology first (like numactl --hardware);\n"
			 "with -i, the recording machine's, from the file"),
		OPT_FLAG(0, "phase", &o.phase,
			 "COMMAND marks its measured phase (SCHEDLENS_CONTROL):\n"
			 "record only between its enable and disable (implied\n"
			 "for `schedlens bench ...` and --bench)"),
		OPT_STRING(0, "tracefs", &o.tracefs, "DIR",
			   "where tracefs is mounted (default /sys/kernel/tracing)"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens sched", sched_usage, opts,
					 OPTIONS_STOP_AT_NON_OPTION };
	int n, code;

	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0)
		return code;
	if (bench) {
		o.wl = workload__find(bench);
		if (!o.wl) {
			fprintf(stderr, "schedlens sched: '%s' is not a built-in workload; see "
					"'schedlens bench --list'\n", bench);
			return 2;
		}
		/* the workload's own options follow; its argv[0] is its name */
		argv[0] = (char *)bench;
		if (o.wl->parse(n + 1, argv, &o.wl_cfg, &err)) {
			fprintf(stderr, "schedlens sched: %s (see 'schedlens bench %s --help')\n",
				err.msg, bench);
			return 2;
		}
	} else if (n) {
		o.argv = argv + 1;
	}
	if (!!o.input + !!o.argv + !!o.wl != 1) {
		code = cmd_options__error(&cmd, "give one of -i FILE, --bench NAME or -- COMMAND");
		goto out;
	}
	if (o.input && (o.cpus || o.phase)) {
		fprintf(stderr, "schedlens sched: -C and --phase apply to live recording only\n");
		code = 2;
		goto out;
	}
	code = run_sched(&o);
out:
	if (o.wl && o.wl_cfg && o.wl->free)
		o.wl->free(o.wl_cfg);
	return code;
}
