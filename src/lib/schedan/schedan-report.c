// SPDX-License-Identifier: GPL-2.0
/* The scheduler analyses as text tables and JSON (schedan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedan-int.h"

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double seconds(const struct schedan *a)
{
	return a->last_time > a->first_time ? (double)(a->last_time - a->first_time) / 1e9 : 0;
}

static int cmp_lat_count(const void *x, const void *y)
{
	const struct task *a = *(struct task *const *)x, *b = *(struct task *const *)y;

	if (a->nr_lat != b->nr_lat)
		return a->nr_lat < b->nr_lat ? 1 : -1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int cmp_tid(const void *x, const void *y)
{
	const struct task *a = *(struct task *const *)x, *b = *(struct task *const *)y;

	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int cmp_flips(const void *x, const void *y)
{
	const struct task *a = *(struct task *const *)x, *b = *(struct task *const *)y;

	if (a->flips != b->flips)
		return a->flips < b->flips ? 1 : -1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int cmp_wakers(const void *x, const void *y)
{
	const struct task *a = *(struct task *const *)x, *b = *(struct task *const *)y;

	if (a->nr_wakers != b->nr_wakers)
		return a->nr_wakers < b->nr_wakers ? 1 : -1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* "sym+0xoff" as perf's %pS, or the address when it has no symbol */
static void ipi_name(const char *sym, uint64_t off, uint64_t addr, char *buf, size_t len)
{
	if (sym)
		snprintf(buf, len, "%s+0x%llx", sym, (unsigned long long)off);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
}

static int cmp_ipi(const void *x, const void *y)
{
	const struct ipi_key *a = x, *b = y;

	return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

/* tasks sorted by @cmp, the ones included only; caller frees */
static struct task **sorted_tasks(const struct schedan *a, int (*cmp)(const void *, const void *),
				  size_t *n)
{
	struct task **v = malloc((a->nr_tasks ? a->nr_tasks : 1) * sizeof(*v));
	size_t i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < a->nr_tasks; i++)
		if (a->tasks[i]->included)
			v[(*n)++] = a->tasks[i];
	qsort(v, *n, sizeof(*v), cmp);
	return v;
}

static void task_name(const struct task *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s[%u]", t->comm[0] ? t->comm : ":?", t->tid);
}

static void lat_row(FILE *f, const char *name, const struct schedan_lat *l)
{
	fprintf(f, "  %-32s %8llu %9.3f %9.3f %9.3f %9.3f %9.3f\n", name,
		(unsigned long long)l->count, us(l->p50), us(l->p90), us(l->p99), us(l->p999),
		us(l->max));
}

static void report_latency(FILE *f, struct schedan *a, size_t top)
{
	struct task **v;
	size_t n, i;
	char name[64];

	fprintf(f, "Wakeup latency (usec): sched_%s to sched_switch in\n",
		a->waking_mode ? "waking" : "wakeup");
	if (a->lats.idx)
		fprintf(f, "  (a sketch past %zu wakeups: each percentile the largest of its "
			   "bucket, at most 1.6%% above the exact one)\n", a->lats.exact_max);
	fprintf(f, "  %-32s %8s %9s %9s %9s %9s %9s\n", "", "count", "p50", "p90", "p99", "p99.9",
		"max");
	lat_row(f, "all", &a->lat_all);
	if (a->nr_comms)
		fprintf(f, " per command:\n");
	for (i = 0; i < a->nr_comms && (!top || i < top); i++)
		lat_row(f, a->comms[i].comm, &a->comms[i].lat);
	v = sorted_tasks(a, cmp_lat_count, &n);
	if (v && n && v[0]->nr_lat)
		fprintf(f, " per task:\n");
	for (i = 0; v && i < n && (!top || i < top) && v[i]->nr_lat; i++) {
		task_name(v[i], name, sizeof(name));
		lat_row(f, name, &v[i]->lat);
	}
	free(v);
}

