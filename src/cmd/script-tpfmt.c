// SPDX-License-Identifier: GPL-2.0
/*
 * A tracepoint's print format compiled once, for script's payload text: the format as
 * libtraceevent 1.7 parsed it (its args, its format string) turned into segments and
 * expression nodes with every constant, field offset and flag value resolved, printed with
 * no interpretation of strings, no trace_seq and no vsnprintf. libtraceevent spends about
 * 18,000 instructions on a sched_switch record (print_str_arg() through a helper trace_seq
 * for each %s, strtoull() of each flag value, vsnprintf() for each conversion); this is a few
 * hundred. Only what prints exactly as libtraceevent prints it is compiled: %d %i %u %x %X
 * with the flags '-' and '0', a width and the h, hh, l, ll and L sizes; %s (with '-' and a
 * width) of a char array, __get_str(), a literal, __print_flags(), __print_symbolic() and
 * '?' ':' choices; numbers from fields, atoms, casts and the operators eval_num_arg()
 * knows. Any other format (%p, arrays, functions, '^', a cast in a %s), and any record whose
 * fields lie past its end, is left to libtraceevent: tp_fmt__new() returns NULL,
 * tp_fmt__print() -1. tests/unit/test-script-tpfmt.c compares the two on random payloads
 * of real formats.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "script-int.h"

enum node_kind {
	N_CONST,		/* a number: an atom, or a null arg */
	N_FIELD,		/* a number read from the payload */
	N_OP,			/* a binary (or unary: '!', '~') operator */
	N_COND,			/* a ? b : c */
	N_TEXT,			/* %s of an atom: its text */
	N_CHARS,		/* %s of a char array field: up to its first NUL */
	N_DYNSTR,		/* %s of __get_str() */
	N_FLAGS,		/* %s of __print_flags() */
	N_SYMBOL,		/* %s of __print_symbolic() */
	N_NOTHING,		/* %s of an operator other than '?': prints nothing */
};

enum op {
	OP_NOT, OP_NE, OP_INV, OP_OR, OP_LOR, OP_AND, OP_LAND, OP_LT, OP_SHL, OP_LE, OP_GT,
	OP_SHR, OP_GE, OP_EQ, OP_SUB, OP_ADD, OP_DIV, OP_MOD, OP_MUL,
};

static const char *const op_names[] = {
	[OP_NOT] = "!", [OP_NE] = "!=", [OP_INV] = "~", [OP_OR] = "|", [OP_LOR] = "||",
	[OP_AND] = "&", [OP_LAND] = "&&", [OP_LT] = "<", [OP_SHL] = "<<", [OP_LE] = "<=",
	[OP_GT] = ">", [OP_SHR] = ">>", [OP_GE] = ">=", [OP_EQ] = "==", [OP_SUB] = "-",
	[OP_ADD] = "+", [OP_DIV] = "/", [OP_MOD] = "%", [OP_MUL] = "*",
};

struct flag_sym {
	long long value;		/* eval_flag()'s */
	const char *str;
	size_t len;
};

struct node {
	enum node_kind kind;
	enum op op;
	uint32_t off, size;		/* N_FIELD, N_CHARS, N_DYNSTR (size 0: to the end) */
	bool relative;			/* N_DYNSTR of a __rel_loc field */
	uint64_t value;			/* N_CONST */
	const char *text;		/* N_TEXT; the delimiter of N_FLAGS */
	size_t len;
	struct node *a, *b, *c;		/* operands; N_COND: a ? b : c; N_FLAGS/N_SYMBOL: a */
	struct flag_sym *syms;
	size_t nr_syms;
};

enum seg_kind { S_LIT, S_NUM, S_STR };

struct seg {
	enum seg_kind kind;
	char *lit;			/* S_LIT */
	size_t len;
	char conv;			/* d i u x X s */
	int ls;				/* -2 hh, -1 h, 0, 1 l, 2 ll */
	bool left, zero;
	int width;
	struct node *arg;
};

struct tp_fmt {
	struct seg *segs;
	size_t nr_segs;
	struct node **nodes;		/* every node, to free */
	size_t nr_nodes;
	bool failed;			/* while compiling */
};

