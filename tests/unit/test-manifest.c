// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/manifest.h"

/* The tests run from the top of the tree (tests/run.sh); SCHEDLENS_TOP says where if set. */
static const char *top(void)
{
	return getenv("SCHEDLENS_TOP") ?: ".";
}

static struct manifest *read_series(const char *name)
{
	struct errbuf err = { "" };
	struct manifest *m;
	char path[4096];

	snprintf(path, sizeof(path), "%s/kernel-patches/%s", top(), name);
	m = manifest__read(path, NULL, &err);
	ck_assert_msg(m, "%s: %s", path, err.msg);
	return m;
}

START_TEST(test_wakelist)
{
	struct manifest *m = read_series("wakelist-idle-cpu");
	char buf[64];
	size_t i, guards = 0;

	ck_assert_str_eq(m->name, "wakelist-idle-cpu");
	ck_assert_str_eq(m->suite, "wakelist");
	ck_assert(m->in_61);
	ck_assert_str_eq(m->base, "linux-source-6.1+revert");
	ck_assert_str_eq(m->revert, "revert-6.1.patch");
	ck_assert_uint_eq(m->nr_patches, 2);
	ck_assert_str_eq(m->subjects[0], "sched: Fix the check of nr_running at queue wakelist");
	ck_assert_str_eq(m->commits[1], "f3dd3f674555bd9455c5ae7fafce0696bd9931b3");
	ck_assert_str_eq(manifest__short_commit(m, 0, buf, sizeof(buf)), "28156108fecb");
	ck_assert(!strncmp(m->patches[1], "0002-", 5));
	for (i = 0; i < m->nr_metrics; i++)
		guards += m->metrics[i].guard;
	ck_assert_uint_eq(m->nr_metrics, 6);
	ck_assert_uint_eq(guards, 2);
	ck_assert_str_eq(m->metrics[1].glob, "schbench*");
	ck_assert_str_eq(m->metrics[1].metric, "wakeup_p99");
	ck_assert(m->metrics[1].pct == 30);
	ck_assert_uint_eq(m->nr_focus, 3);
	ck_assert_str_eq(m->focus[0], "ttwu_queue_wakelist");
	ck_assert_str_eq(m->focus[1], "try_to_wake_up");
	ck_assert_uint_eq(m->nr_mechanisms, 1);
	ck_assert_str_eq(m->mechanisms[0].scope, "idle-llc");
	ck_assert_str_eq(m->mechanisms[0].paths, "wakelist-*");
	ck_assert(m->mechanisms[0].points == 50);
	ck_assert_ptr_nonnull(m->lab);
	manifest__delete(m);
}
END_TEST

START_TEST(test_all_series)
{
	static const char *const names[] = { "prefetch-curr-exec-start", "wakelist-idle-cpu",
					     "wakee-flips-heavy-wakers", "idle-cpumask" };
	static const char *const suites[] = { "prefetch", "wakelist", "wakee-flips", "idle-cpumask" };
	char buf[64];
	size_t i, j;

	for (i = 0; i < 4; i++) {
		struct manifest *m = read_series(names[i]);

		ck_assert_str_eq(m->name, names[i]);
		ck_assert_str_eq(m->suite, suites[i]);
		ck_assert(m->nr_focus >= 2);
		/* the two never-merged series: forward patches on plain 6.1, no commit */
		ck_assert_int_eq(m->in_61, i < 2);
		ck_assert_int_eq(!m->revert, i >= 2);
		for (j = 0; j < m->nr_patches; j++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s", m->dir, m->patches[j]);
			ck_assert_msg(!access(path, R_OK), "%s is missing", path);
			manifest__short_commit(m, j, buf, sizeof(buf));
			ck_assert(i < 2 ? strlen(buf) == 12 : !strcmp(buf, "none"));
		}
		manifest__delete(m);
	}
}
END_TEST

