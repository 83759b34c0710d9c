// SPDX-License-Identifier: GPL-2.0
/* schedlens stat: the output, as perf stat prints it, as -x CSV and as a results document. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/results.h"
#include "schedlens/stats.h"
#include "stat-int.h"

/* the values of event @i over the runs where it counted */
static size_t event_values(const struct stat_state *st, size_t i, double *out)
{
	size_t r, n = 0;

	for (r = 0; r < st->nr_runs; r++)
		if (st->runs[r].v[i].counted)
			out[n++] = st->runs[r].v[i].scaled;
	return n;
}

static double event_mean(const struct stat_state *st, const char *name, bool *found)
{
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double)), mean = 0;
	size_t i, n;

	*found = false;
	for (i = 0; vals && i < st->nr; i++) {
		if (strcmp(st->evs[i].name, name))
			continue;
		n = event_values(st, i, vals);
		if (n) {
			struct summary s;

			stats__summarize(vals, n, &s);
			mean = s.mean;
			*found = true;
		}
		break;
	}
	free(vals);
	return mean;
}

static void rate(double per_sec, char *buf, size_t len)
{
	if (per_sec >= 1e9)
		snprintf(buf, len, "%8.3f G/sec", per_sec / 1e9);
	else if (per_sec >= 1e6)
		snprintf(buf, len, "%8.3f M/sec", per_sec / 1e6);
	else if (per_sec >= 1e3)
		snprintf(buf, len, "%8.3f K/sec", per_sec / 1e3);
	else
		snprintf(buf, len, "%8.3f /sec", per_sec);
}

/* perf's comment column for event @name with mean @v */
static void shadow(const struct stat_state *st, const char *name, double v, double elapsed,
		   char *buf, size_t len)
{
	static const struct {
		const char *miss, *base, *what;
	} ratios[] = {
		{ "branch-misses", "branches", "of all branches" },
		{ "cache-misses", "cache-references", "of all cache refs" },
		{ "L1-dcache-load-misses", "L1-dcache-loads", "of all L1-dcache accesses" },
		{ "LLC-load-misses", "LLC-loads", "of all LL-cache accesses" },
		{ "dTLB-load-misses", "dTLB-loads", "of all dTLB cache accesses" },
		{ "iTLB-load-misses", "iTLB-loads", "of all iTLB cache accesses" },
		{ "L1-icache-load-misses", "L1-icache-loads", "of all L1-icache accesses" },
	};
	bool f1, f2;
	double clock_ns = event_mean(st, "task-clock", &f1), base;
	size_t i;

	buf[0] = '\0';
	if (!strcmp(name, "task-clock") && elapsed > 0) {
		snprintf(buf, len, "# %8.3f CPUs utilized", v / 1e3 / elapsed);
		return;
	}
	if (!strcmp(name, "instructions")) {
		base = event_mean(st, "cycles", &f2);
		if (f2 && base > 0)
			snprintf(buf, len, "# %8.2f  insn per cycle", v / base);
		return;
	}
	if (!strcmp(name, "cycles") && f1 && clock_ns > 0) {
		snprintf(buf, len, "# %8.3f GHz", v / clock_ns);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(ratios); i++) {
		if (strcmp(name, ratios[i].miss))
			continue;
		base = event_mean(st, ratios[i].base, &f2);
		if (f2 && base > 0)
			snprintf(buf, len, "# %7.2f%% %s", 100.0 * v / base, ratios[i].what);
		return;
	}
	if (f1 && clock_ns > 0) {
		char r[32];

		rate(v / (clock_ns / 1e9), r, sizeof(r));
		snprintf(buf, len, "# %s", r);
	}
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
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
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

void stat__print_text(const struct stat_state *st, FILE *f, bool group)
{
	const struct stat_opts *o = st->o;
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary es, s;
	char what[512], note[96];
	bool multiplexed = false;
	double elapsed = elapsed_mean(st, &es);
	size_t i, n, r;

	describe_target(o, what, sizeof(what));
	fprintf(f, "\n Performance counter stats for '%s'", what);
	if (st->nr_runs > 1)
		fprintf(f, " (%zu runs)", st->nr_runs);
	fprintf(f, ":\n\n");
	for (i = 0; vals && i < st->nr; i++) {
		const struct event_desc *ev = &st->evs[i];
		double run_pct = 0;

		if (counters__open_error(st->ctr, i) && !st->runs[0].v[i].ena) {
			fprintf(f, "%18s      %s\n", "<not supported>", ev->name);
			continue;
		}
		n = event_values(st, i, vals);
		if (!n) {
			fprintf(f, "%18s      %s\n", "<not counted>", ev->name);
			continue;
		}
		stats__summarize(vals, n, &s);
		for (r = 0; r < st->nr_runs; r++)
			run_pct += st->runs[r].v[i].running_pct / (double)st->nr_runs;
		if (is_msec(ev))
			fprintf(f, "%18.2f msec %-33s", s.mean / 1e6, ev->name);
		else if (group)
			print_group_digits(f, s.mean, 18), fprintf(f, "      %-33s", ev->name);
		else
			fprintf(f, "%18.0f      %-33s", s.mean, ev->name);
		shadow(st, ev->name, is_msec(ev) ? s.mean / 1e6 : s.mean, elapsed, note,
		       sizeof(note));
		if (st->nr_runs > 1 && s.mean != 0)
			fprintf(f, "%-36s( +- %5.2f%% )", note, s.sem_pct);
		else
			fprintf(f, "%s", note);
		if (run_pct < 99.995) {
			fprintf(f, "  (%.2f%%)", run_pct);
			multiplexed = true;
		}
		fprintf(f, "\n");
	}
	if (st->nr_runs > 1)
		fprintf(f, "\n %16.4f +- %.4f seconds time elapsed  ( +- %5.2f%% )\n\n", es.mean,
			es.sem, es.sem_pct);
	else
		fprintf(f, "\n %16.9f seconds time elapsed\n\n", elapsed);
	if (multiplexed)
		fprintf(f, " Some events were multiplexed: values in parentheses are the share of\n"
			   " the time each counted; the counts above are scaled up from it.\n\n");
	free(vals);
}

void stat__print_csv(const struct stat_state *st, FILE *f)
{
	const char *sep = st->o->sep;
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary es, s;
	double elapsed = elapsed_mean(st, &es);
	char note[96];
	size_t i, n;

	for (i = 0; vals && i < st->nr; i++) {
		const struct event_desc *ev = &st->evs[i];

		n = event_values(st, i, vals);
		if (!n) {
			fprintf(f, "%s%s%s%s\n",
				counters__open_error(st->ctr, i) ? "<not supported>" : "<not counted>",
				sep, sep, ev->name);
			continue;
		}
		stats__summarize(vals, n, &s);
		shadow(st, ev->name, is_msec(ev) ? s.mean / 1e6 : s.mean, elapsed, note,
		       sizeof(note));
		fprintf(f, "%.2f%s%s%s%s%s%.2f%%\n", is_msec(ev) ? s.mean / 1e6 : s.mean, sep,
			is_msec(ev) ? "msec" : "", sep, ev->name, sep, s.sem_pct);
	}
	free(vals);
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
			int oe = counters__open_error(st->ctr, i);

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
	ret = results__write(doc, path, (struct errbuf *)&st->err);
out:
	free(vals);
	json_decref(doc);
	return ret;
}