static struct node *node_new(struct tp_fmt *f, enum node_kind kind)
{
	struct node **v, *n;

	if (f->failed)
		return NULL;
	v = realloc(f->nodes, (f->nr_nodes + 1) * sizeof(*v));
	n = v ? calloc(1, sizeof(*n)) : NULL;
	if (v)
		f->nodes = v;
	if (!n) {
		f->failed = true;
		return NULL;
	}
	n->kind = kind;
	f->nodes[f->nr_nodes++] = n;
	return n;
}

static struct node *fail(struct tp_fmt *f)
{
	f->failed = true;
	return NULL;
}

static struct tep_format_field *field_of(struct tep_event *ev, struct tep_format_field *field,
					 const char *name)
{
	return field ? field : name ? tep_find_any_field(ev, name) : NULL;
}

/* eval_flag() of libtraceevent, for the values compiled: a number's text (others not) */
static bool flag_value(const char *s, long long *v)
{
	if (!s || !isdigit((unsigned char)s[0]))
		return false;
	*v = (long long)strtoull(s, NULL, 0);
	return true;
}

static struct node *compile_num(struct tp_fmt *f, struct tep_event *ev, struct tep_print_arg *a);

static bool compile_syms(struct tp_fmt *f, struct node *n, struct tep_print_flag_sym *s)
{
	struct tep_print_flag_sym *p;
	size_t i = 0;

	for (p = s; p; p = p->next)
		n->nr_syms++;
	n->syms = calloc(n->nr_syms ?: 1, sizeof(*n->syms));
	if (!n->syms)
		return false;
	for (p = s; p; p = p->next, i++) {
		if (!p->str || !flag_value(p->value, &n->syms[i].value))
			return false;
		n->syms[i].str = p->str;
		n->syms[i].len = strlen(p->str);
	}
	return true;
}

static struct node *compile_op(struct tp_fmt *f, struct tep_event *ev, struct tep_print_arg *a)
{
	struct node *n;
	size_t i;

	if (!a->op.op)
		return fail(f);
	if (!strcmp(a->op.op, "?")) {
		struct tep_print_arg *r = a->op.right;

		if (!r || r->type != TEP_PRINT_OP || !r->op.op || strcmp(r->op.op, ":"))
			return fail(f);
		n = node_new(f, N_COND);
		if (n) {
			n->a = compile_num(f, ev, a->op.left);
			n->b = compile_num(f, ev, r->op.left);
			n->c = compile_num(f, ev, r->op.right);
		}
		return f->failed ? NULL : n;
	}
	for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (!strcmp(a->op.op, op_names[i]))
			break;
	/* '[' and the operators libtraceevent warns of and evaluates to 0 ('^' among them) */
	if (i == sizeof(op_names) / sizeof(op_names[0]) || !a->op.left || !a->op.right)
		return fail(f);
	n = node_new(f, N_OP);
	if (n) {
		n->op = (enum op)i;
		n->a = compile_num(f, ev, a->op.left);
		n->b = compile_num(f, ev, a->op.right);
	}
	return f->failed ? NULL : n;
}

/*
 * eval_type_str() of a cast to @type, as a mask: a pointer, a struct and a 64-bit or
 * unknown type keep the value; a char, short and int (signed or not, as u8 ... s32) keep
 * their low bits (sign-extended, then masked: the same bits)
 */
static uint64_t cast_mask(const char *type)
{
	static const struct { const char *name; uint64_t mask; } types[] = {
		{ "u8", 0xff }, { "s8", 0xff }, { "u16", 0xffff }, { "s16", 0xffff },
		{ "u32", 0xffffffff }, { "s32", 0xffffffff }, { "char", 0xff },
		{ "short", 0xffff }, { "int", 0xffffffff },
	};
	size_t len = strlen(type), i;

	if (!len || type[len - 1] == '*' || !strncmp(type, "struct", 6))
		return UINT64_MAX;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i].name) || (i >= 6 && !strncmp(type, "unsigned ", 9) &&
						     !strcmp(type + 9, types[i].name)))
			return types[i].mask;
	return UINT64_MAX;
}

