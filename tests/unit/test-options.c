// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/options.h"

struct cfg {
	bool all, json, children, cache;
	int detail, group;
	long repeat;
	uint64_t freq;
	double pct, alpha, effect, gain;
	const char *input, *bench, *metrics[2];
	size_t nmetrics;
	int calls;
	char seen[64];
	char line[256];
};

static int cb_mode(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct cfg *c = opt->data;

	c->calls++;
	if (strcmp(arg, "fp") && strcmp(arg, "dwarf"))
		return err__set(err, -EINVAL, "not fp or dwarf");
	snprintf(c->seen, sizeof(c->seen), "%s", arg);
	return 0;
}

static int cb_noarg(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct cfg *c = opt->data;

	ck_assert_ptr_null(arg);
	c->calls++;
	return 0;
}

static int cb_enomem(const struct option *opt, const char *arg, struct errbuf *err)
{
	return -ENOMEM;
}

/* a table like a command's, filled into @c */
#define TABLE(c)                                                                           \
	{                                                                                  \
		OPT_TEXT("options:"),                                                      \
		OPT_FLAG('a', "all-cpus", &(c)->all, "system-wide"),                        \
		OPT_FLAG(0, "json", &(c)->json, "a results document"),                     \
		OPT_BOOL(0, "children", &(c)->children, "callchain shares"),               \
		OPT_FLAG_OFF(0, "no-cache", &(c)->cache, "no lookup cache"),               \
		OPT_INCR('d', "detailed", &(c)->detail, "more events"),                    \
		OPT_SET(0, "group", &(c)->group, 1, "side by side"),                       \
		OPT_SET(0, "no-group", &(c)->group, 2, "a table per event"),               \
		OPT_INT('r', "repeat", &(c)->repeat, 1, 100, "N", "run N times"),          \
		OPT_UINT('F', "freq", &(c)->freq, 1, UINT64_MAX, "FREQ", "sample at FREQ Hz"), \
		OPT_DOUBLE(0, "percent-limit", &(c)->pct, 0, 100, "P", "hide entries\nbelow P%"), \
		OPT_DOUBLE_OPEN(0, "alpha", &(c)->alpha, 0, 1, "A", "significance"),       \
		OPT_PERCENT(0, "min-effect", &(c)->effect, 0, 10, OPTION_OPEN_MAX, "P", NULL), \
		OPT_PERCENT(0, "gain", &(c)->gain, 0, DBL_MAX, 0, "P", NULL),              \
		OPT_STRING('i', "input", &(c)->input, "FILE", "perf.data file"),           \
		OPT_STRINGS('m', "metric", (c)->metrics, &(c)->nmetrics, 2, "NAME", "repeat"), \
		OPT_CALLBACK('G', "call-graph", (c), cb_mode, "M", "fp or dwarf"),         \
		OPT_CALLBACK_NOARG('S', "sched", (c), cb_noarg, "the sched tracepoints"),  \
		OPT_CALLBACK(0, "oom", (c), cb_enomem, "X", NULL),                         \
		OPT_STRING_STOP(0, "bench", &(c)->bench, "NAME", "a built-in workload"),   \
		{ .kind = OPTION_FLAG, .long_name = "json-only", .value = &(c)->json,      \
		  .set = 1, .flags = OPTION_HIDDEN },                                      \
		OPT_TEXT("a note"),                                                        \
		OPT_END(),                                                                 \
	}

