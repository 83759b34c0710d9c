// SPDX-License-Identifier: GPL-2.0
/* symrep (symrep.h): the symbol half of report: frames per sample, skid rule, labels, paths,
 * stacks, focus; on the symbols session's public interface alone. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/callpaths.h"
#include "schedlens/focus.h"
#include "schedlens/symrep.h"

#define MAX_FRAMES 128

/*
 * Without callchains, samples are counted by the address sampled (defer_sample()): the ip,
 * the mode and the address space it is read in (gen: symbols__space()'s version, which a
 * kernel ip shares with every pid; where there is none, PLACE_BY_PID in mode, the machine's
 * generation and the pid), and what else the label holds (comm, tid, cpu, event), each
 * located once; symrep__finish() merges those by place (DSO and address) and looks up and
 * labels each place once.
 */
#define PLACE_BY_PID 0x8000

struct symrep_addr {
	uint64_t ip, gen;
	const char *comm;
	uint32_t pid, tid, cpu, idx;	/* tid: with the pid key (perf's thread) */
	uint16_t mode;
	bool used;
	struct sym_addr a;
	uint64_t nr_samples, period, first, with_caller;
};

/*
 * Rows by label number: a frame's label depends on its function (name and start; without
 * one, its address), DSO and comm alone unless a key is the sample's pid, cpu or line, so
 * those are numbered once each (struct labels), and a sample's rows are counts at their
 * numbers; symrep__rows() moves them into the tables by label.
 */
struct label_ent {
	const char *sym, *comm;
	const struct sym_dso *dso;
	uint64_t at;			/* the symbol's start, else the address printed */
	bool inlined, kernel;
};

struct labels {
	uint64_t *tab;			/* slots: the hash's high half and id + 1; 0 empty */
	size_t mask, nr, cap;
	struct label_ent *ents;		/* by id */
	struct sym_key *keys;		/* by id; str malloc'd */
	const char **raw;		/* by id: the thread's comm buffer where its comm was a
					 * placeholder (":TID"), which its first name renames */
	/* the row each label is, by id: labels of other frames can be one row (one DSO, one
	 * comm), and perf's he_cache counts a row once a sample (add_children()) */
	uint32_t *row;
	uint64_t *rtab;			/* slots: the hash's high half and row + 1; 0 empty */
	uint32_t *rid;			/* by row: a label id of it (for its string) */
	size_t rmask, nr_rows;
};

struct row_count {
	uint64_t nr_samples, period;
	uint32_t depth;
	int32_t tid;			/* the first add's */
};

struct row_vec {
	struct row_count *v;
	size_t cap;
};

#define NO_LABEL UINT32_MAX

/*
 * A sample's shape: what its rows and call paths follow from, where rows are by label number
 * (its event, comm, frames with their inlined functions and how many are path frames), and
 * what those were (ops, replayed for a later sample of the shape: the rows' and paths'
 * counts by number). The key is compared whole: a slot holds the shape last seen there.
 */
#define MEMO_SHAPES 4096
enum { OP_SELF, OP_CHILD, OP_PATH };

struct shape_op {
	uint32_t id;		/* label number (rows), count index (paths) */
	uint32_t kind_depth;	/* kind << 30 | depth */
};

struct shape {
	uint64_t hash, *key;
	struct shape_op *ops;
	uint32_t key_len, key_cap, nr_ops, ops_cap;
	uint64_t pend_nr, pend_period;	/* samples of the shape not yet counted (shape_flush()) */
	bool valid;		/* key and ops are a shape's (recorded whole) */
};

#define MEMO_COMMS 256		/* label_comm()'s memo */
#define MEMO_LABELS 32768	/* frame_label()'s memo, by frame number */

static struct labels *labels__new(void)
{
	struct labels *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->mask = 4095;
	l->tab = calloc(l->mask + 1, sizeof(*l->tab));
	if (!l->tab) {
		free(l);
		return NULL;
	}
	return l;
}

static void labels__delete(struct labels *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nr; i++)
		free((char *)l->keys[i].str);
	free(l->keys);
	free(l->ents);
	free(l->raw);
	free(l->row);
	free(l->rtab);
	free(l->rid);
	free(l->tab);
	free(l);
}

static uint64_t label_hash(const struct label_ent *e)
{
	uint64_t h = (uintptr_t)e->sym * 0x9e3779b97f4a7c15ull ^ (uintptr_t)e->comm * 31 ^
		     (uintptr_t)e->dso * 0xff51afd7ed558ccdull ^ e->at * 0xc4ceb9fe1a85ec53ull ^
		     (uint64_t)e->inlined << 1 ^ e->kernel;

	return h ^ h >> 29 ^ h >> 47;
}

static bool label_eq(const struct label_ent *x, const struct label_ent *y)
{
	return x->sym == y->sym && x->comm == y->comm && x->dso == y->dso && x->at == y->at &&
	       x->inlined == y->inlined && x->kernel == y->kernel;
}

static int labels__grow(struct labels *l)
{
	size_t nmask = l->mask * 2 + 1, i, j;
	uint64_t *n = calloc(nmask + 1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i <= l->mask; i++) {
		if (!l->tab[i])
			continue;
		for (j = label_hash(&l->ents[(uint32_t)l->tab[i] - 1]) & nmask; n[j];
		     j = (j + 1) & nmask)
			;
		n[j] = l->tab[i];
	}
	free(l->tab);
	l->tab = n;
	l->mask = nmask;
	return 0;
}

/* the row number of label @id (its string, l->keys[id]) into l->row[id]: 0 or -ENOMEM */
static int labels__number_row(struct labels *l, uint32_t id)
{
	const struct sym_key *k = &l->keys[id];
	uint64_t tag = k->hash & ~0xffffffffull;
	size_t i;

	if ((l->nr_rows + 1) * 2 > l->rmask) {
		size_t nmask = l->rmask ? l->rmask * 2 + 1 : 1023, j;
		uint64_t *n = calloc(nmask + 1, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (j = 0; j <= l->rmask && l->rtab; j++) {
			if (!l->rtab[j])
				continue;
			for (i = l->keys[l->rid[(uint32_t)l->rtab[j] - 1]].hash & nmask; n[i];
			     i = (i + 1) & nmask)
				;
			n[i] = l->rtab[j];
		}
		free(l->rtab);
		l->rtab = n;
		l->rmask = nmask;
	}
	for (i = k->hash & l->rmask; l->rtab[i]; i = (i + 1) & l->rmask) {
		uint32_t row = (uint32_t)l->rtab[i] - 1;
		const struct sym_key *o = &l->keys[l->rid[row]];

		if ((l->rtab[i] & ~0xffffffffull) == tag && o->len == k->len &&
		    !memcmp(o->str, k->str, k->len)) {
			l->row[id] = row;
			return 0;
		}
	}
	l->rid[l->nr_rows] = id;
	l->rtab[i] = tag | (l->nr_rows + 1);
	l->row[id] = (uint32_t)l->nr_rows++;
	return 0;
}

/* *@v made @n elements of @size: 0, or -ENOMEM with *@v as it was */
static int realloc_n(void **v, size_t n, size_t size)
{
	void *p = realloc(*v, n * size);

	if (!p)
		return -ENOMEM;
	*v = p;
	return 0;
}

/* *@v of *@cap elements of @size grown to hold @need (doubling from @first), zeroed: 0 or -ENOMEM */
static int grow_zeroed(void **v, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	char *n;

	while (ncap < need)
		ncap *= 2;
	n = realloc(*v, ncap * size);
	if (!n)
		return -ENOMEM;
	memset(n + *cap * size, 0, (ncap - *cap) * size);
	*v = n;
	*cap = ncap;
	return 0;
}

/* @nr samples of @period in all to a row a shape has (its first add was the shape's) */
static inline void row_vec__add_n(struct row_vec *rv, uint32_t id, uint64_t nr, uint64_t period,
				  uint32_t depth)
{
	struct row_count *c = &rv->v[id];

	c->nr_samples += nr;
	c->period += period;
	if (depth > c->depth)
		c->depth = depth;
}

static inline int row_vec__add(struct row_vec *rv, uint32_t id, uint64_t period,
			       uint32_t depth, int32_t tid)
{
	struct row_count *c;

	if (id >= rv->cap && grow_zeroed((void **)&rv->v, &rv->cap, (size_t)id + 1, sizeof(*c), 1024))
		return -ENOMEM;
	c = &rv->v[id];
	if (!c->nr_samples)
		c->tid = tid;
	c->nr_samples++;
	c->period += period;
	if (depth > c->depth)
		c->depth = depth;
	return 0;
}

/* @rv's counts into @st by label, @rv emptied */
static int row_vec__flush(struct row_vec *rv, const struct labels *l, struct sym_stacks *st)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < rv->cap && !ret; i++) {
		const struct row_count *c = &rv->v[i];

		if (c->nr_samples)
			ret = sym_stacks__merge_ref(st, &l->keys[i], c->nr_samples, c->period,
						    c->depth, c->tid);
	}
	free(rv->v);
	*rv = (struct row_vec){ NULL, 0 };
	return ret;
}

