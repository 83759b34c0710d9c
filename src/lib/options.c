// SPDX-License-Identifier: GPL-2.0
/* Table-driven option parsing and the help printed from the same table (options.h). */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schedlens/options.h"

#define HELP_COLUMN 24	/* where an option's help starts */
#define NO_PREFIX "no-"

/* -h, --help where the table has none of its own */
static const struct option help_option = { .kind = OPTION_CALLBACK, .short_name = 'h',
					   .long_name = "help", .flags = OPTION_NOARG,
					   .help = "this text" };

struct parse {
	int argc, i;
	char **argv;
	const struct option *opts;
	unsigned int flags;
	bool own_help;
	struct errbuf *err;
};

/* a match of a long name: the entry and whether it was its --no- form */
struct match {
	const struct option *opt;
	bool negated;
};

static bool takes_value(const struct option *o)
{
	switch (o->kind) {
	case OPTION_INT:
	case OPTION_UINT:
	case OPTION_DOUBLE:
	case OPTION_STRING:
	case OPTION_STRINGS:
		return true;
	case OPTION_CALLBACK:
		return !(o->flags & OPTION_NOARG);
	default:
		return false;
	}
}

static bool is_option(const struct option *o)
{
	return o->kind != OPTION_TEXT && (o->short_name || o->long_name);
}

static bool has_own_help(const struct option *opts)
{
	for (; opts->kind != OPTION_END; opts++)
		if (is_option(opts) && (opts->short_name == 'h' ||
					(opts->long_name && !strcmp(opts->long_name, "help"))))
			return true;
	return false;
}

/* the entries to search: the table, then help_option where the table has no help */
static const struct option *next_entry(const struct parse *p, const struct option *o)
{
	if (o == &help_option)
		return NULL;
	o = o ? o + 1 : p->opts;
	while (o->kind != OPTION_END && !is_option(o))
		o++;
	if (o->kind != OPTION_END)
		return o;
	return p->own_help ? NULL : &help_option;
}

/* two entries one option for the user (aliases: --header, --header-only) */
static bool same_option(const struct match *a, const struct match *b)
{
	return a->opt == b->opt ||
	       (a->negated == b->negated && a->opt->kind == b->opt->kind &&
		a->opt->value == b->opt->value && a->opt->set == b->opt->set &&
		a->opt->callback == b->opt->callback && a->opt->data == b->opt->data);
}

/* whether @typed (@len characters) is "no-" and the start of OPT_BOOL @o's long name */
static bool negated_prefix(const struct option *o, const char *typed, size_t len)
{
	return o->kind == OPTION_BOOL && o->long_name && len > 3 &&
	       !strncmp(typed, NO_PREFIX, 3) && !strncmp(o->long_name, typed + 3, len - 3);
}

static int ambiguous(const struct parse *p, const char *typed, size_t len)
{
	char names[512] = "";
	size_t used = 0;
	const struct option *o;

	for (o = next_entry(p, NULL); o; o = next_entry(p, o)) {
		bool neg = negated_prefix(o, typed, len);

		if (!o->long_name || (strncmp(o->long_name, typed, len) && !neg) ||
		    used >= sizeof(names))
			continue;
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s--%s%s",
					 used ? ", " : "", neg ? NO_PREFIX : "", o->long_name);
	}
	return err__set(p->err, -EINVAL, "option '--%.*s' is ambiguous: %s", (int)len, typed,
			names);
}

/*
 * The entry that @typed (the name after "--", @len characters) names: whole, else as the
 * prefix of one option only. 0, -ENOENT when none, or -EINVAL when ambiguous.
 */
