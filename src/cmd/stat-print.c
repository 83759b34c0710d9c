// SPDX-License-Identifier: GPL-2.0
/* schedlens stat: the output, as perf stat prints it, as -x CSV and as a results document. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/results.h"
#include "schedlens/stats.h"
#include "stat-int.h"

/* why event @i did not open; 0 when it did (and for states without counters: unit tests) */
static int open_error(const struct stat_state *st, size_t i)
{
	return st->ctr ? counters__open_error(st->ctr, i) : 0;
}

/* the values of event @i over the runs where it counted */
static size_t event_values(const struct stat_state *st, size_t i, double *out)
{
	size_t r, n = 0;

	for (r = 0; r < st->nr_runs; r++)
		if (st->runs[r].v[i].counted)
			out[n++] = st->runs[r].v[i].scaled;
	return n;
}

/*
 * Event @i over every run, as perf stat aggregates it: the means of the count (scaled when
 * multiplexed), enabled and running times over the runs, and the standard error of the mean
 * count in percent. Runs where the event could not be opened count as zeros, as in perf.
 */
struct ev_agg {
	double val, ena, run;
	double noise_pct;
	bool supported;		/* opened: else <not supported> */
	bool ok;		/* enabled and running times are not zero: else <not counted> */
};

static void event_agg(const struct stat_state *st, size_t i, double *scratch, struct ev_agg *a)
{
	struct summary s;
	size_t r;

	memset(a, 0, sizeof(*a));
	a->supported = !open_error(st, i);
	for (r = 0; r < st->nr_runs; r++) {
		const struct counter_value *v = &st->runs[r].v[i];

		a->supported |= v->ena > 0;
		scratch[r] = v->counted ? v->scaled : 0;
		a->ena += (double)v->ena / (double)st->nr_runs;
		a->run += (double)v->run / (double)st->nr_runs;
	}
	if (st->nr_runs && !stats__summarize(scratch, st->nr_runs, &s)) {
		a->val = s.mean;
		a->noise_pct = s.sem_pct;
	}
	/* perf prints the mean times as integers and tests those */
	a->ok = a->supported && (uint64_t)a->run && (uint64_t)a->ena;
}

/* The counts perf's shadow metrics divide by (util/stat-shadow.c) */
enum shadow_base {
	BASE_NONE,
	BASE_NSECS,	/* task-clock and cpu-clock */
	BASE_CYCLES,
	BASE_BRANCHES,
	BASE_CACHEREFS,
	BASE_L1D,	/* the *-loads of these caches */
	BASE_L1I,
	BASE_LL,
	BASE_DTLB,
	BASE_ITLB,
	BASE_STALLED_FRONT,
	BASE_STALLED_BACK,
	BASE__NR,
};

#define CTX__NR 8

struct shadow {
	double sum[BASE__NR][CTX__NR];
	size_t n[BASE__NR][CTX__NR];
	double wall_ns;		/* mean elapsed time */
};

static bool is_hw(const struct perf_event_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == config;
}

static uint64_t cache_cfg(unsigned int cache, unsigned int result)
{
	return cache | PERF_COUNT_HW_CACHE_OP_READ << 8 | (uint64_t)result << 16;
}

static bool is_cache(const struct perf_event_attr *a, unsigned int cache, unsigned int result)
{
	return a->type == PERF_TYPE_HW_CACHE && a->config == cache_cfg(cache, result);
}

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_TASK_CLOCK ||
						 a->config == PERF_COUNT_SW_CPU_CLOCK);
}

static enum shadow_base base_of(const struct perf_event_attr *a)
{
	if (is_clock(a))
		return BASE_NSECS;
	if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES))
		return BASE_CYCLES;
	if (is_hw(a, PERF_COUNT_HW_BRANCH_INSTRUCTIONS))
		return BASE_BRANCHES;
	if (is_hw(a, PERF_COUNT_HW_CACHE_REFERENCES))
		return BASE_CACHEREFS;
	if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND))
		return BASE_STALLED_FRONT;
	if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_BACKEND))
		return BASE_STALLED_BACK;
	if (a->type == PERF_TYPE_HW_CACHE && a->config <= PERF_COUNT_HW_CACHE_ITLB)
		return BASE_L1D + (enum shadow_base)a->config; /* op read, result access */
	return BASE_NONE;
}

