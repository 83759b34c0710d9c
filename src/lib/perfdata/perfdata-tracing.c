// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing data perf records with tracepoints (tools/perf/util/trace-event-info.c and
 * trace-event-read.c), read into libtraceevent and generated from tracefs:
 *   "\027\010\104tracing", "0.6\0", u8 big endian, u8 sizeof(long), u32 page size,
 *   "header_page\0" u64 size + text, "header_event\0" u64 size + text,
 *   u32 nr ftrace formats (u64 size + text each), u32 nr systems (name\0, u32 nr, formats),
 *   u32 kallsyms size + text (left empty here), u32 printk size + text,
 *   u64 saved_cmdlines size + text.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "perfdata-int.h"

static char *rcstr(struct rd *r)
{
	const uint8_t *z = memchr(r->p, 0, r->end - r->p);
	char *s;

	if (!z) {
		r->bad = true;
		return NULL;
	}
	s = strdup((const char *)r->p);
	r->p = z + 1;
	return s;
}

/* size-prefixed text copied NUL-terminated (and room for one more byte and a NUL) */
static char *rtext(struct rd *r, uint64_t size)
{
	const uint8_t *p = rbytes(r, size);
	char *s;

	if (!p)
		return NULL;
	s = calloc(1, size + 8);
	if (s)
		memcpy(s, p, size);
	return s;
}

/*
 * Keep only the lines of printk_formats shaped as the kernel writes them, 0x<addr> : "<fmt>",
 * ending in "\n": libtraceevent's parser reads past the end of anything else.
 */
static bool printk_sane(char *buf)
{
	char *in = buf, *out = buf;

	while (*in) {
		size_t n = strcspn(in, "\n");
		char *end, *q;

		strtoull(in, &end, 16);
		q = end;
		if (!strncmp(in, "0x", 2) && end > in + 2 && !strncmp(q, " : \"", 4) &&
		    n >= (size_t)(q - in) + 6 && in[n - 1] == '"') {
			memmove(out, in, n);
			out += n;
			*out++ = '\n';
		}
		in += n + (in[n] == '\n');
	}
	*out = 0;
	return out > buf;
}

/* every REC->field of the print fmt line at fmt is declared in fields[0..fmt) */
static bool fields_declared(const char *fields, const char *fmt)
{
	size_t line = strcspn(fmt, "\n");
	const char *p = fmt;
	char name[128];

	while ((p = strstr(p, "REC->")) && (size_t)(p - fmt) < line) {
		size_t n = strspn(p + 5, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		bool found = false;
		const char *q;

		if (!n || n >= sizeof(name))
			return false;
		snprintf(name, sizeof(name), "%.*s", (int)n, p + 5);
		/* " name;" or "*name;" or " name[" in a field line */
		for (q = fields; (q = strstr(q, name)) && q < fmt; q++)
			if ((q[-1] == ' ' || q[-1] == '*') && (q[n] == ';' || q[n] == '[')) {
				found = true;
				break;
			}
		if (!found)
			return false;
		p += 5 + n;
	}
	return true;
}

/* every "field:" declaration in fields[0..fmt) has its array brackets closed before its ';' */
static bool fields_closed(const char *fields, const char *fmt)
{
	const char *p = fields;

	while ((p = strstr(p, "\tfield:")) && p < fmt) {
		size_t decl = strcspn(p, ";\n");
		const char *open = memchr(p, '[', decl);

		if (open && !memchr(open, ']', decl - (size_t)(open - p)))
			return false;
		p += decl;
	}
	return true;
}

/* p[0..end) is printable ASCII, tabs and newlines, as the kernel writes a format */
static bool plain_text(const char *p, const char *end)
{
	for (; p < end; p++)
		if ((*p < 0x20 || *p > 0x7e) && *p != '\t' && *p != '\n')
			return false;
	return true;
}

/*
 * An event format as tracefs writes it: "name:", "ID:", "format:" with its field
 * declarations in plain ASCII and their brackets closed, and a "print fmt:" whose quotes,
 * parentheses and braces balance, with plain ASCII outside its strings, and whose REC->fields
 * are declared. libtraceevent dereferences NULL on a field declaration or a print fmt cut
 * short, on a byte its tokenizer does not know, or on an unknown field, so anything else is
 * not handed to it.
 */
static bool format_sane(const char *buf)
{
	const char *p = strstr(buf, "\nprint fmt: \""), *fields = strstr(buf, "\nformat:");
	int paren = 0, brace = 0;
	bool quote = false;

	if (strncmp(buf, "name: ", 6) || !strstr(buf, "\nID: ") || !fields || !p || p < fields ||
	    !plain_text(fields, p) || !fields_closed(fields, p) || !fields_declared(fields, p + 12))
		return false;
	for (p += 12; *p && *p != '\n'; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quote = false;
			continue;
		}
		if (!plain_text(p, p + 1))
			return false;
		switch (*p) {
		case '"':
			quote = true;
			break;
		case '(':
			paren++;
			break;
		case ')':
			paren--;
			break;
		case '{':
			brace++;
			break;
		case '}':
			brace--;
			break;
		default:
			break;
		}
		if (paren < 0 || brace < 0)
			return false;
	}
	return !quote && !paren && !brace;
}

