/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by the perf.data reader modules (perfdata-*.c). */
#ifndef SCHEDLENS_PERFDATA_INT_H
#define SCHEDLENS_PERFDATA_INT_H

#include <byteswap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/perfdata.h"
#include "stream/stream-int.h"

struct ZSTD_DCtx_s;

/*
 * On-disk layouts (tools/perf/util/header.h): all fields in the file's byte order.
 *   file header: magic "PERFILE2", u64 size (104), u64 attr_size (attr + section),
 *     section attrs, data, event_types (each {u64 offset, u64 size}), u64 features[4]
 *   pipe header: magic, u64 size (16)
 *   attr entry: attr (attr.size bytes), section ids -> u64[]
 *   feature table at data.offset + data.size: one section per bit set, bit order
 */
#define PERF_MAGIC2	 0x32454c4946524550ULL	/* "PERFILE2" read as little-endian u64 */
#define PERF_MAGIC2_SW	 0x50455246494c4532ULL
#define PERF_FILE_HDR_SZ 104
#define PERF_PIPE_HDR_SZ 16
#define PERF_MAX_REC	 (1u << 16)

struct pd_evsel {
	struct stream_evsel ev;
	uint64_t sample_type;
	int16_t time_off;		/* SAMPLE: byte offset of the time, -1 without */
	uint16_t sid_len;		/* bytes of the sample_id trailer of other records */
	int16_t sid_time_off;		/* offset of the time in that trailer, -1 without */
	bool named;			/* name came from the file */
	struct sample_layout layout;
	struct stream_sample tmpl;	/* what a sample starts from: event, defaults */
	/* the last sample delivered, when every field a sample sets is a fixed one or RAW: the
	 * next one overwrites just those (the layout sets the same ones each time) */
	struct stream_sample cur;
	bool cur_ready;
};

/* perf's values for the fields a sample of @e does not carry */
static inline void pd_sample_defaults(const struct pd_evsel *e, struct stream_sample *s)
{
	uint64_t t = e->sample_type;

	if (!(t & PERF_SAMPLE_TID))
		s->pid = s->tid = (uint32_t)-1;
	if (!(t & PERF_SAMPLE_CPU))
		s->cpu = (uint32_t)-1;
	if (!(t & PERF_SAMPLE_PERIOD))
		s->period = e->ev.attr.sample_period;
}

struct perf_file {
	char *path;
	int fd;
	bool pipe, swap, ran, begun;
	const uint8_t *map;		/* file mode: the whole file */
	bool in_place;			/* SCHEDLENS_MMAP: records parsed in the mapping */
	bool chunks_only;		/* SCHEDLENS_MMAP=0: not even samples with stacks mapped */
	bool stacks_mapped;		/* SCHEDLENS_MMAP=stacks: those mapped, unasked (map_cheaper()) */
	bool map_drop;			/* run_mapped() gives back pages (pd_drop_behind()) */
	size_t kept_max;		/* chunks kept holding queued records (chunk_get()) */
	uint64_t map_at;		/* the offset it parses at */
	uint64_t drop_next;		/* where it next gives back the pages behind */
	uint64_t drop_count;		/* bytes delivered since */
	size_t map_len;
	uint64_t file_size;
	uint64_t truncated;		/* data size the header claims, when past the end */
	struct perf_file_header hdr;
	struct stream_info info;
	struct stream_stats stats;
	struct pd_evsel **evsels;
	size_t nr_evsels;
	struct { uint64_t id; struct pd_evsel *evsel; } *ids;
	size_t nr_ids;
	bool ids_sorted;
	struct { uint64_t id; struct pd_evsel *evsel; } idcache[64];
	struct pd_evsel **id_dense;	/* by id - id_min, when the ids are close together */
	uint64_t id_min, id_span;
	int id_pos, is_pos;		/* of the first event: sample id from front / from end */
	struct tep_handle *tep;
	void *tracing_data;
	size_t tracing_data_size;
	struct { uint64_t id; char name[64]; } *event_types;
	size_t nr_event_types;
	struct { uint64_t id; char name[128]; } *tp_names;	/* "sys:name" by format ID */
	size_t nr_tp_names;
	struct stream_queue q;
	const struct stream_ops *ops;
	/* compressed records */
	struct ZSTD_DCtx_s *zstd;
	uint8_t *decomp_rem;		/* bytes of a record split across COMPRESSED records */
	size_t decomp_rem_len;
	/* scratch for swapped arrays */
	uint64_t *scratch;
	size_t scratch_len;
	struct stream_decoder dec;	/* the records other than SAMPLE */
	/* pipe mode read buffer */
	struct stream_chunk *chunk_pool;	/* FILE_CHUNK buffers to reuse */
	/*
	 * File mode: records read into rbuf[] are queued by offset alone (pd_queued_rec()) and
	 * read again at delivery through the windows (pd_fetch()), so memory does not hold the
	 * rounds a queue spans. rb_lo..rb_hi: the read buffer being parsed.
	 */
	struct stream_chunk *rbuf[2];
	unsigned int rb_cur;
	const char *rb_lo, *rb_hi;
	struct pd_window *win;
	uint16_t *win_at;		/* PD_WIN_HASH: window by the grain of its start */
	size_t nr_win, win_alloc, win_last;
	uint64_t win_tick;
	uint32_t unordered;		/* ops->unordered, once begin has returned */
	uint8_t *pbuf;
	size_t pbuf_len;
	uint64_t pipe_off;
	struct errbuf *err;
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	uint64_t progress_next;		/* bytes of data read when it is called next */
};