/* perf keeps one base per privilege context, except for the clocks (one for all) */
static int ctx_of(const struct perf_event_attr *a, enum shadow_base b)
{
	if (b == BASE_NSECS)
		return 0;
	return a->exclude_kernel | a->exclude_user << 1 | a->exclude_hv << 2;
}

static void shadow_init(const struct stat_state *st, struct shadow *sh)
{
	size_t i, r;

	memset(sh, 0, sizeof(*sh));
	for (r = 0; r < st->nr_runs; r++)
		sh->wall_ns += st->runs[r].elapsed_s * 1e9 / (double)st->nr_runs;
	for (i = 0; i < st->nr; i++) {
		const struct perf_event_attr *a = &st->evs[i].attr;
		enum shadow_base b = base_of(a);
		int ctx = ctx_of(a, b);

		/* perf updates a base with every run it read the event in */
		if (b == BASE_NONE || open_error(st, i))
			continue;
		for (r = 0; r < st->nr_runs; r++) {
			const struct counter_value *v = &st->runs[r].v[i];

			sh->sum[b][ctx] += v->counted ? v->scaled : 0;
			sh->n[b][ctx]++;
		}
	}
}

static double shadow_avg(const struct shadow *sh, enum shadow_base b, int ctx)
{
	return sh->n[b][ctx] ? sh->sum[b][ctx] / (double)sh->n[b][ctx] : 0;
}

/* perf's formats for the metric values */
enum metric_fmt {
	FMT_NONE,	/* nothing to print: the base was not counted */
	FMT_3F,		/* "%8.3f" */
	FMT_2F_SP,	/* "%7.2f " */
	FMT_2F_PCT,	/* "%7.2f%%" */
	FMT_3F_PCT,	/* "%8.3f %%" */
};

/*
 * One shadow metric as perf prints it: @val in format @fmt, then @unit. Instructions have a
 * second one on a line of its own when stalled cycles were counted: @stalled per insn.
 */
struct metric {
	enum metric_fmt fmt;
	const char *unit;	/* NULL: this event has no metric */
	char unit_buf[16];
	double val;
	bool has_stalled;
	double stalled;
};

#define STALLED_UNIT "stalled cycles per insn"


static int metric_format(const struct metric *m, char *buf, size_t len)
{
	switch (m->fmt) {
	case FMT_3F:
		return snprintf(buf, len, "%8.3f", m->val);
	case FMT_2F_SP:
		return snprintf(buf, len, "%7.2f ", m->val);
	case FMT_2F_PCT:
		return snprintf(buf, len, "%7.2f%%", m->val);
	case FMT_3F_PCT:
		return snprintf(buf, len, "%8.3f %%", m->val);
	case FMT_NONE:
	default:
		break;
	}
	buf[0] = '\0';
	return 0;
}

static void miss_ratio(const struct shadow *sh, enum shadow_base b, int ctx, double avg,
		       const char *unit, struct metric *m)
{
	double total = shadow_avg(sh, b, ctx);

	m->unit = unit;
	if (!sh->n[b][ctx])
		return;
	m->fmt = FMT_2F_PCT;
	m->val = total ? avg / total * 100.0 : 0;
}

/* perf's K/M/G steps: strictly above 1000 */
static void rate_metric(double per_sec, struct metric *m)
{
	static const char prefix[] = "KMG";
	int i;

	for (i = 0; i < 3 && per_sec > 1000.0; i++)
		per_sec /= 1000.0;
	snprintf(m->unit_buf, sizeof(m->unit_buf), "%.*s/sec", i ? 1 : 0, i ? prefix + i - 1 : "");
	m->unit = m->unit_buf;
	m->fmt = FMT_3F;
	m->val = per_sec;
}

/*
 * The metric perf stat prints after event @ev with mean count @avg (ns for the clocks),
 * following perf_stat__print_shadow_stats() of perf 6.1 for the events schedlens knows.
 */