static int find_long(const struct parse *p, const char *typed, size_t len, struct match *m)
{
	const struct option *o;
	struct match prefix = { NULL, false };
	bool several = false;

	for (o = next_entry(p, NULL); o; o = next_entry(p, o)) {
		struct match cand = { o, negated_prefix(o, typed, len) };

		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == len && !strncmp(o->long_name, typed, len)) {
			*m = (struct match){ o, false };
			return 0;
		}
		if (cand.negated && strlen(o->long_name) == len - 3) {
			*m = cand;
			return 0;
		}
		if ((p->flags & OPTIONS_EXACT) ||
		    (!cand.negated && strncmp(o->long_name, typed, len)))
			continue;
		if (prefix.opt && !same_option(&prefix, &cand))
			several = true;
		else if (!prefix.opt)
			prefix = cand;
	}
	if (several)
		return ambiguous(p, typed, len);
	if (!prefix.opt)
		return -ENOENT;
	*m = prefix;
	return 0;
}

static const struct option *find_short(const struct parse *p, int c)
{
	const struct option *o;

	for (o = next_entry(p, NULL); o; o = next_entry(p, o))
		if (o->short_name == c)
			return o;
	return NULL;
}

static int bad_value(const struct parse *p, const char *name, const char *arg, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

/* "NAME 'ARG': expected ..." */
static int bad_value(const struct parse *p, const char *name, const char *arg, const char *fmt,
		     ...)
{
	char want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	return err__set(p->err, -EINVAL, "%s '%s': expected %s", name, arg, want);
}

/* OPTION_DOUBLE: 0, or -EINVAL when @arg is no number in the entry's range */
static int parse_in_range(const struct option *o, const char *arg, double *d)
{
	char buf[64];
	size_t len = strlen(arg);

	if ((o->flags & OPTION_PERCENT) && len && arg[len - 1] == '%') {
		if (len >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, arg, len - 1);
		buf[len - 1] = '\0';
		arg = buf;
	}
	if (parse_double(arg, d) || *d < o->dmin || *d > o->dmax ||
	    ((o->flags & OPTION_OPEN_MIN) && *d == o->dmin) ||
	    ((o->flags & OPTION_OPEN_MAX) && *d == o->dmax))
		return -EINVAL;
	return 0;
}

/* "expected a number in [0, 100]", "a percentage in [0, 1000)", "a number of at least 0" */
static int bad_double(const struct parse *p, const struct option *o, const char *name,
		      const char *arg)
{
	const char *what = o->flags & OPTION_PERCENT ? "a percentage" : "a number";

	if (o->dmax == DBL_MAX)
		return bad_value(p, name, arg, "%s of %s %g", what,
				 o->flags & OPTION_OPEN_MIN ? "more than" : "at least", o->dmin);
	return bad_value(p, name, arg, "%s in %c%g, %g%c", what,
			 o->flags & OPTION_OPEN_MIN ? '(' : '[', o->dmin, o->dmax,
			 o->flags & OPTION_OPEN_MAX ? ')' : ']');
}

static int set_number(const struct parse *p, const struct option *o, const char *name,
		      const char *arg)
{
	uint64_t u;
	double d;
	long l;

	switch (o->kind) {
	case OPTION_INT:
		if (parse_long(arg, o->min, o->max, &l) && o->max == LONG_MAX)
			return bad_value(p, name, arg, "an integer of at least %ld", o->min);
		if (parse_long(arg, o->min, o->max, &l))
			return bad_value(p, name, arg, "an integer from %ld to %ld", o->min,
					 o->max);
		*(long *)o->value = l;
		return 0;
	case OPTION_UINT:
		if ((parse_u64(arg, &u) || u < o->umin) && o->umax == UINT64_MAX)
			return bad_value(p, name, arg, "an integer of at least %llu",
					 (unsigned long long)o->umin);
		if (parse_u64(arg, &u) || u < o->umin || u > o->umax)
			return bad_value(p, name, arg, "an integer from %llu to %llu",
					 (unsigned long long)o->umin,
					 (unsigned long long)o->umax);
		*(uint64_t *)o->value = u;
		return 0;
	default:
		if (parse_in_range(o, arg, &d))
			return bad_double(p, o, name, arg);
		*(double *)o->value = d;
		return 0;
	}
}

static int apply_one(const struct parse *p, const struct match *m, const char *name,
		     const char *arg)
{
	const struct option *o = m->opt;
	int ret;

	if (o == &help_option)
		return OPTIONS_HELP;
	switch (o->kind) {
	case OPTION_FLAG:
		*(bool *)o->value = o->set != 0;
		return 0;
	case OPTION_BOOL:
		*(bool *)o->value = !m->negated;
		return 0;
	case OPTION_INCR:
		(*(int *)o->value)++;
		return 0;
	case OPTION_SET:
		*(int *)o->value = (int)o->set;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_STRINGS:
		if (*o->count >= (size_t)o->max)
			return err__set(p->err, -EINVAL, "%s '%s': at most %ld are taken", name,
					arg, o->max);
		((const char **)o->value)[(*o->count)++] = arg;
		return 0;
	case OPTION_CALLBACK:
		p->err->msg[0] = '\0';
		ret = o->callback(o, arg, p->err);
		if (ret >= 0)
			return 0;
		if (!p->err->msg[0])
			return err__set(p->err, ret, "%s%s%s%s: %s", name, arg ? " '" : "",
					arg ?: "", arg ? "'" : "", strerror(-ret));
		return arg ? err__prefix(p->err, ret, "%s '%s'", name, arg) :
			     err__prefix(p->err, ret, "%s", name);
	default:
		return set_number(p, o, name, arg);
	}
}

/*
 * Apply @m, named @name as typed, with @arg (NULL for an option without a value): 0, 1 when
 * the options end after it, OPTIONS_HELP, or a negative errno.
 */
static int apply(const struct parse *p, const struct match *m, const char *name, const char *arg)
{
	int ret = apply_one(p, m, name, arg);

	return !ret && (m->opt->flags & OPTION_STOP) ? 1 : ret;
}

/* The value of an option that takes one: @attached, else the next argument. */
static int value_of(struct parse *p, const char *name, const char *attached, const char **arg)
{
	if (attached) {
		*arg = attached;
		return 0;
	}
	if (p->i + 1 >= p->argc)
		return -ENOENT;
	*arg = p->argv[++p->i];
	return 0;
}

/* --NAME, --NAME=VALUE: as apply(), or -ENOENT when unknown */
static int parse_long_opt(struct parse *p, const char *a)
{
	const char *eq = strchr(a + 2, '='), *arg = NULL;
	size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	char name[128];
	struct match m = { NULL, false };
	int ret;

	ret = find_long(p, a + 2, len, &m);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "--%s%s", m.negated ? NO_PREFIX : "", m.opt->long_name);
	if (!takes_value(m.opt)) {
		if (eq)
			return err__set(p->err, -EINVAL, "option '%s' takes no value", name);
		return apply(p, &m, name, NULL);
	}
	if (value_of(p, name, eq ? eq + 1 : NULL, &arg))
		return err__set(p->err, -EINVAL, "option '%s' needs a value (%s)", name,
				m.opt->argh ?: "an argument");
	return apply(p, &m, name, arg);
}