/* "sys:name" of the event format @buf under its ID, for naming events without the parse */
static void td_name(struct perf_file *f, const char *buf, const char *sys)
{
	const char *id = strstr(buf, "\nID: ");
	size_t n = strcspn(buf + 6, "\n");
	void *v;

	if (!id || f->nr_tp_names >= 65536)
		return;
	v = realloc(f->tp_names, (f->nr_tp_names + 1) * sizeof(*f->tp_names));
	if (!v)
		return;
	f->tp_names = v;
	f->tp_names[f->nr_tp_names].id = strtoull(id + 5, NULL, 10);
	snprintf(f->tp_names[f->nr_tp_names++].name, sizeof(f->tp_names->name), "%s:%.*s", sys,
		 (int)(n < 127 ? n : 127), buf + 6);
}

/* the formats of one system: into @tep, or with no @tep their names only */
static void td_formats(struct rd *r, struct tep_handle *tep, const char *sys, bool ftrace)
{
	uint32_t n = r32(r), i;

	for (i = 0; i < n && !r->bad; i++) {
		uint64_t size = r64(r);
		char *buf = rtext(r, size);

		if (!buf)
			break;
		if (!format_sane(buf))
			;	/* skipped: its samples print without a payload */
		else if (!tep)
			td_name(r->f, buf, sys);
		else if (ftrace)
			tep_parse_format(tep, NULL, buf, size, sys);
		else
			tep_parse_event(tep, buf, size, sys);
		free(buf);
	}
}

/* size-prefixed text handed to @parse (a libtraceevent parser) when there is a @tep */
static void td_text(struct rd *r, uint64_t size, struct tep_handle *tep,
		    void (*parse)(struct tep_handle *tep, char *buf, uint64_t size))
{
	char *buf;

	if (!tep) {
		rbytes(r, size);
		return;
	}
	buf = rtext(r, size);
	if (buf)
		parse(tep, buf, size);
	free(buf);
}

static void parse_kallsyms(struct tep_handle *tep, char *buf, uint64_t size)
{
	tep_parse_kallsyms(tep, buf);
}

static void parse_printk(struct tep_handle *tep, char *buf, uint64_t size)
{
	if (printk_sane(buf))
		tep_parse_printk_formats(tep, buf);
}

static void parse_cmdlines(struct tep_handle *tep, char *buf, uint64_t size)
{
	tep_parse_saved_cmdlines(tep, buf);
}

/*
 * Walk tracing data @p: into @tep (set up here), or with no @tep check its shape and keep
 * the events' names (f->tp_names). 0, or how many bytes in it went wrong (the walk stopped).
 */
