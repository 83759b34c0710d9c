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