static void metric_of(const struct shadow *sh, const struct perf_event_attr *a, double avg,
		      struct metric *m)
{
	static const struct {
		unsigned int cache;
		enum shadow_base base;
		const char *unit;
	} misses[] = {
		{ PERF_COUNT_HW_CACHE_L1D, BASE_L1D, "of all L1-dcache accesses" },
		{ PERF_COUNT_HW_CACHE_L1I, BASE_L1I, "of all L1-icache accesses" },
		{ PERF_COUNT_HW_CACHE_DTLB, BASE_DTLB, "of all dTLB cache accesses" },
		{ PERF_COUNT_HW_CACHE_ITLB, BASE_ITLB, "of all iTLB cache accesses" },
		{ PERF_COUNT_HW_CACHE_LL, BASE_LL, "of all LL-cache accesses" },
	};
	int ctx = ctx_of(a, BASE_CYCLES);
	double total;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
		total = shadow_avg(sh, BASE_CYCLES, ctx);
		m->unit = "insn per cycle";
		if (total) {
			m->fmt = FMT_2F_SP;
			m->val = avg / total;
		}
		/* perf: the larger of the frontend and backend stalls, per instruction */
		total = shadow_avg(sh, BASE_STALLED_FRONT, ctx);
		if (shadow_avg(sh, BASE_STALLED_BACK, ctx) > total)
			total = shadow_avg(sh, BASE_STALLED_BACK, ctx);
		if (total && avg) {
			m->has_stalled = true;
			m->stalled = total / avg;
		}
		return;
	}
	if (is_hw(a, PERF_COUNT_HW_BRANCH_MISSES)) {
		miss_ratio(sh, BASE_BRANCHES, ctx, avg, "of all branches", m);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(misses); i++) {
		if (is_cache(a, misses[i].cache, PERF_COUNT_HW_CACHE_RESULT_MISS)) {
			miss_ratio(sh, misses[i].base, ctx, avg, misses[i].unit, m);
			return;
		}
	}
	if (is_hw(a, PERF_COUNT_HW_CACHE_MISSES)) {
		total = shadow_avg(sh, BASE_CACHEREFS, ctx);
		m->unit = "of all cache refs";
		if (sh->n[BASE_CACHEREFS][ctx]) {
			m->fmt = FMT_3F_PCT;
			m->val = total ? avg * 100 / total : 0;
		}
		return;
	}
	if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND) ||
	    is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
		bool front = a->config == PERF_COUNT_HW_STALLED_CYCLES_FRONTEND;

		total = shadow_avg(sh, BASE_CYCLES, ctx);
		m->val = total ? avg / total * 100.0 : 0;
		m->unit = front ? "frontend cycles idle" : "backend cycles idle";
		m->fmt = front && !m->val ? FMT_NONE : FMT_2F_PCT;
		return;
	}
	if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
		total = shadow_avg(sh, BASE_NSECS, 0);
		m->unit = total ? "GHz" : "Ghz"; /* sic, perf's spelling without a clock */
		if (total) {
			m->fmt = FMT_3F;
			m->val = avg / total;
		}
		return;
	}
	if (is_clock(a)) {
		m->unit = "CPUs utilized";
		if (sh->wall_ns) {
			m->fmt = FMT_3F;
			m->val = avg / sh->wall_ns;
		}
		return;
	}
	if (sh->n[BASE_NSECS][0]) {
		total = shadow_avg(sh, BASE_NSECS, 0);
		rate_metric(total ? 1e9 * avg / total : 0, m);
	}
}

/* perf's METRIC_LEN: the width of the metric column of the table, " # " included */
#define METRIC_LEN 35

/* perf's print_metric_std(): " # " value unit, padded to METRIC_LEN; blanks without one */
static void metric_text(FILE *f, enum metric_fmt fmt, double val, const char *unit)
{
	struct metric m = { .fmt = fmt, .val = val };
	char buf[64];
	int n;

	if (fmt == FMT_NONE || !unit) {
		fprintf(f, "%-*s", METRIC_LEN, "");
		return;
	}
	n = 3 + metric_format(&m, buf, sizeof(buf));
	fprintf(f, " # %s %-*s", buf, METRIC_LEN - n - 1, unit);
}

