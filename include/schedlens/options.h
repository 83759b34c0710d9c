/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Table-driven option parsing shared by every command, after perf's
 * tools/lib/subcmd/parse-options.h: a command describes its options once, in an array of
 * struct option ended by OPT_END(), and the same table parses argv and prints the help.
 *
 * Forms taken, as perf and getopt_long take them: -F 99, -F99, --freq 99, --freq=99, bundled
 * short flags (-ga, -gF99), a long name's unambiguous prefix (--fre), --no-NAME for OPT_BOOL,
 * "--" ends the options, a lone "-" is an argument. Arguments other than options are kept in
 * order wherever they stand, unless OPTIONS_STOP_AT_NON_OPTION (a command that runs COMMAND:
 * the first argument ends the options). Without an entry of its own for 'h' or "help", the
 * table answers -h and --help with OPTIONS_HELP.
 *
 * The library never prints: errors go into the errbuf, naming the option as it was typed and
 * what it wanted; options__usage() writes the help to the FILE the command gives it.
 */
#ifndef SCHEDLENS_OPTIONS_H
#define SCHEDLENS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "schedlens/util.h"

enum option_kind {
	OPTION_END,
	OPTION_TEXT,		/* a line of the help only (a heading, a note; "" a blank line) */
	OPTION_FLAG,		/* bool *value = set != 0; no value */
	OPTION_BOOL,		/* bool *value = true; --no-NAME: false */
	OPTION_INCR,		/* int *value += 1 (-d, -dd, -ddd) */
	OPTION_SET,		/* int *value = set */
	OPTION_INT,		/* long *value, in [min, max] */
	OPTION_UINT,		/* uint64_t *value, in [umin, umax] */
	OPTION_DOUBLE,		/* double *value, in [dmin, dmax] (OPTION_OPEN_*: ends refused) */
	OPTION_STRING,		/* const char **value = the argument (the last one given wins) */
	OPTION_STRINGS,		/* const char *value[max]: each one appended, *count of them */
	OPTION_CALLBACK,	/* callback(opt, argument or NULL with OPTION_NOARG, err) */
};

/* flags of an entry */
#define OPTION_NOARG	(1u << 0)	/* a callback that takes no value */
#define OPTION_STOP	(1u << 1)	/* the options end after this one (--bench NAME ARGS...) */
#define OPTION_HIDDEN	(1u << 2)	/* parsed, not in the help (an alias) */
#define OPTION_OPEN_MIN	(1u << 3)	/* OPTION_DOUBLE: dmin itself is refused */
#define OPTION_OPEN_MAX	(1u << 4)	/* OPTION_DOUBLE: dmax itself is refused */
#define OPTION_OPEN	(OPTION_OPEN_MIN | OPTION_OPEN_MAX)
#define OPTION_PERCENT	(1u << 5)	/* OPTION_DOUBLE: "3" or "3%" */

/* flags of options__parse() */
#define OPTIONS_STOP_AT_NON_OPTION (1u << 0)	/* the first argument ends the options */
#define OPTIONS_KEEP_UNKNOWN	   (1u << 1)	/* unknown options are arguments, not errors */
#define OPTIONS_EXACT		   (1u << 2)	/* long names whole, no prefixes */
#define OPTIONS_NO_ARGUMENTS	   (1u << 3)	/* an argument is a usage error */

/* what options__parse() returns after -h or --help (not an errno) */
#define OPTIONS_HELP (-4096)

struct option;
/* 0, or a negative errno with the reason in @err (the parser names the option before it) */
typedef int (*option_cb)(const struct option *opt, const char *arg, struct errbuf *err);

struct option {
	enum option_kind kind;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none */
	void *value;
	const char *argh;	/* the value's name in the help ("EVENTS"); NULL: takes none */
	const char *help;	/* may hold newlines */
	unsigned int flags;
	long min, max;		/* OPTION_INT; OPTION_STRINGS: max is the array's size */
	uint64_t umin, umax;	/* OPTION_UINT */
	double dmin, dmax;	/* OPTION_DOUBLE */
	long set;		/* OPTION_FLAG, OPTION_SET */
	size_t *count;		/* OPTION_STRINGS */
	option_cb callback;	/* OPTION_CALLBACK */
	void *data;		/* OPTION_CALLBACK: the command's */
};

/* @v must point to a T: a compile error otherwise */
#define OPT__PTR(T, v) ((void *)(1 ? (v) : (T *)0))