struct symrep {
	struct symrep_config cfg;
	struct symbols *syms;
	bool chains;
	struct sym_stacks **self, **children;	/* per event, by label */
	struct callpaths **cpaths;		/* per event, with -g */
	struct symrep_path **path_v;		/* per event: cpaths' counts, once finished */
	size_t *nr_paths;
	uint32_t **plnum;			/* per event: by interned label, its number
						 * (NO_LABEL: a key of the sample) */
	size_t *plnum_cap;
	struct sym_stacks *folded;
	uint64_t skid_samples, skid_period, total_period, skid_with_caller;
	const char *skid_sym;
	struct {
		const char *sym;
		bool skid;
	} memo[4096];		/* is_skid by symbol, direct mapped */
	struct labels *labels;	/* NULL: labels hold keys of the sample (pid, cpu, line) */
	struct sym_stacks *comms;	/* with labels and the comm key: each comm once */
	struct sym_stacks *levels;	/* first_level()'s: keys with '?' for the level */
	struct row_vec *self_v, *children_v;	/* with labels: rows by label number */
	bool defer, finished, comm_key, pid_key, cpu_key;
	const char *raw_comm;	/* the sample's comm as its thread has it (label_comm()'s in) */
	struct comm_memo {	/* label_comm()'s, direct mapped */
		const char *comm, *label;
		char text[24];	/* comm's text when it was met */
	} comm_memo[MEMO_COMMS];
	unsigned int flags;	/* SYM_LINES when a key is the source line */
	struct symrep_addr *addrs, *last;
	size_t addrs_mask, addrs_used;
	uint64_t seq;
	struct sym_loc frames[MAX_FRAMES];
	const struct sym_loc *xf;		/* the frames with their inlined functions */
	struct sym_loc xframes[MAX_FRAMES];	/* (r->frames where none) */
	const struct sym_loc *centries[MAX_FRAMES];	/* add_children()'s entries of r->xf */
	struct sym_loc cframes[MAX_FRAMES];	/* (those of frames without a symbol) */
	const char *names[MAX_FRAMES];
	char buf[8192], label[1024];
	uint32_t gnode[MAX_FRAMES];		/* graph_names(): each path frame's node */
	bool outer_first;			/* -g caller without --children: paths kept
						 * from the outermost frame (as callee order's,
						 * sharing their outer frames), walked the
						 * other way (symrep__path_frames()) */
	struct gname {				/* a frame's name in a call graph, by frame */
		const char *sym;		/* its symbol (interned), or NULL: at ip */
		const struct sym_dso *dso;
		uint64_t at;			/* sym_start, or ip without a symbol */
		uint32_t name;			/* interned in r->cpaths[ev] */
		uint32_t ev;
		bool inlined, used;
	} gnames[4096];				/* (direct mapped) */
	struct {				/* path_label()'s: a numbered label's string */
		uint32_t label, ev, id;		/* (label NO_LABEL: unused) */
	} plabels[4096];			/* interned in r->cpaths[ev], direct mapped */
	struct sym_key label_key;		/* of label */
	uint32_t ids[MAX_FRAMES];		/* number_entries()'s labels of r->centries */
	size_t kofs[MAX_FRAMES + 1], kcap;	/* key_strings() in kbuf */
	char *kbuf;
	bool outer[MAX_FRAMES];			/* (and which are a path's outermost) */
	struct label_memo {			/* frame_label()'s by sym_loc.ident and comm */
		uint32_t ident, id;		/* (direct mapped; ident 0: unused) */
		const char *comm;
	} *lmemo;				/* MEMO_LABELS, made as needed */
	uint32_t *stamps, stamp_now;		/* by label number (stamps__begin()) */
	size_t nr_stamps;
	struct shape *shapes;			/* MEMO_SHAPES of them, direct mapped */
	struct shape *rec;			/* the shape being recorded, or NULL */
	struct row_vec *rec_self;		/* (and its event's self rows) */
	uint64_t mkey[4 + 4 * MAX_FRAMES + 4];	/* shape_key()'s */
	uint64_t mkey_hash;			/* (and its hash) */
};

static void shape_flush(struct symrep *r, struct shape *sh);

struct symrep *symrep__new(struct symbols *syms, const struct symrep_config *cfg)
{
	struct symrep *r = calloc(1, sizeof(*r));
	size_t i, n = cfg->nr_events ? cfg->nr_events : 1;

	if (!r)
		return NULL;
	r->cfg = *cfg;
	r->syms = syms;
	r->chains = cfg->children || cfg->graph || cfg->folded || cfg->focus || cfg->skid_caller;
	/* a caller-order path of a sample's own row is its whole chain: the trie can hold it
	 * from either end, and from the outermost its samples share most nodes; --children's
	 * paths from each frame to the sampled one need it from the sampled end */
	r->outer_first = cfg->graph == SYMREP_GRAPH_CALLER && !cfg->children;
	r->defer = cfg->labels && !r->chains;
	for (i = 0; i < cfg->nr_keys; i++) {
		r->flags |= cfg->keys[i] == SYMREP_SRCLINE ? SYM_LINES : 0;
		r->comm_key |= cfg->keys[i] == SYMREP_COMM;
		r->pid_key |= cfg->keys[i] == SYMREP_PID;
		r->cpu_key |= cfg->keys[i] == SYMREP_CPU;
	}
	if (cfg->labels && !r->pid_key && !r->cpu_key && !(r->flags & SYM_LINES) &&
	    (!(r->labels = labels__new()) || !(r->comms = sym_stacks__new()) ||
	     !(r->self_v = calloc(n, sizeof(*r->self_v))) ||
	     !(r->children_v = calloc(n, sizeof(*r->children_v)))))
		goto out_free;
	if (cfg->labels) {
		r->self = calloc(n, sizeof(*r->self));
		r->children = calloc(n, sizeof(*r->children));
		if (!r->self || !r->children)
			goto out_free;
		for (i = 0; i < n; i++) {
			r->self[i] = sym_stacks__new();
			r->children[i] = cfg->children ? sym_stacks__new() : NULL;
			if (!r->self[i] || (cfg->children && !r->children[i]))
				goto out_free;
		}
	}
	if (cfg->graph && (!(r->cpaths = calloc(n, sizeof(*r->cpaths))) ||
			   !(r->path_v = calloc(n, sizeof(*r->path_v))) ||
			   !(r->nr_paths = calloc(n, sizeof(*r->nr_paths))) ||
			   !(r->plnum = calloc(n, sizeof(*r->plnum))) ||
			   !(r->plnum_cap = calloc(n, sizeof(*r->plnum_cap)))))
		goto out_free;
	for (i = 0; r->cpaths && i < n; i++)
		if (!(r->cpaths[i] = callpaths__new()))
			goto out_free;
	for (i = 0; i < ARRAY_SIZE(r->plabels); i++)
		r->plabels[i].label = NO_LABEL;
	if (cfg->folded && !(r->folded = sym_stacks__new()))
		goto out_free;
	if (r->chains && r->self_v && !(r->shapes = calloc(MEMO_SHAPES, sizeof(*r->shapes))))
		goto out_free;
	return r;
out_free:
	symrep__delete(r);
	return NULL;
}

void symrep__delete(struct symrep *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < (r->cfg.nr_events ? r->cfg.nr_events : 1); i++) {
		if (r->self)
			sym_stacks__delete(r->self[i]);
		if (r->children)
			sym_stacks__delete(r->children[i]);
		if (r->cpaths)
			callpaths__delete(r->cpaths[i]);
		if (r->path_v)
			free(r->path_v[i]);
		if (r->plnum)
			free(r->plnum[i]);
	}
	free(r->self);
	free(r->children);
	free(r->cpaths);
	free(r->path_v);
	free(r->nr_paths);
	free(r->plnum);
	free(r->plnum_cap);
	sym_stacks__delete(r->folded);
	free(r->addrs);
	for (i = 0; r->self_v && i < (r->cfg.nr_events ? r->cfg.nr_events : 1); i++)
		free(r->self_v[i].v);
	for (i = 0; r->children_v && i < (r->cfg.nr_events ? r->cfg.nr_events : 1); i++)
		free(r->children_v[i].v);
	free(r->self_v);
	free(r->children_v);
	labels__delete(r->labels);
	sym_stacks__delete(r->comms);
	sym_stacks__delete(r->levels);
	free(r->stamps);
	free(r->lmemo);
	free(r->kbuf);
	for (i = 0; r->shapes && i < MEMO_SHAPES; i++) {
		free(r->shapes[i].key);
		free(r->shapes[i].ops);
	}
	free(r->shapes);
	free(r);
}

/*
 * @str, at most @max bytes of it, after the @n bytes of @buf within @cap (cut to fit, as
 * snprintf would): the new length. Paths and labels are built for every sample: no printf.
 */
static size_t put(char *buf, size_t n, size_t cap, const char *str, size_t max)
{
	size_t l = strlen(str);

	if (n + 1 >= cap)
		return n;
	if (l > max)
		l = max;
	if (l > cap - 1 - n)
		l = cap - 1 - n;
	memcpy(buf + n, str, l);
	buf[n + l] = '\0';
	return n + l;
}

/* how put_frame() names a frame without a symbol */
enum frame_name {
	NAME_ROW,	/* a row's: sym_loc__name(), perf's hist_entry "%-#.*llx" of its address */
	NAME_GRAPH,	/* a call graph's: perf's callchain_list "%#llx" of the ip as sampled */
	NAME_FOLDED,	/* --folded's: "0x%016llx" of its address */
};