/* @a where eval_num_arg() evaluates it */
static struct node *compile_num(struct tp_fmt *f, struct tep_event *ev, struct tep_print_arg *a)
{
	struct tep_format_field *field;
	struct node *n;

	if (!a || f->failed)
		return fail(f);
	switch (a->type) {
	case TEP_PRINT_NULL:
		n = node_new(f, N_CONST);
		return n;
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return fail(f);
		n = node_new(f, N_CONST);
		if (n)
			n->value = strtoull(a->atom.atom, NULL, 0);
		return n;
	case TEP_PRINT_FIELD:
		field = field_of(ev, a->field.field, a->field.name);
		if (!field || field->offset < 0 || field->size < 0)
			return fail(f);
		n = node_new(f, N_FIELD);
		if (n) {
			n->off = (uint32_t)field->offset;
			n->size = (uint32_t)field->size;
		}
		return n;
	case TEP_PRINT_OP:
		return compile_op(f, ev, a);
	case TEP_PRINT_TYPE:		/* a cast: the item, masked */
		if (!a->typecast.type || !a->typecast.item)
			return fail(f);
		if (cast_mask(a->typecast.type) == UINT64_MAX)
			return compile_num(f, ev, a->typecast.item);
		n = node_new(f, N_OP);
		if (n) {
			n->op = OP_AND;
			n->a = compile_num(f, ev, a->typecast.item);
			n->b = node_new(f, N_CONST);
			if (n->b)
				n->b->value = cast_mask(a->typecast.type);
		}
		return f->failed ? NULL : n;
	default:			/* functions, arrays, strings as numbers */
		return fail(f);
	}
}

/* @a where print_str_arg() prints it */
static struct node *compile_str(struct tp_fmt *f, struct tep_event *ev, struct tep_print_arg *a)
{
	struct tep_format_field *field;
	struct node *n;

	if (!a || f->failed)
		return fail(f);
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return fail(f);
		n = node_new(f, N_TEXT);
		if (n) {
			n->text = a->atom.atom;
			n->len = strlen(a->atom.atom);
		}
		return n;
	case TEP_PRINT_FIELD:
		field = field_of(ev, a->field.field, a->field.name);
		/* a long-sized scalar is printed as a pointer (a printk format's address) */
		if (!field || field->offset < 0 || field->size < 0 ||
		    (!(field->flags & TEP_FIELD_IS_ARRAY) &&
		     field->size == tep_get_long_size(ev->tep)))
			return fail(f);
		n = node_new(f, N_CHARS);
		if (n) {
			n->off = (uint32_t)field->offset;
			n->size = (uint32_t)field->size;
		}
		return n;
	case TEP_PRINT_STRING:
		field = field_of(ev, a->string.field, a->string.string);
		if (!field || field->offset < 0 || field->size < 0)
			return fail(f);
		n = node_new(f, N_DYNSTR);
		if (n) {
			n->off = (uint32_t)field->offset;
			n->size = (uint32_t)field->size;
			n->relative = field->flags & TEP_FIELD_IS_RELATIVE;
		}
		return n;
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
		n = node_new(f, a->type == TEP_PRINT_FLAGS ? N_FLAGS : N_SYMBOL);
		if (!n)
			return NULL;
		n->a = compile_num(f, ev, a->type == TEP_PRINT_FLAGS ? a->flags.field
								   : a->symbol.field);
		if (a->type == TEP_PRINT_FLAGS && a->flags.delim) {
			n->text = a->flags.delim;
			n->len = strlen(a->flags.delim);
		}
		if (!f->failed && !compile_syms(f, n, a->type == TEP_PRINT_FLAGS ? a->flags.flags
									 : a->symbol.symbols))
			return fail(f);
		return f->failed ? NULL : n;
	case TEP_PRINT_OP:
		if (!a->op.op)
			return fail(f);
		if (strcmp(a->op.op, "?"))
			return node_new(f, N_NOTHING);
		if (!a->op.right || a->op.right->type != TEP_PRINT_OP || !a->op.right->op.op ||
		    strcmp(a->op.right->op.op, ":"))
			return fail(f);
		n = node_new(f, N_COND);
		if (n) {
			n->a = compile_num(f, ev, a->op.left);
			n->b = compile_str(f, ev, a->op.right->op.left);
			n->c = compile_str(f, ev, a->op.right->op.right);
		}
		return f->failed ? NULL : n;
	default:
		return fail(f);
	}
}

