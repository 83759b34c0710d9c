/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script's fields (-F), as perf script 6.1 has them (builtin-script.c): a set of fields per
 * output type (the attr's type: hw, sw, trace, hw-cache, raw, break; synth; any other), each
 * type's defaults, -F's forms, and the check at the start of a stream that drops a default
 * field the samples lack and refuses one the user asked for.
 */
#ifndef SCHEDLENS_SCRIPT_INT_H
#define SCHEDLENS_SCRIPT_INT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/stream.h"
#include "schedlens/util.h"

enum script_field {
	SF_COMM = 1u << 0, SF_TID = 1u << 1, SF_PID = 1u << 2, SF_TIME = 1u << 3,
	SF_CPU = 1u << 4, SF_EVNAME = 1u << 5, SF_TRACE = 1u << 6, SF_IP = 1u << 7,
	SF_SYM = 1u << 8, SF_DSO = 1u << 9, SF_ADDR = 1u << 10, SF_SYMOFF = 1u << 11,
	SF_PERIOD = 1u << 12, SF_DATA_SRC = 1u << 13, SF_WEIGHT = 1u << 14,
	SF_CALLINDENT = 1u << 15,	/* printed only for branch-trace events: never here */
	SF_BPF_OUTPUT = 1u << 16,	/* perf's; nothing here prints it */
};

enum { SCRIPT_OT_SYNTH = PERF_TYPE_MAX, SCRIPT_OT_OTHER, SCRIPT_OT_MAX };

struct script_output {
	bool user_set, wildcard_set;
	uint32_t fields, invalid, user_set_fields, user_unset_fields;
};

struct script_fields {
	struct script_output out[SCRIPT_OT_MAX];
	bool use_callchain;		/* perf's symbol_conf.use_callchain, after the check */
};

/* perf's defaults */
void script_fields__init(struct script_fields *f);
/*
 * Apply one -F argument ("f1,f2", "+f", "-f", "type:..."), as perf does, each -F in turn.
 * 0, or -EINVAL with @err saying why (an unknown field, a type, a mix of forms). Warnings
 * (a field not valid for some type, ignored there) go to stderr.
 */
int script_fields__parse(struct script_fields *f, const char *arg, struct errbuf *err);
/* The output type of an attr type. */
int script_output_type(uint32_t type);
/*
 * perf_session__check_output_opt() for the events of @info: per type, its first event's
 * sample_type decides; a default field it lacks is dropped, a field asked for that it lacks
 * is -EINVAL with @err; also the fields a callchain adds to tracepoints.
 */
int script_fields__check(struct script_fields *f, const struct stream_info *info,
			 struct errbuf *err);

static inline bool script_has(const struct script_fields *f, const struct perf_event_attr *a,
			      uint32_t field)
{
	return f->out[script_output_type(a->type)].fields & field;
}

/*
 * Text kept by key bytes and an id (script-memo.c), up to @max_bytes: at the bound the memo
 * empties and fills again. _get: the text of a key (its length in *@tlen), or NULL; _put:
 * the kept copy of @text (NUL-terminated), or NULL where it is not kept. @hash: the key's.
 */
struct text_memo;

struct text_memo *text_memo__new(size_t max_bytes);
void text_memo__delete(struct text_memo *m);
const char *text_memo__get(struct text_memo *m, int id, const void *key, uint32_t klen,
			   uint64_t hash, uint32_t *tlen);
const char *text_memo__put(struct text_memo *m, int id, const void *key, uint32_t klen,
			   uint64_t hash, const char *text, uint32_t tlen);

/*
 * Callchain frames' texts (script-memo.c), kept by a base and an address: the base numbers
 * all of a frame's key but its address (a sample's address space, fields and mode), so that
 * a frame is found by two numbers in a direct-mapped front of recent ones, before the text
 * memo under it. Bases are numbered from 1 and never reused (their count grows with the
 * address spaces of the file, as its threads do); the texts go at the memo's bound.
 */
#define FRAME_FRONT_BITS 15
#define FRAME_FRONT_LINES (1u << FRAME_FRONT_BITS)

struct frame_line {
	uint64_t addr;
	const char *text;
	uint32_t base, tlen;		/* base 0: empty */
};

struct frame_bases {
	uint32_t *slot;			/* open addressing: base numbers, 0 empty */
	uint64_t *hash;			/* base i's at i - 1 */
	unsigned char *keys;		/* base i's base_len bytes at (i - 1) * base_len */
	size_t mask, nr;
};

struct frame_memo {
	struct text_memo *text;
	struct frame_line *front;
	struct frame_bases bases;
	uint32_t base_len, gen;		/* gen: the text memo's when the front was last valid */
};

/* NULL where memory could not be had; bases are keys of @base_len bytes */
struct frame_memo *frame_memo__new(size_t max_bytes, uint32_t base_len);
void frame_memo__delete(struct frame_memo *m);
/* the number of base @key (its hash @hash), 0 where none can be had */
uint32_t frame_memo__base(struct frame_memo *m, const void *key, uint64_t hash);
/* frame_memo__get() past the front */
const char *frame_memo__find(struct frame_memo *m, uint32_t base, uint64_t addr, uint32_t *tlen);
/* keep @text of the frame at @addr in @base (where the memo has room) */
void frame_memo__put(struct frame_memo *m, uint32_t base, uint64_t addr, const char *text,
		     uint32_t tlen);

static inline size_t frame_line_of(uint32_t base, uint64_t addr)
{
	return (size_t)((addr ^ (uint64_t)base << 40) * 0x9e3779b97f4a7c15ull >>
			(64 - FRAME_FRONT_BITS));
}

/* the text of the frame at @addr in @base (its length in *@tlen), or NULL */
static inline const char *frame_memo__get(struct frame_memo *m, uint32_t base, uint64_t addr,
					  uint32_t *tlen)
{
	const struct frame_line *l = &m->front[frame_line_of(base, addr)];

	if (l->addr == addr && l->base == base) {
		*tlen = l->tlen;
		return l->text;
	}
	return frame_memo__find(m, base, addr, tlen);
}

/*
 * Tracepoint payloads as text (script-trace.c): libtraceevent's TEP_PRINT_INFO of a record,
 * kept per event and payload where the text depends on the payload alone, up to @max_bytes.
 */
struct tep_handle;
struct tep_record;
struct trace_seq;
struct trace_memo;

struct trace_memo *trace_memo__new(size_t max_bytes);
void trace_memo__delete(struct trace_memo *m);
/*
 * The text of @rec (NUL-terminated, valid until the next call), printed into @ts where the
 * memo has none; with @m NULL always printed. Its length in *@len where @len is not NULL.
 */
const char *trace_memo__print(struct trace_memo *m, struct tep_handle *tep,
			      struct trace_seq *ts, struct tep_record *rec, size_t *len);
/* whether event @id's payloads are formatted without the memo now (too few are found there) */
bool trace_memo__direct(const struct trace_memo *m, int id);

/*
 * A tracepoint's print format compiled (script-tpfmt.c): _new() NULL where the format holds
 * what only libtraceevent prints; _print() the TEP_PRINT_INFO text of a payload into @buf
 * (NUL-terminated), its length, or -1 where libtraceevent must print it (a field past the
 * payload's end, a text longer than @cap).
 */
struct tep_event;
struct tp_fmt;

struct tp_fmt *tp_fmt__new(struct tep_event *ev);
void tp_fmt__delete(struct tp_fmt *f);
int tp_fmt__print(const struct tp_fmt *f, const void *data, uint32_t size, char *buf, size_t cap);

#endif