/*
 * a frame's name into a buffer of @len, after @n bytes of @buf; an inlined function's as
 * perf's "NAME (inlined)"
 */
static size_t put_frame(char *buf, size_t n, size_t cap, const struct sym_loc *f, size_t len,
			enum frame_name how)
{
	char name[32];

	if (f->sym && f->inlined)
		return put(buf, put(buf, n, cap, f->sym, len - 1), cap, " (inlined)", SIZE_MAX);
	if (f->sym)
		return put(buf, n, cap, f->sym, len - 1);
	if (how == NAME_GRAPH)
		fmt_hex(name, f->ip, 1, f->ip != 0);		/* "%#llx" */
	else if (how == NAME_FOLDED)
		fmt_hex(name, f->addr, 16, true);		/* "0x%016llx" */
	else
		sym_loc__name(f, name, sizeof(name));
	return put(buf, n, cap, name, len - 1);
}

const char *symrep__dso(const struct sym_loc *f)
{
	const char *base;

	if (!f->dso && !f->sym)		/* no map: perf's [unknown] at either level */
		return "[unknown]";
	if (f->kernel)
		return "[kernel.kallsyms]";
	if (!f->dso_name)
		return "[unknown]";
	base = strrchr(f->dso_name, '/');
	return base && f->dso_name[0] == '/' ? base + 1 : f->dso_name;
}

/* @v in hex after the @n bytes of @buf within @cap */
static size_t put_hex(char *buf, size_t n, size_t cap, uint64_t v)
{
	char d[24];

	fmt_hex(d, v, 1, false);
	return put(buf, n, cap, d, SIZE_MAX);
}

/*
 * perf's sort__sym_cmp() compares entries without a symbol by their address alone, so
 * such a frame at either level is one row, printed at the level of the first: the level
 * the first key equal to @key but for the level (its SYM field's, at @pos) had, by
 * @*levels (made here), @key's own where it is the first or that table cannot grow
 */
static char first_level(struct sym_stacks **levels, char *key, size_t pos)
{
	const struct sym_stack *e;
	char c = key[pos];

	if (!*levels && !(*levels = sym_stacks__new()))
		return c;
	key[pos] = '?';
	e = sym_stacks__get(*levels, key);
	if (!e)
		sym_stacks__add_depth(*levels, key, 0, 0, c);
	key[pos] = c;
	return e ? (char)e->tid : c;
}

/* the start of field @field of label @key (fields between SYMREP_SEP), or NULL */
static const char *key_field(const char *key, size_t field)
{
	size_t k;

	for (k = 0; key && k < field; k++)
		if ((key = strchr(key, SYMREP_SEP)))
			key++;
	return key;
}

/* where the level of @key's SYM field (field @field) is: its offset, or 0 where none */
static size_t level_pos(const char *key, size_t field)
{
	const char *p = key_field(key, field);

	return p && p[0] == '[' && p[1] && p[2] == ']' ? (size_t)(p + 1 - key) : 0;
}

/*
 * The row's label of frame @f. Rows by symbol are as perf's: functions of equal names in
 * other DSOs or at other addresses (two programs' main) are other rows, an inlined one is
 * one row per function it is inlined into and name (perf's _sort__sym_cmp()); a frame
 * without one is a row at its address whatever its level (first_level()).
 */
static void label(struct symrep *r, const struct sym_loc *f, uint32_t tid, uint32_t cpu,
		  const char *comm, char *buf, size_t len)
{
	size_t i, k, n = 0, lvl = 0;
	char tmp[512];

	buf[0] = '\0';
	for (i = 0; i < r->cfg.nr_keys && n < len; i++) {
		const char *v = tmp;

		switch (r->cfg.keys[i]) {
		case SYMREP_COMM:
			v = comm ? comm : "[unknown]";
			break;
		case SYMREP_DSO:
			v = symrep__dso(f);
			break;
		case SYMREP_SYM:
			tmp[0] = '[';
			tmp[1] = f->kernel ? 'k' : '.';
			tmp[2] = ']';
			tmp[3] = ' ';
			tmp[4] = '\0';
			k = put_frame(tmp, 4, sizeof(tmp), f, SIZE_MAX, NAME_ROW);
			if (f->sym && f->dso) {
				k = put(tmp, k, sizeof(tmp), (char[]){ SYMREP_ID, 0 }, 1);
				k = put(tmp, k, sizeof(tmp), sym_dso__name(f->dso), SIZE_MAX);
				k = put(tmp, k, sizeof(tmp), "@", 1);
				put_hex(tmp, k, sizeof(tmp), f->sym_start);
			}
			break;
		case SYMREP_PID:	/* perf's thread: the tid, printed with its comm */
			snprintf(tmp, sizeof(tmp), "%d", (int)tid);
			break;
		case SYMREP_CPU:	/* as perf: three digits at least */
			snprintf(tmp, sizeof(tmp), "%03d", (int)cpu);
			break;
		case SYMREP_SRCLINE:
			sym_loc__srcline(f, tmp, sizeof(tmp));
			break;
		}
		if (i)
			n = put(buf, n, len, (char[]){ SYMREP_SEP, 0 }, 1);
		if (r->cfg.keys[i] == SYMREP_SYM && !f->sym)
			lvl = n + 1;
		n = put(buf, n, len, v, SIZE_MAX);
	}
	if (lvl && lvl < n)
		buf[lvl] = first_level(&r->levels, buf, lvl);
}

/*
 * The label of frame @f of a sample into *@key: its number in r->labels, or NO_LABEL where
 * labels hold keys of the sample (r->label_key, built each time)
 */
static uint32_t frame_label(struct symrep *r, const struct sym_loc *f, uint32_t tid,
			    uint32_t cpu, const char *comm, const struct sym_key **key)
{
	/* without a symbol, one row at an address as printed whatever the level: the first's
	 * shows (perf's sort__sym_cmp() by hist entry ip) */
	struct label_ent e = { f->sym, comm, f->dso,
			       f->sym ? f->sym_start : sym_loc__name_addr(f), f->inlined,
			       f->sym && f->kernel };
	struct labels *l = r->labels;
	struct label_memo *lm = NULL;
	uint64_t h = 0, tag = 0;
	size_t i = 0;
	char *str;

	/* a numbered frame's label is a function of its number and the comm (else labels hold
	 * keys of the sample: l is NULL) */
	if (l && f->ident && (r->lmemo || (r->lmemo = calloc(MEMO_LABELS, sizeof(*r->lmemo))))) {
		lm = &r->lmemo[f->ident & (MEMO_LABELS - 1)];
		if (lm->ident == f->ident && lm->comm == comm) {
			*key = &l->keys[lm->id];
			return lm->id;
		}
	}
	if (l) {
		h = label_hash(&e);
		tag = h & ~0xffffffffull;
		for (i = h & l->mask; l->tab[i]; i = (i + 1) & l->mask) {
			uint32_t id = (uint32_t)l->tab[i] - 1;

			if ((l->tab[i] & ~0xffffffffull) == tag && label_eq(&l->ents[id], &e)) {
				*key = &l->keys[id];
				if (lm)
					*lm = (struct label_memo){ f->ident, id, comm };
				return id;
			}
		}
	}
	label(r, f, tid, cpu, comm, r->label, sizeof(r->label));
	sym_key__set(&r->label_key, r->label);
	*key = &r->label_key;
	if (!l || l->nr >= NO_LABEL - 1 || (l->nr + 1) * 2 > l->mask + 1)
		return NO_LABEL;	/* (the table could not grow) */
	if (l->nr == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 1024;

		if (realloc_n((void **)&l->keys, ncap, sizeof(*l->keys)) ||
		    realloc_n((void **)&l->ents, ncap, sizeof(*l->ents)) ||
		    realloc_n((void **)&l->raw, ncap, sizeof(*l->raw)) ||
		    realloc_n((void **)&l->row, ncap, sizeof(*l->row)) ||
		    realloc_n((void **)&l->rid, ncap, sizeof(*l->rid)))
			return NO_LABEL;
		l->cap = ncap;
	}
	str = strdup(r->label);
	if (!str)
		return NO_LABEL;
	l->raw[l->nr] = e.comm && r->raw_comm && r->raw_comm[0] == ':' ? r->raw_comm : NULL;
	l->ents[l->nr] = e;
	l->tab[i] = tag | (l->nr + 1);
	sym_key__set(&l->keys[l->nr], str);
	if (labels__number_row(l, (uint32_t)l->nr)) {
		free(str);
		return NO_LABEL;
	}
	*key = &l->keys[l->nr];
	if (lm)
		*lm = (struct label_memo){ f->ident, (uint32_t)l->nr, comm };
	if (++l->nr * 2 > l->mask)
		labels__grow(l);	/* else probes get longer: still right */
	return (uint32_t)(l->nr - 1);
}

/*
 * The comm frame_label() is given: one pointer for each name, as threads' comms are a
 * buffer per thread until their second name (and a buffer's name can change); none where
 * no key is the comm
 */