static size_t td_read(struct perf_file *f, const uint8_t *p, size_t size, struct tep_handle *tep)
{
	struct rd r = { f, p, p + size, false, false };
	uint32_t nsys, i, page_size;
	char *ver = NULL, *buf;
	uint8_t be, long_size;
	const uint8_t *q;
	uint64_t sz;

	rbytes(&r, 10);
	ver = rcstr(&r);
	q = rbytes(&r, 2);
	if (!ver || !q)
		goto bad;
	be = q[0];
	long_size = q[1];
	r.swap = !!be != (__BYTE_ORDER == __BIG_ENDIAN);
	page_size = r32(&r);
	if (tep) {
		tep_set_file_bigendian(tep, be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(tep, __BYTE_ORDER == __BIG_ENDIAN ? TEP_BIG_ENDIAN
									   : TEP_LITTLE_ENDIAN);
		tep_set_long_size(tep, long_size);
		tep_set_page_size(tep, page_size);
	}
	q = rbytes(&r, 12);
	if (!q || memcmp(q, "header_page", 12))
		goto bad;
	sz = r64(&r);
	buf = rtext(&r, sz);
	if (!buf)
		goto bad;
	if (tep)
		tep_parse_header_page(tep, buf, sz, long_size);
	free(buf);
	q = rbytes(&r, 13);
	if (!q || memcmp(q, "header_event", 13))
		goto bad;
	sz = r64(&r);
	rbytes(&r, sz);
	td_formats(&r, tep, "ftrace", true);
	nsys = r32(&r);
	for (i = 0; i < nsys && !r.bad; i++) {
		char *sys = rcstr(&r);

		if (sys)
			td_formats(&r, tep, sys, false);
		free(sys);
	}
	if (r.bad)
		goto bad;
	sz = r32(&r);
	td_text(&r, sz, tep, parse_kallsyms);
	sz = r32(&r);
	td_text(&r, sz, tep, parse_printk);
	if (!r.bad && strcmp(ver, "0.6") >= 0 && r.end - r.p >= 8) {
		sz = r64(&r);
		td_text(&r, sz, tep, parse_cmdlines);
	}
	free(ver);
	return 0;
bad:
	free(ver);
	return (size_t)(r.p - p) ?: 1;
}

/*
 * The tracing data at @p: its shape checked and the events' names kept; the formats are
 * parsed into libtraceevent only when a reader of the stream wants them (pd_formats): a
 * consumer that reads no payloads (report) skips the ~50 us each costs.
 */
int pd_tracing_data(struct perf_file *f, const uint8_t *p, size_t size, uint64_t off)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	size_t bad;

	if (size < 10 || memcmp(p, magic, 10))
		return pd_bad(f, off, "bad tracing data magic");
	free(f->tp_names);
	f->tp_names = NULL;
	f->nr_tp_names = 0;
	bad = td_read(f, p, size, NULL);
	if (bad)
		return pd_bad(f, off + bad, "bad tracing data");
	if (f->tep)
		tep_free(f->tep);
	f->tep = NULL;
	free(f->tracing_data);
	f->tracing_data = malloc(size ?: 1);
	if (f->tracing_data)
		memcpy(f->tracing_data, p, size);
	f->tracing_data_size = f->tracing_data ? size : 0;
	f->hdr.tracing_data_size = size;
	f->hdr.features[0] |= 1ULL << PERF_FEAT_TRACING_DATA;
	return 0;
}