static void report_paths(FILE *f, struct schedan *a)
{
	uint64_t total = 0;
	const struct schedan_lat *l;
	int c;

	for (c = 0; c < WAKE__NR; c++)
		total += a->class_count[c];
	fprintf(f, "\nWakeup paths (usec; IPIs from %s)\n  %-16s %8s %7s %9s %9s %9s\n",
		schedan__ipi_source(a), "path", "count", "%", "p50", "p99", "max");
	for (c = 0; c < WAKE__NR; c++) {
		l = &a->lat_class[c];
		fprintf(f, "  %-16s %8llu %6.2f%% %9.3f %9.3f %9.3f\n", wake_class__name(c),
			(unsigned long long)a->class_count[c],
			total ? 100.0 * (double)a->class_count[c] / (double)total : 0.0, us(l->p50),
			us(l->p99), us(l->max));
	}
	fprintf(f, "  %-16s %8llu\n", "total", (unsigned long long)total);
	if (a->dropped)
		fprintf(f, "  (%llu wakeups in flight dropped at lost records)\n",
			(unsigned long long)a->dropped);
	if (a->missed)
		fprintf(f, "  (%llu wakeups left out: the wakee switched out with no recorded "
			   "switch in)\n", (unsigned long long)a->missed);
}

static void report_ipis(FILE *f, struct schedan *a)
{
	double s = seconds(a);
	char cs[160], cb[160];
	size_t i;

	if (!a->has[EV_IPI_SEND_CPU])
		return;
	if (a->nr_ipis)
		qsort(a->ipis, a->nr_ipis, sizeof(*a->ipis), cmp_ipi);
	fprintf(f, "\nIPIs (ipi:ipi_send_cpu)\n  %8s %10s  %s\n", "count", "per sec",
		"call site -> callback");
	for (i = 0; i < a->nr_ipis; i++) {
		ipi_name(a->ipis[i].cs_sym, a->ipis[i].cs_off, a->ipis[i].callsite, cs, sizeof(cs));
		ipi_name(a->ipis[i].cb_sym, a->ipis[i].cb_off, a->ipis[i].callback, cb, sizeof(cb));
		fprintf(f, "  %8llu %10.1f  %s -> %s\n", (unsigned long long)a->ipis[i].count,
			s > 0 ? (double)a->ipis[i].count / s : 0.0, cs, cb);
	}
}

static void report_migrations(FILE *f, struct schedan *a, size_t top)
{
	struct task **v;
	size_t n, i, rows = 0;
	uint64_t total = 0;
	char name[64];
	int c;

	if (!a->has[EV_MIGRATE])
		return;
	fprintf(f, "\nMigrations (sched_migrate_task)\n  %-32s %8s", "", "total");
	for (c = 0; c < MIGR__NR; c++)
		fprintf(f, " %10s", migr_class__name(c));
	fprintf(f, " %10s\n", "at-wakeup");
	for (c = 0; c < MIGR__NR; c++)
		total += a->migr[c];
	fprintf(f, "  %-32s %8llu", "all", (unsigned long long)total);
	for (c = 0; c < MIGR__NR; c++)
		fprintf(f, " %10llu", (unsigned long long)a->migr[c]);
	fprintf(f, " %10llu\n", (unsigned long long)a->wakeup_migr);
	v = sorted_tasks(a, cmp_tid, &n);
	for (i = 0; v && i < n && (!top || rows < top); i++) {
		uint64_t sum = 0;

		for (c = 0; c < MIGR__NR; c++)
			sum += v[i]->migrations[c];
		if (!sum)
			continue;
		rows++;
		task_name(v[i], name, sizeof(name));
		fprintf(f, "  %-32s %8llu", name, (unsigned long long)sum);
		for (c = 0; c < MIGR__NR; c++)
			fprintf(f, " %10llu", (unsigned long long)v[i]->migrations[c]);
		fprintf(f, " %10llu\n", (unsigned long long)v[i]->wakeup_migrations);
	}
	free(v);
}