START_TEST(test_prefetch_file_path)
{
	struct errbuf err = { "" };
	struct manifest *m;
	char path[4096];

	snprintf(path, sizeof(path), "%s/kernel-patches/prefetch-curr-exec-start/manifest", top());
	m = manifest__read(path, NULL, &err);
	ck_assert_msg(m, "%s", err.msg);
	ck_assert(!strcmp(m->path, path));
	ck_assert(strstr(m->dir, "prefetch-curr-exec-start"));
	ck_assert_str_eq(m->commits[0], "6075620b0590eaf22f10ce88833eb20a57f760d6");
	manifest__delete(m);
}
END_TEST

#define GOOD_HEAD                                                                      \
	"# comment\n"                                                                  \
	"name = t\n"                                                                   \
	"suite = s\n"                                                                  \
	"  subject =  one: two = three  \n"                                            \
	"commit = unknown\n"                                                           \
	"patch = 0001-x.patch\n"

/* Parse @text as a manifest; return the error code (0 on success) and the message in @err. */
static int parse_text(const char *text, struct errbuf *err, struct manifest **out)
{
	char path[] = "/tmp/test-manifest-XXXXXX";
	struct manifest *m;
	int fd = mkstemp(path), ret = 0;
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	m = manifest__read(path, &ret, err);
	unlink(path);
	if (out)
		*out = m;
	else
		manifest__delete(m);
	return m ? 0 : ret;
}

START_TEST(test_minimal_forward)
{
	struct errbuf err = { "" };
	struct manifest *m;

	ck_assert_int_eq(parse_text(GOOD_HEAD "in-6.1 = no\nbase = linux-source-6.1\n"
						"improve = a* m ? higher\nguard = * x 0%\n",
				    &err, &m),
			 0);
	ck_assert_str_eq(m->subjects[0], "one: two = three");
	ck_assert(isnan(m->metrics[0].pct));
	ck_assert(!m->metrics[0].guard);
	ck_assert_int_eq(m->metrics[0].better, BETTER_HIGHER);
	ck_assert_int_eq(m->metrics[1].better, BETTER_NONE);
	ck_assert(m->metrics[1].guard);
	ck_assert(m->metrics[1].pct == 0);
	ck_assert_int_eq(m->metrics[1].line, 10);
	ck_assert(!m->revert);
	manifest__delete(m);
}
END_TEST

struct bad_case {
	const char *text;
	const char *msg;	/* a part of the expected message */
};

START_TEST(test_mechanism)
{
	struct errbuf err = { "" };
	struct manifest *m;

	ck_assert_int_eq(parse_text(GOOD_HEAD "in-6.1 = no\nbase = linux-source-6.1\n"
						"improve = a* m 1%\n"
						"mechanism = sched* idle-llc wakelist-* +50pt\n"
						"mechanism = * all direct-* -12.5pt\n"
						"lab = shows the paths, not the timings\n",
				    &err, &m),
			 0);
	ck_assert_uint_eq(m->nr_mechanisms, 2);
	ck_assert_str_eq(m->mechanisms[0].glob, "sched*");
	ck_assert_str_eq(m->mechanisms[0].scope, "idle-llc");
	ck_assert_str_eq(m->mechanisms[0].paths, "wakelist-*");
	ck_assert(m->mechanisms[0].points == 50);
	ck_assert_int_eq(m->mechanisms[0].line, 10);
	ck_assert_str_eq(m->mechanisms[1].scope, "all");
	ck_assert(m->mechanisms[1].points == -12.5);
	ck_assert_str_eq(m->lab, "shows the paths, not the timings");
	manifest__delete(m);
}
END_TEST