static const char *label_comm(struct symrep *r, const char *comm)
{
	struct comm_memo *m;
	const struct sym_stack *e;

	if (!r->labels || !comm)
		return comm;
	if (!r->comm_key)
		return NULL;
	/* by the thread's string and its text (a thread's first comm renames it in place) */
	m = &r->comm_memo[((uintptr_t)comm >> 4 ^ (uintptr_t)comm >> 12) & (MEMO_COMMS - 1)];
	if (m->comm == comm && !strcmp(m->text, comm))
		return m->label;
	e = sym_stacks__get(r->comms, comm);
	if (!e && !sym_stacks__add(r->comms, comm, 0))
		e = sym_stacks__get(r->comms, comm);
	if (!e)
		return comm;
	if (strlen(comm) < sizeof(m->text)) {
		m->comm = comm;
		strcpy(m->text, comm);
		m->label = e->key;
	}
	return e->key;
}

/* op @kind of @id at @depth onto the shape being recorded, which a failure leaves invalid */
static void shape_op(struct symrep *r, unsigned int kind, uint32_t id, uint32_t depth)
{
	struct shape *sh = r->rec;

	if (sh->nr_ops == sh->ops_cap) {
		uint32_t ncap = sh->ops_cap ? sh->ops_cap * 2 : 64;
		struct shape_op *n = ncap > 1u << 20 ? NULL : realloc(sh->ops, ncap * sizeof(*n));

		if (!n || depth >= 1u << 30) {
			r->rec = NULL;
			return;
		}
		sh->ops = n;
		sh->ops_cap = ncap;
	}
	sh->ops[sh->nr_ops++] = (struct shape_op){ id, kind << 30 | depth };
}

/*
 * one sample's row of label @id (@key) in the rows @st, or the counts of @rv by number (the
 * shape recorded then: @rv is r->self_v[] or r->children_v[])
 */
static int add_row(struct symrep *r, struct sym_stacks *st, struct row_vec *rv, uint32_t id,
		   const struct sym_key *key, uint64_t period, uint32_t depth, int32_t tid)
{
	if (id == NO_LABEL || !rv) {
		r->rec = NULL;	/* not by number: no shape */
		return sym_stacks__add_key(st, key, period, depth, tid);
	}
	if (r->rec)
		shape_op(r, rv == r->rec_self ? OP_SELF : OP_CHILD, id, depth);
	return row_vec__add(rv, id, period, depth, tid);
}

/*
 * Frame @f's name in a call graph (put_frame()'s NAME_GRAPH) interned in r->cpaths[@ev], kept
 * by what it is a function of (its symbol and whether it is inlined there, else its ip): a
 * chain's frames recur sample after sample. CALLPATHS_NONE on ENOMEM.
 */
static uint32_t graph_name(struct symrep *r, size_t ev, const struct sym_loc *f)
{
	uint64_t at = f->sym ? f->sym_start : f->ip,
		 x = ((uintptr_t)f->sym ^ at * 0xc4ceb9fe1a85ec53ull ^ (uintptr_t)f->dso) *
			     0x9e3779b97f4a7c15ull ^ f->inlined;
	struct gname *e = &r->gnames[(x ^ x >> 29) & (ARRAY_SIZE(r->gnames) - 1)];
	char name[300 + 1 + PATH_MAX + 1 + sizeof(at)];
	struct sym_key k;
	size_t n;

	if (e->used && e->ev == ev && e->sym == f->sym && e->inlined == f->inlined &&
	    e->dso == f->dso && e->at == at)
		return e->name;
	k.len = put_frame(name, 0, 300, f, 256, NAME_GRAPH);
	/* perf's match_chain(): a frame is a node by its DSO and symbol start (by its ip
	 * without a symbol), an inlined one by its name: the DSO's name and the address after
	 * a NUL the printing stops at */
	if (!f->inlined) {
		name[k.len++] = '\0';
		n = f->dso ? strlen(sym_dso__name(f->dso)) : 0;
		n = n < PATH_MAX ? n : PATH_MAX;
		memcpy(name + k.len, f->dso ? sym_dso__name(f->dso) : "", n);
		name[k.len + n] = '\0';
		memcpy(name + k.len + n + 1, &at, sizeof(at));
		k.len += n + 1 + sizeof(at);
	}
	k.str = name;
	k.hash = hash_bytes(name, k.len, 0);
	*e = (struct gname){ .sym = f->sym, .dso = f->dso, .at = at, .ev = (uint32_t)ev,
			     .name = callpaths__intern(r->cpaths[ev], &k), .inlined = f->inlined };
	e->used = e->name != CALLPATHS_NONE;
	return e->name;
}

/* whether a row's paths are kept in the trie from the outermost frame (callee order's, and
 * r->outer_first's) */
static bool from_outer(const struct symrep *r)
{
	return r->cfg.graph == SYMREP_GRAPH_CALLEE || r->outer_first;
}

/*
 * The nodes in r->cpaths[@ev] of the @np path frames of r->xf, each in r->gnode[] the path
 * from its frame to the end (to frame 0, or with from_outer() to the outermost): every
 * path of a sample is one of them. 0 or -ENOMEM.
 */
static int graph_names(struct symrep *r, size_t ev, size_t np)
{
	uint32_t tail = CALLPATHS_NONE;
	bool outer = from_outer(r);
	size_t i, k;

	for (i = 0; i < np; i++) {
		k = outer ? np - 1 - i : i;
		tail = callpaths__node(r->cpaths[ev], graph_name(r, ev, &r->xf[k]), tail);
		if (tail == CALLPATHS_NONE)
			return -ENOMEM;
		r->gnode[k] = tail;
	}
	return 0;
}

/* *@v of *@cap label numbers made to hold @need, the new ones NO_LABEL: 0 or -ENOMEM */
static int grow_nolabel(uint32_t **v, size_t *cap, size_t need)
{
	size_t old = *cap;

	if (grow_zeroed((void **)v, cap, need, sizeof(**v), 1024))
		return -ENOMEM;
	memset(*v + old, 0xff, (*cap - old) * sizeof(**v));	/* NO_LABEL */
	return 0;
}

/* label @lab (number @id, or NO_LABEL: a key of the sample) interned in r->cpaths[@ev] */
static uint32_t path_label(struct symrep *r, size_t ev, const struct sym_key *lab, uint32_t id)
{
	size_t slot = (id * 0x9e3779b9u >> 20) & (ARRAY_SIZE(r->plabels) - 1);

	uint32_t k;

	if (id == NO_LABEL)
		return callpaths__intern(r->cpaths[ev], lab);
	if (r->plabels[slot].label == id && r->plabels[slot].ev == ev)
		return r->plabels[slot].id;
	k = callpaths__intern(r->cpaths[ev], lab);
	/* the label's number by its string's: symrep__paths() names the path's row by it,
	 * renamed or not (relabel()) */
	if (k == CALLPATHS_NONE || (k >= r->plnum_cap[ev] &&
				    grow_nolabel(&r->plnum[ev], &r->plnum_cap[ev], k + 1)))
		return CALLPATHS_NONE;
	r->plnum[ev][k] = id;
	r->plabels[slot] = (typeof(r->plabels[slot])){ id, (uint32_t)ev, k };
	return k;
}

/*
 * A call path of label @lab (number @id): for SYMREP_GRAPH_CALLER frames @hi down to @lo (@lo
 * 0), for SYMREP_GRAPH_CALLEE @lo up to @hi (the last path frame), frame 0 the sampled one
 */
static int add_path(struct symrep *r, size_t ev, const struct sym_key *lab, uint32_t id,
		    size_t lo, size_t hi, uint64_t period)
{
	long c = callpaths__add(r->cpaths[ev], path_label(r, ev, lab, id),
				r->gnode[from_outer(r) ? lo : hi], period);

	if (c < 0)
		return (int)c;
	if (r->rec)
		shape_op(r, OP_PATH, (uint32_t)c, 0);
	return 0;
}

/*
 * The frames call paths use: a --call-graph dwarf sample in user mode whose walk found no
 * frame (no file behind its ip) has an empty chain in perf, so no path; a walk of one frame
 * (a page fault at _start's first instruction) is a path of it, as perf's.
 */
static size_t path_frames(const struct symrep *r, const struct stream_sample *s, size_t nf)
{
	/* (more than frame 0: symbols__chain() read the chain, so it was one perf reads) */
	if (nf <= 1 && !symbols__chain_ok(s))
		return 0;	/* perf's callchain is then empty: no path */
	if (s->evsel && s->evsel->attr.sample_type & PERF_SAMPLE_STACK_USER && nf &&
	    !r->frames[nf - 1].kernel && !r->frames[nf - 1].unwound)
		nf--;	/* a user sample no walk unwound: perf's chain is empty */
	return nf;
}

/* an inlined function by its name alone, as stackcollapse-perf.pl folds perf script's lines */
static int add_folded(struct symrep *r, const char *comm, size_t nf, uint64_t period)
{
	size_t n, i;

	r->buf[0] = '\0';
	n = put(r->buf, 0, sizeof(r->buf), comm ? comm : "[unknown]", SIZE_MAX);
	for (i = nf; i-- > 0 && n < sizeof(r->buf) - 1;) {
		n = put(r->buf, n, sizeof(r->buf), ";", 1);
		n = r->xf[i].inlined ? put(r->buf, n, sizeof(r->buf), r->xf[i].sym, 255) :
				       put_frame(r->buf, n, sizeof(r->buf), &r->xf[i], 256,
						 NAME_FOLDED);
	}
	return sym_stacks__add(r->folded, r->buf, period);
}

