// SPDX-License-Identifier: GPL-2.0
/* hist: an event group's histograms side by side (hist_rows) and the groups of a file. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/hist.h"
#include "schedlens/perfdata.h"

static const enum hist_sort comm_dso[] = { HIST_SORT_COMM, HIST_SORT_DSO };

static void add(struct hist *h, const char *comm, const char *dso, uint64_t period, int n)
{
	struct hist_key k = { .comm = comm, .dso = dso };

	while (n--)
		ck_assert_int_eq(hist__add(h, &k, period), 0);
}

START_TEST(test_rows_union_and_order)
{
	struct hist *m[3] = { hist__new(comm_dso, 2), hist__new(comm_dso, 2),
			      hist__new(comm_dso, 2) };
	/* equal contents at other addresses: rows match by content, as after collapsing */
	char echo2[] = "echo", ld2[] = "ld.so";
	struct hist_rows *rows;
	struct hist_row r;

	add(m[0], "echo", "[kernel]", 10, 6);
	add(m[0], "echo", "ld.so", 10, 2);
	add(m[0], "echo", "libc.so", 10, 2);
	add(m[1], echo2, "[kernel]", 7, 3);
	add(m[1], echo2, ld2, 7, 5);
	add(m[1], "perf", "[kernel]", 7, 1);	/* in a member only: a row with 0 for the leader */
	add(m[2], "echo", "libc.so", 1, 4);
	rows = hist_rows__new(m, 3, false);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_eq(hist_rows__nr(rows), 4);
	r = hist_rows__get(rows, 0);
	ck_assert_str_eq(r.key->dso, "[kernel]");
	ck_assert_uint_eq(r.period[0], 60);
	ck_assert_uint_eq(r.period[1], 21);
	ck_assert_uint_eq(r.period[2], 0);
	ck_assert_uint_eq(r.nr_samples[1], 3);
	/* equal leader periods: the next member's decides (ld.so 35 before libc.so 0) */
	r = hist_rows__get(rows, 1);
	ck_assert_str_eq(r.key->dso, "ld.so");
	ck_assert_uint_eq(r.period[1], 35);
	ck_assert_uint_eq(r.nr_samples[1], 5);
	r = hist_rows__get(rows, 2);
	ck_assert_str_eq(r.key->dso, "libc.so");
	ck_assert_uint_eq(r.period[2], 4);
	ck_assert_uint_eq(r.nr_samples[2], 4);
	r = hist_rows__get(rows, 3);
	ck_assert_str_eq(r.key->comm, "perf");
	ck_assert_uint_eq(r.period[0], 0);
	ck_assert_uint_eq(r.period[1], 7);
	/* the members' totals are theirs alone */
	ck_assert_uint_eq(hist__total_period(m[1]), 63);
	hist_rows__delete(rows);
	for (int i = 0; i < 3; i++)
		hist__delete(m[i]);
}
END_TEST

START_TEST(test_rows_one_member_ties_by_key)
{
	struct hist *h = hist__new(comm_dso, 2);
	struct hist_rows *rows;

	add(h, "b", "x", 5, 1);
	add(h, "a", "y", 5, 1);
	add(h, "c", "x", 9, 1);
	add(h, "a", "x", 5, 1);
	rows = hist_rows__new(&h, 1, false);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_eq(hist_rows__nr(rows), 4);
	ck_assert_str_eq(hist_rows__get(rows, 0).key->comm, "c");
	/* equal periods by the sort keys in order, ascending, as perf's output sort */
	ck_assert_str_eq(hist_rows__get(rows, 1).key->comm, "a");
	ck_assert_str_eq(hist_rows__get(rows, 1).key->dso, "x");
	ck_assert_str_eq(hist_rows__get(rows, 2).key->dso, "y");
	ck_assert_str_eq(hist_rows__get(rows, 3).key->comm, "b");
	hist_rows__delete(rows);
	/* an empty histogram has no rows */
	hist__delete(h);
	h = hist__new(comm_dso, 2);
	rows = hist_rows__new(&h, 1, false);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_eq(hist_rows__nr(rows), 0);
	hist_rows__delete(rows);
	hist__delete(h);
}
END_TEST

/*
 * Rows perf's output order leaves tied (one symbol name at other starts, equal periods) come
 * by content, the symbol's start, whatever order they were added in: the rows' order is total
 */
