/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the record stream's sources (the stream and perfdata folders): the one PERF_RECORD_SAMPLE
 * parser, shared by the live sampler and the perf.data reader, and the sampler's tracefs half. */
#ifndef SCHEDLENS_STREAM_INT_H
#define SCHEDLENS_STREAM_INT_H

#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/sampler.h"
#include "schedlens/stream.h"

/* the sample_id_all trailer of a non-sample record */
struct sample_trailer {
	uint32_t pid, tid, cpu;
	uint64_t time, id;
};

/*
 * What a sample has past its fixed-size fields: nothing; RAW, CALLCHAIN or both, each written
 * in every sample (tracepoints, callchains: the common samples); or others (READ, BRANCH_STACK,
 * REGS_USER, ...), which the general parser reads
 */
enum sample_tail { TAIL_NONE, TAIL_RAW, TAIL_CALLCHAIN, TAIL_CALLCHAIN_RAW, TAIL_OTHER };

/* Where the fixed-size fields of a sample_type sit, in u64s from the start of the body
 * (-1 when absent), computed once per event so each sample is read without walking the bits. */
struct sample_layout {
	uint64_t sample_type;
	int8_t ip, tid, time, addr, id, stream_id, cpu, period;
	uint16_t fixed_len;		/* bytes before the first variable-size field */
	enum sample_tail tail;		/* the fields past the fixed ones */
};

void sample_layout__init(struct sample_layout *l, const struct perf_event_attr *attr);

static inline uint64_t sample_slot64(const uint8_t *b, int i, bool swap)
{
	uint64_t v;

	memcpy(&v, b + 8 * i, 8);
	return swap ? bswap_64(v) : v;
}

/* the u32 at half @half of slot @i into *@to (a memcpy: the compiler then loads each of the
 * layout's slots where it is used, not all at once in callee-saved registers) */
static inline void sample_slot32(const uint8_t *b, int i, int half, bool swap, uint32_t *to)
{
	uint32_t v;

	memcpy(&v, b + 8 * i + 4 * half, 4);
	if (swap)
		v = bswap_32(v);
	memcpy(to, &v, 4);
}

/*
 * misc and the fixed-size fields @l places into @out; the fields it does not place are left
 * as they are (zero, an event's template, or its previous sample). -EINVAL when @h is too
 * short for them.
 */
static inline int sample_parse_fixed(const struct sample_layout *l, bool swap,
				     const struct perf_event_header *h, struct stream_sample *out)
{
	const uint8_t *b = (const uint8_t *)(h + 1);

	out->misc = h->misc;
	if (h->size < sizeof(*h) + l->fixed_len)
		return -EINVAL;
	if (l->ip >= 0)
		out->ip = sample_slot64(b, l->ip, swap);
	if (l->tid >= 0) {
		sample_slot32(b, l->tid, 0, swap, &out->pid);
		sample_slot32(b, l->tid, 1, swap, &out->tid);
	}
	if (l->time >= 0)
		out->time = sample_slot64(b, l->time, swap);
	if (l->addr >= 0)
		out->addr = sample_slot64(b, l->addr, swap);
	if (l->id >= 0)
		out->id = sample_slot64(b, l->id, swap);
	if (l->stream_id >= 0)
		out->stream_id = sample_slot64(b, l->stream_id, swap);
	if (l->cpu >= 0)
		sample_slot32(b, l->cpu, 0, swap, &out->cpu);
	if (l->period >= 0)
		out->period = sample_slot64(b, l->period, swap);
	return 0;
}

/* sample_parse() with the layout of @attr computed beforehand */
int sample_parse_layout(const struct sample_layout *l, const struct perf_event_attr *attr,
			bool swap, const struct perf_event_header *h, uint64_t *scratch,
			struct stream_sample *out);

/* The variable-size fields of a sample from @p (past the fixed ones) to @end into @out. */
int sample_parse_tail(const struct perf_event_attr *attr, bool swap, const uint8_t *p,
		      const uint8_t *end, uint64_t *scratch, struct stream_sample *out);

