// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <stdlib.h>

#include "schedlens/symmatch.h"

START_TEST(test_base_len)
{
	ck_assert_uint_eq(symmatch__base_len("update_curr"), 11);
	ck_assert_uint_eq(symmatch__base_len("update_curr.isra.0"), 11);
	ck_assert_uint_eq(symmatch__base_len("chase.constprop.0"), 5);
	ck_assert_uint_eq(symmatch__base_len("f.part.3"), 1);
	ck_assert_uint_eq(symmatch__base_len("f.cold"), 1);
	ck_assert_uint_eq(symmatch__base_len("f.cold.12"), 1);
	ck_assert_uint_eq(symmatch__base_len("f.isra.0.cold"), 1);
	ck_assert_uint_eq(symmatch__base_len("f.constprop.0.isra.0"), 1);
	ck_assert_uint_eq(symmatch__base_len("f.llvm.123456789"), 1);
	ck_assert_uint_eq(symmatch__base_len("f.lto_priv.0"), 1);
	/* not clone suffixes: a number alone, other tags, a leading dot */
	ck_assert_uint_eq(symmatch__base_len("__key.12"), 8);
	ck_assert_uint_eq(symmatch__base_len("a.b"), 3);
	ck_assert_uint_eq(symmatch__base_len(".isra.0"), 7);
	ck_assert_uint_eq(symmatch__base_len("x.isra.y"), 8);
	ck_assert_uint_eq(symmatch__base_len(""), 0);
}
END_TEST

START_TEST(test_is)
{
	ck_assert(symmatch__is("chase", "chase"));
	ck_assert(symmatch__is("chase", "chase.constprop.0"));
	ck_assert(symmatch__is("chase", "chase.isra.0.cold"));
	ck_assert(!symmatch__is("chase", "chaser"));
	ck_assert(!symmatch__is("chase", "chas"));
	ck_assert(!symmatch__is("chase", "chase.1"));
	/* a clone typed as such is that clone only */
	ck_assert(symmatch__is("chase.constprop.0", "chase.constprop.0"));
	ck_assert(!symmatch__is("chase.constprop.0", "chase"));
	ck_assert(!symmatch__is("chase.constprop.0", "chase.constprop.1"));
	ck_assert(!symmatch__is("chase", NULL));
	ck_assert(!symmatch__is(NULL, "chase"));
}
END_TEST

START_TEST(test_distance)
{
	ck_assert_uint_eq(symmatch__distance("kitten", "sitting"), 3);
	ck_assert_uint_eq(symmatch__distance("", "abc"), 3);
	ck_assert_uint_eq(symmatch__distance("abc", "abc"), 0);
	ck_assert_uint_eq(symmatch__distance("update_cur", "update_curr"), 1);
}
END_TEST

START_TEST(test_nearest)
{
	const char *names[] = { "main", "chase.constprop.0", "walk.isra.0", "chase",
				"finish_task_switch.isra.0", "update_curr", "update_cfs_group",
				NULL };
	size_t out[5], n;

	n = symmatch__nearest("chas", names, 8, out, 5);
	ck_assert_uint_eq(n, 1);	/* chase once: the hotter, first, of its two names */
	ck_assert_uint_eq(out[0], 1);
	n = symmatch__nearest("finish_task", names, 8, out, 5);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out[0], 4);
	n = symmatch__nearest("update_cur", names, 8, out, 5);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out[0], 5);
	n = symmatch__nearest("update_c", names, 8, out, 1);
	ck_assert_uint_eq(n, 1);	/* both hold it: the first listed */
	ck_assert_uint_eq(out[0], 5);
	n = symmatch__nearest("wlk", names, 8, out, 5);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out[0], 2);
	ck_assert_uint_eq(symmatch__nearest("zzzzzzzzzzzz", names, 8, out, 5), 0);
	ck_assert_uint_eq(symmatch__nearest("chase", names, 8, out, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symmatch");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_base_len);
	tcase_add_test(tc, test_is);
	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_nearest);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