/* parse the words of @line (space separated, at most 31) with flags @fl */
static int parse(struct cfg *c, unsigned int fl, struct errbuf *err, char *line, char ***left)
{
	static char *argv[32];
	const struct option opts[] = TABLE(c);
	int argc = 0;
	char *save, *w;

	argv[argc++] = "cmd";
	for (w = strtok_r(line, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	*left = argv;
	return options__parse(argc, argv, opts, fl, err);
}

/* @s parsed into a cleared @c, whose line holds the words the results point into */
#define PARSE(c, fl, err, s, left)                                      \
	({                                                              \
		memset((c), 0, sizeof(*(c)));                           \
		snprintf((c)->line, sizeof((c)->line), "%s", s);        \
		parse((c), (fl), (err), (c)->line, (left));             \
	})

START_TEST(test_forms)
{
	struct errbuf err;
	struct cfg c;
	char **left;

	/* -F 99, -F99, --freq 99, --freq=99, a prefix */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-F 99", &left), 0);
	ck_assert(c.freq == 99);
	ck_assert_int_eq(PARSE(&c, 0, &err, "-F98", &left), 0);
	ck_assert(c.freq == 98);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--freq 97", &left), 0);
	ck_assert(c.freq == 97);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--freq=96", &left), 0);
	ck_assert(c.freq == 96);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--fr=95", &left), 0);
	ck_assert(c.freq == 95);
	/* bundles: flags, then one that takes the rest as its value */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-ddaF7", &left), 0);
	ck_assert_int_eq(c.detail, 2);
	ck_assert(c.all);
	ck_assert(c.freq == 7);
	ck_assert_int_eq(PARSE(&c, 0, &err, "-ai x.data", &left), 0);
	ck_assert_str_eq(c.input, "x.data");
	/* a value that looks like an option is a value */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-i -a", &left), 0);
	ck_assert_str_eq(c.input, "-a");
	ck_assert(!c.all);
	/* the last one wins; repeated ones add up */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-i a -i b -m x --metric=y", &left), 0);
	ck_assert_str_eq(c.input, "b");
	ck_assert_int_eq((int)c.nmetrics, 2);
	ck_assert_str_eq(c.metrics[0], "x");
	ck_assert_str_eq(c.metrics[1], "y");
}
END_TEST

START_TEST(test_kinds)
{
	struct errbuf err;
	struct cfg c;
	char **left;

	ck_assert_int_eq(PARSE(&c, 0, &err, "--children", &left), 0);
	ck_assert(c.children);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--children --no-children", &left), 0);
	ck_assert(!c.children);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--children --no-ch", &left), 0);
	ck_assert(!c.children);
	c.cache = true;
	ck_assert_int_eq(parse(&c, 0, &err, (char[]){ "--no-cache" }, &left), 0);
	ck_assert(!c.cache);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--group --no-group", &left), 0);
	ck_assert_int_eq(c.group, 2);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--percent-limit 2.5 --alpha=0.01", &left), 0);
	ck_assert(c.pct == 2.5 && c.alpha == 0.01);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--percent-limit 100", &left), 0);
	ck_assert(c.pct == 100);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--min-effect 3% --gain=2.5", &left), 0);
	ck_assert(c.effect == 3 && c.gain == 2.5);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--min-effect 0 --gain 1e6%", &left), 0);
	ck_assert(c.effect == 0 && c.gain == 1e6);
	ck_assert_int_eq(PARSE(&c, OPTIONS_NO_ARGUMENTS, &err, "-a", &left), 0);
	ck_assert_int_eq(PARSE(&c, 0, &err, "-G dwarf --call-graph=fp -S --sched", &left), 0);
	ck_assert_str_eq(c.seen, "fp");
	ck_assert_int_eq(c.calls, 4);
	/* an alias of the same variable is not ambiguous with it */
	ck_assert_int_eq(PARSE(&c, 0, &err, "--json-o", &left), 0);
	ck_assert(c.json);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--js", &left), 0);
	ck_assert(c.json);
}
END_TEST

START_TEST(test_arguments)
{
	struct errbuf err;
	struct cfg c;
	char **left;

	/* without STOP_AT_NON_OPTION the arguments are kept in order wherever they stand */
	ck_assert_int_eq(PARSE(&c, 0, &err, "base.json -a new.json -r 3 - -- -x", &left), 4);
	ck_assert_str_eq(left[0], "cmd");
	ck_assert_str_eq(left[1], "base.json");
	ck_assert_str_eq(left[2], "new.json");
	ck_assert_str_eq(left[3], "-");
	ck_assert_str_eq(left[4], "-x");
	ck_assert_ptr_null(left[5]);
	ck_assert(c.all && c.repeat == 3);
	/* a COMMAND ends the options */
	ck_assert_int_eq(PARSE(&c, OPTIONS_STOP_AT_NON_OPTION, &err, "-a ls -a -l", &left), 3);
	ck_assert_str_eq(left[1], "ls");
	ck_assert_str_eq(left[2], "-a");
	ck_assert_str_eq(left[3], "-l");
	ck_assert_int_eq(PARSE(&c, OPTIONS_STOP_AT_NON_OPTION, &err, "-- -a", &left), 1);
	ck_assert_str_eq(left[1], "-a");
	ck_assert(!c.all);
	/* --bench NAME: what follows is the workload's */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-a --bench pipe -r 5 -- x", &left), 4);
	ck_assert_str_eq(c.bench, "pipe");
	ck_assert_int_eq((int)c.repeat, 0);
	ck_assert_str_eq(left[1], "-r");
	ck_assert_str_eq(left[3], "--");
	/* unknown options kept as arguments, names whole */
	ck_assert_int_eq(PARSE(&c, OPTIONS_KEEP_UNKNOWN | OPTIONS_EXACT, &err,
			       "pipe -n 5 --loops=3 -r 2 --rep 1 -an -ar9", &left), 7);
	ck_assert_str_eq(left[1], "pipe");
	ck_assert_str_eq(left[2], "-n");
	ck_assert_str_eq(left[4], "--loops=3");
	ck_assert_str_eq(left[5], "--rep");
	ck_assert_str_eq(left[7], "-an");
	ck_assert_int_eq((int)c.repeat, 9);
	ck_assert(c.all);
	/* help */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-a -h", &left), OPTIONS_HELP);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--help", &left), OPTIONS_HELP);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--he", &left), OPTIONS_HELP);
}
END_TEST