/* whether every letter of the bundle @a, up to one that takes the rest as its value, is known */
static bool known_bundle(const struct parse *p, const char *a)
{
	const struct option *o;

	for (a++; *a; a++) {
		o = find_short(p, (unsigned char)*a);
		if (!o)
			return false;
		if (takes_value(o))
			break;
	}
	return true;
}

/*
 * -abc, -F99, -F 99: as apply(), or -ENOENT when the first letter is unknown (with
 * OPTIONS_KEEP_UNKNOWN: any letter, so that a bundle is the table's or not at all)
 */
static int parse_short_opts(struct parse *p, const char *a)
{
	const char *c;

	if ((p->flags & OPTIONS_KEEP_UNKNOWN) && !known_bundle(p, a))
		return -ENOENT;
	for (c = a + 1; *c; c++) {
		struct match m = { find_short(p, (unsigned char)*c), false };
		char name[3] = { '-', *c, '\0' };
		const char *arg;
		int ret;

		if (!m.opt && c == a + 1)
			return -ENOENT;
		if (!m.opt)
			return err__set(p->err, -EINVAL, "unknown option '-%c' (in '%s')", *c, a);
		if (!takes_value(m.opt)) {
			ret = apply(p, &m, name, NULL);
			if (ret)
				return ret;
			continue;
		}
		if (value_of(p, name, c[1] ? c + 1 : NULL, &arg))
			return err__set(p->err, -EINVAL, "option '%s' needs a value (%s)", name,
					m.opt->argh ?: "an argument");
		return apply(p, &m, name, arg);
	}
	return 0;
}