static bool same_function(const struct sym_loc *a, const struct sym_loc *b)
{
	return a->sym && a->sym == b->sym && a->dso == b->dso && a->inlined == b->inlined;
}

/*
 * r->xf: frames [0, @nf) of r->frames, each where @mode asks for it also as the functions
 * inlined at its address, innermost first, then the function itself (perf's append_inlines():
 * where DWARF names the function otherwise than the symbol table, a clone such as
 * chase.constprop.0, its DWARF name only, as inlined). A caller's return address is looked
 * up at the call (ip - 1), as the unwinder's callers are already (frame 0 too when @moved:
 * a caller's, --skid-caller). Returns how many frames; *@nxp: how many of them come from
 * frames [0, @np), *@n0: from frame 0.
 */
static size_t expand(struct symrep *r, int mode, bool moved, size_t nf, size_t np,
		     size_t *nxp, size_t *n0)
{
	const char *names[32];
	size_t i, j, k, n = 0;

	r->xf = r->frames;
	*nxp = np;
	*n0 = 1;
	/* the unwound frames are a chain's last ones (and frame 0 of a user sample) */
	if (!nf || (mode == SYMREP_INLINE_UNWOUND && !r->frames[0].unwound &&
		    !r->frames[nf - 1].unwound))
		return nf;
	for (i = 0; i < nf && mode != SYMREP_INLINE_NONE; i++) {
		const struct sym_loc *f = &r->frames[i];
		struct sym_loc at = *f;

		k = 0;
		if (f->sym && f->dso && (mode == SYMREP_INLINE_ALL || f->unwound)) {
			at.addr -= (i || moved) && !f->unwound && at.addr;
			k = symbols__inlines(r->syms, &at, names, ARRAY_SIZE(names));
		}
		if (k && r->xf == r->frames) {	/* the first frame with inlines: copy those before */
			memcpy(r->xframes, r->frames, i * sizeof(*f));
			r->xf = r->xframes;
			n = i;
		}
		if (r->xf == r->frames)
			continue;
		for (j = 0; j < (k ? k : 1) && n < MAX_FRAMES; j++) {
			r->xframes[n] = *f;
			if (k) {
				r->xframes[n].sym = names[j];
				r->xframes[n].inlined = names[j] != f->sym;
				r->xframes[n].ident = 0;	/* not what was resolved */
			}
			n++;
		}
		if (!i)
			*n0 = n;
		if (i + 1 == np)
			*nxp = n;
	}
	return r->xf == r->frames ? nf : n;
}

/*
 * The children entries of frames [0, @nf) of r->xf into r->centries, as perf 6.1 makes them
 * (fill_callchain_info()): a frame with a symbol is itself, one without is at the address as
 * sampled (where the sample's own row has its address in the DSO), a copy in r->cframes,
 * and one without a map at the level of the frame with a map perf's walk took before it (it
 * keeps the level it had: from the sampled frame out with -g callee, else from the
 * outermost in), the sample's (@self's) where none
 */
static void chain_entries(struct symrep *r, const struct sym_loc *self, size_t nf)
{
	bool callee = r->cfg.graph == SYMREP_GRAPH_CALLEE, kernel = self->kernel;
	size_t k, i;

	for (k = 0; k < nf; k++) {
		struct sym_loc *c;

		i = callee ? k : nf - 1 - k;
		c = &r->cframes[i];
		r->centries[i] = &r->xf[i];
		if (r->xf[i].dso)
			kernel = r->xf[i].kernel;
		if (r->xf[i].sym)
			continue;
		*c = r->xf[i];
		c->addr = c->ip;
		c->at_ip = true;
		c->ident = 0;
		if (!c->dso)
			c->kernel = kernel;
		r->centries[i] = c;
	}
}

/*
 * Whether two frames are one entry: one function, or no symbol at one address, as printed,
 * in one DSO (perf's sort__sym_cmp() compares those by address alone: the level is the
 * first's; the sample's own row is at its file offset, a children entry at its ip)
 */
static bool same_entry(const struct sym_loc *a, const struct sym_loc *b)
{
	if (a->sym || b->sym)
		return same_function(a, b);
	return a->dso == b->dso && sym_loc__name_addr(a) == sym_loc__name_addr(b);
}

/*
 * Stamps by label number, for number_entries(): a label whose stamp is r->stamp_now
 * was an entry of this sample already; r->stamp_now + 1 marks one a later path frame has.
 * 0, or -ENOMEM where the stamps cannot cover the labels (then entries are compared).
 */
static int stamps__begin(struct symrep *r, size_t nf)
{
	size_t need = r->labels->nr + nf + 1;

	if (need > r->nr_stamps &&
	    grow_zeroed((void **)&r->stamps, &r->nr_stamps, need, sizeof(*r->stamps), 4096))
		return -ENOMEM;
	if (r->stamp_now >= UINT32_MAX - 2) {
		memset(r->stamps, 0, r->nr_stamps * sizeof(*r->stamps));
		r->stamp_now = 0;
	}
	r->stamp_now += 2;
	return 0;
}

/*
 * The labels of r->centries' @nf entries by number in r->ids, and in r->outer which of the
 * first @np (a path's) no frame further out in the path has, for a caller-order path's
 * entry at its outermost occurrence; each entry's stamp then says whether an entry before
 * it was its label (r->stamp_now). So add_children() tells a recurring function from its
 * stamp, in place of comparing each frame with the others. False where labels are not
 * numbered (keys of the sample, or a table that cannot grow): entries are compared.
 */
static bool number_entries(struct symrep *r, const struct stream_sample *s, const char *comm,
			   size_t nf, size_t np, bool outer)
{
	const struct sym_key *lab;
	uint32_t now;
	size_t i;

	if (!r->labels || stamps__begin(r, nf))
		return false;
	for (i = 0; i < nf; i++)
		if ((r->ids[i] = frame_label(r, r->centries[i], s->tid, s->cpu, comm, &lab)) ==
		    NO_LABEL)
			return false;
	now = r->stamp_now;
	for (i = np; outer && i-- > 0;) {
		uint32_t row = r->labels->row[r->ids[i]];

		r->outer[i] = r->stamps[row] != now + 1;
		r->stamps[row] = now + 1;
	}
	return true;
}

/*
 * Where labels hold keys of the sample (not numbered): the label strings of r->centries'
 * @nf entries and, at @nf, the sampled function's, in r->kbuf at r->kofs[]; -ENOMEM.
 */
static int key_strings(struct symrep *r, const struct stream_sample *s, const char *comm,
		       size_t nf)
{
	const struct sym_key *lab;
	size_t i, used = 0;

	for (i = 0; i <= nf; i++) {
		frame_label(r, i < nf ? r->centries[i] : &r->frames[0], s->tid, s->cpu, comm, &lab);
		if (used + lab->len + 1 > r->kcap &&
		    grow_zeroed((void **)&r->kbuf, &r->kcap, used + lab->len + 1, 1, 4096))
			return -ENOMEM;
		memcpy(r->kbuf + used, lab->str, lab->len + 1);
		r->kofs[i] = used;
		used += lab->len + 1;
	}
	return 0;
}

/* whether entries @i and @j (or @nf: the sampled function) of key_strings() are one row */
static bool same_key(const struct symrep *r, size_t i, size_t j)
{
	return !strcmp(r->kbuf + r->kofs[i], r->kbuf + r->kofs[j]);
}

/*
 * Each row of the chain once, however often its function recurs or other functions are the
 * same row (one DSO with --sort dso: perf's he_cache, by hist_entry__cmp()), frames
 * without a symbol by their entries (chain_entries()). With -g, as perf's cumulative
 * entries: the path from the function to the sampled frame (caller order) or to the
 * outermost one (callee order), from its outermost or innermost occurrence in that order;
 * the sampled function's own row has the whole path already. @nf and @np count r->xf, the
 * first @n0 of them frame 0's.
 */
static int add_children(struct symrep *r, const struct stream_sample *s, const char *comm,
			size_t nf, size_t np, size_t n0, struct sym_stacks *st,
			struct row_vec *rv, size_t ev)
{
	bool callee = r->cfg.graph == SYMREP_GRAPH_CALLEE;
	const struct sym_loc *self = &r->frames[0];
	const struct sym_key *lab;
	const struct sym_loc *const *c = r->centries;
	/* without a callchain (none, or one perf discards) perf makes no children entries:
	 * frame 0 is the row's own. Path frames (@np) there are of a chain perf reads. */
	bool chained = (s->nr_callchain || (s->user_stack_size && s->user_regs_abi)) &&
		       (np || symbols__chain_ok(s));
	size_t i, j;
	uint32_t id, self_row = 0;
	bool by_id, keyed = false, paths = r->cpaths != NULL;
	int ret;