START_TEST(test_errors)
{
	struct errbuf err;
	struct cfg c;
	char **left;

	ck_assert_int_eq(PARSE(&c, 0, &err, "--frob", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "unknown option '--frob'");
	ck_assert_int_eq(PARSE(&c, 0, &err, "-z", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "unknown option '-z'");
	ck_assert_int_eq(PARSE(&c, 0, &err, "-az", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "unknown option '-z' (in '-az')");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--no-json", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "unknown option '--no-json'");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--a", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "option '--a' is ambiguous: --all-cpus, --alpha");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--no-c", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "option '--no-c' is ambiguous: --no-children, --no-cache");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--no-", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "option '--no-' is ambiguous: --no-cache, --no-group");
	ck_assert_int_eq(PARSE(&c, 0, &err, "-r", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "option '-r' needs a value (N)");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--input", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "option '--input' needs a value (FILE)");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--json=1", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "option '--json' takes no value");
	/* numbers: the whole string, in range, as the option was typed */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-r 0", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "-r '0': expected an integer from 1 to 100");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--rep=3x", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "--repeat '3x': expected an integer from 1 to 100");
	ck_assert_int_eq(PARSE(&c, 0, &err, "-r 99999999999999999999", &left), -EINVAL);
	ck_assert_int_eq(PARSE(&c, 0, &err, "-F -1", &left), -EINVAL);
	ck_assert_int_eq(PARSE(&c, 0, &err, "-F 0", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "-F '0': expected an integer of at least 1");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--percent-limit 100.5", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "--percent-limit '100.5': expected a number in [0, 100]");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--percent-limit nan", &left), -EINVAL);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--alpha 1", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "--alpha '1': expected a number in (0, 1)");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--alpha 0", &left), -EINVAL);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--min-effect 10", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "--min-effect '10': expected a percentage in [0, 10)");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--min-effect 3x%", &left), -EINVAL);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--min-effect %", &left), -EINVAL);
	ck_assert_int_eq(PARSE(&c, 0, &err, "--gain -1", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "--gain '-1': expected a percentage of at least 0");
	ck_assert_int_eq(PARSE(&c, OPTIONS_NO_ARGUMENTS, &err, "-a x", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "unexpected argument 'x'");
	ck_assert_int_eq(PARSE(&c, 0, &err, "-m a -m b -m c", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "-m 'c': at most 2 are taken");
	/* a callback's message, after the option and its value */
	ck_assert_int_eq(PARSE(&c, 0, &err, "-G lbr", &left), -EINVAL);
	ck_assert_str_eq(err.msg, "-G 'lbr': not fp or dwarf");
	ck_assert_int_eq(PARSE(&c, 0, &err, "--oom x", &left), -ENOMEM);
	ck_assert_str_eq(err.msg, "--oom 'x': Cannot allocate memory");
	/* a NULL errbuf is allowed */
	ck_assert_int_eq(PARSE(&c, 0, NULL, "-z", &left), -EINVAL);
}
END_TEST

START_TEST(test_usage)
{
	static const char *const usage[] = { "usage: cmd [OPTIONS]", "       cmd -h", NULL };
	struct cfg c;
	const struct option opts[] = TABLE(&c);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(options__usage(f, usage, opts), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "usage: cmd [OPTIONS]\n       cmd -h\n\noptions:\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  -a, --all-cpus        system-wide\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n      --json            a results document\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n      --[no-]children   callchain shares\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  -r, --repeat N        run N times\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n      --percent-limit P  hide entries\n"
					   "                        below P%\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n      --oom X\n"));
	ck_assert_ptr_null(strstr(text, "json-only"));
	/* the parser's own -h after the last option, before the notes that end the help */
	ck_assert_ptr_nonnull(strstr(text, "a built-in workload\n"
					   "  -h, --help            this text\na note\n"));
	ck_assert_int_eq(text[len - 1], '\n');
	free(text);
}
END_TEST

/* a table with its own -h: no built-in help, -h is the table's */
START_TEST(test_own_help)
{
	bool help = false;
	char *argv[] = { "cmd", "--help", NULL };
	const struct option opts[] = { OPT_FLAG('h', "help", &help, "the workload's usage"),
				       OPT_END() };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(options__parse(2, argv, opts, 0, NULL), 0);
	ck_assert(help);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(options__usage(f, NULL, opts), 0);
	fclose(f);
	ck_assert_str_eq(text, "\n  -h, --help            the workload's usage\n");
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_forms);
	tcase_add_test(tc, test_kinds);
	tcase_add_test(tc, test_arguments);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_usage);
	tcase_add_test(tc, test_own_help);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
