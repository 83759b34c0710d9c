// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report, the symbol side: setting up symbols and symrep, each sample through them,
 * rows by label (source lines, --children, -g call paths), per-DSO and skid notes, --focus,
 * --folded, and the options that choose them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/focus.h"
#include "report-int.h"

#define REPORT_FOCUS_LINES 3

/* report's --dsos and --symbols for rows by label: the frame each sample is a row of */
static bool label_wanted(void *ctx, const struct sym_loc *self, size_t idx, uint64_t nr,
			 uint64_t period)
{
	struct report *r = ctx;

	if (sample_filter__place_ok(r->filter, self->dso ? symrep__dso(self) : NULL,
				    self->dso && !self->kernel ? self->dso_name : NULL, self->sym))
		return true;
	report__unfiltered_out(r, idx, nr, period);
	return false;
}

/*
 * Whether the report shows or filters by anything the symbols say: one by comm, dso, pid or
 * cpu alone reads no symbol table (as --no-symbols), so it has no notes about them either
 */
static bool wants_symbols(const struct report_opts *o)
{
	size_t i;

	for (i = 0; i < o->sym.nr_keys; i++)
		if (o->sym.keys[i] == SYMREP_SYM || o->sym.keys[i] == SYMREP_SRCLINE)
			return true;
	return o->sym.labels || o->sym.children || o->sym.graph || o->sym.folded ||
	       o->sym.skid_caller || o->focus || o->filter.dsos || o->filter.symbols;
}