/* perf's print_metric_csv(): the value (padding and any '%' after it cut off), the unit */
static void metric_csv(FILE *f, const char *sep, enum metric_fmt fmt, double val,
		       const char *unit)
{
	struct metric m = { .fmt = fmt, .val = val };
	char buf[64], *v, *end;

	if (fmt == FMT_NONE || !unit) {
		fprintf(f, "%s%s", sep, sep);
		return;
	}
	metric_format(&m, buf, sizeof(buf));
	for (v = buf; *v == ' '; v++)
		;
	for (end = v; (*end >= '0' && *end <= '9') || *end == '.'; end++)
		;
	*end = '\0';
	fprintf(f, "%s%s%s%s", sep, v, sep, unit + strspn(unit, " "));
}

static void print_group_digits(FILE *f, double v, int width)
{
	char digits[64], out[96];
	int n, i, j = 0, lead;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = (int)strlen(digits);
	lead = n % 3 ?: 3;
	for (i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			out[j++] = ',';
		out[j++] = digits[i];
	}
	out[j] = '\0';
	fprintf(f, "%*s", width, out);
}

static bool is_msec(const struct event_desc *ev)
{
	return is_clock(&ev->attr);
}

static double elapsed_mean(const struct stat_state *st, struct summary *s)
{
	double *e = calloc(st->nr_runs ?: 1, sizeof(double));
	size_t r;

	memset(s, 0, sizeof(*s));
	if (!e)
		return 0;
	for (r = 0; r < st->nr_runs; r++)
		e[r] = st->runs[r].elapsed_s;
	if (st->nr_runs)
		stats__summarize(e, st->nr_runs, s);
	free(e);
	return s->mean;
}