int pd_formats(struct perf_file *f)
{
	size_t i;

	if (f->tep || !f->tracing_data)
		return 0;
	f->tep = tep_alloc();
	if (!f->tep)
		return -ENOMEM;
	td_read(f, f->tracing_data, f->tracing_data_size, f->tep);
	for (i = 0; i < f->nr_evsels; i++) {
		struct pd_evsel *e = f->evsels[i];

		if (e->ev.attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		e->ev.tp = tep_find_event(f->tep, (int)e->ev.attr.config);
		if (f->info.evsels && i < f->info.nr_evsels)
			f->info.evsels[i].tp = e->ev.tp;
	}
	return 0;
}

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

struct tbuf {
	char *p;
	size_t len, alloc;
	int err;
};

static void put(struct tbuf *b, const void *p, size_t n)
{
	if (b->err || !n)	/* an empty part (no printk formats) may come as NULL */
		return;
	if (b->len + n > b->alloc) {
		size_t a = (b->len + n) * 2;
		char *q = realloc(b->p, a);

		if (!q) {
			b->err = -ENOMEM;
			return;
		}
		b->p = q;
		b->alloc = a;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static int put_file(struct tbuf *b, const char *path, int width)
{
	char *s = NULL;
	size_t n = 0;
	uint64_t v64;
	uint32_t v32;
	int ret = read_file_all(path, &s, &n);

	if (ret)
		return ret;
	v64 = n;
	v32 = n;
	put(b, width == 8 ? (void *)&v64 : (void *)&v32, width);
	put(b, s, n);
	free(s);
	return b->err;
}

static const char *tracefs(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/events/header_page", tracefs_dirs[i]);
		if (!access(p, R_OK))
			return tracefs_dirs[i];
	}
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int perf_tracing_data__generate(const char *const *tps, void **out, size_t *size,
				struct errbuf *err)
{
	static const char magic[] = "\027\010\104tracing";
	const char *dir = tracefs(), **v = NULL;
	struct tbuf b = { 0 };
	char path[512];
	size_t n = 0, i, j;
	uint32_t u32;
	uint64_t u64 = 0;
	uint8_t c;
	int ret = 0;

	if (!dir)
		return err__set(err, -ENOENT, "tracefs is not mounted at /sys/kernel/tracing");
	while (tps[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, tps, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_str);
	put(&b, magic, 10);
	put(&b, "0.6", 4);
	c = __BYTE_ORDER == __BIG_ENDIAN;
	put(&b, &c, 1);
	c = sizeof(long);
	put(&b, &c, 1);
	u32 = sysconf(_SC_PAGESIZE);
	put(&b, &u32, 4);
	put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	ret = put_file(&b, path, 8);
	put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	ret = ret ?: put_file(&b, path, 8);
	if (ret)
		ret = err__set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
	u32 = 0;			/* no ftrace formats */
	put(&b, &u32, 4);
	/* systems: the distinct "sys" of the sorted "sys:name" list */
	for (i = 0, u32 = 0; i < n; i++)
		if (!i || strcspn(v[i], ":") != strcspn(v[i - 1], ":") ||
		    strncmp(v[i], v[i - 1], strcspn(v[i], ":")))
			u32++;
	put(&b, &u32, 4);
	for (i = 0; i < n && !ret; i = j) {
		size_t sl = strcspn(v[i], ":");

		for (j = i; j < n && strcspn(v[j], ":") == sl && !strncmp(v[j], v[i], sl); j++)
			;
		put(&b, v[i], sl);
		put(&b, "", 1);
		u32 = j - i;
		put(&b, &u32, 4);
		for (; i < j && !ret; i++) {
			if (!v[i][sl]) {
				ret = err__set(err, -EINVAL, "'%s' is not a tracepoint", v[i]);
				break;
			}
			snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", dir, (int)sl, v[i],
				 v[i] + sl + 1);
			ret = put_file(&b, path, 8);
			if (ret)
				ret = err__set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
		}
		j = i;
	}
	u32 = 0;			/* kallsyms: left out, as perf does when it cannot read them */
	put(&b, &u32, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (!ret && put_file(&b, path, 4))
		put(&b, &u32, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	if (!ret && put_file(&b, path, 8))
		put(&b, &u64, 8);
	free(v);
	ret = ret ?: b.err;
	if (ret) {
		free(b.p);
		return ret;
	}
	*out = b.p;
	*size = b.len;
	return 0;
}
