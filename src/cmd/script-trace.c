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
	struct tp_fmt *fmt;		/* its print format compiled, or NULL */
	bool direct;			/* formatted without the memo (see trace_memo__print) */
	uint32_t tried, found;		/* the sampled payloads of this window, those in the memo */
};

struct trace_memo {
	struct memo_event *events;
	size_t nr_events;
	struct text_memo *texts;	/* by event id and payload */
	bool type_known;		/* common_type's place looked up */
	uint32_t type_off, type_size;	/* where it is (size 0: tep_data_type() reads it) */
	char buf[4096];			/* a text tp_fmt__print() made */
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
	size_t i;

	if (!m)
		return;
	text_memo__delete(m->texts);
	for (i = 0; i < m->nr_events; i++)
		tp_fmt__delete(m->events[i].fmt);
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

/*
 * Constant folding of a print format's arithmetic. libtraceevent folds a parenthesized
 * constant as it parses, but not in the field of __print_flags() or __print_symbolic(), and
 * evaluates every operator there each time it prints, an atom by strtoull() of its text:
 * sched_switch's prev_state flags read (((0x00000000 | 0x00000001 | ... | 0x00000040) + 1)
 * << 1) - 1, 12 atoms, on every record. An operator of two numeric atoms becomes the atom of
 * its value (what eval_num_arg() computes: 64-bit unsigned) where the value is a number: as
 * operands of operators, conditions of '?' and the fields of __print_flags() and
 * __print_symbolic(), never the values a '?' chooses (printed as they are) nor through a
 * cast or a function. The text printed stays libtraceevent's, atom for atom.
 */
static bool atom_value(const struct tep_print_arg *a, unsigned long long *v)
{
	char *end;

	if (a->type != TEP_PRINT_ATOM || !a->atom.atom ||
	    !(a->atom.atom[0] >= '0' && a->atom.atom[0] <= '9'))
		return false;
	*v = strtoull(a->atom.atom, &end, 0);
	return !*end && *v < (1ull << 63);
}

/*
 * @l OP @r as eval_num_arg() computes it, into *@v: false for an operator not folded (its
 * comparisons and logic, '/' and '%', and '^', which libtraceevent 1.7 evaluates to 0)
 */
static bool fold_op(const char *op, unsigned long long l, unsigned long long r,
		    unsigned long long *v)
{
	if (!strcmp(op, "|"))
		*v = l | r;
	else if (!strcmp(op, "&"))
		*v = l & r;
	else if (!strcmp(op, "+"))
		*v = l + r;
	else if (!strcmp(op, "-") && l >= r)
		*v = l - r;
	else if (!strcmp(op, "<<") && r < 63 && l < (1ull << (63 - r)))
		*v = l << r;
	else if (!strcmp(op, ">>") && r < 64)
		*v = l >> r;
	else
		return false;
	return *v < (1ull << 63);
}

static void fold_values(struct tep_print_arg *a);

/* fold @a where it is a number: true where it is (now) a numeric atom, its value in *@v */
static bool fold_num(struct tep_print_arg *a, unsigned long long *v)
{
	unsigned long long l, r;
	bool lnum, rnum;
	char num[24], *atom;

	if (!a)
		return false;
	if (a->type == TEP_PRINT_ATOM)
		return atom_value(a, v);
	if (a->type != TEP_PRINT_OP || !a->op.op || !strcmp(a->op.op, "?") ||
	    !strcmp(a->op.op, ":")) {
		fold_values(a);
		return false;
	}
	lnum = fold_num(a->op.left, &l);	/* (both sides folded, whatever the other) */
	rnum = fold_num(a->op.right, &r);
	if (!lnum || !rnum || !fold_op(a->op.op, l, r, v))
		return false;
	snprintf(num, sizeof(num), "%llu", *v);
	atom = strdup(num);
	if (!atom)
		return false;
	free(a->op.left->atom.atom);
	free(a->op.left);
	free(a->op.right->atom.atom);
	free(a->op.right);
	free(a->op.op);
	a->type = TEP_PRINT_ATOM;
	a->atom.atom = atom;
	return true;
}

/* fold within @a, an argument printed as it is (a value, not only a number) */
static void fold_values(struct tep_print_arg *a)
{
	unsigned long long v;

	if (!a)
		return;
	switch (a->type) {
	case TEP_PRINT_OP:
		if (a->op.op && !strcmp(a->op.op, "?")) {
			fold_num(a->op.left, &v);
			fold_values(a->op.right);
		} else if (a->op.op && !strcmp(a->op.op, ":")) {
			fold_values(a->op.left);
			fold_values(a->op.right);
		} else {
			fold_num(a->op.left, &v);
			fold_num(a->op.right, &v);
		}
		break;
	case TEP_PRINT_FLAGS:
		fold_num(a->flags.field, &v);
		break;
	case TEP_PRINT_SYMBOL:
		fold_num(a->symbol.field, &v);
		break;
	default:
		break;
	}
}

/* the memo's event @id, NULL where it has not met it */
static struct memo_event *find_event(const struct trace_memo *m, int id)
{
	size_t i;

	for (i = 0; i < m->nr_events; i++)
		if (m->events[i].id == id)
			return &m->events[i];
	return NULL;
}

static struct memo_event *event_of(struct trace_memo *m, struct tep_handle *tep, int id)
{
	struct tep_print_arg *a;
	struct tep_format_field *f;
	struct tep_event *ev;
	struct memo_event *e = find_event(m, id);