int report__sym_begin(struct report *r, const struct stream_info *info)
{
	const struct report_opts *o = r->o;
	struct symbols_config cfg = { .symfs = o->symfs, .vmlinux = o->vmlinux,
				      .kallsyms = o->kallsyms };
	const struct perf_file_header *h = r->f ? perf_file__header(r->f) : NULL;
	struct symrep_config sc = o->sym;
	char cbuf[4096];
	bool chains;
	size_t i;

	symbols__record_note(info->cmdline, r->note, sizeof(r->note));
	if (o->no_symbols || !wants_symbols(o))
		return 0;
	for (i = 0; i < sc.nr_keys; i++) {
		cfg.lines |= sc.keys[i] == SYMREP_SRCLINE;
		r->need_comm |= sc.keys[i] == SYMREP_COMM;
	}
	r->need_comm |= sc.folded;
	/* as perf, which drops --children silently where no event has callchains */
	for (i = 0; i < info->nr_evsels && (sc.children || sc.graph); i++)
		if (info->evsels[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			break;
	chains = i < info->nr_evsels;
	sc.children = r->children = sc.children && chains;
	/* and refuses -g there (a pipe's events may come later) */
	if (sc.graph && !chains && !info->pipe_mode)
		return err__set(r->err, -EINVAL, "-g: %s has no callchains: record it with -g or "
				"--call-graph dwarf, or leave -g out", o->input ?: "the file");
	sc.labels = sc.children || sc.graph;
	for (i = 0; i < sc.nr_keys; i++)
		sc.labels |= sc.keys[i] == SYMREP_SRCLINE;
	r->labels = sc.labels;
	if (sample_filter__by_place(r->filter) && r->labels) {	/* (hist rows: report.c) */
		sc.wants = label_wanted;
		sc.wants_ctx = r;
	}
	cfg.cache_dir = o->no_cache ? NULL : symbols__cache_dir(cbuf, sizeof(cbuf));
	cfg.no_demangle = o->no_demangle;
	cfg.machine = r->threads;	/* the one machine model: the symbols observe its maps */
	sc.nr_events = info->nr_evsels;
	sc.focus = r->focus;
	r->syms = symbols__new_input(&cfg, o->input, info, h ? h->build_ids : NULL,
				     h ? h->nr_build_ids : 0, r->err);
	if (!r->syms)
		return -EINVAL;
	r->symrep = symrep__new(r->syms, &sc);
	return r->symrep ? 0 : -ENOMEM;
}

/* the symbol of the frame symrep attributes @s to; the map again if the skid rule moved it */
int report__sym_sample(struct report *r, const struct stream_sample *s, struct taddr *al,
		      struct hist_key *k)
{
	const struct sym_loc *self;
	int ret;

	ret = symrep__sample(r->symrep, s, s->evsel->idx, al->comm, &self);
	if (ret || !self)
		return ret;
	if (self->ip != s->ip) {
		ret = threads__resolve(r->threads, s->pid, s->tid,
				       self->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
				       self->ip, al);
		k->dso = al->map ? al->map->dso : r->unknown;
		k->addr = al->addr;
		k->level = al->level;
	}
	k->sym = self->sym;
	k->sym_name = self->sym;
	k->sym_start = self->sym_start;
	return ret;
}

int report__label_sample(struct report *r, const struct stream_sample *s)
{
	const struct sym_loc *self;
	struct taddr al = { 0 };
	int ret;

	if (r->need_comm) {
		ret = threads__resolve(r->threads, s->pid, s->tid, s->misc, s->ip, &al);
		if (ret)
			return ret;
	}
	return symrep__sample(r->symrep, s, s->evsel->idx, al.comm, &self);
}

static void note(const struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* with -t or --folded the output holds data only: notes go to r->notes */
static void note(const struct report *r, const char *fmt, ...)
{
	bool data_only = r->o->sep || r->o->sym.folded;
	FILE *f = data_only ? r->notes : r->out;
	va_list ap;

	fputs(data_only ? "schedlens report: note: " : "# note: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static int dso_note(void *ctx, struct sym_dso *d)
{
	struct report *r = ctx;
	enum sym_dso_status st = sym_dso__status(d);
	bool lines = false;
	size_t i;

	for (i = 0; i < r->o->sym.nr_keys; i++)
		lines |= r->o->sym.keys[i] == SYMREP_SRCLINE;
	lines |= r->focus != NULL;	/* its hottest lines */
	/*
	 * "no source lines" says something only where lines are shown; and whether a DSO has
	 * them is known once a run asked, which the lookup cache remembers: the note would
	 * come and go with it
	 */
	if (st != SYM_DSO_OK && ((st != SYM_DSO_KALLSYMS && st != SYM_DSO_NO_DEBUGINFO) || lines))
		note(r, "%s: %s", sym_dso__name(d), sym_dso__status_str(st));
	return 0;
}

void report__print_notes(struct report *r)
{
	uint64_t ns, period, total, moved;
	const char *sym;

	if (r->note[0])
		note(r, "%s", r->note);
	if (!r->symrep)
		return;
	symbols__for_each_dso(r->syms, dso_note, r);
	symrep__skid(r->symrep, &ns, &period, &total, &sym, &moved);
	if (ns && !r->o->sym.skid_caller)
		note(r, "%.2f%% of the period landed on interrupt-enable instructions (%s and "
			"the like): sampling skid, as with hrtimer sampling in a VM; --skid-caller "
			"attributes it to the caller frame%s",
		     total ? 100.0 * period / total : 0.0, sym,
		     moved ? "" : " (needs callchains: record -g)");
	else if (ns)
		note(r, "%llu of %llu samples on interrupt-enable instructions (%s and the like) "
			"attributed to their caller frame (the rest had no callchain)",
		     (unsigned long long)moved, (unsigned long long)ns, sym);
}

/*
 * -g: perf's call-graph tree (graph mode, 0.5% threshold, percentages of the event's total
 * period). A trie of the entry's call paths; a printed node is a run of trie nodes that
 * neither branch nor end a path, as in perf's radix tree.
 */
struct gnode {
	const char *name;
	size_t len;			/* of the name printed */
	size_t klen;			/* of what the node is (symrep_name.key_len) */
	uint64_t hit, cumul;
	struct gnode *child, *next;
	struct gnode *last;		/* the child gnode__add() last went to */
	const struct gnode *parent;
	size_t nr_children;
};

struct gtree {
	uint64_t total, min_hit;
	bool failed;
	FILE *out;
};

/* a tree's nodes by parent and name, for gnode__add(): a node can have thousands of children */
struct gindex {
	struct gnode **tab;
	size_t mask, used;
	struct gblock *blocks;		/* where the nodes are: freed with the index */
};

/* nodes cut from blocks (the newest first), each twice the one before */
struct gblock {
	struct gblock *next;
	size_t used, cap;
	struct gnode v[];
};

static struct gnode *gnode__new(struct gindex *x)
{
	struct gblock *b = x->blocks;

	if (!b || b->used == b->cap) {
		size_t cap = b ? b->cap * 2 : 32;

		b = calloc(1, sizeof(*b) + cap * sizeof(b->v[0]));
		if (!b)
			return NULL;
		b->cap = cap;
		b->next = x->blocks;
		x->blocks = b;
	}
	return &b->v[b->used++];
}

/* the index and the nodes it made */
static void gindex__exit(struct gindex *x)
{
	struct gblock *b;

	while ((b = x->blocks)) {
		x->blocks = b->next;
		free(b);
	}
	free(x->tab);
}

static uint64_t gindex__hash(const struct gnode *parent, const char *name, size_t len)
{
	return hash_bytes(name, len, (uintptr_t)parent * 0x9e3779b97f4a7c15ull);
}

/* the slot of @parent's child @name: where it is, or the free one where it would go */
static struct gnode **gindex__slot(const struct gindex *x, const struct gnode *parent,
				   const char *name, size_t len, uint64_t h)
{
	size_t i;

	for (i = h & x->mask; x->tab[i]; i = (i + 1) & x->mask) {
		const struct gnode *c = x->tab[i];

		if (c->parent == parent && c->klen == len && !memcmp(c->name, name, len))
			break;
	}
	return &x->tab[i];
}

static int gindex__grow(struct gindex *x)
{
	struct gindex n = { .mask = x->mask ? x->mask * 2 + 1 : 63, .blocks = x->blocks };
	size_t i;

	n.tab = calloc(n.mask + 1, sizeof(*n.tab));
	if (!n.tab)
		return -ENOMEM;
	for (i = 0; x->tab && i <= x->mask; i++) {
		const struct gnode *c = x->tab[i];

		if (c)
			*gindex__slot(&n, c->parent, c->name, c->klen,
				      gindex__hash(c->parent, c->name, c->klen)) = x->tab[i];
	}
	free(x->tab);
	n.used = x->used;
	*x = n;
	return 0;
}

/* a path of @nr frame names (names point into symrep's, which outlive the tree) */
static int gnode__add(struct gnode *root, struct gindex *x, const struct symrep_name *v,
		      size_t nr, uint64_t period)
{
	struct gnode *n = root, *c, **slot;
	size_t i;
	uint64_t h;

	root->cumul += period;
	for (i = 0; i < nr; i++) {
		const char *p = v[i].s;
		size_t len = v[i].key_len;

		/* the child the last path took first (a row's paths share their starts), else
		 * by name and what tells equal names apart */
		c = n->last;
		if (!c || c->klen != len || (c->name != p && memcmp(c->name, p, len))) {
			if ((x->used + 1) * 2 > x->mask && gindex__grow(x))
				return -ENOMEM;
			h = gindex__hash(n, p, len);
			slot = gindex__slot(x, n, p, len, h);
			c = *slot;
			if (!c) {
				c = gnode__new(x);
				if (!c)
					return -ENOMEM;
				c->name = p;
				c->len = v[i].len;
				c->klen = len;
				c->parent = n;
				c->next = n->child;
				n->child = c;
				n->nr_children++;
				*slot = c;
				x->used++;
			}
		}
		c->cumul += period;
		n->last = c;
		n = c;
	}
	n->hit += period;
	return 0;
}

/* the last trie node of the printed node that starts at @n */
static const struct gnode *gnode__run_end(const struct gnode *n)
{
	while (n->nr_children == 1 && !n->hit)
		n = n->child;
	return n;
}

static int gnode__cmp(const void *a, const void *b)
{
	const struct gnode *x = *(const struct gnode *const *)a, *y = *(const struct gnode *const *)b;
	int c;

	if (x->cumul != y->cumul)
		return x->cumul > y->cumul ? -1 : 1;
	c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
	if (!c)
		c = (x->len > y->len) - (x->len < y->len);
	if (!c)		/* equal names: by what tells them apart, for one order */
		c = memcmp(x->name, y->name, x->klen < y->klen ? x->klen : y->klen) ?:
		    (x->klen > y->klen) - (x->klen < y->klen);
	return c;
}

/* the children of @n at or above the threshold, largest first; NULL when none (or ENOMEM) */
static const struct gnode **gnode__kids(struct gtree *t, const struct gnode *n, size_t *nr)
{
	const struct gnode **v = NULL, *c;

	*nr = 0;
	if (n->nr_children)
		v = calloc(n->nr_children, sizeof(*v));
	if (!v) {
		t->failed |= n->nr_children > 0;
		return NULL;
	}
	for (c = n->child; c; c = c->next)
		if (c->cumul >= t->min_hit)
			v[(*nr)++] = c;
	qsort(v, *nr, sizeof(*v), gnode__cmp);
	return v;
}

static bool mask_bit(uint64_t mask, int i)
{
	return i < 64 && (mask >> i & 1);
}

static void graph_margin(FILE *out, int left)
{
	fprintf(out, "%*s", 12 + left, "");
}

static void graph_line(FILE *out, int depth, uint64_t mask, int left)
{
	int i;

	graph_margin(out, left);
	for (i = 0; i < depth; i++)
		fputs(mask_bit(mask, i) ? "|          " : "           ", out);
	fputc('\n', out);
}

/* one frame of a printed node; the first carries the node's share */
static void graph_frame(const struct gtree *t, const struct gnode *node, const struct gnode *f,
			bool first, int depth, uint64_t mask, int left)
{
	int i;

	graph_margin(t->out, left);
	for (i = 0; i < depth; i++) {
		fputc(mask_bit(mask, i) ? '|' : ' ', t->out);
		if (first && i == depth - 1)
			fprintf(t->out, "--%.2f%%--", t->total ? 100.0 * node->cumul / t->total : 0.0);
		else
			fputs("          ", t->out);
	}
	fprintf(t->out, "%.*s\n", (int)f->len, f->name);
}

static size_t graph_children(struct gtree *t, const struct gnode *n, int depth, uint64_t mask,
			     int left)
{
	const struct gnode **kids, *f, *end;
	uint64_t new_mask = mask;
	size_t nr, i, lines = 0;

	kids = gnode__kids(t, n, &nr);
	for (i = 0; i < nr; i++) {
		if (i + 1 == nr && depth <= 64)
			new_mask &= ~(1ull << (depth - 1));
		graph_line(t->out, depth, mask, left);
		end = gnode__run_end(kids[i]);
		for (f = kids[i];; f = f->child) {
			graph_frame(t, kids[i], f, f == kids[i], depth, new_mask, left);
			lines++;
			if (f == end)
				break;
		}
		lines += graph_children(t, end, depth + 1,
					new_mask | (depth < 64 ? 1ull << depth : 0), left);
	}
	free(kids);
	return lines + nr;
}

/* the least period of a branch printed (perf's 0.5% of the period shown) */
static uint64_t graph_min_hit(uint64_t shown)
{
	return (uint64_t)(shown * 0.005);
}

/*
 * A single first node holding all of the entry's period is printed without its share after
 * "---"; sorted by symbol first, its first frame (the entry itself) is left out.
 */
static int print_graph(FILE *out, const struct gnode *root, uint64_t total, uint64_t shown,
		       uint64_t parent, bool skip_first)
{
	/* --percentage relative: perf hides branches by the period shown, prints the shares
	 * of all of it (@total) */
	struct gtree t = { .total = total, .min_hit = graph_min_hit(shown), .out = out };
	const struct gnode **kids, *f, *end;
	size_t nr, lines = 0;
	int left = 0;

	kids = gnode__kids(&t, root, &nr);
	if (nr == 1 && kids[0]->cumul == parent) {
		end = gnode__run_end(kids[0]);
		for (f = kids[0];; f = f->child) {
			if (f != kids[0] || !skip_first) {
				if (!lines) {
					graph_margin(out, left);
					fprintf(out, "|\n");
					graph_margin(out, left);
					fprintf(out, "---");
					left += 3;
					lines++;
				} else {
					graph_margin(out, left);
				}
				fprintf(out, "%.*s\n", (int)f->len, f->name);
				lines++;
			}
			if (f == end)
				break;
		}
		root = end;
	}
	free(kids);
	lines += graph_children(&t, root, 1, 1, left);
	if (lines)
		fputc('\n', out);
	return t.failed ? -ENOMEM : 0;
}

static const char *key_title(enum symrep_key k)
{
	static const char *const t[] = { "Command", "Shared Object", "Symbol", "    Pid:Command", "CPU",
					 "Source:Line" };

	return t[k];
}

/* sym_field() of a label's symbol field */
struct sym_part {
	const char *name, *digits;
	size_t len;
	bool named;			/* sym_field()'s value */
};

/* a row by label of a group: each member's period, self period and samples */
struct label_row {
	const char *key;
	const uint64_t *period, *self, *nr;	/* [member] */
	uint32_t depth;			/* the first member's children row's */
	int32_t tid;
	struct sym_part sym;		/* its field of key sym_key, read once for the sort */
	bool has_sym;
	/* row_pfx(): cmp_labels()'s first PFX_KEYS keys as numbers, and the address */
	uint8_t nr_pfx, exact;		/* keys with a number; those it holds whole (bits) */
	bool has_addr;			/* key sym_key is an unnamed symbol: addr */
	uint64_t pfx[3];
	int64_t addr;
};

#define PFX_KEYS 3

struct label_rows {
	struct label_row *v;
	size_t nr, nr_members;
	uint64_t *vals;
	int order;		/* --children: 0, or with -g 1 (callee) or -1 (caller) */
	const enum symrep_key *keys;	/* a label's fields */
	size_t nr_keys;
	size_t sym_key;		/* the first SYMREP_SYM of keys, or nr_keys */
};

/* a label's field at @p (up to SYMREP_SEP or the end): its length */
static size_t field_len(const char *p)
{
	const char *e = strchr(p, SYMREP_SEP);

	return e ? (size_t)(e - p) : strlen(p);
}

/*
 * A symbol field of @n bytes at @p ("[k] name", then SYMREP_ID and what tells equal names
 * apart; "[.] 0x%016llx" without a symbol, "0000000000000000" for 0): its name after the
 * level, its length in *@len; false where it names no symbol, *@digits then its 16 hex
 * digits
 */
static bool sym_field(const char *p, size_t n, const char **name, size_t *len,
		      const char **digits)
{
	const char *id = memchr(p, SYMREP_ID, n);
	size_t i;

	if (n >= 4 && p[0] == '[' && p[2] == ']' && p[3] == ' ') {
		p += 4;
		n -= 4;
	}
	*name = p;
	*len = id ? (size_t)(id - p) : n;
	if (id)
		return true;
	if (n == 18 && p[0] == '0' && p[1] == 'x')
		p += 2;
	else if (n != 16)
		return true;
	for (i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)p[i]) || isupper((unsigned char)p[i]))
			return true;
	*digits = p;
	return false;
}

/* two addresses of 16 hex digits each as signed numbers */
static int cmp_digits(const char *a, const char *b)
{
	bool na = *a >= '8', nb = *b >= '8';	/* ('a'-'f' sort after '8' too) */
	int r = memcmp(a, b, 16);

	return na != nb ? (na ? -1 : 1) : (r > 0) - (r < 0);
}

static int cmp_bytes(const char *a, size_t la, const char *b, size_t lb)
{
	int r = memcmp(a, b, la < lb ? la : lb);

	return r ?: (la > lb) - (la < lb);
}

/* @x's sym_field() of key @i at @a of @n bytes: the row's, read before the sort, if it is */
static const struct sym_part *row_sym(const struct label_rows *lr, const struct label_row *x,
				      size_t i, const char *a, size_t n, struct sym_part *buf)
{
	if (i == lr->sym_key && x->has_sym)
		return &x->sym;
	buf->digits = NULL;
	buf->named = sym_field(a, n, &buf->name, &buf->len, &buf->digits);
	return buf;
}

static int cmp_labels(const struct label_rows *lr, const struct label_row *x,
		      const struct label_row *y)
{
	const char *a = x->key, *b = y->key;
	struct sym_part pa, pb;
	size_t la, lb, i;
	int r = 0, by_addr = 0;

	for (i = 0; i < lr->nr_keys && !r && *a && *b; i++) {
		la = field_len(a);
		lb = field_len(b);
		switch (lr->keys[i]) {
		case SYMREP_DSO: {
			bool ua = la == 9 && !memcmp(a, "[unknown]", 9);
			bool ub = lb == 9 && !memcmp(b, "[unknown]", 9);

			r = ua != ub ? ua - ub : ua ? 0 : cmp_bytes(a, la, b, lb);
			break;
		}
		case SYMREP_SYM: {
			const struct sym_part *sa = row_sym(lr, x, i, a, la, &pa);
			const struct sym_part *sb = row_sym(lr, y, i, b, lb, &pb);

			if (sa->named != sb->named)
				r = sb->named - sa->named;
			else if (sa->named)
				r = cmp_bytes(sa->name, sa->len, sb->name, sb->len);
			else if (!by_addr)
				by_addr = cmp_digits(sa->digits, sb->digits);
			break;
		}
		default:
			r = cmp_bytes(a, la, b, lb);
			break;
		}
		a += la + (a[la] != 0);
		b += lb + (b[lb] != 0);
	}
	return r ?: by_addr ?: strcmp(x->key, y->key);
}

/* row @x's field of key lr->sym_key read into x->sym, where its label has one */
static void read_row_sym(const struct label_rows *lr, struct label_row *x)
{
	const char *a = x->key;
	size_t i, la = 0;

	for (i = 0; i < lr->sym_key && *a; i++) {
		la = field_len(a);
		a += la + (a[la] != 0);
	}
	if (i < lr->sym_key || !*a || i >= lr->nr_keys)
		return;
	x->sym.digits = NULL;
	x->sym.named = sym_field(a, field_len(a), &x->sym.name, &x->sym.len, &x->sym.digits);
	x->has_sym = true;
}

/* the first 8 bytes of @p[0..n) as a big-endian number, zeros past @n */
static uint64_t be_prefix(const char *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		v = v << 8 | (i < n ? (unsigned char)p[i] : 0);
	return v;
}

/*
 * Row @x's first PFX_KEYS fields as numbers that order as cmp_labels() orders by each field
 * (a field holds no 0 byte, so zeros past its end sort a prefix first): where two rows'
 * numbers of a key differ, so does their order by that key, the same way; where the key
 * compares equal, so do the numbers, and a number marked exact is equal only then. A named
 * symbol is its name shifted right by one, below every unnamed one (1 << 63: those compare
 * equal by the key, then by address after all keys, as signed numbers); an unknown DSO is
 * the largest.
 */
static void row_pfx(const struct label_rows *lr, struct label_row *x)
{
	const char *a = x->key;
	size_t i, la;

	for (i = 0; i < lr->nr_keys && i < PFX_KEYS && *a; i++) {
		bool exact;
		uint64_t v;

		la = field_len(a);
		switch (lr->keys[i]) {
		case SYMREP_DSO:
			if (la == 9 && !memcmp(a, "[unknown]", 9)) {
				v = UINT64_MAX;
				exact = true;
			} else {
				v = be_prefix(a, la);
				exact = la <= 8 && v != UINT64_MAX;
			}
			break;
		case SYMREP_SYM: {
			struct sym_part buf;
			const struct sym_part *sp = row_sym(lr, x, i, a, la, &buf);

			if (sp->named) {
				v = be_prefix(sp->name, sp->len) >> 1;
				exact = sp->len <= 7;
			} else {
				v = 1ull << 63;
				exact = true;
				if (i == lr->sym_key) {
					x->addr = (int64_t)strtoull(sp->digits, NULL, 16);
					x->has_addr = true;
				}
			}
			break;
		}
		default:
			v = be_prefix(a, la);
			exact = la <= 8;
			break;
		}
		x->pfx[i] = v;
		x->exact |= exact << i;
		a += la + (a[la] != 0);
	}
	x->nr_pfx = i;
}

/* cmp_labels()'s order: from row_pfx()'s numbers where they tell, else cmp_labels() itself */
static int cmp_label_pfx(const struct label_rows *lr, const struct label_row *x,
			 const struct label_row *y)
{
	size_t i, n = lr->nr_keys < PFX_KEYS ? lr->nr_keys : PFX_KEYS;

	if (x->nr_pfx < n || y->nr_pfx < n)
		return cmp_labels(lr, x, y);
	for (i = 0; i < n; i++) {
		if (x->pfx[i] != y->pfx[i])
			return x->pfx[i] < y->pfx[i] ? -1 : 1;
		if (!(x->exact & y->exact & 1u << i))
			return cmp_labels(lr, x, y);
	}
	/* every key equal: by address, then by the whole label */
	if (lr->nr_keys > n || !x->has_addr || !y->has_addr)
		return cmp_labels(lr, x, y);
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->key, y->key);
}

/*
 * perf's output order: by period (each member's in turn); with --children, equal children
 * shares of one thread's rows put the caller above the callee (__hpp__sort_acc(): the
 * entry with the shallower callchain first in callee order, the deeper in caller order)
 * where there are call graphs, then by self period; then by label
 */
static int cmp_label_row(const void *a, const void *b, void *ctx)
{
	const struct label_row *x = a, *y = b;
	const struct label_rows *lr = ctx;
	size_t i, n = lr->nr_members;

	for (i = 0; i < n; i++)
		if (x->period[i] != y->period[i])
			return x->period[i] > y->period[i] ? -1 : 1;
	if ((lr->order == 1 || lr->order == -1) && x->tid == y->tid && x->depth != y->depth)
		return (x->depth < y->depth ? -1 : 1) * lr->order;
	if (lr->order != 2 && x->self[0] != y->self[0])
		return x->self[0] > y->self[0] ? -1 : 1;
	return cmp_label_pfx(lr, x, y);
}

/*
 * The rows of event @idx and the @n - 1 members of its group after it: every label any of
 * them has, by the first one's period, then each next one's, then by label (for one event
 * without --children, sym_stacks__sorted()'s order). 0 or -ENOMEM.
 */
static int label_rows(struct report *r, size_t idx, size_t n, struct label_rows *lr)
{
	bool children = r->children;
	struct sym_stacks *st[REPORT_MAX_MEMBERS], *self[REPORT_MAX_MEMBERS];
	size_t m, k, i, nr, total = 0;
	bool tie;

	*lr = (struct label_rows){ .nr_members = n, .order = 2, .keys = r->o->sym.keys,
				   .nr_keys = r->o->sym.nr_keys };
	if (children)
		lr->order = r->o->sym.graph == SYMREP_GRAPH_CALLEE ? 1 :
			    r->o->sym.graph == SYMREP_GRAPH_CALLER ? -1 : 0;
	for (m = 0; m < n; m++) {
		st[m] = symrep__rows(r->symrep, idx + m, children);
		self[m] = symrep__rows(r->symrep, idx + m, false);
		total += sym_stacks__nr(st[m]);	/* at most: labels in two members are one row */
	}
	/*
	 * cmp_label_row's order is total but for the depths of one thread's rows (callers
	 * above callees, not transitive with the rest): there the sort starts from
	 * sym_stacks__sorted()'s order, as it did from perf's, elsewhere from any
	 */
	tie = lr->order == 1 || lr->order == -1;
	lr->v = calloc(total ?: 1, sizeof(*lr->v));
	lr->vals = calloc((total ?: 1) * 3 * n, sizeof(*lr->vals));
	if (!lr->v || !lr->vals)
		return -ENOMEM;
	for (m = 0; m < n; m++) {
		const struct sym_stack *v = tie ? sym_stacks__sorted(st[m], &nr) :
						  sym_stacks__slots(st[m], &nr);

		for (i = 0; v && i < nr; i++) {
			if (!v[i].key)
				continue;
			for (k = 0; k < m && !sym_stacks__get(st[k], v[i].key); k++)
				;
			if (k == m)	/* not in an earlier member */
				lr->v[lr->nr++].key = v[i].key;
		}
	}
	for (i = 0; i < lr->nr; i++) {
		uint64_t *val = &lr->vals[i * 3 * n];

		for (m = 0; m < n; m++) {
			const struct sym_stack *e = sym_stacks__get(st[m], lr->v[i].key);
			const struct sym_stack *se = sym_stacks__get(self[m], lr->v[i].key);

			val[m] = e ? e->period : 0;
			val[n + m] = se ? se->period : 0;
			/* -n's samples are the self ones, with --children too, as perf's */
			val[2 * n + m] = se ? se->nr_samples : 0;
			if (!m && e) {
				lr->v[i].depth = e->depth;
				lr->v[i].tid = e->tid;
			}
		}
		lr->v[i].period = val;
		lr->v[i].self = val + n;
		lr->v[i].nr = val + 2 * n;
	}
	for (lr->sym_key = 0; lr->sym_key < lr->nr_keys && lr->keys[lr->sym_key] != SYMREP_SYM;
	     lr->sym_key++)
		;
	for (i = 0; i < lr->nr; i++) {
		read_row_sym(lr, &lr->v[i]);
		row_pfx(lr, &lr->v[i]);
	}
	qsort_r(lr->v, lr->nr, sizeof(*lr->v), cmp_label_row, lr);
	return 0;
}

static void label_rows__exit(struct label_rows *lr)
{
	free(lr->v);
	free(lr->vals);
}

/* the call paths of event @idx by row: row i's are p[start[i]] to p[start[i + 1] - 1] */
struct row_paths {
	const struct symrep_path **p;
	size_t *start;
};

static uint64_t label_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Each path's row found by its label in a table of the rows' labels */
static int paths_by_row(struct report *r, size_t idx, const struct label_rows *lr,
			struct row_paths *rp)
{
	size_t nr = 0, i, mask = 15, *row = NULL, *fill = NULL, k;
	const struct symrep_path *v = symrep__paths(r->symrep, idx, &nr);
	uint32_t *tab;
	int ret = -ENOMEM;

	while (mask < lr->nr * 2)
		mask = mask * 2 + 1;
	tab = calloc(mask + 1, sizeof(*tab));
	rp->start = calloc(lr->nr + 1, sizeof(*rp->start));
	rp->p = malloc((nr ? nr : 1) * sizeof(*rp->p));
	row = malloc((nr ? nr : 1) * sizeof(*row));
	fill = calloc(lr->nr + 1, sizeof(*fill));
	if (!tab || !rp->start || !rp->p || !row || !fill)
		goto out;
	for (i = 0; i < lr->nr; i++) {
		for (k = label_hash(lr->v[i].key, strlen(lr->v[i].key)) & mask; tab[k];
		     k = (k + 1) & mask)
			;
		tab[k] = (uint32_t)i + 1;
	}
	for (i = 0; i < nr; i++) {
		const char *key = v[i].label;

		row[i] = SIZE_MAX;
		for (k = label_hash(key, strlen(key)) & mask; tab[k]; k = (k + 1) & mask) {
			if (!strcmp(lr->v[tab[k] - 1].key, key)) {
				row[i] = tab[k] - 1;
				rp->start[row[i] + 1]++;
				break;
			}
		}
	}
	for (i = 0; i < lr->nr; i++) {
		rp->start[i + 1] += rp->start[i];
		fill[i] = rp->start[i];
	}
	for (i = 0; i < nr; i++)
		if (row[i] != SIZE_MAX)
			rp->p[fill[row[i]]++] = &v[i];
	ret = 0;
out:
	free(tab);
	free(row);
	free(fill);
	return ret;
}

static int print_paths(struct report *r, size_t idx, const struct row_paths *rp, size_t row,
		       uint64_t tp, uint64_t parent)
{
	struct symrep_name names[256];
	struct gnode root = { 0 };
	struct gindex x = { 0 };
	uint64_t sum = 0;
	size_t i, n;
	int ret = 0;

	/* a row whose paths together are below the threshold has no branch to print (most
	 * rows of a large recording's --children): its tree is not built */
	for (i = rp->start[row]; i < rp->start[row + 1]; i++)
		sum += rp->p[i]->period;
	if (sum < graph_min_hit(tp))
		return 0;
	for (i = rp->start[row]; i < rp->start[row + 1] && !ret; i++) {
		n = symrep__path_frames(r->symrep, idx, rp->p[i], names, ARRAY_SIZE(names));
		ret = gnode__add(&root, &x, names, n, rp->p[i]->period);
	}
	if (!ret)
		ret = print_graph(r->out, &root, tp + (r->period_out ? r->period_out[idx] : 0), tp,
				  parent,
				  r->o->sym.nr_keys && r->o->sym.keys[0] == SYMREP_SYM);
	gindex__exit(&x);
	return ret;
}

/* a label's buffers for the keys printed otherwise than they are kept */
typedef char label_buf[SYMREP_MAX_KEYS][320];

/*
 * The keys of label @key as printed, at *@f with their lengths in @len (symrep__split()'s
 * fields, the label left as it is, or @buf): how many. The pid key is perf's thread: its
 * tid, and then (without -t) ":" and the comm the thread has at the end.
 */
static size_t label_fields(struct report *r, const char *key, const char **f, size_t *len,
			   label_buf buf)
{
	size_t n = 0;
	const char *p = key, *end, *id;
	struct taddr al;
	int k;

	while (n < SYMREP_MAX_KEYS) {
		end = strchr(p, SYMREP_SEP);
		id = memchr(p, SYMREP_ID, end ? (size_t)(end - p) : strlen(p));
		f[n] = p;
		len[n] = (size_t)((id ? id : end ? end : p + strlen(p)) - p);
		if (n < r->o->sym.nr_keys && r->o->sym.keys[n] == SYMREP_PID && !r->o->sep) {
			uint32_t tid = (uint32_t)strtoul(p, NULL, 10);

			if (threads__resolve(r->threads, tid, tid, PERF_RECORD_MISC_KERNEL, 0, &al) ||
			    !al.comm)
				al.comm = "";
			k = snprintf(buf[n], sizeof(buf[n]), "%7d:%s", (int)tid, al.comm);
			f[n] = buf[n];
			len[n] = k < 0 ? 0 : (size_t)k < sizeof(buf[n]) ? (size_t)k : sizeof(buf[n]) - 1;
		}
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	return n;
}

/*
 * Rows by label (source lines, --children: children and self shares, -g call paths) of
 * event @idx and the @n - 1 members of its group after it, side by side
 */
int report__print_labels(struct report *r, size_t idx, size_t n)
{
	const struct report_opts *o = r->o;
	bool children = r->children;
	uint64_t tp[REPORT_MAX_MEMBERS], ts[REPORT_MAX_MEMBERS], all_p = 0, all_s = 0;
	double pct[2 * REPORT_MAX_MEMBERS], sp;
	size_t i, j, m, nk, nc, w[SYMREP_MAX_KEYS] = { 0 }, fl[SYMREP_MAX_KEYS];
	struct report_col c[3 + SYMREP_MAX_KEYS];
	const char *f[SYMREP_MAX_KEYS];
	label_buf fb;
	char desc[1024];
	struct row_paths paths = { 0 };
	struct label_rows lr;
	bool unres = false;
	int ret = label_rows(r, idx, n, &lr);

	if (!ret && symrep__paths(r->symrep, idx, &(size_t){ 0 }) && !o->sep)
		ret = paths_by_row(r, idx, &lr, &paths);
	if (ret)
		goto out_free;
	for (m = 0; m < n; m++) {
		all_p += tp[m] = r->period[idx + m];
		all_s += ts[m] = r->nr_samples[idx + m];
	}
	for (j = 0; j < o->sym.nr_keys; j++)
		w[j] = strlen(key_title(o->sym.keys[j]));
	for (i = 0; i < lr.nr; i++) {
		nk = label_fields(r, lr.v[i].key, f, fl, fb);
		for (j = 0; j < nk; j++) {
			w[j] = fl[j] > w[j] ? fl[j] : w[j];
			/* a symbol's field goes on with what tells equal names apart */
			unres |= j < o->sym.nr_keys && o->sym.keys[j] == SYMREP_SYM &&
				 f[j][fl[j]] != SYMREP_ID;
		}
	}
	for (j = 0; unres && j < o->sym.nr_keys; j++)
		if (o->sym.keys[j] == SYMREP_DSO)
			w[j] = report__unres_dso_width(r, w[j]);
	if (!o->sep) {
		report__print_count(r, all_s, all_p, r->groups[idx].nr_members > 1,
				    report__event_desc(r, idx, n > 1, desc, sizeof(desc)));
		nc = report__share_cols(r, c, n, children);
		for (j = 0; j < o->sym.nr_keys; j++)
			c[nc++] = (struct report_col){
				report__elided(r, o->sym.keys[j]) ? NULL :
				key_title(o->sym.keys[j]), w[j], false };
		report__print_head(r->out, c, nc);
	}
	for (i = 0; i < lr.nr; i++) {
		const struct label_row *e = &lr.v[i];

		for (m = 0; m < n; m++) {
			pct[m] = tp[m] ? 100.0 * e->period[m] / tp[m] : 0;
			pct[n + m] = tp[m] ? 100.0 * e->self[m] / tp[m] : 0;
		}
		if (pct[0] < o->percent_limit)
			continue;
		sp = children ? pct[n] : ts[0] ? 100.0 * e->nr[0] / ts[0] : 0;
		if (o->sep)
			report__print_fields(r, idx, pct[0], sp);
		else
			report__print_shares(r, pct, children ? 2 * n : n, e->nr, e->self, n);
		nk = label_fields(r, e->key, f, fl, fb);
		for (j = 0; j < nk; j++) {
			if (j < o->sym.nr_keys && report__elided(r, o->sym.keys[j]))
				continue;
			fputs(o->sep ?: "  ", r->out);
			report__put_padded(r->out, f[j], fl[j], o->sep || j + 1 == nk ? 0 : w[j]);
		}
		fputc('\n', r->out);
		if (paths.p && !ret)
			ret = print_paths(r, idx, &paths, i, tp[0], e->period[0]);
	}
	if (!o->sep)
		fprintf(r->out, "\n\n");
	if (ret)
		fprintf(r->notes, "schedlens report: call graph: %s\n", strerror(-ret));
	ret = 0;	/* said */
out_free:
	free(paths.p);
	free(paths.start);
	label_rows__exit(&lr);
	return ret;
}

/* the hottest source lines of each listed function's self samples */
static void print_focus_lines(struct report *r, const struct focus_row *rows, size_t n,
			      uint64_t tp)
{
	const struct focus_line *l;
	bool head = false;
	size_t i, j, nl;

	for (i = 0; i < n; i++) {
		nl = focus__lines(r->focus, (int)i, &l);
		for (j = 0; j < nl && j < REPORT_FOCUS_LINES; j++) {
			if (!head)
				fprintf(r->out, "#\n# hottest source lines of the self samples (%d a function)\n"
				       "#     Self   Samples  %-28s Function\n", REPORT_FOCUS_LINES,
				       "Line");
			head = true;
			fprintf(r->out, "%9.2f%% %9llu  %-28s %s\n", tp ? 100.0 * l[j].period / tp : 0.0,
			       (unsigned long long)l[j].samples, l[j].line, rows[i].name);
		}
	}
}

void report__print_focus(struct report *r)
{
	const struct focus_row *rows;
	struct focus_row any;
	uint64_t ns, tp;
	size_t n = focus__rows(r->focus, &rows), i;

	focus__totals(r->focus, &any, &ns, &tp);
	fprintf(r->out, "# focus '%s': %zu functions; shares of all %llu samples, by period\n",
	       r->o->focus, n, (unsigned long long)ns);
	fprintf(r->out, "# self: taken in the function; through: its callchain passes through it\n#\n");
	fprintf(r->out, "#     Self   Through   Samples  Function\n");
	for (i = 0; i <= n; i++) {
		const struct focus_row *e = i < n ? &rows[i] : &any;

		if (i < n && !e->through_samples)
			continue;
		fprintf(r->out, "%9.2f%% %8.2f%% %9llu  %s\n", tp ? 100.0 * e->self_period / tp : 0.0,
		       tp ? 100.0 * e->through_period / tp : 0.0,
		       (unsigned long long)e->through_samples, e->name);
	}
	print_focus_lines(r, rows, n, tp);
}

void report__print_folded(struct report *r)
{
	const struct sym_stack *v;
	size_t n, i;

	char num[24];
	size_t k;
	uint64_t c;

	v = sym_stacks__sorted(symrep__folded(r->symrep), &n);
	for (i = 0; i < n; i++) {	/* "%s %llu\n" */
		k = sizeof(num);
		num[--k] = '\n';
		c = v[i].nr_samples;
		do
			num[--k] = (char)('0' + c % 10);
		while (c /= 10);
		num[--k] = ' ';
		fputs(v[i].key, r->out);
		fwrite(num + k, 1, sizeof(num) - k, r->out);
	}
}

int report__parse_graph(const char *arg, enum symrep_graph *g)
{
	if (!strcmp(arg, "caller"))
		*g = SYMREP_GRAPH_CALLER;
	else if (!strcmp(arg, "callee"))
		*g = SYMREP_GRAPH_CALLEE;
	else if (!strcmp(arg, "none"))
		*g = SYMREP_GRAPH_NONE;
	else
		return -EINVAL;
	return 0;
}

/* the sort keys for symrep: the hist keys in order, srcline among them */
int report__add_key(struct report_opts *o, const char *tok, int hs)
{
	if (o->sym.nr_keys >= SYMREP_MAX_KEYS)
		return -EINVAL;
	if (!strcmp(tok, "srcline"))
		o->sym.keys[o->sym.nr_keys++] = SYMREP_SRCLINE;
	else if (hs == HIST_SORT_COMM)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_COMM;
	else if (hs == HIST_SORT_DSO)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_DSO;
	else if (hs == HIST_SORT_SYM)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_SYM;
	else if (hs == HIST_SORT_PID)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_PID;
	else if (hs == HIST_SORT_CPU)
		o->sym.keys[o->sym.nr_keys++] = SYMREP_CPU;
	else
		return -EINVAL;
	return 0;
}

int report__set_sort(struct report_opts *o, const char *keys, struct errbuf *err)
{
	char *copy = strdup(keys), *tok, *save;
	size_t i;
	int ret = 0;

	if (!copy)
		return err__set(err, -ENOMEM, "out of memory");
	o->nr_sorts = 0;
	o->sym.nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int s = hist_sort__parse(tok);

		if (!strcmp(tok, "srcline") && !report__add_key(o, tok, s))
			continue;
		if (s < 0 || o->nr_sorts >= HIST_SORT_MAX || report__add_key(o, tok, s)) {
			ret = err__set(err, -EINVAL, "'%s' is not a sort key", tok);
			goto out;
		}
		o->sorts[o->nr_sorts++] = s;
	}
	if (!o->sym.nr_keys) {
		ret = err__set(err, -EINVAL, "--sort needs at least one key");
		goto out;
	}
	for (i = 0; i < o->sym.nr_keys; i++)
		o->sym.labels |= o->sym.keys[i] == SYMREP_SRCLINE;
	o->sym.labels |= o->sym.children || o->sym.graph;
out:
	free(copy);
	return ret;
}