START_TEST(test_malformed)
{
	static const struct bad_case cases[] = {
		{ GOOD_HEAD "in-6.1 = no\nbase = linux-source-6.1\nimprove = a m 1%\nbogus = 1\n",
		  "line 10: unknown key 'bogus'" },
		{ GOOD_HEAD "name = u\n", "line 7: 'name' given twice" },
		{ GOOD_HEAD "just words\n", "line 7: 'just words' is not 'key = value'" },
		{ GOOD_HEAD "suite2 =\n", "line 7: 'suite2' has no value" },
		{ GOOD_HEAD "improve = a m\n", "line 7: 'improve' wants ENTRY-GLOB METRIC PERCENT" },
		{ GOOD_HEAD "improve = a m 3% lower x\n", "wants ENTRY-GLOB METRIC PERCENT" },
		{ GOOD_HEAD "improve = a m 3% sideways\n", "'sideways' is neither 'lower' nor" },
		{ GOOD_HEAD "improve = a m 3\n", "'3' is not a percentage" },
		{ GOOD_HEAD "guard = a m ?\n", "'?' is not a percentage" },
		{ GOOD_HEAD "guard = a m -2%\n", "not negative" },
		{ GOOD_HEAD "mechanism = * idle-llc wakelist-*\n",
		  "'mechanism' wants ENTRY-GLOB all|idle-llc PATH-GLOB +POINTSpt" },
		{ GOOD_HEAD "mechanism = * idle-llc wakelist-* +50pt x\n", "'mechanism' wants" },
		{ GOOD_HEAD "mechanism = * idle wakelist-* +50pt\n",
		  "line 7: 'idle' is neither 'all' nor 'idle-llc'" },
		{ GOOD_HEAD "mechanism = * all wakelist-* 50pt\n", "'50pt' is not a signed change" },
		{ GOOD_HEAD "mechanism = * all wakelist-* +50%\n", "'+50%' is not a signed change" },
		{ GOOD_HEAD "mechanism = * all wakelist-* +0pt\n", "'+0pt' is not a signed change" },
		{ GOOD_HEAD "mechanism = * all wakelist-* +150pt\n", "'+150pt' is not a signed" },
		{ GOOD_HEAD "lab = a\nlab = b\n", "line 8: 'lab' given twice" },
		{ GOOD_HEAD "in-6.1 = maybe\nbase = linux-source-6.1\nimprove = a m 1%\n",
		  "'in-6.1' must be 'yes' or 'no'" },
		{ GOOD_HEAD "in-6.1 = yes\nbase = linux-source-6.1+revert\nimprove = a m 1%\n",
		  "needs 'revert'" },
		{ GOOD_HEAD "in-6.1 = no\nbase = linux-source-6.1\nrevert = r.patch\n"
			    "improve = a m 1%\n",
		  "a revert is named but base is 'linux-source-6.1'" },
		{ GOOD_HEAD "in-6.1 = no\nbase = 5.15\nimprove = a m 1%\n", "base '5.15' is neither" },
		{ GOOD_HEAD "in-6.1 = no\nbase = linux-source-6.1\npatch = 0002-y.patch\n"
			    "improve = a m 1%\n",
		  "2 patches but 1 subjects and 1 commits" },
		{ GOOD_HEAD "in-6.1 = no\nbase = linux-source-6.1\nguard = a m 1%\n",
		  "no 'improve' line" },
		{ "name = t\nsuite = s\nin-6.1 = no\nbase = linux-source-6.1\nimprove = a m 1%\n",
		  "no 'patch'" },
		{ "name = t\nin-6.1 = no\n", "no 'suite'" },
		{ "name = t\nsuite = s\nbase = linux-source-6.1\nsubject = a\ncommit = 6075620b0590\n"
		  "patch = p\nin-6.1 = no\nimprove = a m 1%\n",
		  "commit '6075620b0590' is not a full commit id" },
	};
	struct errbuf err;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err.msg[0] = '\0';
		ck_assert_int_eq(parse_text(cases[i].text, &err, NULL), -EINVAL);
		ck_assert_msg(strstr(err.msg, cases[i].msg), "case %zu: '%s' lacks '%s'", i,
			      err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(test_missing)
{
	struct errbuf err = { "" };
	int ret = 0;

	ck_assert_ptr_null(manifest__read("/nonexistent/series", &ret, &err));
	ck_assert_int_eq(ret, -ENOENT);
	ck_assert_str_eq(err.msg, "cannot open '/nonexistent/series': No such file or directory");
	ck_assert_ptr_null(manifest__read("/tmp", &ret, &err));
	ck_assert_int_eq(ret, -ENOENT);
	ck_assert(strstr(err.msg, "cannot open '/tmp/manifest'"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_wakelist);
	tcase_add_test(tc, test_all_series);
	tcase_add_test(tc, test_mechanism);
	tcase_add_test(tc, test_prefetch_file_path);
	tcase_add_test(tc, test_minimal_forward);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_missing);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
