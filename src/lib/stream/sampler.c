// SPDX-License-Identifier: GPL-2.0
/* The live record source: libperf fds and ring buffers, merged in time order (sampler.h). */
#include <errno.h>
#include <event-parse.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream-int.h"

#define DEFAULT_PAGES 512

/* in libperf.a, not in its public headers (internal/evsel.h) */
void perf_evsel__free_id(struct perf_evsel *evsel);
#define FORCED_SAMPLE_TYPE \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

struct qrec {
	uint64_t time, seq;
	struct perf_event_header h;	/* the record follows, h.size bytes in all */
};

struct id_map {
	uint64_t id;
	int idx;
};

struct sampler {
	struct perf_evlist *evlist;
	struct perf_evsel **pe;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct stream_evsel *evsels;
	size_t nr_evsels;
	struct stream_info info;
	struct stream_stats stats;
	struct id_map *ids;
	size_t nr_ids, nr_user;		/* events the caller asked for, tracking excluded */
	struct qrec **heap;
	size_t nr_heap, cap_heap;
	uint64_t seq, max_time, flush_limit;
	bool begun, ended;
};

static int libperf_quiet(enum libperf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int id_cmp(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct stream_evsel *sampler__evsel(const struct sampler *s, uint64_t id)
{
	struct id_map key = { .id = id }, *m;

	if (s->nr_evsels == 1)
		return &s->evsels[0];
	m = bsearch(&key, s->ids, s->nr_ids, sizeof(key), id_cmp);
	return m ? &s->evsels[m->idx] : NULL;
}

static void open_strerror(const struct stream_evsel *ev, int ret, char *buf, size_t len)
{
	int e = -ret;

	if (e == EACCES || e == EPERM)
		snprintf(buf, len,
			 "cannot open '%s': %s (kernel.perf_event_paranoid too high: run as root, "
			 "with CAP_PERFMON, or sysctl kernel.perf_event_paranoid=-1)",
			 ev->name, strerror(e));
	else if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
		snprintf(buf, len, "cannot open '%s': %s (not supported on this machine)",
			 ev->name, strerror(e));
	else
		snprintf(buf, len, "cannot open '%s': %s", ev->name, strerror(e));
}

/*
 * Make each group's first event its leader, as perf record opens {A,B}: libperf opens an
 * evsel on its leader's fd. libperf sets leaders only for a whole evlist, so each group goes
 * through one of its own, then every evsel back to the sampler's in order.
 */
static size_t group_size(const struct sampler_opts *o, size_t i)
{
	return o->group_sizes && i < o->nr_events ? o->group_sizes[i] : 0;
}

static int sampler__set_groups(struct sampler *s, const struct sampler_opts *o,
			       struct errbuf *err)
{
	struct perf_evlist *tmp;
	size_t i, k, g;

	for (i = 0; i < s->nr_evsels; i++)
		perf_evlist__remove(s->evlist, s->pe[i]);
	for (i = 0; i < o->nr_events; i += g ?: 1) {
		g = group_size(o, i);
		if (g < 2)
			continue;
		tmp = perf_evlist__new();
		if (!tmp)
			return err__set(err, -ENOMEM, "out of memory");
		for (k = i; k < i + g; k++)
			perf_evlist__add(tmp, s->pe[k]);
		perf_evlist__set_leader(tmp);
		for (k = i; k < i + g; k++)
			perf_evlist__remove(tmp, s->pe[k]);
		perf_evlist__delete(tmp);
	}
	for (i = 0; i < s->nr_evsels; i++)
		perf_evlist__add(s->evlist, s->pe[i]);
	return 0;
}

static int sampler__add_events(struct sampler *s, const struct sampler_opts *o,
			       struct errbuf *err)
{
	size_t i, n = o->nr_events + !!o->tracking, group_end = 0, leader = 0;

	s->evsels = calloc(n, sizeof(*s->evsels));
	s->pe = calloc(n, sizeof(*s->pe));
	if (!s->evsels || !s->pe)
		return err__set(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct stream_evsel *ev = &s->evsels[i];
		struct perf_event_attr *a = &ev->attr;

		if (i < o->nr_events) {
			*a = o->events[i].attr;
			snprintf(ev->name, sizeof(ev->name), "%s", o->events[i].name);
		} else {
			memset(a, 0, sizeof(*a));
			a->type = PERF_TYPE_SOFTWARE;
			a->config = PERF_COUNT_SW_DUMMY;
			a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
			/* MMAP2 with the file's build-id (5.12+), as perf record --buildid-mmap: a
			 * report elsewhere or later can tell a rebuilt binary (sampler__open falls
			 * back without it) */
			a->build_id = 1;
			/* DWARF unwinding reads .eh_frame_hdr from read-only segments too */
			for (size_t j = 0; j < o->nr_events; j++)
				if (o->events[j].attr.sample_type & PERF_SAMPLE_STACK_USER)
					a->mmap_data = 1;
			snprintf(ev->name, sizeof(ev->name), "dummy:tracking");
		}
		a->size = sizeof(*a);
		a->sample_type |= FORCED_SAMPLE_TYPE;
		a->sample_id_all = 1;
		/* ids, and the samples each event lost (6.0+), as perf 6.1 asks */
		a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
		/* a group's members count when its leader does (perf: disabled on leaders only) */
		if (i < o->nr_events && group_size(o, i) > 1 && i >= group_end) {
			if (i + group_size(o, i) > o->nr_events)
				return err__set(err, -EINVAL, "group of '%s': %zu events, %zu given",
						o->events[i].name, group_size(o, i),
						o->nr_events - i);
			leader = i;
			group_end = i + group_size(o, i);
		}
		a->disabled = !(i < group_end && i != leader);
		/* the kernel takes no PERF_SAMPLE_READ with inherit (perf turns it off too) */
		a->inherit = o->pid > 0 && !o->no_inherit && !(a->sample_type & PERF_SAMPLE_READ);
		ev->idx = (int)i;
		s->pe[i] = perf_evsel__new(a);
		if (!s->pe[i])
			return err__set(err, -ENOMEM, "out of memory");
		perf_evlist__add(s->evlist, s->pe[i]);
		s->nr_evsels++;
	}
	return group_end ? sampler__set_groups(s, o, err) : 0;
}

static int sampler__maps(struct sampler *s, const struct sampler_opts *o, struct errbuf *err)
{
	if (o->pid > 0) {
		s->cpus = o->no_inherit ? perf_cpu_map__dummy_new() : perf_cpu_map__new(NULL);
		s->threads = perf_thread_map__new_array(1, (pid_t[]){ o->pid });
	} else {
		s->cpus = perf_cpu_map__new(o->cpus);
		s->threads = perf_thread_map__new_dummy();
	}
	if (!s->cpus || perf_cpu_map__nr(s->cpus) < 1)
		return err__set(err, -EINVAL, "'%s' is not a valid cpu list", o->cpus ? o->cpus : "");
	if (!s->threads)
		return err__set(err, -ENOMEM, "out of memory");
	perf_evlist__set_maps(s->evlist, s->cpus, s->threads);
	return 0;
}

/*
 * What an older kernel rejects with EINVAL, newest first: PERF_FORMAT_LOST (6.0), build-ids
 * in MMAP2 (5.12). Drops one from @a and says so, or false when there is none left to drop.
 */
static bool drop_newest(struct perf_event_attr *a)
{
	if (a->read_format & PERF_FORMAT_LOST) {
		a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		return true;
	}
	if (a->build_id) {
		a->build_id = 0;
		return true;
	}
	return false;
}

static int sampler__open(struct sampler *s, struct errbuf *err)
{
	int ncpu = perf_cpu_map__nr(s->cpus), first = 0, ret, c;
	size_t i, len = 0;
	char one[512];

	for (i = 0; i < s->nr_evsels; i++) {
		ret = perf_evsel__open(s->pe[i], perf_evsel__cpus(s->pe[i]),
				       perf_evsel__threads(s->pe[i]));
		while (ret == -EINVAL && drop_newest(perf_evsel__attr(s->pe[i]))) {
			s->evsels[i].attr = *perf_evsel__attr(s->pe[i]);
			ret = perf_evsel__open(s->pe[i], perf_evsel__cpus(s->pe[i]),
					       perf_evsel__threads(s->pe[i]));
		}
		if (!ret)
			continue;
		open_strerror(&s->evsels[i], ret < 0 ? ret : -EINVAL, one, sizeof(one));
		if (err && len < sizeof(err->msg))
			len += snprintf(err->msg + len, sizeof(err->msg) - len, "%s%s",
					len ? "; " : "", one);
		if (!first)
			first = ret < 0 ? ret : -EINVAL;
	}
	if (first)
		return first;
	s->ids = calloc(s->nr_evsels * (size_t)ncpu, sizeof(*s->ids));
	if (!s->ids)
		return err__set(err, -ENOMEM, "out of memory");
	for (i = 0; i < s->nr_evsels; i++) {
		s->evsels[i].ids = calloc((size_t)ncpu, sizeof(uint64_t));
		if (!s->evsels[i].ids)
			return err__set(err, -ENOMEM, "out of memory");
		for (c = 0; c < ncpu; c++) {
			struct perf_counts_values v;

			ret = perf_evsel__read(s->pe[i], c, 0, &v);
			if (ret)
				return err__set(err, ret, "cannot read the id of '%s': %s",
						s->evsels[i].name, strerror(-ret));
			s->evsels[i].ids[s->evsels[i].nr_ids++] = v.id;
			s->ids[s->nr_ids++] = (struct id_map){ v.id, (int)i };
		}
	}
	qsort(s->ids, s->nr_ids, sizeof(*s->ids), id_cmp);
	return 0;
}

struct sampler *sampler__new(const struct sampler_opts *o, struct errbuf *err)
{
	struct sampler *s;
	int pages = o->mmap_pages ? o->mmap_pages : DEFAULT_PAGES, ret;
	size_t i;
	bool tp = false;

	if (pages & (pages - 1)) {
		err__set(err, -EINVAL, "mmap pages '%d' is not a power of two", pages);
		return NULL;
	}
	if (!o->nr_events) {
		err__set(err, -EINVAL, "no events to open");
		return NULL;
	}
	libperf_init(libperf_quiet);
	s = calloc(1, sizeof(*s));
	if (!s) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	s->evlist = perf_evlist__new();
	if (!s->evlist) {
		err__set(err, -ENOMEM, "out of memory");
		goto out_delete;
	}
	if (sampler__add_events(s, o, err) || sampler__maps(s, o, err))
		goto out_delete;
	for (i = 0; i < s->nr_evsels; i++)
		tp |= s->evsels[i].attr.type == PERF_TYPE_TRACEPOINT;
	if (tp) {
		s->info.tep = sampler_tep__load(o->tracefs, s->evsels, s->nr_evsels, err);
		if (!s->info.tep)
			goto out_delete;
	}
	if (sampler__open(s, err))
		goto out_delete;
	ret = perf_evlist__mmap(s->evlist, pages);
	if (ret) {
		err__set(err, ret < 0 ? ret : -ENOMEM,
			 "cannot mmap the ring buffers (%d pages each): %s", pages,
			 strerror(ret < 0 ? -ret : ENOMEM));
		goto out_delete;
	}
	s->info.evsels = s->evsels;
	s->info.nr_evsels = s->nr_evsels;
	s->info.path = "(live)";
	origin__live(&s->info.origin);
	s->info.big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	s->info.nr_cpus_online = (uint32_t)perf_cpu_map__nr(s->cpus);
	s->info.nr_cpus_avail = s->info.nr_cpus_online;
	s->nr_user = o->nr_events;
	/* tracking records (fork, comm, mmap) flow outside the measured phase too */
	for (i = s->nr_user; i < s->nr_evsels; i++)
		perf_evsel__enable(s->pe[i]);
	if (!o->start_disabled)
		sampler__enable(s);
	return s;
out_delete:
	sampler__delete(s);
	return NULL;
}

void sampler__delete(struct sampler *s)
{
	size_t i;

	if (!s)
		return;
	if (s->evlist) {
		perf_evlist__munmap(s->evlist);
		perf_evlist__close(s->evlist);
		/* libperf 6.1's perf_evsel__delete() frees the evsel only: drop what it holds */
		for (i = 0; i < s->nr_evsels; i++) {
			perf_evsel__free_id(s->pe[i]);
			perf_cpu_map__put(perf_evsel__cpus(s->pe[i]));
			perf_thread_map__put(perf_evsel__threads(s->pe[i]));
		}
		perf_evlist__delete(s->evlist);	/* deletes the evsels */
	} else {
		for (i = 0; i < s->nr_evsels; i++)
			perf_evsel__delete(s->pe[i]);
	}
	perf_cpu_map__put(s->cpus);
	perf_thread_map__put(s->threads);
	for (i = 0; i < s->nr_heap; i++)
		free(s->heap[i]);
	free(s->heap);
	if (s->evsels)
		for (i = 0; i < s->nr_evsels; i++)
			free(s->evsels[i].ids);
	free(s->evsels);
	free(s->pe);
	free(s->ids);
	if (s->info.tep)
		tep_free(s->info.tep);
	free(s);
}

const struct stream_info *sampler__info(const struct sampler *s)
{
	return &s->info;
}

const struct stream_stats *sampler__stats(const struct sampler *s)
{
	return &s->stats;
}

int sampler__enable(struct sampler *s)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < s->nr_user && !ret; i++)
		ret = perf_evsel__enable(s->pe[i]);
	return ret;
}