#define PD_WIN_HASH	4096

/* a window of the data section read again at delivery (pd_fetch()) */
struct pd_window {
	uint64_t lo, hi;		/* file offsets held */
	uint64_t used;			/* win_tick when last used */
	size_t size;			/* of buf */
	char *buf;
};

/* what the queue keeps of a record: NULL where it is read again from the file (offset) */
static inline const struct perf_event_header *pd_queued_rec(const struct perf_file *f,
							    const struct perf_event_header *h)
{
	return (const char *)h >= f->rb_lo && (const char *)h < f->rb_hi ? NULL : h;
}

/* whether @w holds the record at file offset @off whole */
static inline bool pd_win_has(const struct pd_window *w, uint64_t off)
{
	const struct perf_event_header *h;

	if (off < w->lo || off + 8 > w->hi)
		return false;
	h = (const void *)(w->buf + (off - w->lo));
	return h->size >= 8 && h->size <= w->hi - off;
}

const struct perf_event_header *pd_fetch_slow(struct perf_file *f, uint64_t off);

/* the record at file offset @off of the data section, read again; NULL (f->err set) if not */
static inline const struct perf_event_header *pd_fetch(struct perf_file *f, uint64_t off)
{
	const struct pd_window *w = &f->win[f->win_last];

	if (f->nr_win && pd_win_has(w, off))
		return (const void *)(w->buf + (off - w->lo));
	return pd_fetch_slow(f, off);
}

#define PD_PROGRESS_STEP (16u << 20)

/* the progress callback, every PD_PROGRESS_STEP bytes of data (@done of @total) */
static inline void pd_progress(struct perf_file *f, uint64_t done, uint64_t total)
{
	if (f->progress && done >= f->progress_next) {
		f->progress_next = done + PD_PROGRESS_STEP;
		f->progress(f->progress_ctx, done, total);
	}
}

static inline uint64_t pd_u64(const struct perf_file *f, uint64_t v)
{
	return f->swap ? bswap_64(v) : v;
}

static inline uint32_t pd_u32(const struct perf_file *f, uint32_t v)
{
	return f->swap ? bswap_32(v) : v;
}

static inline uint16_t pd_u16(const struct perf_file *f, uint16_t v)
{
	return f->swap ? bswap_16(v) : v;
}

static inline uint64_t pd_get64(const struct perf_file *f, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return pd_u64(f, v);
}

static inline uint32_t pd_get32(const struct perf_file *f, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return pd_u32(f, v);
}

/* a bounded reader over one section; any overrun sets bad */
struct rd {
	struct perf_file *f;
	const uint8_t *p, *end;
	bool bad, swap;
};

static inline uint32_t r32(struct rd *r)
{
	uint32_t v;

	if (r->end - r->p < 4) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	memcpy(&v, r->p, 4);
	r->p += 4;
	return r->swap ? bswap_32(v) : v;
}

static inline uint64_t r64(struct rd *r)
{
	uint64_t v;

	if (r->end - r->p < 8) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return r->swap ? bswap_64(v) : v;
}