	/* the sampled function, even where only its DWARF name is a frame (a clone) */
	id = frame_label(r, self, s->tid, s->cpu, comm, &lab);
	ret = add_row(r, st, rv, id, lab, s->period, (uint32_t)np, (int32_t)s->tid);
	chain_entries(r, self, nf);
	by_id = !ret && rv && id != NO_LABEL && number_entries(r, s, comm, nf, np, paths && !callee);
	if (by_id)
		self_row = r->labels->row[id];
	else if (!ret)
		keyed = !key_strings(r, s, comm, nf);
	for (i = 0; i < nf && !ret; i++) {
		const struct sym_loc *f = c[i];
		bool own = f->sym || !chained ? (i < n0 && !f->inlined) || same_function(f, self) :
						same_entry(f, self);
		bool seen, path;

		/* a row of the sampled function's: counted with it, no path of its own */
		own |= by_id ? r->labels->row[r->ids[i]] == self_row : keyed && same_key(r, i, nf);
		seen = own;
		path = paths && i < np && !own;
		if (by_id) {
			uint32_t row = r->labels->row[r->ids[i]];

			seen |= r->stamps[row] == r->stamp_now;
			path &= callee || r->outer[i];
			r->stamps[row] = r->stamp_now;
		}
		for (j = 0; !by_id && j < i && !seen; j++)
			seen = keyed ? same_key(r, i, j) : same_entry(f, c[j]);
		for (j = i + 1; !by_id && !callee && path && j < np; j++)
			path = !(keyed ? same_key(r, i, j) : same_entry(f, c[j]));
		if (seen && !(path && !callee))
			continue;
		if (by_id)
			lab = &r->labels->keys[id = r->ids[i]];
		else
			id = frame_label(r, f, s->tid, s->cpu, comm, &lab);
		/* perf's depth of the entry's callchain: from it to the outermost frame (callee
		 * order) or to the sampled one (caller order) */
		if (!seen)
			ret = add_row(r, st, rv, id, lab, s->period,
				      (uint32_t)(i >= np ? 0 : callee ? np - i : i + 1),
				      (int32_t)s->tid);
		if (!ret && path)
			ret = add_path(r, ev, lab, id, callee ? i : 0, callee ? np - 1 : i,
				       s->period);
	}
	return ret;
}

/* symbol names are interned, so a name's answer can be kept by its address */
static bool is_skid(struct symrep *r, const char *sym)
{
	size_t i = ((uintptr_t)sym >> 3 ^ (uintptr_t)sym >> 9) & (ARRAY_SIZE(r->memo) - 1);

	if (!sym)
		return false;
	if (r->memo[i].sym != sym) {
		r->memo[i].sym = sym;
		r->memo[i].skid = symbols__is_skid(sym);
	}
	return r->memo[i].skid;
}