static bool seg_add(struct tp_fmt *f, const struct seg *s)
{
	struct seg *v = realloc(f->segs, (f->nr_segs + 1) * sizeof(*v));

	if (!v)
		return false;
	f->segs = v;
	f->segs[f->nr_segs++] = *s;
	return true;
}

/* literal text up to the next conversion, as parse_arg_string() takes it: its length */
static size_t parse_lit(struct tp_fmt *f, const char *p)
{
	struct seg s = { .kind = S_LIT };
	const char *start = p;
	char *out = malloc(strlen(p) + 1);

	if (!out) {
		f->failed = true;
		return 0;
	}
	s.lit = out;
	for (; *p; p++) {
		if (*p == '\\') {
			p++;
			if (!*p) {		/* libtraceevent would read past the end */
				f->failed = true;
				break;
			}
			*out++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p;
		} else if (*p == '%') {
			if (p[1] != '%')
				break;
			*out++ = '%';
			p++;
		} else {
			*out++ = *p;
		}
	}
	s.len = (size_t)(out - s.lit);
	if (f->failed || !seg_add(f, &s)) {
		free(s.lit);
		f->failed = true;
	}
	return (size_t)(p - start);
}

/*
 * a conversion at @p ('%'), in the canonical order printf reads: flags '-' and '0', a width,
 * then the size, then d i u x X or s; its length, with *@arg moved past its argument
 */
static size_t parse_conv(struct tp_fmt *f, struct tep_event *ev, const char *p,
			 struct tep_print_arg **arg)
{
	struct seg s = { .kind = S_NUM };
	const char *q = p + 1;

	for (; *q == '-' || *q == '0'; q++) {
		if (*q == '-')
			s.left = true;
		else
			s.zero = true;
	}
	while (*q >= '0' && *q <= '9' && s.width < 4096)
		s.width = s.width * 10 + (*q++ - '0');
	if (*q == 'L') {
		s.ls = 2;
		q++;
	} else {
		while (*q == 'h' || *q == 'l') {
			s.ls += *q == 'h' ? -1 : 1;
			if (q[1] && q[1] != *q && (q[1] == 'h' || q[1] == 'l'))
				return fail(f), 0;
			q++;
		}
	}
	if (s.ls < -2 || s.ls > 2 || (s.ls == 1 && sizeof(long) != 8) || s.width >= 4096 ||
	    !*arg) {
		f->failed = true;
		return 0;
	}
	s.conv = *q;
	switch (*q) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
		s.arg = compile_num(f, ev, *arg);
		break;
	case 's':
		if (s.zero || s.ls) {
			f->failed = true;
			return 0;
		}
		s.kind = S_STR;
		s.arg = compile_str(f, ev, *arg);
		break;
	default:			/* %p and the rest */
		f->failed = true;
		return 0;
	}
	if (s.zero && s.left)
		s.zero = false;		/* printf: '-' overrides '0' */
	*arg = (*arg)->next;
	if (f->failed || !seg_add(f, &s)) {
		f->failed = true;
		return 0;
	}
	return (size_t)(q + 1 - p);
}

void tp_fmt__delete(struct tp_fmt *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_segs; i++)
		free(f->segs[i].lit);
	for (i = 0; i < f->nr_nodes; i++) {
		free(f->nodes[i]->syms);
		free(f->nodes[i]);
	}
	free(f->segs);
	free(f->nodes);
	free(f);
}

struct tp_fmt *tp_fmt__new(struct tep_event *ev)
{
	struct tep_print_arg *arg;
	struct tp_fmt *f;
	const char *p;