static void report_flips(FILE *f, struct schedan *a, size_t top)
{
	double s = seconds(a);
	struct task **v;
	size_t n, i;
	char name[64];

	v = sorted_tasks(a, cmp_flips, &n);
	fprintf(f, "\nWakee flips per waker\n  %-32s %8s %8s %10s\n", "waker", "wakings", "flips",
		"flips/s");
	for (i = 0; v && i < n && (!top || i < top) && v[i]->wakings; i++) {
		task_name(v[i], name, sizeof(name));
		fprintf(f, "  %-32s %8llu %8llu %10.1f\n", name, (unsigned long long)v[i]->wakings,
			(unsigned long long)v[i]->flips, s > 0 ? (double)v[i]->flips / s : 0.0);
	}
	free(v);
	v = sorted_tasks(a, cmp_wakers, &n);
	fprintf(f, "\nDistinct wakers per wakee\n  %-32s %8s\n", "wakee", "wakers");
	for (i = 0; v && i < n && (!top || i < top) && v[i]->nr_wakers; i++) {
		task_name(v[i], name, sizeof(name));
		fprintf(f, "  %-32s %8u\n", name, v[i]->nr_wakers);
	}
	free(v);
}

static void report_runtime(FILE *f, struct schedan *a, size_t top)
{
	struct task **v;
	size_t n, i, rows = 0;
	char name[64];

	v = sorted_tasks(a, cmp_tid, &n);
	fprintf(f, "\nRuntime summary (switches and run time as perf sched timehist -s)\n"
		   "  %-32s %7s %9s %12s %10s %10s %12s %12s\n",
		"task", "parent", "switches", "run-time(ms)", "avg-run", "max-run", "wait(ms)",
		"sleep(ms)");
	for (i = 0; v && i < n && (!top || rows < top); i++) {
		const struct task *t = v[i];

		if (!t->switches)
			continue;
		rows++;
		task_name(t, name, sizeof(name));
		fprintf(f, "  %-32s %7u %9llu %12.3f %10.3f %10.3f %12.3f %12.3f%s\n", name, t->ppid,
			(unsigned long long)t->switches, ms(t->run_ns),
			ms(t->run_ns) / (double)t->switches, ms(t->max_run_ns), ms(t->wait_ns),
			ms(t->sleep_ns), t->exited ? "  (exited)" : "");
	}
	free(v);
}

char *schedan__report(struct schedan *a, const struct schedan_report_opts *o)
{
	size_t top = o ? o->top : 0, len = 0;
	const struct stream_stats *st = &a->stats;
	char *buf = NULL;
	FILE *f;

	if (schedan__percentiles(a))
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fprintf(f, "input: %s, %.3f ms, %llu records, %llu samples, lost %llu (%llu LOST records)\n\n",
		a->path, (double)seconds(a) * 1e3,
		(unsigned long long)st->nr_records, (unsigned long long)st->nr_samples,
		(unsigned long long)a->nr_lost, (unsigned long long)a->nr_lost_records);
	if (a->nr_short)
		fprintf(f, "%llu records shorter than their format: skipped\n\n",
			(unsigned long long)a->nr_short);
	report_latency(f, a, top);
	report_paths(f, a);
	report_ipis(f, a);
	report_migrations(f, a, top);
	report_flips(f, a, top);
	report_runtime(f, a, top);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static json_t *lat_json(const struct schedan_lat *l)
{
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "count", (json_int_t)l->count, "p50_us",
			 us(l->p50), "p90_us", us(l->p90), "p99_us", us(l->p99), "p99.9_us",
			 us(l->p999), "max_us", us(l->max));
}

static json_t *tasks_json(struct schedan *a)
{
	json_t *arr = json_array();
	struct task **v;
	size_t n, i;
	int c;

	v = sorted_tasks(a, cmp_tid, &n);
	for (i = 0; v && arr && i < n; i++) {
		struct task *t = v[i];
		json_t *m = json_object(), *o;

		for (c = 0; m && c < MIGR__NR; c++)
			json_object_set_new(m, migr_class__name(c), json_integer(t->migrations[c]));
		o = json_pack("{s:i,s:s,s:i,s:I,s:f,s:f,s:f,s:f,s:o,s:o,s:I,s:I,s:i,s:b}", "tid",
			      t->tid, "comm", t->comm, "parent", t->ppid, "switches",
			      (json_int_t)t->switches, "run_ms", ms(t->run_ns), "max_run_ms",
			      ms(t->max_run_ns), "wait_ms", ms(t->wait_ns), "sleep_ms",
			      ms(t->sleep_ns), "wakeup_latency", lat_json(&t->lat), "migrations",
			      m ? m : json_object(), "wakings", (json_int_t)t->wakings, "wakee_flips",
			      (json_int_t)t->flips, "distinct_wakers", t->nr_wakers, "exited",
			      t->exited);
		json_array_append_new(arr, o);
	}
	free(v);
	return arr;
}

