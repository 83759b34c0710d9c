// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/hugebuf.h"

START_TEST(test_grow)
{
	struct hugebuf b = { 0 };
	unsigned char *p;
	size_t i, old;

	ck_assert_int_eq(hugebuf__reserve(&b, 0), 0);
	ck_assert_int_eq(hugebuf__reserve(&b, 100), 0);
	ck_assert_ptr_nonnull(b.p);
	ck_assert_uint_ge(b.cap, 100);
	/* 2 MB aligned, all of it writable */
	ck_assert_uint_eq((uintptr_t)b.p % (2u << 20), 0);
	p = b.p;
	memset(p, 0xa5, b.cap);
	old = b.cap;
	/* no growth while it fits */
	ck_assert_int_eq(hugebuf__reserve(&b, old), 0);
	ck_assert_ptr_eq(b.p, p);
	/* growth keeps what was there */
	ck_assert_int_eq(hugebuf__reserve(&b, old + 1), 0);
	ck_assert_uint_ge(b.cap, old + 1);
	p = b.p;
	ck_assert_uint_eq((uintptr_t)b.p % (2u << 20), 0);
	for (i = 0; i < old; i += 997)
		ck_assert_uint_eq(p[i], 0xa5);
	ck_assert_uint_eq(p[old - 1], 0xa5);
	memset(p + old, 0x5a, b.cap - old);
	ck_assert_int_eq(hugebuf__reserve(&b, SIZE_MAX), -ENOMEM);
	ck_assert_ptr_eq(b.p, p);
	hugebuf__free(&b);
	ck_assert_ptr_null(b.p);
	ck_assert_uint_eq(b.cap, 0);
	hugebuf__free(&b);
}
END_TEST

/* a buffer with a small first size: that size, doubled while under 2 MB, then 2 MB aligned */
START_TEST(test_small_first)
{
	struct hugebuf b = { .first = 64u << 10 };
	unsigned char *p;
	size_t i;

	ck_assert_int_eq(hugebuf__reserve(&b, 100), 0);
	ck_assert_uint_eq(b.cap, 64u << 10);
	memset(b.p, 0x3c, b.cap);
	ck_assert_int_eq(hugebuf__reserve(&b, (64u << 10) + 1), 0);
	ck_assert_uint_eq(b.cap, 128u << 10);
	p = b.p;
	for (i = 0; i < (64u << 10); i += 61)
		ck_assert_uint_eq(p[i], 0x3c);
	memset(b.p, 0x3c, b.cap);
	ck_assert_int_eq(hugebuf__reserve(&b, (3u << 20)), 0);
	ck_assert_uint_eq(b.cap, 4u << 20);
	ck_assert_uint_eq((uintptr_t)b.p % (2u << 20), 0);
	p = b.p;
	ck_assert_uint_eq(p[(128u << 10) - 1], 0x3c);
	memset(p, 0, b.cap);
	hugebuf__free(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hugebuf");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_small_first);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