	if (e)
		return e;
	e = realloc(m->events, (m->nr_events + 1) * sizeof(*e));
	if (!e)
		return NULL;
	m->events = e;
	e = &m->events[m->nr_events++];
	*e = (struct memo_event){ .id = id, .kind = EV_PRINT, .off = UINT32_MAX };
	ev = tep_find_event(tep, id);
	for (a = ev && !(ev->flags & TEP_EVENT_FL_FAILED) ? ev->print_fmt.args : NULL; a; a = a->next)
		fold_values(a);
	e->fmt = tp_fmt__new(ev);
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
static const char *print(struct tep_handle *tep, struct trace_seq *ts, struct tep_record *rec,
			 size_t *len)
{
	trace_seq_reset(ts);
	tep_print_event(tep, ts, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(ts);
	if (len)
		*len = strlen(ts->buffer);
	return ts->buffer;
}

/*
 * tep_data_type() of @rec: common_type read in place where it is a native field of 1, 2 or 4
 * bytes (libtraceevent's lookup of its place is a tenth of script's time per record)
 */
static int data_type(struct trace_memo *m, struct tep_handle *tep, struct tep_record *rec)
{
	if (!m->type_known) {
		struct tep_event *ev = tep_get_first_event(tep);
		struct tep_format_field *f = ev ? tep_find_common_field(ev, "common_type") : NULL;

		m->type_known = true;
		if (f && f->offset >= 0 && (f->size == 1 || f->size == 2 || f->size == 4) &&
		    tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep)) {
			m->type_off = (uint32_t)f->offset;
			m->type_size = (uint32_t)f->size;
		}
	}
	if (m->type_size && (uint64_t)m->type_off + m->type_size <= (uint32_t)rec->size) {
		const uint8_t *p = (const uint8_t *)rec->data + m->type_off;
		uint16_t v2;
		uint32_t v4;

		switch (m->type_size) {
		case 1:
			return *p;
		case 2:
			memcpy(&v2, p, 2);
			return v2;
		default:
			memcpy(&v4, p, 4);
			return (int)v4;
		}
	}
	return tep_data_type(tep, rec);
}

/*
 * The text of @rec made now: by @e's compiled format into m->buf, else by libtraceevent into
 * @ts; its length in *@len, and whether it is whole (a text libtraceevent cut is not kept)
 */
static const char *format(struct trace_memo *m, const struct memo_event *e,
			  struct tep_handle *tep, struct trace_seq *ts, struct tep_record *rec,
			  uint32_t *len, bool *whole)
{
	int n = e && e->fmt ? tp_fmt__print(e->fmt, rec->data, (uint32_t)rec->size, m->buf,
					    sizeof(m->buf)) : -1;

	if (n >= 0) {
		*len = (uint32_t)n;
		*whole = true;
		return m->buf;
	}
	print(tep, ts, rec, NULL);
	*len = (uint32_t)strlen(ts->buffer);
	*whole = ts->state == TRACE_SEQ__GOOD;
	return ts->buffer;
}

/*
 * The memo pays where payloads repeat: on a recording of two tasks switching every payload
 * is found (sched-pingpong x 20: 100%, script 37 ms with it, 59 ms without). Where they do
 * not (hackbench with 800 tasks: 68.5% found), a lookup is cache misses in a table of megabytes,
 * dearer than formatting with the compiled format (81 ms with the memo, 62 ms without). So
 * the payloads whose hash has its top SAMPLE_BITS clear always go through the memo, and how
 * many of them it finds in a window of WINDOW decides, for each event, whether the others
 * do: the sample sees the memo as it would be if every payload went through it. Events
 * without a compiled format always use the memo (libtraceevent's print is dearer still).
 */
#define SAMPLE_BITS	4
#define WINDOW		1024
#define WINDOW_FOUND	(WINDOW * 9 / 10)

bool trace_memo__direct(const struct trace_memo *m, int id)
{
	const struct memo_event *e = m ? find_event(m, id) : NULL;

	return e && e->direct;
}

/* a sampled payload of @e, @found in the memo or not: at the end of a window, the decision */
static void window_count(struct memo_event *e, bool found)
{
	e->found += found;
	if (++e->tried == WINDOW) {
		e->direct = e->found < WINDOW_FOUND;
		e->tried = e->found = 0;
	}
}

const char *trace_memo__print(struct trace_memo *m, struct tep_handle *tep,
			      struct trace_seq *ts, struct tep_record *rec, size_t *len)
{
	const unsigned char *key;
	const char *text, *kept;
	struct memo_event *e;
	uint32_t klen, tlen;
	bool whole, sampled, memo;
	uint64_t h;
	int id;

	if (!m || rec->size <= 0)
		return print(tep, ts, rec, len);
	id = data_type(m, tep, rec);
	e = event_of(m, tep, id);
	if (!e || e->kind != EV_MEMO || (uint32_t)rec->size < e->off) {
		text = format(m, e, tep, ts, rec, &tlen, &whole);
	} else {
		key = (const unsigned char *)rec->data + e->off;
		klen = (uint32_t)rec->size - e->off;
		h = hash_bytes(key, klen, (uint64_t)(uint32_t)id << 32);
		sampled = e->fmt && !(h >> (64 - SAMPLE_BITS));
		memo = sampled || !e->direct;
		text = memo ? text_memo__get(m->texts, id, key, klen, h, &tlen) : NULL;
		if (sampled)
			window_count(e, text != NULL);
		if (!text) {
			text = format(m, e, tep, ts, rec, &tlen, &whole);
			kept = memo && whole ? text_memo__put(m->texts, id, key, klen, h, text, tlen)
					     : NULL;
			text = kept ?: text;
		}
	}
	if (len)
		*len = tlen;
	return text;
}