static json_t *ipis_json(struct schedan *a)
{
	json_t *arr = json_array();
	double s = seconds(a);
	char cs[160], cb[160];
	size_t i;

	for (i = 0; arr && i < a->nr_ipis; i++) {
		ipi_name(a->ipis[i].cs_sym, a->ipis[i].cs_off, a->ipis[i].callsite, cs, sizeof(cs));
		ipi_name(a->ipis[i].cb_sym, a->ipis[i].cb_off, a->ipis[i].callback, cb, sizeof(cb));
		json_array_append_new(arr, json_pack("{s:s,s:s,s:I,s:f,s:b}", "callsite", cs,
						     "callback", cb, "count",
						     (json_int_t)a->ipis[i].count, "per_sec",
						     s > 0 ? (double)a->ipis[i].count / s : 0.0,
						     "wakelist", a->ipis[i].wakelist));
	}
	return arr;
}

json_t *schedan__json(struct schedan *a)
{
	json_t *o = json_object(), *classes = json_object(), *migr = json_object();
	json_t *comms = json_object(), *idle_llc = json_object();
	size_t i;
	int c;

	if (!o || !classes || !migr || !comms || !idle_llc || schedan__percentiles(a)) {
		json_decref(o);
		json_decref(classes);
		json_decref(migr);
		json_decref(comms);
		json_decref(idle_llc);
		return NULL;
	}
	for (c = 0; c < WAKE__NR; c++) {
		json_t *l = lat_json(&a->lat_class[c]);

		json_object_set_new(classes, wake_class__name(c), l ? l : json_null());
		json_object_set_new(idle_llc, wake_class__name(c),
				    json_integer((json_int_t)a->idle_llc_count[c]));
	}
	for (c = 0; c < MIGR__NR; c++)
		json_object_set_new(migr, migr_class__name(c), json_integer(a->migr[c]));
	json_object_set_new(migr, "at_wakeup", json_integer(a->wakeup_migr));
	for (i = 0; i < a->nr_comms; i++)
		json_object_set_new(comms, a->comms[i].comm, lat_json(&a->comms[i].lat));
	json_object_set_new(o, "input", json_string(a->path));
	json_object_set_new(o, "duration_s", json_real(seconds(a)));
	json_object_set_new(o, "records", json_integer(a->stats.nr_records));
	json_object_set_new(o, "samples", json_integer(a->stats.nr_samples));
	json_object_set_new(o, "lost", json_integer(a->nr_lost));
	json_object_set_new(o, "lost_records", json_integer(a->nr_lost_records));
	json_object_set_new(o, "dropped_wakeups", json_integer(a->dropped));
	json_object_set_new(o, "missed_switch_in", json_integer(a->missed));
	json_object_set_new(o, "short_payloads", json_integer(a->nr_short));
	json_object_set_new(o, "latency_from", json_string(a->waking_mode ? "sched_waking" :
									    "sched_wakeup"));
	json_object_set_new(o, "wakeup_latency", lat_json(&a->lat_all));
	json_object_set_new(o, "wakeup_latency_exact", json_boolean(!a->lats.idx));
	json_object_set_new(o, "wakeup_paths", classes);
	json_object_set_new(o, "wakeup_paths_idle_llc", idle_llc);
	json_object_set_new(o, "ipi_source", json_string(schedan__ipi_source(a)));
	json_object_set_new(o, "comms", comms);
	json_object_set_new(o, "ipis", ipis_json(a));
	json_object_set_new(o, "migrations", migr);
	json_object_set_new(o, "tasks", tasks_json(a));
	if (a->warnings[0])
		json_object_set_new(o, "warnings", json_string(a->warnings));
	return o;
}
