// SPDX-License-Identifier: GPL-2.0
/*
 * script's tracepoint payloads: libtraceevent's text for a record (TEP_PRINT_INFO), kept
 * per event and payload. A scheduler recording repeats its payloads (a wakeup of the same
 * task on the same CPU, the same two tasks switching), and formatting them was most of
 * script's time on such a file. The text is a function of the payload bytes when the event
 * has no handler of its own and its print format reads no common_* field and calls no
 * function: such events are looked up by their bytes past the common fields, the others
 * always printed. The memo (script-memo.c) empties at its bound and fills again.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "schedlens/util.h"

#include "script-int.h"

enum { EV_UNKNOWN, EV_MEMO, EV_PRINT };

struct memo_event {
	int id;
	int kind;			/* EV_* */
	uint32_t off;			/* where the payload's own fields start */
};

struct trace_memo {
	struct memo_event *events;
	size_t nr_events;
	struct text_memo *texts;	/* by event id and payload */
};

struct trace_memo *trace_memo__new(size_t max_bytes)
{
	struct trace_memo *m = calloc(1, sizeof(*m));

	if (m && !(m->texts = text_memo__new(max_bytes))) {
		free(m);
		return NULL;
	}
	return m;
}

void trace_memo__delete(struct trace_memo *m)
{
	if (!m)
		return;
	text_memo__delete(m->texts);
	free(m->events);
	free(m);
}

/* whether the text of @a (and the args after it) depends on the payload's own fields only */
static bool args_pure(const struct tep_print_arg *a)
{
	for (; a; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_NULL:
		case TEP_PRINT_ATOM:
		case TEP_PRINT_STRING:
		case TEP_PRINT_BITMASK:
		case TEP_PRINT_CPUMASK:
			break;
		case TEP_PRINT_FIELD:
			if (!a->field.name || !strncmp(a->field.name, "common_", 7))
				return false;
			break;
		case TEP_PRINT_FLAGS:
			if (!args_pure(a->flags.field))
				return false;
			break;
		case TEP_PRINT_SYMBOL:
			if (!args_pure(a->symbol.field))
				return false;
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (!args_pure(a->hex.field) || !args_pure(a->hex.size))
				return false;
			break;
		case TEP_PRINT_INT_ARRAY:
			if (!args_pure(a->int_array.field) || !args_pure(a->int_array.count) ||
			    !args_pure(a->int_array.el_size))
				return false;
			break;
		case TEP_PRINT_TYPE:
			if (!args_pure(a->typecast.item))
				return false;
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
		case TEP_PRINT_DYNAMIC_ARRAY_LEN:
			if (!a->dynarray.field || !a->dynarray.field->name ||
			    !strncmp(a->dynarray.field->name, "common_", 7) ||
			    !args_pure(a->dynarray.index))
				return false;
			break;
		case TEP_PRINT_OP:
			if (!args_pure(a->op.left) || !args_pure(a->op.right))
				return false;
			break;
		default:			/* functions, bprint strings, what comes later */
			return false;
		}
	}
	return true;
}

static struct memo_event *event_of(struct trace_memo *m, struct tep_handle *tep, int id)
{
	struct tep_format_field *f;
	struct tep_event *ev;
	struct memo_event *e;
	size_t i;

	for (i = 0; i < m->nr_events; i++)
		if (m->events[i].id == id)
			return &m->events[i];
	e = realloc(m->events, (m->nr_events + 1) * sizeof(*e));
	if (!e)
		return NULL;
	m->events = e;
	e = &m->events[m->nr_events++];
	*e = (struct memo_event){ id, EV_PRINT, UINT32_MAX };
	ev = tep_find_event(tep, id);
	if (!ev || ev->handler || (ev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISFTRACE |
						TEP_EVENT_FL_ISPRINT | TEP_EVENT_FL_ISBPRINT)) ||
	    !args_pure(ev->print_fmt.args))
		return e;
	for (f = ev->format.fields; f; f = f->next)
		if ((uint32_t)f->offset < e->off)
			e->off = (uint32_t)f->offset;
	for (f = ev->format.common_fields; f; f = f->next)
		if ((uint32_t)(f->offset + f->size) > e->off)
			return e;		/* a payload field among the common ones */
	if (e->off != UINT32_MAX)
		e->kind = EV_MEMO;
	return e;
}

/* tep_print_event()'s INFO text of @rec, into @ts: what script printed before */
static const char *print(struct tep_handle *tep, struct trace_seq *ts, struct tep_record *rec)
{
	trace_seq_reset(ts);
	tep_print_event(tep, ts, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(ts);
	return ts->buffer;
}

const char *trace_memo__print(struct trace_memo *m, struct tep_handle *tep,
			      struct trace_seq *ts, struct tep_record *rec)
{
	const unsigned char *key;
	const char *text;
	struct memo_event *e;
	uint32_t klen, tlen;
	uint64_t h;
	int id;

	if (!m || rec->size <= 0)
		return print(tep, ts, rec);
	id = tep_data_type(tep, rec);
	e = event_of(m, tep, id);
	if (!e || e->kind != EV_MEMO || (uint32_t)rec->size < e->off)
		return print(tep, ts, rec);
	key = (const unsigned char *)rec->data + e->off;
	klen = (uint32_t)rec->size - e->off;
	h = hash_bytes(key, klen, (uint64_t)(uint32_t)id << 32);
	text = text_memo__get(m->texts, id, key, klen, h, &tlen);
	if (text)
		return text;
	print(tep, ts, rec);
	if (ts->state != TRACE_SEQ__GOOD)
		return ts->buffer;
	text = text_memo__put(m->texts, id, key, klen, h, ts->buffer,
			      (uint32_t)strlen(ts->buffer));
	return text ? text : ts->buffer;
}