int sampler__disable(struct sampler *s)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < s->nr_user && !ret; i++)
		ret = perf_evsel__disable(s->pe[i]);
	return ret;
}

static bool qrec_less(const struct qrec *a, const struct qrec *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int heap_push(struct sampler *s, struct qrec *r)
{
	size_t i, p;

	if (s->nr_heap == s->cap_heap) {
		size_t cap = s->cap_heap ? 2 * s->cap_heap : 4096;
		struct qrec **nh = realloc(s->heap, cap * sizeof(*nh));

		if (!nh)
			return -ENOMEM;
		s->heap = nh;
		s->cap_heap = cap;
	}
	i = s->nr_heap++;
	while (i > 0) {
		p = (i - 1) / 2;
		if (!qrec_less(r, s->heap[p]))
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = r;
	return 0;
}

static struct qrec *heap_pop(struct sampler *s)
{
	struct qrec *top = s->heap[0], *last = s->heap[--s->nr_heap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < s->nr_heap) {
		if (c + 1 < s->nr_heap && qrec_less(s->heap[c + 1], s->heap[c]))
			c++;
		if (!qrec_less(s->heap[c], last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->nr_heap)
		s->heap[i] = last;
	return top;
}

static uint64_t record_time(const struct sampler *s, const struct perf_event_header *h)
{
	const struct stream_evsel *ev;
	uint64_t id, t;
	uint32_t pid, tid, cpu;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (h->size < sizeof(*h) + 8)
			return 0;
		memcpy(&id, h + 1, 8);
		ev = sampler__evsel(s, id);
		if (!ev)
			return 0;
		/* IDENTIFIER, [IP], TID, TIME */
		memcpy(&t, (const uint8_t *)(h + 1) + 16 + 8 * !!(ev->attr.sample_type & PERF_SAMPLE_IP),
		       8);
		return t;
	}
	if (h->size < sizeof(*h) + 8)
		return 0;
	memcpy(&id, (const uint8_t *)h + h->size - 8, 8);
	ev = sampler__evsel(s, id);
	if (!ev || sample_id__parse(&ev->attr, h, &pid, &tid, &t, &cpu, &id))
		return 0;
	return t;
}

static int sampler__read_all(struct sampler *s)
{
	struct perf_mmap *map;
	union perf_event *e;
	struct qrec *r;

	perf_evlist__for_each_mmap(s->evlist, map, false) {
		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((e = perf_mmap__read_event(map)) != NULL) {
			r = malloc(sizeof(*r) - sizeof(r->h) + e->header.size);
			if (!r) {
				perf_mmap__read_done(map);
				return -ENOMEM;
			}
			memcpy(&r->h, e, e->header.size);
			r->time = record_time(s, &r->h);
			r->seq = s->seq++;
			if (r->time > s->max_time)
				s->max_time = r->time;
			perf_mmap__consume(map);
			if (heap_push(s, r)) {
				free(r);
				perf_mmap__read_done(map);
				return -ENOMEM;
			}
		}
		perf_mmap__read_done(map);
	}
	return 0;
}

static int deliver_sample(struct sampler *s, const struct perf_event_header *h,
			  const struct stream_ops *ops)
{
	const struct stream_evsel *ev;
	struct stream_sample smp;
	uint64_t id;

	memcpy(&id, h + 1, 8);
	ev = sampler__evsel(s, id);
	if (!ev || sample__parse(&ev->attr, h, &smp)) {
		s->stats.nr_unknown++;
		return 0;
	}
	smp.evsel = ev;
	s->stats.nr_samples++;
	return ops->sample ? ops->sample(ops->ctx, &smp) : 0;
}

static int deliver(struct sampler *s, const struct perf_event_header *h, uint64_t time,
		   const struct stream_ops *ops)
{
	const union perf_event *e = (const void *)h;
	int ret;

	s->stats.nr_records++;
	s->stats.nr_by_type[h->type < 128 ? h->type : 127]++;
	if (ops->raw && (ret = ops->raw(ops->ctx, h, h)))
		return ret;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return deliver_sample(s, h, ops);
	case PERF_RECORD_COMM:
		return ops->comm ? ops->comm(ops->ctx, e->comm.pid, e->comm.tid, e->comm.comm,
					     h->misc & PERF_RECORD_MISC_COMM_EXEC, time) : 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct stream_task t = { h->type == PERF_RECORD_FORK, e->fork.pid, e->fork.ppid,
					 e->fork.tid, e->fork.ptid, e->fork.time, h->misc };

		return ops->task ? ops->task(ops->ctx, &t) : 0;
	}
	case PERF_RECORD_MMAP2: {
		struct stream_mmap m = { .pid = e->mmap2.pid, .tid = e->mmap2.tid,
					 .start = e->mmap2.start, .len = e->mmap2.len,
					 .pgoff = e->mmap2.pgoff, .time = time, .misc = h->misc,
					 .filename = e->mmap2.filename, .prot = e->mmap2.prot,
					 .flags = e->mmap2.flags };

		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m.has_build_id = true;
			m.build_id_size = e->mmap2.build_id_size > 20 ? 20 : e->mmap2.build_id_size;
			memcpy(m.build_id, e->mmap2.build_id, m.build_id_size);
		} else {
			m.maj = e->mmap2.maj;
			m.min = e->mmap2.min;
			m.ino = e->mmap2.ino;
			m.ino_generation = e->mmap2.ino_generation;
		}
		return ops->mmap ? ops->mmap(ops->ctx, &m) : 0;
	}
	case PERF_RECORD_MMAP: {
		struct stream_mmap m = { .pid = e->mmap.pid, .tid = e->mmap.tid,
					 .start = e->mmap.start, .len = e->mmap.len,
					 .pgoff = e->mmap.pgoff, .time = time, .misc = h->misc,
					 .filename = e->mmap.filename };

		return ops->mmap ? ops->mmap(ops->ctx, &m) : 0;
	}
	case PERF_RECORD_LOST:
		s->stats.nr_lost += e->lost.lost;
		s->stats.nr_lost_records++;
		return ops->lost ? ops->lost(ops->ctx, e->lost.id, e->lost.lost, time) : 0;
	case PERF_RECORD_LOST_SAMPLES:
		s->stats.nr_lost += e->lost_samples.lost;
		s->stats.nr_lost_records++;
		return ops->lost ? ops->lost(ops->ctx, 0, e->lost_samples.lost, time) : 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		uint32_t pid, tid, cpu;
		uint64_t t, id;
		const struct stream_evsel *ev;
		bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
		bool wide = h->type == PERF_RECORD_SWITCH_CPU_WIDE;

		memcpy(&id, (const uint8_t *)h + h->size - 8, 8);
		ev = sampler__evsel(s, id);
		if (!ev || sample_id__parse(&ev->attr, h, &pid, &tid, &t, &cpu, &id))
			return 0;
		return ops->switch_ ? ops->switch_(ops->ctx, pid, tid, cpu, out,
						   wide ? e->context_switch.next_prev_pid : 0,
						   wide ? e->context_switch.next_prev_tid : 0, t) : 0;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_TEXT_POKE:
	case PERF_RECORD_NAMESPACES:
		return 0;
	default:
		s->stats.nr_unknown++;
		return 0;
	}
}