static inline const uint8_t *rbytes(struct rd *r, uint64_t n)
{
	const uint8_t *p = r->p;

	if ((uint64_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	r->p += n;
	return p;
}

/* error naming the file and byte offset */
int pd_bad(struct perf_file *f, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* perfdata-attr.c */
int pd_attr_read(struct perf_file *f, const void *p, size_t avail, struct perf_event_attr *attr,
		 size_t *consumed, uint64_t off);
void pd_attr_swap_bitfield(struct perf_event_attr *attr);
int pd_evsel_add(struct perf_file *f, const struct perf_event_attr *attr, const uint64_t *ids,
		 size_t nr_ids, bool swap_ids);
void pd_evsels_finish(struct perf_file *f);
/* the event of id @id among the sorted ids, NULL when none: pd_evsel_by_id() looks first */
struct pd_evsel *pd_evsel_for_id(struct perf_file *f, uint64_t id);
void pd_evsels_free(struct perf_file *f);

/* the event of id @id: a table lookup when the ids are dense */
static inline struct pd_evsel *pd_evsel_by_id(struct perf_file *f, uint64_t id)
{
	if (f->id_dense)
		return id - f->id_min < f->id_span ? f->id_dense[id - f->id_min] : NULL;
	return pd_evsel_for_id(f, id);
}

/* @e's tag in the queue (stream_qent__tag()): its number in f->evsels + 1, 0 for none */
static inline uint16_t pd_evsel_tag(const struct pd_evsel *e)
{
	return e ? (uint16_t)(e->ev.idx + 1) : 0;
}

/* the event of a SAMPLE, NULL when its id maps to none */
static inline struct pd_evsel *pd_evsel_of_sample(struct perf_file *f,
						  const struct perf_event_header *h)
{
	uint64_t off;

	if (f->nr_evsels == 1 || (f->nr_evsels > 1 && f->id_pos < 0))
		return f->evsels[0];
	if (!f->nr_evsels)
		return NULL;
	off = 8 + 8 * (uint64_t)f->id_pos;
	if (off + 8 > h->size)
		return NULL;
	return pd_evsel_by_id(f, pd_get64(f, (const uint8_t *)h + off));
}

/* perfdata-header.c */
int pd_map_file(struct perf_file *f);		/* 0, 1 when not a regular file, or -errno */
int pd_open_file_mode(struct perf_file *f);

/* perfdata-origin.c: f->info.origin from the header and the first records */
void pd_origin(struct perf_file *f);

/* perfdata-feat.c */
int pd_feature(struct perf_file *f, int feat, const uint8_t *p, size_t size, uint64_t off);
int pd_tracing_data(struct perf_file *f, const uint8_t *p, size_t size, uint64_t off);
/* the tracing data's formats into libtraceevent (f->tep), the events' tp set; 0 or -ENOMEM */
int pd_formats(struct perf_file *f);
void pd_header_free(struct perf_file_header *h);

/* perfdata-sample.c */
int pd_sample_parse(struct perf_file *f, struct pd_evsel *e, const struct perf_event_header *h,
		    struct stream_sample *s, uint64_t off);
/* time of any record, ~0 when it has none; @e: the event of a SAMPLE */
uint64_t pd_record_time(struct perf_file *f, const struct perf_event_header *h,
			const struct pd_evsel *e);
int pd_deliver(struct perf_file *f, const struct perf_event_header *h, struct pd_evsel *e,
	       uint64_t off);
/* the fields a sample's layout places, in host byte order, over @s: the event's template or
 * its previous sample */
static inline int pd_parse_fixed(const struct pd_evsel *e, const struct perf_event_header *h,
				 struct stream_sample *s)
{
	const struct sample_layout *l = &e->layout;
	const uint8_t *b = (const uint8_t *)(h + 1) + l->fixed_len;
	const uint8_t *end = (const uint8_t *)h + h->size;
	uint64_t nr;
	uint32_t n;

	if (sample_parse_fixed(l, false, h, s))
		return -EINVAL;
	if (l->tail == TAIL_NONE)
		return 0;
	if (l->tail != TAIL_RAW) {
		if (l->tail == TAIL_OTHER)
			return sample_parse_tail(&e->ev.attr, false, b, end, NULL, s);
		if (end - b < 8)
			return -EINVAL;
		memcpy(&nr, b, 8);
		if (nr > (uint64_t)(end - b) / 8 - 1)
			return -EINVAL;
		s->nr_callchain = nr;
		s->callchain = (const uint64_t *)(b + 8);
		if (l->tail == TAIL_CALLCHAIN)
			return 0;
		b += 8 + 8 * nr;
	}
	if (end - b < 4)
		return -EINVAL;
	memcpy(&n, b, 4);
	if (((4 + (uint64_t)n + 7) & ~7ULL) > (uint64_t)(end - b))
		return -EINVAL;
	s->raw_size = n;
	s->raw = b + 4;
	return 0;
}

/*
 * Whether @e's samples are parsed over its previous one (e->cur), with no template to copy:
 * the common case, where the layout writes every field each time (tracepoints, and samples
 * with no more than a callchain past the fixed fields)
 */
static inline bool pd_parse_over(const struct perf_file *f, const struct pd_evsel *e)
{
	return !f->swap && e->layout.tail != TAIL_OTHER;
}

/*
 * The common sample @h of @e parsed into e->cur and counted, inline on a hot path: false when
 * it is not one (no layout to parse over, a raw callback, or too short), and then
 * pd_deliver() takes it and reports a bad one
 */
static inline bool pd_parse_common(struct perf_file *f, struct pd_evsel *e,
				   const struct perf_event_header *h)
{
	if (!e || !e->cur_ready || f->ops->raw || !pd_parse_over(f, e) ||
	    pd_parse_fixed(e, h, &e->cur))
		return false;
	f->stats.nr_samples++;
	return true;
}

#define PD_DROP_STEP	(8u << 20)

/* the mapping's pages below f->map_at given back (perfdata-read.c's has_stacks()) */
void pd_drop_behind(struct perf_file *f);

/* a record the queue (f->q) hands back in time order */
int pd_deliver_queued(void *ctx, const struct stream_qent *q);
/* the queue flushed up to @limit: the consumer's flushed() */
int pd_flushed(void *ctx, uint64_t limit);


#endif