/*
 * Parse SAMPLE record @h (header in host order, body in host order or, with @swap, the other
 * one) as laid out by @attr into @out (zeroed first, evsel left NULL). With @swap, arrays are
 * byte-swapped into @scratch, which must hold h->size bytes. 0, or -EINVAL when @h is too short.
 */
int sample_parse(const struct perf_event_attr *attr, bool swap, const struct perf_event_header *h,
		 uint64_t *scratch, struct stream_sample *out);

/* Fill only the fields present in the trailer of @h; 0 without sample_id_all, -EINVAL when
 * @h is too short to hold it. */
int sample_trailer_parse(const struct perf_event_attr *attr, bool swap,
			 const struct perf_event_header *h, struct sample_trailer *out);

/* the sample_type bits of the sample_id trailer of a non-sample record */
#define STREAM_TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/*
 * The one decoder of the kernel's non-sample records (decode.c), for the live sampler and the
 * perf.data reader alike: the records' header in host order, their body in the source's.
 */
struct stream_decoder {
	const struct stream_ops *ops;
	struct stream_stats *stats;	/* nr_lost, nr_lost_records, nr_unknown counted here */
	bool swap;			/* the body in the other byte order (a file's) */
	char strbuf[4096];		/* an unterminated filename or comm, cut */
};

#define STREAM_DECODE_SHORT 1		/* too short for its type: the source says where */

/* whether @type is a kernel record type (PERF_RECORD_*) this decoder knows */
bool stream_record_known(uint32_t type);
/* bytes of the sample_id trailer an event of @attr puts on its non-sample records */
size_t stream_trailer_len(const struct perf_event_attr *attr);
/*
 * Record @h (not a SAMPLE) to its callback; @attr: the event its trailer belongs to, NULL when
 * none is known. An unknown type is counted in stats->nr_unknown and skipped. 0, a callback's
 * non-zero value, or STREAM_DECODE_SHORT.
 */
int stream_decode_other(struct stream_decoder *d, const struct perf_event_header *h,
			const struct perf_event_attr *attr);

/*
 * A buffer of records. Chunks are kept in the order they were filled (stream_queue.chunks), and
 * queued records point into them: a chunk goes back once it is filled and no queued record
 * lies in it. No count per record: the records of a chunk have file offsets in [lo, hi) (a
 * decompressed one, or one holding a record copied to align it, has its record's offset
 * alone), and a run's records arrived in file order, so a run holds records of a chunk only
 * when the offsets of its oldest and newest records straddle that range.
 */
struct stream_chunk {
	uint64_t lo, hi;		/* hi: UINT64_MAX while it is being filled */
	bool live;			/* still being filled */
	size_t len;
	struct stream_chunk **pool;		/* free list to go back to, else free() */
	struct stream_chunk *next;		/* the next newer one, or in the pool */
	char data[];
};

/*
 * A queued record, 24 bytes: a queue of two rounds of a system-wide recording holds hundreds
 * of thousands. @pos: the record's offset in the source (below 2^48, STREAM_QENT_OFF_MAX) above
 * a 16-bit tag the source gives it (the file reader's: its event's number + 1, found when it
 * was queued; 0: none).
 */
struct stream_qent {
	uint64_t time;
	const struct perf_event_header *rec;
	uint64_t pos;
};

#define STREAM_QENT_OFF_MAX (1ull << 48)

static inline uint64_t stream_qent__off(const struct stream_qent *e)
{
	return e->pos >> 16;
}

static inline unsigned int stream_qent__tag(const struct stream_qent *e)
{
	return (unsigned int)(e->pos & 0xffff);
}

struct stream_qhead;

struct stream_run {
	size_t start, end;		/* live entries v[start..end), sorted by time */
};