START_TEST(test_rows_ties_past_the_output_order)
{
	static const enum hist_sort sym[] = { HIST_SORT_SYM };
	static const int obj;
	struct hist *h = hist__new(sym, 1);
	struct hist_rows *rows;
	size_t i;

	for (i = 0; i < 4; i++) {
		struct hist_key k = { .sym = &obj, .sym_name = "f",
				   .sym_start = 0x4000 - i * 0x1000 };

		ck_assert_int_eq(hist__add(h, &k, 7), 0);
	}
	rows = hist_rows__new(&h, 1, false);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_eq(hist_rows__nr(rows), 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(hist_rows__get(rows, i).key->sym_start, 0x1000 + i * 0x1000);
	hist_rows__delete(rows);
	hist__delete(h);
}
END_TEST

/*
 * hist__collapse() merges entries equal by content into the first added, whatever their
 * number and order: many threads' comm buffers of one name, each its own entry while adding
 */
START_TEST(test_collapse_keeps_the_first)
{
	static const enum hist_sort comm_sym[] = { HIST_SORT_COMM, HIST_SORT_SYM };
	struct hist *h = hist__new(comm_sym, 2);
	char comms[300][8];
	const struct hist_entry *v;
	size_t nr, i;

	for (i = 0; i < 300; i++) {
		struct hist_key k = { .comm = comms[i], .addr = 0x1000 + i % 3, .level = 'a' + i };

		strcpy(comms[i], i % 2 ? "odd" : "even");
		ck_assert_int_eq(hist__add(h, &k, i + 1), 0);
	}
	ck_assert_int_eq(hist__collapse(h), 0);
	v = hist__sorted(h, &nr);
	ck_assert_uint_eq(nr, 6);	/* 2 comms x 3 addresses */
	for (i = 0; i < nr; i++) {
		size_t first = (size_t)(v[i].key.level - 'a'), j;
		uint64_t period = 0;

		/* the first added of its content: the key it keeps (its level) is that one's */
		ck_assert_uint_lt(first, 6);
		ck_assert_uint_eq(v[i].key.addr, 0x1000 + first % 3);
		ck_assert_str_eq(v[i].key.comm, first % 2 ? "odd" : "even");
		for (j = first; j < 300; j += 6)
			period += j + 1;
		ck_assert_uint_eq(v[i].period, period);
		ck_assert_uint_eq(v[i].nr_samples, 50);
	}
	hist__delete(h);
}
END_TEST

START_TEST(test_pid_key_is_the_thread)
{
	const enum hist_sort pid[] = { HIST_SORT_PID };
	struct hist *h = hist__new(pid, 1);
	struct hist_key a = { .comm = "x", .dso = "d", .pid = 10, .tid = 10 };
	struct hist_key b = { .comm = "x", .dso = "d", .pid = 10, .tid = 11 };
	struct hist_rows *rows;

	/* perf's pid key is the thread: two threads of one process are two rows */
	ck_assert_int_eq(hist__add(h, &a, 1), 0);
	ck_assert_int_eq(hist__add(h, &b, 2), 0);
	ck_assert_int_eq(hist__add(h, &b, 2), 0);
	rows = hist_rows__new(&h, 1, false);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_eq(hist_rows__nr(rows), 2);
	ck_assert_int_eq(hist_rows__get(rows, 0).key->tid, 11);
	ck_assert_uint_eq(hist_rows__get(rows, 0).nr_samples[0], 2);
	hist_rows__delete(rows);
	hist__delete(h);
}
END_TEST

START_TEST(test_groups_from_desc)
{
	char anon[] = "{anon_group}", named[] = "pair";
	struct perf_group_desc d[] = { { anon, 0, 3 }, { named, 4, 2 } };
	const char *names[] = { "cycles:pp", "instructions:pp", "branches", "dummy", "a", "b" };
	struct hist_group g[6];
	char buf[128];

	ck_assert_int_eq(hist_groups__init(g, 6, d, 2, false), 0);
	ck_assert_uint_eq(g[0].nr_members, 3);
	ck_assert_uint_eq(g[1].nr_members, 0);
	ck_assert_uint_eq(g[2].nr_members, 0);
	ck_assert_uint_eq(g[3].nr_members, 1);	/* outside every group */
	ck_assert_uint_eq(g[4].nr_members, 2);
	ck_assert_str_eq(hist_group__desc(g, 0, names, buf, sizeof(buf)),
			 "anon group { cycles:pp, instructions:pp, branches }");
	ck_assert_str_eq(hist_group__desc(g, 4, names, buf, sizeof(buf)), "pair { a, b }");
	/* --group on a file with groups changes nothing */
	ck_assert_int_eq(hist_groups__init(g, 6, d, 2, true), 0);
	ck_assert_uint_eq(g[0].nr_members, 3);
	ck_assert(!g[0].forced);
	/* a description past the events, or overlapping another, is refused */
	d[1].leader_idx = 5;
	ck_assert_int_eq(hist_groups__init(g, 6, d, 2, false), -EINVAL);
	ck_assert_uint_eq(g[5].nr_members, 1);
	d[1].leader_idx = 2;
	ck_assert_int_eq(hist_groups__init(g, 6, d, 2, false), -EINVAL);
	ck_assert_uint_eq(g[3].nr_members, 1);
	ck_assert_uint_eq(g[0].nr_members, 3);
}
END_TEST

START_TEST(test_groups_forced)
{
	const char *names[] = { "cycles", "instructions", "cache-misses" };
	struct hist_group g[3];
	char buf[128];

	/* without descriptions every event is alone, and with --group all are one */
	ck_assert_int_eq(hist_groups__init(g, 3, NULL, 0, false), 0);
	ck_assert_uint_eq(g[0].nr_members, 1);
	ck_assert_uint_eq(g[2].nr_members, 1);
	ck_assert_int_eq(hist_groups__init(g, 3, NULL, 0, true), 0);
	ck_assert_uint_eq(g[0].nr_members, 3);
	ck_assert_uint_eq(g[1].nr_members, 0);
	ck_assert_str_eq(hist_group__desc(g, 0, names, buf, sizeof(buf)),
			 "cycles, instructions, cache-misses");
	/* truncated, still terminated */
	ck_assert_str_eq(hist_group__desc(g, 0, names, buf, 10), "cycles, i");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("groups");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_rows_union_and_order);
	tcase_add_test(tc, test_rows_one_member_ties_by_key);
	tcase_add_test(tc, test_rows_ties_past_the_output_order);
	tcase_add_test(tc, test_pid_key_is_the_thread);
	tcase_add_test(tc, test_collapse_keeps_the_first);
	tcase_add_test(tc, test_groups_from_desc);
	tcase_add_test(tc, test_groups_forced);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