	if (!ev || !ev->tep || !ev->print_fmt.format || ev->handler ||
	    (ev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISFTRACE | TEP_EVENT_FL_ISPRINT |
			  TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW)) ||
	    tep_is_file_bigendian(ev->tep) != tep_is_local_bigendian(ev->tep))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	arg = ev->print_fmt.args;
	for (p = ev->print_fmt.format; *p && !f->failed;) {
		size_t n = *p == '%' && p[1] != '%' ? parse_conv(f, ev, p, &arg) : parse_lit(f, p);

		if (!n)
			break;
		p += n;
	}
	if (f->failed) {
		tp_fmt__delete(f);
		return NULL;
	}
	return f;
}

struct out {
	char *p, *end;
	bool full;
};

static void put(struct out *o, const char *s, size_t n)
{
	if ((size_t)(o->end - o->p) <= n) {
		o->full = true;
		return;
	}
	memcpy(o->p, s, n);
	o->p += n;
}

static void pad(struct out *o, char c, size_t n)
{
	if ((size_t)(o->end - o->p) <= n) {
		o->full = true;
		return;
	}
	memset(o->p, c, n);
	o->p += n;
}

/* @s of @n bytes as printf's %s with @sg's flags and width */
static void put_str(struct out *o, const struct seg *sg, const char *s, size_t n)
{
	size_t w = (size_t)sg->width;

	if (!sg->left && w > n)
		pad(o, ' ', w - n);
	put(o, s, n);
	if (sg->left && w > n)
		pad(o, ' ', w - n);
}

static uint64_t read_num(const uint8_t *p, uint32_t size)
{
	uint8_t v1;
	uint16_t v2;
	uint32_t v4;
	uint64_t v8;

	switch (size) {
	case 1:
		memcpy(&v1, p, 1);
		return v1;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	case 8:
		memcpy(&v8, p, 8);
		return v8;
	default:			/* tep_read_number() of another size */
		return 0;
	}
}

struct rec {
	const uint8_t *data;
	uint32_t size;
	bool bad;			/* a field past the end, a division by 0: libtraceevent's */
};

static uint64_t eval(struct rec *r, const struct node *n)
{
	uint64_t a, b;

	switch (n->kind) {
	case N_CONST:
		return n->value;
	case N_FIELD:
		if ((uint64_t)n->off + n->size > r->size) {
			r->bad = true;
			return 0;
		}
		return read_num(r->data + n->off, n->size);
	case N_COND:
		return eval(r, n->a) ? eval(r, n->b) : eval(r, n->c);
	case N_OP:
		break;
	default:
		r->bad = true;
		return 0;
	}
	a = eval(r, n->a);
	b = eval(r, n->b);
	switch (n->op) {
	case OP_NOT: return !b;
	case OP_NE: return a != b;
	case OP_INV: return ~b;
	case OP_OR: return a | b;
	case OP_LOR: return a || b;
	case OP_AND: return a & b;
	case OP_LAND: return a && b;
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_EQ: return a == b;
	case OP_SUB: return a - b;
	case OP_ADD: return a + b;
	case OP_MUL: return a * b;
	case OP_SHL:
	case OP_SHR:
		if (b >= 64) {
			r->bad = true;
			return 0;
		}
		return n->op == OP_SHL ? a << b : a >> b;
	case OP_DIV:
	case OP_MOD:
		if (!b) {
			r->bad = true;
			return 0;
		}
		return n->op == OP_DIV ? a / b : a % b;
	}
	return 0;
}

/* "0x%llx" */
static void put_hex0x(struct out *o, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	put(o, p, (size_t)(buf + sizeof(buf) - p));
}