#define OPT_END() { .kind = OPTION_END }
#define OPT_TEXT(h) { .kind = OPTION_TEXT, .help = (h) }
#define OPT_FLAG(s, l, v, h) \
	{ .kind = OPTION_FLAG, .short_name = (s), .long_name = (l), .value = OPT__PTR(bool, v), \
	  .set = 1, .help = (h) }
#define OPT_FLAG_OFF(s, l, v, h) \
	{ .kind = OPTION_FLAG, .short_name = (s), .long_name = (l), .value = OPT__PTR(bool, v), \
	  .set = 0, .help = (h) }
#define OPT_BOOL(s, l, v, h) \
	{ .kind = OPTION_BOOL, .short_name = (s), .long_name = (l), .value = OPT__PTR(bool, v), \
	  .help = (h) }
#define OPT_INCR(s, l, v, h) \
	{ .kind = OPTION_INCR, .short_name = (s), .long_name = (l), .value = OPT__PTR(int, v), \
	  .help = (h) }
#define OPT_SET(s, l, v, val, h) \
	{ .kind = OPTION_SET, .short_name = (s), .long_name = (l), .value = OPT__PTR(int, v), \
	  .set = (val), .help = (h) }
#define OPT_INT(s, l, v, lo, hi, a, h) \
	{ .kind = OPTION_INT, .short_name = (s), .long_name = (l), .value = OPT__PTR(long, v), \
	  .min = (lo), .max = (hi), .argh = (a), .help = (h) }
#define OPT_UINT(s, l, v, lo, hi, a, h) \
	{ .kind = OPTION_UINT, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(uint64_t, v), .umin = (lo), .umax = (hi), .argh = (a), .help = (h) }
#define OPT_DOUBLE(s, l, v, lo, hi, a, h) \
	{ .kind = OPTION_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(double, v), .dmin = (lo), .dmax = (hi), .argh = (a), .help = (h) }
#define OPT_DOUBLE_OPEN(s, l, v, lo, hi, a, h) \
	{ .kind = OPTION_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(double, v), .dmin = (lo), .dmax = (hi), .flags = OPTION_OPEN, \
	  .argh = (a), .help = (h) }
/* a percentage, "%" or not, in [lo, hi] or as @f (OPTION_OPEN_*) says; DBL_MAX: no bound */
#define OPT_PERCENT(s, l, v, lo, hi, f, a, h) \
	{ .kind = OPTION_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(double, v), .dmin = (lo), .dmax = (hi), \
	  .flags = OPTION_PERCENT | (f), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .kind = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(const char *, v), .argh = (a), .help = (h) }
/* --bench NAME [ARGS...]: the value, then the options end */
#define OPT_STRING_STOP(s, l, v, a, h) \
	{ .kind = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(const char *, v), .flags = OPTION_STOP, .argh = (a), .help = (h) }
#define OPT_STRINGS(s, l, arr, n, cap, a, h) \
	{ .kind = OPTION_STRINGS, .short_name = (s), .long_name = (l), \
	  .value = OPT__PTR(const char *, arr), .count = (n), .max = (cap), .argh = (a), \
	  .help = (h) }
#define OPT_CALLBACK(s, l, d, cb, a, h) \
	{ .kind = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .data = (d), \
	  .callback = (cb), .argh = (a), .help = (h) }
#define OPT_CALLBACK_NOARG(s, l, d, cb, h) \
	{ .kind = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .data = (d), \
	  .callback = (cb), .flags = OPTION_NOARG, .help = (h) }

/*
 * Parse @argv[1..@argc) (argv[0] is the command's name) with @opts. Return the number of
 * arguments left, moved in their order to argv[1..n] with argv[n + 1] NULL (argv[0] is kept);
 * OPTIONS_HELP after -h or --help (where the table has no entry of its own for them); or a
 * negative errno with the message in @err: -EINVAL for a usage error (an unknown or ambiguous
 * option, a missing or refused value, an argument with OPTIONS_NO_ARGUMENTS), what a callback
 * returned otherwise.
 */
int options__parse(int argc, char **argv, const struct option *opts, unsigned int flags,
		   struct errbuf *err);

/*
 * The help of @opts to @f: the lines of @usage (NULL ended) as they are, a blank line, then a
 * line for each entry (or its OPT_TEXT) in the table's order, -h, --help after the last option
 * where the parser answers them. Return 0, or -EIO when @f failed.
 */
int options__usage(FILE *f, const char *const *usage, const struct option *opts);

#endif