static uint64_t addr_hash(const struct symrep_addr *e)
{
	uint64_t x = e->ip * 0x9e3779b97f4a7c15ull ^ e->gen ^ (uint64_t)e->pid << 32 ^ e->mode ^
		     (uint64_t)e->tid << 40 ^ (uintptr_t)e->comm ^ (uint64_t)e->cpu << 16 ^
		     (uint64_t)e->idx << 48;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static bool addr_eq(const struct symrep_addr *x, const struct symrep_addr *y)
{
	return x->ip == y->ip && x->pid == y->pid && x->tid == y->tid && x->gen == y->gen &&
	       x->mode == y->mode && x->comm == y->comm && x->cpu == y->cpu && x->idx == y->idx;
}

static int addrs_grow(struct symrep *r)
{
	size_t nmask = r->addrs_mask ? r->addrs_mask * 2 + 1 : 255, i, j;
	struct symrep_addr *n = calloc(nmask + 1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (j = 0; r->addrs && j <= r->addrs_mask; j++) {
		if (!r->addrs[j].used)
			continue;
		for (i = addr_hash(&r->addrs[j]) & nmask; n[i].used; i = (i + 1) & nmask)
			;
		n[i] = r->addrs[j];
	}
	free(r->addrs);
	r->addrs = n;
	r->addrs_mask = nmask;
	r->last = NULL;
	return 0;
}

static __attribute__((noinline)) int defer_sample(struct symrep *r,
						  const struct stream_sample *s, size_t idx,
						  const char *comm)
{
	struct symrep_addr k;
	struct symrep_addr *e;
	size_t i;

	if (r->addrs_used * 2 >= r->addrs_mask && addrs_grow(r))
		return -ENOMEM;
	k.ip = s->ip;
	k.mode = s->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	/* where it is read: its address space (a kernel ip's is every pid's), else the pid's
	 * at this generation of the machine */
	k.gen = symbols__space(r->syms, s->pid, k.mode);
	k.pid = 0;
	if (!k.gen) {
		k.gen = symbols__generation(r->syms);
		k.pid = s->pid;
		k.mode |= PLACE_BY_PID;
	}
	k.tid = r->pid_key ? s->tid : 0;
	k.comm = r->comm_key ? comm : NULL;
	k.cpu = r->cpu_key ? s->cpu : 0;
	k.idx = idx < r->cfg.nr_events ? idx : UINT32_MAX;
	r->seq++;
	r->total_period += s->period;
	e = r->last;		/* most samples land where the one before did */
	if (e && addr_eq(e, &k))
		goto out_count;
	for (i = addr_hash(&k) & r->addrs_mask; r->addrs[i].used; i = (i + 1) & r->addrs_mask)
		if (addr_eq(&r->addrs[i], &k))
			break;
	e = &r->addrs[i];
	r->last = e;
	if (!e->used) {
		k.used = true;
		k.first = r->seq;
		k.nr_samples = k.period = k.with_caller = 0;
		symbols__locate(r->syms, s->pid, s->ip, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, 0,
				&k.a);
		*e = k;
		r->addrs_used++;
	}
out_count:
	e->nr_samples++;
	e->period += s->period;
	e->with_caller += s->nr_callchain > 2;
	return 0;
}

/* by place: what the label is made of */
static int place_cmp(const void *a, const void *b, void *ctx)
{
	const struct symrep_addr *x = *(const struct symrep_addr *const *)a;
	const struct symrep_addr *y = *(const struct symrep_addr *const *)b;
	uint32_t xp = x->tid, yp = y->tid;	/* 0 without the pid key */

	(void)ctx;
	if (x->a.dso != y->a.dso)
		return (uintptr_t)x->a.dso < (uintptr_t)y->a.dso ? -1 : 1;
	if (x->a.key != y->a.key)
		return x->a.key < y->a.key ? -1 : 1;
	if (x->a.kernel != y->a.kernel)
		return x->a.kernel ? 1 : -1;
	if (x->comm != y->comm)
		return (uintptr_t)x->comm < (uintptr_t)y->comm ? -1 : 1;
	if (xp != yp)
		return xp < yp ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* one place: @v[0..n) */
static int finish_place(struct symrep *r, struct symrep_addr **v, size_t n, uint64_t *skid_first)
{
	const struct symrep_addr *e = v[0];
	uint64_t samples = 0, period = 0, first = UINT64_MAX, with_caller = 0;
	struct sym_loc loc;
	size_t i;

	for (i = 0; i < n; i++) {
		samples += v[i]->nr_samples;
		period += v[i]->period;
		with_caller += v[i]->with_caller;
		first = v[i]->first < first ? v[i]->first : first;
	}
	symbols__lookup(r->syms, &e->a, r->flags, &loc);
	if (is_skid(r, loc.sym)) {
		r->skid_samples += samples;
		r->skid_period += period;
		r->skid_with_caller += with_caller;
		if (first < *skid_first) {
			*skid_first = first;
			r->skid_sym = loc.sym;
		}
	}
	if (e->idx == UINT32_MAX ||
	    (r->cfg.wants && !r->cfg.wants(r->cfg.wants_ctx, &loc, e->idx, samples, period)))
		return 0;	/* (not asked for: in the totals alone) */
	label(r, &loc, e->tid, e->cpu, e->comm, r->label, sizeof(r->label));
	return sym_stacks__add_n(r->self[e->idx], r->label, samples, period);
}

/*
 * Labels without a symbol that relabel() made equal but for their level take the level of
 * the first (the lowest id, made first): first_level() over them all again, each changed
 * label's old key noted as relabel()'s are. 0 or -ENOMEM.
 */
static int relevel(struct symrep *r)
{
	struct labels *l = r->labels;
	struct sym_stacks *levels = NULL;
	size_t i, field = 0, pos;
	int ret = 0;

	while (field < r->cfg.nr_keys && r->cfg.keys[field] != SYMREP_SYM)
		field++;
	if (field == r->cfg.nr_keys)
		return 0;
	for (i = 0; i < l->nr && !ret; i++) {
		char *str = (char *)l->keys[i].str, c;

		if (l->ents[i].sym || !(pos = level_pos(str, field)))
			continue;
		c = first_level(&levels, str, pos);
		if (!levels) {
			ret = -ENOMEM;
		} else if (str[pos] != c) {
			str[pos] = c;
			sym_key__set(&l->keys[i], str);
		}
	}
	sym_stacks__delete(levels);
	return ret;
}

/*
 * perf's comm__override(): a thread's first comm renames the placeholder (":TID") its
 * earlier samples were counted under, so a label made with a placeholder that its thread
 * renamed later takes the name (its comm key's text), and the call paths under it follow.
 * Rows of two labels that become equal merge where they are flushed. 0 or -ENOMEM.
 */
static int relabel(struct symrep *r)
{
	struct labels *l = r->labels;
	size_t i, field = 0, n, len, nr_renamed = 0;
	int ret = 0;

	if (!l || !l->raw || !r->comm_key)
		return 0;
	while (r->cfg.keys[field] != SYMREP_COMM)
		field++;
	for (i = 0; i < l->nr && !ret; i++) {
		const char *raw = l->raw[i], *p, *end;
		char *str;

		if (!raw || !strcmp(raw, l->ents[i].comm))
			continue;
		p = key_field(l->keys[i].str, field);	/* the comm field of the key */
		if (!p)
			continue;
		end = strchr(p, SYMREP_SEP);
		len = end ? (size_t)(end - p) : strlen(p);
		n = (size_t)(p - l->keys[i].str);
		str = malloc(l->keys[i].len - len + strlen(raw) + 1);
		if (!str) {
			ret = -ENOMEM;
			break;
		}
		memcpy(str, l->keys[i].str, n);
		strcpy(str + n, raw);
		strcat(str, p + len);
		free((char *)l->keys[i].str);
		sym_key__set(&l->keys[i], str);
		l->raw[i] = NULL;
		nr_renamed++;
	}
	if (nr_renamed && !ret)
		ret = relevel(r);
	return ret;
}

/*
 * The call paths of each event (r->cpaths' counts) as symrep__paths() gives them, each under
 * its label as renamed (relabel()): 0 or -ENOMEM
 */
static int paths_finish(struct symrep *r)
{
	size_t ev, i, nr, len;

	for (ev = 0; r->cpaths && ev < (r->cfg.nr_events ? r->cfg.nr_events : 1); ev++) {
		const struct callpaths_count *c = callpaths__counts(r->cpaths[ev], &nr);
		struct symrep_path *v;

		if (r->path_v[ev])
			continue;	/* (finished before) */
		v = r->path_v[ev] = calloc(nr ? nr : 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		for (i = 0; i < nr; i++) {
			uint32_t num = c[i].label < r->plnum_cap[ev] ? r->plnum[ev][c[i].label] :
								       NO_LABEL;

			v[i] = (struct symrep_path){ num == NO_LABEL ?
				callpaths__str(r->cpaths[ev], c[i].label, &len) :
				r->labels->keys[num].str, c[i].nr_samples, c[i].period, c[i].node };
		}
		r->nr_paths[ev] = nr;
	}
	return 0;
}

int symrep__finish(struct symrep *r)
{
	uint64_t skid_first = UINT64_MAX;
	struct symrep_addr **v;
	size_t i, j, n = 0;
	int ret;

	/* the shapes' samples counted; samples after this take the slow path */
	for (i = 0; r->shapes && i < MEMO_SHAPES; i++) {
		shape_flush(r, &r->shapes[i]);
		r->shapes[i].valid = false;
	}
	ret = relabel(r) ?: paths_finish(r);

	for (i = 0; r->self_v && i < r->cfg.nr_events && !ret; i++) {
		ret = row_vec__flush(&r->self_v[i], r->labels, r->self[i]);
		if (!ret && r->children[i])
			ret = row_vec__flush(&r->children_v[i], r->labels, r->children[i]);
	}
	if (ret || !r->defer || r->finished)
		return ret;
	r->finished = true;
	v = malloc((r->addrs_used ? r->addrs_used : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; r->addrs && i <= r->addrs_mask; i++)
		if (r->addrs[i].used)
			v[n++] = &r->addrs[i];
	qsort_r(v, n, sizeof(*v), place_cmp, r);
	for (i = 0; i < n && !ret; i = j) {
		for (j = i + 1; j < n && !place_cmp(&v[i], &v[j], r); j++)
			;
		ret = finish_place(r, v + i, j - i, &skid_first);
	}
	free(v);
	return ret;
}

/*
 * The source line of a sample taken in listed functions: frame 0's @n0 names in r->xf (the
 * functions inlined there and the one they are in), each listed one once. @moved: frame 0 a
 * caller's.
 */
static int focus_line(struct symrep *r, const struct stream_sample *s, size_t n0, bool moved)
{
	const struct sym_loc *f = &r->frames[0];
	int k[8], nk = 0, i, j, ret = 0;
	struct sym_loc l;
	char buf[512];

	for (i = 0; i < (int)n0 && nk < (int)ARRAY_SIZE(k); i++) {
		k[nk] = focus__find(r->cfg.focus, r->xf[i].sym);
		for (j = 0; j < nk && k[nk] >= 0 && k[j] != k[nk]; j++)
			;
		nk += k[nk] >= 0 && j == nk;
	}
	if (!nk)
		return 0;
	symbols__resolve(r->syms, s->pid, f->ip,
			 f->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
			 SYM_LINES | (moved ? SYM_RETADDR : 0), &l);
	if (!l.srcfile)
		return 0;
	sym_loc__srcline(&l, buf, sizeof(buf));
	for (i = 0; i < nk && !ret; i++)
		ret = focus__add_line(r->cfg.focus, k[i], buf, s->period);
	return ret;
}

/*
 * The shape of a sample (struct shape) with frames r->xf[0, @nx), the first @nxp path frames
 * and @n0 frame 0's, its comm @comm (label_comm()'s), event @idx, in r->mkey: its length in
 * words. A frame is what its label, entry and name are a function of: its symbol (start,
 * DSO, level, inlined) or, without one, its addresses.
 */
static size_t shape_key(struct symrep *r, const struct stream_sample *s, size_t idx,
			const char *comm, size_t nx, size_t nxp, size_t n0)
{
	uint64_t *k = r->mkey, h, h0;
	size_t n = 0, i;
	uint32_t bools;

	_Static_assert(offsetof(struct sym_loc, unwound) == offsetof(struct sym_loc, kernel) + 1 &&
		       offsetof(struct sym_loc, inlined) == offsetof(struct sym_loc, kernel) + 2 &&
		       offsetof(struct sym_loc, at_ip) == offsetof(struct sym_loc, kernel) + 3,
		       "sym_loc's flags are four bytes in a row");
	k[n++] = idx;
	k[n++] = nx | nxp << 16 | (uint64_t)n0 << 32;
	k[n++] = (uintptr_t)comm;
	/* add_children()'s chained */
	k[n++] = (s->nr_callchain || (s->user_stack_size && s->user_regs_abi)) &&
		 (nxp || symbols__chain_ok(s));
	/* the hash mixes what tells frames apart most (the whole key is compared) */
	h0 = h = (k[0] ^ k[1] << 8 ^ k[2]) * 0xc4ceb9fe1a85ec53ull;
	/* numbered frames (sym_loc.ident) one word each: the number stands for the rest */
	for (i = 0; i <= nx; i++) {
		const struct sym_loc *f = i < nx ? &r->xf[i] : &r->frames[0];
		uint64_t a;

		if (!f->ident)
			break;
		memcpy(&bools, &f->kernel, 4);	/* kernel, unwound, inlined, at_ip */
		k[n++] = a = (uint64_t)f->ident << 32 | bools;
		h = (h ^ a) * 0x9e3779b97f4a7c15ull;
	}
	if (i <= nx) {		/* else four words a frame, and the key says which */
		n = 4;
		k[1] |= 1ull << 48;
		h = h0;
		for (i = 0; i <= nx; i++) {
			const struct sym_loc *f = i < nx ? &r->xf[i] : &r->frames[0];
			uint64_t a = f->sym ? (uintptr_t)f->sym : f->ip;

			memcpy(&bools, &f->kernel, 4);
			k[n++] = a;
			k[n++] = (uintptr_t)f->dso;
			k[n++] = f->sym ? f->sym_start : f->addr;
			k[n++] = bools | (uint64_t)(f->sym != NULL) << 32;
			h = (h ^ a) * 0x9e3779b97f4a7c15ull;
		}
	}
	r->mkey_hash = h ^ h >> 29;
	return n;
}

/* the samples of @sh shape_replay() has not counted yet, counted */
static void shape_flush(struct symrep *r, struct shape *sh)
{
	size_t idx = sh->valid && sh->key_len ? (size_t)sh->key[0] : 0;	/* (shape_key()'s) */
	uint64_t nr = sh->pend_nr, period = sh->pend_period;
	uint32_t i;

	if (!nr || !sh->valid)
		return;
	sh->pend_nr = sh->pend_period = 0;
	for (i = 0; i < sh->nr_ops; i++) {
		const struct shape_op *op = &sh->ops[i];
		uint32_t depth = op->kind_depth & ((1u << 30) - 1);

		switch (op->kind_depth >> 30) {
		case OP_SELF:
			row_vec__add_n(&r->self_v[idx], op->id, nr, period, depth);
			break;
		case OP_CHILD:
			row_vec__add_n(&r->children_v[idx], op->id, nr, period, depth);
			break;
		default:
			callpaths__add_at(r->cpaths[idx], op->id, nr, period);
			break;
		}
	}
}

/*
 * The shape of r->mkey's @len words if its slot holds it (hit: *@hit), else the slot made
 * ready to record it; NULL where it cannot be (ENOMEM: the sample is counted unrecorded)
 */
static struct shape *shape_find(struct symrep *r, size_t len, bool *hit)
{
	uint64_t h = r->mkey_hash;
	struct shape *sh = &r->shapes[h & (MEMO_SHAPES - 1)];

	*hit = sh->valid && sh->hash == h && sh->key_len == len &&
	       !memcmp(sh->key, r->mkey, len * sizeof(*r->mkey));
	if (*hit)
		return sh;
	shape_flush(r, sh);
	sh->valid = false;
	if (len > sh->key_cap) {
		uint64_t *n = realloc(sh->key, len * sizeof(*n));

		if (!n)
			return NULL;
		sh->key = n;
		sh->key_cap = (uint32_t)len;
	}
	memcpy(sh->key, r->mkey, len * sizeof(*r->mkey));
	sh->key_len = (uint32_t)len;
	sh->hash = h;
	sh->nr_ops = 0;
	return sh;
}

/*
 * A sample of shape @sh: its rows and paths are counted as the first of the shape's were,
 * all of the shape's samples at once when its slot records another shape or at the finish
 * (shape_flush()). Every row a shape counts has had its first sample (the shape's own, which
 * set the row's thread), so what later samples add are sums and a largest depth, the same
 * in any order.
 */
static inline void shape_replay(struct shape *sh, const struct stream_sample *s)
{
	sh->pend_nr++;
	sh->pend_period += s->period;
}

/* a sample's frames looked up as it comes (callchains, or rows not by label) */
static __attribute__((noinline)) int frames_sample(struct symrep *r,
						   const struct stream_sample *s, size_t idx,
						   const char *comm, const struct sym_loc **self)
{
	unsigned int flags = r->flags;
	size_t nf = 1, np, i, nx = 0, nxp = 0, n0 = 1;
	const struct sym_key *lab;
	struct shape *sh;
	bool moved = false;
	uint32_t id;
	int ret = 0;

	if (r->chains)
		nf = symbols__chain(r->syms, s, flags, r->frames, MAX_FRAMES);
	else
		symbols__resolve(r->syms, s->pid, s->ip, s->misc & PERF_RECORD_MISC_CPUMODE_MASK,
				 flags, &r->frames[0]);
	r->total_period += s->period;
	if (is_skid(r, r->frames[0].sym)) {
		r->skid_samples++;
		r->skid_period += s->period;
		if (!r->skid_sym)
			r->skid_sym = r->frames[0].sym;
		r->skid_with_caller += r->chains ? nf > 1 : s->nr_callchain > 2;
		while (r->cfg.skid_caller && nf > 1 && is_skid(r, r->frames[0].sym)) {
			memmove(r->frames, r->frames + 1, --nf * sizeof(r->frames[0]));
			moved = true;
		}
	}
	*self = &r->frames[0];
	if (r->cfg.wants && !r->cfg.wants(r->cfg.wants_ctx, &r->frames[0], idx, 1, s->period))
		return 0;	/* in the totals alone */
	if (!r->cfg.focus && !r->folded && !(r->cfg.labels && idx < r->cfg.nr_events))
		return 0;	/* a row of a flat report: its frame 0 is all it needs */
	np = path_frames(r, s, nf);
	if (r->cfg.focus) {	/* inlined functions counted, whatever --inline says */
		nx = expand(r, SYMREP_INLINE_ALL, moved, nf, np, &nxp, &n0);
		for (i = 0; i < nx; i++)
			r->names[i] = r->xf[i].sym;
		ret = focus__add(r->cfg.focus, r->names, nx, n0, s->period) ?:
		      focus_line(r, s, n0, moved);
	}
	/* what follows has callchains: rows by label without them are deferred (symrep__new) */
	if (ret || (!r->folded && !(r->cfg.labels && idx < r->cfg.nr_events)))
		return ret;
	if (!r->cfg.focus || r->cfg.inlines != SYMREP_INLINE_ALL)	/* not that one again */
		nx = expand(r, r->cfg.inlines, moved, nf, np, &nxp, &n0);
	if (r->folded)
		ret = add_folded(r, comm, nx, s->period);
	if (ret || !r->cfg.labels || idx >= r->cfg.nr_events)
		return ret;
	r->raw_comm = comm;
	comm = label_comm(r, comm);
	if (r->shapes) {
		bool hit;

		sh = shape_find(r, shape_key(r, s, idx, comm, nx, nxp, n0), &hit);
		if (sh && hit) {
			shape_replay(sh, s);
			return 0;
		}
		r->rec = sh;
		r->rec_self = &r->self_v[idx];
	}
	id = frame_label(r, &r->frames[0], s->tid, s->cpu, comm, &lab);
	ret = add_row(r, r->self[idx], r->self_v ? &r->self_v[idx] : NULL, id, lab, s->period, 0,
		      -1);
	if (!ret && r->cpaths && nxp)
		ret = graph_names(r, idx, nxp) ?: add_path(r, idx, lab, id, 0, nxp - 1, s->period);
	if (!ret && r->children[idx])
		ret = add_children(r, s, comm, nx, nxp, n0, r->children[idx],
				   r->children_v ? &r->children_v[idx] : NULL, idx);
	if (!ret && r->rec)
		r->rec->valid = true;	/* recorded whole */
	r->rec = NULL;
	return ret;
}

bool symrep__per_place(const struct symrep *r)
{
	return !r->chains && !r->cfg.labels;
}

void symrep__repeat_n(struct symrep *r, const char *sym, uint64_t nr, uint64_t period,
		      uint64_t with_caller)
{
	r->total_period += period;
	if (is_skid(r, sym)) {
		r->skid_samples += nr;
		r->skid_period += period;
		r->skid_with_caller += with_caller;
	}
}

void symrep__repeat(struct symrep *r, const struct stream_sample *s, const char *sym)
{
	symrep__repeat_n(r, sym, 1, s->period, s->nr_callchain > 2);
}

int symrep__sample(struct symrep *r, const struct stream_sample *s, size_t idx,
		   const char *comm, const struct sym_loc **self)
{
	if (!r->defer)
		return frames_sample(r, s, idx, comm, self);
	*self = NULL;
	return defer_sample(r, s, idx, comm);
}

struct sym_stacks *symrep__rows(struct symrep *r, size_t idx, bool children)
{
	if (!r->self || idx >= r->cfg.nr_events)
		return NULL;
	/* rows counted since symrep__finish(), which says what a table could not take */
	if (r->self_v && r->self_v[idx].v)
		row_vec__flush(&r->self_v[idx], r->labels, r->self[idx]);
	if (r->children_v && r->children_v[idx].v && r->children[idx])
		row_vec__flush(&r->children_v[idx], r->labels, r->children[idx]);
	return children ? r->children[idx] : r->self[idx];
}

const struct symrep_path *symrep__paths(const struct symrep *r, size_t idx, size_t *nr)
{
	if (!r->path_v || idx >= (r->cfg.nr_events ? r->cfg.nr_events : 1) || !r->path_v[idx])
		return NULL;
	*nr = r->nr_paths[idx];
	return r->path_v[idx];
}

/*
 * A call path's names cut where a key of 8191 bytes would end (the label, a separator, the
 * names with one between each: the last name cut short, none where the label leaves no
 * room), an empty last name left out: as perf's paths of one string a path were read back
 */
size_t symrep__path_frames(const struct symrep *r, size_t idx, const struct symrep_path *p,
			   struct symrep_name *v, size_t max)
{
	size_t used = strlen(p->label) + 1, n = 0, nodes = 0, k, len, key, i;
	size_t cap = sizeof(r->buf) - 1;
	uint32_t node;
	const char *name;

	if (used + 1 >= cap)
		return 0;
	/*
	 * the path's frames in the order printed, the outermost @max: from its node on, or
	 * (r->outer_first) the other way, its node the sampled frame
	 */
	if (r->outer_first)
		for (node = p->node; node != CALLPATHS_NONE; nodes++)
			node = callpaths__next(r->cpaths[idx], node, &name, &key);
	for (node = p->node, k = 0; node != CALLPATHS_NONE && n < max; k++) {
		node = callpaths__next(r->cpaths[idx], node, &name, &key);
		if (r->outer_first && nodes - k > max)
			continue;	/* the innermost beyond @max */
		v[r->outer_first ? nodes - 1 - k : n] = (struct symrep_name){ name, 0, key };
		n++;
	}
	/* then as many as the line's buffer takes, the last one cut */
	for (i = 0; i < n && used < cap; i++) {
		used += i > 0;		/* the separator */
		len = strnlen(v[i].s, v[i].key_len);	/* (the frame's identity after it) */
		if (used + len > cap)
			v[i].key_len = len = used < cap ? cap - used : 0;
		v[i].len = len;
		used += len;
	}
	n = i;
	if (n && !v[n - 1].len)
		n--;
	return n;
}

struct sym_stacks *symrep__folded(struct symrep *r)
{
	return r->folded;
}

void symrep__skid(const struct symrep *r, uint64_t *samples, uint64_t *period,
		  uint64_t *total_period, const char **sym, uint64_t *with_caller)
{
	*with_caller = r->skid_with_caller;
	*samples = r->skid_samples;
	*period = r->skid_period;
	*total_period = r->total_period;
	*sym = r->skid_sym;
}

size_t symrep__split(char *lab, char **f, size_t max)
{
	size_t n = 0;
	char *p = lab;

	while (n < max) {
		char *id;

		f[n++] = p;
		p = strchr(p, SYMREP_SEP);
		id = strchr(f[n - 1], SYMREP_ID);
		if (id && (!p || id < p))
			*id = '\0';
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}
