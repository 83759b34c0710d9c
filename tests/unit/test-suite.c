// SPDX-License-Identifier: GPL-2.0
/* Suite files: the shipped ones parse; ranges resolve; bad ones get messages that say where. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/suite.h"

static struct suite *parse(const char *text, long ncpu, struct errbuf *err)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	struct suite *s;

	ck_assert_msg(j, "%s", je.text);
	s = suite__parse(j, "t.json", ncpu, err);
	json_decref(j);
	return s;
}

START_TEST(test_shipped)
{
	static const char *const names[] = { "quick", "prefetch", "wakelist", "wakee-flips",
					     "idle-cpumask" };
	char dir[4096];
	struct errbuf err = { "" };
	size_t i;

	snprintf(dir, sizeof(dir), "%s/data", getenv("SCHEDLENS_TOP") ?: ".");
	setenv("SCHEDLENS_DATADIR", dir, 1);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct suite *s = suite__load(names[i], 4, &err);

		ck_assert_msg(s, "%s: %s", names[i], err.msg);
		ck_assert_str_eq(s->name, names[i]);
		ck_assert(s->nentries > 0 && suite__total_iterations(s) > 0);
		suite__delete(s);
	}
	ck_assert_ptr_null(suite__load("nonesuch", 4, &err));
	ck_assert_msg(strstr(err.msg, "cannot read suite 'nonesuch'"), "%s", err.msg);
}
END_TEST

START_TEST(test_prefetch_ranges)
{
	struct errbuf err = { "" };
	char dir[4096];
	struct suite *s;

	snprintf(dir, sizeof(dir), "%s/data", getenv("SCHEDLENS_TOP") ?: ".");
	setenv("SCHEDLENS_DATADIR", dir, 1);
	s = suite__load("prefetch", 8, &err);
	ck_assert_msg(s, "%s", err.msg);
	/* 2, nCPU, 2*nCPU and 4*nCPU threads */
	ck_assert_uint_eq(s->entries[0].nvalues, 4);
	ck_assert_int_eq(s->entries[0].values[1], 8);
	ck_assert_int_eq(s->entries[0].values[3], 32);
	ck_assert_str_eq(s->entries[0].option, "-t");
	ck_assert_int_eq(suite_entry__better(&s->entries[0], "cycles", BETTER_NONE), BETTER_LOWER);
	ck_assert_int_eq(suite_entry__better(&s->entries[0], "nonesuch", BETTER_HIGHER),
			 BETTER_HIGHER);
	suite__delete(s);
	/* on 2 CPUs "ncpu" is the 2 already there: it runs once */
	s = suite__load("prefetch", 2, &err);
	ck_assert_msg(s, "%s", err.msg);
	ck_assert_uint_eq(s->entries[0].nvalues, 3);
	suite__delete(s);
}
END_TEST

START_TEST(test_values)
{
	long v;

	ck_assert_int_eq(suite__value("12", 4, &v), 0);
	ck_assert_int_eq(v, 12);
	ck_assert_int_eq(suite__value("ncpu", 4, &v), 0);
	ck_assert_int_eq(v, 4);
	ck_assert_int_eq(suite__value("3*ncpu", 4, &v), 0);
	ck_assert_int_eq(v, 12);
	ck_assert_int_eq(suite__value("0", 4, &v), -EINVAL);
	ck_assert_int_eq(suite__value("x*ncpu", 4, &v), -EINVAL);
	ck_assert_int_eq(suite__value("ncpus", 4, &v), -EINVAL);
}
END_TEST

START_TEST(test_entries)
{
	struct errbuf err = { "" };
	struct suite *s = parse("{\"suite\": \"t\", \"iterations\": 3, \"events\": [\"cycles\"],"
				" \"tracepoints\": [\"sched:sched_wakeup\"],"
				" \"better\": {\"cycles\": \"lower\", \"time\": \"higher\"},"
				" \"entries\": [{\"workload\": \"pipe\", \"args\": [\"-l\", \"5\"],"
				" \"better\": {\"time\": \"lower\"}, \"iterations\": 7},"
				" {\"workload\": \"messaging\", \"group\": \"hb\"}]}",
				4, &err);

	ck_assert_msg(s, "%s", err.msg);
	ck_assert_uint_eq(s->nentries, 2);
	ck_assert_str_eq(s->entries[0].group, "pipe");
	ck_assert_str_eq(s->entries[1].group, "hb");
	ck_assert_uint_eq(s->entries[0].iterations, 7);
	ck_assert_uint_eq(s->entries[1].iterations, 3);
	ck_assert_uint_eq(s->entries[0].nevents, 2);
	ck_assert_str_eq(s->entries[0].events[1], "sched:sched_wakeup");
	ck_assert_uint_eq(s->entries[0].nargs, 2);
	/* the entry's direction wins over the suite's */
	ck_assert_int_eq(suite_entry__better(&s->entries[0], "time", BETTER_NONE), BETTER_LOWER);
	ck_assert_int_eq(suite_entry__better(&s->entries[1], "time", BETTER_NONE), BETTER_HIGHER);
	ck_assert_uint_eq(s->entries[1].nvalues, 1);
	ck_assert_uint_eq(suite__total_iterations(s), 10);
	ck_assert(s->nvmstat > 5);
	suite__delete(s);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "[]", "'t.json': not a suite" },
		{ "{\"entries\": [{\"workload\": \"pipe\"}]}", "'t.json': 'suite' (its name) is missing" },
		{ "{\"suite\": \"t\", \"entries\": []}", "'entries' must be a non-empty array" },
		{ "{\"suite\": \"t\", \"entires\": []}", "unknown key 'entires'" },
		{ "{\"suite\": \"t\", \"entries\": [{\"args\": []}]}", "entries[0]: 'workload' is missing" },
		{ "{\"suite\": \"t\", \"entries\": [{\"workload\": \"pipe\", \"args\": [1]}]}",
		  "entries[0]: 'args'[0] must be a non-empty string" },
		{ "{\"suite\": \"t\", \"iterations\": 0, \"entries\": [{\"workload\": \"pipe\"}]}",
		  "'iterations' must be an integer in 1..100000" },
		{ "{\"suite\": \"t\", \"entries\": [{\"workload\": \"pipe\", \"better\": {\"x\": \"up\"}}]}",
		  "entries[0]: 'better'.'x' must be \"lower\", \"higher\" or \"none\"" },
		{ "{\"suite\": \"t\", \"entries\": [{\"workload\": \"pipe\", \"range\": {\"param\": \"g\"}}]}",
		  "entries[0]: 'range' needs 'param' and 'option' strings" },
		{ "{\"suite\": \"t\", \"entries\": [{\"workload\": \"pipe\", \"range\": {\"param\": \"g\","
		  " \"option\": \"-g\", \"values\": [1, \"lots\"]}}]}",
		  "entries[0]: 'range'.'values'[1] must be a positive integer" },
	};
	struct errbuf err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err.msg[0] = '\0';
		ck_assert_ptr_null(parse(bad[i].text, 4, &err));
		ck_assert_msg(strstr(err.msg, bad[i].msg), "%zu: '%s' lacks '%s'", i, err.msg,
			      bad[i].msg);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("suite");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_shipped);
	tcase_add_test(tc, test_prefetch_ranges);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_entries);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
