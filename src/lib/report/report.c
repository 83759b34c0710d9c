// SPDX-License-Identifier: GPL-2.0
/*
 * The report library's session (report.h): a record stream into per-event histograms by sort
 * keys (shares by period and by sample count), the symbol attribution (report-sym.c) and the
 * kernel samples by place (report-kagg.c); report-print.c prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/focus.h"
#include "report-int.h"

static int rep_begin(void *ctx, const struct stream_info *info)
{
	struct report *r = ctx;
	size_t i;
	int ret;

	r->info = info;
	r->nr = info->nr_evsels;
	ret = sample_filter__check(r->filter, info, r->o->input, r->err);
	if (ret)
		return ret;
	ret = report__sym_begin(r, info);	/* first: a vmlinux refused leaves nothing to print */
	if (ret)
		return ret;
	r->hists = calloc(r->nr ?: 1, sizeof(*r->hists));
	r->lost = calloc(r->nr ?: 1, sizeof(*r->lost));
	r->nr_samples = calloc(r->nr ?: 1, sizeof(*r->nr_samples));
	r->period = calloc(r->nr ?: 1, sizeof(*r->period));
	r->period_out = calloc(r->nr ?: 1, sizeof(*r->period_out));
	if (!r->hists || !r->lost || !r->nr_samples || !r->period || !r->period_out)
		return -ENOMEM;
	for (i = 0; i < r->nr; i++) {
		r->hists[i] = hist__new(r->o->sorts, r->o->nr_sorts);
		if (!r->hists[i])
			return -ENOMEM;
	}
	r->sread = sample_read__new(info, &ret);
	if (ret)
		return ret;
	if (r->symrep && !symrep__per_place(r->symrep))
		return 0;
	for (i = 0; i < r->o->nr_sorts; i++)	/* else samples on any cpu share an entry */
		if (r->o->sorts[i] == HIST_SORT_CPU)
			r->memo_cpu = ~0u;
	r->memo = calloc(REPORT_MEMO_SIZE, sizeof(*r->memo));
	if (!r->memo)
		return -ENOMEM;
	if (r->kagg_allowed && report__kagg_eligible(r, info->pipe_mode)) {
		ret = report__kagg_new(r);
		if (!ret)	/* they come to rep_sample as they are read */
			r->ops.unordered = 1u << PERF_RECORD_MISC_KERNEL;
	}
	return ret;
}

int report__place(struct report *r, const struct stream_sample *s, struct hist_key *k,
		  const struct tmap **map)
{
	struct taddr al;
	int ret = threads__resolve(r->threads, s->pid, s->tid, s->misc, s->ip, &al);

	if (ret)
		return ret;
	*k = (struct hist_key){ .comm = al.comm, .dso = al.map ? al.map->dso : r->unknown,
				.addr = al.addr, .level = al.level, .pid = s->pid, .tid = s->tid,
				.cpu = s->cpu };
	ret = r->symrep ? report__sym_sample(r, s, &al, k) : 0;
	if (map)
		*map = al.map;	/* (the frame the skid rule moved to, if it did) */
	return ret;
}

void report__unfiltered_out(struct report *r, size_t idx, uint64_t nr, uint64_t period)
{
	if (!r->o->relative || idx >= r->nr)
		return;
	r->nr_samples[idx] -= nr;
	r->period[idx] -= period;
	r->period_out[idx] += period;
}

/* perf's --pid, --tid and --comms (the thread's name at the sample) */
static bool thread_wanted(struct report *r, const struct stream_sample *s)
{
	struct taddr al = { 0 };

	if (sample_filter__by_comm(r->filter) &&
	    threads__resolve(r->threads, s->pid, s->tid, s->misc, s->ip, &al))
		al.comm = NULL;
	return sample_filter__thread_ok(r->filter, s, al.comm);
}

/* perf's --dsos (the map's short or recorded name; none without a map) and --symbols, of
 * the place report__place() found */