static int sampler__flush(struct sampler *s, bool all, const struct stream_ops *ops)
{
	struct qrec *r;
	int ret = 0;

	if (!s->begun) {
		s->begun = true;
		if (ops->begin && (ret = ops->begin(ops->ctx, &s->info)))
			return ret;
	}
	while (s->nr_heap && (all || s->heap[0]->time <= s->flush_limit)) {
		r = heap_pop(s);
		ret = deliver(s, &r->h, r->time, ops);
		free(r);
		if (ret)
			break;
	}
	return ret;
}

int sampler__poll(struct sampler *s, int timeout_ms, const struct stream_ops *ops)
{
	uint64_t limit = s->max_time;
	int ret;

	if (timeout_ms)
		perf_evlist__poll(s->evlist, timeout_ms);
	ret = sampler__read_all(s);
	if (ret)
		return ret;
	/* what the previous pass saw is complete up to its newest time */
	s->flush_limit = limit;
	return sampler__flush(s, false, ops);
}

int sampler__drain(struct sampler *s, const struct stream_ops *ops)
{
	int ret = sampler__read_all(s);

	if (!ret)
		ret = sampler__flush(s, true, ops);
	if (!s->ended) {
		int e = 0;

		s->ended = true;
		if (ops->end)
			e = ops->end(ops->ctx, &s->stats);
		if (!ret)
			ret = e;
	}
	return ret;
}