struct stream_queue {
	struct stream_qent *v;		/* arrival order; dead space below the runs */
	size_t nr, alloc, limit;
	void *v_res;			/* v's reserved address space (grow_entries()), or NULL */
	size_t v_open;			/* its bytes readable and writable */
	struct stream_run *runs;
	size_t nr_runs, runs_alloc;
	struct stream_qhead *heap;		/* merge: run heads by time (queue.c) */
	size_t heap_alloc;
	uint64_t last, max_time, next_flush;
	struct stream_chunk *chunks, *chunks_last;	/* in use, oldest first */
	int (*deliver)(void *ctx, const struct stream_qent *e);
	/* after a flush up to a time delivered all of it (NULL: nothing), with ctx */
	int (*flushed)(void *ctx, uint64_t limit);
	void *ctx;
};


#define STREAM_QUEUE_DEFAULT_LIMIT (4u << 20)	/* records queued before the oldest half goes */

/* The one ordered-events queue (queue.c): records delivered to @fn in time order */
void stream_queue__init(struct stream_queue *q, int (*fn)(void *ctx, const struct stream_qent *e),
			void *ctx);
/* @h at offset @off (below STREAM_QENT_OFF_MAX, else -EFBIG) with tag @tag; 0 or -errno */
int stream_queue__push(struct stream_queue *q, const struct perf_event_header *h, uint64_t time,
		       uint16_t tag, uint64_t off);
/* store a record at the end of the queue, in run @last */
static inline void stream_queue__append(struct stream_queue *q, struct stream_run *last,
					const struct perf_event_header *h, uint64_t time,
					uint16_t tag, uint64_t off)
{
	q->v[q->nr++] = (struct stream_qent){ time, h, off << 16 | tag };
	last->end++;
	q->last = time;
	if (time > q->max_time)
		q->max_time = time;
}

/*
 * A record of @time delivered outside the queue (stream_ops.unordered): the flushes' limits
 * count it as a queued one, as perf's rounds count every record, so records are flushed at
 * the same points whichever way the samples go (a consumer of unordered samples settles them
 * at those points: stream_ops.flushed)
 */
static inline void stream_queue__saw(struct stream_queue *q, uint64_t time)
{
	if (time != ~0ULL && time > q->max_time)
		q->max_time = time;
}

/* stream_queue__push() when the record extends the last run and there is room: most of them */
static inline int stream_queue__push_inl(struct stream_queue *q, const struct perf_event_header *h,
					 uint64_t time, uint16_t tag, uint64_t off)
{
	struct stream_run *last = q->nr_runs ? &q->runs[q->nr_runs - 1] : NULL;

	if (!last || last->end != q->nr || time < q->last || q->nr == q->alloc ||
	    q->nr - q->runs[0].start >= (q->limit ?: STREAM_QUEUE_DEFAULT_LIMIT) ||
	    off >= STREAM_QENT_OFF_MAX)
		return stream_queue__push(q, h, time, tag, off);
	stream_queue__append(q, last, h, time, tag, off);
	return 0;
}
/* deliver every queued record not newer than @limit; 0 or a deliver's non-zero value */
int stream_queue__flush(struct stream_queue *q, uint64_t limit);
/* everything queued dropped, the chunks freed; @q can be used again */
void stream_queue__exit(struct stream_queue *q);

/* a chunk of @len bytes from malloc, live (being filled) */
struct stream_chunk *stream_chunk__new(size_t len);
/* @c, about to hold records from offset @lo on that may be queued, joins the chunks in use */
void stream_queue__track(struct stream_queue *q, struct stream_chunk *c, uint64_t lo);
/* @c is filled, its records below offset @hi: it goes back once none is queued */
void stream_queue__done(struct stream_queue *q, struct stream_chunk *c, uint64_t hi);
/* the filled chunks no queued record points into go back (all of them with @all) */
void stream_queue__release(struct stream_queue *q, bool all);
static inline void stream_chunk__free(struct stream_chunk *c)
{
	if (c->pool) {
		c->next = *c->pool;
		*c->pool = c;
	} else {
		free(c);
	}
}

/* A tep_handle with the header page and the format of each tracepoint in @evsels, whose tp
 * fields are set. NULL with @err set. (sampler-tep.c) */
struct tep_handle *sampler_tep__load(const char *tracefs, struct stream_evsel *evsels, size_t nr,
				     struct errbuf *err);

#endif