static bool place_wanted(const struct report *r, const struct tmap *map,
			 const struct hist_key *k)
{
	return sample_filter__place_ok(r->filter, map ? map->dso : NULL, map ? map->path : NULL,
				       k->sym_name);
}

static int rep_one_sample(void *ctx, const struct stream_sample *s)
{
	struct report *r = ctx;
	struct report_memo *m = NULL;
	struct hist_key k = { 0 };
	uint64_t gen = 0;
	const struct tmap *map;
	int ret;

	if (!s->evsel || (size_t)s->evsel->idx >= r->nr)
		return 0;
	if (!sample_filter__time_cpu_ok(r->filter, s))
		return 0;	/* --time, -C: counted nowhere, as perf's */
	r->nr_samples[s->evsel->idx]++;
	r->period[s->evsel->idx] += s->period;
	if (r->filter && !thread_wanted(r, s)) {	/* in no row; in the totals, perf's */
		report__unfiltered_out(r, s->evsel->idx, 1, s->period);	/* default */
		return 0;
	}
	if (r->symrep && r->labels)	/* rows by label: the hists are not shown */
		return report__label_sample(r, s);
	if (r->memo) {
		uint32_t cpu = s->cpu & r->memo_cpu;

		gen = threads__generation(r->threads) + 1;
		m = &r->memo[(s->ip ^ s->ip >> 12 ^ s->tid * 0x9e3779b1u ^ cpu << 5) &
			     (REPORT_MEMO_SIZE - 1)];
		if (m->gen == gen && m->ip == s->ip && m->tid == s->tid && m->pid == s->pid &&
		    m->cpu == cpu && m->misc == s->misc && m->evidx == (uint32_t)s->evsel->idx) {
			if (r->symrep)
				symrep__repeat(r->symrep, s, m->sym);
			hist__add_at(r->hists[s->evsel->idx], m->idx, s->period);
			return 0;
		}
	}
	ret = report__place(r, s, &k, &map);
	if (ret)
		return ret;
	if (sample_filter__by_place(r->filter) && !place_wanted(r, map, &k)) {
		report__unfiltered_out(r, s->evsel->idx, 1, s->period);
		return 0;	/* as the thread filters */
	}
	if (r->o->sym.folded || r->focus)
		return 0;	/* symrep's stacks are the output: the hists are not shown */
	if (!m)
		return hist__add(r->hists[s->evsel->idx], &k, s->period);
	ret = hist__add_idx(r->hists[s->evsel->idx], &k, s->period, &m->idx);
	*m = (struct report_memo){ .ip = s->ip, .pid = s->pid, .tid = s->tid,
				   .cpu = s->cpu & r->memo_cpu, .gen = ret ? 0 : gen, .misc = s->misc,
				   .evidx = (uint32_t)s->evsel->idx, .idx = m->idx,
				   .sym = k.sym_name };
	return ret;
}

/* a sample that read its group's counters (:S) stands for one sample per value, as in perf */
static int rep_sample(void *ctx, const struct stream_sample *s)
{
	struct report *r = ctx;

	/* (kernel samples by place: no filter and no counter reads, report__kagg_eligible()) */
	if (r->kagg && (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
		return report__kagg_sample(r, s);
	if (r->sread && sample_read__reads(s->evsel))
		return sample_read__deliver(r->sread, s, rep_one_sample, r);
	return rep_one_sample(r, s);
}

static int rep_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		    uint64_t time)
{
	struct report *r = ctx;
	const uint32_t tids[2] = { tid, pid };	/* (a lookup of a thread makes its leader) */
	const char *before[2];
	int ret;

	if (!report__kagg_by_thread(r))
		return threads__comm(r->threads, pid, tid, comm, exec);
	report__kagg_watch(r, tids, 2, before);
	ret = threads__comm(r->threads, pid, tid, comm, exec);
	return ret ?: report__kagg_changed(r, tids, 2, before, time);
}

static int rep_mmap(void *ctx, const struct stream_mmap *m)
{
	struct report *r = ctx;

	return threads__mmap(r->threads, m);
}

static int rep_task(void *ctx, const struct stream_task *t)
{
	struct report *r = ctx;
	const uint32_t tids[4] = { t->tid, t->pid, t->ptid, t->ppid };
	const char *before[4];
	int ret;

	if (!t->fork || !report__kagg_by_thread(r))
		return threads__task(r->threads, t, t->misc);
	report__kagg_watch(r, tids, 4, before);
	ret = threads__task(r->threads, t, t->misc);
	return ret ?: report__kagg_changed(r, tids, 4, before, t->time);
}

static int rep_flushed(void *ctx, uint64_t limit)
{
	return report__kagg_flushed(ctx, limit);
}

static int rep_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	return 0;
}