static void print_str(struct out *o, struct rec *r, const struct seg *sg, const struct node *n)
{
	const uint8_t *s;
	long long val;
	uint32_t off, len;
	size_t i;
	bool any;

	switch (n->kind) {
	case N_TEXT:
		put_str(o, sg, n->text, n->len);
		return;
	case N_NOTHING:
		return;
	case N_CHARS:
		len = n->size ? n->size : r->size > n->off ? r->size - n->off : 0;
		if ((uint64_t)n->off + len > r->size || !len) {
			r->bad = true;
			return;
		}
		s = r->data + n->off;
		put_str(o, sg, (const char *)s, strnlen((const char *)s, len));
		return;
	case N_DYNSTR:
		if ((uint64_t)n->off + 4 > r->size) {
			r->bad = true;
			return;
		}
		off = (uint32_t)read_num(r->data + n->off, 4) & 0xffff;
		if (n->relative)
			off += n->off + n->size;
		if (off >= r->size) {
			r->bad = true;
			return;
		}
		s = r->data + off;
		len = (uint32_t)strnlen((const char *)s, r->size - off);
		if (len == r->size - off) {		/* no NUL within the record */
			r->bad = true;
			return;
		}
		put_str(o, sg, (const char *)s, len);
		return;
	case N_COND:
		print_str(o, r, sg, eval(r, n->a) ? n->b : n->c);
		return;
	case N_FLAGS:
		val = (long long)eval(r, n->a);
		any = false;
		for (i = 0; i < n->nr_syms; i++) {
			long long fv = n->syms[i].value;

			if (!val && fv < 0) {
				put_str(o, sg, n->syms[i].str, n->syms[i].len);
				break;
			}
			if (fv > 0 && (val & fv) == fv) {
				if (any && n->text)
					put(o, n->text, n->len);
				put_str(o, sg, n->syms[i].str, n->syms[i].len);
				any = true;
				val &= ~fv;
			}
		}
		if (val) {
			if (any && n->text)
				put(o, n->text, n->len);
			put_hex0x(o, (uint64_t)val);
		}
		return;
	case N_SYMBOL:
		val = (long long)eval(r, n->a);
		for (i = 0; i < n->nr_syms; i++)
			if (val == n->syms[i].value) {
				put_str(o, sg, n->syms[i].str, n->syms[i].len);
				return;
			}
		put_hex0x(o, (uint64_t)val);
		return;
	default:
		r->bad = true;
		return;
	}
}

/* @v as printf prints it for @sg's conversion, after the cast print_arg_number() makes */
static void print_num(struct out *o, const struct seg *sg, uint64_t v)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	char buf[24], *p = buf + sizeof(buf);
	unsigned bits = sg->ls <= -2 ? 8 : sg->ls == -1 ? 16 : sg->ls == 0 ? 32 : 64;
	bool neg = false;
	size_t n, w = (size_t)sg->width;

	if (bits < 64)
		v &= (1ull << bits) - 1;
	if (sg->conv == 'd' || sg->conv == 'i') {
		if (bits < 64 && (v >> (bits - 1) & 1))
			v |= ~0ull << bits;		/* sign-extended */
		if ((int64_t)v < 0) {
			neg = true;
			v = -v;
		}
	}
	if (sg->conv == 'x' || sg->conv == 'X') {
		const char *dig = sg->conv == 'x' ? lower : upper;

		do
			*--p = dig[v & 15];
		while (v >>= 4);
	} else {
		p = fmt_dec_back(v, p);
	}
	n = (size_t)(buf + sizeof(buf) - p) + neg;
	if (sg->zero) {
		if (neg)
			put(o, "-", 1);
		if (w > n)
			pad(o, '0', w - n);
	} else {
		if (!sg->left && w > n)
			pad(o, ' ', w - n);
		if (neg)
			put(o, "-", 1);
	}
	put(o, p, (size_t)(buf + sizeof(buf) - p));
	if (sg->left && w > n)
		pad(o, ' ', w - n);
}

int tp_fmt__print(const struct tp_fmt *f, const void *data, uint32_t size, char *buf, size_t cap)
{
	struct out o = { buf, buf + cap, false };
	struct rec r = { data, size, false };
	size_t i;

	if (!cap)
		return -1;
	for (i = 0; i < f->nr_segs && !r.bad && !o.full; i++) {
		const struct seg *sg = &f->segs[i];

		switch (sg->kind) {
		case S_LIT:
			put(&o, sg->lit, sg->len);
			break;
		case S_NUM:
			print_num(&o, sg, eval(&r, sg->arg));
			break;
		case S_STR:
			print_str(&o, &r, sg, sg->arg);
			break;
		}
	}
	if (r.bad || o.full)
		return -1;
	*o.p = 0;
	return (int)(o.p - buf);
}