int options__parse(int argc, char **argv, const struct option *opts, unsigned int flags,
		   struct errbuf *err)
{
	struct errbuf scratch;
	struct parse p = { .argc = argc, .argv = argv, .opts = opts, .flags = flags,
			   .own_help = has_own_help(opts), .err = err ?: &scratch };
	int out = 1, ret = 0;

	p.err->msg[0] = '\0';
	for (p.i = 1; p.i < argc; p.i++) {
		const char *a = argv[p.i];

		if (a[0] != '-' || !a[1]) {
			if (flags & OPTIONS_STOP_AT_NON_OPTION)
				break;
			argv[out++] = argv[p.i];
			continue;
		}
		if (!strcmp(a, "--")) {
			p.i++;
			break;
		}
		ret = a[1] == '-' ? parse_long_opt(&p, a) : parse_short_opts(&p, a);
		if (ret == -ENOENT && (flags & OPTIONS_KEEP_UNKNOWN)) {
			argv[out++] = argv[p.i];
			ret = 0;
			continue;
		}
		if (ret == -ENOENT)
			ret = err__set(p.err, -EINVAL, "unknown option '%s'", a);
		if (ret == 1) {
			p.i++;
			break;
		}
		if (ret)
			return ret;
	}
	while (p.i < argc)
		argv[out++] = argv[p.i++];
	argv[out] = NULL;
	if (out > 1 && (flags & OPTIONS_NO_ARGUMENTS))
		return err__set(p.err, -EINVAL, "unexpected argument '%s'", argv[1]);
	return out - 1;
}

/* the left column of an entry: "  -e, --event EVENTS" */
static int left_column(const struct option *o, char *buf, size_t len)
{
	int n = snprintf(buf, len, "  %c%c%s", o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ',
			 o->short_name && o->long_name ? ", " : "  ");

	if (o->long_name)
		n += snprintf(buf + n, len - (size_t)n, "--%s%s",
			      o->kind == OPTION_BOOL ? "[no-]" : "", o->long_name);
	if (takes_value(o))
		n += snprintf(buf + n, len - (size_t)n, " %s", o->argh ?: "ARG");
	return n;
}

static void print_entry(FILE *f, const struct option *o)
{
	const char *h = o->help ?: "", *nl;
	char left[160];
	int n = left_column(o, left, sizeof(left));

	fputs(left, f);
	if (!*h) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "%*s", n + 2 <= HELP_COLUMN ? HELP_COLUMN - n : 2, "");
	for (; (nl = strchr(h, '\n')); h = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - h), h, HELP_COLUMN, "");
	fprintf(f, "%s\n", h);
}

int options__usage(FILE *f, const char *const *usage, const struct option *opts)
{
	const struct option *o, *last = NULL;

	for (o = opts; o->kind != OPTION_END; o++)
		if (o->kind != OPTION_TEXT)
			last = o;
	for (; usage && *usage; usage++)
		fprintf(f, "%s\n", *usage);
	fputc('\n', f);
	if (!last && !has_own_help(opts))
		print_entry(f, &help_option);
	for (o = opts; o->kind != OPTION_END; o++) {
		if (o->kind == OPTION_TEXT)
			fprintf(f, "%s\n", o->help ?: "");
		else if (!(o->flags & OPTION_HIDDEN))
			print_entry(f, o);
		/* the parser's own -h, after the options, before the notes that end the help */
		if (o == last && !has_own_help(opts))
			print_entry(f, &help_option);
	}
	return ferror(f) ? -EIO : 0;
}