int report__new(struct report **out, const struct report_opts *o, struct perf_file *f,
		bool unordered, struct errbuf *err)
{
	struct report *r = calloc(1, sizeof(*r));
	int ret = -ENOMEM;
	size_t i;

	*out = NULL;
	if (!r)
		return err__set(err, -ENOMEM, "out of memory");
	*r = (struct report){ .o = o, .f = f, .kagg_allowed = unordered, .err = err };
	r->ops = (struct stream_ops){ .ctx = r, .begin = rep_begin, .sample = rep_sample,
				      .comm = rep_comm, .mmap = rep_mmap, .task = rep_task,
				      .lost = rep_lost, .flushed = rep_flushed,
				      .no_formats = true };
	r->threads = threads__new();
	if (!r->threads || !(r->unknown = threads__intern(r->threads, "[unknown]"))) {
		err__set(err, -ENOMEM, "out of memory");
		goto out_delete;
	}
	r->filter = sample_filter__new(&o->filter, &ret, err);
	if (ret)
		goto out_delete;
	/* perf's sort_entry__setup_elide(): a column that would show one name is a line */
	for (i = 0; i < o->sym.nr_keys; i++)
		if (o->sym.keys[i] <= SYMREP_SYM)
			r->elide[o->sym.keys[i]] = sample_filter__only(r->filter,
				o->sym.keys[i] == SYMREP_COMM ? SAMPLE_FILTER_COMMS :
				o->sym.keys[i] == SYMREP_DSO ? SAMPLE_FILTER_DSOS : SAMPLE_FILTER_SYMBOLS);
	ret = -ENOMEM;
	if (o->focus && !(r->focus = focus__load(o->focus, SCHEDLENS_DATADIR, err))) {
		ret = -ENOENT;
		goto out_delete;
	}
	*out = r;
	return 0;
out_delete:
	report__delete(r);
	return ret;
}

struct stream_ops *report__ops(struct report *r)
{
	return &r->ops;
}

int report__finish(struct report *r, bool *again)
{
	int ret = 0;

	*again = false;
	if (r->kagg)
		ret = report__kagg_finish(r, again);
	if (r->symrep && !*again) {
		int fin = symrep__finish(r->symrep);

		ret = ret ?: fin;
	}
	return ret;
}

int report__print(struct report *r, const struct stream_stats *st, FILE *out, FILE *notes)
{
	if (!r->hists)	/* the input had no events: nothing began */
		return 0;
	r->out = out;
	r->notes = notes;
	return report__print_tables(r, st);
}

uint64_t report__nr_samples(const struct report *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; r->nr_samples && i < r->nr; i++)
		n += r->nr_samples[i];
	return n;
}

void report__save_cache(struct report *r)
{
	if (r->syms)
		symbols__cache_save(r->syms);
}

void report__delete(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; r->hists && i < r->nr; i++)
		hist__delete(r->hists[i]);
	free(r->hists);
	free(r->lost);
	free(r->nr_samples);
	free(r->period);
	free(r->period_out);
	free(r->memo);
	free(r->groups);
	sample_read__delete(r->sread);
	report__kagg_delete(r);
	symrep__delete(r->symrep);
	symbols__delete(r->syms);	/* before the machine it observes */
	threads__delete(r->threads);
	focus__delete(r->focus);
	sample_filter__delete(r->filter);
	free(r);
}
