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

/* the ring buffers' records are copied into chunks of this size */
#define COPY_CHUNK	(256u << 10)

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
	struct stream_queue q;		/* records copied from the rings, by time */
	struct stream_chunk *chunk;	/* the one being filled */
	uint64_t pos;			/* bytes copied so far: the records' offsets in the queue */
	struct stream_decoder dec;
	const struct stream_ops *ops;	/* during poll and drain */
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

static int deliver(void *ctx, const struct stream_qent *q);

/* the queue flushed up to @limit: the consumer's flushed() */
static int flushed(void *ctx, uint64_t limit)
{
	struct sampler *s = ctx;

	return s->ops && s->ops->flushed ? s->ops->flushed(s->ops->ctx, limit) : 0;
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
	stream_queue__init(&s->q, deliver, s);
	s->q.flushed = flushed;
	s->dec.stats = &s->stats;
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
	stream_queue__exit(&s->q);
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

/* @h copied to the chunk being filled (a new one when it is full); NULL on ENOMEM */
static const struct perf_event_header *copy_record(struct sampler *s,
						    const struct perf_event_header *h)
{
	struct stream_chunk *c = s->chunk;
	void *to;

	if (c && c->len - (s->pos - c->lo) < h->size) {
		stream_queue__done(&s->q, c, s->pos);
		c = s->chunk = NULL;
	}
	if (!c) {
		c = stream_chunk__new(COPY_CHUNK);	/* > any record: sizes are u16 */
		if (!c)
			return NULL;
		stream_queue__track(&s->q, c, s->pos);
		s->chunk = c;
	}
	to = c->data + (s->pos - c->lo);
	memcpy(to, h, h->size);
	s->pos += h->size;
	return to;
}

/* a SAMPLE the consumer takes outside time order (stream_ops.unordered), once it has begun */
static bool unordered(const struct sampler *s, const struct perf_event_header *h)
{
	return s->begun && h->type == PERF_RECORD_SAMPLE && s->ops && s->ops->unordered &&
	       (s->ops->unordered >> (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) & 1);
}

static int sampler__read_all(struct sampler *s)
{
	const struct perf_event_header *h;
	struct perf_mmap *map;
	union perf_event *e;
	int ret = 0;

	perf_evlist__for_each_mmap(s->evlist, map, false) {
		if (perf_mmap__read_init(map) < 0)
			continue;
		while (!ret && (e = perf_mmap__read_event(map)) != NULL) {
			uint64_t off = s->pos;

			if (unordered(s, &e->header)) {	/* delivered as read, not queued */
				struct stream_qent q = { .rec = &e->header };

				stream_queue__saw(&s->q, record_time(s, &e->header));
				ret = deliver(s, &q);
				perf_mmap__consume(map);
				continue;
			}
			h = copy_record(s, &e->header);
			ret = h ? stream_queue__push(&s->q, h, record_time(s, h), 0, off) : -ENOMEM;
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
	return ret;
}

static int deliver_sample(struct sampler *s, const struct perf_event_header *h,
			  const struct stream_ops *ops)
{
	const struct stream_evsel *ev;
	struct stream_sample smp;
	uint64_t id;

	memcpy(&id, h + 1, 8);
	ev = sampler__evsel(s, id);
	if (!ev) {
		s->stats.nr_unknown_id++;
		return 0;
	}
	if (sample__parse(&ev->attr, h, &smp)) {
		s->stats.nr_unknown++;
		return 0;
	}
	smp.evsel = ev;
	s->stats.nr_samples++;
	return ops->sample ? ops->sample(ops->ctx, &smp) : 0;
}

/* the event a non-sample record's trailer names (its id is the trailer's last u64) */
static const struct perf_event_attr *trailer_attr(const struct sampler *s,
						  const struct perf_event_header *h)
{
	const struct stream_evsel *ev;
	uint64_t id;

	if (h->size < sizeof(*h) + 8)
		return NULL;
	memcpy(&id, (const uint8_t *)h + h->size - 8, 8);
	ev = sampler__evsel(s, id);
	return ev ? &ev->attr : NULL;
}

/* a queued record to the consumer */
static int deliver(void *ctx, const struct stream_qent *q)
{
	struct sampler *s = ctx;
	const struct perf_event_header *h = q->rec;
	const struct stream_ops *ops = s->ops;
	int ret;

	s->stats.nr_records++;
	s->stats.nr_by_type[h->type < 128 ? h->type : 127]++;
	if (ops->raw && (ret = ops->raw(ops->ctx, h, h + 1)))
		return ret;
	if (h->type == PERF_RECORD_SAMPLE)
		return deliver_sample(s, h, ops);
	s->dec.ops = ops;
	ret = stream_decode_other(&s->dec, h, trailer_attr(s, h));
	if (ret == STREAM_DECODE_SHORT) {	/* the kernel's record: not seen, but not fatal */
		s->stats.nr_unknown++;
		ret = 0;
	}
	return ret;
}

static int sampler__flush(struct sampler *s, uint64_t limit, const struct stream_ops *ops)
{
	int ret = 0;

	s->ops = ops;
	if (!s->begun) {
		s->begun = true;
		if (ops->begin && (ret = ops->begin(ops->ctx, &s->info)))
			return ret;
	}
	return stream_queue__flush(&s->q, limit);
}

int sampler__poll(struct sampler *s, int timeout_ms, const struct stream_ops *ops)
{
	/* what the previous pass saw is complete up to its newest time */
	uint64_t limit = s->q.max_time;
	int ret;

	if (timeout_ms)
		perf_evlist__poll(s->evlist, timeout_ms);
	s->ops = ops;
	ret = sampler__read_all(s);
	if (ret)
		return ret;
	return sampler__flush(s, limit, ops);
}

int sampler__drain(struct sampler *s, const struct stream_ops *ops)
{
	int ret;

	s->ops = ops;
	ret = sampler__read_all(s);
	if (!ret)
		ret = sampler__flush(s, ~0ULL, ops);
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