static void describe_target(const struct stat_opts *o, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	if (o->pid) {
		snprintf(buf, len, "process id '%d'", (int)o->pid);
		return;
	}
	if (o->system_wide && !o->argc) {
		snprintf(buf, len, "system wide");
		return;
	}
	used += (size_t)snprintf(buf, len, "%s", o->wl ? "schedlens bench " : "");
	for (i = 0; i < o->argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", o->argv[i]);
}

/* digits after the point: perf's get_precision(), two more than the error's first */
static int elapsed_precision(double sd)
{
	/* perf takes lround(ceil(-log10(0))) as 0 */
	if (sd > 1 || !(sd > 0))
		return 2;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/* The footer as perf stat prints it: elapsed, and the command's user and sys seconds */
static void print_footer(const struct stat_state *st, FILE *f)
{
	const struct stat_opts *o = st->o;
	struct summary es;
	double elapsed = elapsed_mean(st, &es);

	fprintf(f, "\n");
	if (o->repeat == 1) {
		fprintf(f, " %17.9f seconds time elapsed", elapsed);
		/* perf: one run of a command it started (not -p, -a or -C) */
		if (!o->pid && !o->system_wide && st->nr_runs == 1)
			fprintf(f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n",
				st->runs[0].user_s, st->runs[0].sys_s);
	} else {
		int prec = elapsed_precision(es.sem);

		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, es.mean, prec, es.sem);
		if (es.sem_pct)
			fprintf(f, "  ( +-%6.2f%% )", es.sem_pct);
	}
	fprintf(f, "\n\n");
}

/*
 * One event's line of perf stat's table (util/stat-display.c: abs_printout(), then the
 * metrics, then the noise and running percentages), after @prefix. @missing: <not supported>
 * or <not counted>, else @val counted; @noise_pct printed when non-zero, @run_pct when it is
 * below 100 (negative: never). Instructions' stalled cycles per insn go on a line of their
 * own, indented as perf's do_new_line_std() does.
 */
static void print_line_text(FILE *f, const char *prefix, const struct event_desc *ev,
			    const char *missing, double val, bool group, const struct metric *m,
			    double noise_pct, double run_pct)
{
	const char *unit = is_msec(ev) ? "msec" : "";

	fputs(prefix, f);
	if (missing) {
		fprintf(f, "%18s %-4s %-25s", missing, unit, ev->name);
		metric_text(f, FMT_NONE, 0, NULL);
	} else {
		if (is_msec(ev))
			fprintf(f, "%18.2f", val / 1e6);
		else if (group)
			print_group_digits(f, val, 18);
		else
			fprintf(f, "%18.0f", val);
		fprintf(f, " %-4s %-32s", unit, ev->name);
		metric_text(f, m->fmt, m->val, m->unit);
		if (m->has_stalled) {
			fprintf(f, "\n%s%49s", prefix, "");
			metric_text(f, FMT_2F_SP, m->stalled, STALLED_UNIT);
		}
	}
	if (noise_pct)
		fprintf(f, "  ( +-%6.2f%% )", noise_pct);
	if (run_pct >= 0 && run_pct < 99.995)
		fprintf(f, "  (%.2f%%)", run_pct);
	fprintf(f, "\n");
}

void stat__print_lines(const struct stat_state *st, FILE *f, const char *prefix, bool group)
{
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary s;
	struct shadow sh;
	struct metric m;
	size_t i, n, r;

	shadow_init(st, &sh);
	memset(&m, 0, sizeof(m));
	for (i = 0; vals && i < st->nr; i++) {
		const struct event_desc *ev = &st->evs[i];
		double run_pct = 0, ena = 0, run = 0;

		if (open_error(st, i) && !st->runs[0].v[i].ena) {
			print_line_text(f, prefix, ev, "<not supported>", 0, group, &m, 0, -1);
			continue;
		}
		for (r = 0; r < st->nr_runs; r++) {
			run_pct += st->runs[r].v[i].running_pct / (double)st->nr_runs;
			ena += (double)st->runs[r].v[i].ena;
			run += (double)st->runs[r].v[i].run;
		}
		n = event_values(st, i, vals);
		if (!n) {
			/* perf: the share it ran, where it was enabled at all */
			print_line_text(f, prefix, ev, "<not counted>", 0, group, &m, 0,
					ena ? 100.0 * run / ena : -1);
			continue;
		}
		stats__summarize(vals, n, &s);
		metric_of(&sh, &ev->attr, s.mean, &m);
		print_line_text(f, prefix, ev, NULL, s.mean, group, &m,
				st->nr_runs > 1 ? s.sem_pct : 0, run_pct);
		memset(&m, 0, sizeof(m));
	}
	free(vals);
}

void stat__print_text(const struct stat_state *st, FILE *f, bool group)
{
	bool multiplexed = false;
	char what[512];
	size_t i, r;

	describe_target(st->o, what, sizeof(what));
	fprintf(f, "\n Performance counter stats for '%s'", what);
	if (st->nr_runs > 1)
		fprintf(f, " (%zu runs)", st->nr_runs);
	fprintf(f, ":\n\n");
	stat__print_lines(st, f, "", group);
	for (i = 0; i < st->nr; i++) {
		double run_pct = 0;

		for (r = 0; r < st->nr_runs; r++)
			run_pct += st->runs[r].v[i].running_pct / (double)st->nr_runs;
		multiplexed |= st->runs[0].v[i].counted && run_pct < 99.995;
	}
	print_footer(st, f);
	if (multiplexed)
		fprintf(f, " Some events were multiplexed: values in parentheses are the share of\n"
			   " the time each counted; the counts above are scaled up from it.\n\n");
}

/*
 * perf stat -x's line per event (util/stat-display.c): value, unit, event, [variance with
 * -r,] running time in ns, running percentage, metric value, metric unit. Counts are
 * integers, the clocks milliseconds with two decimals; a count that is missing is
 * <not supported> or <not counted> with the metric fields empty. Instructions' stalled cycles
 * per insn follow on a line of their own: @prefix, three empty fields (perf's new_line_csv()),
 * then the metric's two.
 */
void stat__print_csv(const struct stat_state *st, FILE *f, const char *prefix)
{
	const char *sep = st->o->sep;
	double *scratch = calloc(st->nr_runs ?: 1, sizeof(double));
	struct shadow sh;
	struct ev_agg a;
	struct metric m;
	size_t i;

	shadow_init(st, &sh);
	for (i = 0; scratch && i < st->nr; i++) {
		const struct event_desc *ev = &st->evs[i];
		uint64_t run, ena;

		event_agg(st, i, scratch, &a);
		run = (uint64_t)a.run;
		ena = (uint64_t)a.ena;
		fputs(prefix, f);
		if (!a.ok)
			fprintf(f, "%s", a.supported ? "<not counted>" : "<not supported>");
		else if (is_msec(ev))
			fprintf(f, "%.2f", a.val / 1e6);
		else
			fprintf(f, "%.0f", a.val);
		fprintf(f, "%s%s%s%s", sep, is_msec(ev) ? "msec" : "", sep, ev->name);
		if (st->o->repeat > 1)
			fprintf(f, "%s%.2f%%", sep, a.noise_pct);
		/* perf's integer percentage: 100 * run / ena in u64 arithmetic */
		fprintf(f, "%s%" PRIu64 "%s%.2f", sep, run, sep,
			ena && run != ena ? (double)(100 * run / ena) : 100.0);
		if (a.ok)
			metric_of(&sh, &ev->attr, a.val, &m);
		else
			memset(&m, 0, sizeof(m));
		metric_csv(f, sep, m.fmt, m.val, m.unit);
		if (m.has_stalled) {
			fprintf(f, "\n%s%s%s%s", prefix, sep, sep, sep);
			metric_csv(f, sep, FMT_2F_SP, m.stalled, STALLED_UNIT);
		}
		fprintf(f, "\n");
	}
	free(scratch);
}

static const char *event_unit(const struct event_desc *ev)
{
	return is_msec(ev) ? "ns" : "count";
}

int stat__write_json(const struct stat_state *st, const char *path)
{
	const struct stat_opts *o = st->o;
	json_t *doc = results__new("stat"), *params, *entry, *argv, *summary;
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary s;
	char id[600];
	size_t i, r, n;
	int ret = -ENOMEM;

	if (!doc || !vals)
		goto out;
	describe_target(o, id, sizeof(id));
	argv = json_array();
	for (i = 0; i < (size_t)o->argc; i++)
		json_array_append_new(argv, json_string(o->argv[i]));
	params = json_pack("{s:o, s:b, s:s?, s:i}", "argv", argv, "system_wide", o->system_wide,
			   "cpus", o->cpus, "repeat", (int)o->repeat);
	entry = results__entry(doc, id, o->wl ? o->wl->name : "command", params);
	json_decref(params);
	if (!entry)
		goto out;
	json_object_set_new(entry, "counting", json_string(st->follow_phase ? "measured-phase"
									   : "exec-to-exit"));
	results__declare(entry, "elapsed", "s", BETTER_LOWER);
	for (i = 0; i < st->nr; i++)
		results__declare(entry, st->evs[i].name, event_unit(&st->evs[i]), BETTER_NONE);
	for (r = 0; r < st->nr_runs; r++) {
		json_t *it = results__add_iteration(entry), *ctrs = json_object();

		results__set(it, "elapsed", st->runs[r].elapsed_s);
		json_object_set_new(it, "exit_status", json_integer(st->runs[r].exit_code));
		for (i = 0; i < st->nr; i++) {
			const struct counter_value *v = &st->runs[r].v[i];
			int oe = open_error(st, i);

			if (v->counted)
				results__set(it, st->evs[i].name, v->scaled);
			json_object_set_new(
				ctrs, st->evs[i].name,
				json_pack("{s:b, s:s?, s:I, s:I, s:I, s:f}", "supported",
					  !(oe && !v->ena), "error",
					  oe && !v->ena ? strerror(-oe) : NULL, "value",
					  (json_int_t)v->val, "time_enabled_ns", (json_int_t)v->ena,
					  "time_running_ns", (json_int_t)v->run, "scaled", v->scaled));
		}
		json_object_set_new(it, "counters", ctrs);
	}
	/* derived from the iterations above, for readers of stat's output alone */
	summary = json_object();
	for (i = 0; i <= st->nr; i++) {
		const char *name = i < st->nr ? st->evs[i].name : "elapsed";

		n = results__values(entry, name, vals, st->nr_runs);
		if (!n || stats__summarize(vals, n, &s))
			continue;
		json_object_set_new(summary, name,
				    json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (int)s.n,
					      "mean", s.mean, "stddev", s.stddev, "sem", s.sem,
					      "sem_pct", s.sem_pct, "min", s.min, "max", s.max));
	}
	json_object_set_new(entry, "summary", summary);
	ret = results__write(doc, path, stdout, (struct errbuf *)&st->err);
out:
	free(vals);
	json_decref(doc);
	return ret;
}
